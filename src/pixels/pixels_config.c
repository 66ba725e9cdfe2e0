/* SPDX-License-Identifier: MIT */
/*
 * glmux: the FBConfigs and visuals of the pixels GLX vendor (docs/remote.md, "FB configs").
 * A screen's configs are the product of its visuals and what the EGL vendor renders into
 * pbuffers with 8-bit red, green and blue: one TrueColor visual of depth 24 (the default
 * visual when it is one) with alpha 0 or 8, one of depth 32 with alpha 8; every depth and
 * stencil size (0/16/24/32, 0/8) and sample count (0, 2, 4, 8...) the EGL vendor offers; linear
 * and sRGB (EGL_KHR_gl_colorspace); double- and single-buffered. Each is usable for windows,
 * pixmaps and pbuffers and can be bound as a texture (GLX_EXT_texture_from_pixmap). Other
 * TrueColor visuals of the same depth and masks stand for the one chosen (a server with GLX
 * lists hundreds of identical ones). The X server cannot make visuals for us, so a GLX 1.2
 * visual stands for the config glXChooseVisual (or glXGetVisualFromFBConfig) returned it for:
 * that is how single-buffered or multisampled visuals work (glmux_pixels_config_of_visual).
 * Configs are made outside configs_lock (EGL and Xlib are called without it) and installed
 * under it; they live until their display is closed.
 */
#include <stdlib.h>
#include <string.h>

#include <X11/Xutil.h>

#include "pixels/pixels_config.h"
#include "pixels/pixels_display.h"
#include "pixels/pixels_egl.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/log.h"

#ifndef EGL_GL_COLORSPACE
#define EGL_GL_COLORSPACE 0x309D
#define EGL_GL_COLORSPACE_SRGB 0x3089
#endif

/* The visuals configs are made for: depth 24 and depth 32. */
#define VISUAL_KINDS 2
/* XVisualInfos handed out per display whose config is remembered (glmux_pixels_visual_info). */
#define VISUAL_CHOICES 64

struct screen_configs {
    struct glmux_pixels_config *configs;
    int count;
    VisualID visuals[VISUAL_KINDS];     /* None where the screen has no such visual */
    int depths[VISUAL_KINDS];
    struct glmux_pixels_config *fallback[VISUAL_KINDS]; /* a visual's default config */
};

struct visual_choice {
    const XVisualInfo *info;            /* the pointer handed out (compared, never read) */
    VisualID visual;
    int screen;
    bool chosen;                        /* by glXChooseVisual: stands for the visual too */
    struct glmux_pixels_config *config;
};

/* The configs part of a display's record (pixels_display.c); its fields are configs_lock's. */
struct display_configs {
    int screen_count;
    struct screen_configs *screens;
    bool *made;
    struct visual_choice choices[VISUAL_CHOICES];
    unsigned next_choice;               /* ring position of the next entry */
};

static pthread_mutex_t configs_lock = PTHREAD_MUTEX_INITIALIZER;
static int next_id = 1;

/* ---- what the EGL vendor offers ---- */

/* One kind of EGL config: the first EGL config (in EGL's order) with these sizes. */
struct egl_kind {
    EGLConfig config;
    int alpha, depth, stencil, samples, caveat;
    int max_w, max_h, max_pixels;
};

static EGLint egl_attrib(const struct glmux_pixels_egl *egl, EGLConfig c, EGLint attrib)
{
    EGLint v = 0;

    if (!egl->GetConfigAttrib(egl->display, c, attrib, &v))
        return -1;
    return v;
}

static int glx_caveat(const struct glmux_pixels_egl *egl, EGLConfig c)
{
    EGLint caveat = egl_attrib(egl, c, EGL_CONFIG_CAVEAT);
    EGLint conformant = egl_attrib(egl, c, EGL_CONFORMANT);

    if (caveat == EGL_SLOW_CONFIG)
        return GLX_SLOW_CONFIG;
    if (caveat == EGL_NON_CONFORMANT_CONFIG || (conformant >= 0 && !(conformant & EGL_OPENGL_BIT)))
        return GLX_NON_CONFORMANT_CONFIG;
    return GLX_NONE;
}

/* The EGL configs a pixels config can use, one per (alpha, depth, stencil, samples); a
 * malloc'd array, NULL with *n = 0 when there is none. */
static struct egl_kind *egl_kinds(const struct glmux_pixels_egl *egl, int *n)
{
    static const EGLint attribs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
        EGL_COLOR_BUFFER_TYPE, EGL_RGB_BUFFER, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
        EGL_BLUE_SIZE, 8, EGL_CONFIG_CAVEAT, EGL_DONT_CARE, EGL_NONE,
    };
    EGLConfig *all = NULL;
    struct egl_kind *kinds = NULL;
    EGLint total = 0;
    int count = 0;

    *n = 0;
    if (!egl->ChooseConfig(egl->display, attribs, NULL, 0, &total) || total <= 0)
        return NULL;
    all = calloc((size_t)total, sizeof(*all));
    kinds = calloc((size_t)total, sizeof(*kinds));
    if (all == NULL || kinds == NULL ||
        !egl->ChooseConfig(egl->display, attribs, all, total, &total))
        total = 0;
    for (EGLint i = 0; i < total; i++) {
        struct egl_kind k = {
            .config = all[i],
            .alpha = egl_attrib(egl, all[i], EGL_ALPHA_SIZE),
            .depth = egl_attrib(egl, all[i], EGL_DEPTH_SIZE),
            .stencil = egl_attrib(egl, all[i], EGL_STENCIL_SIZE),
            .samples = egl_attrib(egl, all[i], EGL_SAMPLE_BUFFERS) > 0
                           ? egl_attrib(egl, all[i], EGL_SAMPLES) : 0,
            .caveat = glx_caveat(egl, all[i]),
            .max_w = egl_attrib(egl, all[i], EGL_MAX_PBUFFER_WIDTH),
            .max_h = egl_attrib(egl, all[i], EGL_MAX_PBUFFER_HEIGHT),
            .max_pixels = egl_attrib(egl, all[i], EGL_MAX_PBUFFER_PIXELS),
        };
        bool seen = false;

        if (egl_attrib(egl, all[i], EGL_RED_SIZE) != 8 ||
            egl_attrib(egl, all[i], EGL_GREEN_SIZE) != 8 ||
            egl_attrib(egl, all[i], EGL_BLUE_SIZE) != 8 || (k.alpha != 0 && k.alpha != 8) ||
            (k.depth != 0 && k.depth != 16 && k.depth != 24 && k.depth != 32) ||
            (k.stencil != 0 && k.stencil != 8) || k.samples < 0 || k.samples > 32)
            continue;
        for (int j = 0; j < count && !seen; j++)
            seen = kinds[j].alpha == k.alpha && kinds[j].depth == k.depth &&
                   kinds[j].stencil == k.stencil && kinds[j].samples == k.samples;
        if (!seen)
            kinds[count++] = k;
    }
    free(all);
    if (count == 0) {
        free(kinds);
        return NULL;
    }
    *n = count;
    return kinds;
}

/* ---- visuals ---- */

static bool usable_visual(const XVisualInfo *v)
{
    return v->class == TrueColor && (v->depth == 24 || v->depth == 32) &&
           v->bits_per_rgb == 8 && v->red_mask == 0xff0000 && v->green_mask == 0xff00 &&
           v->blue_mask == 0xff;
}

/* The screen's visuals configs are made for: the default visual's depth first. */
static void pick_visuals(Display *dpy, int screen, struct screen_configs *s)
{
    XVisualInfo tmpl = { .screen = screen }, *vis;
    VisualID def = XVisualIDFromVisual(DefaultVisual(dpy, screen));
    int n = 0, kinds = 0;

    vis = XGetVisualInfo(dpy, VisualScreenMask, &tmpl, &n);
    /* Pass 0: the default visual; pass 1: the first usable visual of each other depth. */
    for (int pass = 0; pass < 2 && vis != NULL; pass++) {
        for (int i = 0; i < n && kinds < VISUAL_KINDS; i++) {
            bool have_depth = false;

            if ((pass == 0) != (vis[i].visualid == def) || !usable_visual(&vis[i]))
                continue;
            for (int k = 0; k < kinds; k++)
                have_depth |= s->depths[k] == vis[i].depth;
            if (have_depth)
                continue;
            s->visuals[kinds] = vis[i].visualid;
            s->depths[kinds++] = vis[i].depth;
        }
    }
    if (vis != NULL)
        XFree(vis);
}

/* The index of the visual kind a usable visual of this depth stands for, or -1. */
static int visual_kind(const struct screen_configs *s, int depth)
{
    for (int k = 0; k < VISUAL_KINDS; k++) {
        if (s->visuals[k] != None && s->depths[k] == depth)
            return k;
    }
    return -1;
}

/* ---- making a screen's configs, without configs_lock ---- */

static void add_config(struct screen_configs *s, int screen, int kind, const struct egl_kind *e,
                       bool srgb, bool dbl)
{
    struct glmux_pixels_config *c = &s->configs[s->count++];

    *c = (struct glmux_pixels_config){
        .screen = screen,
        .visual = s->visuals[kind],
        .depth = s->depths[kind],
        .alpha = e->alpha,
        .depth_size = e->depth,
        .stencil = e->stencil,
        .samples = e->samples,
        .double_buffer = dbl,
        .srgb = srgb,
        .caveat = e->caveat,
        .max_pbuffer_width = e->max_w > 0 ? e->max_w : 0,
        .max_pbuffer_height = e->max_h > 0 ? e->max_h : 0,
        .max_pbuffer_pixels = e->max_pixels > 0 ? e->max_pixels : 0,
        .egl_config = e->config,
    };
    /* A visual's default (GLX 1.2 without glXChooseVisual): what Mesa's first visual has. */
    if (dbl && !srgb && e->samples == 0 && e->depth == 24 && e->stencil == 8 &&
        (s->fallback[kind] == NULL || e->alpha > s->fallback[kind]->alpha))
        s->fallback[kind] = c;
}

/* Fills in s: in creation order (the sort's last key) the default visual's configs first,
 * linear before sRGB, then EGL's order, double- before single-buffered. */
static void make_screen(Display *dpy, int screen, struct screen_configs *s)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    struct egl_kind *kinds;
    int nkinds = 0;
    bool srgb;

    GLMUX_ASSERT_UNLOCKED(&configs_lock); /* EGL and Xlib calls below */
    if (egl == NULL)
        return;
    pick_visuals(dpy, screen, s);
    kinds = egl_kinds(egl, &nkinds);
    srgb = glmux_pixels_has_word(egl->QueryString(egl->display, EGL_EXTENSIONS),
                                 "EGL_KHR_gl_colorspace");
    if (kinds != NULL)
        s->configs = calloc((size_t)VISUAL_KINDS * 2 * 2 * (size_t)nkinds, sizeof(*s->configs));
    for (int v = 0; v < VISUAL_KINDS && s->configs != NULL; v++) {
        for (int cs = 0; cs <= (srgb ? 1 : 0) && s->visuals[v] != None; cs++) {
            for (int k = 0; k < nkinds; k++) {
                /* A depth-32 visual has alpha; a depth-24 one may have it in GL only. */
                if (s->depths[v] == 32 && kinds[k].alpha == 0)
                    continue;
                add_config(s, screen, v, &kinds[k], cs == 1, true);
                add_config(s, screen, v, &kinds[k], cs == 1, false);
            }
        }
    }
    free(kinds);
    if (s->count == 0)
        glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: screen %d of %s has no TrueColor visual "
                  "with 8-bit red, green and blue that EGL vendor \"%s\" can render (pbuffers "
                  "with 8-bit colour and desktop OpenGL); glXChooseFBConfig will find nothing",
                  screen, DisplayString(dpy), egl->vendor_name);
    else
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: screen %d of %s: %d FBConfigs (%d EGL "
                  "configs of EGL vendor \"%s\", %s)", screen, DisplayString(dpy), s->count,
                  nkinds, egl->vendor_name, srgb ? "linear and sRGB" : "linear only");
}

static void screen_free(struct screen_configs *s)
{
    free(s->configs);
    memset(s, 0, sizeof(*s));
}

/* ---- per display ---- */

static void display_configs_free(void *part)
{
    struct display_configs *d = part;

    if (d == NULL)
        return;
    for (int s = 0; d->screens != NULL && s < d->screen_count; s++)
        screen_free(&d->screens[s]);
    free(d->screens);
    free(d->made);
    free(d);
}

/* The configs part of a display's record (pixels_display.c): made with no lock held. */
static void *display_configs_new(Display *dpy)
{
    struct display_configs *d = calloc(1, sizeof(*d));

    if (d == NULL)
        return NULL;
    d->screen_count = ScreenCount(dpy);
    d->screens = calloc((size_t)d->screen_count, sizeof(*d->screens));
    d->made = calloc((size_t)d->screen_count, sizeof(*d->made));
    if (d->screens == NULL || d->made == NULL) {
        display_configs_free(d);
        return NULL;
    }
    return d;
}

static const struct glmux_pixels_part_ops configs_part = {
    .make = display_configs_new, .free = display_configs_free,
};

/* The configs part of dpy's record, or NULL (configs_lock guards what it holds). */
static struct display_configs *display_find(Display *dpy)
{
    return glmux_pixels_display_part_find(dpy, GLMUX_PIXELS_PART_CONFIGS);
}

/* The screen's configs, made first if need be; NULL when the display cannot have any. */
static struct screen_configs *screen_of(Display *dpy, int screen)
{
    struct display_configs *d;
    struct screen_configs made = { 0 }, *s = NULL;

    if (dpy == NULL || screen < 0 || screen >= ScreenCount(dpy))
        return NULL;
    glmux_pixels_egl_get(NULL); /* its first call loads libEGL and vendors: not under our lock */
    if ((d = display_find(dpy)) == NULL &&
        (d = glmux_pixels_display_part(dpy, GLMUX_PIXELS_PART_CONFIGS, &configs_part)) == NULL)
        return NULL;
    pthread_mutex_lock(&configs_lock);
    if (d->made[screen])
        s = &d->screens[screen];
    pthread_mutex_unlock(&configs_lock);
    if (s != NULL)
        return s;
    make_screen(dpy, screen, &made);
    pthread_mutex_lock(&configs_lock);
    if (!d->made[screen]) {
        for (int i = 0; i < made.count; i++)
            made.configs[i].id = next_id++;
        d->screens[screen] = made;
        d->made[screen] = true;
        made.configs = NULL; /* installed */
    }
    s = &d->screens[screen];
    pthread_mutex_unlock(&configs_lock);
    screen_free(&made); /* another thread was first */
    return s;
}

struct glmux_pixels_config *glmux_pixels_configs(Display *dpy, int screen, int *n)
{
    struct screen_configs *s = screen_of(dpy, screen);

    *n = s != NULL ? s->count : 0;
    return *n > 0 ? s->configs : NULL;
}

bool glmux_pixels_config_valid(Display *dpy, const struct glmux_pixels_config *config)
{
    bool ok = false;
    struct display_configs *d;

    if (config == NULL)
        return false;
    d = display_find(dpy);
    pthread_mutex_lock(&configs_lock);
    for (int s = 0; d != NULL && s < d->screen_count && !ok; s++)
        ok = d->screens[s].count > 0 && config >= d->screens[s].configs &&
             config < d->screens[s].configs + d->screens[s].count;
    pthread_mutex_unlock(&configs_lock);
    return ok;
}

/* ---- GLX 1.2 visuals ---- */

XVisualInfo *glmux_pixels_visual_info(Display *dpy, struct glmux_pixels_config *c, bool chosen)
{
    XVisualInfo tmpl = { .visualid = c->visual, .screen = c->screen }, *info;
    struct display_configs *d;
    int n = 0;

    info = XGetVisualInfo(dpy, VisualIDMask | VisualScreenMask, &tmpl, &n);
    if (info == NULL)
        return NULL;
    d = display_find(dpy);
    pthread_mutex_lock(&configs_lock);
    if (d != NULL) {
        d->choices[d->next_choice % VISUAL_CHOICES] = (struct visual_choice){
            .info = info, .visual = c->visual, .screen = c->screen, .chosen = chosen,
            .config = c,
        };
        d->next_choice++;
    }
    pthread_mutex_unlock(&configs_lock);
    return info;
}

struct glmux_pixels_config *glmux_pixels_config_of_visual(Display *dpy, const XVisualInfo *vis)
{
    struct screen_configs *s;
    struct display_configs *d;
    struct glmux_pixels_config *c = NULL;
    int kind;

    if (vis == NULL || !usable_visual(vis) || (s = screen_of(dpy, vis->screen)) == NULL ||
        (kind = visual_kind(s, vis->depth)) < 0)
        return NULL;
    d = display_find(dpy);
    pthread_mutex_lock(&configs_lock);
    /* Newest first: the very XVisualInfo handed out, then what glXChooseVisual chose. */
    for (unsigned i = 0; d != NULL && c == NULL && i < VISUAL_CHOICES; i++) {
        const struct visual_choice *ch = &d->choices[(d->next_choice - 1 - i) % VISUAL_CHOICES];

        if (ch->config != NULL && ch->info == vis && ch->visual == vis->visualid &&
            ch->screen == vis->screen)
            c = ch->config;
    }
    for (unsigned i = 0; d != NULL && c == NULL && i < VISUAL_CHOICES; i++) {
        const struct visual_choice *ch = &d->choices[(d->next_choice - 1 - i) % VISUAL_CHOICES];

        if (ch->config != NULL && ch->chosen && ch->visual == vis->visualid &&
            ch->screen == vis->screen)
            c = ch->config;
    }
    if (c == NULL)
        c = s->fallback[kind];
    pthread_mutex_unlock(&configs_lock);
    return c;
}

VisualID glmux_pixels_visual_standing_for(Display *dpy, int screen, VisualID visual)
{
    XVisualInfo tmpl = { .visualid = visual, .screen = screen }, *info;
    struct screen_configs *s = screen_of(dpy, screen);
    VisualID id = visual;
    int n = 0, kind;

    if (s == NULL || (info = XGetVisualInfo(dpy, VisualIDMask | VisualScreenMask, &tmpl,
                                            &n)) == NULL)
        return visual;
    if (usable_visual(info) && (kind = visual_kind(s, info->depth)) >= 0)
        id = s->visuals[kind];
    XFree(info);
    return id;
}

/* ---- attributes ---- */

int glmux_pixels_config_attrib(const struct glmux_pixels_config *c, int attrib, int *value)
{
    int v;

    switch (attrib) {
    case GLX_FBCONFIG_ID: v = c->id; break;
    case GLX_USE_GL: case GLX_RGBA: case GLX_X_RENDERABLE: v = True; break;
    case GLX_BUFFER_SIZE: v = 24 + c->alpha; break;
    case GLX_LEVEL: case GLX_STEREO: case GLX_AUX_BUFFERS: v = 0; break;
    case GLX_DOUBLEBUFFER: v = c->double_buffer; break;
    case GLX_RED_SIZE: case GLX_GREEN_SIZE: case GLX_BLUE_SIZE: v = 8; break;
    case GLX_ALPHA_SIZE: v = c->alpha; break;
    case GLX_DEPTH_SIZE: v = c->depth_size; break;
    case GLX_STENCIL_SIZE: v = c->stencil; break;
    case GLX_ACCUM_RED_SIZE: case GLX_ACCUM_GREEN_SIZE: case GLX_ACCUM_BLUE_SIZE:
    case GLX_ACCUM_ALPHA_SIZE: v = 0; break;
    case GLX_RENDER_TYPE: v = GLX_RGBA_BIT; break;
    case GLX_DRAWABLE_TYPE: v = GLX_WINDOW_BIT | GLX_PIXMAP_BIT | GLX_PBUFFER_BIT; break;
    case GLX_VISUAL_ID: v = (int)c->visual; break;
    case GLX_X_VISUAL_TYPE: v = GLX_TRUE_COLOR; break;
    case GLX_CONFIG_CAVEAT: v = c->caveat; break;
    case GLX_TRANSPARENT_TYPE: v = GLX_NONE; break;
    case GLX_TRANSPARENT_INDEX_VALUE: v = 0; break;
    /* Opaque configs: Mesa reports GLX_DONT_CARE for the transparent colour. */
    case GLX_TRANSPARENT_RED_VALUE: case GLX_TRANSPARENT_GREEN_VALUE:
    case GLX_TRANSPARENT_BLUE_VALUE: case GLX_TRANSPARENT_ALPHA_VALUE:
        v = (int)GLX_DONT_CARE;
        break;
    case GLX_MAX_PBUFFER_WIDTH: v = c->max_pbuffer_width; break;
    case GLX_MAX_PBUFFER_HEIGHT: v = c->max_pbuffer_height; break;
    case GLX_MAX_PBUFFER_PIXELS: v = c->max_pbuffer_pixels; break;
    case GLX_SAMPLE_BUFFERS: v = c->samples > 0; break;
    case GLX_SAMPLES: v = c->samples; break;
    case GLX_SCREEN: v = c->screen; break;
    case GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB: v = c->srgb; break;
    /* Texture from pixmap: the pixmap's pixels are uploaded top row first (pixels_texture.c). */
    case GLX_BIND_TO_TEXTURE_RGB_EXT: case GLX_BIND_TO_TEXTURE_RGBA_EXT: v = True; break;
    case GLX_BIND_TO_MIPMAP_TEXTURE_EXT: v = False; break;
    case GLX_BIND_TO_TEXTURE_TARGETS_EXT:
        v = GLX_TEXTURE_1D_BIT_EXT | GLX_TEXTURE_2D_BIT_EXT | GLX_TEXTURE_RECTANGLE_BIT_EXT;
        break;
    case GLX_Y_INVERTED_EXT: v = True; break;
    default: return GLX_BAD_ATTRIBUTE;
    }
    *value = v;
    return Success;
}

int glmux_pixels_config_surface_attribs(const struct glmux_pixels_config *c, EGLint *out)
{
    /* Linear is EGL's default; sRGB configs exist only with EGL_KHR_gl_colorspace. */
    if (!c->srgb)
        return 0;
    out[0] = EGL_GL_COLORSPACE;
    out[1] = EGL_GL_COLORSPACE_SRGB;
    return 2;
}

bool glmux_pixels_config_same_surface(const struct glmux_pixels_config *a,
                                      const struct glmux_pixels_config *b)
{
    return a != NULL && b != NULL && a->egl_config == b->egl_config && a->srgb == b->srgb;
}

/* ---- lifetime ---- */

/* Before fork the lock is taken on the forking thread, so that the child finds it free. */
static void configs_fork(enum glmux_fork_step step)
{
    glmux_fork_mutex(&configs_lock, step);
}

GLMUX_LIFECYCLE_STEP(pixels_configs, GLMUX_PIXELS_ORDER_CONFIGS, .fork = configs_fork);
