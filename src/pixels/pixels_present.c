/* SPDX-License-Identifier: MIT */
/*
 * glmux: how the pixels GLX vendor gets a frame onto the X server (docs/remote.md, "How a frame
 * travels"). Each GLX window or pixmap has a transport (struct glmux_pixels_xfer) made when the
 * drawable is checked (glmux_pixels_xfer_new: one GetGeometry) and kept for its life: a GC, the
 * frame buffers (two MIT-SHM segments used in turn when the server attaches our memory, else
 * one block of memory) sized from one layout and kept while the frame size stays, and what is
 * known of the drawable's size. Presenting reads the frame back straight into a buffer
 * (pixels_resolve.c: top row first, no copy) and puts it with ShmPutImage, or PutImage in whole
 * rows per request, with no round trip:
 * - a window's size comes from Present's ConfigureNotify events, which xcb queues for us alone
 *   (xcb_register_for_special_xge: never in the application's event queue); without Present,
 *   from the replies to the frames' fences;
 * - each put is followed by a GetGeometry, the frame's fence, answered after the put was done
 *   and waited for (if it has not come yet) two frames later: an MIT-SHM segment is written
 *   again, or a PutImage frame put, only once the server has taken the frame before the last
 *   (at most two frames queued in the connection, an ssh tunnel's buffers included);
 * - with a swap interval and Present, a PresentNotifyMSC for the retrace due is waited for
 *   before the put (pacing: the one wait of such a frame, bounded).
 * Every request goes through the display's xcb connection, checked: the errors of a drawable
 * that went away come back to us (a reply's error, or the last put's cookie looked at during
 * the next frame) and mark it gone; nothing reaches the application's X error handler, with no
 * hook on the display. A connection that died goes to Xlib's I/O error handler at the next
 * frame (an XFlush), as at any Xlib call.
 * The display's side (what it has, the MIT-SHM test, waiting for a reply without xcb's queue of
 * readers) is pixels_server.c's. A transport is used by one thread at a time, the one that
 * claimed its drawable (glmux_pixels_drawable_claim, pixels_vendor.c); it takes no lock.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <time.h>

#include "pixels/pixels.h"
#include "util/log.h"

/* GetGeometry requests in flight per drawable (more: the oldest is waited for). */
#define XFER_PENDING 4
/* The largest PutImage request sent, in 4-byte words (Xlib's XPutImage's too). */
#define PUT_MAX_WORDS 65536
/* The longest a paced frame waits for its retrace, in milliseconds per swap interval. */
#define PACE_MS_PER_INTERVAL 1000

struct glmux_pixels_xfer {
    Display *dpy;
    struct present_display *pd;
    xcb_connection_t *c;
    xcb_drawable_t target;
    int depth;
    bool window;
    xcb_gcontext_t gc;      /* 0: not made yet */
    struct glmux_pixels_layout l; /* of the buffers; width 0: none yet */
    bool shm;               /* the buffers are MIT-SHM segments */
    bool no_shm;            /* an MIT-SHM put failed: plain memory from now on */
    struct glmux_pixels_buffer buf[2]; /* MIT-SHM: both, in turn; else buf[0] */
    int next;               /* the buffer (MIT-SHM) or put_fence (PutImage) of the next frame */
    unsigned int put_fence[2]; /* PutImage: the GetGeometry sent after each of the last two */
    unsigned int pending[XFER_PENDING]; /* GetGeometry sequence numbers, oldest first */
    int npending;
    unsigned int put;       /* the last put's cookie, looked at during the next frame */
    int width, height;      /* the drawable's size as last heard */
    bool gone;
    xcb_special_event_t *special; /* Present's events of this window (NULL: none) */
    uint32_t eid;
    uint32_t serial;        /* the last PresentNotifyMSC's */
    uint64_t msc;           /* the retrace the last paced frame went out at */
    struct glmux_pixels_xfer *chain; /* glmux_pixels_xfer_chain's list */
};

static struct glmux_pixels_stats stats;

/* ---- Present ---- */

/*
 * Present's requests and events, all in one place: a build without <xcb/present.h> (pixels.h)
 * has none of them, and there pd->present is false (pixels_server.c), so nothing below asks for
 * them.
 */
#if GLMUX_PIXELS_PRESENT
/* Asks for the window's ConfigureNotify and CompleteNotify events, queued for us alone. */
static void present_listen(const struct glmux_pixels_xlibs *xl, struct glmux_pixels_xfer *x)
{
    x->eid = xl->generate_id(x->c);
    xl->discard_reply(x->c, xl->present_select_input_checked(
        x->c, x->eid, x->target,
        XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY |
        XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY).sequence);
    x->special = xl->register_for_special_xge(x->c, xl->present_id, x->eid, NULL);
}

/* Stops the window's events (the transport is freed). */
static void present_unlisten(const struct glmux_pixels_xlibs *xl, struct glmux_pixels_xfer *x)
{
    xl->discard_reply(x->c, xl->present_select_input_checked(x->c, x->eid, x->target, 0)
                                .sequence);
}

/* One event of the window's: its size, or the retrace of the frame paced last. */
static void present_heard(struct glmux_pixels_xfer *x, const xcb_generic_event_t *ev)
{
    const xcb_present_generic_event_t *g = (const xcb_present_generic_event_t *)ev;

    if (g->evtype == XCB_PRESENT_CONFIGURE_NOTIFY) {
        const xcb_present_configure_notify_event_t *ce =
            (const xcb_present_configure_notify_event_t *)ev;

        x->width = ce->width;
        x->height = ce->height;
    } else if (g->evtype == XCB_PRESENT_COMPLETE_NOTIFY) {
        const xcb_present_complete_notify_event_t *ce =
            (const xcb_present_complete_notify_event_t *)ev;

        if (ce->serial == x->serial)
            x->msc = ce->msc;
    }
}

/* PresentNotifyMSC for retrace msc (0: the next one), tagged with x->serial. */
static void present_notify(const struct glmux_pixels_xlibs *xl, struct glmux_pixels_xfer *x,
                           uint64_t msc)
{
    xl->discard_reply(x->c, xl->present_notify_msc_checked(x->c, x->target, x->serial, msc, 0,
                                                           0).sequence);
}
#else
static void present_listen(const struct glmux_pixels_xlibs *xl, struct glmux_pixels_xfer *x)
{
    (void)xl;
    (void)x;
}

static void present_unlisten(const struct glmux_pixels_xlibs *xl, struct glmux_pixels_xfer *x)
{
    (void)xl;
    (void)x;
}

static void present_heard(struct glmux_pixels_xfer *x, const xcb_generic_event_t *ev)
{
    (void)x;
    (void)ev;
}

static void present_notify(const struct glmux_pixels_xlibs *xl, struct glmux_pixels_xfer *x,
                           uint64_t msc)
{
    (void)xl;
    (void)x;
    (void)msc;
}
#endif

/* ---- a drawable's transport ---- */

struct glmux_pixels_xfer *glmux_pixels_xfer_new(Display *dpy,
                                                const struct glmux_pixels_config *config,
                                                XID target, bool window,
                                                enum glmux_pixels_fit *fit)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    struct present_display *pd = glmux_pixels_present_of(dpy);
    struct glmux_pixels_xfer *x;
    xcb_get_geometry_reply_t *g;

    *fit = GLMUX_PIXELS_GONE;
    if (pd == NULL || (x = calloc(1, sizeof(*x))) == NULL)
        return NULL;
    x->dpy = dpy;
    x->pd = pd;
    x->c = pd->xcb;
    x->target = (xcb_drawable_t)target;
    x->window = window;
    /* Present's events first, so that no size change between the two is missed. */
    if (window && pd->present)
        present_listen(xl, x);
    if ((g = glmux_pixels_geometry_now(pd, target)) == NULL) {
        glmux_pixels_xfer_free(x);
        return NULL;
    }
    *fit = glmux_pixels_fit(dpy, config, RootWindow(dpy, config->screen), g->root, g->depth);
    if (*fit != GLMUX_PIXELS_FITS) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: drawable 0x%lx (depth %u) cannot show "
                  "FBConfig 0x%x (screen %d, visual depth %d, 32-bit pixels): BadMatch",
                  (unsigned long)target, g->depth, config->id, config->screen, config->depth);
        free(g);
        glmux_pixels_xfer_free(x);
        return NULL;
    }
    x->depth = g->depth;
    x->width = g->width;
    x->height = g->height;
    free(g);
    return x;
}

static void buffers_free(struct glmux_pixels_xfer *x)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();

    for (int i = 0; i < 2; i++) {
        struct glmux_pixels_buffer *b = &x->buf[i];

        if (b->seg != 0) {
            /* The server detaches after the puts before this; our mapping can go now. */
            xl->discard_reply(x->c, xl->shm_detach_checked(x->c, b->seg).sequence);
            shmdt(b->data);
        } else {
            free(b->data);
        }
        memset(b, 0, sizeof(*b));
    }
    x->l.width = 0;
}

/* The buffers of layout l: two MIT-SHM segments, else one block of memory; false when none. */
static bool buffers_make(struct glmux_pixels_xfer *x, const struct glmux_pixels_layout *l)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();

    buffers_free(x);
    x->shm = !x->no_shm && glmux_pixels_shm_works(x->pd) &&
             glmux_pixels_shm_segment(xl, x->c, l->size, 0, &x->buf[0]) &&
             glmux_pixels_shm_segment(xl, x->c, l->size, 0, &x->buf[1]);
    if (!x->shm) {
        buffers_free(x);
        if ((x->buf[0].data = malloc(l->size)) == NULL)
            return false;
    }
    x->l = *l;
    x->next = 0;
    return true;
}

/* A GetGeometry reply (or error) for the transport: its end, or a window's size (unless
 * Present's events tell it: they may be newer than a reply read after them). */
static void geometry_heard(struct glmux_pixels_xfer *x, xcb_get_geometry_reply_t *r,
                           xcb_generic_error_t *e)
{
    if (r != NULL && x->window && x->special == NULL) {
        x->width = r->width;
        x->height = r->height;
    }
    if (r == NULL)
        x->gone = true; /* an error (BadDrawable) or a connection that died */
    free(r);
    free(e);
}

/* The last put's outcome, when known: an error ends the drawable (or, for ShmPutImage, the
 * use of MIT-SHM). */
static void put_heard(struct glmux_pixels_xfer *x)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    xcb_generic_error_t *err = NULL;
    void *reply = NULL;

    if (x->put == 0 || !xl->poll_for_reply(x->c, x->put, &reply, &err))
        return;
    x->put = 0;
    free(reply);
    if (err == NULL)
        return;
    if (err->error_code == BadDrawable || err->error_code == BadWindow ||
        err->error_code == BadPixmap || err->error_code == BadMatch) {
        x->gone = true;
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: X drawable 0x%lx is gone (X error %d); "
                  "rendering goes on off screen", (unsigned long)x->target, err->error_code);
    } else if (x->shm) {
        x->no_shm = true;
        x->l.width = 0; /* new buffers at the next frame */
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: XShmPutImage to 0x%lx failed (X error "
                  "%d); its frames go out with XPutImage", (unsigned long)x->target,
                  err->error_code);
    }
    free(err);
}

/* Takes in what the server has sent (no waiting): Present events, replies, the last put's. */
static void hear(struct glmux_pixels_xfer *x)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    xcb_generic_event_t *ev;

    while (x->special != NULL && (ev = xl->poll_for_special_event(x->c, x->special)) != NULL) {
        present_heard(x, ev);
        free(ev);
    }
    while (x->npending > 0) {
        void *reply = NULL;
        xcb_generic_error_t *err = NULL;

        if (!xl->poll_for_reply(x->c, x->pending[0], &reply, &err))
            break;
        geometry_heard(x, reply, err);
        memmove(x->pending, x->pending + 1, sizeof(x->pending[0]) * (size_t)--x->npending);
    }
    put_heard(x);
}

/* Waits for the replies up to and including sequence seq (one round trip at most); none when
 * seq's reply was heard already (hear). */
static void wait_for(struct glmux_pixels_xfer *x, unsigned int seq)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    int n = 0;

    while (n < x->npending && x->pending[n] != seq)
        n++;
    if (n == x->npending)
        return;
    for (int i = 0; i <= n; i++) {
        xcb_generic_error_t *err = NULL;
        void *reply;

        reply = glmux_pixels_reply_wait(xl, x->c, x->pending[0], &err);
        geometry_heard(x, reply, err);
        memmove(x->pending, x->pending + 1, sizeof(x->pending[0]) * (size_t)--x->npending);
    }
}

/* Sends a GetGeometry whose reply is read later; returns its sequence number. */
static unsigned int ask_geometry(struct glmux_pixels_xfer *x)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    unsigned int seq;

    if (x->npending == XFER_PENDING)
        wait_for(x, x->pending[0]);
    seq = xl->get_geometry(x->c, x->target).sequence;
    x->pending[x->npending++] = seq;
    return seq;
}

static long long now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Swap interval n > 0 with Present: waits for the retrace n after the last paced frame's
 * (PresentNotifyMSC; the first paced frame waits for none). Bounded: a window destroyed
 * meanwhile never answers.
 */
static bool pace(struct glmux_pixels_xfer *x, int interval)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    long long deadline = now_ms() + (long long)interval * PACE_MS_PER_INTERVAL;
    uint64_t before = x->msc;

    x->serial++;
    present_notify(xl, x, before != 0 ? before + (uint64_t)interval : 0);
    xl->flush(x->c);
    for (;;) {
        struct pollfd pfd = { xl->get_file_descriptor(x->c), POLLIN, 0 };
        long long left;

        hear(x);
        if (x->msc != before || x->gone || xl->connection_has_error(x->c) ||
            (left = deadline - now_ms()) <= 0)
            break;
        /* Another thread may read the connection: look again at least every 5 ms. */
        poll(&pfd, 1, left < 5 ? (int)left : 5);
    }
    return x->msc != before;
}

void glmux_pixels_xfer_size(struct glmux_pixels_xfer *x, int *width, int *height)
{
    hear(x);
    *width = x->width;
    *height = x->height;
}

bool glmux_pixels_xfer_gone(const struct glmux_pixels_xfer *x)
{
    return x == NULL || x->gone;
}

bool glmux_pixels_xfer_paced(const struct glmux_pixels_xfer *x)
{
    return x != NULL && x->special != NULL;
}

/* Sends buffer b's frame: one ShmPutImage, or PutImage requests of whole rows. */
static bool put(struct glmux_pixels_xfer *x, const struct glmux_pixels_buffer *b)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    const struct glmux_pixels_layout *l = &x->l;
    uint32_t max_words;
    int rows;

    if (x->put != 0)
        xl->discard_reply(x->c, x->put);
    if (x->shm) {
        x->put = xl->shm_put_image_checked(x->c, x->target, x->gc, (uint16_t)l->width,
                                           (uint16_t)l->height, 0, 0, (uint16_t)l->width,
                                           (uint16_t)l->height, 0, 0, (uint8_t)x->depth,
                                           XCB_IMAGE_FORMAT_Z_PIXMAP, 0, b->seg, 0).sequence;
        return true;
    }
    /* At most 256 KiB a request, as Xlib's XPutImage: a server reads a request whole into its
     * buffer, and one of a frame's size costs it a fresh frame-sized buffer each time. */
    max_words = xl->get_maximum_request_length(x->c);
    rows = glmux_pixels_band_rows(max_words < PUT_MAX_WORDS ? max_words : PUT_MAX_WORDS, l);
    if (rows == 0) {
        glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: a %d-pixel row does not fit the X "
                  "server's largest request; nothing is shown", l->width);
        return false;
    }
    x->put = 0;
    for (int y = 0; y < l->height; y += rows) {
        int n = l->height - y < rows ? l->height - y : rows;

        if (x->put != 0)
            xl->discard_reply(x->c, x->put);
        x->put = xl->put_image_checked(x->c, XCB_IMAGE_FORMAT_Z_PIXMAP, x->target, x->gc,
                                       (uint16_t)l->width, (uint16_t)n, 0, (int16_t)y, 0,
                                       (uint8_t)x->depth, (uint32_t)(n * l->stride),
                                       (const uint8_t *)b->data + (size_t)y * (size_t)l->stride)
                     .sequence;
    }
    return true;
}

bool glmux_pixels_present(struct glmux_pixels_drawable *d, int interval)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    struct glmux_pixels_xfer *x = d->xfer;
    struct glmux_pixels_layout l;
    struct glmux_pixels_buffer *b;
    bool paced = false;

    if (x == NULL)
        return false;
    /* A connection that died goes to Xlib's I/O error handler, as at any Xlib call. */
    if (xl->connection_has_error(x->c)) {
        XFlush(x->dpy);
        return false;
    }
    if (x->gone)
        return false;
    hear(x);
    /* The frame is the surface's size; the server clips what does not fit the drawable. */
    if (x->gone || !glmux_pixels_layout(d->width, d->height, &l))
        return false;
    if ((x->l.width != l.width || x->l.height != l.height) && !buffers_make(x, &l))
        return false;
    if (x->gc == 0) {
        x->gc = xl->generate_id(x->c);
        xl->discard_reply(x->c, xl->create_gc_checked(x->c, x->gc, x->target, 0, NULL).sequence);
    }
    b = &x->buf[x->shm ? x->next : 0];
    /* A segment is written again only once the server has read it (its fence answered). */
    if (x->shm && b->fence != 0) {
        wait_for(x, b->fence);
        b->fence = 0;
    }
    glmux_pixels_read_back(d->surface_config, &x->l, x->pd->order, b->data);
    /* PutImage: a frame is sent once the server has taken the one before the last (its fence
     * answered), so that at most two frames are queued in the connection, as with MIT-SHM:
     * frames sent as fast as they are made fill every buffer on the way (an ssh tunnel's too)
     * and wait there, late. */
    if (!x->shm && x->put_fence[x->next] != 0) {
        wait_for(x, x->put_fence[x->next]);
        x->put_fence[x->next] = 0;
    }
    if (interval > 0 && x->special != NULL)
        paced = pace(x, interval);
    if (x->gone || !put(x, b))
        return false;
    /* Fence the frame (waited for two frames later); without Present the same replies tell a
     * window's size. */
    if (x->shm)
        b->fence = ask_geometry(x);
    else
        x->put_fence[x->next] = ask_geometry(x);
    x->next ^= 1;
    xl->flush(x->c);
    __atomic_add_fetch(&stats.frames, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&stats.bytes, x->shm ? 40 : (unsigned long long)l.size, __ATOMIC_RELAXED);
    if (x->shm)
        __atomic_add_fetch(&stats.shm_frames, 1, __ATOMIC_RELAXED);
    if (paced)
        __atomic_add_fetch(&stats.paced_frames, 1, __ATOMIC_RELAXED);
    return true;
}

void glmux_pixels_xfer_free(struct glmux_pixels_xfer *x)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();

    if (x == NULL)
        return;
    buffers_free(x);
    for (int i = 0; i < x->npending; i++)
        xl->discard_reply(x->c, x->pending[i]);
    if (x->put != 0)
        xl->discard_reply(x->c, x->put);
    if (x->special != NULL) {
        present_unlisten(xl, x);
        xl->unregister_for_special_event(x->c, x->special);
    }
    if (x->gc != 0)
        xl->discard_reply(x->c, xl->free_gc_checked(x->c, x->gc).sequence);
    xl->flush(x->c);
    free(x);
}

void glmux_pixels_xfer_chain(struct glmux_pixels_xfer *x, struct glmux_pixels_xfer **list)
{
    if (x != NULL) {
        x->chain = *list;
        *list = x;
    }
}

void glmux_pixels_xfer_free_chain(struct glmux_pixels_xfer *list)
{
    while (list != NULL) {
        struct glmux_pixels_xfer *x = list;

        list = x->chain;
        glmux_pixels_xfer_free(x);
    }
}

void glmux_pixels_stats_get(struct glmux_pixels_stats *out)
{
    out->frames = __atomic_load_n(&stats.frames, __ATOMIC_RELAXED);
    out->bytes = __atomic_load_n(&stats.bytes, __ATOMIC_RELAXED);
    out->shm_frames = __atomic_load_n(&stats.shm_frames, __ATOMIC_RELAXED);
    out->paced_frames = __atomic_load_n(&stats.paced_frames, __ATOMIC_RELAXED);
}
