/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: process and thread state. It holds the exports table handed to every vendor,
 * the per-thread error / last vendor / bound API / label (plain TLS, so a thread that exits
 * leaves nothing to free), the current-context record that rides on libGLdispatch's thread
 * state, fork recovery (a pthread_atfork child handler instead of a getpid() test on every
 * call) and the load/unload of the library itself.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "egl_internal.h"
#include "util/log.h"

static pthread_key_t tls_key;
static bool lib_usable;

static void tls_destroyed(void *data)
{
    free(data);
}

struct glmux_egl_tls *glmux_egl_tls_peek(void)
{
    return lib_usable ? pthread_getspecific(tls_key) : NULL;
}

struct glmux_egl_tls *glmux_egl_tls(void)
{
    struct glmux_egl_tls *t;

    if (!lib_usable)
        return NULL;
    t = pthread_getspecific(tls_key);
    if (t != NULL)
        return t;
    t = calloc(1, sizeof(*t));
    if (t == NULL)
        return NULL;
    t->error = EGL_SUCCESS;
    t->api = EGL_OPENGL_ES_API;
    if (pthread_setspecific(tls_key, t) != 0) {
        free(t);
        return NULL;
    }
    return t;
}

void glmux_egl_tls_free(void)
{
    struct glmux_egl_tls *t = glmux_egl_tls_peek();

    if (t != NULL) {
        pthread_setspecific(tls_key, NULL);
        free(t);
    }
}

bool glmux_egl_usable(void)
{
    return lib_usable;
}

void glmux_egl_thread_init(void)
{
    /* Gives an entry-point patching owner its per-thread hook. */
    __glDispatchCheckMultithreaded();
}

void glmux_egl_entry(void)
{
    struct glmux_egl_tls *t;

    __glDispatchCheckMultithreaded();
    t = glmux_egl_tls_peek();
    if (t != NULL) {
        t->error = EGL_SUCCESS;
        t->last_vendor = NULL;
    }
}

void glmux_egl_set_error(EGLint error)
{
    struct glmux_egl_tls *t = error == EGL_SUCCESS ? glmux_egl_tls_peek() : glmux_egl_tls();

    if (t != NULL) {
        t->error = error;
        t->last_vendor = NULL;
    }
}

bool glmux_egl_set_last_vendor(glmux_egl_vendor *vendor)
{
    struct glmux_egl_tls *t = glmux_egl_tls();

    if (t == NULL)
        return false;
    t->error = EGL_SUCCESS;
    t->last_vendor = vendor;
    return true;
}

struct glmux_egl_current *glmux_egl_current_get(void)
{
    __GLdispatchThreadState *s = __glDispatchGetCurrentThreadState();

    if (s == NULL || s->tag != GLDISPATCH_API_EGL)
        return NULL;
    return (struct glmux_egl_current *)s;
}

/* ---- the exports table ---- */

static EGLenum export_get_current_api(void)
{
    struct glmux_egl_tls *t = glmux_egl_tls_peek();

    return t ? t->api : EGL_OPENGL_ES_API;
}

static __EGLvendorInfo *export_get_current_vendor(void)
{
    struct glmux_egl_current *cur = glmux_egl_current_get();

    return cur ? cur->vendor : NULL;
}

static EGLContext export_get_current_context(void)
{
    struct glmux_egl_current *cur = glmux_egl_current_get();

    return cur ? cur->context : EGL_NO_CONTEXT;
}

static EGLDisplay export_get_current_display(void)
{
    struct glmux_egl_current *cur = glmux_egl_current_get();

    return cur ? cur->display : EGL_NO_DISPLAY;
}

static EGLSurface export_get_current_surface(EGLint readdraw)
{
    struct glmux_egl_current *cur = glmux_egl_current_get();

    if (cur == NULL)
        return EGL_NO_SURFACE;
    if (readdraw == EGL_DRAW)
        return cur->draw;
    if (readdraw == EGL_READ)
        return cur->read;
    return EGL_NO_SURFACE;
}

static __eglMustCastToProperFunctionPointerType export_fetch(__EGLvendorInfo *vendor, int index)
{
    return glmux_egl_vendor_fetch(vendor, index);
}

static EGLBoolean export_set_last_vendor(__EGLvendorInfo *vendor)
{
    return glmux_egl_set_last_vendor(vendor) ? EGL_TRUE : EGL_FALSE;
}

static __EGLvendorInfo *export_vendor_from_display(EGLDisplay dpy)
{
    return glmux_egl_display_vendor(dpy);
}

static __EGLvendorInfo *export_vendor_from_device(EGLDeviceEXT dev)
{
    return glmux_egl_device_vendor(dev);
}

static EGLBoolean export_set_vendor_for_device(EGLDeviceEXT dev, __EGLvendorInfo *vendor)
{
    if (dev == EGL_NO_DEVICE_EXT)
        return EGL_TRUE;
    return glmux_egl_device_set(dev, vendor) ? EGL_TRUE : EGL_FALSE;
}

const __EGLapiExports glmux_egl_exports = {
    .threadInit = glmux_egl_thread_init,
    .getCurrentApi = export_get_current_api,
    .getCurrentVendor = export_get_current_vendor,
    .getCurrentContext = export_get_current_context,
    .getCurrentDisplay = export_get_current_display,
    .getCurrentSurface = export_get_current_surface,
    .fetchDispatchEntry = export_fetch,
    .setEGLError = glmux_egl_set_error,
    .setLastVendor = export_set_last_vendor,
    .getVendorFromDisplay = export_vendor_from_display,
    .getVendorFromDevice = export_vendor_from_device,
    .setVendorForDevice = export_set_vendor_for_device,
};

/* ---- fork, load, unload ---- */

static void after_fork_child(void)
{
    if (!lib_usable)
        return;
    /*
     * Only this thread survives. Its context (if any) belonged to the parent's vendor state:
     * forget it, as libglvnd does, and start the thread state afresh. Vendors, display and
     * device maps and the winsys names stay.
     */
    glmux_egl_current_after_fork();
    glmux_egl_maps_reset_locks();
    glmux_egl_strings_after_fork();
    glmux_egl_procaddr_after_fork();
    glmux_egl_debug_after_fork();
    for (glmux_egl_vendor *v = glmux_egl_vendors_loaded(); v != NULL; v = v->next)
        pthread_mutex_init(&v->dyn_lock, NULL);
    glmux_egl_tls_free();
}

__attribute__((constructor)) static void egl_library_init(void)
{
    int abi = __glDispatchGetABIVersion();

    if (abi != GLDISPATCH_ABI_VERSION) {
        glmux_log(GLMUX_LOG_ERROR,
                  "libEGL needs libGLdispatch ABI %d but the loaded libGLdispatch.so.0 has %d; "
                  "EGL will report no vendors. Install matching glmux libraries.",
                  GLDISPATCH_ABI_VERSION, abi);
        return;
    }
    if (pthread_key_create(&tls_key, tls_destroyed) != 0) {
        glmux_log(GLMUX_LOG_ERROR, "libEGL cannot create its thread key; EGL will report no "
                  "vendors");
        return;
    }
    __glDispatchInit();
    if (pthread_atfork(NULL, NULL, after_fork_child) != 0)
        glmux_log(GLMUX_LOG_WARN, "cannot register a fork handler; EGL in a forked child "
                  "may misbehave");
    lib_usable = true;
}

__attribute__((destructor)) static void egl_library_fini(void)
{
    if (!lib_usable)
        return;
    /* Vendors are not called here, except through dlclose. */
    glmux_egl_current_drop();
    glmux_egl_vendors_teardown(glmux_egl_current_orphan_all() > 0);
    glmux_egl_maps_teardown();
    glmux_egl_strings_teardown();
    glmux_egl_procaddr_teardown();
    glmux_egl_tls_free();
    lib_usable = false;
    pthread_key_delete(tls_key);
    __glDispatchFini();
}
