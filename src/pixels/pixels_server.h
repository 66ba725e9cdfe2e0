/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels vendor's questions to an X server and what its frame transport keeps of
 * each display (pixels_server.c): GLX error codes, byte order, Present, the MIT-SHM test and
 * segments, replies waited for without xcb's queue of readers, and the X errors the vendor
 * reports to the application.
 */
#ifndef GLMUX_PIXELS_SERVER_H
#define GLMUX_PIXELS_SERVER_H

#include "pixels/pixels.h"
#include "pixels/pixels_xlibs.h"

/* What we know of one X display (its record's present part, pixels_display.c and
 * pixels_server.c). Written before the record is listed, then read only: all but the MIT-SHM
 * state (shm_lock). */
struct present_display {
    Display *dpy;
    xcb_connection_t *xcb;
    int glx_opcode;         /* 0: no GLX extension (the major code of the errors we report) */
    int glx_error;          /* the GLX extension's first error code */
    bool present;           /* Present 1.0 or later, and libxcb-present */
    int order;              /* the server's image byte order */
    int shm_state;          /* 0 untested, 1 works, -1 does not (shm_lock) */
    bool shm_testing;       /* a thread is testing it; the others put meanwhile (shm_lock) */
};

/* A frame buffer of a transport: an MIT-SHM segment, or plain memory. */
struct glmux_pixels_buffer {
    char *data;             /* the frame's pixels (l.size bytes); NULL: none */
    int shmid;
    xcb_shm_seg_t seg;      /* 0: plain memory */
    unsigned int attach;    /* the sequence number of its ShmAttach (checked) */
    unsigned int fence;     /* the GetGeometry sent after its last put (0: none pending) */
};

/* The window or pixmap's size (one round trip); false when it is gone (the error is ours). */
bool glmux_pixels_geometry(Display *dpy, XID target, int *w, int *h, int *depth);
/* The X pixmap's w x h contents (its depth must be 24 or 32, in 32 bits a pixel) as an XImage of
 * 32-bit B, G, R, A bytes, opaque where it has no alpha (XDestroyImage it); NULL when it cannot
 * be read (the error is ours). One round trip. */
XImage *glmux_pixels_pixmap_bgra(Display *dpy, Pixmap pixmap, int w, int h);
/* Reports an X error to the application's error handler, as the server would for a GLX request:
 * the GLX error glx_code (>= 0) when the server has the GLX extension, else the core error code;
 * major code the server's GLX extension, minor code glx_minor (on any server, so a handler can
 * tell the GLX call). On a server without GLX no request of the vendor's failed: the major code
 * is core_request, the core request whose answer told the vendor (X_GetGeometry: whether the
 * drawable exists, its root, depth and size), or X_NoOperation when none did (a GLX drawable
 * the vendor does not know, a bad value), so that Xlib's default handler names a request that
 * exists. What happened (fmt...) is logged: at level info for a drawable that does not exist
 * (BadWindow, BadPixmap, BadDrawable), else at level warn (the first 16 of a process). */
void glmux_pixels_x_error(Display *dpy, unsigned char code, int glx_code, XID resource,
                          int glx_minor, int core_request, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* The name of a core X error code ("BadWindow"), or "an extension's error". */
const char *glmux_pixels_error_name(int code);
/* The transport's part of dpy's record (made on first use: X requests, no lock held); NULL
 * without libX11-xcb, or when out of memory. */
struct present_display *glmux_pixels_present_of(Display *dpy);
/* The reply (or error, *err when err is not NULL) to request seq on c, waited for without
 * entering xcb's queue of waiting readers (pixels_server.c); NULL when there is none. */
void *glmux_pixels_reply_wait(const struct glmux_pixels_xlibs *xl, xcb_connection_t *c,
                              unsigned int seq, xcb_generic_error_t **err);
/* GetGeometry of target, answered now; NULL when it is gone (the error is ours), with the X
 * error code in *error (when error is not NULL; 0: no answer, the connection died). */
xcb_get_geometry_reply_t *glmux_pixels_geometry_now(struct present_display *pd, XID target,
                                                    int *error);
/* A private MIT-SHM segment of size bytes attached here, into *b, and ShmAttach sent (checked:
 * its sequence in *attach, for the caller to hear); false (nothing kept) when it cannot be
 * made. It is marked for removal before the server has it where the system allows (Linux), so
 * that no process killed meanwhile leaves it behind. */
bool glmux_pixels_shm_segment(const struct glmux_pixels_xlibs *xl, xcb_connection_t *c,
                              size_t size, struct glmux_pixels_buffer *b, unsigned int *attach);
/* Whether the server can attach our shared memory (tested once per display). */
bool glmux_pixels_shm_works(struct present_display *pd);
/* An MIT-SHM request of the display failed in a way that says MIT-SHM cannot work here:
 * transports made from now on use PutImage. Whether the display had not given it up before. */
bool glmux_pixels_shm_failed(struct present_display *pd);

#endif /* GLMUX_PIXELS_SERVER_H */
