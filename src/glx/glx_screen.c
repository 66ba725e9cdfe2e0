/* SPDX-License-Identifier: MIT */
/*
 * glmux: which vendor serves each screen of a display, and so each drawable. A screen's vendor
 * is decided once and cached, failure included (reported once, not retried), by following
 * the screen's plan (glmux_select_glx_screen_plan through glx_selector.c; `glmux explain` gets
 * this walk's own record of it, glx_explain.h): __GLX_FORCE_VENDOR_LIBRARY_<screen>,
 * __GLX_VENDOR_LIBRARY_NAME, the GPU selector's choice, the server's GLX_VENDOR_NAMES_EXT list
 * (with isScreenSupported), then "indirect" and Fedora's "system". The pixels vendor
 * (libGLX_glmux-pixels.so.0, docs/remote.md) is loaded like any vendor, by name; its rule
 * (glmux_select_pixels_rule, src/select/pixels_rule.h) puts it after libglvnd's variables (a
 * server without GLX; a remote connection when a local GPU renders; GLMUX_GLX_REMOTE=pixels)
 * or after the server's list, when none of its vendors serves. The decision runs with no lock
 * held. Drawables are XIDs, kept per display; one libGLX did not create is looked up through
 * the server. Adding a drawable another vendor owns fails, as the GLX vendor ABI requires.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glx/glx_display.h"
#include "glx/glx_explain.h"
#include "glx/glx_lock.h"
#include "glx/glx_reply.h"
#include "glx/glx_screen.h"
#include "glx/glx_selector.h"
#include "glx/glx_x11_request.h"
#include "util/log.h"

#ifndef GLX_VENDOR_NAMES_EXT
#define GLX_VENDOR_NAMES_EXT 0x20F6
#endif

/* What one walk writes down for `glmux explain` (glx_explain.h); NULL in a program's walk. */
struct walk {
    const struct glmux_glx_explain_request *req;
    struct glmux_glx_explain_screen *rec;
    bool stopped;                   /* may_load left a step untaken: the walk ends there */
};

static void note(struct walk *w, enum glmux_glx_explain_result result, const char *name,
                 const char *step, const char *detail)
{
    struct glmux_glx_explain_try *t;

    if (w == NULL || w->rec->n_tries >= GLMUX_GLX_EXPLAIN_TRIES)
        return;
    t = &w->rec->tries[w->rec->n_tries++];
    t->result = (int32_t)result;
    snprintf(t->vendor, sizeof(t->vendor), "%s", name);
    snprintf(t->step, sizeof(t->step), "%s", step);
    snprintf(t->detail, sizeof(t->detail), "%s", detail);
    if (result == GLMUX_GLX_EXPLAIN_SERVES) {
        snprintf(w->rec->vendor, sizeof(w->rec->vendor), "%s", name);
        snprintf(w->rec->from, sizeof(w->rec->from), "%s", step);
    }
}

/*
 * Loads the named vendor for a screen; checks isScreenSupported when asked to. override: a
 * libglvnd variable names it (the GPU selector then sets nothing for it).
 */
static glmux_glx_vendor *try_vendor(Display *dpy, int screen, const char *name, bool check,
                                    bool override, const char *why, struct walk *w)
{
    char failed[384];
    glmux_glx_vendor *v;

    if (w != NULL && w->req->may_load != NULL &&
        !w->req->may_load(name, failed, sizeof(failed), w->req->arg)) {
        note(w, GLMUX_GLX_EXPLAIN_NOT_TAKEN, name, why, failed);
        w->stopped = true;
        return NULL;
    }
    v = glmux_glx_vendor_load(name, override, failed, sizeof(failed));
    if (v == NULL) {
        glmux_log(GLMUX_LOG_VENDOR, "screen %d: vendor \"%s\" (%s) could not be loaded",
                  screen, GLMUX_LOG_CUT(name), why);
        note(w, GLMUX_GLX_EXPLAIN_NOT_LOADED, name, why, failed);
        return NULL;
    }
    if (check && !v->imports.isScreenSupported(dpy, screen)) {
        glmux_log(GLMUX_LOG_VENDOR, "screen %d: vendor \"%s\" (%s) does not support it", screen,
                  name, why);
        snprintf(failed, sizeof(failed), "its isScreenSupported refuses screen %d", screen);
        note(w, GLMUX_GLX_EXPLAIN_DECLINED, name, why, failed);
        return NULL;
    }
    glmux_log(GLMUX_LOG_VENDOR, "screen %d of %s: vendor \"%s\" (%s)", screen,
              DisplayString(dpy), v->name, why);
    note(w, GLMUX_GLX_EXPLAIN_SERVES, v->name, why, "");
    return v;
}

/* The plan and the pixels rule as the walk got them, for `glmux explain`. */
static void note_plan(struct walk *w, const struct glmux_glx_display *d,
                      const struct glmux_glx_screen_plan *p)
{
    struct glmux_glx_explain_screen *r;

    if (w == NULL)
        return;
    r = w->rec;
    for (size_t i = 0; i < p->n && r->n_plan < GLMUX_GLX_EXPLAIN_PLAN; i++)
        snprintf(r->plan[r->n_plan++], sizeof(r->plan[0]), "%s",
                 p->steps[i].kind == GLMUX_GLX_STEP_VENDOR ? p->steps[i].name : "");
    r->override = p->n > 0 && p->steps[0].override;
    r->pixels_when = (int32_t)p->pixels;
    snprintf(r->pixels_why, sizeof(r->pixels_why), "%s", p->pixels_why);
    r->has_glx = d->has_glx;
}

/* Follows the screen's plan (glmux_select_glx_screen_plan, the pixels vendor's place
 * included) until a vendor serves it; w (NULL in a program) writes each step down. */
static glmux_glx_vendor *resolve_screen(struct glmux_glx_display *d, int screen, struct walk *w)
{
    struct glmux_glx_screen_plan p;
    const struct glmux_glx_step *plan = p.steps;
    glmux_glx_vendor *v = NULL;

    glmux_glx_selector_plan(d->dpy, screen, d->has_glx, &p);
    note_plan(w, d, &p);
    glmux_log(GLMUX_LOG_VENDOR, "screen %d: the pixels vendor %s (%s)", screen,
              p.pixels == GLMUX_PIXELS_FIRST ? "comes first"
              : p.pixels == GLMUX_PIXELS_FALLBACK ? "is the fallback" : "is not tried",
              p.pixels_why);
    for (size_t i = 0; i < p.n && v == NULL && (w == NULL || !w->stopped); i++) {
        char *names, *cursor;

        if (plan[i].kind == GLMUX_GLX_STEP_VENDOR) {
            v = try_vendor(d->dpy, screen, plan[i].name, plan[i].check_screen, plan[i].override,
                           plan[i].why, w);
            continue;
        }
        /* The gate: the list is asked only when every screen has GLX_EXT_libglvnd. */
        if (!d->libglvnd_ext) {
            if (w != NULL)
                w->rec->server_skipped = true;
            continue;
        }
        names = glmux_glx_x11_query_server_string(d->dpy, d->opcode, screen,
                                                  GLX_VENDOR_NAMES_EXT);
        glmux_log(GLMUX_LOG_VENDOR, "screen %d: the server names vendor(s) \"%s\"", screen,
                  names ? names : "");
        if (w != NULL) {
            w->rec->server_asked = true;
            snprintf(w->rec->server_names, sizeof(w->rec->server_names), "%s",
                     names ? names : "");
        }
        cursor = names;
        for (char *tok; v == NULL && (w == NULL || !w->stopped) &&
                        (tok = glmux_glx_token_next(&cursor)) != NULL;)
            v = try_vendor(d->dpy, screen, tok, plan[i].check_screen, false, plan[i].why, w);
        free(names);
        /* The server's vendors are missing or refuse the screen: render here, ship pixels. */
        if (v == NULL && plan[i].fallback != NULL && (w == NULL || !w->stopped))
            v = try_vendor(d->dpy, screen, plan[i].fallback, true, false,
                           "no vendor the X server names can render on it", w);
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

    v = resolve_screen(d, screen, NULL);
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

/* glmux_glx_explain_fn (glx_explain.h): libGLX's own walk for one screen, written down, not
 * cached. */
bool glmux_glx_explain(void *dpy, int screen, const struct glmux_glx_explain_request *req,
                       struct glmux_glx_explain_screen *out)
{
    static const struct glmux_glx_explain_request load_all = { sizeof(load_all), NULL, NULL };
    struct walk w = { req != NULL && req->size >= sizeof(*req) ? req : &load_all, out, false };
    const struct glmux_select *sel = glmux_glx_selector_for_explain();
    size_t before = sel != NULL ? glmux_select_reason_count(sel) : 0, len = 0;
    struct glmux_glx_display *d;

    memset(out, 0, sizeof(*out));
    out->screen = screen;
    if (dpy == NULL || screen < 0 || (d = glmux_glx_display_get(dpy)) == NULL ||
        screen >= d->screen_count)
        return false;
    resolve_screen(d, screen, &w);
    out->decided = !w.stopped;
    for (size_t i = before; sel != NULL && i < glmux_select_reason_count(sel); i++) {
        int n = snprintf(out->reasons + len, sizeof(out->reasons) - len, "%s\n",
                         glmux_select_reason(sel, i));

        if (n < 0 || (size_t)n >= sizeof(out->reasons) - len)
            break;
        len += (size_t)n;
    }
    out->reasons[len] = '\0';
    return true;
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
