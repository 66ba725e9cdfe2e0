/* SPDX-License-Identifier: MIT */
/*
 * glmux: the GL side of the pixels GLX vendor's frames: the read-back of a frame straight into
 * the transport's buffer, top row first, and the upload of an X pixmap's contents into a GLX
 * pixmap's surface. GL's rows go bottom-up and X's top-down: the read-back turns them with
 * GL_MESA_pack_invert when the context offers it (glReadPixels then writes the top row first;
 * Mesa has it in every profile), else with a glBlitFramebuffer into a renderbuffer with the
 * rows swapped, which glReadPixels then reads; no CPU pass over the pixels either way (the last
 * resort, a GL without framebuffer objects, swaps rows in place, with a warning once).
 * A multisampled config's surface is first resolved: glReadPixels from a multisampled default
 * framebuffer reads a single sample with Mesa's llvmpipe, while a same-size, unflipped blit into
 * a single-sampled renderbuffer resolves it (a flip, when needed, is a second blit from that).
 * Renderbuffers are made for the frame and deleted after it (GL objects belong to the context
 * current at the time, which may change from frame to frame). Blits run with the scissor test,
 * rasterizer discard and sRGB conversion off: the bytes stored are the bytes shown. The
 * application's framebuffer, renderbuffer, texture and buffer bindings, pack and unpack state
 * and read buffer are left as found.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pixels/pixels_config.h"
#include "pixels/pixels_egl.h"
#include "pixels/pixels_frame.h"
#include "pixels/pixels_resolve.h"
#include "util/log.h"

#ifndef GL_FRAMEBUFFER
#define GL_FRAMEBUFFER 0x8D40
#define GL_RENDERBUFFER 0x8D41
#define GL_COLOR_ATTACHMENT0 0x8CE0
#define GL_RENDERBUFFER_BINDING 0x8CA7
#endif
#ifndef GL_READ_FRAMEBUFFER
#define GL_READ_FRAMEBUFFER 0x8CA8
#define GL_DRAW_FRAMEBUFFER 0x8CA9
#define GL_DRAW_FRAMEBUFFER_BINDING 0x8CA6
#define GL_READ_FRAMEBUFFER_BINDING 0x8CAA
#endif
#ifndef GL_PIXEL_UNPACK_BUFFER
#define GL_PIXEL_UNPACK_BUFFER 0x88EC
#define GL_PIXEL_UNPACK_BUFFER_BINDING 0x88EF
#endif
#ifndef GL_PIXEL_PACK_BUFFER
#define GL_PIXEL_PACK_BUFFER 0x88EB
#define GL_PIXEL_PACK_BUFFER_BINDING 0x88ED
#endif
#ifndef GL_RGBA8
#define GL_RGBA8 0x8058
#endif
#ifndef GL_BGRA
#define GL_BGRA 0x80E1
#endif
#ifndef GL_UNSIGNED_INT_8_8_8_8_REV
#define GL_UNSIGNED_INT_8_8_8_8 0x8035
#define GL_UNSIGNED_INT_8_8_8_8_REV 0x8367
#endif
#ifndef GL_FRAMEBUFFER_SRGB
#define GL_FRAMEBUFFER_SRGB 0x8DB9
#endif
#ifndef GL_RASTERIZER_DISCARD
#define GL_RASTERIZER_DISCARD 0x8C89
#endif
#ifndef GL_NUM_EXTENSIONS
#define GL_NUM_EXTENSIONS 0x821D
#endif
#ifndef GL_PACK_INVERT_MESA
#define GL_PACK_INVERT_MESA 0x8758
#endif

static struct {
    void (*GenFramebuffers)(GLsizei, GLuint *);
    void (*DeleteFramebuffers)(GLsizei, const GLuint *);
    void (*GenRenderbuffers)(GLsizei, GLuint *);
    void (*DeleteRenderbuffers)(GLsizei, const GLuint *);
    void (*BindRenderbuffer)(GLenum, GLuint);
    void (*RenderbufferStorage)(GLenum, GLenum, GLsizei, GLsizei);
    void (*FramebufferRenderbuffer)(GLenum, GLenum, GLenum, GLuint);
    void (*FramebufferTexture2D)(GLenum, GLenum, GLenum, GLuint, GLint);
    void (*BlitFramebuffer)(GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield,
                            GLenum);
    GLboolean (*IsEnabled)(GLenum);
    void (*Enable)(GLenum);
    void (*Disable)(GLenum);
    void (*GenTextures)(GLsizei, GLuint *);
    void (*DeleteTextures)(GLsizei, const GLuint *);
    void (*BindTexture)(GLenum, GLuint);
    void (*TexImage2D)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum,
                       const void *);
} fb;
static struct {
    const GLubyte *(*GetString)(GLenum);
    const GLubyte *(*GetStringi)(GLenum, GLuint);
} str;
static bool fb_ok;
static int pack_invert; /* 0 not known yet, 1 offered, -1 not (the same for every context) */
static pthread_once_t fb_once = PTHREAD_ONCE_INIT;

static void fb_load(void)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);

    if (egl == NULL)
        return;
    str.GetString = (__typeof__(str.GetString))egl->get_proc("glGetString");
    str.GetStringi = (__typeof__(str.GetStringi))egl->get_proc("glGetStringi");
#define GLMUX_PIXELS_FB_LOAD(name)                                   \
    fb.name = (__typeof__(fb.name))egl->get_proc("gl" #name);        \
    if (fb.name == NULL)                                             \
        return;
    GLMUX_PIXELS_FB_LOAD(GenFramebuffers)
    GLMUX_PIXELS_FB_LOAD(DeleteFramebuffers)
    GLMUX_PIXELS_FB_LOAD(GenRenderbuffers)
    GLMUX_PIXELS_FB_LOAD(DeleteRenderbuffers)
    GLMUX_PIXELS_FB_LOAD(BindRenderbuffer)
    GLMUX_PIXELS_FB_LOAD(RenderbufferStorage)
    GLMUX_PIXELS_FB_LOAD(FramebufferRenderbuffer)
    GLMUX_PIXELS_FB_LOAD(FramebufferTexture2D)
    GLMUX_PIXELS_FB_LOAD(BlitFramebuffer)
    GLMUX_PIXELS_FB_LOAD(IsEnabled)
    GLMUX_PIXELS_FB_LOAD(Enable)
    GLMUX_PIXELS_FB_LOAD(Disable)
    GLMUX_PIXELS_FB_LOAD(GenTextures)
    GLMUX_PIXELS_FB_LOAD(DeleteTextures)
    GLMUX_PIXELS_FB_LOAD(BindTexture)
    GLMUX_PIXELS_FB_LOAD(TexImage2D)
#undef GLMUX_PIXELS_FB_LOAD
    fb_ok = true;
}

static bool fb_usable(const char *what)
{
    pthread_once(&fb_once, fb_load);
    if (!fb_ok) {
        static int warned;

        if (__atomic_fetch_add(&warned, 1, __ATOMIC_RELAXED) == 0)
            glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: the EGL vendor lacks framebuffer "
                      "objects; %s (reported once)", what);
    }
    return fb_ok;
}

/* Whether the current context offers GL_MESA_pack_invert (asked once per process). */
static bool has_pack_invert(const struct glmux_pixels_gl *gl)
{
    int known = __atomic_load_n(&pack_invert, __ATOMIC_RELAXED);
    const char *version;
    bool found = false;

    if (known != 0)
        return known > 0;
    pthread_once(&fb_once, fb_load);
    if (str.GetString == NULL ||
        (version = (const char *)str.GetString(GL_VERSION)) == NULL)
        return false;
    if (atoi(version) >= 3 && str.GetStringi != NULL) {
        GLint n = 0;

        gl->GetIntegerv(GL_NUM_EXTENSIONS, &n);
        for (GLint i = 0; i < n && !found; i++) {
            const char *e = (const char *)str.GetStringi(GL_EXTENSIONS, (GLuint)i);

            found = e != NULL && strcmp(e, "GL_MESA_pack_invert") == 0;
        }
    } else {
        const char *all = (const char *)str.GetString(GL_EXTENSIONS);

        found = all != NULL && glmux_pixels_has_word(all, "GL_MESA_pack_invert");
    }
    __atomic_store_n(&pack_invert, found ? 1 : -1, __ATOMIC_RELAXED);
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: frames are read back top row first %s",
              found ? "by glReadPixels (GL_MESA_pack_invert)" : "through a flipping blit");
    return found;
}

/* Disables cap for a blit; returns whether it was on. */
static bool off(GLenum cap)
{
    bool was = fb.IsEnabled(cap);

    if (was)
        fb.Disable(cap);
    return was;
}

/* glBlitFramebuffer of the w x h frame of the bound read framebuffer into the bound draw
 * framebuffer, the rows swapped when flip, nothing but the pixels' bytes applied. */
static void blit(int w, int h, bool flip)
{
    bool scissor = off(GL_SCISSOR_TEST), discard = off(GL_RASTERIZER_DISCARD),
         srgb = off(GL_FRAMEBUFFER_SRGB);

    fb.BlitFramebuffer(0, 0, w, h, 0, flip ? h : 0, w, flip ? 0 : h, GL_COLOR_BUFFER_BIT,
                       GL_NEAREST);
    if (scissor)
        fb.Enable(GL_SCISSOR_TEST);
    if (discard)
        fb.Enable(GL_RASTERIZER_DISCARD);
    if (srgb)
        fb.Enable(GL_FRAMEBUFFER_SRGB);
}

/* Copies the bound read framebuffer's frame into renderbuffer n of r (flipped or not) and
 * binds that as the read framebuffer. The draw bindings are left as found. */
static void copy_to_renderbuffer(const struct glmux_pixels_gl *gl, int w, int h, bool flip,
                                 struct glmux_pixels_resolve *r, int n)
{
    GLint draw_fb = 0, rb = 0;

    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fb);
    gl->GetIntegerv(GL_RENDERBUFFER_BINDING, &rb);
    fb.GenRenderbuffers(1, &r->rb[n]);
    fb.BindRenderbuffer(GL_RENDERBUFFER, r->rb[n]);
    fb.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    fb.GenFramebuffers(1, &r->fbo[n]);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo[n]);
    fb.FramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                               r->rb[n]);
    blit(w, h, flip);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw_fb);
    fb.BindRenderbuffer(GL_RENDERBUFFER, (GLuint)rb);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo[n]);
}

bool glmux_pixels_resolve_begin(const struct glmux_pixels_config *c, int w, int h, bool flip,
                                struct glmux_pixels_resolve *r)
{
    const struct glmux_pixels_gl *gl = glmux_pixels_gl_get();
    bool resolve = c != NULL && c->samples > 0;

    memset(r, 0, sizeof(*r));
    if ((!resolve && !flip) || gl == NULL ||
        !fb_usable(resolve ? "multisampled frames are shown unresolved"
                           : "frames are turned top-down by the CPU"))
        return false;
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    if (resolve) /* a resolving blit must be unflipped and the same size */
        copy_to_renderbuffer(gl, w, h, false, r, 0);
    if (flip)
        copy_to_renderbuffer(gl, w, h, true, r, 1);
    return true;
}

void glmux_pixels_resolve_end(struct glmux_pixels_resolve *r)
{
    for (int i = 0; i < 2; i++) {
        if (r->fbo[i] != 0)
            fb.DeleteFramebuffers(1, &r->fbo[i]);
        if (r->rb[i] != 0)
            fb.DeleteRenderbuffers(1, &r->rb[i]);
    }
    memset(r, 0, sizeof(*r));
}

/* The last resort: rows swapped in place. */
static void flip_rows(const struct glmux_pixels_layout *l, char *dst)
{
    char *row = malloc((size_t)l->stride);

    if (row == NULL)
        return;
    for (int y = 0; y < l->height / 2; y++) {
        char *a = dst + (size_t)y * (size_t)l->stride;
        char *b = dst + (size_t)(l->height - 1 - y) * (size_t)l->stride;

        memcpy(row, a, (size_t)l->stride);
        memcpy(a, b, (size_t)l->stride);
        memcpy(b, row, (size_t)l->stride);
    }
    free(row);
}

void glmux_pixels_read_back(const struct glmux_pixels_config *c,
                            const struct glmux_pixels_layout *l, int order, char *dst)
{
    /* GL_BGRA as bytes is B, G, R, A: 0xAARRGGBB in LSBFirst order; as 8_8_8_8 words, in
     * MSBFirst order on a little-endian machine (8_8_8_8_REV on a big-endian one). */
    GLenum type = order == LSBFirst ? GL_UNSIGNED_BYTE
                  : glmux_pixels_host_order() == LSBFirst ? GL_UNSIGNED_INT_8_8_8_8
                                                          : GL_UNSIGNED_INT_8_8_8_8_REV;
    const struct glmux_pixels_gl *gl = glmux_pixels_gl_get();
    GLint fb_read = 0, pbo = 0, align = 4, row = 0, skip_rows = 0, skip_pixels = 0, invert = 0;
    struct glmux_pixels_resolve r;
    bool by_pack, by_blit;

    if (gl == NULL)
        return;
    by_pack = has_pack_invert(gl);
    gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &fb_read);
    gl->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pbo);
    gl->GetIntegerv(GL_PACK_ALIGNMENT, &align);
    gl->GetIntegerv(GL_PACK_ROW_LENGTH, &row);
    gl->GetIntegerv(GL_PACK_SKIP_ROWS, &skip_rows);
    gl->GetIntegerv(GL_PACK_SKIP_PIXELS, &skip_pixels);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 4);
    gl->PixelStorei(GL_PACK_ROW_LENGTH, 0);
    gl->PixelStorei(GL_PACK_SKIP_ROWS, 0);
    gl->PixelStorei(GL_PACK_SKIP_PIXELS, 0);
    by_blit = glmux_pixels_resolve_begin(c, l->width, l->height, !by_pack, &r) && !by_pack;
    if (by_pack) {
        gl->GetIntegerv(GL_PACK_INVERT_MESA, &invert);
        gl->PixelStorei(GL_PACK_INVERT_MESA, 1);
    }
    /* An X ZPixmap of 32 bits a pixel, written straight into the transport's buffer. */
    gl->ReadPixels(0, 0, l->width, l->height, GL_BGRA, type, dst);
    if (by_pack)
        gl->PixelStorei(GL_PACK_INVERT_MESA, invert);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)fb_read);
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pbo);
    gl->PixelStorei(GL_PACK_ALIGNMENT, align);
    gl->PixelStorei(GL_PACK_ROW_LENGTH, row);
    gl->PixelStorei(GL_PACK_SKIP_ROWS, skip_rows);
    gl->PixelStorei(GL_PACK_SKIP_PIXELS, skip_pixels);
    glmux_pixels_resolve_end(&r);
    if (!by_pack && !by_blit)
        flip_rows(l, dst);
}

void glmux_pixels_upload(const XImage *img)
{
    const struct glmux_pixels_gl *gl = glmux_pixels_gl_get();
    GLint draw_fb = 0, read_fb = 0, tex_bound = 0;
    struct glmux_pixels_unpack saved;
    GLuint tex = 0, fbo = 0;

    if (gl == NULL || !fb_usable("a GLX pixmap starts empty, not with the X pixmap's contents"))
        return;
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fb);
    gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
    gl->GetIntegerv(GL_TEXTURE_BINDING_2D, &tex_bound);
    fb.GenTextures(1, &tex);
    fb.BindTexture(GL_TEXTURE_2D, tex);
    glmux_pixels_unpack_set(gl, &saved, img->bytes_per_line / 4);
    fb.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, img->width, img->height, 0, GL_BGRA,
                  GL_UNSIGNED_BYTE, img->data);
    glmux_pixels_unpack_restore(gl, &saved);
    fb.GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    fb.FramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    /* The image's row 0 is X's top row: GL's top is its last. */
    blit(img->width, img->height, true);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw_fb);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read_fb);
    fb.BindTexture(GL_TEXTURE_2D, (GLuint)tex_bound);
    fb.DeleteFramebuffers(1, &fbo);
    fb.DeleteTextures(1, &tex);
}

/* ---- the unpack state of an upload (glmux_pixels_upload, pixels_texture.c) ---- */

void glmux_pixels_unpack_set(const struct glmux_pixels_gl *gl, struct glmux_pixels_unpack *saved,
                             int row_length)
{
    gl->GetIntegerv(GL_UNPACK_ALIGNMENT, &saved->alignment);
    gl->GetIntegerv(GL_UNPACK_ROW_LENGTH, &saved->row_length);
    gl->GetIntegerv(GL_UNPACK_SKIP_ROWS, &saved->skip_rows);
    gl->GetIntegerv(GL_UNPACK_SKIP_PIXELS, &saved->skip_pixels);
    gl->GetIntegerv(GL_UNPACK_SWAP_BYTES, &saved->swap_bytes);
    gl->GetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &saved->buffer);
    gl->BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 4);
    gl->PixelStorei(GL_UNPACK_ROW_LENGTH, row_length);
    gl->PixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    gl->PixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    gl->PixelStorei(GL_UNPACK_SWAP_BYTES, GL_FALSE);
}

void glmux_pixels_unpack_restore(const struct glmux_pixels_gl *gl,
                                 const struct glmux_pixels_unpack *saved)
{
    gl->BindBuffer(GL_PIXEL_UNPACK_BUFFER, (GLuint)saved->buffer);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, saved->alignment);
    gl->PixelStorei(GL_UNPACK_ROW_LENGTH, saved->row_length);
    gl->PixelStorei(GL_UNPACK_SKIP_ROWS, saved->skip_rows);
    gl->PixelStorei(GL_UNPACK_SKIP_PIXELS, saved->skip_pixels);
    gl->PixelStorei(GL_UNPACK_SWAP_BYTES, saved->swap_bytes);
}
