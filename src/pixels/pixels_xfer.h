/* SPDX-License-Identifier: MIT */
/*
 * glmux: the inside of a pixels-vendor drawable's frame transport, shared by the two files that
 * work on it: pixels_present.c (buffers, sizes, Present, the put of a frame) and
 * pixels_checked.c (the checked requests in flight, their errors heard and logged, and the
 * segments kept mapped until the server has answered their attach). No other file includes it:
 * the rest of the vendor sees the transport through pixels_present.h.
 */
#ifndef GLMUX_PIXELS_XFER_H
#define GLMUX_PIXELS_XFER_H

#include <stdbool.h>

#include "pixels/pixels_present.h"

/* GetGeometry requests in flight per drawable (more: the oldest is waited for). */
#define XFER_PENDING 4

/* A checked request whose answer (its error, or none) has not come in yet. */
struct checked {
    unsigned int seq;
    enum glmux_pixels_request req;
};

/* An MIT-SHM segment the transport no longer uses, still mapped here until the server has
 * answered its ShmAttach: it is marked for removal, so it would be gone with our mapping, and
 * an attach the server runs after that fails (BadAccess) and loses the frames put from it. */
struct retired {
    char *data;
    unsigned int attach;
};

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
    struct glmux_pixels_buffer buf[2]; /* MIT-SHM: both, in turn; else buf[0] */
    int next;               /* the buffer (MIT-SHM) or put_fence (PutImage) of the next frame */
    unsigned int put_fence[2]; /* PutImage: the GetGeometry sent after each of the last two */
    unsigned int pending[XFER_PENDING]; /* GetGeometry sequence numbers, oldest first */
    int npending;
    struct checked *checked; /* checked requests not answered yet, oldest first */
    int nchecked, checked_cap;
    struct retired *retired; /* segments let go whose ShmAttach is not answered yet */
    int nretired, retired_cap;
    struct glmux_pixels_heard h; /* what the server said: size, gone, MIT-SHM, retraces */
    int good_width, good_height; /* the last size within glmux_pixels_size_allowed */
    bool too_big;           /* the size heard last is not: reported once */
    bool begun;             /* a frame began (glmux_pixels_xfer_frame_start) since the last put */
    xcb_special_event_t *special; /* Present's events of this window (NULL: none) */
    struct glmux_pixels_xfer *chain; /* glmux_pixels_xfer_chain's list */
};

/* Whether the server has answered the checked request seq (it is no longer awaited). */
bool glmux_pixels_checked_answered(const struct glmux_pixels_xfer *x, unsigned int seq);
/* Takes in the answers of the checked requests answered so far, in the order sent, and unmaps
 * the segments whose attach is answered. */
void glmux_pixels_checked_heard(struct glmux_pixels_xfer *x);
/* Keeps the cookie of a checked request until it is answered (glmux_pixels_checked_heard). */
void glmux_pixels_checked_add(struct glmux_pixels_xfer *x, unsigned int seq,
                              enum glmux_pixels_request req);

#endif /* GLMUX_PIXELS_XFER_H */
