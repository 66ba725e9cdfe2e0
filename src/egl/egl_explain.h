/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: libEGL's decision record for `glmux explain`, a private interface between
 * libEGL and the tool of the same build, as src/glx/glx_explain.h is libGLX's.
 * eglGetProcAddress(GLMUX_EGL_EXPLAIN_NAME) returns a glmux_egl_explain_fn instead of a
 * function of the API, so libEGL's export list stays exactly libglvnd's; the name carries the
 * version of the structures below. libglvnd's libEGL answers NULL for it (a name that starts
 * with neither "egl" nor "gl"). The function runs eglGetDisplay(EGL_DEFAULT_DISPLAY) itself,
 * libEGL's own code (platform.c: the vendors of the display's order asked in turn, the first
 * that returns a display owns it), and writes down each vendor asked and what it answered. The
 * record is plain data, so that the tool's child process can hand it back through a pipe.
 */
#ifndef GLMUX_EGL_EXPLAIN_H
#define GLMUX_EGL_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>

#define GLMUX_EGL_EXPLAIN_NAME "__glmux_egl_explain_1"
#define GLMUX_EGL_EXPLAIN_TRIES 16

enum glmux_egl_explain_result {
    GLMUX_EGL_EXPLAIN_OWNS,       /* it returned the display: the display's vendor */
    GLMUX_EGL_EXPLAIN_NO_DISPLAY, /* it returned EGL_NO_DISPLAY (error: its eglGetError) */
    GLMUX_EGL_EXPLAIN_TAKEN,      /* it returned a display another vendor owns already */
};

struct glmux_egl_explain_try {
    int32_t result;               /* enum glmux_egl_explain_result */
    int32_t error;                /* NO_DISPLAY: the vendor's eglGetError(), else 0 */
    char library[256];            /* the vendor library, as libEGL loaded it */
};

/* The default display (eglGetDisplay(EGL_DEFAULT_DISPLAY)), as libEGL decided it. */
struct glmux_egl_explain_display {
    bool has_vendors;             /* libEGL loaded at least one vendor */
    char library[256];            /* the vendor library that owns it; "" when none */
    uint32_t n_tries;
    struct glmux_egl_explain_try tries[GLMUX_EGL_EXPLAIN_TRIES];
};

/* Decides the default display as eglGetDisplay(EGL_DEFAULT_DISPLAY) does, writing the record
 * to out; call it in a process that made no EGL call yet. */
typedef bool (*glmux_egl_explain_fn)(struct glmux_egl_explain_display *out);

#endif /* GLMUX_EGL_EXPLAIN_H */
