/* SPDX-License-Identifier: MIT */
/*
 * glmux demo: one real frame through glmux. Opens Mesa's surfaceless EGL platform through our
 * libEGL.so.1, renders with desktop GL through our libOpenGL.so.0 (red clear, green box), reads
 * two pixels back, and prints the vendor and renderer that served it and the path of every GL
 * library the process loaded: ours, not Debian's libglvnd.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include <GL/gl.h>

#include "demo_libs.h"
#include "egl_render.h"

int main(void)
{
    struct egl_render r;
    unsigned char inside[4], outside[4];
    char why[256];
    bool ok;

    if (!egl_render_open(&r, EGL_NO_DISPLAY, EGL_OPENGL_API, 0, 64, 64, why, sizeof(why))) {
        fprintf(stderr, "glmux-demo-egl: %s\n(is Debian's libegl-mesa0 installed? "
                        "try GLMUX_DEBUG=warn,vendor)\n", why);
        return 1;
    }
    printf("EGL vendor:  %s\n", eglQueryString(r.dpy, EGL_VENDOR));
    printf("GL renderer: %s\n", (const char *)glGetString(GL_RENDERER));
    printf("GL version:  %s\n", (const char *)glGetString(GL_VERSION));
    egl_render_clear_frame(&r, 16, 16, 32, 32);
    egl_render_pixel(32, 32, inside);
    egl_render_pixel(4, 4, outside);
    ok = egl_render_pixel_is(inside, 0, 255, 0, 255) && egl_render_pixel_is(outside, 255, 0, 0, 255);
    printf("pixels: box (%u,%u,%u) border (%u,%u,%u): %s\n", inside[0], inside[1], inside[2],
           outside[0], outside[1], outside[2], ok ? "as drawn" : "WRONG");
    demo_print_loaded((const char *const[]){ "libEGL", "libOpenGL", "libGLdispatch", "libGLX", "libGLES", NULL });
    egl_render_close(&r);
    return ok ? 0 : 1;
}
