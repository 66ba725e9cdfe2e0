/* SPDX-License-Identifier: MIT */
/*
 * glmux's re-entry guard library (src/dispatch/layer_guard.h): its wrapper tables, one per API,
 * generated at build time by gen_call_counter.py --kind guard from the Khronos registry (the
 * commands, sorted by name, a "top" and a "bottom" wrapper each and the next pointer each one
 * calls), and the three calls the wrappers make into guard.c. The calling thread's place is one
 * value per thread: how deep it is in guarded chains (low 16 bits) and which function the
 * outermost one is (the bits above: API and index).
 */
#ifndef GLMUX_LAYER_GUARD_H
#define GLMUX_LAYER_GUARD_H

#include <stdatomic.h>
#include <stdint.h>

enum {
    GLMUX_GUARD_API_GL = 0,
    GLMUX_GUARD_API_GLX = 1,
    GLMUX_GUARD_API_EGL = 2,
    GLMUX_GUARD_APIS
};

struct glmux_guard_table {
    const char *api;                    /* "gl", "glx" or "egl" */
    unsigned api_index;                 /* GLMUX_GUARD_API_* */
    unsigned count;                     /* commands in the table (below 2^14) */
    const char *const *names;           /* sorted by strcmp */
    void *const *top, *const *bottom;   /* each command's wrappers */
    _Atomic(void *) *next_top, *next_bottom;
};

extern const struct glmux_guard_table glmux_guard_gl, glmux_guard_glx, glmux_guard_egl;

/* Top wrapper: the thread enters the chain of command `index` of API `api` (a re-entry when it
 * is inside one already: reported). Returns the value glmux_guard_restore puts back. */
uintptr_t glmux_guard_enter(unsigned api, unsigned index);
/* Bottom wrapper: the thread leaves the chain while the vendor runs (depth 0). */
uintptr_t glmux_guard_suspend(void);
void glmux_guard_restore(uintptr_t saved);

#endif /* GLMUX_LAYER_GUARD_H */
