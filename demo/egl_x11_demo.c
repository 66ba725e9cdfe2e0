/* SPDX-License-Identifier: MIT */
/*
 * glmux demo: demo/glx_demo.c ported from GLX to EGL by following docs/porting-glx-to-egl.md,
 * step by step (the numbers in the comments are the guide's). Opens $DISPLAY, makes an EGL
 * display on it (X11 platform), renders the same scene into an X window through our
 * libEGL.so.1 and libOpenGL.so.0 (no libGL, no libGLX), reads it back and prints the EGL vendor,
 * the renderer and the libraries the process loaded. `glmux-demo-egl-x11 FILE` also writes the
 * frame to FILE (PPM), which tests/port compares with the GLX demo's.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <EGL/egl.h> /* step 1: EGL/egl.h instead of GL/glx.h; link libEGL + libOpenGL */
#include <EGL/eglext.h>
#include <GL/gl.h>

#include "demo_libs.h"
#include "demo_pixels.h"

#define SIZE 64

static int fail(const char *what)
{
    fprintf(stderr, "glmux-demo-egl-x11: %s failed (EGL error 0x%04x; GLMUX_DEBUG=vendor says "
                    "more)\n", what, (unsigned)eglGetError());
    return 1;
}

int main(int argc, char **argv)
{
    static const EGLint attribs[] = { /* step 4: every attribute has a value; EGL_NONE ends */
        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE
    };
    Display *x = XOpenDisplay(NULL);
    XSetWindowAttributes swa = { 0 };
    XVisualInfo tmpl = { 0 }, *vis;
    EGLDisplay dpy;
    EGLConfig config;
    EGLSurface surface;
    EGLContext ctx;
    EGLint major, minor, n = 0, visual_id = 0;
    Window win;
    int nvis = 0;
    int ok;

    if (x == NULL) {
        fprintf(stderr, "glmux-demo-egl-x11: cannot open display \"%s\"; run it under xvfb-run\n",
                XDisplayName(NULL));
        return 1;
    }
    /* step 2: an EGL display on the X connection (EGL 1.5), then eglInitialize */
    dpy = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, x, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor))
        return fail("eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR)/eglInitialize");
    /* step 3: desktop OpenGL, not the default OpenGL ES */
    if (!eglBindAPI(EGL_OPENGL_API))
        return fail("eglBindAPI(EGL_OPENGL_API)");
    /* step 4: glXChooseFBConfig -> eglChooseConfig (the caller owns the array) */
    if (!eglChooseConfig(dpy, attribs, &config, 1, &n) || n == 0)
        return fail("eglChooseConfig");
    /* step 5: glXGetVisualFromFBConfig -> EGL_NATIVE_VISUAL_ID + XGetVisualInfo */
    eglGetConfigAttrib(dpy, config, EGL_NATIVE_VISUAL_ID, &visual_id);
    tmpl.visualid = (VisualID)visual_id;
    vis = XGetVisualInfo(x, VisualIDMask, &tmpl, &nvis);
    if (vis == NULL) {
        fprintf(stderr, "glmux-demo-egl-x11: the config's visual 0x%x is unknown\n", visual_id);
        return 1;
    }
    swa.colormap = XCreateColormap(x, RootWindow(x, vis->screen), vis->visual, AllocNone);
    win = XCreateWindow(x, RootWindow(x, vis->screen), 0, 0, SIZE, SIZE, 0, vis->depth,
                        InputOutput, vis->visual, CWColormap | CWBorderPixel, &swa);
    XMapWindow(x, win);
    /* step 6: an EGLSurface for the window (a pointer to the Window on the X11 platform) */
    surface = eglCreatePlatformWindowSurface(dpy, config, &win, NULL);
    if (surface == EGL_NO_SURFACE)
        return fail("eglCreatePlatformWindowSurface");
    /* step 7: glXCreateNewContext -> eglCreateContext (no render type, always direct) */
    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL);
    if (ctx == EGL_NO_CONTEXT)
        return fail("eglCreateContext");
    /* step 8: glXMakeCurrent(dpy, win, ctx) -> eglMakeCurrent with the surface */
    if (!eglMakeCurrent(dpy, surface, surface, ctx))
        return fail("eglMakeCurrent");
    /* glXGetClientString(GLX_VENDOR) -> eglQueryString(EGL_VENDOR) */
    printf("EGL vendor:  %s (EGL %d.%d)\n", eglQueryString(dpy, EGL_VENDOR), major, minor);
    printf("GL renderer: %s\n", (const char *)glGetString(GL_RENDERER));
    printf("GL version:  %s\n", (const char *)glGetString(GL_VERSION));
    /* step 9: the GL calls do not change */
    ok = demo_draw_scene(SIZE);
    if (argc > 1 && !demo_dump_pixels(argv[1], SIZE))
        ok = false;
    demo_print_loaded((const char *const[]){ "libGL.so", "libGLX", "libEGL", "libGLdispatch",
                                             "libOpenGL", NULL });
    /* step 10: release, destroy, terminate, and only then close the X connection */
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surface);
    eglTerminate(dpy);
    eglReleaseThread();
    XDestroyWindow(x, win);
    XFreeColormap(x, swa.colormap);
    XFree(vis);
    XCloseDisplay(x);
    return ok ? 0 : 1;
}
