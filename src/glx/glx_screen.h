/* SPDX-License-Identifier: MIT */
/*
 * glmux: which vendor serves each screen of a display, and so each drawable (glx_screen.c).
 */
#ifndef GLMUX_GLX_SCREEN_H
#define GLMUX_GLX_SCREEN_H

#include <stdbool.h>

#include <X11/Xlib.h>
#include <GL/glx.h>

#include "glx/glx_vendor.h"

/* The vendor for (dpy, screen); NULL if screen is out of range or no vendor loads. Decided
 * once per screen with no lock held (it may load vendors and ask the X server). */
glmux_glx_vendor *glmux_glx_vendor_for_screen(Display *dpy, int screen);
/*
 * True when the pixels vendor (libGLX_glmux-pixels.so.0) serves dpy's default screen: libGLX
 * then answers glXQueryExtension and glXQueryVersion (GLX 1.4) for a server without GLX.
 */
bool glmux_glx_display_pixels(Display *dpy);

/* libGLX's walk for one screen, written down for `glmux explain` (glx_explain.h, reached through
 * glXGetProcAddress(GLMUX_GLX_EXPLAIN_NAME)). */
struct glmux_glx_explain_request;
struct glmux_glx_explain_screen;
bool glmux_glx_explain(void *dpy, int screen, const struct glmux_glx_explain_request *req,
                       struct glmux_glx_explain_screen *out);

/* The drawable map of each display (exports of the GLX vendor ABI). */
int glmux_glx_drawable_add(Display *dpy, GLXDrawable draw, glmux_glx_vendor *vendor);
void glmux_glx_drawable_remove(Display *dpy, GLXDrawable draw);
/* The vendor of a drawable; one libGLX did not create is looked up through the server. */
glmux_glx_vendor *glmux_glx_vendor_from_drawable(Display *dpy, GLXDrawable draw);

#endif /* GLMUX_GLX_SCREEN_H */
