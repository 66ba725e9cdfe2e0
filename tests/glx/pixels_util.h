/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: what the pixels-vendor test programs (test_glx_pixels*.c) share: the display
 * named by PIXELS_DISPLAY, the libraries loaded, windows of a visual, clearing to a color,
 * reading a pixel back from the X server, the X errors that reached the application, and the
 * glmux log (GLMUX_DEBUG_FILE).
 */
#ifndef GLMUX_TEST_PIXELS_UTIL_H
#define GLMUX_TEST_PIXELS_UTIL_H

#include <stdbool.h>
#include <sys/types.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <GL/gl.h>
#include <GL/glx.h>

#include "glmux_test.h"

/* GLX_ARB_create_context(_profile), for headers without them. */
#ifndef GLX_CONTEXT_MAJOR_VERSION_ARB
#define GLX_CONTEXT_MAJOR_VERSION_ARB 0x2091
#define GLX_CONTEXT_MINOR_VERSION_ARB 0x2092
#define GLX_CONTEXT_PROFILE_MASK_ARB 0x9126
#define GLX_CONTEXT_CORE_PROFILE_BIT_ARB 0x0001
#endif

#define RED 0xff0000ul
#define GREEN 0x00ff00ul
#define BLUE 0x0000fful
#define YELLOW 0xffff00ul
#define MAGENTA 0xff00fful
#define CYAN 0x00fffful

/* The X errors that reached the application's handler (pixels_count_errors). */
extern int pixels_app_errors;
extern int pixels_last_error, pixels_last_minor;
extern XID pixels_last_resource;

/* Opens PIXELS_DISPLAY (set by run_glx_pixels.sh). */
Display *pixels_open_display(void);
/* An X error handler that counts and records the errors (pixels_app_errors...). */
int pixels_count_errors(Display *dpy, XErrorEvent *ev);
/* A double-buffered config of dpy's default screen for windows and pixmaps, and its visual
 * (*vis, XFree it). */
GLXFBConfig pixels_pick_config(Display *dpy, XVisualInfo **vis);
/* A mapped window of vis on its screen. */
Window pixels_make_window(Display *dpy, const XVisualInfo *vis, int x, int y, int w, int h);
/* glClear of the whole draw buffer to rgb (0xRRGGBB), scissor off. */
void pixels_clear(unsigned long rgb);
/* The server's pixel at (x, y) of d, top-left origin, red-green-blue bits only. */
unsigned long pixels_pixel(Display *dpy, Drawable d, int x, int y);
/* How many pixels of win's top-left w x h are not rgb (one XGetImage of that area). */
long pixels_wrong_pixels(Display *dpy, Window win, int w, int h, unsigned long rgb);
/* Fails the test unless the libGLX loaded is ours, or the one PIXELS_LIBGLX names (Debian's
 * libglvnd), and the pixels vendor loaded is the build tree's (call it once the vendor is). */
void pixels_check_libraries(void);
/* Fails the test unless the glmux log says needle. */
void pixels_check_log(const char *needle);
/* The glmux log as it is now (a static buffer, up to 1 MiB). */
const char *pixels_log_text(void);
/* Whether the glmux log says needle. */
bool pixels_log_has(const char *needle);
/* How many SysV shared memory segments process pid made (/proc/sysvipc/shm's cpid, what
 * ipcs -m -p reads). */
int pixels_segments_of(pid_t pid);

#define CHECK_PIXEL(dpy, d, x, y, want)                                                    \
    do {                                                                                   \
        unsigned long got_ = pixels_pixel((dpy), (d), (x), (y));                           \
        CHECK_MSG(got_ == (want), "pixel (%d,%d) of 0x%lx is %06lx, want %06lx", (x), (y),  \
                  (unsigned long)(d), got_, (unsigned long)(want));                        \
    } while (0)

#endif /* GLMUX_TEST_PIXELS_UTIL_H */
