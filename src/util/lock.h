/* SPDX-License-Identifier: MIT */
/*
 * glmux: the debug-build check behind every library's locking contract
 * (docs/architecture.md, "Locking"). A function whose name ends in _locked, or that is
 * documented "lock held", starts with GLMUX_ASSERT_LOCKED(&its_lock): an assert() that the
 * calling thread owns the mutex, checked in debug builds (the sanitizer configurations) and
 * compiled out in release builds (NDEBUG).
 */
#ifndef GLMUX_UTIL_LOCK_H
#define GLMUX_UTIL_LOCK_H

#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Whether the calling thread owns lock (glibc records a mutex's owner; elsewhere: true). */
static inline bool glmux_lock_held(pthread_mutex_t *lock)
{
#ifdef __GLIBC__
    return lock->__data.__owner == (int)syscall(SYS_gettid);
#else
    (void)lock;
    return true;
#endif
}

/* Whether the calling thread does not own lock (elsewhere than glibc: true). */
static inline bool glmux_lock_not_held(pthread_mutex_t *lock)
{
#ifdef __GLIBC__
    return lock->__data.__owner != (int)syscall(SYS_gettid);
#else
    (void)lock;
    return true;
#endif
}

#define GLMUX_ASSERT_LOCKED(lock) assert(glmux_lock_held(lock))
/* Before a call into a vendor or X: the calling thread must not own lock. */
#define GLMUX_ASSERT_UNLOCKED(lock) assert(glmux_lock_not_held(lock))

/*
 * The four steps of a library's fork handlers (docs/architecture.md, "Threads, fork,
 * unload"): before fork() every lock is taken; in the parent released; in the child released
 * by the forking thread that took it (CHILD), or made anew where the library's fork_prepare did
 * not run (CHILD_ANEW: a library registered while the fork was under way).
 */
enum glmux_fork_step { GLMUX_FORK_PREPARE, GLMUX_FORK_PARENT, GLMUX_FORK_CHILD, GLMUX_FORK_CHILD_ANEW };

static inline void glmux_fork_mutex(pthread_mutex_t *lock, enum glmux_fork_step step)
{
    if (step == GLMUX_FORK_PREPARE)
        pthread_mutex_lock(lock);
    else if (step == GLMUX_FORK_CHILD_ANEW)
        pthread_mutex_init(lock, NULL);
    else
        pthread_mutex_unlock(lock);
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) && !defined(__SANITIZE_THREAD__)
#define __SANITIZE_THREAD__ 1
#endif
#endif
#ifdef __SANITIZE_THREAD__
#include <sanitizer/tsan_interface.h>
#endif

/* A write-locked rwlock records its writer's thread id, which the child's thread does not
 * have: the child makes it anew instead (no other thread is left to hold it). ThreadSanitizer
 * keeps its own record of the lock across pthread_rwlock_init: it is told of the release. */
static inline void glmux_fork_rwlock(pthread_rwlock_t *lock, enum glmux_fork_step step)
{
    if (step == GLMUX_FORK_PREPARE) {
        pthread_rwlock_wrlock(lock);
    } else if (step == GLMUX_FORK_PARENT) {
        pthread_rwlock_unlock(lock);
    } else {
#ifdef __SANITIZE_THREAD__
        if (step == GLMUX_FORK_CHILD) {
            __tsan_mutex_pre_unlock(lock, 0);
            __tsan_mutex_post_unlock(lock, 0);
        }
#endif
        pthread_rwlock_init(lock, NULL);
    }
}

#endif /* GLMUX_UTIL_LOCK_H */
