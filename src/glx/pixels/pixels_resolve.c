/* SPDX-License-Identifier: MIT */
/*
 * glmux: the multisample resolve of the pixels GLX vendor's read-back. A multisampled config's
 * surface is an EGL pbuffer with a multisampled default framebuffer; glReadPixels from it
 * reads a single sample with Mesa's llvmpipe (no antialiasing reaches the X server), while a
 * glBlitFramebuffer into a single-sampled framebuffer resolves it. So before reading a frame
 * back, present resolves the drawable into a renderbuffer of the frame's size made for that
 * frame (GL objects belong to the context current at the time, which may change from frame
 * to frame) and reads that. The blit is unflipped and the same size, as a resolve must be,
 * with the scissor test, rasterizer discard and sRGB conversion off: the bytes stored are the
 * bytes shown. The application's framebuffer and renderbuffer bindings are left as found.
 */
#include <pthread.h>

#include "glx/pixels/pixels.h"
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
#endif
#ifndef GL_RGBA8
#define GL_RGBA8 0x8058
#endif
#ifndef GL_FRAMEBUFFER_SRGB
#define GL_FRAMEBUFFER_SRGB 0x8DB9
#endif
#ifndef GL_RASTERIZER_DISCARD
#define GL_RASTERIZER_DISCARD 0x8C89
#endif

static struct {
    void (*GenFramebuffers)(GLsizei, GLuint *);
    void (*DeleteFramebuffers)(GLsizei, const GLuint *);
    void (*GenRenderbuffers)(GLsizei, GLuint *);
    void (*DeleteRenderbuffers)(GLsizei, const GLuint *);
    void (*BindRenderbuffer)(GLenum, GLuint);
    void (*RenderbufferStorage)(GLenum, GLenum, GLsizei, GLsizei);
    void (*FramebufferRenderbuffer)(GLenum, GLenum, GLenum, GLuint);
    void (*BlitFramebuffer)(GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield,
                            GLenum);
    GLboolean (*IsEnabled)(GLenum);
    void (*Enable)(GLenum);
    void (*Disable)(GLenum);
} fb;
static bool fb_ok;
static pthread_once_t fb_once = PTHREAD_ONCE_INIT;

static void fb_load(void)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);

    if (egl == NULL)
        return;
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
    GLMUX_PIXELS_FB_LOAD(BlitFramebuffer)
    GLMUX_PIXELS_FB_LOAD(IsEnabled)
    GLMUX_PIXELS_FB_LOAD(Enable)
    GLMUX_PIXELS_FB_LOAD(Disable)
#undef GLMUX_PIXELS_FB_LOAD
    fb_ok = true;
}

/* Disables cap for the blit; returns whether it was on. */
static bool off(GLenum cap)
{
    bool was = fb.IsEnabled(cap);

    if (was)
        fb.Disable(cap);
    return was;
}

bool glmux_pixels_resolve_begin(const struct glmux_pixels_config *c, int w, int h,
                                struct glmux_pixels_resolve *r)
{
    const struct glmux_pixels_gl *gl = glmux_pixels_gl_get();
    GLint draw_fb = 0, rb = 0;
    bool scissor, discard, srgb;

    r->fbo = r->rb = 0;
    if (c == NULL || c->samples == 0 || gl == NULL)
        return false;
    pthread_once(&fb_once, fb_load);
    if (!fb_ok) {
        static int warned;

        if (__atomic_fetch_add(&warned, 1, __ATOMIC_RELAXED) == 0)
            glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: the EGL vendor lacks framebuffer "
                      "objects; multisampled frames are shown unresolved (reported once)");
        return false;
    }
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fb);
    gl->GetIntegerv(GL_RENDERBUFFER_BINDING, &rb);
    fb.GenRenderbuffers(1, &r->rb);
    fb.BindRenderbuffer(GL_RENDERBUFFER, r->rb);
    fb.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    fb.GenFramebuffers(1, &r->fbo);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo);
    fb.FramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r->rb);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    scissor = off(GL_SCISSOR_TEST);
    discard = off(GL_RASTERIZER_DISCARD);
    srgb = off(GL_FRAMEBUFFER_SRGB);
    fb.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    if (scissor)
        fb.Enable(GL_SCISSOR_TEST);
    if (discard)
        fb.Enable(GL_RASTERIZER_DISCARD);
    if (srgb)
        fb.Enable(GL_FRAMEBUFFER_SRGB);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw_fb);
    fb.BindRenderbuffer(GL_RENDERBUFFER, (GLuint)rb);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
    return true;
}

void glmux_pixels_resolve_end(struct glmux_pixels_resolve *r)
{
    if (r->fbo != 0)
        fb.DeleteFramebuffers(1, &r->fbo);
    if (r->rb != 0)
        fb.DeleteRenderbuffers(1, &r->rb);
    r->fbo = r->rb = 0;
}
