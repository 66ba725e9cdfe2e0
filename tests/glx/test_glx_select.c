/* SPDX-License-Identifier: MIT */
/*
 * glmux GLX tests: the program test_glx_select.py runs under each umockdev test bed, on the
 * fixture's Xvfb. Like an application that never heard of GPUs, it makes a context of screen 0
 * current with glXMakeCurrent and prints which vendor serves it ("vendor NAME", from the
 * context's GL_VENDOR); the fake vendors themselves record what they saw (FAKE_GLX_RECORD).
 */
#include <stdio.h>

#include <X11/Xlib.h>
#include <GL/gl.h>
#include <GL/glx.h>

#include "glmux_test.h"
#include "glx_test_x.h"

int main(void)
{
    static const int attribs[] = { GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, None };
    Display *dpy = glx_test_open("two");
    GLXFBConfig *configs;
    XVisualInfo *vis;
    XSetWindowAttributes swa = { 0 };
    Window win;
    GLXContext ctx;
    const char *vendor;
    int n = 0;

    configs = glXChooseFBConfig(dpy, 0, attribs, &n);
    if (configs == NULL || n == 0) {
        printf("vendor (none)\n");
        glmux_test_require_ours("libGLX.so.0");
        return 0;
    }
    vis = glXGetVisualFromFBConfig(dpy, configs[0]);
    CHECK(vis != NULL);
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, 0), vis->visual, AllocNone);
    win = XCreateWindow(dpy, RootWindow(dpy, 0), 0, 0, 16, 16, 0, vis->depth, InputOutput,
                        vis->visual, CWColormap, &swa);
    ctx = glXCreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx != NULL);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    vendor = (const char *)glGetString(GL_VENDOR);
    printf("vendor %s\n", vendor ? vendor : "(null)");
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, swa.colormap);
    XFree(vis);
    XFree(configs);
    glmux_test_require_ours("libGLX.so.0");
    XCloseDisplay(dpy);
    return 0;
}
