/* SPDX-License-Identifier: MIT */
/*
 * The call counter layer's tables: one per API (gl, glx, egl), generated at build time by
 * gen_call_counter.py from the Khronos registry, each holding the commands of that API sorted
 * by name, a typed counting wrapper per command, its counter and the `next` pointer glmux gave
 * for it. call_counter.c looks names up here and prints the counters.
 */
#ifndef GLMUX_CALL_COUNTER_H
#define GLMUX_CALL_COUNTER_H

#include <stdatomic.h>

struct glmux_cc_table {
    const char *api;                     /* "gl", "glx" or "egl" */
    unsigned count;                      /* commands in the table */
    const char *const *names;            /* sorted by strcmp */
    void *const *wrappers;               /* the counting wrapper of each command */
    _Atomic unsigned long long *counts;  /* calls so far */
    _Atomic(void *) *next;               /* what each wrapper calls (glmux's next) */
};

extern const struct glmux_cc_table glmux_cc_gl, glmux_cc_glx, glmux_cc_egl;

#endif
