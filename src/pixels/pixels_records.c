/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels vendor's context and drawable records (pixels_vendor.c makes and uses them):
 * the lists, their reference counts, the drawables' claims, each thread's current context and
 * drawables (its references), and freeing with no lock held.
 *
 * Locking (docs/architecture.md, "Locking"): one mutex, `lock`, guards the context and drawable
 * lists, their reference counts (`current`: threads that have a record current, are making it
 * current or present it) and the drawables' claims; no X, EGL or GL call is made with it held.
 * Records are unlinked under it and set aside, then freed (eglDestroyContext, eglDestroySurface,
 * the transport's requests) by glmux_pixels_free_released after it is released. A drawable's
 * surface and transport, and the X and EGL calls that change or show them, belong to the thread
 * that claimed it (glmux_pixels_drawable_claim: waits on `claim_done` while another thread
 * holds it).
 *
 * A drawable's X window or pixmap may go (XDestroyWindow) with nothing said to the vendor: its
 * record, EGL surface and frame buffers (two MIT-SHM segments) would stay until XCloseDisplay.
 * glmux_pixels_drawables_sweep, run when a record is made and when a context is destroyed,
 * asks the server about the display's records that are current nowhere and frees those whose
 * drawable is gone, and keeps the records of at most IDLE_WINDOWS_MAX windows used directly
 * and current nowhere (a window made current again gets a new one).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pixels/pixels_config.h"
#include "pixels/pixels_display.h"
#include "pixels/pixels_egl.h"
#include "pixels/pixels_present.h"
#include "pixels/pixels_records.h"
#include "pixels/pixels_server.h"
#include "pixels/pixels_xlibs.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/log.h"

/* The X windows used directly and current nowhere whose records a display keeps (the least
 * recently used go first): each holds an EGL surface and frame buffers of its size. */
#define IDLE_WINDOWS_MAX 8
/* The records one sweep asks the server about (the others wait for the next sweep). */
#define SWEEP_MAX 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t claim_done = PTHREAD_COND_INITIALIZER; /* a drawable's claim ended */
static struct glmux_pixels_context *contexts;
static struct glmux_pixels_drawable *drawables;
/* Unlinked, to be freed with no lock held (glmux_pixels_free_released). */
static struct glmux_pixels_context *released_contexts;
static struct glmux_pixels_drawable *released;
/* This thread's current context and drawables (their references are its own). */
static __thread struct glmux_pixels_context *cur_ctx;
static __thread struct glmux_pixels_drawable *cur_draw, *cur_read;

/* ---- records (lock held) ---- */

struct glmux_pixels_context *glmux_pixels_context_find(GLXContext handle)
{
    GLMUX_ASSERT_LOCKED(&lock);
    for (struct glmux_pixels_context *c = contexts; c != NULL; c = c->next) {
        if ((GLXContext)c == handle && !c->destroyed)
            return c;
    }
    return NULL;
}

/* Found records move to the front of the list, so that its end holds those used least
 * recently (glmux_pixels_drawables_sweep lets the last idle windows go). */
static struct glmux_pixels_drawable *drawable_find(Display *dpy, XID xid)
{
    GLMUX_ASSERT_LOCKED(&lock);
    for (struct glmux_pixels_drawable **p = &drawables, *d; (d = *p) != NULL; p = &d->next) {
        if (d->dpy == dpy && d->xid == xid && !d->destroyed) {
            *p = d->next;
            d->next = drawables;
            drawables = d;
            return d;
        }
    }
    return NULL;
}

/* Takes c off the list for glmux_pixels_free_released (lock held). */
void glmux_pixels_context_queue_free(struct glmux_pixels_context *c)
{
    GLMUX_ASSERT_LOCKED(&lock);
    for (struct glmux_pixels_context **p = &contexts; *p != NULL; p = &(*p)->next) {
        if (*p == c) {
            *p = c->next;
            break;
        }
    }
    c->next = released_contexts;
    released_contexts = c;
}

/* Drops a reference on c (lock held); a context destroyed meanwhile goes with the last one. */
void glmux_pixels_context_release(struct glmux_pixels_context *c)
{
    GLMUX_ASSERT_LOCKED(&lock);
    if (c != NULL && --c->current == 0 && c->destroyed)
        glmux_pixels_context_queue_free(c);
}

/* Takes d off the list for glmux_pixels_free_released (lock held). */
void glmux_pixels_drawable_queue_free(struct glmux_pixels_drawable *d)
{
    GLMUX_ASSERT_LOCKED(&lock);
    for (struct glmux_pixels_drawable **p = &drawables; *p != NULL; p = &(*p)->next) {
        if (*p == d) {
            *p = d->next;
            break;
        }
    }
    d->next = released;
    released = d;
}

void glmux_pixels_free_released(void)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    struct glmux_pixels_drawable *list;
    struct glmux_pixels_context *ctxs;

    pthread_mutex_lock(&lock);
    list = released;
    released = NULL;
    ctxs = released_contexts;
    released_contexts = NULL;
    pthread_mutex_unlock(&lock);
    while (ctxs != NULL) {
        struct glmux_pixels_context *c = ctxs;

        ctxs = c->next;
        if (egl != NULL)
            egl->DestroyContext(egl->display, c->egl);
        free(c);
    }
    while (list != NULL) {
        struct glmux_pixels_drawable *d = list;

        list = d->next;
        if (egl != NULL && d->surface != EGL_NO_SURFACE)
            egl->DestroySurface(egl->display, d->surface);
        glmux_pixels_xfer_free(d->xfer);
        free(d);
    }
}

static void display_closed(Display *dpy);

/* XCloseDisplay of dpy (its records part's closed function; the connection is still open): its
 * drawables are forgotten, as the next connection's XIDs may name others, and their transports
 * freed now; one still current on a thread shows nothing more and is freed when that thread
 * lets it go. */
static void drawables_display_closed(Display *dpy, void *part)
{
    struct glmux_pixels_stats st;

    (void)part;
    glmux_pixels_stats_get(&st);
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: display %s closed; %llu frame(s) sent so far "
              "in this process (%llu as ShmPutImage requests, %llu paced by Present), "
              "%llu bytes of pixels over the connection", DisplayString(dpy), st.frames,
              st.shm_frames, st.paced_frames, st.bytes);
    display_closed(dpy);
}

/* The records part of a display (pixels_display.c): a mark that its drawables are closed with
 * it; made when the display's first drawable record is. */
static void *records_part_make(Display *dpy)
{
    static char mark;

    (void)dpy;
    return &mark;
}

static const struct glmux_pixels_part_ops records_part = {
    .make = records_part_make, .closed = drawables_display_closed,
};

bool glmux_pixels_drawables_watch(Display *dpy)
{
    GLMUX_ASSERT_UNLOCKED(&lock);
    return glmux_pixels_display_part(dpy, GLMUX_PIXELS_PART_RECORDS, &records_part) != NULL;
}

static void display_closed(Display *dpy)
{
    struct glmux_pixels_xfer *detached = NULL;

    pthread_mutex_lock(&lock);
    for (struct glmux_pixels_drawable *d = drawables, *next; d != NULL; d = next) {
        next = d->next;
        if (d->dpy != dpy)
            continue;
        if (d->current > 0) {
            /* Freed when the last thread lets it go; until then it shows nothing. */
            d->destroyed = true;
            glmux_pixels_xfer_chain(d->xfer, &detached);
            d->xfer = NULL;
        } else {
            glmux_pixels_drawable_queue_free(d);
        }
    }
    pthread_mutex_unlock(&lock);
    glmux_pixels_xfer_free_chain(detached);
    glmux_pixels_free_released();
}

/* Whether an X error says that the drawable a request named does not exist. */
static bool error_gone(const xcb_generic_error_t *err)
{
    return err != NULL && (err->error_code == BadDrawable || err->error_code == BadWindow ||
                           err->error_code == BadPixmap);
}

void glmux_pixels_drawables_sweep(Display *dpy)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    struct glmux_pixels_drawable *held[SWEEP_MAX];
    unsigned int seq[SWEEP_MAX];
    bool gone[SWEEP_MAX];
    struct present_display *pd;
    int n = 0, idle_windows = 0;

    GLMUX_ASSERT_UNLOCKED(&lock);
    pthread_mutex_lock(&lock);
    for (struct glmux_pixels_drawable *d = drawables, *next; d != NULL; d = next) {
        next = d->next;
        /* Current nowhere and unclaimed: its transport is no thread's. */
        if (d->dpy != dpy || d->target == None || d->destroyed || d->current > 0 ||
            d->claims > 0)
            continue;
        if (glmux_pixels_xfer_gone(d->xfer)) {
            glmux_pixels_drawable_queue_free(d); /* an error of its own named it gone */
        } else if (d->kind == GLMUX_PIXELS_WINDOW && d->xid == d->target &&
                   ++idle_windows > IDLE_WINDOWS_MAX) {
            glmux_pixels_drawable_queue_free(d); /* made anew if it is made current again */
        } else if (n < SWEEP_MAX) {
            d->current++; /* kept while the server is asked, no lock held */
            held[n++] = d;
        }
    }
    pthread_mutex_unlock(&lock);
    if (n > 0 && (pd = glmux_pixels_present_of(dpy)) != NULL) {
        for (int i = 0; i < n; i++)
            seq[i] = xl->get_geometry(pd->xcb, (xcb_drawable_t)held[i]->target).sequence;
        for (int i = 0; i < n; i++) {
            xcb_generic_error_t *err = NULL;
            void *reply = glmux_pixels_reply_wait(xl, pd->xcb, seq[i], &err);

            gone[i] = reply == NULL && error_gone(err);
            free(reply);
            free(err);
        }
    } else {
        memset(gone, 0, sizeof(gone));
    }
    pthread_mutex_lock(&lock);
    for (int i = 0; i < n; i++) {
        if (gone[i] && !held[i]->destroyed) {
            glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: X drawable 0x%lx is gone; its "
                      "record, surface and frame buffers are freed",
                      (unsigned long)held[i]->target);
            held[i]->destroyed = true;
        }
        glmux_pixels_drawable_release(held[i]);
    }
    pthread_mutex_unlock(&lock);
    glmux_pixels_free_released();
}

void glmux_pixels_lock(void)
{
    pthread_mutex_lock(&lock);
}

void glmux_pixels_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

struct glmux_pixels_drawable *glmux_pixels_drawable_find(Display *dpy, XID xid)
{
    GLMUX_ASSERT_LOCKED(&lock);
    return drawable_find(dpy, xid);
}

void glmux_pixels_drawable_release(struct glmux_pixels_drawable *d)
{
    GLMUX_ASSERT_LOCKED(&lock);
    if (d != NULL && --d->current == 0 && d->destroyed)
        glmux_pixels_drawable_queue_free(d);
}

void glmux_pixels_drawable_claim_locked(struct glmux_pixels_drawable *d)
{
    pthread_t self = pthread_self();

    GLMUX_ASSERT_LOCKED(&lock);
    if (d == NULL)
        return;
    while (d->claims > 0 && !pthread_equal(d->owner, self))
        pthread_cond_wait(&claim_done, &lock);
    d->owner = self;
    d->claims++;
}

void glmux_pixels_drawable_claim(struct glmux_pixels_drawable *a, struct glmux_pixels_drawable *b)
{
    GLMUX_ASSERT_UNLOCKED(&lock);
    if ((uintptr_t)a > (uintptr_t)b) {
        struct glmux_pixels_drawable *t = a;

        a = b;
        b = t;
    }
    pthread_mutex_lock(&lock);
    glmux_pixels_drawable_claim_locked(a);
    if (b != a)
        glmux_pixels_drawable_claim_locked(b);
    pthread_mutex_unlock(&lock);
}

void glmux_pixels_drawable_unclaim(struct glmux_pixels_drawable *a,
                                   struct glmux_pixels_drawable *b)
{
    pthread_mutex_lock(&lock);
    if (a != NULL && --a->claims == 0)
        pthread_cond_broadcast(&claim_done);
    if (b != NULL && b != a && --b->claims == 0)
        pthread_cond_broadcast(&claim_done);
    pthread_mutex_unlock(&lock);
}

/* A record not yet on the list: its creator fills it in, then links it (drawable_link). */
struct glmux_pixels_drawable *glmux_pixels_drawable_new(Display *dpy, XID xid, XID target,
                                                  enum glmux_pixels_kind kind,
                                                  const struct glmux_pixels_config *config)
{
    struct glmux_pixels_drawable *d = calloc(1, sizeof(*d));

    if (d == NULL)
        return NULL;
    d->dpy = dpy;
    d->xid = xid;
    d->target = target;
    d->kind = kind;
    d->own_config = *config;
    d->config = &d->own_config;
    return d;
}

void glmux_pixels_drawable_link(struct glmux_pixels_drawable *d)
{
    GLMUX_ASSERT_LOCKED(&lock);
    d->next = drawables;
    drawables = d;
}

void glmux_pixels_context_link(struct glmux_pixels_context *c)
{
    GLMUX_ASSERT_LOCKED(&lock);
    c->next = contexts;
    contexts = c;
}

void glmux_pixels_current_get(struct glmux_pixels_current *out)
{
    out->ctx = cur_ctx;
    out->draw = cur_draw;
    out->read = cur_read;
}

void glmux_pixels_current_set(struct glmux_pixels_context *c, struct glmux_pixels_drawable *d,
                              struct glmux_pixels_drawable *r)
{
    GLMUX_ASSERT_LOCKED(&lock);
    glmux_pixels_drawable_release(cur_draw);
    if (cur_read != cur_draw)
        glmux_pixels_drawable_release(cur_read);
    glmux_pixels_context_release(cur_ctx);
    cur_ctx = c;
    cur_draw = d;
    cur_read = r;
}

bool glmux_pixels_contexts_idle(void)
{
    bool idle = true;

    pthread_mutex_lock(&lock);
    for (struct glmux_pixels_context *c = contexts; c != NULL && idle; c = c->next)
        idle = c->current == 0;
    pthread_mutex_unlock(&lock);
    return idle;
}

/* Before fork the lock is taken on the forking thread, so that the child finds it free. */
static void records_fork(enum glmux_fork_step step)
{
    glmux_fork_mutex(&lock, step);
    if (step == GLMUX_FORK_CHILD || step == GLMUX_FORK_CHILD_ANEW)
        pthread_cond_init(&claim_done, NULL);
}

/* In the child: the claims of the parent's other threads are dropped (they are gone). */
static void records_child(void)
{
    pthread_t self = pthread_self();

    pthread_mutex_lock(&lock);
    for (struct glmux_pixels_drawable *d = drawables; d != NULL; d = d->next) {
        if (d->claims > 0 && !pthread_equal(d->owner, self))
            d->claims = 0;
    }
    pthread_mutex_unlock(&lock);
}

GLMUX_LIFECYCLE_STEP(pixels_records, GLMUX_PIXELS_ORDER_RECORDS, .fork = records_fork,
                     .child = records_child);
