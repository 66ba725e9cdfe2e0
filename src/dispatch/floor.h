/* SPDX-License-Identifier: MIT */
/*
 * glmux: the ground floor of libGLdispatch, which every other file of it may use and which
 * uses none of them: the dispatch lock, the thread's table pointer the entry stubs read, the
 * table of threads without a context, the pthread key of the thread records and its TLS
 * mirror, and how many threads have a context. Each module registers its own init, fork,
 * after-fork and teardown steps (util/lifecycle.h); lifetime.c's fork handlers and dispatch.c's
 * init and fini run them (docs/architecture.md, "Floors inside a library").
 */
#ifndef GLMUX_DISPATCH_FLOOR_H
#define GLMUX_DISPATCH_FLOOR_H

#include <pthread.h>
#include <stdbool.h>

#include "GLdispatch.h"
#include "glmux_slots.h"

struct __GLdispatchThreadStatePrivateRec;

/* Guards every piece of global dispatch state; the stubs never take it. Leaf: held for a few
 * instructions, never across a call into a vendor or a client library. */
extern pthread_mutex_t glmux_dispatch_lock;

/* Threads with a current context, all vendors together (lock held). */
extern int glmux_dispatch_current_count;

/* The pthread key of the records (valid while libGLdispatch is initialised). */
extern pthread_key_t glmux_dispatch_thread_key;
extern bool glmux_dispatch_thread_key_valid;
/* What glmux_dispatch_thread_key holds for the calling thread, read without a call. */
extern __thread struct __GLdispatchThreadStatePrivateRec *glmux_dispatch_thread_record
    __attribute__((tls_model("initial-exec")));

/*
 * While a GL layer is loaded (layer_chain.c), _glapi_tls_Current[0] points at the current
 * table's layered twin and this at the vendor's own entries, which the below stubs (the bottom
 * of every GL chain) jump through; glmux_noop_table while the thread has no context.
 */
extern __thread const void *glmux_tls_below[1] __attribute__((tls_model("initial-exec")));

/* Sets the calling thread's record in the key and in its mirror. */
static inline void glmux_dispatch_set_record(struct __GLdispatchThreadStatePrivateRec *priv)
{
    pthread_setspecific(glmux_dispatch_thread_key, priv);
    glmux_dispatch_thread_record = priv;
}

/* The calling thread goes back to the table of threads without a context. */
static inline void glmux_dispatch_set_noop(void)
{
    _glapi_tls_Current[0] = glmux_noop_table;
    glmux_tls_below[0] = glmux_noop_table;
}

/*
 * A thread busy with one thing under glmux_dispatch_lock's watch (a table tables.c fills, a
 * dynamic slot whose layers layer_chain.c asks), a node on the thread's own stack in a list
 * the lock guards: a callback that comes back on the same thread for the same thing is let
 * through instead of starting it again from inside itself. A list's head starts NULL and is
 * set NULL again in a child of fork (the threads it named are gone).
 */
struct glmux_busy {
    const void *what;
    pthread_t thread;
    struct glmux_busy *next;
};

/* The calling thread is busy with what; me stays listed until glmux_busy_end_locked. */
void glmux_busy_begin_locked(struct glmux_busy **list, struct glmux_busy *me, const void *what);
void glmux_busy_end_locked(struct glmux_busy **list, struct glmux_busy *me);
/* Whether the calling thread is busy with what. */
bool glmux_busy_is_locked(struct glmux_busy *const *list, const void *what);

/*
 * The order of libGLdispatch's lifecycle steps, declared with each step (the numbers only
 * order them): the registered client libraries' locks are taken before fork ahead of
 * libGLdispatch's own lock (a client may hold its lock while it calls libGLdispatch, never the
 * other way); in the child the lock is released first, then the tables are reset and the
 * parent's records handed back to their clients.
 *   10 lifetime.c clients  15 layer_chain.c  20 floor.c  30 slots.c  40 patch.c  50 tables.c
 *   60 lifetime.c records  70 dispatch.c
 */

#endif /* GLMUX_DISPATCH_FLOOR_H */
