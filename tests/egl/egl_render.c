/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: off-screen rendering through EGL (see egl_render.h). It calls EGL
 * through libEGL.so.1 and GL through whichever GL library the program links (libOpenGL,
 * libGLESv2 or libGLESv1_CM); every GL function used here is exported by all three.
 */
#define _GNU_SOURCE
#include "egl_render.h"

#include <stdio.h>
#include <stdlib.h>

#include <GL/gl.h>

bool egl_render_open(struct egl_render *r, EGLDisplay dpy, EGLenum api, int es_version,
                     int width, int height, char *why, size_t why_size)
{
    EGLint renderable = api == EGL_OPENGL_API ? EGL_OPENGL_BIT
                        : es_version == 1 ? EGL_OPENGL_ES_BIT
                        : es_version == 2 ? EGL_OPENGL_ES2_BIT : EGL_OPENGL_ES3_BIT_KHR;
    const EGLint config_attribs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, renderable,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE
    };
    const EGLint surface_attribs[] = { EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE };
    const EGLint es_attribs[] = { EGL_CONTEXT_MAJOR_VERSION, es_version, EGL_NONE };
    EGLConfig config;
    EGLint n = 0;

    r->width = width;
    r->height = height;
    r->ctx = EGL_NO_CONTEXT;
    r->surface = EGL_NO_SURFACE;
    r->dpy = dpy != EGL_NO_DISPLAY ? dpy
             : eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
#define FAIL(...) do { snprintf(why, why_size, __VA_ARGS__); return false; } while (0)
    if (r->dpy == EGL_NO_DISPLAY)
        FAIL("no EGL display (error 0x%x)", eglGetError());
    if (!eglInitialize(r->dpy, NULL, NULL))
        FAIL("eglInitialize failed (error 0x%x)", eglGetError());
    if (!eglBindAPI(api))
        FAIL("eglBindAPI(0x%x) failed (error 0x%x)", api, eglGetError());
    if (!eglChooseConfig(r->dpy, config_attribs, &config, 1, &n) || n < 1)
        FAIL("no RGBA8 pbuffer config for this API (error 0x%x)", eglGetError());
    r->surface = eglCreatePbufferSurface(r->dpy, config, surface_attribs);
    if (r->surface == EGL_NO_SURFACE)
        FAIL("eglCreatePbufferSurface failed (error 0x%x)", eglGetError());
    r->ctx = eglCreateContext(r->dpy, config, EGL_NO_CONTEXT,
                              api == EGL_OPENGL_ES_API ? es_attribs : NULL);
    if (r->ctx == EGL_NO_CONTEXT)
        FAIL("eglCreateContext failed (error 0x%x)", eglGetError());
    if (!eglMakeCurrent(r->dpy, r->surface, r->surface, r->ctx))
        FAIL("eglMakeCurrent failed (error 0x%x)", eglGetError());
#undef FAIL
    return true;
}

void egl_render_close(struct egl_render *r)
{
    eglMakeCurrent(r->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (r->ctx != EGL_NO_CONTEXT)
        eglDestroyContext(r->dpy, r->ctx);
    if (r->surface != EGL_NO_SURFACE)
        eglDestroySurface(r->dpy, r->surface);
    eglTerminate(r->dpy);
    eglReleaseThread();
}

void egl_render_clear_frame(const struct egl_render *r, int x, int y, int w, int h)
{
    glViewport(0, 0, r->width, r->height);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(x, y, w, h);
    glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

void egl_render_pixel(int x, int y, unsigned char rgba[4])
{
    glFinish();
    glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
}

bool egl_render_pixel_is(const unsigned char rgba[4], int r, int g, int b, int a)
{
    return abs(rgba[0] - r) <= 2 && abs(rgba[1] - g) <= 2 && abs(rgba[2] - b) <= 2 &&
           abs(rgba[3] - a) <= 2;
}
