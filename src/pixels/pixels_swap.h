/* SPDX-License-Identifier: MIT */
/*
 * glmux: when the pixels vendor's drawables show their frames (pixels_swap.c): glXSwapBuffers,
 * glFinish and glFlush, swap intervals and their dispatch stubs, and the EGL surface that
 * follows its X drawable's size.
 */
#ifndef GLMUX_PIXELS_SWAP_H
#define GLMUX_PIXELS_SWAP_H

#include "pixels/pixels.h"
#include "pixels/pixels_config.h"
#include "pixels/pixels_records.h"

/* glXSwapBuffers, glXWaitGL, glXWaitX, glFinish, glFlush and the swap-control functions by
 * name, NULL for the others. */
void *glmux_pixels_swap_proc(const char *name);
/* The dispatch stubs of the swap-control functions (the vendor ABI's getDispatchAddress and
 * setDispatchIndex). */
void *glmux_pixels_swap_dispatch(const GLubyte *name);
void glmux_pixels_swap_set_index(const GLubyte *name, int index);
/* glXQueryDrawable's GLX_SWAP_INTERVAL_EXT and GLX_MAX_SWAP_INTERVAL_EXT; false for others. */
bool glmux_pixels_swap_query(const struct glmux_pixels_drawable *d, int attrib,
                             unsigned int *value);
/* GLX's implicit flush (glFinish, glFlush, glXMakeCurrent away): shows a single-buffered window
 * or a pixmap current on this thread, and a swap another thread asked for. */
void glmux_pixels_flush_current(void);

/* Called with the drawable claimed (glmux_pixels_drawable_claim), or before it is linked.
 * Makes sure drawable has an EGL surface of its current size for config (its EGL config and
 * colour space); false on error. */
bool glmux_pixels_surface_update(struct glmux_pixels_drawable *d,
                                 const struct glmux_pixels_config *config);

#endif /* GLMUX_PIXELS_SWAP_H */
