/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's locks and their part of the fork handlers (glx_lock.h says what each guards).
 *
 * glmux_glx_map_lock and glmux_glx_dyn_lock are leaves, held across no call out of libGLX:
 * before fork() they are simply taken. glmux_glx_lock, the load lock, is held across a vendor's
 * load (dlopen, __glx_Main, its getProcAddress and setDispatchIndex). fork() must not wait for
 * that (a vendor may wait for the X server, or for the forking thread), yet must not copy the
 * lock into the child while its holder is halfway through an update. So the holder marks where
 * it calls out (glmux_glx_call_out_begin/end): there the state it guards is whole. The fork
 * handler takes fork_gate and then waits until the lock is free (it takes it) or its holder is
 * out; with fork_gate held, a holder that comes back in (from its call, or into an export from
 * the vendor) waits until fork() is over. The child makes the lock anew: the thread that was
 * out does not exist there. The handler's wait needs no timeout: the holder wakes it under
 * fork_gate when it calls out, and after its last release when it sees fork_waiting. That flag
 * and the holder's `held` are sequentially consistent atomics written before they read the
 * other's (a Dekker pair): either the handler sees held 0 and tries the lock again, or the
 * releasing holder sees fork_waiting 1 and wakes it. So a release costs one atomic store and
 * one load, not a mutex, while no fork is under way.
 */
#define _GNU_SOURCE
#include <sched.h>

#include "glx/glx_lock.h"
#include "util/lifecycle.h"

pthread_mutex_t glmux_glx_map_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t glmux_glx_dyn_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t glmux_glx_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
struct glmux_glx_lock_state glmux_glx_lock_state;

static pthread_mutex_t fork_gate = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fork_gate_cond = PTHREAD_COND_INITIALIZER;
static bool fork_took_lock, fork_prepared;

void glmux_glx_lock_set_out(bool out)
{
    pthread_mutex_lock(&fork_gate);
    glmux_glx_lock_state.holder_out = out;
    if (out)
        pthread_cond_broadcast(&fork_gate_cond);
    pthread_mutex_unlock(&fork_gate);
}

/* After the lock's last release, while the fork handler waits for it. */
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
    /* Deeper than the array: not marked, so the fork handler waits for this call. */
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

/* Before fork(): fork_gate, then the load lock unless its holder is out, then the leaves. */
static void prepare(void)
{
    pthread_mutex_lock(&fork_gate);
    __atomic_store_n(&glmux_glx_lock_state.fork_waiting, 1, __ATOMIC_SEQ_CST);
    for (;;) {
        if (pthread_mutex_trylock(&glmux_glx_lock) == 0) {
            fork_took_lock = true;
            break;
        }
        if (glmux_glx_lock_state.holder_out) {
            fork_took_lock = false;
            break;
        }
        /* A holder just releasing (or just taking) it: try again. */
        if (!__atomic_load_n(&glmux_glx_lock_state.held, __ATOMIC_SEQ_CST)) {
            sched_yield();
            continue;
        }
        /* Woken by the holder calling out (under fork_gate) or after its last release. */
        pthread_cond_wait(&fork_gate_cond, &fork_gate);
    }
    __atomic_store_n(&glmux_glx_lock_state.fork_waiting, 0, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&glmux_glx_map_lock);
    pthread_mutex_lock(&glmux_glx_dyn_lock);
    fork_prepared = true;
}

static void parent(void)
{
    if (!fork_prepared)
        return;
    fork_prepared = false;
    pthread_mutex_unlock(&glmux_glx_dyn_lock);
    pthread_mutex_unlock(&glmux_glx_map_lock);
    if (fork_took_lock)
        pthread_mutex_unlock(&glmux_glx_lock);
    pthread_mutex_unlock(&fork_gate);
}

/*
 * In the child. The leaves are released by this thread, which took them (or made anew where
 * the handler did not run); the load lock is made anew (a recursive mutex records its owner's
 * thread id, which this thread does not have: it was taken, or its holder was out of libGLX
 * with the state whole). fork() from inside a vendor's load (the forking thread holding the
 * lock) is not supported: the child's copy of that load is lost.
 */
static void child(enum glmux_fork_step step)
{
    pthread_mutexattr_t attr;

    glmux_fork_mutex(&glmux_glx_dyn_lock, step);
    glmux_fork_mutex(&glmux_glx_map_lock, step);
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&glmux_glx_lock, &attr);
    pthread_mutexattr_destroy(&attr);
    glmux_glx_lock_state.holder_depth = 0;
    glmux_glx_lock_state.out_count = 0;
    glmux_glx_lock_state.holder_out = false;
    glmux_glx_lock_state.held = 0;
    glmux_glx_lock_state.fork_waiting = 0;
    pthread_cond_init(&fork_gate_cond, NULL);
    if (step == GLMUX_FORK_CHILD)
        pthread_mutex_unlock(&fork_gate);
    else
        pthread_mutex_init(&fork_gate, NULL);
    fork_prepared = false;
}

/* libGLX's fork step (util/lifecycle.h): the lock order starts here. */
static void fork_step(enum glmux_fork_step step)
{
    switch (step) {
    case GLMUX_FORK_PREPARE:
        prepare();
        break;
    case GLMUX_FORK_PARENT:
        parent();
        break;
    case GLMUX_FORK_CHILD:
    case GLMUX_FORK_CHILD_ANEW:
        child(fork_prepared ? GLMUX_FORK_CHILD : GLMUX_FORK_CHILD_ANEW);
        break;
    }
}

GLMUX_LIFECYCLE_STEP(glx_locks, GLMUX_GLX_ORDER_LOCKS, .fork = fork_step);
