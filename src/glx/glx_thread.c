/* SPDX-License-Identifier: MIT */
/*
 * glmux: each thread's current GLX context record. The record embeds libGLdispatch's thread
 * state as its first member and holds a reference on its context (a context stays known until
 * no thread has it current). Every record is on one list (glmux_glx_map_lock) so that a
 * display's close hook can reach the records of other threads current on it. A record goes
 * when its thread releases the context or exits, in a forked child (libGLdispatch hands the
 * parent's records back) and at unload (this thread's).
 */
#include <stdlib.h>

#include "glx/glx_lock.h"
#include "glx/glx_thread.h"
#include "util/lifecycle.h"

struct glmux_glx_thread *glmux_glx_thread_current(void)
{
    return (struct glmux_glx_thread *)glmux_winsys_record_current(GLDISPATCH_API_GLX);
}

glmux_glx_vendor *glmux_glx_thread_vendor(void)
{
    struct glmux_glx_thread *t = glmux_glx_thread_current();

    return t ? t->vendor : NULL;
}

static struct glmux_glx_thread *live;      /* every record (glmux_glx_map_lock) */

void glmux_glx_thread_link_locked(struct glmux_glx_thread *t)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_map_lock);
    t->live_next = live;
    live = t;
}

/* A record of the parent in a forked child is on none. */
void glmux_glx_thread_unlink_locked(struct glmux_glx_thread *t)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_map_lock);
    for (struct glmux_glx_thread **p = &live; *p != NULL; p = &(*p)->live_next) {
        if (*p == t) {
            *p = t->live_next;
            return;
        }
    }
}

void glmux_glx_thread_retire(struct glmux_glx_thread *t)
{
    glmux_glx_map_acquire();
    glmux_glx_context_unref_locked(t->ctx);
    glmux_glx_thread_unlink_locked(t);
    glmux_glx_map_release();
    free(t);
}

void glmux_glx_thread_destroyed(__GLdispatchThreadState *base)
{
    glmux_glx_thread_retire((struct glmux_glx_thread *)base);
}

/* In a forked child: the list of live records is the parent's (libGLdispatch then hands each
 * record to glmux_glx_thread_destroyed); forget it. */
static void after_fork(void)
{
    live = NULL;
}

GLMUX_LIFECYCLE_STEP(glx_threads, GLMUX_GLX_ORDER_THREADS, .child = after_fork);

void glmux_glx_thread_drop_locked(void)
{
    struct glmux_glx_thread *t = glmux_glx_thread_current();

    GLMUX_ASSERT_LOCKED(&glmux_glx_map_lock);
    if (t == NULL)
        return;
    __glDispatchLoseCurrent();
    glmux_glx_context_unref_locked(t->ctx);
    glmux_glx_thread_unlink_locked(t);
    free(t);
}

void glmux_glx_thread_display_closed_locked(Display *dpy)
{
    struct glmux_glx_thread *self = glmux_glx_thread_current();

    GLMUX_ASSERT_LOCKED(&glmux_glx_map_lock);
    /* The vendor is not called: the display is going, and its own close hook does its part. */
    if (self != NULL && glmux_glx_thread_dpy(self) == dpy)
        glmux_glx_thread_drop_locked();
    for (struct glmux_glx_thread *t = live; t != NULL; t = t->live_next) {
        if (glmux_glx_thread_dpy(t) == dpy)
            glmux_glx_thread_dpy_set(t, NULL);
    }
}
