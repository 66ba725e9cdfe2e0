/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLdispatch's ground floor (floor.h): the dispatch lock, the initial-exec TLS
 * pointer _glapi_tls_Current that the entry stubs read (and glmux_tls_below, which the below
 * stubs of the GL layers read), libglvnd's _glapi_Current, the table
 * of threads without a context (assembly builds: filled at load by lazy.c; pure-C builds: the
 * generated glmux_noop.c), the records' pthread key (made by dispatch.c) and its TLS mirror.
 * Its lifecycle step takes and releases the lock around fork and, in the child, leaves the
 * thread without a context. It also keeps the lists of busy threads (floor.h).
 */
#define _GNU_SOURCE
#include "floor.h"
#include "layer_chain.h"
#include "util/lifecycle.h"
#include "util/lock.h"

#if GLMUX_HAVE_LAZY
const void *glmux_noop_table[GLMUX_TOTAL_SLOTS];
#endif

__thread const void *_glapi_tls_Current[1] __attribute__((tls_model("initial-exec"))) = {
    glmux_noop_table
};
const void *_glapi_Current[1];
__thread const void *glmux_tls_below[1] __attribute__((tls_model("initial-exec"))) = {
    glmux_noop_table
};

/* The chain of GL layers' state and GL part (layer_chain.h), read by tables.c and patch.c. */
int glmux_chain_state;
struct glmux_chain_gl *glmux_chain_gl;

pthread_mutex_t glmux_dispatch_lock = PTHREAD_MUTEX_INITIALIZER;
int glmux_dispatch_current_count;
pthread_key_t glmux_dispatch_thread_key;
bool glmux_dispatch_thread_key_valid;
__thread struct __GLdispatchThreadStatePrivateRec *glmux_dispatch_thread_record
    __attribute__((tls_model("initial-exec")));

void glmux_busy_begin_locked(struct glmux_busy **list, struct glmux_busy *me, const void *what)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    me->what = what;
    me->thread = pthread_self();
    me->next = *list;
    *list = me;
}

void glmux_busy_end_locked(struct glmux_busy **list, struct glmux_busy *me)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    for (struct glmux_busy **p = list; *p != NULL; p = &(*p)->next) {
        if (*p == me) {
            *p = me->next;
            return;
        }
    }
}

bool glmux_busy_is_locked(struct glmux_busy *const *list, const void *what)
{
    pthread_t self = pthread_self();

    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    for (const struct glmux_busy *b = *list; b != NULL; b = b->next) {
        if (b->what == what && pthread_equal(b->thread, self))
            return true;
    }
    return false;
}

/* Before fork the lock is taken on the forking thread, so that the child finds it free. */
static void floor_fork(enum glmux_fork_step step)
{
    glmux_fork_mutex(&glmux_dispatch_lock, step);
}

/* In the child every record belonged to the parent: the thread starts with no context. */
static void floor_child(void)
{
    if (glmux_dispatch_thread_key_valid)
        glmux_dispatch_set_record(NULL);
    glmux_dispatch_set_noop();
}

GLMUX_LIFECYCLE_STEP(dispatch_floor, 20, .fork = floor_fork, .child = floor_child);
