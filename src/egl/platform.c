/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: finding the vendor that serves a display. eglGetPlatformDisplay asks the
 * vendors in load order (a device display only the device's vendor); eglGetDisplay first
 * works out the platform from EGL_PLATFORM or from the native handle itself (the vendors'
 * findNativeDisplayPlatform, a known EGLDeviceEXT, then GBM, Wayland and X11 handles
 * recognised by their first word). libX11 is never linked: it is probed with RTLD_NOLOAD.
 * `glmux explain` gets the default display's decision written down (egl_explain.h).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <X11/Xlib.h>

#include "debug.h"
#include "discovery.h"
#include "egl_explain.h"
#include "glmux_egl_impl.h"
#include "maps.h"
#include "platform.h"
#include "state.h"
#include "vendor.h"
#include "select/select.h"
#include "util/env.h"
#include "util/log.h"

/*
 * `glmux explain`'s record of the display decision (egl_explain.h), NULL in a program: set
 * only around glmux_egl_explain_default's own eglGetDisplay, which runs in explain's
 * single-threaded child. A process-wide atomic, not thread-local storage: TLS of the dynamic
 * model would make libEGL need ld.so's __tls_get_addr (test egl_needed).
 */
static struct glmux_egl_explain_display *explaining;

static void note_in(struct glmux_egl_explain_display *r, glmux_egl_vendor *v,
                    enum glmux_egl_explain_result result, EGLint error)
{
    struct glmux_egl_explain_try *t;

    if (result == GLMUX_EGL_EXPLAIN_OWNS)
        snprintf(r->library, sizeof(r->library), "%s", v->library);
    if (r->n_tries >= GLMUX_EGL_EXPLAIN_TRIES)
        return;
    t = &r->tries[r->n_tries++];
    t->result = (int32_t)result;
    t->error = error;
    snprintf(t->library, sizeof(t->library), "%s", v->library);
}

/* Out of explain's child, a load and a branch. */
static inline void note(glmux_egl_vendor *v, enum glmux_egl_explain_result result, EGLint error)
{
    struct glmux_egl_explain_display *r = __atomic_load_n(&explaining, __ATOMIC_ACQUIRE);

    if (r != NULL)
        note_in(r, v, result, error);
}

/* select.h names the platforms for code that does not include egl.h; they must agree. */
_Static_assert(GLMUX_EGL_PLATFORM_X11 == EGL_PLATFORM_X11_KHR, "EGL_PLATFORM_X11_KHR");
_Static_assert(GLMUX_EGL_PLATFORM_WAYLAND == EGL_PLATFORM_WAYLAND_KHR, "EGL_PLATFORM_WAYLAND_KHR");
_Static_assert(GLMUX_EGL_PLATFORM_ANDROID == EGL_PLATFORM_ANDROID_KHR, "EGL_PLATFORM_ANDROID_KHR");
_Static_assert(GLMUX_EGL_PLATFORM_GBM == EGL_PLATFORM_GBM_KHR, "EGL_PLATFORM_GBM_KHR");
_Static_assert(GLMUX_EGL_PLATFORM_DEVICE == EGL_PLATFORM_DEVICE_EXT, "EGL_PLATFORM_DEVICE_EXT");
_Static_assert(GLMUX_EGL_PLATFORM_SURFACELESS == EGL_PLATFORM_SURFACELESS_MESA,
               "EGL_PLATFORM_SURFACELESS_MESA");
_Static_assert(GLMUX_EGL_NONE == EGL_NONE, "EGL_NONE");

EGLenum glmux_egl_platform_from_env(void)
{
    unsigned int platform;

    return glmux_select_egl_platform_env(&platform) ? (EGLenum)platform : EGL_NONE;
}

/* Whether the page holding p is mapped (so that reading a word there cannot fault). */
static bool readable(const void *p)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t addr = (uintptr_t)p & ~(uintptr_t)(page - 1);
    unsigned char vec;

    if (p == NULL || ((uintptr_t)p & (sizeof(void *) - 1)) != 0)
        return false;
    /* One word never crosses a page when aligned, so one page is enough. */
    return mincore((void *)addr, (size_t)page, &vec) == 0;
}

static void *first_word(const void *p)
{
    return readable(p) ? *(void *const *)p : NULL;
}

/* Whether the first word of native points at the symbol named symbol. */
static bool first_word_is(void *native, const char *symbol)
{
    void *word = first_word(native);
    Dl_info info;

    if (word == NULL || dladdr(word, &info) == 0 || info.dli_sname == NULL)
        return false;
    return strcmp(info.dli_sname, symbol) == 0;
}

static bool is_x11_display(void *native)
{
    void *alloc = first_word(&((_XPrivDisplay)native)->resource_alloc);
    void *handle, *x_alloc_id = NULL;

    if (alloc == NULL)
        return false;
    handle = dlopen("libX11.so.6", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    if (handle == NULL)
        return false;
    x_alloc_id = dlsym(handle, "_XAllocID");
    dlclose(handle);
    return x_alloc_id != NULL && x_alloc_id == alloc;
}

EGLenum glmux_egl_guess_platform(void *native)
{
    bool gbm = false, wayland = false, x11 = false;
    glmux_egl_vendor *list = glmux_egl_vendors();
    const char *how = NULL;
    EGLenum platform = EGL_NONE;

    for (glmux_egl_vendor *v = list; v != NULL && platform == EGL_NONE; v = v->next) {
        if (v->imports.findNativeDisplayPlatform != NULL) {
            platform = v->imports.findNativeDisplayPlatform(native);
            how = v->library;
        }
    }
    for (glmux_egl_vendor *v = list; v != NULL; v = v->next) {
        gbm |= v->supports_gbm;
        wayland |= v->supports_wayland;
        x11 |= v->supports_x11;
    }
    if (platform != EGL_NONE) {
        /* found by a vendor */
    } else if (glmux_egl_device_vendor((EGLDeviceEXT)native) != NULL) {
        platform = EGL_PLATFORM_DEVICE_EXT;
        how = "a known EGLDeviceEXT";
    } else if (gbm && first_word_is(native, "gbm_create_device")) {
        platform = EGL_PLATFORM_GBM_KHR;
        how = "a gbm_device";
    } else if (wayland && first_word_is(native, "wl_display_interface")) {
        platform = EGL_PLATFORM_WAYLAND_KHR;
        how = "a wl_display";
    } else if (x11 && is_x11_display(native)) {
        platform = EGL_PLATFORM_X11_KHR;
        how = "an Xlib Display";
    }
    if (platform != EGL_NONE)
        glmux_log(GLMUX_LOG_VENDOR, "eglGetDisplay(%p): platform 0x%04x (%s)", native,
                  (unsigned)platform, how);
    return platform;
}

EGLDisplay glmux_egl_get_platform_display(EGLenum platform, void *native,
                                          const EGLAttrib *attribs, const char *command)
{
    glmux_egl_vendor *list = glmux_egl_vendors(), *ordered[64];
    EGLint first_error = EGL_SUCCESS;
    bool any_success = false;
    size_t n;

    if (list == NULL) {
        glmux_egl_error_thread(EGL_BAD_PARAMETER, command, "no EGL drivers found; set "
                        "GLMUX_DEBUG=warn,vendor to see which manifests were read");
        return EGL_NO_DISPLAY;
    }
    if (platform == EGL_PLATFORM_DEVICE_EXT && native != NULL) {
        glmux_egl_vendor *v = glmux_egl_device_vendor((EGLDeviceEXT)native);
        EGLDisplay dpy;

        if (v == NULL) {
            glmux_egl_error_thread(EGL_BAD_PARAMETER, command, "invalid EGLDeviceEXT %p", native);
            return EGL_NO_DISPLAY;
        }
        glmux_egl_set_last_vendor(v);
        dpy = v->imports.getPlatformDisplay(platform, native, attribs);
        if (dpy == EGL_NO_DISPLAY)
            return EGL_NO_DISPLAY;
        if (!glmux_egl_display_add(dpy, v)) {
            glmux_egl_report_thread(EGL_BAD_ALLOC, command, EGL_DEBUG_MSG_CRITICAL_KHR,
                                    "cannot record display %p", dpy);
            return EGL_NO_DISPLAY;
        }
        glmux_egl_set_error(EGL_SUCCESS);
        return dpy;
    }
    /* The vendors of the display's GPU first (discovery.c, glmux_select_display_order). */
    n = glmux_egl_display_vendors(platform, native, ordered, 64);
    for (size_t i = 0; i < n; i++) {
        glmux_egl_vendor *v = ordered[i];
        EGLDisplay dpy = v->imports.getPlatformDisplay(platform, native, attribs);

        if (dpy != EGL_NO_DISPLAY && glmux_egl_display_add(dpy, v)) {
            glmux_log(GLMUX_LOG_VENDOR, "%s(0x%04x, %p): display %p from %s", command,
                      (unsigned)platform, native, dpy, v->library);
            note(v, GLMUX_EGL_EXPLAIN_OWNS, 0);
            glmux_egl_set_error(EGL_SUCCESS);
            return dpy;
        }
        if (dpy == EGL_NO_DISPLAY) {
            EGLint err = ((PFNEGLGETERRORPROC)v->fn[GLMUX_EGL_IDX_GetError])();

            note(v, GLMUX_EGL_EXPLAIN_NO_DISPLAY, err);
            if (err == EGL_SUCCESS)
                any_success = true;
            else if (first_error == EGL_SUCCESS)
                first_error = err;
        } else {
            note(v, GLMUX_EGL_EXPLAIN_TAKEN, 0);
            glmux_log(GLMUX_LOG_VENDOR, "%s: vendor %s returned display %p, which another "
                      "vendor owns; ignoring it", command, v->library, dpy);
        }
    }
    if (any_success || first_error == EGL_SUCCESS) {
        glmux_egl_set_error(EGL_SUCCESS);
    } else {
        glmux_egl_error_thread(first_error, command, "no vendor could create the display "
                        "(platform 0x%04x)", (unsigned)platform);
    }
    return EGL_NO_DISPLAY;
}

EGLDisplay EGLAPIENTRY glmux_egl_GetDisplay(EGLNativeDisplayType display_id)
{
    void *native = (void *)display_id;
    EGLenum platform;

    glmux_egl_entry();
    platform = glmux_egl_platform_from_env();
    if (platform != EGL_NONE)
        return glmux_egl_get_platform_display(platform, native, NULL, "eglGetDisplay");
    if (native == EGL_DEFAULT_DISPLAY)
        return glmux_egl_get_platform_display(EGL_NONE, native, NULL, "eglGetDisplay");
    platform = glmux_egl_guess_platform(native);
    if (platform == EGL_NONE) {
        glmux_log(GLMUX_LOG_VENDOR, "eglGetDisplay(%p): no vendor recognises this native "
                  "display", native);
        return EGL_NO_DISPLAY;
    }
    return glmux_egl_get_platform_display(platform, native, NULL, "eglGetDisplay");
}

EGLDisplay EGLAPIENTRY glmux_egl_GetPlatformDisplay(EGLenum platform, void *native,
                                                    const EGLAttrib *attribs)
{
    glmux_egl_entry();
    if (platform == EGL_NONE) {
        glmux_egl_error_thread(EGL_BAD_PARAMETER, "eglGetPlatformDisplay",
                               "platform may not be EGL_NONE");
        return EGL_NO_DISPLAY;
    }
    return glmux_egl_get_platform_display(platform, native, attribs, "eglGetPlatformDisplay");
}

bool glmux_egl_explain_default(struct glmux_egl_explain_display *out)
{
    memset(out, 0, sizeof(*out));
    out->has_vendors = glmux_egl_vendors() != NULL;
    __atomic_store_n(&explaining, out, __ATOMIC_RELEASE);
    glmux_egl_GetDisplay(EGL_DEFAULT_DISPLAY);
    __atomic_store_n(&explaining, NULL, __ATOMIC_RELEASE);
    return true;
}

EGLDisplay glmux_egl_GetPlatformDisplayEXT(EGLenum platform, void *native, const EGLint *attribs)
{
    EGLAttrib *converted = NULL;
    EGLDisplay dpy;
    size_t n = 0;

    glmux_egl_entry();
    if (platform == EGL_NONE) {
        glmux_egl_error_thread(EGL_BAD_PARAMETER, "eglGetPlatformDisplayEXT",
                               "platform may not be EGL_NONE");
        return EGL_NO_DISPLAY;
    }
    if (attribs != NULL) {
        while (attribs[n] != EGL_NONE)
            n += 2;
        converted = malloc(sizeof(*converted) * (n + 1));
        if (converted == NULL) {
            glmux_egl_report_thread(EGL_BAD_ALLOC, "eglGetPlatformDisplayEXT",
                             EGL_DEBUG_MSG_CRITICAL_KHR, "out of memory");
            return EGL_NO_DISPLAY;
        }
        for (size_t i = 0; i <= n; i++)
            converted[i] = (EGLAttrib)attribs[i];
    }
    dpy = glmux_egl_get_platform_display(platform, native, converted,
                                         "eglGetPlatformDisplayEXT");
    free(converted);
    return dpy;
}
