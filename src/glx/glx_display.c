/* SPDX-License-Identifier: MIT */
/*
 * glmux: what libGLX knows of each X display. A record is made on first use: GLX's opcode and
 * error base, whether every screen advertises GLX_EXT_libglvnd, and room for the screens'
 * vendors (glx_screen.c), the drawable map and the merged client strings. It is made with no
 * lock held, because making it calls Xlib (XAddExtension, XQueryExtension, a
 * GLXQueryServerString per screen), which waits while another thread holds XLockDisplay, and
 * that thread may be calling GLX; it is published under glmux_glx_map_lock with a re-check.
 * An Xlib close-display hook drops it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glx/glx_display.h"
#include "glx/glx_lock.h"
#include "glx/glx_thread.h"
#include "glx/glx_x11.h"
#include "glx/glx_x11_request.h"
#include "util/exiting.h"
#include "util/lifecycle.h"
#include "util/log.h"

static struct glmux_glx_display *displays;

static void free_display(struct glmux_glx_display *d)
{
    if (d->drawables != NULL)
        glmux_ptrmap_clear(d->drawables);
    free(d->drawables);
    free(d->screen_vendor);
    free(d->screen_resolved);
    for (int i = 0; i < 3; i++)
        free(d->client_string[i]);
    free(d);
}

struct glmux_glx_display *glmux_glx_display_find_locked(Display *dpy)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_map_lock);
    for (struct glmux_glx_display *d = displays; d != NULL; d = d->next) {
        if (d->dpy == dpy)
            return d;
    }
    return NULL;
}

/*
 * Xlib's close hook of the published record (inside XCloseDisplay): the record is unlisted
 * and the threads current on dpy forget it under the map lock, and it is freed after.
 */
static int close_display(Display *dpy, XExtCodes *codes)
{
    struct glmux_glx_display *gone = NULL;

    glmux_glx_map_acquire();
    glmux_glx_thread_display_closed_locked(dpy);
    for (struct glmux_glx_display **p = &displays; *p != NULL; p = &(*p)->next) {
        if ((*p)->dpy == dpy && (*p)->ext_number == codes->extension) {
            gone = *p;
            *p = gone->next;
            break;
        }
    }
    glmux_glx_map_release();
    if (gone != NULL)
        free_display(gone);
    return 0;
}

static bool query_libglvnd_ext(struct glmux_glx_display *d)
{
    for (int s = 0; s < d->screen_count; s++) {
        char *ext = glmux_glx_x11_query_server_string(d->dpy, d->opcode, s, GLX_EXTENSIONS);
        bool ok = glmux_words_has_str(ext, "GLX_EXT_libglvnd");

        free(ext);
        if (!ok)
            return false;
    }
    return true;
}

/*
 * A new record of dpy, not published: made with no lock of libGLX held, as libglvnd makes its
 * own, because every step calls Xlib, which waits while another thread holds XLockDisplay(dpy)
 * (and that thread may be calling GLX). Our XAddExtension record comes first, so that its error
 * hook keeps the errors of the GLX requests below from the application, and its close hook
 * drops the record once published.
 */
static struct glmux_glx_display *build(Display *dpy)
{
    struct glmux_glx_display *d = calloc(1, sizeof(*d));
    XExtCodes *codes;

    if (d == NULL)
        return NULL;
    d->dpy = dpy;
    d->screen_count = ScreenCount(dpy);
    d->screen_vendor = calloc((size_t)d->screen_count, sizeof(*d->screen_vendor));
    d->screen_resolved = calloc((size_t)d->screen_count, sizeof(*d->screen_resolved));
    d->drawables = calloc(1, sizeof(*d->drawables));
    if (d->screen_vendor == NULL || d->screen_resolved == NULL || d->drawables == NULL ||
        (codes = XAddExtension(dpy)) == NULL) {
        free_display(d);
        return NULL;
    }
    d->ext_number = codes->extension;
    /* Hooks to remove at unload, never at exit (util/exiting.h). */
    glmux_exit_watch();
    XESetCloseDisplay(dpy, codes->extension, close_display);
    XESetError(dpy, codes->extension, glmux_glx_x11_error_hook);
    d->has_glx = XQueryExtension(dpy, "GLX", &d->opcode, &d->first_event, &d->first_error);
    if (d->has_glx)
        d->libglvnd_ext = query_libglvnd_ext(d);
    return d;
}

/* Removes the hooks of a record that was not published, or is being forgotten at unload. */
static void unhook(struct glmux_glx_display *d)
{
    XESetCloseDisplay(d->dpy, d->ext_number, NULL);
    XESetError(d->dpy, d->ext_number, NULL);
}

/*
 * The published record, else one built outside the lock and published with a re-check: when
 * two threads build one for the same display, the first published wins and the other removes
 * its hooks and frees its own (its XExtCodes, with no hooks, stays in Xlib's list until
 * XCloseDisplay frees it). Its immutable fields (opcode, error base, has_glx, libglvnd_ext,
 * screen_count) may then be read without a lock; the others under the map lock.
 */
struct glmux_glx_display *glmux_glx_display_get(Display *dpy)
{
    struct glmux_glx_display *d, *fresh;

    GLMUX_ASSERT_UNLOCKED(&glmux_glx_map_lock);
    glmux_glx_map_acquire();
    d = glmux_glx_display_find_locked(dpy);
    glmux_glx_map_release();
    if (d != NULL)
        return d;

    fresh = build(dpy);
    if (fresh == NULL) {
        glmux_log(GLMUX_LOG_ERROR, "out of memory recording X display %s; GLX calls on it "
                  "fail", DisplayString(dpy));
        return NULL;
    }
    glmux_glx_map_acquire();
    d = glmux_glx_display_find_locked(dpy);
    if (d == NULL) {
        fresh->next = displays;
        displays = fresh;
        d = fresh;
        fresh = NULL;
    }
    glmux_glx_map_release();
    if (fresh != NULL) {
        unhook(fresh);
        free_display(fresh);
        return d;
    }
    glmux_log(GLMUX_LOG_VENDOR, "display %s: %s, GLX_EXT_libglvnd %s, %d screen(s)",
              DisplayString(dpy), d->has_glx ? "GLX present" : "no GLX extension",
              d->libglvnd_ext ? "yes" : "no", d->screen_count);
    return d;
}

void glmux_glx_x_error(Display *dpy, unsigned char error, XID resid, unsigned char minor,
                       bool core)
{
    struct glmux_glx_display *d;

    if (dpy == NULL || (d = glmux_glx_display_get(dpy)) == NULL || !d->has_glx)
        return;
    glmux_glx_x11_send_error(dpy, core ? error : (unsigned char)(d->first_error + error), resid,
                             (unsigned char)d->opcode, minor);
}

/* At unload: every record is unlisted under the lock, then unhooked (the display outlives
 * us: our hooks must go before our code does) and freed with none held. */
static void teardown(void)
{
    struct glmux_glx_display *list;

    glmux_glx_map_acquire();
    list = displays;
    displays = NULL;
    glmux_glx_map_release();
    while (list != NULL) {
        struct glmux_glx_display *d = list;

        list = d->next;
        unhook(d);
        free_display(d);
    }
}

GLMUX_LIFECYCLE_STEP(glx_displays, GLMUX_GLX_ORDER_DISPLAYS, .teardown = teardown);
