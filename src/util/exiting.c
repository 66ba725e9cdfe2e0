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

static void mark_exiting(void)
{
    __atomic_store_n(&exiting, true, __ATOMIC_RELAXED);
}

/* atexit from a shared object is __cxa_atexit with the object's handle: dlclose runs it after
 * the object's destructors. If it cannot be registered, destructors behave as at dlclose. */
static void watch(void)
{
    atexit(mark_exiting);
}

void glmux_exit_watch(void)
{
    pthread_once(&watch_once, watch);
}

bool glmux_process_exiting(void)
{
    return __atomic_load_n(&exiting, __ATOMIC_RELAXED);
}
