/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: display -> vendor and device -> vendor, and the winsys dispatch names
 * (maps.c).
 */
#ifndef GLMUX_EGL_MAPS_H
#define GLMUX_EGL_MAPS_H

#include <stdbool.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "funcs.h"

/* ---- maps.c: display→vendor and device→vendor, winsys names ---- */
glmux_egl_vendor *glmux_egl_display_vendor(EGLDisplay dpy);
/* Records dpy for vendor; false when it belongs to another vendor or on allocation failure. */
bool glmux_egl_display_add(EGLDisplay dpy, glmux_egl_vendor *vendor);
glmux_egl_vendor *glmux_egl_device_vendor(EGLDeviceEXT dev);
bool glmux_egl_device_set(EGLDeviceEXT dev, glmux_egl_vendor *vendor);
/* Winsys dispatch indices: libEGL's 54 names, then names that vendors' stubs added. */
int glmux_egl_winsys_find(const char *name);
/* The index of name, adding it if new (with stub, the vendor stub handed out); -1 on OOM. */
int glmux_egl_winsys_add(const char *name, void *stub);
/* The vendor stub recorded for an index, or NULL. */
void *glmux_egl_winsys_stub(int index);
/* The name of an index (stable pointer), or NULL. */
const char *glmux_egl_winsys_name(int index);
int glmux_egl_winsys_count(void);

#endif /* GLMUX_EGL_MAPS_H */
