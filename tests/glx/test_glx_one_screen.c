/* SPDX-License-Identifier: MIT */
/*
 * glmux GLX test: drawables libGLX did not create, on the fixture's one-screen server with GLX
 * and Debian's Mesa as the server's vendor. glXSwapBuffers on a plain X
 * pixmap, which is no GLX drawable, must raise GLXBadDrawable from libGLX (GLX 1.4 §3.3.10),
 * as on a multi-screen display; before, libGLX handed it to Mesa, whose request failed with
 * BadMatch. A plain X window still reaches the vendor: no GLXBadDrawable.
 */
#include <string.h>

#include <X11/Xlib.h>
#include <GL/glx.h>
#include <X11/Xproto.h>
#include <GL/glxproto.h>

#include "glmux_test.h"
#include "glx_test_x.h"

int main(void)
{
    Display *dpy = glx_test_open("one");
    int opcode, event_base, error_base;
    XErrorEvent ev;
    Pixmap pixmap;
    Window win;

    glmux_test_require_ours("libGLX.so.0");
    CHECK(ScreenCount(dpy) == 1);
    CHECK(XQueryExtension(dpy, "GLX", &opcode, &event_base, &error_base));
    glx_test_catch_errors();

    pixmap = XCreatePixmap(dpy, DefaultRootWindow(dpy), 8, 8, DefaultDepth(dpy, 0));
    XSync(dpy, False);
    glXSwapBuffers(dpy, pixmap);
    ev = glx_test_last_error(dpy);
    CHECK_MSG(ev.error_code == error_base + GLXBadDrawable && ev.request_code == opcode &&
              ev.minor_code == X_GLXSwapBuffers && ev.resourceid == pixmap,
              "plain pixmap: error %d (GLXBadDrawable is %d), request %d.%d",
              ev.error_code, error_base + GLXBadDrawable, ev.request_code, ev.minor_code);
    /* Asked again: the same answer (failures are not cached as a vendor). */
    glXSwapBuffers(dpy, pixmap);
    ev = glx_test_last_error(dpy);
    CHECK(ev.error_code == error_base + GLXBadDrawable);

    win = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, 8, 8, 0, 0, 0);
    XSync(dpy, False);
    glXSwapBuffers(dpy, win);
    ev = glx_test_last_error(dpy);
    CHECK_MSG(ev.error_code != error_base + GLXBadDrawable,
              "a plain window is a valid drawable for glXSwapBuffers");

    XDestroyWindow(dpy, win);
    XFreePixmap(dpy, pixmap);
    XCloseDisplay(dpy);
    return 0;
}
