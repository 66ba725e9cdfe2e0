/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's load, unload and fork handling, and its one lock.
 *
 * Load takes a reference on libGLdispatch (after checking its ABI version) and registers with
 * it (winsys.h). Unload releases this thread's context, hands the records of other threads
 * that still have a context current to libGLdispatch, forgets every display, context and name,
 * unpatches and closes every vendor, and drops the reference. Before fork() libGLdispatch
 * calls fork_prepare (libGLX's locks are taken, see below); in the child after_fork releases
 * them and libGLdispatch then drops every record of the parent with its context reference;
 * vendors and mappings stay. libglvnd compares getpid() on every call for this; a fork
 * handler costs nothing per call.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "glx/glx_internal.h"
#include "select/select.h"
#include "util/log.h"

pthread_mutex_t glmux_glx_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

/*
 * glmux_glx_lock is held across two kinds of calls out of libGLX: a vendor's load (dlopen,
 * __glx_Main, its getProcAddress and setDispatchIndex) and a display's first Xlib queries.
 * fork_prepare must not wait for those (a vendor or the X server may never answer, or wait for
 * the forking thread), yet must not copy the lock into the child while its holder is halfway
 * through an update. So the holder marks where it calls out (glmux_glx_call_out_begin/end):
 * there libGLX's state is whole. fork_prepare takes fork_gate and then waits until the lock is
 * free (it takes it) or its holder is out; with fork_gate held, a holder that comes back in
 * (from its call, or into libGLX's exports from the vendor) waits until fork() is over. The
 * child then makes the lock anew: the thread that was out does not exist there.
 *
 * The holder's record is glmux_glx_lock_state (glx_internal.h, whose inline acquire and
 * release keep it): holder_depth and out_depths belong to the lock's holder; holder_out is
 * written by the holder under fork_gate and read by fork_prepare under fork_gate.
 */
static pthread_mutex_t fork_gate = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fork_gate_cond = PTHREAD_COND_INITIALIZER;
struct glmux_glx_lock_state glmux_glx_lock_state;
static bool fork_took_lock, fork_prepared;

void glmux_glx_lock_set_out(bool out)
{
    pthread_mutex_lock(&fork_gate);
    glmux_glx_lock_state.holder_out = out;
    if (out)
        pthread_cond_broadcast(&fork_gate_cond);
    pthread_mutex_unlock(&fork_gate);
}

/* The lock's last release while fork_prepare waits for it. */
void glmux_glx_lock_wake_fork(void)
{
    pthread_mutex_lock(&fork_gate);
    pthread_cond_broadcast(&fork_gate_cond);
    pthread_mutex_unlock(&fork_gate);
}

void glmux_glx_call_out_begin(void)
{
    struct glmux_glx_lock_state *st = &glmux_glx_lock_state;

    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    /* Deeper than the array: not marked, so fork_prepare waits for this call (as before). */
    if (st->out_count < GLMUX_GLX_OUT_DEPTHS) {
        st->out_depths[st->out_count++] = st->holder_depth;
        glmux_glx_lock_set_out(true);
    } else {
        st->out_count++;
    }
}

void glmux_glx_call_out_end(void)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    if (glmux_glx_lock_state.out_count-- <= GLMUX_GLX_OUT_DEPTHS)
        glmux_glx_lock_set_out(false);  /* waits while a fork is under way */
}

/*
 * Before fork(): fork_gate, then glmux_glx_lock unless its holder is out of libGLX, then
 * glmux_glx_dyn_lock and the selector's lock (docs/architecture.md, "Locking").
 */
static void fork_prepare(void)
{
    pthread_mutex_lock(&fork_gate);
    __atomic_store_n(&glmux_glx_lock_state.fork_waiting, 1, __ATOMIC_SEQ_CST);
    for (;;) {
        struct timespec t;

        if (pthread_mutex_trylock(&glmux_glx_lock) == 0) {
            fork_took_lock = true;
            break;
        }
        if (glmux_glx_lock_state.holder_out) {
            fork_took_lock = false;
            break;
        }
        /* Woken by the holder calling out or releasing; the timeout only bounds a lost race. */
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += 20 * 1000 * 1000;
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&fork_gate_cond, &fork_gate, &t);
    }
    __atomic_store_n(&glmux_glx_lock_state.fork_waiting, 0, __ATOMIC_SEQ_CST);
    glmux_fork_mutex(&glmux_glx_dyn_lock, GLMUX_FORK_PREPARE);
    glmux_select_fork(GLMUX_FORK_PREPARE);
    fork_prepared = true;
}

static void fork_parent(void)
{
    if (!fork_prepared)
        return;
    fork_prepared = false;
    glmux_select_fork(GLMUX_FORK_PARENT);
    glmux_fork_mutex(&glmux_glx_dyn_lock, GLMUX_FORK_PARENT);
    if (fork_took_lock)
        pthread_mutex_unlock(&glmux_glx_lock);
    pthread_mutex_unlock(&fork_gate);
}

/*
 * In a forked child, called by libGLdispatch after its own reset and before it hands every
 * record of the parent to glmux_glx_current_destroyed (which takes glmux_glx_lock). The locks
 * fork_prepare took are released; glmux_glx_lock is made anew (fork_prepare took it, or its
 * holder was out of libGLX with the state whole). fork() from inside a vendor's load (the
 * forking thread holding the lock) is not supported: the child's copy of that load is lost.
 */
static void after_fork(void)
{
    enum glmux_fork_step step = fork_prepared ? GLMUX_FORK_CHILD : GLMUX_FORK_CHILD_ANEW;

    pthread_mutexattr_t attr;

    glmux_select_fork(step);
    glmux_fork_mutex(&glmux_glx_dyn_lock, step);
    /*
     * A recursive mutex records its owner's thread id, which is not this thread's in the
     * child: it cannot be unlocked here, only made anew (no other thread is left to hold it).
     */
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&glmux_glx_lock, &attr);
    pthread_mutexattr_destroy(&attr);
    glmux_glx_current_after_fork();
    glmux_glx_lock_state.holder_depth = 0;
    glmux_glx_lock_state.out_count = 0;
    glmux_glx_lock_state.holder_out = false;
    glmux_glx_lock_state.fork_waiting = 0;
    pthread_cond_init(&fork_gate_cond, NULL);
    if (fork_prepared)
        pthread_mutex_unlock(&fork_gate);
    else
        pthread_mutex_init(&fork_gate, NULL);
    fork_prepared = false;
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

GLMUX_WINSYS_LIBRARY(GLDISPATCH_API_GLX, "libGLX", fork_prepare, fork_parent, after_fork,
                     glmux_glx_current_destroyed,
                     drop_current, teardown);
