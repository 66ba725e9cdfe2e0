/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels vendor's dispatch stubs of GLX extension functions (pixels_dispatch.c): the
 * vendor ABI's exports, kept at __glx_Main, and the function libGLX has at a stub's dispatch
 * index for a drawable or the current context, as for any vendor's GLX extension.
 */
#ifndef GLMUX_PIXELS_DISPATCH_H
#define GLMUX_PIXELS_DISPATCH_H

#include "pixels/pixels.h"

/* Keeps the exports libGLX gave __glx_Main. */
void glmux_pixels_dispatch_init(const __GLXapiExports *exports);
/* The function at dispatch index *index of the vendor libGLX has for drawable (for the calling
 * thread's current context when drawable is None); NULL when there is none yet. */
void *glmux_pixels_dispatch_fetch(Display *dpy, GLXDrawable drawable, const int *index);

#endif /* GLMUX_PIXELS_DISPATCH_H */
