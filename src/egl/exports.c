/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the exports table handed to every vendor's __egl_Main (EGL vendor ABI 0.2):
 * the thread's current API, vendor, context, display and surfaces, the dispatch entry of a
 * winsys index, the thread's error and last vendor, and the display and device maps.
 */
#define _GNU_SOURCE
#include "exports.h"
#include "maps.h"
#include "state.h"
#include "vendor.h"

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
