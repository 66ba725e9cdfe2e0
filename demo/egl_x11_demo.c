/* SPDX-License-Identifier: MIT */
/*
 * glmux demo: demo/glx_demo.c ported from GLX to EGL by following docs/porting-glx-to-egl.md,
 * step by step: the two differ only by the guide's edits and this comment (the test
 * port_guide_steps applies the edits and compares). Opens $DISPLAY, makes an EGL display on it
 * (X11 platform), renders the same scene into an X window through our libEGL.so.1 and
 * libOpenGL.so.0 (no libGL, no libGLX), reads it back and prints the EGL vendor, the renderer
 * and the libraries the process loaded. `glmux-demo-egl-x11 FILE` also writes the frame to FILE
 * (PPM), which tests/port compares with the GLX demo's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h> /* XVisualInfo, XGetVisualInfo: <GL/glx.h> included it */
#include <GL/gl.h>     /* the GL functions: <GL/glx.h> included it too */
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "demo_libs.h"
#include "demo_pixels.h"

#define SIZE 64

int main(int argc, char **argv)
{
    static const EGLint attribs[] = {
        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE
    };
    Display *dpy = XOpenDisplay(NULL);
    XSetWindowAttributes swa = { 0 };
    XVisualInfo tmpl = { 0 }, *vis;
    EGLDisplay edpy;
    EGLConfig config;
    EGLSurface surface;
    EGLContext ctx;
    EGLint major, minor, n = 0, visual_id = 0;
    Window win;
    int nvis = 0;
    int ok;

    if (dpy == NULL) {
        fprintf(stderr, "%s: cannot open display \"%s\"; run it under xvfb-run\n",
                program_invocation_short_name, XDisplayName(NULL));
        return 1;
    }
    edpy = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, dpy, NULL);
    if (edpy == EGL_NO_DISPLAY || !eglInitialize(edpy, &major, &minor) ||
        !eglBindAPI(EGL_OPENGL_API) || !eglChooseConfig(edpy, attribs, &config, 1, &n) ||
        n == 0) {
        fprintf(stderr, "%s: no EGL config (EGL error 0x%04x; GLMUX_DEBUG=warn,vendor says "
                "why)\n", program_invocation_short_name, (unsigned)eglGetError());
        return 1;
    }
    eglGetConfigAttrib(edpy, config, EGL_NATIVE_VISUAL_ID, &visual_id);
    tmpl.visualid = (VisualID)visual_id;
    vis = XGetVisualInfo(dpy, VisualIDMask, &tmpl, &nvis);
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vis->screen), vis->visual, AllocNone);
    win = XCreateWindow(dpy, RootWindow(dpy, vis->screen), 0, 0, SIZE, SIZE, 0, vis->depth,
                        InputOutput, vis->visual, CWColormap | CWBorderPixel, &swa);
    XMapWindow(dpy, win);
    surface = eglCreatePlatformWindowSurface(edpy, config, &win, NULL);
    ctx = eglCreateContext(edpy, config, EGL_NO_CONTEXT, NULL);
    if (surface == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(edpy, surface, surface, ctx)) {
        fprintf(stderr, "%s: cannot make an EGL context current (EGL error 0x%04x)\n",
                program_invocation_short_name, (unsigned)eglGetError());
        return 1;
    }
    printf("EGL vendor:  %s (EGL %d.%d)\n", eglQueryString(edpy, EGL_VENDOR), major, minor);
    printf("GL renderer: %s\n", (const char *)glGetString(GL_RENDERER));
    printf("GL version:  %s\n", (const char *)glGetString(GL_VERSION));
    ok = demo_draw_scene(SIZE);
    if (argc > 1 && !demo_dump_pixels(argv[1], SIZE))
        ok = false;
    demo_print_loaded((const char *const[]){ "libGL.so", "libGLX", "libEGL", "libGLdispatch",
                                             "libOpenGL", NULL });
    eglMakeCurrent(edpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(edpy, ctx);
    eglDestroySurface(edpy, surface);
    eglTerminate(edpy);
    eglReleaseThread();
    XDestroyWindow(dpy, win);
    XFree(vis);
    XCloseDisplay(dpy);
    return ok ? 0 : 1;
}
