/* SPDX-License-Identifier: MIT */
/*
 * glmux: which vendor serves each screen of a display, and so each drawable. A screen's vendor
 * is decided once and cached, failure included (reported once, not retried), by following
 * glmux_select_glx_plan, the rule `glmux explain` shows: __GLX_FORCE_VENDOR_LIBRARY_<screen>,
 * __GLX_VENDOR_LIBRARY_NAME, the GPU selector's choice, the server's GLX_VENDOR_NAMES_EXT list
 * (with isScreenSupported), then "indirect" and Fedora's "system". The pixels vendor
 * (libGLX_glmux-pixels.so.0, docs/remote.md) is loaded like any vendor, by name; its rule
 * (glmux_select_pixels_rule, src/select/pixels_rule.h) puts it after libglvnd's variables (a
 * server without GLX; a remote connection when a local GPU renders; GLMUX_GLX_REMOTE=pixels)
 * or after the server's list, when none of its vendors serves. The decision runs with no lock
 * held. Drawables are XIDs, kept per display; one libGLX did not create is looked up through
 * the server. Adding a drawable another vendor owns fails, as the GLX vendor ABI requires.
 */
#include <stdlib.h>
#include <string.h>

#include "glx/glx_display.h"
#include "glx/glx_lock.h"
#include "glx/glx_reply.h"
#include "glx/glx_screen.h"
#include "glx/glx_selector.h"
#include "glx/glx_x11_request.h"
#include "util/log.h"

#ifndef GLX_VENDOR_NAMES_EXT
#define GLX_VENDOR_NAMES_EXT 0x20F6
#endif

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
    d = glmux_glx_display_find_locked(dpy);
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
    if (glmux_glx_display_find_locked(dpy) != d) {
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

int glmux_glx_drawable_add(Display *dpy, GLXDrawable draw, glmux_glx_vendor *vendor)
{
    struct glmux_glx_display *d;
    glmux_glx_vendor *owner;
    int ret = 0;

    if (draw == None)
        return 0;
    if (dpy == NULL || vendor == NULL)
        return -1;
    d = glmux_glx_display_get(dpy);
    glmux_glx_map_acquire();
    if (d == NULL) {
        ret = -1;
    } else {
        owner = glmux_ptrmap_get(d->drawables, draw);
        if (owner != NULL && owner != vendor)
            ret = -1;
        else if (owner == NULL && !glmux_ptrmap_put(d->drawables, draw, vendor))
            ret = -1;
    }
    glmux_glx_map_release();
    return ret;
}

void glmux_glx_drawable_remove(Display *dpy, GLXDrawable draw)
{
    struct glmux_glx_display *d;

    if (dpy == NULL || draw == None || (d = glmux_glx_display_get(dpy)) == NULL)
        return;
    glmux_glx_map_acquire();
    glmux_ptrmap_remove(d->drawables, draw);
    glmux_glx_map_release();
}

glmux_glx_vendor *glmux_glx_vendor_from_drawable(Display *dpy, GLXDrawable draw)
{
    struct glmux_glx_display *d;
    glmux_glx_vendor *vendor = NULL;
    int screen = -1;
    bool ext = false, has_glx = false;
    int opcode = 0;

    if (dpy == NULL || draw == None || (d = glmux_glx_display_get(dpy)) == NULL)
        return NULL;
    glmux_glx_map_acquire();
    vendor = glmux_ptrmap_get(d->drawables, draw);
    glmux_glx_map_release();
    if (vendor != NULL)
        return vendor;
    ext = d->libglvnd_ext;
    opcode = d->opcode;
    has_glx = d->has_glx;
    if (!has_glx)
        screen = 0;

    /* Not ours: ask the server which screen it is on, then cache the screen's vendor. */
    if (screen < 0 && has_glx)
        screen = glmux_glx_x11_drawable_screen(dpy, opcode, ext, draw);
    if (screen < 0) {
        glmux_log(GLMUX_LOG_VENDOR, "drawable 0x%lx is unknown to the server",
                  (unsigned long)draw);
        return NULL;
    }
    vendor = glmux_glx_vendor_for_screen(dpy, screen);
    if (vendor != NULL)
        glmux_glx_drawable_add(dpy, draw, vendor);
    return vendor;
}
