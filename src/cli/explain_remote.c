/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the part of `glmux explain` that says whether libGLX would give $DISPLAY's first
 * screen the pixels vendor (libGLX_glmux-pixels.so.0, docs/remote.md) and why: the facts the
 * rule needs (does the server have GLX, is the connection local) are asked of the server, and
 * the rule is libGLX's own, glmux_select_pixels_rule (src/select/pixels_rule.h). The display is
 * opened through x11.c (libX11 is loaded with dlopen, only when DISPLAY is set).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <stdio.h>

#include "select/pixels_rule.h"

enum glmux_pixels_when glmux_cli_explain_remote(struct glmux_select *sel,
                                                const struct glmux_vendor_list *vl, char *why,
                                                size_t why_size)
{
    typedef int (*query_fn)(void *, const char *, int *, int *, int *);
    typedef int (*fd_fn)(void *);
    struct glmux_glx_step plan[GLMUX_GLX_PLAN_MAX];
    void *dpy = glmux_cli_x11_open();
    size_t n = glmux_select_glx_plan(sel, dpy, 0, vl, plan);
    query_fn xquery = (query_fn)glmux_cli_x11_sym("XQueryExtension");
    fd_fn xfd = (fd_fn)glmux_cli_x11_sym("XConnectionNumber");
    enum glmux_pixels_when when = GLMUX_PIXELS_NEVER;
    int op, ev, er;

    if (dpy != NULL && xquery != NULL && xfd != NULL)
        when = glmux_select_pixels_rule(sel, plan, n, xquery(dpy, "GLX", &op, &ev, &er) != 0,
                                        xfd(dpy), why, why_size);
    else
        snprintf(why, why_size, "DISPLAY not reachable");
    glmux_cli_x11_close(dpy);
    return when;
}
