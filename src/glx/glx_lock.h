/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's ground floor, its three locks (glx_lock.c; docs/architecture.md, "Locking").
 * No other file of libGLX is used here; every other file may use it.
 *
 *  - glmux_glx_map_lock, a plain mutex and a leaf: the display records (the list, each screen's
 *    vendor, drawables, merged client strings, server version), the context and FBConfig maps
 *    and the list of every thread's current-context record. Held across no call out of libGLX
 *    (no Xlib, xcb or vendor call; libGLdispatch's __glDispatchLoseCurrent is the one call made
 *    with it). Every GLX call that routes by a handle, and make-current, takes only this one.
 *  - glmux_glx_lock, the load lock, recursive: the vendor list and failed names, the dispatch
 *    indices, the glXGetProcAddress answers and the generated entry stubs. Held across the
 *    load of a vendor (dlopen, __glx_Main, its functions, setDispatchIndex), as libglvnd holds
 *    its vendor-name lock there; recursive because __glx_Main may call the exports. Every such
 *    call is marked with glmux_glx_call_out_begin/_end, so that fork() does not wait for it.
 *  - glmux_glx_dyn_lock, a leaf: every vendor's fetchDispatchEntry cache.
 * Order: glmux_glx_lock, then glmux_glx_map_lock or glmux_glx_dyn_lock (never the other way).
 */
#ifndef GLMUX_GLX_LOCK_H
#define GLMUX_GLX_LOCK_H

#include <pthread.h>
#include <stdbool.h>

#include "util/lock.h"

extern pthread_mutex_t glmux_glx_map_lock;
extern pthread_mutex_t glmux_glx_dyn_lock;
extern pthread_mutex_t glmux_glx_lock;

static inline void glmux_glx_map_acquire(void)
{
    pthread_mutex_lock(&glmux_glx_map_lock);
}

static inline void glmux_glx_map_release(void)
{
    pthread_mutex_unlock(&glmux_glx_map_lock);
}

/*
 * What glmux_glx_lock's holder records for the fork handler (glx_lock.c explains it).
 * holder_depth and out_depths belong to the holder; holder_out is written under the fork gate
 * (glmux_glx_lock_set_out); held and fork_waiting are atomic (sequentially consistent).
 */
enum { GLMUX_GLX_OUT_DEPTHS = 16 };
struct glmux_glx_lock_state {
    bool holder_out;
    int holder_depth;
    int out_count;
    int held;           /* 1 from just after the lock is taken to just before its last release */
    int fork_waiting;   /* the fork handler may be waiting for the lock */
    int out_depths[GLMUX_GLX_OUT_DEPTHS];
};
extern struct glmux_glx_lock_state glmux_glx_lock_state;
void glmux_glx_lock_set_out(bool out);
void glmux_glx_lock_wake_fork(void);

static inline void glmux_glx_lock_acquire(void)
{
    struct glmux_glx_lock_state *st = &glmux_glx_lock_state;

    pthread_mutex_lock(&glmux_glx_lock);
    if (st->holder_out)     /* this thread, called back from where it called out */
        glmux_glx_lock_set_out(false);
    if (st->holder_depth++ == 0)
        __atomic_store_n(&st->held, 1, __ATOMIC_SEQ_CST);
}

static inline void glmux_glx_lock_release(void)
{
    struct glmux_glx_lock_state *st = &glmux_glx_lock_state;
    bool last;

    st->holder_depth--;
    if (st->out_count > 0 && st->out_depths[st->out_count - 1] == st->holder_depth)
        glmux_glx_lock_set_out(true);   /* back to the call out of libGLX */
    last = st->holder_depth == 0;
    if (last)
        __atomic_store_n(&st->held, 0, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&glmux_glx_lock);
    /* Either the fork handler sees held 0 (and retries its trylock) or this sees it waiting. */
    if (last && __atomic_load_n(&st->fork_waiting, __ATOMIC_SEQ_CST))
        glmux_glx_lock_wake_fork();
}

/*
 * Around a call out of libGLX made with glmux_glx_lock held (a vendor's load), at a point
 * where the state it guards is whole: a fork() meanwhile does not wait for the call. What the
 * call runs back in libGLX takes the locks as usual.
 */
void glmux_glx_call_out_begin(void);
void glmux_glx_call_out_end(void);

/*
 * The order of libGLX's lifecycle steps (util/lifecycle.h), one per module, declared in each
 * module's own file: before fork() the steps run in this order, which is the lock order (the
 * locks, then the selector's); after it, and at teardown, in reverse. It is not the floor order
 * (docs/glx.md has that): glx_vendor.c, which uses glx_index.c and glx_mapping.c, is torn down
 * after them. That is safe because at unload no other thread is in libGLX and each teardown
 * step frees only its own module's state, using no other module of libGLX but the locks here.
 */
enum {
    GLMUX_GLX_ORDER_LOCKS = 10,     /* glx_lock.c */
    GLMUX_GLX_ORDER_SELECTOR = 20,  /* glx_selector.c */
    GLMUX_GLX_ORDER_VENDORS = 30,   /* glx_vendor.c */
    GLMUX_GLX_ORDER_INDICES = 40,   /* glx_index.c */
    GLMUX_GLX_ORDER_ENTRY = 45,     /* glx_entry.c */
    GLMUX_GLX_ORDER_MAPS = 50,      /* glx_mapping.c */
    GLMUX_GLX_ORDER_THREADS = 60,   /* glx_thread.c */
    GLMUX_GLX_ORDER_DISPLAYS = 70,  /* glx_display.c */
    GLMUX_GLX_ORDER_PROCADDR = 90,  /* glx_procaddr.c */
};

#endif /* GLMUX_GLX_LOCK_H */
