/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: connecting to the Xvfb servers of the GLX test fixture (xvfb_fixture.sh), and
 * recording the X errors a test expects.
 */
#ifndef GLMUX_GLX_TEST_X_H
#define GLMUX_GLX_TEST_X_H

#include <stdbool.h>
#include <stddef.h>

#include <X11/Xlib.h>

/* Opens the fixture's server "two", "one" or "noglx"; skips the test when Xvfb is unavailable. */
Display *glx_test_open(const char *which);

/* Installs an X error handler that records the last error instead of exiting. */
void glx_test_catch_errors(void);
/* The last recorded error (error_code 0 when none) and clears it, after an XSync. */
XErrorEvent glx_test_last_error(Display *dpy);
/* How many errors were recorded since the last call (after an XSync), and resets the count. */
int glx_test_error_count(Display *dpy);

/*
 * Makes a context of the screen's first window-capable FBConfig current on a small window, as an
 * application does, copies its GL_VENDOR to vendor and destroys it all again (glx_test_current.c:
 * needs libGLX and libOpenGL). False when the screen offers no FBConfig.
 */
bool glx_test_screen_vendor(Display *dpy, int screen, char *vendor, size_t size);

#endif
