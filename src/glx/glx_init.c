/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's load, unload and fork handling, and its one lock.
 *
 * Load takes a reference on libGLdispatch (after checking its ABI version). Unload releases
 * this thread's context, forgets every display, context and name, unpatches and closes every
 * vendor, and drops the reference. After fork() the child re-creates the lock, resets
 * libGLdispatch and forgets the per-thread states; vendors and mappings stay. libglvnd compares
 * getpid() on every call for this; a pthread_atfork child handler costs nothing per call.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "glx/glx_internal.h"
#include "util/log.h"

pthread_mutex_t glmux_glx_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static bool dispatch_ok;

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

static void after_fork_child(void)
{
    pthread_mutexattr_t attr;
    struct glmux_glx_thread *t = glmux_glx_current();

    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&glmux_glx_lock, &attr);
    pthread_mutexattr_destroy(&attr);
    __glDispatchReset();
    /* Only this thread survived; its record was released by the reset. */
    if (t != NULL) {
        glmux_glx_context_unref_locked(t->ctx);
        free(t);
    }
}

__attribute__((constructor)) static void glx_init(void)
{
    int abi = __glDispatchGetABIVersion();

    if (abi != GLDISPATCH_ABI_VERSION) {
        glmux_log(GLMUX_LOG_ERROR, "libGLdispatch.so.0 has private ABI version %d, libGLX "
                  "needs %d: a mix of glmux and another GLdispatch; GL calls will do nothing",
                  abi, GLDISPATCH_ABI_VERSION);
        return;
    }
    __glDispatchInit();
    dispatch_ok = true;
    pthread_atfork(NULL, NULL, after_fork_child);
}

__attribute__((destructor)) static void glx_fini(void)
{
    if (!dispatch_ok)
        return;
    glmux_glx_lock_acquire();
    glmux_glx_current_drop();
    glmux_glx_display_fini();
    glmux_glx_mapping_fini();
    glmux_glx_procaddr_fini();
    glmux_glx_entry_fini();
    glmux_glx_vendor_unload_all();
    glmux_glx_selector_fini();
    glmux_glx_lock_release();
    __glDispatchFini();
}
