/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the ordered vendor list, built and loaded once per process on the first EGL call
 * that needs vendors. The selector (src/select) finds the vendors — libglvnd's
 * __EGL_VENDOR_LIBRARY_FILENAMES / __EGL_VENDOR_LIBRARY_DIRS exactly as libglvnd reads them, else
 * the glmux vendor directory (or GLMUX_VENDOR_DIRS) and libglvnd's JSON directories, one vendor
 * per name — and puts the vendors that serve the chosen GPU first (docs/vendors.md §3, §4). The
 * list is loaded in that order, so eglGetDisplay(EGL_DEFAULT_DISPLAY), eglGetPlatformDisplay and
 * the device list all see the same order. Just before a vendor is dlopened, the variables it
 * needs to render on the chosen GPU are set (DRI_PRIME, __NV_PRIME_RENDER_OFFLOAD), under this
 * pthread_once. GLMUX_DEBUG=vendor and GLMUX_DEBUG=select explain every step.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egl_internal.h"
#include "select/select.h"
#include "util/env.h"
#include "util/log.h"

static pthread_once_t vendors_once = PTHREAD_ONCE_INIT;
static glmux_egl_vendor *vendor_list;
static bool vendors_done;
/* Kept for the life of the process (docs/vendors.md §7); freed when libEGL is unloaded. */
static struct glmux_select *selector;
static struct glmux_vendor_list discovered;

/* Where the vendors were looked for, for the "none loaded" warning. */
static void describe_search(const struct glmux_vendor_list *vl, char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = '\0';
    if (vl->override_variable != NULL && vl->n_dirs == 0) {
        snprintf(buf, size, "%s", vl->override_variable);
        return;
    }
    for (size_t i = 0; i < vl->n_dirs && len + 1 < size; i++) {
        int n = snprintf(buf + len, size - len, "%s%s", i ? ":" : "", vl->dirs[i]);

        if (n < 0)
            break;
        len += (size_t)n;
    }
}

/* Loads the discovered vendors that have an EGL library, in the selector's order
 * (glmux_select_egl_plan, the rule `glmux explain` shows). */
static int load_in_order(void)
{
    size_t *order = calloc(discovered.count + 1, sizeof(*order));
    glmux_egl_vendor **tail = &vendor_list;
    size_t count;
    int loaded = 0;

    if (order == NULL)
        return 0;
    for (size_t i = 0; i < discovered.count; i++)
        if (discovered.vendors[i].egl_library == NULL)
            glmux_log(GLMUX_LOG_VENDOR, "vendor \"%s\" has no EGL library (GLX only)",
                      discovered.vendors[i].name);
    count = glmux_select_egl_plan(selector, &discovered, order);
    for (size_t k = 0; k < count; k++) {
        const struct glmux_vendor *d = &discovered.vendors[order[k]];
        struct glmux_select_candidate cand = glmux_select_candidate_of(d);
        glmux_egl_vendor *v;

        /* Under the pthread_once, before the dlopen: docs/vendors.md §7 says why. */
        glmux_select_apply_vendor_env(selector, &cand);
        v = glmux_egl_vendor_load(d->egl_library, d->manifests[0], vendor_list);
        if (v == NULL)
            continue;
        v->select_index = order[k];
        *tail = v;
        tail = &v->next;
        loaded++;
    }
    free(order);
    return loaded;
}

static void load_vendors(void)
{
    int loaded = 0;

    if (!glmux_egl_usable())
        return;
    if (glmux_env_is_secure())
        glmux_log(GLMUX_LOG_VENDOR, "secure-execution process: ignoring "
                  "__EGL_VENDOR_LIBRARY_FILENAMES, __EGL_VENDOR_LIBRARY_DIRS and "
                  "GLMUX_VENDOR_DIRS");
    selector = glmux_select_new(NULL);
    if (selector != NULL && glmux_vendor_list_discover(&discovered)) {
        if (discovered.override_variable != NULL)
            glmux_log(GLMUX_LOG_VENDOR, "%s is set: loading only what it names, in its order",
                      discovered.override_variable);
        loaded = load_in_order();
    }
    if (loaded == 0) {
        char where[512];

        describe_search(&discovered, where, sizeof(where));
        glmux_log(GLMUX_LOG_WARN | GLMUX_LOG_VENDOR, "no EGL vendor library loaded; searched %s; "
                  "set GLMUX_DEBUG=warn,vendor to see why", where[0] ? where : "nothing");
    } else {
        glmux_log(GLMUX_LOG_VENDOR, "%d EGL vendor(s) loaded", loaded);
    }
    __atomic_store_n(&vendors_done, true, __ATOMIC_RELEASE);
}

/* The display's GPU tag and how it was found; false when unknown (why says so). known: the
 * enumerated GPUs, matched by device number before libdrm is asked. */
static bool display_gpu(const struct glmux_gpu_list *known, EGLenum platform, void *native,
                        char *tag, size_t size, const char **how, char *why, size_t why_size)
{
    enum glmux_display_server server;

    if (platform == EGL_PLATFORM_GBM_KHR && native != NULL) {
        *how = "the GBM device's fd";
        snprintf(why, why_size, "the GBM device's fd is no DRM device libdrm knows");
        return glmux_display_gbm_gpu(known, native, tag, size);
    }
    if (platform == EGL_PLATFORM_WAYLAND_KHR && native != NULL) {   /* the same value as _EXT */
        *how = GLMUX_DISPLAY_HOW_WAYLAND_APP;
        return glmux_display_wayland_gpu(known, native, tag, size, why, why_size);
    }
    if (platform == EGL_PLATFORM_X11_KHR && native != NULL) {
        *how = "the X server's DRI3 device, asked over the application's connection";
        return glmux_display_x11_gpu(known, native, -1, tag, size, why, why_size);
    }
    if (native != NULL || (platform != EGL_NONE && platform != EGL_PLATFORM_X11_KHR &&
                           platform != EGL_PLATFORM_WAYLAND_KHR)) {
        snprintf(why, why_size, "platform 0x%04x: the display's GPU is not looked up",
                 (unsigned)platform);
        return false;
    }
    /* The default display: the server EGL_PLATFORM chose, else DISPLAY's, else
     * WAYLAND_DISPLAY's (glmux_display_default_server, as `glmux explain` decides). */
    server = platform == EGL_PLATFORM_X11_KHR       ? GLMUX_DISPLAY_SERVER_X11
             : platform == EGL_PLATFORM_WAYLAND_KHR ? GLMUX_DISPLAY_SERVER_WAYLAND
                                                    : glmux_display_default_server(why, why_size);
    if (server == GLMUX_DISPLAY_SERVER_X11) {
        *how = GLMUX_DISPLAY_HOW_X11_OWN;
        return glmux_display_x11_gpu(known, NULL, -1, tag, size, why, why_size);
    }
    if (server == GLMUX_DISPLAY_SERVER_WAYLAND) {
        *how = GLMUX_DISPLAY_HOW_WAYLAND_OWN;
        return glmux_display_wayland_gpu(known, NULL, tag, size, why, why_size);
    }
    return false;
}

size_t glmux_egl_display_vendors(EGLenum platform, void *native, glmux_egl_vendor **out,
                                 size_t max)
{
    struct glmux_select_candidate cands[64];
    glmux_egl_vendor *loaded[64];
    size_t n = 0, order[64];
    const char *how = NULL;
    char tag[80], why[256];

    for (glmux_egl_vendor *v = glmux_egl_vendors(); v != NULL && n < max && n < 64; v = v->next)
        loaded[n] = out[n] = v, n++;
    /* A choice only with two vendors and GPUs already enumerated (by the vendor order). */
    if (n < 2 || selector == NULL || !glmux_select_enumerated(selector) ||
        glmux_select_gpus(selector)->count < 2)
        return n;
    if (!display_gpu(glmux_select_gpus(selector), platform, native, tag, sizeof(tag), &how, why,
                     sizeof(why))) {
        glmux_log(GLMUX_LOG_SELECT, "display %p (platform 0x%04x): GPU unknown (%s); the "
                  "process's vendor order", native, (unsigned)platform, why);
        return n;
    }
    for (size_t i = 0; i < n; i++)
        cands[i] = glmux_select_candidate_of(&discovered.vendors[loaded[i]->select_index]);
    glmux_select_display_order(selector, cands, n, tag, order, why, sizeof(why));
    glmux_log(GLMUX_LOG_SELECT, "display %p (platform 0x%04x): GPU %s from %s; %s", native,
              (unsigned)platform, tag, how, why);
    for (size_t i = 0; i < n; i++)
        out[i] = loaded[order[i]];
    return n;
}

/* egl_shared.h: the vendors as a display of platform would ask them, for libGLX. */
static size_t shared_vendors(EGLenum platform, struct glmux_egl_shared_vendor *out, size_t max)
{
    glmux_egl_vendor *list[64];
    size_t n = glmux_egl_display_vendors(platform, NULL, list, max < 64 ? max : 64);

    for (size_t i = 0; i < n; i++) {
        out[i].name = discovered.vendors[list[i]->select_index].name;
        out[i].library = list[i]->library;
        out[i].imports = &list[i]->imports;
    }
    return n;
}

const struct glmux_egl_shared glmux_egl_shared = {
    .version = GLMUX_EGL_SHARED_VERSION,
    .vendors = shared_vendors,
};

glmux_egl_vendor *glmux_egl_vendors(void)
{
    pthread_once(&vendors_once, load_vendors);
    return vendor_list;
}

glmux_egl_vendor *glmux_egl_vendors_loaded(void)
{
    return __atomic_load_n(&vendors_done, __ATOMIC_ACQUIRE) ? vendor_list : NULL;
}

void glmux_egl_vendors_teardown(void)
{
    glmux_egl_vendor *v = vendor_list;

    vendor_list = NULL;
    while (v != NULL) {
        glmux_egl_vendor *next = v->next;

        glmux_egl_vendor_free(v);
        v = next;
    }
    glmux_vendor_list_clear(&discovered);
    glmux_select_free(selector);
    selector = NULL;
}
