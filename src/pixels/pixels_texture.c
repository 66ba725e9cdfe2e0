/* SPDX-License-Identifier: MIT */
/*
 * glmux: GLX_EXT_texture_from_pixmap for the pixels GLX vendor. glXCreatePixmap takes the
 * texture format and target (GLX_TEXTURE_FORMAT_EXT, GLX_TEXTURE_TARGET_EXT; without a target,
 * GL_TEXTURE_2D for a power-of-two pixmap, else GL_TEXTURE_RECTANGLE, as the X server's GLX
 * chooses). glXBindTexImageEXT reads the pixmap from the X server (XGetImage) and uploads it
 * into the texture the current context has bound to that target: row 0 is the pixmap's top
 * row (GLX_Y_INVERTED_EXT is True), alpha is 1 where the pixmap has none, the unpack state is
 * left as found. So the texture shows what X drew into the pixmap and what GL drew into it once
 * that was presented: at glFinish, glFlush, glXWaitGL or glXMakeCurrent away from it (GLX's
 * implicit flush), and at the bind itself when the pixmap is this thread's draw drawable.
 * glXReleaseTexImageEXT has nothing to give back: the texture keeps the copy (the extension
 * leaves it undefined after the release). libGLX dispatches the two functions by drawable
 * through the vendor ABI's exports (pixels_dispatch.c), as for any vendor's GLX extension.
 */
#include <stdlib.h>
#include <string.h>

#include <X11/Xutil.h>

#include "pixels/pixels_dispatch.h"
#include "pixels/pixels_egl.h"
#include "pixels/pixels_records.h"
#include "pixels/pixels_resolve.h"
#include "pixels/pixels_server.h"
#include "pixels/pixels_swap.h"
#include "pixels/pixels_texture.h"
#include "util/log.h"

#ifndef GL_TEXTURE_RECTANGLE
#define GL_TEXTURE_RECTANGLE 0x84F5
#endif
#ifndef GL_PIXEL_UNPACK_BUFFER
#define GL_PIXEL_UNPACK_BUFFER 0x88EC
#define GL_PIXEL_UNPACK_BUFFER_BINDING 0x88EF
#endif
#ifndef GL_BGRA
#define GL_BGRA 0x80E1
#endif
#ifndef GL_RGB8
#define GL_RGB8 0x8051
#define GL_RGBA8 0x8058
#endif

typedef void (*tex_image_2d_fn)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum,
                                const void *);
typedef void (*tex_image_1d_fn)(GLenum, GLint, GLint, GLsizei, GLint, GLenum, GLenum,
                                const void *);
typedef void (*bind_fn)(Display *, GLXDrawable, int, const int *);
typedef void (*release_fn)(Display *, GLXDrawable, int);

static int bind_index = -1, release_index = -1;

/* ---- glXCreatePixmap's attributes ---- */

int glmux_pixels_texture_attribs(Display *dpy, XID pixmap, const int *attribs, int *format,
                                 int *target)
{
    int w, h;

    *format = GLX_TEXTURE_FORMAT_NONE_EXT;
    *target = 0;
    for (const int *a = attribs; a != NULL && a[0] != None; a += 2) {
        switch (a[0]) {
        case GLX_TEXTURE_FORMAT_EXT:
            if (a[1] != GLX_TEXTURE_FORMAT_NONE_EXT && a[1] != GLX_TEXTURE_FORMAT_RGB_EXT &&
                a[1] != GLX_TEXTURE_FORMAT_RGBA_EXT)
                return BadValue;
            *format = a[1];
            break;
        case GLX_TEXTURE_TARGET_EXT:
            if (a[1] != GLX_TEXTURE_1D_EXT && a[1] != GLX_TEXTURE_2D_EXT &&
                a[1] != GLX_TEXTURE_RECTANGLE_EXT)
                return BadValue;
            *target = a[1];
            break;
        case GLX_MIPMAP_TEXTURE_EXT:
            if (a[1] != False)
                return BadMatch; /* GLX_BIND_TO_MIPMAP_TEXTURE_EXT is False */
            break;
        default:
            return BadValue;
        }
    }
    if (*format != GLX_TEXTURE_FORMAT_NONE_EXT && *target == 0) {
        if (!glmux_pixels_geometry(dpy, pixmap, &w, &h, NULL))
            return BadPixmap;
        *target = (w & (w - 1)) || (h & (h - 1)) ? GLX_TEXTURE_RECTANGLE_EXT
                                                 : GLX_TEXTURE_2D_EXT;
    }
    return Success;
}

bool glmux_pixels_pixmap_texture(Display *dpy, XID xid, struct glmux_pixels_pixmap_texture *out)
{
    struct glmux_pixels_current cur;
    struct glmux_pixels_drawable *d;
    bool ok;

    glmux_pixels_current_get(&cur);
    glmux_pixels_lock();
    d = glmux_pixels_drawable_find(dpy, xid);
    ok = d != NULL && d->kind == GLMUX_PIXELS_PIXMAP && d->tex_target != 0 &&
         d->tex_format != GLX_TEXTURE_FORMAT_NONE_EXT;
    if (ok)
        *out = (struct glmux_pixels_pixmap_texture){
            .pixmap = d->target, .format = d->tex_format, .target = d->tex_target,
            .current_draw = d == cur.draw, .context_current = cur.ctx != NULL,
        };
    glmux_pixels_unlock();
    return ok;
}

/* ---- the upload ---- */

static void upload(XImage *img, int format, int target)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    const struct glmux_pixels_gl *gl = glmux_pixels_gl_get();
    GLint internal = format == GLX_TEXTURE_FORMAT_RGBA_EXT ? GL_RGBA8 : GL_RGB8;
    struct glmux_pixels_unpack saved;

    if (egl == NULL || gl == NULL)
        return;
    glmux_pixels_unpack_set(gl, &saved, img->bytes_per_line / 4);
    if (target == GLX_TEXTURE_1D_EXT) {
        tex_image_1d_fn tex1d = (tex_image_1d_fn)egl->get_proc("glTexImage1D");

        if (tex1d != NULL)
            tex1d(GL_TEXTURE_1D, 0, internal, img->width, 0, GL_BGRA, GL_UNSIGNED_BYTE,
                  img->data);
    } else {
        tex_image_2d_fn tex2d = (tex_image_2d_fn)egl->get_proc("glTexImage2D");

        if (tex2d != NULL)
            tex2d(target == GLX_TEXTURE_2D_EXT ? GL_TEXTURE_2D : GL_TEXTURE_RECTANGLE, 0,
                  internal, img->width, img->height, 0, GL_BGRA, GL_UNSIGNED_BYTE, img->data);
    }
    glmux_pixels_unpack_restore(gl, &saved);
}

void glmux_pixels_BindTexImageEXT(Display *dpy, GLXDrawable drawable, int buffer,
                                  const int *attribs)
{
    struct glmux_pixels_pixmap_texture t;
    XImage *img;
    int w, h;

    (void)attribs;
    if (!glmux_pixels_pixmap_texture(dpy, drawable, &t)) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: glXBindTexImageEXT: 0x%lx is not a GLX "
                  "pixmap made for a texture (GLX_TEXTURE_FORMAT_EXT); nothing bound",
                  (unsigned long)drawable);
        return;
    }
    if (buffer != GLX_FRONT_LEFT_EXT || !t.context_current) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: glXBindTexImageEXT: %s; nothing bound",
                  buffer != GLX_FRONT_LEFT_EXT ? "a pixmap has only GLX_FRONT_LEFT_EXT"
                                               : "no context of this vendor is current");
        return;
    }
    if (t.current_draw)
        glmux_pixels_flush_current();
    if (!glmux_pixels_geometry(dpy, t.pixmap, &w, &h, NULL))
        return;
    img = glmux_pixels_pixmap_bgra(dpy, t.pixmap, w, h);
    if (img == NULL)
        return;
    upload(img, t.format, t.target);
    XDestroyImage(img);
}

void glmux_pixels_ReleaseTexImageEXT(Display *dpy, GLXDrawable drawable, int buffer)
{
    (void)dpy;
    (void)drawable;
    (void)buffer;
}

/* ---- dispatch by drawable (libGLX asks every vendor for these stubs) ---- */

static void dispatch_bind(Display *dpy, GLXDrawable drawable, int buffer, const int *attribs)
{
    bind_fn fn = (bind_fn)glmux_pixels_dispatch_fetch(dpy, drawable, &bind_index);

    if (fn != NULL)
        fn(dpy, drawable, buffer, attribs);
}

static void dispatch_release(Display *dpy, GLXDrawable drawable, int buffer)
{
    release_fn fn = (release_fn)glmux_pixels_dispatch_fetch(dpy, drawable, &release_index);

    if (fn != NULL)
        fn(dpy, drawable, buffer);
}

void *glmux_pixels_texture_dispatch(const GLubyte *name)
{
    if (strcmp((const char *)name, "glXBindTexImageEXT") == 0)
        return (void *)dispatch_bind;
    if (strcmp((const char *)name, "glXReleaseTexImageEXT") == 0)
        return (void *)dispatch_release;
    return NULL;
}

void glmux_pixels_texture_set_index(const GLubyte *name, int index)
{
    if (strcmp((const char *)name, "glXBindTexImageEXT") == 0)
        __atomic_store_n(&bind_index, index, __ATOMIC_RELEASE);
    else if (strcmp((const char *)name, "glXReleaseTexImageEXT") == 0)
        __atomic_store_n(&release_index, index, __ATOMIC_RELEASE);
}
