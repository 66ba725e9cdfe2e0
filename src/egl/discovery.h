/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the ordered vendor list (discovery.c), loaded once per process.
 */
#ifndef GLMUX_EGL_DISCOVERY_H
#define GLMUX_EGL_DISCOVERY_H

#include <stddef.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "egl/egl_shared.h"
#include "funcs.h"

/* ---- discovery.c: the ordered vendor list ---- */
/* Loads every vendor once (thread-safe) and returns the first; NULL when there are none. */
glmux_egl_vendor *glmux_egl_vendors(void);
/*
 * The loaded vendors in the order to ask them for one display, as
 * glmux_select_egl_display_order decides (the display's GPU, asked of an X11 or Wayland server
 * when that can change the order, is the reference); the load order when the display's GPU is
 * unknown or cannot matter, or with fewer than two vendors. out holds max entries; returns the
 * count.
 */
size_t glmux_egl_display_vendors(EGLenum platform, void *native, glmux_egl_vendor **out,
                                 size_t max);
/* The vendors if they are already loaded, without loading them. */
glmux_egl_vendor *glmux_egl_vendors_loaded(void);
/* What libEGL offers the pixels GLX vendor (egl_shared.h), through eglGetProcAddress. */
size_t glmux_egl_shared_vendors(EGLenum platform, struct glmux_egl_shared_vendor *out,
                                size_t max);

#endif /* GLMUX_EGL_DISCOVERY_H */
