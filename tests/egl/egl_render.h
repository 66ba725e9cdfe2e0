/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: a small off-screen rendering helper (EGL pbuffer, any client API) that
 * the Mesa tests use and that a demo can reuse: open a context, draw, read pixels back.
 */
#ifndef GLMUX_EGL_RENDER_H
#define GLMUX_EGL_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#ifndef EGL_NO_X11
#define EGL_NO_X11
#endif
#include <EGL/egl.h>
#include <EGL/eglext.h>

struct egl_render {
    EGLDisplay dpy;
    EGLContext ctx;
    EGLSurface surface;
    int width, height;
};

/*
 * Opens a width×height pbuffer context and makes it current. api is EGL_OPENGL_API
 * (es_version 0) or EGL_OPENGL_ES_API (es_version 1, 2 or 3). dpy is a display to use, or
 * EGL_NO_DISPLAY for the surfaceless Mesa platform. On failure writes why and returns false.
 */
bool egl_render_open(struct egl_render *r, EGLDisplay dpy, EGLenum api, int es_version,
                     int width, int height, char *why, size_t why_size);
void egl_render_close(struct egl_render *r);

/*
 * Clears the surface to red, then a scissored box (x, y, w, h) to green, using only GL
 * 1.0/ES functions every GL library exports. Leaves scissoring on with that box.
 */
void egl_render_clear_frame(const struct egl_render *r, int x, int y, int w, int h);

/* Reads one RGBA8 pixel. */
void egl_render_pixel(int x, int y, unsigned char rgba[4]);

/* True when rgba is within 2 of (r, g, b, a). */
bool egl_render_pixel_is(const unsigned char rgba[4], int r, int g, int b, int a);

#endif
