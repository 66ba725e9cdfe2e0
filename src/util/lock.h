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

#define GLMUX_ASSERT_LOCKED(lock) assert(glmux_lock_held(lock))

#endif /* GLMUX_UTIL_LOCK_H */
