/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: real Mesa (Debian's libGLX_mesa.so.0, llvmpipe) under Xvfb through our
 * libraries. Picks an FBConfig, renders into a window (a green clear, a red scissored
 * quadrant), reads the pixels back and checks them. Built twice: linked with libGL.so.1
 * (GLMUX_TEST_LIBGL) and with libGLX + libOpenGL. The vendor comes from the server's
 * GLX_EXT_libglvnd list, so no override is set.
 */
#include <string.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <GL/gl.h>
#include <GL/glx.h>

#include "glmux_test.h"
#include "glx_test_x.h"

#define SIZE 64

int main(void)
{
    static const int attribs[] = {
        GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
        GLX_DOUBLEBUFFER, True, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None
    };
    Display *dpy = glx_test_open("two");
    GLXFBConfig *configs;
    XVisualInfo *vis;
    XSetWindowAttributes swa;
    Window win;
    GLXContext ctx;
    unsigned char px[SIZE * SIZE * 4];
    const char *renderer;
    int n = 0;

#ifdef GLMUX_TEST_LIBGL
    glmux_test_require_ours("libGL.so.1");
#else
    glmux_test_require_ours("libOpenGL.so.0");
#endif
    glmux_test_require_ours("libGLX.so.0");
    glmux_test_require_ours("libGLdispatch.so.0");

    configs = glXChooseFBConfig(dpy, 0, attribs, &n);
    CHECK_MSG(configs != NULL && n > 0, "no FBConfig from Mesa");
    glmux_test_require_ours("libGLX.so.0");
    CHECK_MSG(glmux_test_loaded_path("libGLX_mesa.so.0") != NULL, "Mesa's vendor is not loaded");
    vis = glXGetVisualFromFBConfig(dpy, configs[0]);
    CHECK(vis != NULL);
    memset(&swa, 0, sizeof(swa));
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, 0), vis->visual, AllocNone);
    win = XCreateWindow(dpy, RootWindow(dpy, 0), 0, 0, SIZE, SIZE, 0, vis->depth, InputOutput,
                        vis->visual, CWColormap | CWBorderPixel, &swa);
    XMapWindow(dpy, win);
    ctx = glXCreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx != NULL);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    renderer = (const char *)glGetString(GL_RENDERER);
    CHECK_MSG(renderer != NULL && strstr(renderer, "llvmpipe") != NULL, "renderer %s",
              renderer ? renderer : "(null)");
    fprintf(stderr, "GL_RENDERER %s, GL_VERSION %s\n", renderer, glGetString(GL_VERSION));

    glViewport(0, 0, SIZE, SIZE);
    glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, SIZE / 2, SIZE / 2);
    glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glFinish();
    glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(glGetError() == GL_NO_ERROR);
    {
        const unsigned char *red = px;                                   /* (0, 0) */
        const unsigned char *green = px + ((SIZE - 1) * SIZE + SIZE - 1) * 4; /* top right */

        CHECK_MSG(red[0] == 255 && red[1] == 0 && red[2] == 0, "corner %d,%d,%d", red[0],
                  red[1], red[2]);
        CHECK_MSG(green[0] == 0 && green[1] == 255 && green[2] == 0, "corner %d,%d,%d",
                  green[0], green[1], green[2]);
    }
    glXSwapBuffers(dpy, win);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFree(vis);
    XFree(configs);
    XCloseDisplay(dpy);
    return 0;
}
