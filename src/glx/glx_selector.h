/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's GPU selector and vendor list (glx_selector.c), built once on first use.
 */
#ifndef GLMUX_GLX_SELECTOR_H
#define GLMUX_GLX_SELECTOR_H

#include <stdbool.h>
#include <stddef.h>

#include <X11/Xlib.h>

#include "select/pixels_rule.h"
#include "select/select.h"

/*
 * The steps to find a screen's vendor, the pixels vendor's place included
 * (glmux_select_glx_screen_plan, the plan `glmux explain` shows), with libGLX's selector and
 * vendor list. Call it with no lock of libGLX held: it may ask the X server of dpy for the
 * screen's GPU. has_glx: the server has the GLX extension.
 */
void glmux_glx_selector_plan(Display *dpy, int screen, bool has_glx,
                             struct glmux_glx_screen_plan *out);
/* libGLX's selector, keeping every reason from now on (`glmux explain`, glx_explain.h);
 * NULL when it could not be made. */
const struct glmux_select *glmux_glx_selector_for_explain(void);
/* The GLX library the vendor directory's manifest names for vendor name, or NULL. */
const char *glmux_glx_selector_library(const char *name);

#endif /* GLMUX_GLX_SELECTOR_H */
