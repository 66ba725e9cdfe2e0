/* SPDX-License-Identifier: MIT */
/*
 * glmux: the GLX vendor ABI of the pixels vendor, libGLX_glmux-pixels.so.0: its __glx_Main
 * (the only exported name) and the GLX 1.4 functions libGLX dispatches to it, plus
 * GLX_ARB_create_context(_profile). It is a vendor library like any other: it uses the public
 * GLX vendor ABI (glvnd/libglxabi.h) and public EGL, GL and X11 calls only, so glmux's libGLX
 * and libglvnd's both load it (docs/remote.md). A context is an EGL context of the EGL vendor
 * (pixels_egl.c); a window, pixmap or pbuffer is an EGL pbuffer made current with it, and a
 * window or pixmap has a frame transport (pixels_present.c) made when it is checked against the
 * config (BadMatch when it cannot hold its pixels). A pixmap's surface starts with the X
 * pixmap's contents (uploaded when it is first made current). Swaps, glFinish and glFlush are
 * pixels_swap.c's. Contexts and drawables destroyed while current are freed when the last thread
 * releases them, a drawable after the lock is dropped (freeing makes X and EGL calls). One mutex
 * guards the lists and counts; the current context and drawables of a thread are thread-local.
 * Its own pthread_atfork handler makes its locks anew in a forked child, and its destructor
 * removes its close hooks before the library is unmapped.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlibint.h>
#include <X11/Xutil.h>
#include <GL/glxproto.h>

#include "glx/pixels/pixels.h"
#include "util/lock.h"
#include "util/log.h"

#ifndef GLX_CONTEXT_MAJOR_VERSION_ARB
#define GLX_CONTEXT_MAJOR_VERSION_ARB 0x2091
#define GLX_CONTEXT_MINOR_VERSION_ARB 0x2092
#define GLX_CONTEXT_FLAGS_ARB 0x2094
#define GLX_CONTEXT_DEBUG_BIT_ARB 0x0001
#define GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB 0x0002
#endif
#ifndef GLX_CONTEXT_PROFILE_MASK_ARB
#define GLX_CONTEXT_PROFILE_MASK_ARB 0x9126
#define GLX_CONTEXT_CORE_PROFILE_BIT_ARB 0x0001
#define GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB 0x0002
#endif
#ifndef EGL_CONTEXT_OPENGL_DEBUG
#define EGL_CONTEXT_OPENGL_DEBUG 0x31B0
#define EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE 0x31B1
#endif

#define PIXELS_EXTENSIONS                                                                  \
    "GLX_ARB_create_context GLX_ARB_create_context_profile GLX_ARB_framebuffer_sRGB "     \
    "GLX_ARB_get_proc_address GLX_ARB_multisample GLX_EXT_framebuffer_sRGB "               \
    "GLX_EXT_swap_control GLX_EXT_texture_from_pixmap GLX_EXT_visual_info "                 \
    "GLX_EXT_visual_rating GLX_MESA_swap_control GLX_SGIS_multisample GLX_SGI_swap_control"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t presented = PTHREAD_COND_INITIALIZER; /* a drawable's presenting ended */
static struct glmux_pixels_context *contexts;
static struct glmux_pixels_drawable *drawables;
static struct glmux_pixels_drawable *released; /* unlinked, to be freed with no lock held */

static __thread struct glmux_pixels_context *cur_ctx;
static __thread struct glmux_pixels_drawable *cur_draw, *cur_read;

/* ---- records (lock held) ---- */

static struct glmux_pixels_context *context_find(GLXContext handle)
{
    for (struct glmux_pixels_context *c = contexts; c != NULL; c = c->next) {
        if ((GLXContext)c == handle && !c->destroyed)
            return c;
    }
    return NULL;
}

static struct glmux_pixels_drawable *drawable_find(Display *dpy, XID xid)
{
    for (struct glmux_pixels_drawable *d = drawables; d != NULL; d = d->next) {
        if (d->dpy == dpy && d->xid == xid && !d->destroyed)
            return d;
    }
    return NULL;
}

static void context_free(struct glmux_pixels_context *c)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);

    for (struct glmux_pixels_context **p = &contexts; *p != NULL; p = &(*p)->next) {
        if (*p == c) {
            *p = c->next;
            break;
        }
    }
    if (egl != NULL)
        egl->DestroyContext(egl->display, c->egl);
    free(c);
}

/* Takes d off the list for glmux_pixels_free_released (lock held). */
static void drawable_free(struct glmux_pixels_drawable *d)
{
    for (struct glmux_pixels_drawable **p = &drawables; *p != NULL; p = &(*p)->next) {
        if (*p == d) {
            *p = d->next;
            break;
        }
    }
    d->next = released;
    released = d;
}

void glmux_pixels_free_released(void)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    struct glmux_pixels_drawable *list;

    pthread_mutex_lock(&lock);
    list = released;
    released = NULL;
    pthread_mutex_unlock(&lock);
    while (list != NULL) {
        struct glmux_pixels_drawable *d = list;

        list = d->next;
        if (egl != NULL && d->surface != EGL_NO_SURFACE)
            egl->DestroySurface(egl->display, d->surface);
        glmux_pixels_xfer_free(d->xfer);
        free(d);
    }
}

void glmux_pixels_drawables_display_closed(Display *dpy)
{
    struct glmux_pixels_xfer *detached = NULL;

    pthread_mutex_lock(&lock);
    for (struct glmux_pixels_drawable *d = drawables, *next; d != NULL; d = next) {
        next = d->next;
        if (d->dpy != dpy)
            continue;
        if (d->current > 0) {
            /* Freed when the last thread lets it go; until then it shows nothing. */
            d->destroyed = true;
            glmux_pixels_xfer_chain(d->xfer, &detached);
            d->xfer = NULL;
        } else {
            drawable_free(d);
        }
    }
    pthread_mutex_unlock(&lock);
    glmux_pixels_xfer_free_chain(detached);
    glmux_pixels_free_released();
}

void glmux_pixels_lock(void)
{
    pthread_mutex_lock(&lock);
}

void glmux_pixels_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

struct glmux_pixels_drawable *glmux_pixels_drawable_find(Display *dpy, XID xid)
{
    GLMUX_ASSERT_LOCKED(&lock);
    return drawable_find(dpy, xid);
}

void glmux_pixels_drawable_release(struct glmux_pixels_drawable *d)
{
    GLMUX_ASSERT_LOCKED(&lock);
    pthread_cond_broadcast(&presented);
    if (--d->current == 0 && d->destroyed)
        drawable_free(d);
}

static struct glmux_pixels_drawable *drawable_new(Display *dpy, XID xid, XID target,
                                                  enum glmux_pixels_kind kind,
                                                  struct glmux_pixels_config *config)
{
    struct glmux_pixels_drawable *d = calloc(1, sizeof(*d));

    if (d == NULL)
        return NULL;
    d->dpy = dpy;
    d->xid = xid;
    d->target = target;
    d->kind = kind;
    d->config = config;
    d->next = drawables;
    drawables = d;
    return d;
}

static XID new_xid(Display *dpy)
{
    XID id;

    LockDisplay(dpy);
    id = XAllocID(dpy);
    UnlockDisplay(dpy);
    return id;
}

/* ---- contexts ---- */

static GLXContext create_context(Display *dpy, struct glmux_pixels_config *config,
                                 GLXContext share, const EGLint *attribs)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    struct glmux_pixels_context *c, *sc = NULL;
    EGLContext e;

    if (egl == NULL || !glmux_pixels_config_valid(dpy, config))
        return NULL;
    pthread_mutex_lock(&lock);
    if (share != NULL && (sc = context_find(share)) == NULL) {
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    egl->BindAPI(EGL_OPENGL_API);
    e = egl->CreateContext(egl->display, config->egl_config, sc ? sc->egl : EGL_NO_CONTEXT,
                           attribs);
    if (e == EGL_NO_CONTEXT || (c = calloc(1, sizeof(*c))) == NULL) {
        if (e != EGL_NO_CONTEXT)
            egl->DestroyContext(egl->display, e);
        else
            glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: EGL vendor \"%s\" refused the "
                      "context (EGL error 0x%x)", egl->vendor_name, egl->GetError());
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    c->dpy = dpy;
    c->egl = e;
    c->config = config;
    c->next = contexts;
    contexts = c;
    pthread_mutex_unlock(&lock);
    return (GLXContext)c;
}

static GLXContext pixels_CreateContext(Display *dpy, XVisualInfo *vis, GLXContext share,
                                       Bool direct)
{
    (void)direct;
    if (vis == NULL)
        return NULL;
    return create_context(dpy, glmux_pixels_config_of_visual(dpy, vis), share, NULL);
}

static GLXContext pixels_CreateNewContext(Display *dpy, GLXFBConfig config, int render_type,
                                          GLXContext share, Bool direct)
{
    (void)direct;
    if (render_type != GLX_RGBA_TYPE)
        return NULL;
    return create_context(dpy, (struct glmux_pixels_config *)config, share, NULL);
}

static GLXContext pixels_CreateContextAttribsARB(Display *dpy, GLXFBConfig config,
                                                 GLXContext share, Bool direct,
                                                 const int *attribs)
{
    EGLint out[16];
    int n = 0, major = 1, minor = 0, flags = 0, profile = GLX_CONTEXT_CORE_PROFILE_BIT_ARB;

    (void)direct;
    for (const int *a = attribs; a != NULL && a[0] != None; a += 2) {
        switch (a[0]) {
        case GLX_CONTEXT_MAJOR_VERSION_ARB: major = a[1]; break;
        case GLX_CONTEXT_MINOR_VERSION_ARB: minor = a[1]; break;
        case GLX_CONTEXT_FLAGS_ARB: flags = a[1]; break;
        case GLX_CONTEXT_PROFILE_MASK_ARB: profile = a[1]; break;
        case GLX_RENDER_TYPE:
            if (a[1] != GLX_RGBA_TYPE)
                return NULL;
            break;
        default:
            glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: context attribute 0x%x is not "
                      "supported", a[0]);
            return NULL;
        }
    }
    if (profile != GLX_CONTEXT_CORE_PROFILE_BIT_ARB &&
        profile != GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB)
        return NULL; /* ES profiles: this vendor renders desktop GL only */
    out[n++] = EGL_CONTEXT_MAJOR_VERSION;
    out[n++] = major;
    out[n++] = EGL_CONTEXT_MINOR_VERSION;
    out[n++] = minor;
    if (major > 3 || (major == 3 && minor >= 2)) {
        out[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        out[n++] = profile == GLX_CONTEXT_CORE_PROFILE_BIT_ARB
                       ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                       : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
    }
    if (flags & GLX_CONTEXT_DEBUG_BIT_ARB) {
        out[n++] = EGL_CONTEXT_OPENGL_DEBUG;
        out[n++] = EGL_TRUE;
    }
    if (flags & GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB) {
        out[n++] = EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE;
        out[n++] = EGL_TRUE;
    }
    out[n] = EGL_NONE;
    return create_context(dpy, (struct glmux_pixels_config *)config, share, out);
}

static void pixels_DestroyContext(Display *dpy, GLXContext ctx)
{
    struct glmux_pixels_context *c;

    (void)dpy;
    pthread_mutex_lock(&lock);
    if ((c = context_find(ctx)) != NULL) {
        if (c->current > 0)
            c->destroyed = true;
        else
            context_free(c);
    }
    pthread_mutex_unlock(&lock);
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
    pthread_mutex_lock(&lock);
    c = context_find(ctx);
    if (c == NULL)
        rc = GLX_BAD_CONTEXT;
    else if (attrib == GLX_FBCONFIG_ID)
        *value = c->config->id;
    else if (attrib == GLX_RENDER_TYPE)
        *value = GLX_RGBA_TYPE;
    else if (attrib == GLX_SCREEN)
        *value = c->config->screen;
    else
        rc = GLX_BAD_ATTRIBUTE;
    pthread_mutex_unlock(&lock);
    return rc;
}

/* ---- drawables ---- */

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

    if (!glmux_pixels_config_valid(dpy, c))
        return None;
    if (kind == GLMUX_PIXELS_PIXMAP &&
        (rc = glmux_pixels_texture_attribs(dpy, target, attribs, &format, &tex_target)) !=
            Success) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: glXCreatePixmap: bad texture attributes "
                  "(X error %d); no pixmap made", rc);
        return None;
    }
    x = glmux_pixels_xfer_new(dpy, c, target, kind == GLMUX_PIXELS_WINDOW, &fit);
    if (x == NULL) {
        if (fit == GLMUX_PIXELS_BAD_MATCH)
            glmux_pixels_x_error(dpy, BadMatch, -1, target, glx_minor);
        else
            glmux_pixels_x_error(dpy, kind == GLMUX_PIXELS_PIXMAP ? BadPixmap : BadWindow, -1,
                                 target, glx_minor);
        return None;
    }
    pthread_mutex_lock(&lock);
    d = drawable_new(dpy, new_xid(dpy), target, kind, c);
    if (d != NULL) {
        d->xfer = x;
        d->tex_format = format;
        d->tex_target = tex_target;
    }
    pthread_mutex_unlock(&lock);
    if (d == NULL)
        glmux_pixels_xfer_free(x);
    return d ? d->xid : None;
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
    pthread_mutex_lock(&lock);
    d = drawable_new(dpy, new_xid(dpy), None, GLMUX_PIXELS_PBUFFER,
                     (struct glmux_pixels_config *)config);
    if (d != NULL) {
        d->width = w;
        d->height = h;
        if (!glmux_pixels_surface_update(d, d->config)) {
            drawable_free(d);
            d = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    glmux_pixels_free_released();
    return d ? d->xid : None;
}

static void destroy_drawable(Display *dpy, XID xid)
{
    struct glmux_pixels_drawable *d;

    pthread_mutex_lock(&lock);
    if ((d = drawable_find(dpy, xid)) != NULL) {
        if (d->current > 0)
            d->destroyed = true;
        else
            drawable_free(d);
    }
    pthread_mutex_unlock(&lock);
    glmux_pixels_free_released();
}

static void pixels_DestroyWindow(Display *dpy, GLXWindow w) { destroy_drawable(dpy, w); }
static void pixels_DestroyPixmap(Display *dpy, GLXPixmap p) { destroy_drawable(dpy, p); }
static void pixels_DestroyGLXPixmap(Display *dpy, GLXPixmap p) { destroy_drawable(dpy, p); }
static void pixels_DestroyPbuffer(Display *dpy, GLXPbuffer p) { destroy_drawable(dpy, p); }

static void pixels_QueryDrawable(Display *dpy, GLXDrawable draw, int attrib, unsigned int *value)
{
    struct glmux_pixels_drawable *d;

    pthread_mutex_lock(&lock);
    d = drawable_find(dpy, draw);
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
    pthread_mutex_unlock(&lock);
}

static void pixels_SelectEvent(Display *dpy, GLXDrawable draw, unsigned long mask)
{
    struct glmux_pixels_drawable *d;

    pthread_mutex_lock(&lock);
    if ((d = drawable_find(dpy, draw)) != NULL)
        d->event_mask = mask;
    pthread_mutex_unlock(&lock);
}

static void pixels_GetSelectedEvent(Display *dpy, GLXDrawable draw, unsigned long *mask)
{
    struct glmux_pixels_drawable *d;

    pthread_mutex_lock(&lock);
    d = drawable_find(dpy, draw);
    if (mask != NULL)
        *mask = d ? d->event_mask : 0;
    pthread_mutex_unlock(&lock);
}

bool glmux_pixels_pixmap_texture(Display *dpy, XID xid, struct glmux_pixels_pixmap_texture *out)
{
    struct glmux_pixels_drawable *d;
    bool ok;

    pthread_mutex_lock(&lock);
    d = drawable_find(dpy, xid);
    ok = d != NULL && d->kind == GLMUX_PIXELS_PIXMAP && d->tex_target != 0 &&
         d->tex_format != GLX_TEXTURE_FORMAT_NONE_EXT;
    if (ok)
        *out = (struct glmux_pixels_pixmap_texture){
            .pixmap = d->target, .format = d->tex_format, .target = d->tex_target,
            .current_draw = d == cur_draw, .context_current = cur_ctx != NULL,
        };
    pthread_mutex_unlock(&lock);
    return ok;
}

struct glmux_pixels_drawable *glmux_pixels_current_draw(void)
{
    return cur_draw;
}

void glmux_pixels_current_get(struct glmux_pixels_current *out)
{
    out->ctx = cur_ctx;
    out->draw = cur_draw;
    out->read = cur_read;
}

/* ---- current context ---- */

/* Drops this thread's references (lock held); frees what was destroyed meanwhile. */
static void release_current(void)
{
    struct glmux_pixels_drawable *ds[2] = { cur_draw, cur_read };

    for (int i = 0; i < 2; i++) {
        if (ds[i] == NULL || (i == 1 && ds[1] == ds[0]))
            continue;
        if (--ds[i]->current == 0 && ds[i]->destroyed)
            drawable_free(ds[i]);
    }
    if (cur_ctx != NULL && --cur_ctx->current == 0 && cur_ctx->destroyed)
        context_free(cur_ctx);
    cur_ctx = NULL;
    cur_draw = cur_read = NULL;
}

/* The record of a GLX drawable, or of an X window used directly (made on first use from the
 * transport probe_window made; x is freed when it is not used). Lock held. */
static struct glmux_pixels_drawable *drawable_for(Display *dpy, XID xid,
                                                  struct glmux_pixels_config *config,
                                                  struct glmux_pixels_xfer **x)
{
    struct glmux_pixels_drawable *d = drawable_find(dpy, xid);

    if (d != NULL || xid == None || *x == NULL)
        return d;
    d = drawable_new(dpy, xid, xid, GLMUX_PIXELS_WINDOW, config);
    if (d != NULL) {
        d->xfer = *x;
        *x = NULL;
    }
    return d;
}

/*
 * Before glXMakeCurrent uses an X window directly (no GLX drawable of ours yet): asks the server
 * whether it can show the context's frames. *x: its transport (NULL when it is already one of
 * our drawables); false with the X error raised (BadMatch, GLXBadDrawable).
 */
static bool probe_window(Display *dpy, XID xid, struct glmux_pixels_config *config, int minor,
                         struct glmux_pixels_xfer **x)
{
    enum glmux_pixels_fit fit;
    bool known;

    *x = NULL;
    if (xid == None)
        return true;
    pthread_mutex_lock(&lock);
    known = drawable_find(dpy, xid) != NULL;
    pthread_mutex_unlock(&lock);
    if (known || (*x = glmux_pixels_xfer_new(dpy, config, xid, true, &fit)) != NULL)
        return true;
    if (fit == GLMUX_PIXELS_BAD_MATCH)
        glmux_pixels_x_error(dpy, BadMatch, -1, xid, minor);
    else
        glmux_pixels_x_error(dpy, BadDrawable, GLXBadDrawable, xid, minor);
    return false;
}

/* Whether d or r is being presented by a thread that does not have it current (lock held). */
static bool presenting(Display *dpy, GLXDrawable draw, GLXDrawable read)
{
    struct glmux_pixels_drawable *d = draw != None ? drawable_find(dpy, draw) : NULL;
    struct glmux_pixels_drawable *r = read != None ? drawable_find(dpy, read) : NULL;

    return (d != NULL && d->presenting) || (r != NULL && r->presenting);
}

/* glXMakeContextCurrent and glXMakeCurrent (minor: their GLX request, for the X errors). */
static Bool make_current(Display *dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx,
                         int minor)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    struct glmux_pixels_context *c;
    struct glmux_pixels_drawable *d = NULL, *r = NULL, *fill = NULL;
    struct glmux_pixels_xfer *draw_x = NULL, *read_x = NULL;
    Bool ok = False;

    if (egl == NULL)
        return False;
    /* GLX flushes the context it replaces: a pixmap or single-buffered window shows its frame. */
    if (cur_ctx != NULL && ((GLXContext)cur_ctx != ctx || cur_draw == NULL ||
                            cur_draw->xid != draw))
        glmux_pixels_flush_current();
    if (ctx != NULL && draw != None) {
        /* X windows used directly are checked against the context's config first, with no
         * lock held across the X requests. */
        struct glmux_pixels_config *config = NULL;

        pthread_mutex_lock(&lock);
        if ((c = context_find(ctx)) != NULL)
            config = c->config;
        pthread_mutex_unlock(&lock);
        if (config == NULL)
            return False;
        if (!probe_window(dpy, draw, config, minor, &draw_x) ||
            (read != draw && !probe_window(dpy, read, config, minor, &read_x))) {
            glmux_pixels_xfer_free(draw_x);
            return False;
        }
    }
    pthread_mutex_lock(&lock);
    if (ctx == NULL) {
        egl->MakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        release_current();
        pthread_mutex_unlock(&lock);
        glmux_pixels_free_released();
        return True;
    }
    /* A swap from a thread that does not have it current is reading it back: wait for it. */
    while (presenting(dpy, draw, read))
        pthread_cond_wait(&presented, &lock);
    c = context_find(ctx);
    if (c == NULL || (draw == None) != (read == None))
        goto out;
    if (draw != None) {
        d = drawable_for(dpy, draw, c->config, &draw_x);
        r = read == draw ? d : drawable_for(dpy, read, c->config, &read_x);
        if (d == NULL || r == NULL)
            goto out;
        if (!glmux_pixels_surface_update(d, c->config) ||
            (r != d && !glmux_pixels_surface_update(r, c->config)))
            goto out;
    }
    egl->BindAPI(EGL_OPENGL_API);
    if (!egl->MakeCurrent(egl->display, d ? d->surface : EGL_NO_SURFACE,
                          r ? r->surface : EGL_NO_SURFACE, c->egl)) {
        glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: eglMakeCurrent failed (EGL error 0x%x)",
                  egl->GetError());
        goto out;
    }
    /* Take the new references before dropping the old: they may be the same records. */
    c->current++;
    if (d != NULL)
        d->current++;
    if (r != NULL && r != d)
        r->current++;
    release_current();
    cur_ctx = c;
    cur_draw = d;
    cur_read = r;
    /* A GLX pixmap starts with what X drew into the pixmap. */
    if (d != NULL && d->kind == GLMUX_PIXELS_PIXMAP && !d->filled) {
        d->filled = true;
        fill = d;
    }
    ok = True;
out:
    pthread_mutex_unlock(&lock);
    glmux_pixels_xfer_free(draw_x);
    glmux_pixels_xfer_free(read_x);
    glmux_pixels_free_released();
    if (fill != NULL) {
        XImage *img = glmux_pixels_pixmap_bgra(dpy, fill->target, fill->width, fill->height);

        if (img != NULL) {
            glmux_pixels_upload(img);
            XDestroyImage(img);
        }
    }
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
    case GLX_EXTENSIONS: return PIXELS_EXTENSIONS;
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
    return PIXELS_EXTENSIONS;
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

/* In a forked child: every lock made anew (the parent's holders do not exist there). */
static void after_fork_child(void)
{
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&presented, NULL);
    glmux_pixels_config_after_fork();
    glmux_pixels_present_after_fork();
    glmux_pixels_swap_after_fork();
}

__attribute__((constructor)) static void pixels_load(void)
{
    /* Registered against this library: glibc drops the handler when it is unloaded. */
    pthread_atfork(NULL, NULL, after_fork_child);
}

/* Unload: the close hook on every display removed, so no callback reaches unmapped code. */
__attribute__((destructor)) static void pixels_unload(void)
{
    glmux_pixels_present_fini();
}

__attribute__((visibility("default"))) Bool __glx_Main(uint32_t version,
                                                       const __GLXapiExports *exports,
                                                       __GLXvendorInfo *vendor,
                                                       __GLXapiImports *imports)
{
    (void)vendor;
    if (GLX_VENDOR_ABI_GET_MAJOR_VERSION(version) != GLX_VENDOR_ABI_MAJOR_VERSION)
        return False;
    glmux_pixels_texture_init(exports);
    imports->isScreenSupported = pixels_screen_supported;
    imports->getProcAddress = pixels_get_proc;
    imports->getDispatchAddress = pixels_dispatch_address;
    imports->setDispatchIndex = pixels_set_dispatch_index;
    return True;
}
