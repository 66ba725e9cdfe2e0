/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: what an application that never heard of GPUs does with GLX (glx_test_x.h):
 * a context of the screen's first window-capable FBConfig made current on a small window, and
 * the vendor its GL_VENDOR names. In an object of its own, so that only the tests that call it
 * need libGLX and libOpenGL.
 */
#include <stdio.h>
#include <string.h>

#include <GL/gl.h>
#include <GL/glx.h>

#include "glmux_test.h"
#include "glx_test_x.h"

bool glx_test_screen_vendor(Display *dpy, int screen, char *vendor, size_t size)
{
    static const int attribs[] = { GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, None };
    XSetWindowAttributes swa = { 0 };
    GLXFBConfig *configs;
    XVisualInfo *vis;
    GLXContext ctx;
    Window win, root = RootWindow(dpy, screen);
    const char *name;
    int n = 0;

    configs = glXChooseFBConfig(dpy, screen, attribs, &n);
    if (configs == NULL || n == 0)
        return false;
    vis = glXGetVisualFromFBConfig(dpy, configs[0]);
    CHECK(vis != NULL);
    swa.colormap = XCreateColormap(dpy, root, vis->visual, AllocNone);
    win = XCreateWindow(dpy, root, 0, 0, 16, 16, 0, vis->depth, InputOutput, vis->visual,
                        CWColormap, &swa);
    ctx = glXCreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx != NULL);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    name = (const char *)glGetString(GL_VENDOR);
    snprintf(vendor, size, "%s", name ? name : "(null)");
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, swa.colormap);
    XFree(vis);
    XFree(configs);
    return true;
}
