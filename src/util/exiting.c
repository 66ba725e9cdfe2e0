/* SPDX-License-Identifier: MIT */
/*
 * glmux: tells a library's destructor whether the process is exiting or the library is being
 * unloaded (exiting.h). Linked into each library that asks; each has its own flag and handler.
 */
#include <pthread.h>
#include <stdlib.h>

#include "util/exiting.h"

static bool exiting;
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;

/* The C++ ABI's registration, which glibc's atexit is: a handler tied to the object whose
 * __dso_handle it names, run by exit or, after the object's destructors, by its dlclose. */
extern void *__dso_handle;
int __cxa_atexit(void (*handler)(void *), void *arg, void *dso);

static void mark_exiting(void *unused)
{
    (void)unused;
    __atomic_store_n(&exiting, true, __ATOMIC_RELAXED);
}

/* Registered against this library's own handle, as atexit from a shared object is (said here
 * rather than left to atexit: ThreadSanitizer's atexit registers against no object, so the
 * handler outlived a dlclose and exit called into the unmapped library). If it cannot be
 * registered, destructors behave as at dlclose. */
static void watch(void)
{
    __cxa_atexit(mark_exiting, NULL, &__dso_handle);
}

void glmux_exit_watch(void)
{
    pthread_once(&watch_once, watch);
}

bool glmux_process_exiting(void)
{
    return __atomic_load_n(&exiting, __ATOMIC_RELAXED);
}
