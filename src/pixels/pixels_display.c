/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels vendor's one record per X display. It owns the vendor's one Xlib extension
 * record on the display (XAddExtension), so one close hook frees everything the vendor knows of
 * the display. The modules keep their own parts in it (enum glmux_pixels_part: the drawables'
 * close, the FB configs of pixels_config.c, what the frame transport knows of the server,
 * pixels_server.c), each made by its module on first use and guarded by its module's lock; a
 * part brings the functions that close and free it, so this file calls no module: the modules
 * depend on it, never the other way round. Made on first use, outside every lock (XAddExtension
 * and the modules' server queries are X requests); when two threads make a record or a part at
 * once, the first installed wins and the other is dropped (a record before its hook is set).
 *
 * `displays_lock` guards the list and the parts' slots only and is a leaf: nothing else is
 * locked, and nothing is called, while it is held. The close hook runs inside XCloseDisplay
 * (the connection still open): it unlinks the record under displays_lock, releases it, then
 * calls each part's closed function in the parts' order (the drawables first: a later display
 * at the same address, with windows of the same XIDs, finds nothing of the old one) and only
 * then frees the parts.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include <X11/Xlibint.h>

#include "pixels/pixels_display.h"
#include "util/exiting.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/log.h"

struct glmux_pixels_display {
    struct glmux_pixels_display *next;
    Display *dpy;
    int ext_number;                  /* the vendor's one XAddExtension record: its close hook */
    void *parts[GLMUX_PIXELS_PARTS]; /* NULL: not made (yet); displays_lock */
    const struct glmux_pixels_part_ops *ops[GLMUX_PIXELS_PARTS];
};

static pthread_mutex_t displays_lock = PTHREAD_MUTEX_INITIALIZER;
static struct glmux_pixels_display *displays;

static struct glmux_pixels_display *find_locked(Display *dpy)
{
    GLMUX_ASSERT_LOCKED(&displays_lock);
    for (struct glmux_pixels_display *r = displays; r != NULL; r = r->next) {
        if (r->dpy == dpy)
            return r;
    }
    return NULL;
}

static struct glmux_pixels_display *display_find(Display *dpy)
{
    struct glmux_pixels_display *r;

    pthread_mutex_lock(&displays_lock);
    r = find_locked(dpy);
    pthread_mutex_unlock(&displays_lock);
    return r;
}

/* Frees the parts (no lock held, no Xlib call), then the record. */
static void record_free(struct glmux_pixels_display *r)
{
    for (int i = 0; i < GLMUX_PIXELS_PARTS; i++) {
        if (r->parts[i] != NULL && r->ops[i]->free != NULL)
            r->ops[i]->free(r->parts[i]);
    }
    free(r);
}

static int close_hook(Display *dpy, XExtCodes *codes)
{
    struct glmux_pixels_display *r = NULL;

    (void)codes;
    pthread_mutex_lock(&displays_lock);
    for (struct glmux_pixels_display **p = &displays; *p != NULL; p = &(*p)->next) {
        if ((*p)->dpy == dpy) {
            r = *p;
            *p = r->next;
            break;
        }
    }
    pthread_mutex_unlock(&displays_lock);
    if (r == NULL)
        return 0;
    for (int i = 0; i < GLMUX_PIXELS_PARTS; i++) {
        if (r->parts[i] != NULL && r->ops[i]->closed != NULL)
            r->ops[i]->closed(dpy, r->parts[i]);
    }
    record_free(r);
    return 0;
}

/* The record of dpy, made on first use (X requests: the caller holds none of the vendor's
 * locks); NULL when out of memory. It lives until the display is closed. */
static struct glmux_pixels_display *display_get(Display *dpy)
{
    struct glmux_pixels_display *r = display_find(dpy), *first;
    XExtCodes *codes = NULL;

    if (r != NULL || dpy == NULL)
        return r;
    GLMUX_ASSERT_UNLOCKED(&displays_lock);
    r = calloc(1, sizeof(*r));
    if (r == NULL)
        return NULL;
    r->dpy = dpy;
    if ((codes = XAddExtension(dpy)) == NULL) {
        glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: out of memory recording display %s",
                  DisplayString(dpy));
        record_free(r);
        return NULL;
    }
    r->ext_number = codes->extension;
    pthread_mutex_lock(&displays_lock);
    first = find_locked(dpy);
    if (first == NULL) {
        r->next = displays;
        displays = r;
    }
    pthread_mutex_unlock(&displays_lock);
    if (first != NULL) {
        record_free(r); /* another thread was first; this extension record stays unused */
        return first;
    }
    /* The record goes when the display closes (XCloseDisplay calls the hook); the hook is
     * removed at unload, never at exit (util/exiting.h). */
    glmux_exit_watch();
    XESetCloseDisplay(dpy, r->ext_number, close_hook);
    return r;
}

void *glmux_pixels_display_part(Display *dpy, enum glmux_pixels_part which,
                                const struct glmux_pixels_part_ops *ops)
{
    struct glmux_pixels_display *r = display_get(dpy);
    void *part, *made;

    if (r == NULL)
        return NULL;
    pthread_mutex_lock(&displays_lock);
    part = r->parts[which];
    pthread_mutex_unlock(&displays_lock);
    if (part != NULL)
        return part;
    GLMUX_ASSERT_UNLOCKED(&displays_lock);
    if ((made = ops->make(dpy)) == NULL)
        return NULL;
    pthread_mutex_lock(&displays_lock);
    if ((part = r->parts[which]) == NULL) {
        r->parts[which] = part = made;
        r->ops[which] = ops;
        made = NULL;
    }
    pthread_mutex_unlock(&displays_lock);
    if (made != NULL && ops->free != NULL)
        ops->free(made); /* another thread was first */
    return part;
}

void *glmux_pixels_display_part_find(Display *dpy, enum glmux_pixels_part which)
{
    struct glmux_pixels_display *r;
    void *part = NULL;

    pthread_mutex_lock(&displays_lock);
    if ((r = find_locked(dpy)) != NULL)
        part = r->parts[which];
    pthread_mutex_unlock(&displays_lock);
    return part;
}

/* Before fork the lock is taken on the forking thread, so that the child finds it free. */
static void displays_fork(enum glmux_fork_step step)
{
    glmux_fork_mutex(&displays_lock, step);
}

GLMUX_LIFECYCLE_STEP(pixels_displays, GLMUX_PIXELS_ORDER_DISPLAYS, .fork = displays_fork);

void glmux_pixels_display_fini(bool free_records)
{
    struct glmux_pixels_display *list;

    pthread_mutex_lock(&displays_lock);
    list = displays;
    if (free_records)
        displays = NULL;
    pthread_mutex_unlock(&displays_lock);
    for (struct glmux_pixels_display *r = list, *next; r != NULL; r = next) {
        next = r->next;
        /* The display outlives this library: no hook may call into it once it is unmapped. */
        XESetCloseDisplay(r->dpy, r->ext_number, NULL);
        if (free_records)
            record_free(r);
    }
}
