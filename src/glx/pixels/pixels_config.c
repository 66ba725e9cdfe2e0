/* SPDX-License-Identifier: MIT */
/*
 * glmux: the FBConfigs and visuals of the pixels GLX vendor. Every TrueColor visual of the
 * screen with 8-bit red, green and blue (depth 24, or depth 32 with 8 bits of alpha) gets two
 * FBConfigs, double- and single-buffered, each with a 24-bit depth and 8-bit stencil buffer and
 * usable for windows, pixmaps and pbuffers; the default visual's come first. Each is backed by
 * an EGL config of the EGL vendor with the same sizes and EGL_PBUFFER_BIT. A visual used through
 * the GLX 1.2 calls (glXChooseVisual, glXCreateContext) is the double-buffered config.
 * glXChooseFBConfig and glXChooseVisual match and sort by the GLX 1.4 rules for the attributes
 * these configs can differ in; the others must ask for what every config has.
 */
#include <stdlib.h>
#include <string.h>

#include <X11/Xutil.h>

#include "glx/pixels/pixels.h"
#include "util/log.h"

#ifndef GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB
#define GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB 0x20B2
#endif

struct display_configs {
    struct display_configs *next;
    Display *dpy;
    int screen_count;
    struct glmux_pixels_screen *screens;
    bool *made;
};

static pthread_mutex_t configs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct display_configs *displays;
static int next_id = 1;

static EGLConfig egl_config_for(const struct glmux_pixels_egl *egl, int alpha)
{
    const EGLint attribs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, alpha,
        EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8, EGL_NONE,
    };
    EGLConfig configs[64];
    EGLint n = 0;

    if (!egl->ChooseConfig(egl->display, attribs, configs, 64, &n))
        return NULL;
    for (EGLint i = 0; i < n; i++) {
        EGLint r = 0, g = 0, b = 0, a = 0;

        egl->GetConfigAttrib(egl->display, configs[i], EGL_RED_SIZE, &r);
        egl->GetConfigAttrib(egl->display, configs[i], EGL_GREEN_SIZE, &g);
        egl->GetConfigAttrib(egl->display, configs[i], EGL_BLUE_SIZE, &b);
        egl->GetConfigAttrib(egl->display, configs[i], EGL_ALPHA_SIZE, &a);
        if (r == 8 && g == 8 && b == 8 && (alpha == 0 || a == alpha))
            return configs[i];
    }
    return NULL;
}

static bool usable_visual(const XVisualInfo *v)
{
    return v->class == TrueColor && (v->depth == 24 || v->depth == 32) &&
           v->bits_per_rgb == 8 && v->red_mask == 0xff0000 && v->green_mask == 0xff00 &&
           v->blue_mask == 0xff;
}

static void add_configs(struct glmux_pixels_screen *s, const XVisualInfo *v, EGLConfig egl_cfg,
                        int screen)
{
    for (int dbl = 1; dbl >= 0; dbl--) {
        struct glmux_pixels_config *c = &s->configs[s->count++];

        memset(c, 0, sizeof(*c));
        c->id = next_id++;
        c->screen = screen;
        c->visual = v->visualid;
        c->depth = v->depth;
        c->alpha = v->depth == 32 ? 8 : 0;
        c->depth_size = 24;
        c->stencil = 8;
        c->double_buffer = dbl;
        c->egl_config = egl_cfg;
    }
}

/* Fills in the configs of one screen (configs_lock held). */
static void make_screen(Display *dpy, int screen, struct glmux_pixels_screen *s)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    XVisualInfo tmpl = { .screen = screen }, *vis;
    VisualID def = XVisualIDFromVisual(DefaultVisual(dpy, screen));
    int n = 0;

    if (egl == NULL)
        return;
    vis = XGetVisualInfo(dpy, VisualScreenMask, &tmpl, &n);
    if (vis == NULL)
        return;
    s->configs = calloc((size_t)n * 2, sizeof(*s->configs));
    if (s->configs == NULL) {
        XFree(vis);
        return;
    }
    /* The default visual first, then the others in the server's order. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            EGLConfig cfg;

            if ((pass == 0) != (vis[i].visualid == def) || !usable_visual(&vis[i]))
                continue;
            cfg = egl_config_for(egl, vis[i].depth == 32 ? 8 : 0);
            if (cfg != NULL)
                add_configs(s, &vis[i], cfg, screen);
        }
    }
    XFree(vis);
    if (s->count == 0)
        glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: screen %d of %s has no TrueColor visual "
                  "with 8-bit red, green and blue that EGL vendor \"%s\" can render; "
                  "glXChooseFBConfig will find nothing", screen, DisplayString(dpy),
                  egl->vendor_name);
}

static struct display_configs *display_of(Display *dpy)
{
    struct display_configs *d;

    for (d = displays; d != NULL; d = d->next) {
        if (d->dpy == dpy)
            return d;
    }
    d = calloc(1, sizeof(*d));
    if (d == NULL)
        return NULL;
    d->dpy = dpy;
    d->screen_count = ScreenCount(dpy);
    d->screens = calloc((size_t)d->screen_count, sizeof(*d->screens));
    d->made = calloc((size_t)d->screen_count, sizeof(*d->made));
    if (d->screens == NULL || d->made == NULL) {
        free(d->screens);
        free(d->made);
        free(d);
        return NULL;
    }
    d->next = displays;
    displays = d;
    return d;
}

struct glmux_pixels_config *glmux_pixels_configs(Display *dpy, int screen, int *n)
{
    struct display_configs *d;
    struct glmux_pixels_config *c = NULL;

    *n = 0;
    if (dpy == NULL || screen < 0 || screen >= ScreenCount(dpy))
        return NULL;
    pthread_mutex_lock(&configs_lock);
    d = display_of(dpy);
    if (d != NULL) {
        if (!d->made[screen]) {
            make_screen(dpy, screen, &d->screens[screen]);
            d->made[screen] = true;
        }
        c = d->screens[screen].configs;
        *n = d->screens[screen].count;
    }
    pthread_mutex_unlock(&configs_lock);
    return *n > 0 ? c : NULL;
}

bool glmux_pixels_config_valid(Display *dpy, const struct glmux_pixels_config *config)
{
    bool ok = false;

    if (config == NULL)
        return false;
    pthread_mutex_lock(&configs_lock);
    for (struct display_configs *d = displays; d != NULL && !ok; d = d->next) {
        if (d->dpy != dpy)
            continue;
        for (int s = 0; s < d->screen_count && !ok; s++)
            ok = d->screens[s].count > 0 && config >= d->screens[s].configs &&
                 config < d->screens[s].configs + d->screens[s].count;
    }
    pthread_mutex_unlock(&configs_lock);
    return ok;
}

struct glmux_pixels_config *glmux_pixels_config_of_visual(Display *dpy, int screen,
                                                          VisualID visual)
{
    int n;
    struct glmux_pixels_config *c = glmux_pixels_configs(dpy, screen, &n);

    for (int i = 0; i < n; i++) {
        if (c[i].visual == visual && c[i].double_buffer)
            return &c[i];
    }
    return NULL;
}

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
    case GLX_CONFIG_CAVEAT: case GLX_TRANSPARENT_TYPE: v = GLX_NONE; break;
    case GLX_TRANSPARENT_INDEX_VALUE: case GLX_TRANSPARENT_RED_VALUE:
    case GLX_TRANSPARENT_GREEN_VALUE: case GLX_TRANSPARENT_BLUE_VALUE:
    case GLX_TRANSPARENT_ALPHA_VALUE: v = 0; break;
    case GLX_MAX_PBUFFER_WIDTH: case GLX_MAX_PBUFFER_HEIGHT: v = 8192; break;
    case GLX_MAX_PBUFFER_PIXELS: v = 8192 * 8192; break;
    case GLX_SAMPLE_BUFFERS: case GLX_SAMPLES: v = 0; break;
    case GLX_SCREEN: v = c->screen; break;
    case GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB: v = 0; break;
    default: return GLX_BAD_ATTRIBUTE;
    }
    *value = v;
    return Success;
}

enum rule { RULE_MIN, RULE_EXACT, RULE_MASK, RULE_IGNORE };

static enum rule rule_of(int attrib)
{
    switch (attrib) {
    case GLX_BUFFER_SIZE: case GLX_RED_SIZE: case GLX_GREEN_SIZE: case GLX_BLUE_SIZE:
    case GLX_ALPHA_SIZE: case GLX_DEPTH_SIZE: case GLX_STENCIL_SIZE: case GLX_AUX_BUFFERS:
    case GLX_ACCUM_RED_SIZE: case GLX_ACCUM_GREEN_SIZE: case GLX_ACCUM_BLUE_SIZE:
    case GLX_ACCUM_ALPHA_SIZE: case GLX_SAMPLE_BUFFERS: case GLX_SAMPLES:
        return RULE_MIN;
    case GLX_RENDER_TYPE: case GLX_DRAWABLE_TYPE:
        return RULE_MASK;
    case GLX_LEVEL: case GLX_DOUBLEBUFFER: case GLX_STEREO: case GLX_X_RENDERABLE:
    case GLX_X_VISUAL_TYPE: case GLX_CONFIG_CAVEAT: case GLX_VISUAL_ID: case GLX_FBCONFIG_ID:
    case GLX_TRANSPARENT_TYPE: case GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB:
        return RULE_EXACT;
    default:
        return RULE_IGNORE;
    }
}

static bool matches(const struct glmux_pixels_config *c, int attrib, int want)
{
    int have = 0;
    enum rule r = rule_of(attrib);

    if (want == (int)GLX_DONT_CARE || r == RULE_IGNORE)
        return true;
    if (glmux_pixels_config_attrib(c, attrib, &have) != Success)
        return true;
    switch (r) {
    case RULE_MIN: return have >= want;
    case RULE_MASK: return (have & want) == want;
    default: return have == want;
    }
}

struct sort_ctx {
    bool want_alpha;
    int index;
};

/* GLX 1.4 sort order for what our configs differ in: color bits asked for (larger first),
 * single before double, smaller buffer size, then the server's order. */
static int compare(const struct glmux_pixels_config *a, const struct glmux_pixels_config *b,
                   bool want_alpha)
{
    if (want_alpha && a->alpha != b->alpha)
        return b->alpha - a->alpha;
    if (a->double_buffer != b->double_buffer)
        return a->double_buffer - b->double_buffer;
    if (a->alpha != b->alpha)
        return a->alpha - b->alpha;
    return a->id - b->id;
}

GLXFBConfig *glmux_pixels_choose(Display *dpy, int screen, const int *attribs, bool visual_style,
                                 int *n)
{
    int count, found = 0;
    struct glmux_pixels_config *c = glmux_pixels_configs(dpy, screen, &count);
    GLXFBConfig *out;
    bool want_alpha = false, rgba = !visual_style;

    *n = 0;
    if (c == NULL)
        return NULL;
    /* Pass over the list once for the GLX 1.2 boolean tokens and the alpha request. */
    for (const int *a = attribs; a != NULL && *a != None;) {
        if (visual_style && (*a == GLX_USE_GL || *a == GLX_RGBA || *a == GLX_DOUBLEBUFFER ||
                             *a == GLX_STEREO)) {
            if (*a == GLX_RGBA)
                rgba = true;
            if (*a == GLX_STEREO)
                return NULL;
            a++;
            continue;
        }
        if (*a == GLX_ALPHA_SIZE && a[1] > 0 && a[1] != (int)GLX_DONT_CARE)
            want_alpha = true;
        if (*a == GLX_RENDER_TYPE && !(a[1] & GLX_RGBA_BIT) && a[1] != (int)GLX_DONT_CARE)
            return NULL;
        a += 2;
    }
    if (!rgba)
        return NULL; /* color-index visuals: none */
    out = malloc(sizeof(*out) * (size_t)count);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < count; i++) {
        bool ok = !visual_style || c[i].double_buffer;

        for (const int *a = attribs; ok && a != NULL && *a != None;) {
            if (visual_style && (*a == GLX_USE_GL || *a == GLX_RGBA || *a == GLX_DOUBLEBUFFER ||
                                 *a == GLX_STEREO)) {
                a++;
                continue;
            }
            if (!(visual_style && *a == GLX_DOUBLEBUFFER))
                ok = matches(&c[i], a[0], a[1]);
            a += 2;
        }
        if (ok)
            out[found++] = (GLXFBConfig)&c[i];
    }
    /* Insertion sort: a dozen configs at most per screen. */
    for (int i = 1; i < found; i++) {
        GLXFBConfig x = out[i];
        int j = i - 1;

        while (j >= 0 && compare((struct glmux_pixels_config *)out[j],
                                 (struct glmux_pixels_config *)x, want_alpha) > 0) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = x;
    }
    if (found == 0) {
        free(out);
        return NULL;
    }
    *n = found;
    return out;
}

XVisualInfo *glmux_pixels_visual_info(Display *dpy, const struct glmux_pixels_config *c)
{
    XVisualInfo tmpl = { .visualid = c->visual, .screen = c->screen };
    int n = 0;

    return XGetVisualInfo(dpy, VisualIDMask | VisualScreenMask, &tmpl, &n);
}

void glmux_pixels_config_after_fork(void)
{
    pthread_mutex_init(&configs_lock, NULL);
}

void glmux_pixels_config_display_closed(Display *dpy)
{
    pthread_mutex_lock(&configs_lock);
    for (struct display_configs **p = &displays; *p != NULL; p = &(*p)->next) {
        if ((*p)->dpy == dpy) {
            struct display_configs *d = *p;

            *p = d->next;
            for (int s = 0; s < d->screen_count; s++)
                free(d->screens[s].configs);
            free(d->screens);
            free(d->made);
            free(d);
            break;
        }
    }
    pthread_mutex_unlock(&configs_lock);
}
