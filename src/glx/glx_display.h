/* SPDX-License-Identifier: MIT */
/*
 * glmux: what libGLX knows of each X display (glx_display.c): one record per display, made on
 * first use with no lock held and published under glmux_glx_map_lock; an Xlib close hook
 * drops it.
 */
#ifndef GLMUX_GLX_DISPLAY_H
#define GLMUX_GLX_DISPLAY_H

#include <stdbool.h>

#include <X11/Xlib.h>

#include "glx/glx_vendor.h"

struct glmux_glx_display {
    struct glmux_glx_display *next;
    Display *dpy;
    /* Fixed once published: read without a lock. */
    int ext_number;                 /* XAddExtension number, for the close hook */
    bool has_glx;
    int opcode, first_event, first_error;
    bool libglvnd_ext;              /* every screen lists GLX_EXT_libglvnd */
    int screen_count;
    /* glmux_glx_map_lock: */
    glmux_glx_vendor **screen_vendor;
    bool *screen_resolved;          /* a lookup ran (successful or not): cached */
    struct glmux_ptrmap *drawables; /* XID -> vendor */
    char *client_string[3];         /* merged glXGetClientString answers */
    int server_major, server_minor; /* from X_GLXQueryVersion, 0 until asked */
};

/* The record of dpy, made on first use (Xlib is called, no lock held); NULL on allocation
 * failure. Call it without glmux_glx_map_lock. */
struct glmux_glx_display *glmux_glx_display_get(Display *dpy);
/* The published record of dpy, or NULL. glmux_glx_map_lock held. */
struct glmux_glx_display *glmux_glx_display_find_locked(Display *dpy);
/* Raises an X error on dpy as the GLX ABI describes; does nothing without GLX. */
void glmux_glx_x_error(Display *dpy, unsigned char error, XID resid, unsigned char minor,
                       bool core);

#endif /* GLMUX_GLX_DISPLAY_H */
