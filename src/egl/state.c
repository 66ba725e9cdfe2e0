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

static __thread struct glmux_egl_tls thread_tls = {
    .error = EGL_SUCCESS, .last_vendor = NULL, .api = EGL_OPENGL_ES_API, .label = NULL
};
static bool lib_usable;

struct glmux_egl_tls *glmux_egl_tls(void)
{
    return &thread_tls;
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
    struct glmux_egl_tls *t = &thread_tls;

    __glDispatchCheckMultithreaded();
    t->error = EGL_SUCCESS;
    t->last_vendor = NULL;
}

void glmux_egl_set_error(EGLint error)
{
    thread_tls.error = error;
    thread_tls.last_vendor = NULL;
}

void glmux_egl_set_last_vendor(glmux_egl_vendor *vendor)
{
    thread_tls.error = EGL_SUCCESS;
    thread_tls.last_vendor = vendor;
}

struct glmux_egl_current *glmux_egl_current_get(void)
{
    __GLdispatchThreadState *s = __glDispatchGetCurrentThreadState();

    if (s == NULL || s->tag != GLDISPATCH_API_EGL)
        return NULL;
    return (struct glmux_egl_current *)s;
}

void glmux_egl_current_drop(void)
{
    struct glmux_egl_current *cur = glmux_egl_current_get();

    if (cur == NULL)
        return;
    __glDispatchLoseCurrent();
    free(cur);
}

/* ---- the exports table ---- */

static EGLenum export_get_current_api(void)
{
    return thread_tls.api;
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
    glmux_egl_set_last_vendor(vendor);
    return EGL_TRUE;
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
    struct glmux_egl_current *cur;

    if (!lib_usable)
        return;
    /*
     * Only this thread survives. Its context (if any) belonged to the parent's vendor state:
     * forget it, as libglvnd does, and start the thread state afresh. Vendors, display and
     * device maps and the winsys names stay.
     */
    cur = glmux_egl_current_get();
    __glDispatchReset();
    free(cur);
    glmux_egl_maps_reset_locks();
    thread_tls.error = EGL_SUCCESS;
    thread_tls.last_vendor = NULL;
    thread_tls.api = EGL_OPENGL_ES_API;
    thread_tls.label = NULL;
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
    glmux_egl_vendors_teardown();
    glmux_egl_maps_teardown();
    glmux_egl_strings_teardown();
    lib_usable = false;
    __glDispatchFini();
}
