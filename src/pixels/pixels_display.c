/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels vendor's one record per X display. It owns the vendor's one Xlib extension
 * record on the display (XAddExtension), so one close hook frees everything the vendor knows of
 * the display; it holds the display's FB configs (pixels_config.c) and what the frame transport
 * knows of the server (pixels_server.c), each guarded by its own module's lock. Made on first
 * use, outside every lock (XAddExtension and the modules' server queries are X requests); when
 * two threads make one at once, the first linked wins and the other is dropped before its hook
 * is set.
 *
 * `displays_lock` guards the list only and is a leaf: nothing else is locked, and nothing is
 * called, while it is held. The close hook runs inside XCloseDisplay (the connection still
 * open): it unlinks the record under displays_lock, releases it, and only then forgets the
 * display's drawables (glmux_pixels_drawables_display_closed: a later display at the same
 * address, with windows of the same XIDs, finds nothing of the old one) and frees the modules'
 * parts.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include <X11/Xlibint.h>

#include "pixels/pixels.h"
#include "util/exiting.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/log.h"

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

struct glmux_pixels_display *glmux_pixels_display_find(Display *dpy)
{
    struct glmux_pixels_display *r;

    pthread_mutex_lock(&displays_lock);
    r = find_locked(dpy);
    pthread_mutex_unlock(&displays_lock);
    return r;
}

static void record_free(struct glmux_pixels_display *r)
{
    glmux_pixels_config_display_free(r->configs);
    glmux_pixels_present_display_free(r->present);
    free(r);
}

static int close_hook(Display *dpy, XExtCodes *codes)
{
    struct glmux_pixels_display *r = NULL;
    struct glmux_pixels_stats st;

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
    glmux_pixels_stats_get(&st);
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: display %s closed; %llu frame(s) sent so far "
              "in this process (%llu with XShmPutImage, %llu paced by Present), %llu bytes of "
              "pixels over the connection", DisplayString(dpy), st.frames, st.shm_frames,
              st.paced_frames, st.bytes);
    glmux_pixels_drawables_display_closed(dpy);
    if (r != NULL)
        record_free(r);
    return 0;
}

struct glmux_pixels_display *glmux_pixels_display_get(Display *dpy)
{
    struct glmux_pixels_display *r = glmux_pixels_display_find(dpy), *first;
    XExtCodes *codes = NULL;

    if (r != NULL || dpy == NULL)
        return r;
    GLMUX_ASSERT_UNLOCKED(&displays_lock);
    r = calloc(1, sizeof(*r));
    if (r == NULL)
        return NULL;
    r->dpy = dpy;
    r->configs = glmux_pixels_config_display_new(dpy);
    r->present = glmux_pixels_present_display_new(dpy);
    if (r->configs == NULL || (codes = XAddExtension(dpy)) == NULL) {
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
