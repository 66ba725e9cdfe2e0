/* SPDX-License-Identifier: MIT */
/*
 * glmux: GLX_EXT_texture_from_pixmap for the pixels vendor (pixels_texture.c): glXCreatePixmap's
 * texture attributes, glXBindTexImageEXT's upload and the two functions' dispatch stubs.
 */
#ifndef GLMUX_PIXELS_TEXTURE_H
#define GLMUX_PIXELS_TEXTURE_H

#include "pixels/pixels.h"

/* What glXBindTexImageEXT needs to know of a GLX pixmap. */
struct glmux_pixels_pixmap_texture {
    XID pixmap;             /* the X pixmap */
    int format, target;     /* GLX_TEXTURE_FORMAT_*_EXT, GLX_TEXTURE_*_EXT */
    bool current_draw;      /* it is the calling thread's draw drawable */
    bool context_current;   /* a context of this vendor is current on the calling thread */
};

/* False unless xid is one of our GLX pixmaps made with a texture format. */
bool glmux_pixels_pixmap_texture(Display *dpy, XID xid, struct glmux_pixels_pixmap_texture *out);
/* glXCreatePixmap's texture attributes: Success, or the X error GLX would raise. */
int glmux_pixels_texture_attribs(Display *dpy, XID pixmap, const int *attribs, int *format,
                                 int *target);
void glmux_pixels_BindTexImageEXT(Display *dpy, GLXDrawable drawable, int buffer,
                                  const int *attribs);
void glmux_pixels_ReleaseTexImageEXT(Display *dpy, GLXDrawable drawable, int buffer);
/* The dispatch stubs of the two functions (the vendor ABI's getDispatchAddress and
 * setDispatchIndex). */
void *glmux_pixels_texture_dispatch(const GLubyte *name);
void glmux_pixels_texture_set_index(const GLubyte *name, int index);

#endif /* GLMUX_PIXELS_TEXTURE_H */
