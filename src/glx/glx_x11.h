/* SPDX-License-Identifier: MIT */
/*
 * glmux: the Xlib-internal parts of libGLX's protocol code (glx_x11.c) that need Xlibint.h
 * types: the error hook that keeps libGLX's own request errors away from the application, and
 * client-side X errors built the way the GLX vendor ABI describes.
 */
#ifndef GLMUX_GLX_X11_H
#define GLMUX_GLX_X11_H

#include <X11/Xlibint.h>

int glmux_glx_x11_error_hook(Display *dpy, xError *err, XExtCodes *codes, int *ret_code);
void glmux_glx_x11_send_error(Display *dpy, unsigned char code, XID resid, unsigned char major,
                              unsigned char minor);

#endif
