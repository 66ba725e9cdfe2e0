/* SPDX-License-Identifier: MIT */
/*
 * glmux GLX tests: the program test_glx_select.py runs under each umockdev test bed, on the
 * fixture's Xvfb. Like an application that never heard of GPUs, it makes a context of screen 0
 * current with glXMakeCurrent and prints which vendor serves it ("vendor NAME", from the
 * context's GL_VENDOR); the fake vendors themselves record what they saw (FAKE_GLX_RECORD).
 */
#include <stdio.h>

#include <X11/Xlib.h>

#include "glmux_test.h"
#include "glx_test_x.h"

int main(void)
{
    Display *dpy = glx_test_open("two");
    char vendor[64];

    if (glx_test_screen_vendor(dpy, 0, vendor, sizeof(vendor)))
        printf("vendor %s\n", vendor);
    else
        printf("vendor (none)\n");
    glmux_test_require_ours("libGLX.so.0");
    XCloseDisplay(dpy);
    return 0;
}
