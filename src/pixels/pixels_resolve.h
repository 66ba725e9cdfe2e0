/* SPDX-License-Identifier: MIT */
/*
 * glmux: the GL side of a pixels-vendor frame (pixels_resolve.c): the read-back, the
 * multisample resolve and flip, and a pixmap's upload.
 */
#ifndef GLMUX_PIXELS_RESOLVE_H
#define GLMUX_PIXELS_RESOLVE_H

#include "pixels/pixels.h"
#include "pixels/pixels_config.h"
#include "pixels/pixels_egl.h"
#include "pixels/pixels_frame.h"

struct glmux_pixels_resolve {
    GLuint fbo[2], rb[2];   /* the resolved frame, the flipped frame */
};

/* Reads the current draw surface's frame (l's size, a surface of config c) into dst (l->size
 * bytes): 32-bit 0xAARRGGBB pixels in byte order (LSBFirst, MSBFirst: the X server's image byte
 * order), top row first. GL state left as found. */
void glmux_pixels_read_back(const struct glmux_pixels_config *c,
                            const struct glmux_pixels_layout *l, int order, char *dst);
/* For a multisampled config c, resolves the current draw surface's w x h frame into a
 * renderbuffer made for it; with flip, copies it (or the unresolved frame) with its rows
 * swapped into another; binds the last as GL_READ_FRAMEBUFFER (the other bindings as found).
 * False, with nothing done, when there is neither to do or no framebuffer objects. */
bool glmux_pixels_resolve_begin(const struct glmux_pixels_config *c, int w, int h, bool flip,
                                struct glmux_pixels_resolve *r);
/* Deletes what resolve_begin made (call after rebinding the application's read framebuffer). */
void glmux_pixels_resolve_end(struct glmux_pixels_resolve *r);
/* Draws img (32-bit B, G, R, A bytes, row 0 the top) into the current draw surface's default
 * framebuffer: a GLX pixmap's X contents. GL state left as found. */
void glmux_pixels_upload(const XImage *img);

/* The unpack state an upload sets (alignment 4, row_length pixels a row, no skips, no byte
 * swapping, no unpack buffer) and puts back. */
struct glmux_pixels_unpack {
    GLint alignment, row_length, skip_rows, skip_pixels, swap_bytes, buffer;
};
void glmux_pixels_unpack_set(const struct glmux_pixels_gl *gl, struct glmux_pixels_unpack *saved,
                             int row_length);
void glmux_pixels_unpack_restore(const struct glmux_pixels_gl *gl,
                                 const struct glmux_pixels_unpack *saved);

#endif /* GLMUX_PIXELS_RESOLVE_H */
