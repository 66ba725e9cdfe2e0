/* SPDX-License-Identifier: MIT */
/*
 * glmux: each thread's current GLX context record (glx_thread.c): the record, the list of
 * every record (glmux_glx_map_lock), and what happens to records when a display closes, a
 * thread exits, the process forks or libGLX is unloaded. Making a context current is
 * glx_current.c's.
 */
#ifndef GLMUX_GLX_THREAD_H
#define GLMUX_GLX_THREAD_H

#include <X11/Xlib.h>
#include <GL/glx.h>

#include "GLdispatch.h"
#include "glx/glx_mapping.h"
#include "glx/glx_vendor.h"

struct glmux_glx_thread {
    __GLdispatchThreadState base;   /* first: libGLdispatch sees only this */
    glmux_glx_vendor *vendor;
    struct glmux_glx_context *ctx;
    /* Read and written with glmux_glx_thread_dpy / _set: the close hook of another thread
     * clears it (NULL) when the display closes while the context is current here. */
    Display *dpy;
    GLXDrawable draw, read;
    struct glmux_glx_thread *live_next;     /* the list of live records (glmux_glx_map_lock) */
    /* The context this thread made current before ctx, its record (no reference held) and
     * glmux_glx_context_generation() when it was known alive: a switch back to it needs no
     * lookup while no record was freed since. */
    GLXContext prev_handle;
    struct glmux_glx_context *prev_info;
    unsigned long prev_gen;
};

/* The calling thread's GLX record, or NULL when no GLX context is current. */
struct glmux_glx_thread *glmux_glx_thread_current(void);
glmux_glx_vendor *glmux_glx_thread_vendor(void);
/* Puts t on (takes it off) the list of records. glmux_glx_map_lock held. */
void glmux_glx_thread_link_locked(struct glmux_glx_thread *t);
void glmux_glx_thread_unlink_locked(struct glmux_glx_thread *t);
/* Drops t's context reference, takes it off the list and frees it (takes the map lock). */
void glmux_glx_thread_retire(struct glmux_glx_thread *t);
/* libGLdispatch's record_destroyed: glmux_glx_thread_retire (thread exit, forked child). */
void glmux_glx_thread_destroyed(__GLdispatchThreadState *base);
/* Releases this thread's context without calling the vendor (unload). glmux_glx_map_lock
 * held. */
void glmux_glx_thread_drop_locked(void);
/*
 * dpy is being closed (its close hook, glmux_glx_map_lock held): the calling thread's context,
 * if current on dpy, is released without calling its vendor, and other threads' records
 * forget dpy (glXGetCurrentDisplay answers NULL there), as libglvnd does.
 */
void glmux_glx_thread_display_closed_locked(Display *dpy);

static inline Display *glmux_glx_thread_dpy(const struct glmux_glx_thread *t)
{
    return __atomic_load_n(&t->dpy, __ATOMIC_RELAXED);
}

static inline void glmux_glx_thread_dpy_set(struct glmux_glx_thread *t, Display *dpy)
{
    __atomic_store_n(&t->dpy, dpy, __ATOMIC_RELAXED);
}

#endif /* GLMUX_GLX_THREAD_H */
