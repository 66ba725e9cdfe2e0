/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: eglGetDisplay with an Xlib Display* (platform detection for X11) through
 * our libEGL and Debian's Mesa, then a pbuffer frame through our libOpenGL with pixels
 * checked. test_egl_x11.py runs it against its own Xvfb.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include <X11/Xlib.h>

#include "egl_render.h"
#include "glmux_test.h"

int main(void)
{
    Display *x = XOpenDisplay(NULL);
    struct egl_render r;
    EGLDisplay dpy;
    unsigned char px[4];
    char why[256];

    CHECK_MSG(x != NULL, "cannot open X display %s", getenv("DISPLAY"));
    dpy = eglGetDisplay((EGLNativeDisplayType)x);
    CHECK_MSG(dpy != EGL_NO_DISPLAY, "eglGetDisplay(Display *) failed (0x%x)", eglGetError());
    CHECK_MSG(egl_render_open(&r, dpy, EGL_OPENGL_API, 0, 32, 32, why, sizeof(why)), "%s", why);
    printf("EGL vendor on X11: %s\n", eglQueryString(dpy, EGL_VENDOR));
    egl_render_clear_frame(&r, 0, 0, 16, 16);
    egl_render_pixel(4, 4, px);
    CHECK(egl_render_pixel_is(px, 0, 255, 0, 255));
    egl_render_pixel(24, 24, px);
    CHECK(egl_render_pixel_is(px, 255, 0, 0, 255));
    glmux_test_require_ours("libEGL.so.1");
    glmux_test_require_ours("libGLdispatch.so.0");
    glmux_test_require_ours("libOpenGL.so.0");
    egl_render_close(&r);
    XCloseDisplay(x);
    return 0;
}
