/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the library itself, as libGLdispatch and the winsys layer see it: its fork
 * handlers, which libGLdispatch calls (libGLX's first, then libEGL's, then its own lock) and
 * which run every lifecycle step of libEGL (util/lifecycle.h: each module declares its own),
 * what libGLdispatch calls for a thread record of libEGL, and its unload
 * (docs/architecture.md: lifetime protocol). No other file of libEGL uses it.
 */
#define _GNU_SOURCE
#include "current.h"
#include "procaddr.h"
#include "util/lifecycle.h"
#include "winsys/winsys.h"

/* Every lock of libEGL is held from fork_prepare to fork_parent or the child's after_fork:
 * a second forking thread waits in fork_prepare. A library that did not load (or is being
 * unloaded) takes none (util/lifecycle.h's fork handlers do the rest). */
static void fork_prepare(void)
{
    if (glmux_winsys_usable())
        glmux_lifecycle_fork_prepare();
}

/*
 * In a forked child, called by libGLdispatch after its own reset and before it hands the
 * parent's records to glmux_egl_current_destroyed. Only this thread survives: its context
 * belonged to the parent's vendor state and is forgotten, as in libglvnd. Vendors, display
 * and device maps and the winsys names stay; every lock fork_prepare took is released (made
 * anew if it did not run), then each module drops what other threads left.
 */
static void after_fork(void)
{
    if (glmux_winsys_usable())
        glmux_lifecycle_fork_child();
}

/* What libEGL frees at unload (winsys.h runs the protocol around it). */
static void teardown(void)
{
    glmux_lifecycle_run(GLMUX_LIFECYCLE_TEARDOWN);
}

/* glmux_egl_own_proc: the bottom of every EGL chain of GL layers (procaddr.h). */
GLMUX_WINSYS_LIBRARY(GLDISPATCH_API_EGL, "libEGL", fork_prepare, glmux_lifecycle_fork_parent,
                     after_fork, glmux_egl_current_destroyed, glmux_egl_current_drop, teardown,
                     glmux_egl_own_proc);
