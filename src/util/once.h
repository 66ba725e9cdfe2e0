/* SPDX-License-Identifier: MIT */
/*
 * glmux: a once-gate that fork() cannot break (docs/architecture.md, "Once-gates"). It stands
 * where pthread_once would, for the routines that load vendors or libraries. With pthread_once,
 * a fork() while another thread runs the routine leaves the child a once_control "in progress"
 * by a thread it does not have: glibc runs the routine again from the start in the child (a
 * second vendor list over the first, leaked), ThreadSanitizer's pthread_once waits for it
 * forever. Here the owner's fork step says what happens, and says it where the gate is used:
 *
 * - glmux_once_run_fork_waits(gate, routine): the routine runs with the gate's lock held. The fork
 *   step takes that lock before fork(), so a fork waits until the routine is done and the
 *   child finds it done or not started, never half done. Only for a routine that calls no
 *   vendor, no dlopen and no library that might register a fork handler or wait for another
 *   thread (reading the environment and manifest files): the forking thread waits for it
 *   while it holds glibc's fork-handler lock.
 * - glmux_once_run(gate, routine): the routine runs without the lock (it may dlopen and call
 *   vendors) and must be resumable: it keeps its progress in static storage, writes each step's
 *   result under glmux_once_lock/unlock (so a child's copy of it is whole), and when it is
 *   called again in a child whose parent forked while it ran (GLMUX_ONCE_CUT), it goes on
 *   from the last step written, after undoing the step that was cut. Other threads wait on the
 *   gate's condition; a call from inside the routine (a vendor calling back) returns at once.
 *
 * glmux_once_fork(gate, step) is the gate's part of its owner's lifecycle fork step
 * (util/lifecycle.h): PREPARE takes the lock, PARENT releases it, CHILD and CHILD_ANEW release
 * or remake it and mark a routine that another thread was running as cut (the forking thread's
 * own run goes on in the child). The lock is never held across anything but a few stores (or
 * the routine of run_locked), so the gate may come anywhere in a library's lock order.
 */
#ifndef GLMUX_UTIL_ONCE_H
#define GLMUX_UTIL_ONCE_H

#include <pthread.h>
#include <stdbool.h>

#include "util/lock.h"

enum glmux_once_state {
    GLMUX_ONCE_NEW,      /* never run */
    GLMUX_ONCE_RUNNING,  /* a thread of this process runs the routine */
    GLMUX_ONCE_CUT,      /* the parent forked while another of its threads ran it: resume */
    GLMUX_ONCE_DONE,
};

struct glmux_once {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int state;          /* enum glmux_once_state; DONE is read without the lock (acquire) */
    pthread_t runner;   /* while RUNNING */
};

#define GLMUX_ONCE_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, GLMUX_ONCE_NEW, 0 }

/* The out-of-line parts of glmux_once_run and glmux_once_run_fork_waits (once.c). */
void glmux_once_run_slow(struct glmux_once *gate, void (*routine)(void));
void glmux_once_run_fork_waits_slow(struct glmux_once *gate, void (*routine)(void));

/* Whether the routine has finished (acquire: what it wrote is visible). */
static inline bool glmux_once_done(struct glmux_once *gate)
{
    return __atomic_load_n(&gate->state, __ATOMIC_ACQUIRE) == GLMUX_ONCE_DONE;
}

/* Runs routine unless it is done (see above); returns when it is done, or at once when
 * called from inside it. A done gate costs a load and a branch, inline. */
static inline void glmux_once_run(struct glmux_once *gate, void (*routine)(void))
{
    if (!glmux_once_done(gate))
        glmux_once_run_slow(gate, routine);
}

/* Runs routine, the gate's mutex taken for all of it, unless it is done. */
static inline void glmux_once_run_fork_waits(struct glmux_once *gate, void (*routine)(void))
{
    if (!glmux_once_done(gate))
        glmux_once_run_fork_waits_slow(gate, routine);
}

/* Around the routine's writes of its progress. */
static inline void glmux_once_lock(struct glmux_once *gate)
{
    pthread_mutex_lock(&gate->lock);
}

static inline void glmux_once_unlock(struct glmux_once *gate)
{
    pthread_mutex_unlock(&gate->lock);
}
/* The gate's part of its owner's fork step. */
void glmux_once_fork(struct glmux_once *gate, enum glmux_fork_step step);

#endif /* GLMUX_UTIL_ONCE_H */
