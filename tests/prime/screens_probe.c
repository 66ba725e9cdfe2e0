/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: a GLX program that asks libGLX for the vendor of every screen of DISPLAY, for
 * the per-screen test of `glmux explain` (run_screens.py). For each screen it calls
 * glXQueryServerString(GLX_VENDOR), which makes libGLX choose and load that screen's vendor,
 * and prints "screen N STRING"; GLMUX_DEBUG=vendor logs which vendor libGLX loaded for it.
 * Last it checks that libGLX.so.0 is glmux's.
 */
#include <stdio.h>

#include <GL/glx.h>
#include <X11/Xlib.h>

#include "glmux_test.h"

int main(void)
{
    Display *dpy = XOpenDisplay(NULL);

    CHECK_MSG(dpy != NULL, "cannot open DISPLAY");
    for (int s = 0; s < ScreenCount(dpy); s++) {
        const char *v = glXQueryServerString(dpy, s, GLX_VENDOR);

        printf("screen %d %s\n", s, v != NULL ? v : "(none)");
    }
    fflush(stdout);
    XCloseDisplay(dpy);
    glmux_test_require_ours("libGLX.so.0");
    return 0;
}
