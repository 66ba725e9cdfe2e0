/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels vendor's one record per X display (pixels_display.c): the slots of the
 * modules' parts, each made by its module on first use and closed and freed with the display.
 */
#ifndef GLMUX_PIXELS_DISPLAY_H
#define GLMUX_PIXELS_DISPLAY_H

#include "pixels/pixels.h"

/* The modules' parts of a display's record, in the order they are closed and freed. */
enum glmux_pixels_part {
    GLMUX_PIXELS_PART_RECORDS,  /* pixels_records.c: the display's drawables (closed first) */
    GLMUX_PIXELS_PART_CONFIGS,  /* pixels_config.c: FB configs and visuals (configs_lock) */
    GLMUX_PIXELS_PART_SERVER,   /* pixels_server.c: struct present_display */
    GLMUX_PIXELS_PARTS
};

/* What a part's module gives with it. */
struct glmux_pixels_part_ops {
    /* Makes the part: no lock held, X requests allowed; NULL when there can be none. */
    void *(*make)(Display *dpy);
    /* XCloseDisplay (the connection still open), before any part is freed; NULL: nothing. */
    void (*closed)(Display *dpy, void *part);
    /* Frees the part, with no Xlib call (display closed, or the vendor unloaded); NULL: nothing.
     * Also a part made by a thread that was not the first. */
    void (*free)(void *part);
};

/* dpy's part which, made by ops->make on first use (and the display's record with it: X
 * requests; the caller holds none of the vendor's locks); NULL when there is none. It lives
 * until the display is closed. */
void *glmux_pixels_display_part(Display *dpy, enum glmux_pixels_part which,
                                const struct glmux_pixels_part_ops *ops);
/* dpy's part which if it was made; makes nothing. */
void *glmux_pixels_display_part_find(Display *dpy, enum glmux_pixels_part which);

/* libGLX_glmux-pixels.so.0 unloads (or the process exits): the close hook on every display
 * removed; the records freed too when free_records (no context of the vendor is current). */
void glmux_pixels_display_fini(bool free_records);

#endif /* GLMUX_PIXELS_DISPLAY_H */
