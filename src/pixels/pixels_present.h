/* SPDX-License-Identifier: MIT */
/*
 * glmux: a pixels-vendor drawable's frame transport (pixels_present.c): its buffers, GC and
 * what it knows of the drawable's size, the read-back and put of a frame, and the frames sent
 * so far.
 */
#ifndef GLMUX_PIXELS_PRESENT_H
#define GLMUX_PIXELS_PRESENT_H

#include "pixels/pixels.h"
#include "pixels/pixels_config.h"
#include "pixels/pixels_frame.h"
#include "pixels/pixels_records.h"

/* Frames sent so far (GLMUX_DEBUG=info prints them at XCloseDisplay; the bench reads them). */
struct glmux_pixels_stats {
    unsigned long long frames, bytes, shm_frames, paced_frames;
};

/* The functions below that change or show a drawable (its surface, its transport) are called
 * with the drawable claimed (glmux_pixels_drawable_claim), or before it is linked, or while it
 * is disposed of. */
/*
 * The transport of an X window or pixmap (target) for frames of config: asks the server once
 * (GetGeometry) whether it fits (glmux_pixels_fit) and selects Present's events of a window.
 * NULL with *fit saying why (GLMUX_PIXELS_GONE also when out of memory) and why[why_size]
 * saying it in words (what the server answered, or the depths and screens that differ).
 */
struct glmux_pixels_xfer *glmux_pixels_xfer_new(Display *dpy,
                                                const struct glmux_pixels_config *config,
                                                XID target, bool window,
                                                enum glmux_pixels_fit *fit, char *why,
                                                size_t why_size);
/* Frees a transport: its buffers, GC, Present selection and the replies still awaited. */
void glmux_pixels_xfer_free(struct glmux_pixels_xfer *x);
/* Links x (NULL: nothing) in front of *list, to be freed by glmux_pixels_xfer_free_chain once
 * a lock is dropped. */
void glmux_pixels_xfer_chain(struct glmux_pixels_xfer *x, struct glmux_pixels_xfer **list);
void glmux_pixels_xfer_free_chain(struct glmux_pixels_xfer *list);
/* The drawable's size as last heard (events and replies taken in without waiting). A size
 * above glmux_pixels_size_allowed is reported once (BadAlloc, and logged) and not used: the
 * last allowed size (1 x 1 before any) is returned instead. */
void glmux_pixels_xfer_size(struct glmux_pixels_xfer *x, int *width, int *height);
/* A frame of the window begins (the first glClear since it was last shown): true the first time
 * since then. Its size is brought up to date first: from Present's events, or, without Present,
 * a GetGeometry waited for (one round trip a frame, which is also the frame's fence), so that
 * the frame after a resize is drawn at the new size. */
bool glmux_pixels_xfer_frame_start(struct glmux_pixels_xfer *x);
/* Whether the X drawable is gone (an error named it). */
bool glmux_pixels_xfer_gone(const struct glmux_pixels_xfer *x);
/* Whether frames of this drawable can be paced (a window on a server with Present). */
bool glmux_pixels_xfer_paced(const struct glmux_pixels_xfer *x);
/* Reads the current draw surface (d's) back and puts it into d's X drawable, paced to every
 * interval-th retrace when interval > 0 and Present can; false when nothing was sent. */
bool glmux_pixels_present(struct glmux_pixels_drawable *d, int interval);
void glmux_pixels_stats_get(struct glmux_pixels_stats *out);

#endif /* GLMUX_PIXELS_PRESENT_H */
