/* SPDX-License-Identifier: MIT */
/*
 * glmux: when libGLX gives an X screen the pixels vendor (libGLX_glmux-pixels.so.0, which
 * renders here with EGL and ships each frame as an image; docs/remote.md, "When it is used").
 * One rule, and one plan per X screen that holds it (glmux_select_glx_screen_plan), followed by
 * libGLX (glx_display.c) and shown by `glmux explain` (explain.c), screen by screen.
 */
#ifndef GLMUX_SELECT_PIXELS_RULE_H
#define GLMUX_SELECT_PIXELS_RULE_H

#include <stdbool.h>
#include <stddef.h>

#include "select/select.h"

/* The pixels vendor's name: libGLX loads it as libGLX_glmux-pixels.so.0, like any vendor. */
#define GLMUX_PIXELS_VENDOR_NAME "glmux-pixels"

enum glmux_pixels_when {
    GLMUX_PIXELS_NEVER,     /* not tried for this screen (it may still be named by a variable) */
    GLMUX_PIXELS_FIRST,     /* tried before the X server's vendors */
    GLMUX_PIXELS_FALLBACK,  /* tried when none of the X server's vendors loads or accepts the
                               screen, before "indirect" */
};

/* What GLMUX_GLX_REMOTE asks: auto (unset, empty, "auto"), pixels, off ("0", "never"). */
enum glmux_pixels_mode { GLMUX_PIXELS_AUTO, GLMUX_PIXELS_FORCE, GLMUX_PIXELS_OFF };

/* GLMUX_GLX_REMOTE; another value warns once and means auto. */
enum glmux_pixels_mode glmux_select_pixels_mode(void);

/*
 * True when the X connection on socket fd is not a Unix-domain one (TCP, also to 127.0.0.1 or
 * localhost, as with ssh -X): the server may be another machine's, and a direct-rendering
 * vendor cannot share buffers with it. *how says what it is.
 */
bool glmux_select_x11_remote(int fd, const char **how);

/*
 * The rule for one X screen. plan is the screen's glmux_select_glx_plan (its libglvnd
 * overrides), has_glx whether the server has the GLX extension, fd the connection's socket.
 * In order:
 *   - __GLX_FORCE_VENDOR_LIBRARY_<n> or __GLX_VENDOR_LIBRARY_NAME names a vendor: NEVER (the
 *     plan loads what it names, "glmux-pixels" included);
 *   - LIBGL_ALWAYS_INDIRECT (Mesa's boolean: 1, true, y, yes) asks the server to render: NEVER;
 *   - GLMUX_GLX_REMOTE=off: NEVER; =pixels: FIRST;
 *   - no GLX extension on the server: FIRST;
 *   - a connection that is not local: FIRST when this machine has a GPU to render on (the GPU
 *     selector's chosen GPU, with a render node; not with LIBGL_ALWAYS_SOFTWARE), which the
 *     server's vendor cannot use over the connection; otherwise FALLBACK: Mesa's own GLX
 *     renders directly with llvmpipe on such a display, faster and with more configs than the
 *     pixels vendor on llvmpipe, so a working path is never replaced by a narrower one;
 *   - otherwise FALLBACK.
 * why gets one line for GLMUX_DEBUG=vendor and `glmux explain`. Enumerates GPUs (sel) only
 * for a remote connection to a server with GLX, in auto mode.
 */
enum glmux_pixels_when glmux_select_pixels_rule(struct glmux_select *sel,
                                                const struct glmux_glx_step *plan, size_t n,
                                                bool has_glx, int fd, char *why,
                                                size_t why_size);

/*
 * One X screen's whole plan, as libGLX follows it (glx_display.c) and `glmux explain` shows it,
 * screen by screen: the steps of glmux_select_glx_plan (__GLX_FORCE_VENDOR_LIBRARY_<screen>,
 * __GLX_VENDOR_LIBRARY_NAME, the selector's vendor, the X server's list, "indirect", "system")
 * with the pixels vendor in the place glmux_select_pixels_rule gives it for this screen: a step
 * of its own after libglvnd's variables (FIRST), or the SERVER step's fallback (FALLBACK).
 * Step names and whys are valid as long as out, sel and the environment.
 */
#define GLMUX_GLX_SCREEN_STEPS (GLMUX_GLX_PLAN_MAX + 1)
struct glmux_glx_screen_plan {
    struct glmux_glx_step steps[GLMUX_GLX_SCREEN_STEPS];
    size_t n;
    enum glmux_pixels_when pixels;
    char pixels_why[320];
};
void glmux_select_glx_screen_plan(struct glmux_select *sel, void *dpy, int screen,
                                  const struct glmux_vendor_list *vendors, bool has_glx, int fd,
                                  struct glmux_glx_screen_plan *out);

#endif /* GLMUX_SELECT_PIXELS_RULE_H */
