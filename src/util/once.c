/* SPDX-License-Identifier: MIT */
/*
 * glmux: the once-gate (once.h). A mutex and a condition around a state word: the runner
 * marks the gate RUNNING under the lock and runs the routine (without the lock, or with it for
 * run_locked), then marks it DONE and wakes the waiters. The fork step keeps the state whole
 * across fork(): the child's copy is taken with the lock held, and a routine that another
 * thread of the parent was running becomes CUT, so that the child's next call resumes it
 * instead of waiting for a thread that is not there or starting it over.
 */
#include "util/once.h"

static void finish(struct glmux_once *gate)
{
    __atomic_store_n(&gate->state, GLMUX_ONCE_DONE, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&gate->done);
}

void glmux_once_run_slow(struct glmux_once *gate, void (*routine)(void))
{
    pthread_mutex_lock(&gate->lock);
    while (gate->state == GLMUX_ONCE_RUNNING && !pthread_equal(gate->runner, pthread_self()))
        pthread_cond_wait(&gate->done, &gate->lock);
    if (gate->state == GLMUX_ONCE_RUNNING || gate->state == GLMUX_ONCE_DONE) {
        /* Done, or a call from inside the routine: what it has made so far. */
        pthread_mutex_unlock(&gate->lock);
        return;
    }
    /* NEW, or CUT: the routine resumes (atomic: read without the lock at the top) */
    __atomic_store_n(&gate->state, GLMUX_ONCE_RUNNING, __ATOMIC_RELAXED);
    gate->runner = pthread_self();
    pthread_mutex_unlock(&gate->lock);
    routine();
    pthread_mutex_lock(&gate->lock);
    finish(gate);
    pthread_mutex_unlock(&gate->lock);
}

void glmux_once_run_fork_waits_slow(struct glmux_once *gate, void (*routine)(void))
{
    pthread_mutex_lock(&gate->lock);
    if (gate->state != GLMUX_ONCE_DONE) {
        /* Never seen RUNNING by another thread: the lock is held throughout. */
        routine();
        finish(gate);
    }
    pthread_mutex_unlock(&gate->lock);
}

void glmux_once_fork(struct glmux_once *gate, enum glmux_fork_step step)
{
    if (step == GLMUX_FORK_CHILD || step == GLMUX_FORK_CHILD_ANEW) {
        /* Only the forking thread is left: a run of another thread is cut, and its waiters
         * are gone (the condition is made anew). */
        if (gate->state == GLMUX_ONCE_RUNNING && !pthread_equal(gate->runner, pthread_self()))
            gate->state = GLMUX_ONCE_CUT;
        pthread_cond_init(&gate->done, NULL);
    }
    glmux_fork_mutex(&gate->lock, step);
}
