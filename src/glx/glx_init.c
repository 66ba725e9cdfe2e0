/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's load, unload and fork handling.
 *
 * Load takes a reference on libGLdispatch (after checking its ABI version) and registers with
 * it (winsys.h). Unload releases this thread's context, hands the records of other threads
 * that still have a context current to libGLdispatch, forgets every display, context and name,
 * unpatches and closes every vendor, and drops the reference. Before fork() libGLdispatch
 * calls fork_prepare (libGLX's locks are taken, glx_lock.c); in the child after_fork releases
 * them and libGLdispatch then drops every record of the parent with its context reference;
 * vendors and mappings stay. libglvnd compares getpid() on every call for this; a fork
 * handler costs nothing per call.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "glx/glx_internal.h"
#include "select/select.h"
#include "util/log.h"

static bool prepared;   /* fork_prepare ran for this fork (not so for a library loaded meanwhile) */

/* Before fork(): libGLX's locks (glx_lock.c), then the selector's lock. */
static void fork_prepare(void)
{
    glmux_glx_lock_fork(GLMUX_FORK_PREPARE);
    glmux_select_fork(GLMUX_FORK_PREPARE);
    prepared = true;
}

static void fork_parent(void)
{
    if (!prepared)
        return;
    prepared = false;
    glmux_select_fork(GLMUX_FORK_PARENT);
    glmux_glx_lock_fork(GLMUX_FORK_PARENT);
}

/*
 * In a forked child, called by libGLdispatch after its own reset and before it hands every
 * record of the parent to glmux_glx_current_destroyed (which takes glmux_glx_map_lock).
 */
static void after_fork(void)
{
    enum glmux_fork_step step = prepared ? GLMUX_FORK_CHILD : GLMUX_FORK_CHILD_ANEW;

    prepared = false;
    glmux_select_fork(step);
    glmux_glx_lock_fork(step);
    glmux_glx_current_after_fork();
}

static void drop_current(void)
{
    glmux_glx_map_acquire();
    glmux_glx_current_drop();
    glmux_glx_map_release();
}

/* What libGLX frees at unload (winsys.h runs the protocol around it). */
static void teardown(void)
{
    glmux_glx_display_fini();      /* takes the map lock, unhooks Xlib with none held */
    glmux_glx_lock_acquire();
    glmux_glx_map_acquire();
    glmux_glx_mapping_fini();
    glmux_glx_map_release();
    glmux_glx_procaddr_fini();
    glmux_glx_entry_fini();
    glmux_glx_vendor_unload_all();
    glmux_glx_selector_fini();
    glmux_glx_lock_release();
}

GLMUX_WINSYS_LIBRARY(GLDISPATCH_API_GLX, "libGLX", fork_prepare, fork_parent, after_fork,
                     glmux_glx_current_destroyed,
                     drop_current, teardown);
