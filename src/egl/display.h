/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the functions dispatched by display, the client strings and the device
 * queries (display.c), as far as eglGetProcAddress reaches them by glmux_egl_ names.
 */
#ifndef GLMUX_EGL_DISPLAY_H
#define GLMUX_EGL_DISPLAY_H

#include <EGL/egl.h>
#include <EGL/eglext.h>

EGLSurface glmux_egl_CreatePlatformWindowSurfaceEXT(EGLDisplay dpy, EGLConfig config,
                                                    void *win, const EGLint *attribs);
EGLSurface glmux_egl_CreatePlatformPixmapSurfaceEXT(EGLDisplay dpy, EGLConfig config,
                                                    void *pixmap, const EGLint *attribs);
EGLBoolean glmux_egl_QueryDevicesEXT(EGLint max, EGLDeviceEXT *devices, EGLint *num);
EGLBoolean glmux_egl_QueryDisplayAttribKHR(EGLDisplay dpy, EGLint name, EGLAttrib *value);
EGLBoolean glmux_egl_QueryDisplayAttribEXT(EGLDisplay dpy, EGLint name, EGLAttrib *value);
EGLBoolean glmux_egl_QueryDisplayAttribNV(EGLDisplay dpy, EGLint name, EGLAttrib *value);

#endif /* GLMUX_EGL_DISPLAY_H */
