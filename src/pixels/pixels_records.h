/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels vendor's context and drawable records (pixels_records.c): the records, their
 * lists and lock, their references and the drawables' claims, the sweep of drawables whose X
 * window or pixmap is gone, and each thread's current context and drawables.
 */
#ifndef GLMUX_PIXELS_RECORDS_H
#define GLMUX_PIXELS_RECORDS_H

#include "pixels/pixels.h"
#include "pixels/pixels_config.h"

/* What a drawable record is made for. */
enum glmux_pixels_kind { GLMUX_PIXELS_WINDOW, GLMUX_PIXELS_PIXMAP, GLMUX_PIXELS_PBUFFER };

struct glmux_pixels_xfer;

/* A GLX window, pixmap or pbuffer, or an X window used directly: its EGL surface and frame
 * transport. */
struct glmux_pixels_drawable {
    struct glmux_pixels_drawable *next;
    Display *dpy;
    XID xid;                /* the GLX drawable (an X window used directly, or our own XID) */
    XID target;             /* the X window or pixmap we put pixels into; None for pbuffers */
    enum glmux_pixels_kind kind;
    /* config points at own_config, surface_config at own_surface_config: copies the drawable
     * owns, so that no pointer outlives the context or display it was taken from (a window
     * used directly takes its config from the context that first made it current, and its
     * surface's from the context current with it; both may be destroyed before it). */
    struct glmux_pixels_config *config;
    struct glmux_pixels_config own_config;
    EGLSurface surface;
    const struct glmux_pixels_config *surface_config; /* the config surface was made for */
    struct glmux_pixels_config own_surface_config;
    int width, height;      /* the surface's */
    int current;            /* references (the vendor's lock): threads that have it current
                               (draw or read), are making it current, or present it */
    bool destroyed;         /* glXDestroy* ran while current: freed at release */
    pthread_t owner;        /* the thread that claimed it (glmux_pixels_drawable_claim) */
    int claims;             /* its claims: the surface and transport fields, and the X and EGL
                               calls that change or show them, belong to the claiming thread */
    bool swap_pending;      /* glXSwapBuffers from another thread: the owner presents it */
    bool filled;            /* a pixmap's surface holds the X pixmap's contents */
    int swap_interval;      /* GLX_EXT_swap_control (0: frames are not paced) */
    struct glmux_pixels_xfer *xfer; /* its frame transport (windows and pixmaps) */
    unsigned long event_mask;
    int tex_format, tex_target;   /* GLX_EXT_texture_from_pixmap: pixmaps only (0: none) */
};

/* A GLX context: an EGL context of the EGL vendor (its address is the GLXContext handle). */
struct glmux_pixels_context {
    struct glmux_pixels_context *next;
    EGLContext egl;
    /* own_config, a copy of its FBConfig: the display's configs go when it closes, and a
     * context may outlive it (made current on another connection, queried, destroyed). NULL
     * for a context made without one (GLX_EXT_no_config_context): a drawable's own config
     * makes its surface. */
    struct glmux_pixels_config *config;
    struct glmux_pixels_config own_config;
    int screen;
    EGLenum api;            /* EGL_OPENGL_API, or EGL_OPENGL_ES_API (an ES profile) */
    bool release_none;      /* GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB: no flush when released */
    int current;            /* threads that have it current */
    bool destroyed;
};

/* A thread's current context and drawables (NULL: none). */
struct glmux_pixels_current {
    struct glmux_pixels_context *ctx;
    struct glmux_pixels_drawable *draw, *read;
};

/* The lock over the vendor's context and drawable lists, their counts and the drawables'
 * claims; never held across an X, EGL or GL call. */
void glmux_pixels_lock(void);
void glmux_pixels_unlock(void);
/* The context with handle ctx (lock held), or NULL; also when it was destroyed. */
struct glmux_pixels_context *glmux_pixels_context_find(GLXContext ctx);
/* Lists a context made with no lock held (lock held). */
void glmux_pixels_context_link(struct glmux_pixels_context *c);
/* Takes c off the list, to be freed by glmux_pixels_free_released (lock held). */
void glmux_pixels_context_queue_free(struct glmux_pixels_context *c);
/* Drops a reference on c (NULL is fine; lock held); a context destroyed meanwhile goes with the
 * last one. */
void glmux_pixels_context_release(struct glmux_pixels_context *c);
/* Whether no context of the vendor is current, or being made current, anywhere. */
bool glmux_pixels_contexts_idle(void);
/* The drawable of dpy with GLX XID xid (lock held), or NULL. */
struct glmux_pixels_drawable *glmux_pixels_drawable_find(Display *dpy, XID xid);
/* Before the first record of dpy's drawables is made (no lock held): dpy's close will forget
 * them (the records part of its record, pixels_display.c); false when out of memory. */
bool glmux_pixels_drawables_watch(Display *dpy);
/* A record not yet listed (no lock needed): its creator fills it in, then lists it with
 * glmux_pixels_drawable_link. NULL when out of memory. */
struct glmux_pixels_drawable *glmux_pixels_drawable_new(Display *dpy, XID xid, XID target,
                                                        enum glmux_pixels_kind kind,
                                                        const struct glmux_pixels_config *config);
/* Lists d (lock held). */
void glmux_pixels_drawable_link(struct glmux_pixels_drawable *d);
/* Takes d off the list, to be freed by glmux_pixels_free_released (lock held). */
void glmux_pixels_drawable_queue_free(struct glmux_pixels_drawable *d);
/* Drops a reference (d->current) taken under the lock; a drawable destroyed meanwhile and now
 * unused is set aside (lock held), to be freed by glmux_pixels_free_released (no lock held),
 * which frees contexts set aside too. */
void glmux_pixels_drawable_release(struct glmux_pixels_drawable *d);
void glmux_pixels_free_released(void);
/* Frees the records of dpy's windows and pixmaps that are current nowhere and whose X drawable
 * is gone (XDestroyWindow, XFreePixmap: asked with one GetGeometry each, one round trip in
 * all), and of X windows used directly and current nowhere beyond the few used last. No lock
 * held; called when a record is made and when a context is destroyed. */
void glmux_pixels_drawables_sweep(Display *dpy);
/*
 * Claims referenced drawables for the calling thread (NULL or the same one twice is fine): their
 * surface and transport fields, and the X and EGL calls that change or show them, are then this
 * thread's until glmux_pixels_drawable_unclaim. Waits while another thread holds one (it makes
 * no call back into this vendor meanwhile); re-entrant in one thread; two are claimed in address
 * order, so two threads claiming the same pair never wait for each other. No lock held.
 */
void glmux_pixels_drawable_claim(struct glmux_pixels_drawable *a, struct glmux_pixels_drawable *b);
void glmux_pixels_drawable_unclaim(struct glmux_pixels_drawable *a,
                                   struct glmux_pixels_drawable *b);
/* The same for one drawable, the lock held (it is released while waiting). */
void glmux_pixels_drawable_claim_locked(struct glmux_pixels_drawable *d);
/* The calling thread's current context and drawables. */
void glmux_pixels_current_get(struct glmux_pixels_current *out);
/* Makes c, d and r (references taken under the lock) the calling thread's current context and
 * drawables; the references it held before are dropped (lock held): what was destroyed
 * meanwhile is set aside for glmux_pixels_free_released. All NULL: nothing current. */
void glmux_pixels_current_set(struct glmux_pixels_context *c, struct glmux_pixels_drawable *d,
                              struct glmux_pixels_drawable *r);

#endif /* GLMUX_PIXELS_RECORDS_H */
