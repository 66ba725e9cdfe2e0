/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: connecting to the fixture's Xvfb servers and recording X errors. The fixture
 * writes the display name to $GLMUX_TEST_XVFB_DIR/<which>.display ("none": skip).
 */
#include <stdio.h>
#include <string.h>

#include "glmux_test.h"
#include "glx_test_x.h"

static XErrorEvent last_error;
static int error_count;

Display *glx_test_open(const char *which)
{
    char name[64];
    Display *dpy;

    if (!glmux_test_xvfb_display(which, name, sizeof(name)))
        SKIP("GLMUX_TEST_XVFB_DIR is not set (run through ctest)");
    dpy = XOpenDisplay(name);
    CHECK_MSG(dpy != NULL, "cannot open display %s", name);
    return dpy;
}

static int record(Display *dpy, XErrorEvent *ev)
{
    (void)dpy;
    last_error = *ev;
    error_count++;
    return 0;
}

void glx_test_catch_errors(void)
{
    XSetErrorHandler(record);
}

XErrorEvent glx_test_last_error(Display *dpy)
{
    XErrorEvent ev;

    XSync(dpy, False);
    ev = last_error;
    memset(&last_error, 0, sizeof(last_error));
    return ev;
}

int glx_test_error_count(Display *dpy)
{
    int n;

    XSync(dpy, False);
    n = error_count;
    error_count = 0;
    return n;
}
