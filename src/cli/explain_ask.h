/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: what libGLX and libEGL themselves decide, asked in child processes
 * (explain_ask.c) for `glmux explain`: libGLX each screen of DISPLAY, libEGL the default
 * display.
 */
#ifndef GLMUX_CLI_EXPLAIN_ASK_H
#define GLMUX_CLI_EXPLAIN_ASK_H

#include <stdbool.h>

#include "egl/egl_explain.h"
#include "glx/glx_explain.h"

struct glmux_select;
struct glmux_vendor_list;

enum glmux_cli_glx_state {
    GLMUX_CLI_GLX_NO_DISPLAY,   /* DISPLAY unset or not reachable: no screen (why) */
    GLMUX_CLI_GLX_NOT_ASKED,    /* libGLX cannot be asked (why): not loadable, not glmux's, ... */
    GLMUX_CLI_GLX_ASKED,        /* screens holds libGLX's record of each screen */
};

struct glmux_cli_glx_answer {
    enum glmux_cli_glx_state state;
    char why[512];
    char library[512];          /* the libGLX.so.0 asked ("" when none loaded) */
    int screens;                /* ASKED: the display's screens, else -1 */
    struct glmux_glx_explain_screen *screen;
};

/*
 * Opens DISPLAY in a child process that loads libGLX.so.0 (found as a program started here
 * would find it; in the build tree, the build's) and has libGLX decide every screen; reads the
 * records back. sel and glx_vl (the tool's) decide which vendors the child must not load: a
 * vendor whose library is installed and that drives a GPU that is runtime-suspended. False only
 * when out of memory.
 */
bool glmux_cli_glx_ask(struct glmux_select *sel, const struct glmux_vendor_list *glx_vl,
                       struct glmux_cli_glx_answer *out);
void glmux_cli_glx_answer_free(struct glmux_cli_glx_answer *a);

struct glmux_cli_egl_answer {
    bool asked;                 /* display holds libEGL's record */
    char why[512];              /* not asked: why */
    char library[512];          /* the libEGL.so.1 asked ("" when none loaded) */
    struct glmux_egl_explain_display display;
};

/*
 * Loads libEGL.so.1 in a child process (found as libGLX.so.0 is) and has it decide the default
 * display, as eglGetDisplay(EGL_DEFAULT_DISPLAY) does. libEGL loads every vendor at its first
 * call, so it is not asked when an EGL vendor of vl whose library is installed drives a GPU
 * that is runtime-suspended (why says which). False only when out of memory.
 */
bool glmux_cli_egl_ask(struct glmux_select *sel, const struct glmux_vendor_list *vl,
                       struct glmux_cli_egl_answer *out);

#endif
