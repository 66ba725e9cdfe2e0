/* SPDX-License-Identifier: MIT */
/*
 * glmux: what a pixels-vendor drawable and frame may be (pixels_frame.c), apart from any X
 * request or GL call so that the fuzz target feeds it what a hostile server answers: the frame
 * layout and its bounds, whether a drawable fits a config, PutImage bands, and what a transport
 * hears (Present's events, GetGeometry replies, the errors of its checked requests).
 */
#ifndef GLMUX_PIXELS_FRAME_H
#define GLMUX_PIXELS_FRAME_H

#include "pixels/pixels.h"
#include "pixels/pixels_config.h"

/* The largest frame side (see also GLMUX_PIXELS_MAX_PIXELS): no frame is made for a larger
 * drawable (BadAlloc, glmux_pixels_xfer_size). */
#define GLMUX_PIXELS_MAX_SIDE 16384

/* A frame in memory: 32-bit pixels in the host's byte order, rows of stride bytes. */
struct glmux_pixels_layout {
    int width, height;
    int stride;             /* width * 4 */
    size_t size;            /* stride * height: every buffer of the frame has this size */
};

enum glmux_pixels_fit {
    GLMUX_PIXELS_FITS,      /* the drawable can show frames of the config */
    GLMUX_PIXELS_BAD_MATCH, /* another screen, depth or pixel format: BadMatch, as GLX */
    GLMUX_PIXELS_GONE,      /* no such window or pixmap */
};

/* The layout of a width x height frame; false unless glmux_pixels_size_allowed. */
bool glmux_pixels_layout(int width, int height, struct glmux_pixels_layout *out);
/* The bits per pixel the server stores depth in (the connection's pixmap formats); 0: none, or
 * a format with a scanline pad other than 8, 16 or 32. */
int glmux_pixels_format_bpp(Display *dpy, int depth);
/* Whether a drawable with this root and depth (the server's GetGeometry answer) can show frames
 * of config c, whose screen's root window is config_root. */
enum glmux_pixels_fit glmux_pixels_fit(Display *dpy, const struct glmux_pixels_config *c,
                                       Window config_root, Window root, int depth);
/* The rows of one PutImage request for frames of layout l when a request may have
 * max_request_words 4-byte words (the server's maximum, BIG-REQUESTS included); 0 when not
 * even one row fits. */
int glmux_pixels_band_rows(uint32_t max_request_words, const struct glmux_pixels_layout *l);
/* LSBFirst or MSBFirst: the byte order of this machine's 32-bit words. */
int glmux_pixels_host_order(void);

/* The most pixels a drawable's frame may have (256 MiB a buffer): two 8K screens side by side
 * fit; a server that answers more gets BadAlloc, not gigabytes (glmux_pixels_size_allowed). */
#define GLMUX_PIXELS_MAX_PIXELS (1u << 26)
/* Whether frames of a width x height drawable are made: both sides in 1..GLMUX_PIXELS_MAX_SIDE
 * and at most GLMUX_PIXELS_MAX_PIXELS pixels. */
bool glmux_pixels_size_allowed(int width, int height);

/* What a transport has heard of its drawable from the server (pixels_frame.c, apart from any
 * X call so that the fuzz target feeds it events, replies and errors). */
struct glmux_pixels_heard {
    uint32_t eid;           /* Present's event id of the window's events (0: none) */
    uint32_t window;        /* the window (or pixmap) */
    int width, height;      /* its size as last heard */
    bool sized_by_events;   /* Present's ConfigureNotify tells the size, not replies */
    bool gone;              /* an error named the drawable */
    bool shm_failed;        /* an MIT-SHM request failed: frames go out with PutImage */
    bool awaiting;          /* the PresentNotifyMSC tagged serial is not answered yet */
    uint32_t serial;        /* the last PresentNotifyMSC's tag (never 0 once one was sent) */
    uint64_t msc;           /* the retrace its CompleteNotify reported */
};

/* The checked requests a transport sends, by what their error means. */
enum glmux_pixels_request {
    GLMUX_PIXELS_REQ_PUT,        /* PutImage */
    GLMUX_PIXELS_REQ_SHM_PUT,    /* ShmPutImage */
    GLMUX_PIXELS_REQ_SHM_ATTACH, /* ShmAttach */
    GLMUX_PIXELS_REQ_DRAWABLE,   /* CreateGC, Present's SelectInput and NotifyMSC */
    GLMUX_PIXELS_REQ_SHM_DETACH, /* ShmDetach */
    GLMUX_PIXELS_REQ_KINDS
};

/* One of Present's events as libxcb hands it (xcb_poll_for_special_event: 32 bytes, the 4-byte
 * full sequence, then the 4 * length bytes past the first 32): ConfigureNotify sets the size,
 * the CompleteNotify of the PresentNotifyMSC awaited its retrace. One too short for its type,
 * about another window or event id, or unsolicited changes nothing. Returns whether it did. */
bool glmux_pixels_heard_event(struct glmux_pixels_heard *h, const void *ev);
/* A GetGeometry reply (NULL: an error or a connection that died, so the drawable is gone). */
void glmux_pixels_heard_geometry(struct glmux_pixels_heard *h, const xcb_get_geometry_reply_t *r);
/* The error of a checked request of kind req; true when it changed what the transport does
 * (the drawable is gone, or MIT-SHM is given up). MIT-SHM is given up only for an error that
 * says the server cannot use this process's segments: a failed ShmAttach (each segment stays
 * mapped here until the server has answered it, so no race of ours makes one fail) or a failed
 * ShmPutImage of a drawable that exists; a failed ShmDetach (a segment whose attach failed),
 * and any error once the drawable is gone, change nothing. */
bool glmux_pixels_heard_error(struct glmux_pixels_heard *h, enum glmux_pixels_request req,
                              const xcb_generic_error_t *e);

#endif /* GLMUX_PIXELS_FRAME_H */
