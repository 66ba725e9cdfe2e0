/* SPDX-License-Identifier: MIT */
/*
 * glmux: the GLX functions of the pixels vendor's configs and visuals (pixels_choose.c):
 * glXChooseFBConfig, glXChooseVisual and the others, GLX 1.4 matching and order.
 */
#ifndef GLMUX_PIXELS_CHOOSE_H
#define GLMUX_PIXELS_CHOOSE_H

#include "pixels/pixels.h"

GLXFBConfig *glmux_pixels_ChooseFBConfig(Display *dpy, int screen, const int *attribs, int *n);
GLXFBConfig *glmux_pixels_GetFBConfigs(Display *dpy, int screen, int *n);
int glmux_pixels_GetFBConfigAttrib(Display *dpy, GLXFBConfig config, int attrib, int *value);
XVisualInfo *glmux_pixels_GetVisualFromFBConfig(Display *dpy, GLXFBConfig config);
XVisualInfo *glmux_pixels_ChooseVisual(Display *dpy, int screen, int *attribs);
int glmux_pixels_GetConfig(Display *dpy, XVisualInfo *vis, int attrib, int *value);

#endif /* GLMUX_PIXELS_CHOOSE_H */
