/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's registration with libGLdispatch (winsys.h): load, unload and fork run the
 * lifecycle steps each module of libGLX declares in its own file (util/lifecycle.h, orders in
 * glx_lock.h); nothing here knows the modules.
 *
 * Load takes a reference on libGLdispatch (after checking its ABI version) and registers with
 * it. Unload releases this thread's context, hands the records of other threads that still
 * have a context current to libGLdispatch and runs every teardown step in the reverse of the
 * steps' order (glx_lock.h: procaddr answers, displays, maps, entry stubs, indices, vendors,
 * selector; each frees only its own module's state, so this is not the floor order of
 * docs/glx.md), then drops the reference. Before fork() libGLdispatch calls fork_prepare (every module's
 * locks, in the lock order); in the child after_fork releases them (or makes them anew where
 * fork_prepare did not run), runs the child steps, and libGLdispatch then drops every record
 * of the parent with its context reference; vendors and mappings stay. libglvnd compares
 * getpid() on every call for this; a fork handler costs nothing per call.
 */
#include "glx/glx_lock.h"
#include "glx/glx_procaddr.h"
#include "glx/glx_thread.h"
#include "util/lifecycle.h"
#include "winsys/winsys.h"

static void drop_current(void)
{
    glmux_glx_map_acquire();
    glmux_glx_thread_drop_locked();
    glmux_glx_map_release();
}

/* What libGLX frees at unload (winsys.h runs the protocol around it): no other thread is
 * inside libGLX then, so each step takes only the lock its own state needs. */
static void teardown(void)
{
    glmux_lifecycle_run(GLMUX_LIFECYCLE_TEARDOWN);
}

/* Fork: util/lifecycle.h's handlers. The child's (after_fork) runs after libGLdispatch's own
 * reset and before libGLdispatch hands every record of the parent to glmux_glx_thread_destroyed
 * (which takes glmux_glx_map_lock). */
/* glmux_glx_own_proc: the bottom of every GLX chain of GL layers (glx_procaddr.h). */
GLMUX_WINSYS_LIBRARY(GLDISPATCH_API_GLX, "libGLX", glmux_lifecycle_fork_prepare,
                     glmux_lifecycle_fork_parent, glmux_lifecycle_fork_child,
                     glmux_glx_thread_destroyed, drop_current, teardown, glmux_glx_own_proc);
