/* SPDX-License-Identifier: MIT */
/*
 * glmux demo: one real frame through GLX. Opens $DISPLAY (scripts/demo.sh starts a private
 * Xvfb), lets libGLX pick the screen's vendor as a desktop would (the server's vendor names),
 * renders into a window through our libGL.so.1 (green clear, red scissored quadrant), reads two
 * pixels back and prints the GLX vendor, the renderer and the libraries the process loaded.
 * `glmux-demo-glx FILE` also writes the frame to FILE (PPM). demo/egl_x11_demo.c is this program
 * ported to EGL by following docs/porting-glx-to-egl.md: the two differ only by the guide's
 * edits and this comment (the test port_guide_steps applies the edits and compares).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <X11/Xlib.h>
#include <GL/glx.h>

#include "demo_libs.h"
#include "demo_pixels.h"

#define SIZE 64

int main(int argc, char **argv)
{
    static const int attribs[] = {
        GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
        GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None
    };
    Display *dpy = XOpenDisplay(NULL);
    XSetWindowAttributes swa = { 0 };
    GLXFBConfig *configs;
    XVisualInfo *vis;
    GLXContext ctx;
    Window win;
    int n = 0;
    int ok;

    if (dpy == NULL) {
        fprintf(stderr, "%s: cannot open display \"%s\"; run it under xvfb-run\n",
                program_invocation_short_name, XDisplayName(NULL));
        return 1;
    }
    configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
    if (configs == NULL || n == 0) {
        fprintf(stderr, "%s: no GLX FBConfig (GLMUX_DEBUG=warn,vendor says why)\n",
                program_invocation_short_name);
        return 1;
    }
    vis = glXGetVisualFromFBConfig(dpy, configs[0]);
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vis->screen), vis->visual, AllocNone);
    win = XCreateWindow(dpy, RootWindow(dpy, vis->screen), 0, 0, SIZE, SIZE, 0, vis->depth,
                        InputOutput, vis->visual, CWColormap | CWBorderPixel, &swa);
    XMapWindow(dpy, win);
    ctx = glXCreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    if (ctx == NULL || !glXMakeCurrent(dpy, win, ctx)) {
        fprintf(stderr, "%s: cannot make a GLX context current\n", program_invocation_short_name);
        return 1;
    }
    printf("GLX vendor:  %s\n", glXGetClientString(dpy, GLX_VENDOR));
    printf("GL renderer: %s\n", (const char *)glGetString(GL_RENDERER));
    printf("GL version:  %s\n", (const char *)glGetString(GL_VERSION));
    ok = demo_draw_scene(SIZE);
    if (argc > 1 && !demo_dump_pixels(argv[1], SIZE))
        ok = false;
    demo_print_loaded((const char *const[]){ "libGL.so", "libGLX", "libEGL", "libGLdispatch",
                                             "libOpenGL", NULL });
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFree(vis);
    XFree(configs);
    XCloseDisplay(dpy);
    return ok ? 0 : 1;
}
