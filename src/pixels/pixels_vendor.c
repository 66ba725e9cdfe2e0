/* SPDX-License-Identifier: MIT */
/*
 * glmux: the GLX vendor ABI of the pixels vendor, libGLX_glmux-pixels.so.0: its __glx_Main
 * (the only exported name) and the GLX 1.4 functions libGLX dispatches to it, plus
 * glXCreateContextAttribsARB (the attributes and extensions it takes: pixels_attribs.c). It is
 * a vendor library like any other: it uses the public GLX vendor ABI (glvnd/libglxabi.h) and
 * public EGL, GL and X11 calls only, so glmux's libGLX and libglvnd's both load it
 * (docs/remote.md). A context is an EGL context of the EGL vendor
 * (pixels_egl.c); a window, pixmap or pbuffer is an EGL pbuffer made current with it, and a
 * window or pixmap has a frame transport (pixels_present.c) made when it is checked against the
 * config (BadMatch when it cannot hold its pixels). A pixmap's surface starts with the X
 * pixmap's contents (uploaded when it is first made current). Swaps, glFinish and glFlush are
 * pixels_swap.c's. Contexts and drawables destroyed while current are freed when the last thread
 * releases them. The current context and drawables of a thread are thread-local. Its own
 * pthread_atfork handlers run each module's fork step (util/lifecycle.h: every lock taken
 * before fork, released after), and its destructor removes its close hooks before the library
 * is unmapped.
 *
 * Locking (docs/architecture.md, "Locking"; the records and their lock are pixels_records.c's):
 * no X, EGL or GL call is made with the vendor's lock held. eglCreateContext runs with a
 * reference on the context it shares with, eglMakeCurrent with references on the context and
 * drawables and the drawables claimed, so a drawable current in two threads is never resized or
 * presented by both at once.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlibint.h>
#include <X11/Xutil.h>
#include <GL/glxproto.h>

#include "pixels/pixels_attribs.h"
#include "pixels/pixels_choose.h"
#include "pixels/pixels_config.h"
#include "pixels/pixels_dispatch.h"
#include "pixels/pixels_display.h"
#include "pixels/pixels_egl.h"
#include "pixels/pixels_frame.h"
#include "pixels/pixels_present.h"
#include "pixels/pixels_records.h"
#include "pixels/pixels_resolve.h"
#include "pixels/pixels_server.h"
#include "pixels/pixels_swap.h"
#include "pixels/pixels_texture.h"
#include "pixels/pixels_xlibs.h"
#include "util/exiting.h"
#include "util/lifecycle.h"
#include "util/log.h"

static XID new_xid(Display *dpy)
{
    XID id;

    LockDisplay(dpy);
    id = XAllocID(dpy);
    UnlockDisplay(dpy);
    return id;
}

/* ---- contexts ---- */

/* A context of config (NULL: none, GLX_EXT_no_config_context, for req->screen) as req asks
 * (NULL: GLX 1.3's defaults). */
static GLXContext create_context(Display *dpy, struct glmux_pixels_config *config,
                                 GLXContext share, const struct glmux_pixels_context_request *req)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    struct glmux_pixels_context *c, *sc = NULL;
    EGLenum api = req != NULL ? req->api : EGL_OPENGL_API;
    int screen, n;
    EGLContext e;

    if (egl == NULL)
        return NULL;
    if (config != NULL) {
        if (!glmux_pixels_config_valid(dpy, config))
            return NULL;
        screen = config->screen;
    } else {
        /* No config: the screen asked for, which must have configs of ours. */
        screen = req != NULL && req->screen >= 0 ? req->screen : DefaultScreen(dpy);
        if (!(glmux_pixels_extensions_backed() & GLMUX_PIXELS_HAS_NO_CONFIG) ||
            screen >= ScreenCount(dpy) || glmux_pixels_configs(dpy, screen, &n) == NULL)
            return NULL;
    }
    /* The context it shares with stays while eglCreateContext runs: a reference, no lock. */
    glmux_pixels_lock();
    if (share != NULL) {
        if ((sc = glmux_pixels_context_find(share)) == NULL) {
            glmux_pixels_unlock();
            return NULL;
        }
        sc->current++;
    }
    glmux_pixels_unlock();
    egl->BindAPI(api);
    e = egl->CreateContext(egl->display, config != NULL ? config->egl_config : (EGLConfig)0,
                           sc ? sc->egl : EGL_NO_CONTEXT, req != NULL ? req->attribs : NULL);
    c = e != EGL_NO_CONTEXT ? calloc(1, sizeof(*c)) : NULL;
    if (e == EGL_NO_CONTEXT)
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: EGL vendor \"%s\" refused the "
                  "context (EGL error 0x%x)", egl->vendor_name, egl->GetError());
    else if (c == NULL)
        egl->DestroyContext(egl->display, e);
    glmux_pixels_lock();
    glmux_pixels_context_release(sc);
    if (c != NULL) {
        c->egl = e;
        if (config != NULL) {
            c->own_config = *config;
            c->config = &c->own_config;
        }
        c->screen = screen;
        c->api = api;
        c->release_none = req != NULL && req->release_none;
        glmux_pixels_context_link(c);
    }
    glmux_pixels_unlock();
    glmux_pixels_free_released();
    return (GLXContext)c;
}

static GLXContext pixels_CreateContext(Display *dpy, XVisualInfo *vis, GLXContext share,
                                       Bool direct)
{
    struct glmux_pixels_config *c;

    (void)direct;
    if (vis == NULL || (c = glmux_pixels_config_of_visual(dpy, vis)) == NULL)
        return NULL;
    return create_context(dpy, c, share, NULL);
}

static GLXContext pixels_CreateNewContext(Display *dpy, GLXFBConfig config, int render_type,
                                          GLXContext share, Bool direct)
{
    (void)direct;
    if (render_type != GLX_RGBA_TYPE || config == NULL)
        return NULL;
    return create_context(dpy, (struct glmux_pixels_config *)config, share, NULL);
}

static GLXContext pixels_CreateContextAttribsARB(Display *dpy, GLXFBConfig config,
                                                 GLXContext share, Bool direct,
                                                 const int *attribs)
{
    struct glmux_pixels_context_request req;

    (void)direct;
    if (!glmux_pixels_context_request(attribs, &req))
        return NULL;
    return create_context(dpy, (struct glmux_pixels_config *)config, share, &req);
}

static void pixels_DestroyContext(Display *dpy, GLXContext ctx)
{
    struct glmux_pixels_context *c;

    glmux_pixels_lock();
    if ((c = glmux_pixels_context_find(ctx)) != NULL) {
        if (c->current > 0)
            c->destroyed = true;
        else
            glmux_pixels_context_queue_free(c);
    }
    glmux_pixels_unlock();
    glmux_pixels_free_released();
    if (c != NULL) {
        struct glmux_pixels_stats st;

        glmux_pixels_stats_get(&st);
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: context %p destroyed; %llu frame(s) sent "
                  "so far in this process", (void *)ctx, st.frames);
    }
    /* Windows destroyed while the context drew into them are let go now. */
    if (dpy != NULL)
        glmux_pixels_drawables_sweep(dpy);
}

static Bool pixels_IsDirect(Display *dpy, GLXContext ctx)
{
    (void)dpy;
    (void)ctx;
    return True; /* rendering happens in this process */
}

static void pixels_CopyContext(Display *dpy, GLXContext src, GLXContext dst, unsigned long mask)
{
    (void)dpy;
    (void)src;
    (void)dst;
    (void)mask;
    glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: glXCopyContext is not supported; nothing "
              "was copied");
}

static int pixels_QueryContext(Display *dpy, GLXContext ctx, int attrib, int *value)
{
    struct glmux_pixels_context *c;
    int rc = Success;

    (void)dpy;
    glmux_pixels_lock();
    c = glmux_pixels_context_find(ctx);
    if (c == NULL)
        rc = GLX_BAD_CONTEXT;
    else if (attrib == GLX_FBCONFIG_ID)
        *value = c->config != NULL ? c->config->id : 0; /* 0: made without a config */
    else if (attrib == GLX_RENDER_TYPE)
        *value = GLX_RGBA_TYPE;
    else if (attrib == GLX_SCREEN)
        *value = c->screen;
    else
        rc = GLX_BAD_ATTRIBUTE;
    glmux_pixels_unlock();
    return rc;
}

/* ---- drawables ---- */

/* What glXCreateWindow, glXCreatePixmap and glXCreateGLXPixmap are called in messages. */
static const char *create_name(int glx_minor)
{
    switch (glx_minor) {
    case X_GLXCreateWindow: return "glXCreateWindow";
    case X_GLXCreatePixmap: return "glXCreatePixmap";
    default: return "glXCreateGLXPixmap";
    }
}

/* A GLX window or pixmap of one of our configs on the X drawable target: its new XID, or None
 * with the X error GLX raises (BadMatch for a drawable that cannot show the config's pixels).
 * A pixmap's attributes are the texture ones of GLX_EXT_texture_from_pixmap. */
static XID create_drawable(Display *dpy, GLXFBConfig config, XID target,
                           enum glmux_pixels_kind kind, const int *attribs, int glx_minor)
{
    struct glmux_pixels_config *c = (struct glmux_pixels_config *)config;
    struct glmux_pixels_drawable *d = NULL;
    struct glmux_pixels_xfer *x;
    enum glmux_pixels_fit fit;
    int format = 0, tex_target = 0, rc;
    char why[256];
    XID xid;

    if (!glmux_pixels_config_valid(dpy, c))
        return None;
    if (kind == GLMUX_PIXELS_PIXMAP &&
        (rc = glmux_pixels_texture_attribs(dpy, target, attribs, &format, &tex_target)) !=
            Success) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: glXCreatePixmap: bad texture attributes "
                  "(X error %d); no pixmap made", rc);
        return None;
    }
    x = glmux_pixels_xfer_new(dpy, c, target, kind == GLMUX_PIXELS_WINDOW, &fit, why,
                              sizeof(why));
    if (x == NULL) {
        if (fit == GLMUX_PIXELS_BAD_MATCH)
            glmux_pixels_x_error(dpy, BadMatch, -1, target, glx_minor, X_GetGeometry,
                                 "%s: %s", create_name(glx_minor), why);
        else
            glmux_pixels_x_error(dpy, kind == GLMUX_PIXELS_PIXMAP ? BadPixmap : BadWindow, -1,
                                 target, glx_minor, X_GetGeometry, "%s: %s",
                                 create_name(glx_minor), why);
        return None;
    }
    /* The display's records of drawables that are gone are let go before this one is listed,
     * so that sweep can never free it (its X drawable may be gone already: another connection
     * destroys a window while this one makes its GLX window). */
    glmux_pixels_drawables_sweep(dpy);
    if (!glmux_pixels_drawables_watch(dpy) ||
        (d = glmux_pixels_drawable_new(dpy, new_xid(dpy), target, kind, c)) == NULL) {
        glmux_pixels_xfer_free(x);
        return None;
    }
    d->xfer = x;
    d->tex_format = format;
    d->tex_target = tex_target;
    /* Once listed, the record is any thread's to free (another thread's sweep, when its X
     * drawable is gone): nothing of it is read after. */
    xid = d->xid;
    glmux_pixels_lock();
    glmux_pixels_drawable_link(d);
    glmux_pixels_unlock();
    return xid;
}

static GLXWindow pixels_CreateWindow(Display *dpy, GLXFBConfig config, Window win,
                                     const int *attribs)
{
    (void)attribs;
    return create_drawable(dpy, config, win, GLMUX_PIXELS_WINDOW, NULL, X_GLXCreateWindow);
}

static GLXPixmap pixels_CreatePixmap(Display *dpy, GLXFBConfig config, Pixmap pixmap,
                                     const int *attribs)
{
    return create_drawable(dpy, config, pixmap, GLMUX_PIXELS_PIXMAP, attribs, X_GLXCreatePixmap);
}

static GLXPixmap pixels_CreateGLXPixmap(Display *dpy, XVisualInfo *vis, Pixmap pixmap)
{
    struct glmux_pixels_config *c;

    if ((c = glmux_pixels_config_of_visual(dpy, vis)) == NULL)
        return None;
    return create_drawable(dpy, (GLXFBConfig)c, pixmap, GLMUX_PIXELS_PIXMAP, NULL,
                           X_GLXCreateGLXPixmap);
}

static GLXPbuffer pixels_CreatePbuffer(Display *dpy, GLXFBConfig config, const int *attribs)
{
    struct glmux_pixels_drawable *d;
    int w = 0, h = 0;

    if (!glmux_pixels_config_valid(dpy, (struct glmux_pixels_config *)config))
        return None;
    for (const int *a = attribs; a != NULL && a[0] != None; a += 2) {
        if (a[0] == GLX_PBUFFER_WIDTH)
            w = a[1];
        else if (a[0] == GLX_PBUFFER_HEIGHT)
            h = a[1];
    }
    /* Its surface is made before the record is linked: no other thread sees it yet. */
    if (!glmux_pixels_drawables_watch(dpy) ||
        (d = glmux_pixels_drawable_new(dpy, new_xid(dpy), None, GLMUX_PIXELS_PBUFFER,
                                       (struct glmux_pixels_config *)config)) == NULL)
        return None;
    d->width = w;
    d->height = h;
    if (!glmux_pixels_surface_update(d, d->config)) {
        free(d); /* no surface was made */
        return None;
    }
    glmux_pixels_lock();
    glmux_pixels_drawable_link(d);
    glmux_pixels_unlock();
    return d->xid;
}

static void destroy_drawable(Display *dpy, XID xid)
{
    struct glmux_pixels_drawable *d;

    glmux_pixels_lock();
    if ((d = glmux_pixels_drawable_find(dpy, xid)) != NULL) {
        if (d->current > 0)
            d->destroyed = true;
        else
            glmux_pixels_drawable_queue_free(d);
    }
    glmux_pixels_unlock();
    glmux_pixels_free_released();
}

static void pixels_DestroyWindow(Display *dpy, GLXWindow w) { destroy_drawable(dpy, w); }
static void pixels_DestroyPixmap(Display *dpy, GLXPixmap p) { destroy_drawable(dpy, p); }
static void pixels_DestroyGLXPixmap(Display *dpy, GLXPixmap p) { destroy_drawable(dpy, p); }
static void pixels_DestroyPbuffer(Display *dpy, GLXPbuffer p) { destroy_drawable(dpy, p); }

static void pixels_QueryDrawable(Display *dpy, GLXDrawable draw, int attrib, unsigned int *value)
{
    struct glmux_pixels_drawable *d;

    glmux_pixels_lock();
    d = glmux_pixels_drawable_find(dpy, draw);
    if (d != NULL && value != NULL) {
        switch (attrib) {
        case GLX_WIDTH: *value = (unsigned)__atomic_load_n(&d->width, __ATOMIC_RELAXED); break;
        case GLX_HEIGHT: *value = (unsigned)__atomic_load_n(&d->height, __ATOMIC_RELAXED); break;
        case GLX_PRESERVED_CONTENTS: *value = True; break;
        case GLX_LARGEST_PBUFFER: *value = False; break;
        case GLX_FBCONFIG_ID: *value = (unsigned)d->config->id; break;
        case GLX_EVENT_MASK: *value = (unsigned)d->event_mask; break;
        case GLX_TEXTURE_FORMAT_EXT: *value = (unsigned)d->tex_format; break;
        case GLX_TEXTURE_TARGET_EXT: *value = (unsigned)d->tex_target; break;
        case GLX_MIPMAP_TEXTURE_EXT: *value = False; break;
        default: glmux_pixels_swap_query(d, attrib, value); break;
        }
    }
    glmux_pixels_unlock();
}

static void pixels_SelectEvent(Display *dpy, GLXDrawable draw, unsigned long mask)
{
    struct glmux_pixels_drawable *d;

    glmux_pixels_lock();
    if ((d = glmux_pixels_drawable_find(dpy, draw)) != NULL)
        d->event_mask = mask;
    glmux_pixels_unlock();
}

static void pixels_GetSelectedEvent(Display *dpy, GLXDrawable draw, unsigned long *mask)
{
    struct glmux_pixels_drawable *d;

    glmux_pixels_lock();
    d = glmux_pixels_drawable_find(dpy, draw);
    if (mask != NULL)
        *mask = d ? d->event_mask : 0;
    glmux_pixels_unlock();
}

/* ---- current context ---- */

/* A reference on the record of a GLX drawable, or of an X window used directly (made on first
 * use from the transport probe_window made; *x is left to the caller when it is not used).
 * NULL when there is none. Lock held. */
static struct glmux_pixels_drawable *drawable_ref(Display *dpy, XID xid,
                                                  struct glmux_pixels_config *config,
                                                  struct glmux_pixels_xfer **x, bool *made)
{
    struct glmux_pixels_drawable *d = glmux_pixels_drawable_find(dpy, xid);

    if (d == NULL && *x != NULL &&
        (d = glmux_pixels_drawable_new(dpy, xid, xid, GLMUX_PIXELS_WINDOW, config)) != NULL) {
        d->xfer = *x;
        *x = NULL;
        glmux_pixels_drawable_link(d);
        *made = true;
    }
    if (d != NULL)
        d->current++;
    return d;
}

/* The config an X window's visual stands for (a context made without a config used on it
 * directly), or NULL. One round trip. */
static struct glmux_pixels_config *window_config(Display *dpy, XID xid)
{
    struct glmux_pixels_config *c = NULL;
    XWindowAttributes wa;
    XVisualInfo tmpl, *vis;
    int n = 0;

    if (!XGetWindowAttributes(dpy, xid, &wa))
        return NULL;
    tmpl.visualid = XVisualIDFromVisual(wa.visual);
    tmpl.screen = XScreenNumberOfScreen(wa.screen);
    if ((vis = XGetVisualInfo(dpy, VisualIDMask | VisualScreenMask, &tmpl, &n)) != NULL) {
        c = glmux_pixels_config_of_visual(dpy, vis);
        XFree(vis);
    }
    return c;
}

/*
 * Before glXMakeCurrent uses an X window directly (no GLX drawable of ours yet): asks the server
 * whether it can show the frames of *config (NULL, a context without one: its visual's, then
 * set). *x: its transport (NULL when it is already one of our drawables); false with the X
 * error raised (BadMatch, GLXBadDrawable).
 */
static bool probe_window(Display *dpy, XID xid, struct glmux_pixels_config **config, int minor,
                         struct glmux_pixels_xfer **x)
{
    enum glmux_pixels_fit fit = GLMUX_PIXELS_BAD_MATCH;
    const char *name = minor == X_GLXMakeCurrent ? "glXMakeCurrent" : "glXMakeContextCurrent";
    char why[256] = "its visual stands for no FBConfig of the pixels vendor";
    bool known;

    *x = NULL;
    if (xid == None)
        return true;
    glmux_pixels_lock();
    known = glmux_pixels_drawable_find(dpy, xid) != NULL;
    glmux_pixels_unlock();
    if (known)
        return true;
    if (*config == NULL)
        *config = window_config(dpy, xid);
    if (*config != NULL && (*x = glmux_pixels_xfer_new(dpy, *config, xid, true, &fit, why,
                                                      sizeof(why))) != NULL)
        return true;
    if (fit == GLMUX_PIXELS_BAD_MATCH)
        glmux_pixels_x_error(dpy, BadMatch, -1, xid, minor, X_GetGeometry,
                             "%s: X window 0x%lx: %s", name, (unsigned long)xid, why);
    else
        glmux_pixels_x_error(dpy, BadDrawable, GLXBadDrawable, xid, minor, X_GetGeometry,
                             "%s: %s", name, why);
    return false;
}

/* Binds c with d and r on this thread (referenced and claimed by it); a GLX pixmap made
 * current for the first time gets the X pixmap's contents. */
static bool bind_claimed(const struct glmux_pixels_egl *egl, struct glmux_pixels_context *c,
                         struct glmux_pixels_drawable *d, struct glmux_pixels_drawable *r)
{
    XImage *img;

    /* A context made without a config draws into surfaces of the drawables' own. */
    if (d != NULL && (!glmux_pixels_surface_update(d, c->config ? c->config : d->config) ||
                      (r != d && !glmux_pixels_surface_update(r, c->config ? c->config
                                                                           : r->config))))
        return false;
    egl->BindAPI(c->api);
    if (!egl->MakeCurrent(egl->display, d ? d->surface : EGL_NO_SURFACE,
                          r ? r->surface : EGL_NO_SURFACE, c->egl)) {
        glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: eglMakeCurrent failed (EGL error 0x%x)",
                  egl->GetError());
        return false;
    }
    if (d != NULL && d->kind == GLMUX_PIXELS_PIXMAP && !d->filled) {
        d->filled = true;
        img = glmux_pixels_pixmap_bgra(d->dpy, d->target, d->width, d->height);
        if (img != NULL) {
            glmux_pixels_upload(img);
            XDestroyImage(img);
        }
    }
    return true;
}

/* glXMakeContextCurrent and glXMakeCurrent (minor: their GLX request, for the X errors). */
static Bool make_current(Display *dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx,
                         int minor)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    struct glmux_pixels_context *c;
    struct glmux_pixels_drawable *d = NULL, *r = NULL;
    struct glmux_pixels_xfer *draw_x = NULL, *read_x = NULL;
    struct glmux_pixels_config *config = NULL, *draw_config, *read_config;
    struct glmux_pixels_current cur;
    Bool ok = False;
    bool made = false;

    if (egl == NULL)
        return False;
    /* GLX flushes the context it replaces: a pixmap or single-buffered window shows its frame
     * (not with GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB, which asks for no flush). */
    glmux_pixels_current_get(&cur);
    if (cur.ctx != NULL && !cur.ctx->release_none &&
        ((GLXContext)cur.ctx != ctx || cur.draw == NULL || cur.draw->xid != draw))
        glmux_pixels_flush_current();
    if (ctx == NULL) {
        egl->BindAPI(cur.ctx != NULL ? cur.ctx->api : EGL_OPENGL_API);
        egl->MakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        glmux_pixels_lock();
        glmux_pixels_current_set(NULL, NULL, NULL);
        glmux_pixels_unlock();
        glmux_pixels_free_released();
        return True;
    }
    if ((draw == None) != (read == None))
        return False;
    /* A reference on the context keeps it while the X and EGL calls below run unlocked. */
    glmux_pixels_lock();
    if ((c = glmux_pixels_context_find(ctx)) != NULL) {
        c->current++;
        config = c->config;
    }
    glmux_pixels_unlock();
    if (c == NULL)
        return False;
    /* X windows used directly are checked against the context's config first. */
    draw_config = read_config = config;
    if (draw != None && probe_window(dpy, draw, &draw_config, minor, &draw_x) &&
        (read == draw || probe_window(dpy, read, &read_config, minor, &read_x)) &&
        ((draw_x == NULL && read_x == NULL) || glmux_pixels_drawables_watch(dpy))) {
        glmux_pixels_lock();
        d = drawable_ref(dpy, draw, draw_config, &draw_x, &made);
        /* One reference for a drawable that is both (glmux_pixels_current_set drops it
         * once). */
        r = read == draw ? d : drawable_ref(dpy, read, read_config, &read_x, &made);
        glmux_pixels_unlock();
    }
    if (draw == None || (d != NULL && r != NULL)) {
        glmux_pixels_drawable_claim(d, r);
        ok = bind_claimed(egl, c, d, r);
        glmux_pixels_drawable_unclaim(d, r);
    }
    glmux_pixels_lock();
    if (ok) {
        /* The references taken above become this thread's; the old ones go. */
        glmux_pixels_current_set(c, d, r);
    } else {
        glmux_pixels_context_release(c);
        glmux_pixels_drawable_release(d);
        if (r != d)
            glmux_pixels_drawable_release(r);
    }
    glmux_pixels_unlock();
    glmux_pixels_xfer_free(draw_x);
    glmux_pixels_xfer_free(read_x);
    glmux_pixels_free_released();
    /* A new record: the display's records of windows that went meanwhile are let go. The one
     * made here is current on this thread (its reference keeps it from the sweep), or nothing
     * of it is used any more. */
    if (made)
        glmux_pixels_drawables_sweep(dpy);
    return ok;
}

static Bool pixels_MakeContextCurrent(Display *dpy, GLXDrawable draw, GLXDrawable read,
                                      GLXContext ctx)
{
    return make_current(dpy, draw, read, ctx, X_GLXMakeContextCurrent);
}

static Bool pixels_MakeCurrent(Display *dpy, GLXDrawable draw, GLXContext ctx)
{
    return make_current(dpy, draw, draw, ctx, X_GLXMakeCurrent);
}

static void pixels_UseXFont(Font font, int first, int count, int list)
{
    (void)font;
    (void)first;
    (void)count;
    (void)list;
    glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: glXUseXFont is not supported; the display "
              "lists stay empty");
}

/* ---- strings ---- */

static const char *pixels_QueryServerString(Display *dpy, int screen, int name)
{
    (void)dpy;
    (void)screen;
    switch (name) {
    case GLX_VENDOR: return "glmux pixels (local EGL rendering, images over X11)";
    case GLX_VERSION: return "1.4";
    case GLX_EXTENSIONS: return glmux_pixels_extensions();
    default: return NULL;
    }
}

static const char *pixels_GetClientString(Display *dpy, int name)
{
    return pixels_QueryServerString(dpy, 0, name);
}

static const char *pixels_QueryExtensionsString(Display *dpy, int screen)
{
    (void)dpy;
    (void)screen;
    return glmux_pixels_extensions();
}

/* ---- the vendor ABI ---- */

struct named_fn {
    const char *name;
    void *fn;
};

#define PIXELS_FN(name) { "glX" #name, (void *)pixels_##name }
#define CONFIG_FN(name) { "glX" #name, (void *)glmux_pixels_##name }
static const struct named_fn glx_functions[] = {
    CONFIG_FN(ChooseVisual), PIXELS_FN(CopyContext), PIXELS_FN(CreateContext),
    PIXELS_FN(CreateGLXPixmap), PIXELS_FN(DestroyContext), PIXELS_FN(DestroyGLXPixmap),
    CONFIG_FN(GetConfig), PIXELS_FN(IsDirect), PIXELS_FN(MakeCurrent),
    PIXELS_FN(UseXFont), PIXELS_FN(QueryServerString),
    PIXELS_FN(GetClientString), PIXELS_FN(QueryExtensionsString), CONFIG_FN(ChooseFBConfig),
    PIXELS_FN(CreateNewContext), PIXELS_FN(CreatePbuffer), PIXELS_FN(CreatePixmap),
    PIXELS_FN(CreateWindow), PIXELS_FN(DestroyPbuffer), PIXELS_FN(DestroyPixmap),
    PIXELS_FN(DestroyWindow), CONFIG_FN(GetFBConfigAttrib), CONFIG_FN(GetFBConfigs),
    PIXELS_FN(GetSelectedEvent), CONFIG_FN(GetVisualFromFBConfig),
    PIXELS_FN(MakeContextCurrent), PIXELS_FN(QueryContext), PIXELS_FN(QueryDrawable),
    PIXELS_FN(SelectEvent), PIXELS_FN(CreateContextAttribsARB),
    { "glXBindTexImageEXT", (void *)glmux_pixels_BindTexImageEXT },
    { "glXReleaseTexImageEXT", (void *)glmux_pixels_ReleaseTexImageEXT },
};
#undef CONFIG_FN
#undef PIXELS_FN

static void *pixels_get_proc(const GLubyte *name)
{
    const struct glmux_pixels_egl *egl;
    void *fn;

    for (size_t i = 0; i < sizeof(glx_functions) / sizeof(glx_functions[0]); i++) {
        if (strcmp((const char *)name, glx_functions[i].name) == 0)
            return glx_functions[i].fn;
    }
    if ((fn = glmux_pixels_swap_proc((const char *)name)) != NULL)
        return fn;
    if (strncmp((const char *)name, "glX", 3) == 0)
        return NULL;
    egl = glmux_pixels_egl_get(NULL);
    return egl != NULL ? egl->get_proc((const char *)name) : NULL;
}

static Bool pixels_screen_supported(Display *dpy, int screen)
{
    int n;

    /* Frames go out through the display's xcb connection (pixels_xlibs.c). */
    return glmux_pixels_xlibs()->xcb && glmux_pixels_configs(dpy, screen, &n) != NULL;
}

static void *pixels_dispatch_address(const GLubyte *name)
{
    void *stub = glmux_pixels_texture_dispatch(name);

    return stub != NULL ? stub : glmux_pixels_swap_dispatch(name);
}

static void pixels_set_dispatch_index(const GLubyte *name, int index)
{
    glmux_pixels_texture_set_index(name, index);
    glmux_pixels_swap_set_index(name, index);
}

/* fork(): each module's step (util/lifecycle.h) takes its lock before, so that no other
 * thread is changing what it guards while the child's copy is made, and releases it after, in
 * the parent and in the child; then, in the child, each drops what the parent's other threads
 * held. Registered against this library: glibc drops the handlers when it is unloaded. */
__attribute__((constructor)) static void pixels_load(void)
{
    pthread_atfork(glmux_lifecycle_fork_prepare, glmux_lifecycle_fork_parent,
                   glmux_lifecycle_fork_child);
}

/*
 * Unload: the close hook on every display removed, so no callback reaches unmapped code. What
 * the displays' records hold is freed only when no context of this vendor is current anywhere,
 * so nothing another thread uses is freed under it. At process exit nothing is done
 * (util/exiting.h): other threads may still be rendering, or be stopped in Xlib's I/O error
 * path holding their display's lock, which XESetCloseDisplay would wait for forever (several
 * connections dying at once, docs/reliability.md).
 */
__attribute__((destructor)) static void pixels_unload(void)
{
    if (!glmux_process_exiting())
        glmux_pixels_display_fini(glmux_pixels_contexts_idle());
}

__attribute__((visibility("default"))) Bool __glx_Main(uint32_t version,
                                                       const __GLXapiExports *exports,
                                                       __GLXvendorInfo *vendor,
                                                       __GLXapiImports *imports)
{
    (void)vendor;
    if (GLX_VENDOR_ABI_GET_MAJOR_VERSION(version) != GLX_VENDOR_ABI_MAJOR_VERSION)
        return False;
    glmux_pixels_dispatch_init(exports);
    imports->isScreenSupported = pixels_screen_supported;
    imports->getProcAddress = pixels_get_proc;
    imports->getDispatchAddress = pixels_dispatch_address;
    imports->setDispatchIndex = pixels_set_dispatch_index;
    return True;
}
