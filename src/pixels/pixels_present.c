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
 *   (xcb_register_for_special_xge: never in the application's event queue), taken in when a
 *   frame begins (its first glClear, pixels_swap.c) so that the frame after a resize is drawn
 *   at the new size; without Present, from a GetGeometry sent and waited for then (one round
 *   trip a frame, as Mesa's software rasterizer asks), which is also the frame's fence;
 * - with Present, and for pixmaps, each put is followed by a GetGeometry, the frame's fence,
 *   answered after the put was done and waited for (if it has not come yet) two frames later:
 *   an MIT-SHM segment is written again, or a PutImage frame put, only once the server has
 *   taken the frame before the last (at most two frames queued in the connection, an ssh
 *   tunnel's buffers included);
 * - with a swap interval and Present, a PresentNotifyMSC for the retrace due is waited for
 *   before the put (pacing: the one wait of such a frame, bounded).
 * Every request goes through the display's xcb connection, checked (pixels_checked.c: the inside
 * of a transport, pixels_xfer.h, is shared with it), and each checked request's
 * cookie is kept until it is answered (its error, or a later reply, comes in: every fence is
 * such a reply): an error is heard however late it comes, logged (a drawable gone, and what
 * follows from it, at level info; the rest rate-limited at level warn), and either marks the
 * drawable gone or, for an MIT-SHM error that says it cannot work here, turns the transport
 * (and the display) to PutImage; nothing reaches the application's X error handler, with no
 * hook on the display. A segment the transport lets go (a resize) stays mapped until the
 * server has answered its ShmAttach: it is marked for removal from the start, so without our
 * mapping an attach still queued (a server grabbed by another client) would find it gone, and
 * the frames put from it would be lost. Present's events are read only as far as libxcb's
 * buffer of them goes, and a CompleteNotify counts only as the answer to the PresentNotifyMSC
 * awaited. A connection that died goes to Xlib's I/O error handler at the next frame (an
 * XFlush), as at any Xlib call.
 * The display's side (what it has, the MIT-SHM test, waiting for a reply without xcb's queue of
 * readers) is pixels_server.c's. A transport is used by one thread at a time, the one that
 * claimed its drawable (glmux_pixels_drawable_claim, pixels_vendor.c); it takes no lock.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <time.h>

#include <X11/Xlibint.h>
#include <GL/glxproto.h>

#include "pixels/pixels_config.h"
#include "pixels/pixels_frame.h"
#include "pixels/pixels_present.h"
#include "pixels/pixels_records.h"
#include "pixels/pixels_resolve.h"
#include "pixels/pixels_server.h"
#include "pixels/pixels_xfer.h"
#include "pixels/pixels_xlibs.h"
#include "util/log.h"

/* The largest PutImage request sent, in 4-byte words (Xlib's XPutImage's too). */
#define PUT_MAX_WORDS 65536
/* The longest a paced frame waits for its retrace, in milliseconds per swap interval. */
#define PACE_MS_PER_INTERVAL 1000
/* Segments let go and still waiting for their attach's answer (a window resized again and again
 * while the server runs none of our requests, XGrabServer): past this many, the transport waits
 * for the server (one round trip) before it makes more. */
#define RETIRED_MAX 8

static struct glmux_pixels_stats stats;

/* ---- Present ---- */

/*
 * Present's requests, all in one place: a build without <xcb/present.h> (pixels.h) has none of
 * them, and there pd->present is false (pixels_server.c), so nothing below asks for them.
 * Its events are read by glmux_pixels_heard_event (pixels_frame.c), which needs no header.
 */
#if GLMUX_PIXELS_PRESENT
/* Asks for the window's ConfigureNotify and CompleteNotify events, queued for us alone. */
static void present_listen(const struct glmux_pixels_xlibs *xl, struct glmux_pixels_xfer *x)
{
    x->h.eid = xl->generate_id(x->c);
    glmux_pixels_checked_add(
        x,
        xl->present_select_input_checked(x->c, x->h.eid, x->target,
                                         XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY |
                                             XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY)
            .sequence,
        GLMUX_PIXELS_REQ_DRAWABLE);
    x->special = xl->register_for_special_xge(x->c, xl->present_id, x->h.eid, NULL);
    x->h.sized_by_events = x->special != NULL;
}

/* Stops the window's events (the transport is freed: an error, the window gone, is not ours
 * to hear any more). */
static void present_unlisten(const struct glmux_pixels_xlibs *xl, struct glmux_pixels_xfer *x)
{
    xl->discard_reply(x->c, xl->present_select_input_checked(x->c, x->h.eid, x->target, 0)
                                .sequence);
}

/* PresentNotifyMSC for retrace msc (0: the next one), tagged with x->h.serial. */
static void present_notify(const struct glmux_pixels_xlibs *xl, struct glmux_pixels_xfer *x,
                           uint64_t msc)
{
    glmux_pixels_checked_add(
        x, xl->present_notify_msc_checked(x->c, x->target, x->h.serial, msc, 0, 0).sequence,
        GLMUX_PIXELS_REQ_DRAWABLE);
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
                                                enum glmux_pixels_fit *fit, char *why,
                                                size_t why_size)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    struct present_display *pd = glmux_pixels_present_of(dpy);
    Window config_root;
    struct glmux_pixels_xfer *x;
    xcb_get_geometry_reply_t *g;
    int error = 0;

    *fit = GLMUX_PIXELS_GONE;
    snprintf(why, why_size, "out of memory, or no libX11-xcb");
    if (pd == NULL || (x = calloc(1, sizeof(*x))) == NULL)
        return NULL;
    x->dpy = dpy;
    x->pd = pd;
    x->c = pd->xcb;
    x->target = (xcb_drawable_t)target;
    x->h.window = (uint32_t)target;
    x->window = window;
    x->good_width = x->good_height = 1;
    /* Present's events first, so that no size change between the two is missed. */
    if (window && pd->present)
        present_listen(xl, x);
    if ((g = glmux_pixels_geometry_now(pd, target, &error)) == NULL) {
        if (error != 0)
            snprintf(why, why_size, "the X server has no %s 0x%lx (GetGeometry: X error %d, "
                     "%s)", window ? "window" : "pixmap", (unsigned long)target, error,
                     glmux_pixels_error_name(error));
        else
            snprintf(why, why_size, "GetGeometry of %s 0x%lx got no answer (the X connection "
                     "is lost)", window ? "window" : "pixmap", (unsigned long)target);
        glmux_pixels_xfer_free(x);
        return NULL;
    }
    config_root = RootWindow(dpy, config->screen);
    *fit = glmux_pixels_fit(dpy, config, config_root, g->root, g->depth);
    if (*fit != GLMUX_PIXELS_FITS) {
        if (g->root != config_root)
            snprintf(why, why_size, "%s 0x%lx is on another screen than FBConfig 0x%x (screen "
                     "%d)", window ? "window" : "pixmap", (unsigned long)target, config->id,
                     config->screen);
        else if (g->depth != config->depth)
            snprintf(why, why_size, "%s 0x%lx has depth %u, FBConfig 0x%x's visual depth %d",
                     window ? "window" : "pixmap", (unsigned long)target, g->depth, config->id,
                     config->depth);
        else
            snprintf(why, why_size, "the X server stores depth %u (%s 0x%lx) in other than 32 "
                     "bits a pixel, which FBConfig 0x%x's frames are", g->depth,
                     window ? "window" : "pixmap", (unsigned long)target, config->id);
        free(g);
        glmux_pixels_xfer_free(x);
        return NULL;
    }
    x->depth = g->depth;
    x->h.width = g->width;
    x->h.height = g->height;
    free(g);
    return x;
}

/* Lets a segment go: unmapped now if the server has answered its attach, else kept mapped (in
 * x->retired) until it has (retired_release). False when there is no room to keep it: the
 * caller waits for the server first. */
static bool segment_retire(struct glmux_pixels_xfer *x, const struct glmux_pixels_buffer *b)
{
    if (glmux_pixels_checked_answered(x, b->attach)) {
        shmdt(b->data);
        return true;
    }
    if (x->nretired == x->retired_cap) {
        int cap = x->retired_cap > 0 ? x->retired_cap * 2 : 4;
        struct retired *more = realloc(x->retired, sizeof(*more) * (size_t)cap);

        if (more == NULL)
            return false;
        x->retired = more;
        x->retired_cap = cap;
    }
    x->retired[x->nretired++] = (struct retired){ b->data, b->attach };
    return true;
}

static void hear(struct glmux_pixels_xfer *x);

/* Waits until the server has answered every request of the transport sent so far (one round
 * trip; none on a connection that died), and takes the answers in. */
static void server_caught_up(struct glmux_pixels_xfer *x)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    xcb_generic_error_t *err = NULL;

    /* Any reply will do: it comes after the answers of everything sent before it. */
    free(glmux_pixels_reply_wait(xl, x->c, xl->get_geometry(x->c, x->target).sequence, &err));
    free(err);
    hear(x);
}

/* Frees the buffers; the detaches' errors are heard (checked) while the transport lives on
 * (keep_checking), and a segment is unmapped only once the server has answered its attach. */
static void buffers_free(struct glmux_pixels_xfer *x, bool keep_checking)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();

    for (int i = 0; i < 2; i++) {
        struct glmux_pixels_buffer *b = &x->buf[i];

        if (b->seg != 0) {
            /* The server detaches after the puts before this. */
            unsigned int seq = xl->shm_detach_checked(x->c, b->seg).sequence;

            if (keep_checking)
                glmux_pixels_checked_add(x, seq, GLMUX_PIXELS_REQ_SHM_DETACH);
            else
                xl->discard_reply(x->c, seq);
            if (!segment_retire(x, b)) {
                server_caught_up(x);
                shmdt(b->data);
            }
        } else {
            free(b->data);
        }
        memset(b, 0, sizeof(*b));
    }
    x->l.width = 0;
}

/* One MIT-SHM segment of the transport, its attach's answer awaited with the others. */
static bool shm_buffer(struct glmux_pixels_xfer *x, size_t size, struct glmux_pixels_buffer *b)
{
    unsigned int attach;

    /* Segments let go pile up while the server runs none of our requests (a grab): wait. */
    if (x->nretired >= RETIRED_MAX)
        server_caught_up(x);
    if (!glmux_pixels_shm_segment(glmux_pixels_xlibs(), x->c, size, b, &attach))
        return false;
    glmux_pixels_checked_add(x, attach, GLMUX_PIXELS_REQ_SHM_ATTACH);
    return true;
}

/* The buffers of layout l: two MIT-SHM segments, else one block of memory; false when none. */
static bool buffers_make(struct glmux_pixels_xfer *x, const struct glmux_pixels_layout *l)
{
    buffers_free(x, true);
    x->shm = !x->h.shm_failed && glmux_pixels_shm_works(x->pd) &&
             shm_buffer(x, l->size, &x->buf[0]) && shm_buffer(x, l->size, &x->buf[1]);
    if (!x->shm) {
        buffers_free(x, true);
        if ((x->buf[0].data = malloc(l->size)) == NULL)
            return false;
    }
    x->l = *l;
    x->next = 0;
    x->put_fence[0] = x->put_fence[1] = 0;
    return true;
}

/* A GetGeometry reply (or error) for the transport: its end, or a window's size (unless
 * Present's events tell it: they may be newer than a reply read after them). */
static void geometry_heard(struct glmux_pixels_xfer *x, xcb_get_geometry_reply_t *r,
                           xcb_generic_error_t *e)
{
    bool was_gone = x->h.gone;

    glmux_pixels_heard_geometry(&x->h, r);
    if (x->h.gone && !was_gone)
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: X drawable 0x%lx is gone (GetGeometry: "
                  "%s); rendering goes on off screen", (unsigned long)x->target,
                  e != NULL ? "an X error" : "no reply");
    free(r);
    free(e);
}

/* Takes in what the server has sent (no waiting): Present events, replies, errors. */
static void hear(struct glmux_pixels_xfer *x)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    xcb_generic_event_t *ev;

    while (x->special != NULL && (ev = xl->poll_for_special_event(x->c, x->special)) != NULL) {
        glmux_pixels_heard_event(&x->h, ev);
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
    glmux_pixels_checked_heard(x);
}

/* Waits for the replies up to and including sequence seq (one round trip at most); none when
 * seq's reply was heard already (hear). The checked requests before it are answered then. */
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
    glmux_pixels_checked_heard(x);
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
 * meanwhile never answers. Each request has a serial of its own, never 0, so that neither an
 * answer that came too late nor an event the server sent unasked is taken for it.
 */
static bool pace(struct glmux_pixels_xfer *x, int interval)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    long long deadline = now_ms() + (long long)interval * PACE_MS_PER_INTERVAL;
    uint64_t before = x->h.msc;

    if (++x->h.serial == 0)
        x->h.serial = 1;
    x->h.awaiting = true;
    present_notify(xl, x, before != 0 ? before + (uint64_t)interval : 0);
    xl->flush(x->c);
    for (;;) {
        struct pollfd pfd = { xl->get_file_descriptor(x->c), POLLIN, 0 };
        long long left;

        hear(x);
        if (!x->h.awaiting || x->h.gone || xl->connection_has_error(x->c) ||
            (left = deadline - now_ms()) <= 0)
            break;
        /* Another thread may read the connection: look again at least every 5 ms. */
        poll(&pfd, 1, left < 5 ? (int)left : 5);
    }
    return !x->h.awaiting;
}

/* The size heard, if allowed; one that is not is reported once and logged: a side of 0, which
 * no X window or pixmap has (a server that says so is broken; nothing the application did, so
 * no X error), or one too large to make frames of (BadAlloc). */
static void size_check(struct glmux_pixels_xfer *x)
{
    if (glmux_pixels_size_allowed(x->h.width, x->h.height)) {
        x->good_width = x->h.width;
        x->good_height = x->h.height;
        x->too_big = false;
        return;
    }
    if (x->too_big)
        return;
    x->too_big = true;
    if (x->h.width < 1 || x->h.height < 1) {
        glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: the X server says drawable 0x%lx is "
                  "%dx%d, a size no X window or pixmap can have; it keeps frames of %dx%d",
                  (unsigned long)x->target, x->h.width, x->h.height, x->good_width,
                  x->good_height);
        return;
    }
    glmux_pixels_x_error(x->dpy, BadAlloc, -1, x->target, X_GLXSwapBuffers, X_GetGeometry,
                         "the X server says drawable 0x%lx is %dx%d; frames of more than %d "
                         "pixels a side or %u pixels in all are not made, so it keeps frames "
                         "of %dx%d", (unsigned long)x->target, x->h.width, x->h.height,
                         GLMUX_PIXELS_MAX_SIDE, GLMUX_PIXELS_MAX_PIXELS, x->good_width,
                         x->good_height);
}

void glmux_pixels_xfer_size(struct glmux_pixels_xfer *x, int *width, int *height)
{
    hear(x);
    size_check(x);
    *width = x->good_width;
    *height = x->good_height;
}

bool glmux_pixels_xfer_frame_start(struct glmux_pixels_xfer *x)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();

    if (x == NULL || x->begun)
        return false;
    x->begun = true;
    if (!x->window || x->special != NULL || x->h.gone || xl->connection_has_error(x->c)) {
        hear(x);
        return true;
    }
    /* No Present: the size now. The reply also says that the server has taken every frame
     * before, so no fence of them is waited for any more. */
    wait_for(x, ask_geometry(x));
    for (int i = 0; i < 2; i++)
        x->buf[i].fence = x->put_fence[i] = 0;
    return true;
}

bool glmux_pixels_xfer_gone(const struct glmux_pixels_xfer *x)
{
    return x == NULL || x->h.gone;
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

    if (x->shm) {
        glmux_pixels_checked_add(
            x,
            xl->shm_put_image_checked(x->c, x->target, x->gc, (uint16_t)l->width,
                                      (uint16_t)l->height, 0, 0, (uint16_t)l->width,
                                      (uint16_t)l->height, 0, 0, (uint8_t)x->depth,
                                      XCB_IMAGE_FORMAT_Z_PIXMAP, 0, b->seg, 0)
                .sequence,
            GLMUX_PIXELS_REQ_SHM_PUT);
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
    for (int y = 0; y < l->height; y += rows) {
        int n = l->height - y < rows ? l->height - y : rows;

        glmux_pixels_checked_add(
            x,
            xl->put_image_checked(x->c, XCB_IMAGE_FORMAT_Z_PIXMAP, x->target, x->gc,
                                  (uint16_t)l->width, (uint16_t)n, 0, (int16_t)y, 0,
                                  (uint8_t)x->depth, (uint32_t)(n * l->stride),
                                  (const uint8_t *)b->data + (size_t)y * (size_t)l->stride)
                .sequence,
            GLMUX_PIXELS_REQ_PUT);
    }
    return true;
}

bool glmux_pixels_present(struct glmux_pixels_drawable *d, int interval)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    struct glmux_pixels_xfer *x = d->xfer;
    struct glmux_pixels_layout l;
    struct glmux_pixels_buffer *b;
    bool paced = false, fenced;

    if (x == NULL)
        return false;
    /* A connection that died goes to Xlib's I/O error handler, as at any Xlib call. */
    if (xl->connection_has_error(x->c)) {
        XFlush(x->dpy);
        return false;
    }
    if (x->h.gone)
        return false;
    if (!glmux_pixels_xfer_frame_start(x))
        hear(x);
    x->begun = false;
    /* The frame is the surface's size; the server clips what does not fit the drawable. */
    if (x->h.gone || !glmux_pixels_layout(d->width, d->height, &l))
        return false;
    /* A segment is written again only once the server has read it (its fence answered); an
     * MIT-SHM error heard meanwhile turns the transport to PutImage. */
    if (x->shm && x->l.width == l.width && x->l.height == l.height &&
        x->buf[x->next].fence != 0) {
        wait_for(x, x->buf[x->next].fence);
        x->buf[x->next].fence = 0;
    }
    if ((x->l.width != l.width || x->l.height != l.height || (x->shm && x->h.shm_failed)) &&
        !buffers_make(x, &l))
        return false;
    if (x->gc == 0) {
        x->gc = xl->generate_id(x->c);
        glmux_pixels_checked_add(x, xl->create_gc_checked(x->c, x->gc, x->target, 0, NULL).sequence,
                                 GLMUX_PIXELS_REQ_DRAWABLE);
    }
    b = &x->buf[x->shm ? x->next : 0];
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
    if (x->h.gone || !put(x, b))
        return false;
    /* Fence the frame (waited for two frames later). A window without Present needs none: the
     * next frame's GetGeometry, waited for when it begins, is its fence. */
    fenced = !x->window || x->special != NULL;
    if (fenced && x->shm)
        b->fence = ask_geometry(x);
    else if (fenced)
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
    bool waiting;

    if (x == NULL)
        return;
    /* What has been answered is heard; the rest is the server's business now, once it has
     * answered the attaches of the segments still mapped for it (a window destroyed right
     * after a resize: one round trip). */
    glmux_pixels_checked_heard(x);
    waiting = x->nretired > 0;
    for (int i = 0; i < 2; i++)
        waiting =
            waiting || (x->buf[i].seg != 0 && !glmux_pixels_checked_answered(x, x->buf[i].attach));
    if (waiting)
        server_caught_up(x);
    buffers_free(x, false);
    for (int i = 0; i < x->nretired; i++) /* none: every attach is answered by now */
        shmdt(x->retired[i].data);
    free(x->retired);
    for (int i = 0; i < x->npending; i++)
        xl->discard_reply(x->c, x->pending[i]);
    for (int i = 0; i < x->nchecked; i++)
        xl->discard_reply(x->c, x->checked[i].seq);
    free(x->checked);
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
