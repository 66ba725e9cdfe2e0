/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: process and thread state. It holds the exports table handed to every vendor,
 * the per-thread error / last vendor / bound API / label (plain TLS, so a thread that exits
 * leaves nothing to free), the current-context record that rides on libGLdispatch's thread
 * state, the fork hook libGLdispatch calls in a child (instead of a getpid() test on every
 * call) and the load/unload of the library itself (docs/architecture.md: lifetime protocol).
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "egl_internal.h"
#include "util/log.h"

/*
 * The thread's API state: plain TLS, so that a thread that exits, or the parent's other
 * threads in a forked child, leave nothing to free. Initial-exec (32 bytes of the static TLS
 * that glibc keeps for dlopened libraries): the general model would make libEGL need ld.so.
 */
static __thread struct glmux_egl_tls thread_state __attribute__((tls_model("initial-exec"))) = {
    .error = EGL_SUCCESS, .api = EGL_OPENGL_ES_API,
};

struct glmux_egl_tls *glmux_egl_tls_peek(void)
{
    return glmux_winsys_usable() ? &thread_state : NULL;
}

struct glmux_egl_tls *glmux_egl_tls(void)
{
    return glmux_egl_tls_peek();
}

void glmux_egl_tls_free(void)
{
    static const struct glmux_egl_tls fresh = { .error = EGL_SUCCESS, .api = EGL_OPENGL_ES_API };

    thread_state = fresh;
}

bool glmux_egl_usable(void)
{
    return glmux_winsys_usable();
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
    return (struct glmux_egl_current *)glmux_winsys_record_current(GLDISPATCH_API_EGL);
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

/*
 * In a forked child, called by libGLdispatch after its own reset and before it hands the
 * parent's records to glmux_egl_current_destroyed. Only this thread survives: its context
 * belonged to the parent's vendor state and is forgotten, as in libglvnd. Vendors, display
 * and device maps and the winsys names stay; every lock is made anew.
 */
static void after_fork(void)
{
    if (!glmux_winsys_usable())
        return;
    glmux_egl_maps_reset_locks();
    glmux_egl_strings_after_fork();
    glmux_egl_debug_after_fork();
    for (glmux_egl_vendor *v = glmux_egl_vendors_loaded(); v != NULL; v = v->next)
        pthread_mutex_init(&v->dyn_lock, NULL);
    glmux_egl_tls_free();
}

/* What libEGL frees at unload (winsys.h runs the protocol around it). */
static void teardown(void)
{
    glmux_egl_vendors_teardown();
    glmux_egl_maps_teardown();
    glmux_egl_strings_teardown();
    glmux_egl_debug_teardown();
    glmux_egl_tls_free();
}

GLMUX_WINSYS_LIBRARY(GLDISPATCH_API_EGL, "libEGL", after_fork, glmux_egl_current_destroyed,
                     glmux_egl_current_drop, teardown);
