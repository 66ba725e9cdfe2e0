/* SPDX-License-Identifier: MIT */
/*
 * glmux: what libGLX knows of each X display, and which vendor serves each of its screens.
 *
 * A display record is made on first use: GLX's opcode and error base, whether every screen
 * advertises GLX_EXT_libglvnd, the drawable map and the merged client strings; an Xlib
 * close-display hook drops it. A screen's vendor is decided once and cached, failure included
 * (reported once, not retried) by following glmux_select_glx_plan, the rule `glmux explain`
 * shows: __GLX_FORCE_VENDOR_LIBRARY_<screen>, __GLX_VENDOR_LIBRARY_NAME, the GPU selector's
 * choice, the server's GLX_VENDOR_NAMES_EXT list (with isScreenSupported), then "indirect" and
 * Fedora's "system". The pixels vendor (libGLX_glmux-pixels.so.0, docs/remote.md) is loaded like
 * any vendor, by name; its rule (glmux_select_pixels_rule, src/select/pixels_rule.h) puts it
 * after libglvnd's variables (a server without GLX; a remote connection when a local GPU
 * renders; GLMUX_GLX_REMOTE=pixels) or after the server's list, when none of its vendors
 * serves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glx/glx_internal.h"
#include "glx/glx_reply.h"
#include "glx/glx_x11.h"
#include "select/pixels_rule.h"
#include "util/exiting.h"
#include "util/log.h"

#ifndef GLX_VENDOR_NAMES_EXT
#define GLX_VENDOR_NAMES_EXT 0x20F6
#endif

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

/* The published record of dpy, or NULL. Map lock held. */
static struct glmux_glx_display *find_locked(Display *dpy)
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
    glmux_glx_current_display_closed(dpy);
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
    d = find_locked(dpy);
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
    d = find_locked(dpy);
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

/*
 * Loads the named vendor for a screen; checks isScreenSupported when asked to. override: a
 * libglvnd variable names it (the GPU selector then sets nothing for it).
 */
static glmux_glx_vendor *try_vendor(Display *dpy, int screen, const char *name, bool check,
                                    bool override, const char *why)
{
    glmux_glx_vendor *v = glmux_glx_vendor_load(name, override);

    if (v == NULL) {
        glmux_log(GLMUX_LOG_VENDOR, "screen %d: vendor \"%s\" (%s) could not be loaded",
                  screen, name, why);
        return NULL;
    }
    if (check && !v->imports.isScreenSupported(dpy, screen)) {
        glmux_log(GLMUX_LOG_VENDOR, "screen %d: vendor \"%s\" (%s) does not support it", screen,
                  name, why);
        return NULL;
    }
    glmux_log(GLMUX_LOG_VENDOR, "screen %d of %s: vendor \"%s\" (%s)", screen,
              DisplayString(dpy), v->name, why);
    return v;
}

/* Follows the screen's plan (glmux_select_glx_screen_plan, the pixels vendor's place
 * included) until a vendor serves it. */
static glmux_glx_vendor *resolve_screen(struct glmux_glx_display *d, int screen)
{
    struct glmux_glx_screen_plan p;
    const struct glmux_glx_step *plan = p.steps;
    glmux_glx_vendor *v = NULL;

    glmux_glx_selector_plan(d->dpy, screen, d->has_glx, &p);
    glmux_log(GLMUX_LOG_VENDOR, "screen %d: the pixels vendor %s (%s)", screen,
              p.pixels == GLMUX_PIXELS_FIRST ? "comes first"
              : p.pixels == GLMUX_PIXELS_FALLBACK ? "is the fallback" : "is not tried",
              p.pixels_why);
    for (size_t i = 0; i < p.n && v == NULL; i++) {
        char *names, *cursor;

        if (plan[i].kind == GLMUX_GLX_STEP_VENDOR) {
            v = try_vendor(d->dpy, screen, plan[i].name, plan[i].check_screen, plan[i].override,
                           plan[i].why);
            continue;
        }
        if (!d->libglvnd_ext)
            continue;
        names = glmux_glx_x11_query_server_string(d->dpy, d->opcode, screen,
                                                  GLX_VENDOR_NAMES_EXT);
        glmux_log(GLMUX_LOG_VENDOR, "screen %d: the server names vendor(s) \"%s\"", screen,
                  names ? names : "");
        cursor = names;
        for (char *tok; v == NULL && (tok = glmux_glx_token_next(&cursor)) != NULL;)
            v = try_vendor(d->dpy, screen, tok, plan[i].check_screen, false, plan[i].why);
        free(names);
        /* The server's vendors are missing or refuse the screen: render here, ship pixels. */
        if (v == NULL && plan[i].fallback != NULL)
            v = try_vendor(d->dpy, screen, plan[i].fallback, true, false,
                           "no vendor the X server names can render on it");
    }
    return v;
}

/*
 * The decision runs with no lock held (it asks vendors: isScreenSupported, and may ask the X
 * server); the first decision stored is kept, and reported once.
 */
glmux_glx_vendor *glmux_glx_vendor_for_screen(Display *dpy, int screen)
{
    struct glmux_glx_display *d;
    glmux_glx_vendor *v = NULL;
    bool known = false;

    if (dpy == NULL || screen < 0)
        return NULL;
    glmux_glx_map_acquire();
    d = find_locked(dpy);
    if (d != NULL && screen < d->screen_count && d->screen_resolved[screen]) {
        v = d->screen_vendor[screen];
        known = true;
    }
    glmux_glx_map_release();
    if (known)
        return v;
    if (d == NULL && (d = glmux_glx_display_get(dpy)) == NULL)
        return NULL;
    if (screen >= d->screen_count)
        return NULL;

    v = resolve_screen(d, screen);
    glmux_glx_map_acquire();
    if (find_locked(dpy) != d) {
        /* closed meanwhile (the application's race): nothing to record */
    } else if (!d->screen_resolved[screen]) {
        d->screen_vendor[screen] = v;
        d->screen_resolved[screen] = true;
        known = true;
    } else {
        v = d->screen_vendor[screen];
    }
    glmux_glx_map_release();
    if (known && v == NULL)
        glmux_log(GLMUX_LOG_ERROR,
                  "no GLX vendor for screen %d of display %s (tried the overrides, "
                  "the server's list, glmux's pixels vendor, \"indirect\" and "
                  "\"system\"); GLX calls for it will fail. Set GLMUX_DEBUG=warn,vendor "
                  "to see why",
                  screen, DisplayString(dpy));
    return v;
}

bool glmux_glx_display_pixels(Display *dpy)
{
    glmux_glx_vendor *v = glmux_glx_vendor_for_screen(dpy, DefaultScreen(dpy));

    return v != NULL && strcmp(v->name, GLMUX_PIXELS_VENDOR_NAME) == 0;
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
void glmux_glx_display_fini(void)
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
