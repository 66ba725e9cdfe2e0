/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's decision record for `glmux explain`, a private interface between libGLX and
 * the tool of the same build. glXGetProcAddress(GLMUX_GLX_EXPLAIN_NAME) returns a
 * glmux_glx_explain_fn instead of a GL or GLX function, so libGLX's export list stays exactly
 * libglvnd's (the same way as libGLdispatch's __glmux_dispatch_winsys_4 and libEGL's
 * __glmux_egl_vendors_1); the name carries the version of the structures below and changes
 * with them. libglvnd's libGLX answers NULL for it. The function decides one screen's vendor by
 * libGLX's own walk (glx_screen.c: the plan, the X server's names behind libGLX's own
 * GLX_EXT_libglvnd gate, each vendor loaded and asked isScreenSupported) and writes down every
 * step it took and why. The record is plain data (no pointers), so the tool's child process
 * that runs the walk can hand it back through a pipe (docs/architecture.md, "How explain
 * asks the libraries"). No X11 header is needed: the display is a void pointer.
 */
#ifndef GLMUX_GLX_EXPLAIN_H
#define GLMUX_GLX_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GLMUX_GLX_EXPLAIN_NAME "__glmux_glx_explain_1"

#define GLMUX_GLX_EXPLAIN_TRIES 16   /* vendors tried, at most (the rest are not recorded) */
#define GLMUX_GLX_EXPLAIN_PLAN 8     /* GLMUX_GLX_SCREEN_STEPS, at least */

/* What became of one vendor libGLX tried for the screen. */
enum glmux_glx_explain_result {
    GLMUX_GLX_EXPLAIN_SERVES,     /* it loaded and accepts the screen: the screen's vendor */
    GLMUX_GLX_EXPLAIN_NOT_LOADED, /* its library is missing, is no vendor, or __glx_Main refused */
    GLMUX_GLX_EXPLAIN_DECLINED,   /* it loaded, but its isScreenSupported said no */
    GLMUX_GLX_EXPLAIN_NOT_TAKEN,  /* the caller's may_load said no: not loaded, the walk stops */
};

struct glmux_glx_explain_try {
    int32_t result;               /* enum glmux_glx_explain_result */
    char vendor[64];
    char step[160];               /* the step that named it (a variable, the X server, ...) */
    char detail[384];             /* why it did not serve (the loader's words, may_load's) */
};

/* One screen, as libGLX decided it. */
struct glmux_glx_explain_screen {
    int32_t screen;
    bool decided;                 /* false: a step was not taken (see the last try) */
    char vendor[64];              /* the vendor; "" when none serves (or undecided) */
    char from[160];               /* the step that named it */
    /* The plan (glmux_select_glx_screen_plan, as libGLX got it): a vendor name, or "" for
     * the X server's list; and whether a libglvnd variable named the first step. */
    uint32_t n_plan;
    char plan[GLMUX_GLX_EXPLAIN_PLAN][64];
    bool override;
    int32_t pixels_when;          /* enum glmux_pixels_when */
    char pixels_why[320];
    /* The X server's list: asked (every screen has GLX_EXT_libglvnd) and what it said; or the
     * walk reached that step and libGLX's gate skipped it (not every screen has the extension). */
    bool has_glx;
    bool server_asked;
    bool server_skipped;
    char server_names[256];
    uint32_t n_tries;
    struct glmux_glx_explain_try tries[GLMUX_GLX_EXPLAIN_TRIES];
    /* The reasons libGLX's selector gave while deciding this screen (GLMUX_DEBUG=select's
     * lines), one per line, those given for an earlier screen not again; cut when full. */
    char reasons[4096];
};

struct glmux_glx_explain_request {
    uint32_t size;                /* sizeof(struct glmux_glx_explain_request) */
    /*
     * Asked before libGLX loads a vendor that is not loaded yet (NULL: load every one). False
     * leaves the step untaken (why written to why) and stops the walk there: the screen is
     * then undecided, for the step's outcome would decide it.
     */
    bool (*may_load)(const char *vendor, char *why, size_t why_size, void *arg);
    void *arg;
};

/*
 * Decides screen of dpy (an Xlib Display * of the caller's) as libGLX does for a program,
 * writing the record to out; false when dpy has no such screen or libGLX is unusable. The
 * decision is not cached: call it once per screen, in a process that made no GLX call yet.
 */
typedef bool (*glmux_glx_explain_fn)(void *dpy, int screen,
                                     const struct glmux_glx_explain_request *req,
                                     struct glmux_glx_explain_screen *out);

#endif /* GLMUX_GLX_EXPLAIN_H */
