/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's load, unload and fork handling, and its one lock.
 *
 * Load takes a reference on libGLdispatch (after checking its ABI version) and registers with
 * it (winsys.h). Unload releases this thread's context, hands the records of other threads
 * that still have a context current to libGLdispatch, forgets every display, context and name,
 * unpatches and closes every vendor, and drops the reference. After fork() libGLdispatch's
 * child handler calls after_fork (the lock is made anew) and then drops every record of the
 * parent with its context reference; vendors and mappings stay. libglvnd compares getpid()
 * on every call for this; a fork handler costs nothing per call.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "glx/glx_internal.h"
#include "select/select.h"
#include "util/log.h"

pthread_mutex_t glmux_glx_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

void glmux_glx_lock_acquire(void)
{
    pthread_mutex_lock(&glmux_glx_lock);
}

void glmux_glx_lock_release(void)
{
    pthread_mutex_unlock(&glmux_glx_lock);
}

void glmux_glx_entry(void)
{
    __glDispatchCheckMultithreaded();
}

/*
 * In a forked child, called by libGLdispatch after its own reset and before it hands every
 * record of the parent to glmux_glx_current_destroyed (which takes this lock).
 */
static void after_fork(void)
{
    pthread_mutexattr_t attr;

    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&glmux_glx_lock, &attr);
    pthread_mutexattr_destroy(&attr);
    glmux_select_after_fork();
}

static void drop_current(void)
{
    glmux_glx_lock_acquire();
    glmux_glx_current_drop();
    glmux_glx_lock_release();
}

/* What libGLX frees at unload (winsys.h runs the protocol around it). */
static void teardown(void)
{
    glmux_glx_lock_acquire();
    glmux_glx_display_fini();
    glmux_glx_mapping_fini();
    glmux_glx_procaddr_fini();
    glmux_glx_entry_fini();
    glmux_glx_vendor_unload_all();
    glmux_glx_selector_fini();
    glmux_glx_lock_release();
}

GLMUX_WINSYS_LIBRARY(GLDISPATCH_API_GLX, "libGLX", after_fork, glmux_glx_current_destroyed,
                     drop_current, teardown);
