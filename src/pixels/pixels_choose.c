/* SPDX-License-Identifier: MIT */
/*
 * glmux: the GLX functions of configs and visuals of the pixels GLX vendor (glXChooseFBConfig,
 * glXGetFBConfigs, glXGetFBConfigAttrib, glXGetVisualFromFBConfig, glXChooseVisual,
 * glXGetConfig), and for glXChooseFBConfig and glXChooseVisual which configs match
 * an attribute list and in which order they come, as GLX 1.4 (section 3.3.3 and its table of
 * attribute defaults, selection criteria and sort priorities, with GLX_ARB_multisample,
 * GLX_ARB_framebuffer_sRGB and GLX_EXT_texture_from_pixmap's additions) and the GLX 1.2
 * glXChooseVisual rules say. Each attribute has a default, which differs between the two calls
 * for a few of them (glXChooseVisual: RGBA and double-buffering only when asked for, i.e.
 * colour-index and single-buffered by default), and a rule: at least ("minimum"), exactly,
 * or all the bits of a mask. The sort is the GLX 1.4 one, for both calls: caveat, larger sum of
 * the colour sizes asked for (those asked as 0 or GLX_DONT_CARE not counted), smaller buffer,
 * single- before double-buffered, fewer auxiliary buffers, fewer sample buffers, fewer samples,
 * the largest depth buffer (none first when none was asked for), smaller stencil, larger
 * accumulation buffer, visual type; then the configs' own order (pixels_config.c).
 */
#include <stdlib.h>
#include <string.h>

#include <X11/Xutil.h>

#include "pixels/pixels_choose.h"
#include "pixels/pixels_config.h"


#define DONT_CARE ((int)GLX_DONT_CARE)

enum rule { RULE_MIN, RULE_EXACT, RULE_MASK };

/* The attributes glXChooseFBConfig and glXChooseVisual know; others are skipped with their
 * value. fb/vis: the defaults of glXChooseFBConfig and glXChooseVisual. */
#define GLMUX_PIXELS_CHOOSE_ATTRIBS(X)                                       \
    X(FBCONFIG_ID, GLX_FBCONFIG_ID, RULE_EXACT, DONT_CARE, DONT_CARE)        \
    X(BUFFER_SIZE, GLX_BUFFER_SIZE, RULE_MIN, 0, 0)                           \
    X(LEVEL, GLX_LEVEL, RULE_EXACT, 0, 0)                                     \
    X(DOUBLEBUFFER, GLX_DOUBLEBUFFER, RULE_EXACT, DONT_CARE, False)          \
    X(STEREO, GLX_STEREO, RULE_EXACT, False, False)                          \
    X(AUX_BUFFERS, GLX_AUX_BUFFERS, RULE_MIN, 0, 0)                           \
    X(RED, GLX_RED_SIZE, RULE_MIN, 0, 0)                                      \
    X(GREEN, GLX_GREEN_SIZE, RULE_MIN, 0, 0)                                  \
    X(BLUE, GLX_BLUE_SIZE, RULE_MIN, 0, 0)                                    \
    X(ALPHA, GLX_ALPHA_SIZE, RULE_MIN, 0, 0)                                  \
    X(DEPTH, GLX_DEPTH_SIZE, RULE_MIN, 0, 0)                                  \
    X(STENCIL, GLX_STENCIL_SIZE, RULE_MIN, 0, 0)                              \
    X(ACCUM_RED, GLX_ACCUM_RED_SIZE, RULE_MIN, 0, 0)                          \
    X(ACCUM_GREEN, GLX_ACCUM_GREEN_SIZE, RULE_MIN, 0, 0)                      \
    X(ACCUM_BLUE, GLX_ACCUM_BLUE_SIZE, RULE_MIN, 0, 0)                        \
    X(ACCUM_ALPHA, GLX_ACCUM_ALPHA_SIZE, RULE_MIN, 0, 0)                      \
    X(RENDER_TYPE, GLX_RENDER_TYPE, RULE_MASK, GLX_RGBA_BIT, GLX_COLOR_INDEX_BIT) \
    X(DRAWABLE_TYPE, GLX_DRAWABLE_TYPE, RULE_MASK, GLX_WINDOW_BIT, GLX_WINDOW_BIT) \
    X(X_RENDERABLE, GLX_X_RENDERABLE, RULE_EXACT, DONT_CARE, DONT_CARE)      \
    X(X_VISUAL_TYPE, GLX_X_VISUAL_TYPE, RULE_EXACT, DONT_CARE, DONT_CARE)    \
    X(CAVEAT, GLX_CONFIG_CAVEAT, RULE_EXACT, DONT_CARE, DONT_CARE)           \
    X(TRANSPARENT_TYPE, GLX_TRANSPARENT_TYPE, RULE_EXACT, GLX_NONE, GLX_NONE) \
    X(TRANSPARENT_INDEX, GLX_TRANSPARENT_INDEX_VALUE, RULE_EXACT, DONT_CARE, DONT_CARE) \
    X(TRANSPARENT_RED, GLX_TRANSPARENT_RED_VALUE, RULE_EXACT, DONT_CARE, DONT_CARE) \
    X(TRANSPARENT_GREEN, GLX_TRANSPARENT_GREEN_VALUE, RULE_EXACT, DONT_CARE, DONT_CARE) \
    X(TRANSPARENT_BLUE, GLX_TRANSPARENT_BLUE_VALUE, RULE_EXACT, DONT_CARE, DONT_CARE) \
    X(TRANSPARENT_ALPHA, GLX_TRANSPARENT_ALPHA_VALUE, RULE_EXACT, DONT_CARE, DONT_CARE) \
    X(VISUAL_ID, GLX_VISUAL_ID, RULE_EXACT, DONT_CARE, DONT_CARE)            \
    X(MAX_PBUFFER_WIDTH, GLX_MAX_PBUFFER_WIDTH, RULE_MIN, 0, 0)               \
    X(MAX_PBUFFER_HEIGHT, GLX_MAX_PBUFFER_HEIGHT, RULE_MIN, 0, 0)             \
    X(MAX_PBUFFER_PIXELS, GLX_MAX_PBUFFER_PIXELS, RULE_MIN, 0, 0)             \
    X(SAMPLE_BUFFERS, GLX_SAMPLE_BUFFERS, RULE_MIN, 0, 0)                     \
    X(SAMPLES, GLX_SAMPLES, RULE_MIN, 0, 0)                                   \
    X(SRGB, GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB, RULE_EXACT, DONT_CARE, DONT_CARE) \
    X(BIND_RGB, GLX_BIND_TO_TEXTURE_RGB_EXT, RULE_EXACT, DONT_CARE, DONT_CARE) \
    X(BIND_RGBA, GLX_BIND_TO_TEXTURE_RGBA_EXT, RULE_EXACT, DONT_CARE, DONT_CARE) \
    X(BIND_MIPMAP, GLX_BIND_TO_MIPMAP_TEXTURE_EXT, RULE_EXACT, DONT_CARE, DONT_CARE) \
    X(BIND_TARGETS, GLX_BIND_TO_TEXTURE_TARGETS_EXT, RULE_MASK, DONT_CARE, DONT_CARE) \
    X(Y_INVERTED, GLX_Y_INVERTED_EXT, RULE_EXACT, DONT_CARE, DONT_CARE)

enum slot {
#define GLMUX_PIXELS_SLOT(slot, token, rule, fb, vis) SLOT_##slot,
    GLMUX_PIXELS_CHOOSE_ATTRIBS(GLMUX_PIXELS_SLOT)
#undef GLMUX_PIXELS_SLOT
    SLOT_COUNT
};

static const struct {
    int token;
    enum rule rule;
    int fb_default, vis_default;
} attrs[SLOT_COUNT] = {
#define GLMUX_PIXELS_ATTR(slot, token, rule, fb, vis) {token, rule, fb, vis},
    GLMUX_PIXELS_CHOOSE_ATTRIBS(GLMUX_PIXELS_ATTR)
#undef GLMUX_PIXELS_ATTR
};

struct request {
    int value[SLOT_COUNT];
    bool given[SLOT_COUNT];
};

static int slot_of(int token)
{
    for (int i = 0; i < SLOT_COUNT; i++) {
        if (attrs[i].token == token)
            return i;
    }
    return -1;
}

static void set(struct request *r, int token, int value)
{
    int slot = slot_of(token);

    if (slot >= 0) {
        r->value[slot] = value;
        r->given[slot] = true;
    }
}

/* Reads an attribute list: every entry a pair, except glXChooseVisual's boolean tokens. */
static void parse(struct request *r, const int *attribs, bool visual_style)
{
    for (int i = 0; i < SLOT_COUNT; i++)
        r->value[i] = visual_style ? attrs[i].vis_default : attrs[i].fb_default;
    memset(r->given, 0, sizeof(r->given));
    for (const int *a = attribs; a != NULL && *a != None;) {
        if (visual_style) {
            switch (*a) {
            case GLX_USE_GL: a++; continue;
            case GLX_RGBA: set(r, GLX_RENDER_TYPE, GLX_RGBA_BIT); a++; continue;
            case GLX_DOUBLEBUFFER: set(r, GLX_DOUBLEBUFFER, True); a++; continue;
            case GLX_STEREO: set(r, GLX_STEREO, True); a++; continue;
            default: break;
            }
        }
        set(r, a[0], a[1]);
        a += 2;
    }
}

/* Whether the request takes the attribute in slot into account (GLX 1.4's "ignored if"). */
static bool considered(const struct request *r, int slot)
{
    switch (slot) {
    case SLOT_BUFFER_SIZE: /* a colour-index size */
        return r->value[SLOT_RENDER_TYPE] != DONT_CARE &&
               (r->value[SLOT_RENDER_TYPE] & GLX_COLOR_INDEX_BIT);
    case SLOT_X_VISUAL_TYPE:
        return !(r->given[SLOT_DRAWABLE_TYPE] && r->value[SLOT_DRAWABLE_TYPE] != DONT_CARE &&
                 !(r->value[SLOT_DRAWABLE_TYPE] & GLX_WINDOW_BIT)) &&
               !(r->given[SLOT_X_RENDERABLE] && r->value[SLOT_X_RENDERABLE] == False);
    case SLOT_TRANSPARENT_INDEX:
        return r->given[SLOT_TRANSPARENT_TYPE] &&
               r->value[SLOT_TRANSPARENT_TYPE] == GLX_TRANSPARENT_INDEX;
    case SLOT_TRANSPARENT_RED: case SLOT_TRANSPARENT_GREEN: case SLOT_TRANSPARENT_BLUE:
    case SLOT_TRANSPARENT_ALPHA:
        return r->given[SLOT_TRANSPARENT_TYPE] &&
               r->value[SLOT_TRANSPARENT_TYPE] == GLX_TRANSPARENT_RGB;
    default:
        return true;
    }
}

static int attrib(const struct glmux_pixels_config *c, int slot)
{
    int v = 0;

    glmux_pixels_config_attrib(c, attrs[slot].token, &v);
    return v;
}

static bool matches(const struct glmux_pixels_config *c, const struct request *r)
{
    for (int i = 0; i < SLOT_COUNT; i++) {
        int want = r->value[i], have;

        if (want == DONT_CARE || !considered(r, i))
            continue;
        have = attrib(c, i);
        switch (attrs[i].rule) {
        case RULE_MIN:
            if (have < want)
                return false;
            break;
        case RULE_MASK:
            if ((have & want) != want)
                return false;
            break;
        case RULE_EXACT:
            if (have != want)
                return false;
            break;
        }
    }
    return true;
}

/* The sum of the colour sizes asked for (at least 1, not GLX_DONT_CARE), of c. */
static int asked_sum(const struct glmux_pixels_config *c, const struct request *r, int first)
{
    int sum = 0;

    for (int i = first; i < first + 4; i++) {
        if (r->value[i] != 0 && r->value[i] != DONT_CARE)
            sum += attrib(c, i);
    }
    return sum;
}

/* < 0 when a comes first. */
static int compare(const struct glmux_pixels_config *a, const struct glmux_pixels_config *b,
                   const struct request *r)
{
    int d;

    if (a->caveat != b->caveat) /* GLX_NONE < GLX_SLOW_CONFIG < GLX_NON_CONFORMANT_CONFIG */
        return a->caveat < b->caveat ? -1 : 1;
    if ((d = asked_sum(b, r, SLOT_RED) - asked_sum(a, r, SLOT_RED)) != 0)
        return d;
    if ((d = attrib(a, SLOT_BUFFER_SIZE) - attrib(b, SLOT_BUFFER_SIZE)) != 0)
        return d;
    if (a->double_buffer != b->double_buffer)
        return a->double_buffer ? 1 : -1;
    if ((d = attrib(a, SLOT_AUX_BUFFERS) - attrib(b, SLOT_AUX_BUFFERS)) != 0)
        return d;
    if ((d = (a->samples > 0) - (b->samples > 0)) != 0 || (d = a->samples - b->samples) != 0)
        return d;
    if (a->depth_size != b->depth_size) {
        /* "If this value is zero, configurations with no depth buffer are preferred." */
        if (r->value[SLOT_DEPTH] == 0 || r->value[SLOT_DEPTH] == DONT_CARE) {
            if (a->depth_size == 0)
                return -1;
            if (b->depth_size == 0)
                return 1;
        }
        return b->depth_size - a->depth_size;
    }
    if ((d = a->stencil - b->stencil) != 0)
        return d;
    if ((d = asked_sum(b, r, SLOT_ACCUM_RED) - asked_sum(a, r, SLOT_ACCUM_RED)) != 0)
        return d;
    /* GLX_X_VISUAL_TYPE: every config is TrueColor. Then the configs' own order. */
    return a->id - b->id;
}

static GLXFBConfig *choose(Display *dpy, int screen, const int *attribs, bool visual_style,
                           int *n)
{
    int count, found = 0;
    struct glmux_pixels_config *c = glmux_pixels_configs(dpy, screen, &count);
    struct request r;
    GLXFBConfig *out;

    *n = 0;
    if (c == NULL || (out = malloc(sizeof(*out) * (size_t)count)) == NULL)
        return NULL;
    parse(&r, attribs, visual_style);
    if (r.value[SLOT_VISUAL_ID] != DONT_CARE)
        r.value[SLOT_VISUAL_ID] = (int)glmux_pixels_visual_standing_for(
            dpy, screen, (VisualID)(unsigned)r.value[SLOT_VISUAL_ID]);
    for (int i = 0; i < count; i++) {
        bool ok;

        if (!visual_style && attribs == NULL)
            ok = true; /* "If attrib_list is NULL, all configs of the screen" (unsorted) */
        else if (!visual_style && r.value[SLOT_FBCONFIG_ID] != DONT_CARE)
            ok = c[i].id == r.value[SLOT_FBCONFIG_ID]; /* every other attribute is ignored */
        else
            ok = matches(&c[i], &r);
        if (ok)
            out[found++] = (GLXFBConfig)&c[i];
    }
    /* Insertion sort, stable: a few hundred configs at most. */
    for (int i = 1; i < found && (visual_style || attribs != NULL); i++) {
        GLXFBConfig x = out[i];
        int j = i - 1;

        while (j >= 0 && compare((struct glmux_pixels_config *)out[j],
                                 (struct glmux_pixels_config *)x, &r) > 0) {
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

/* ---- the GLX functions ---- */

GLXFBConfig *glmux_pixels_ChooseFBConfig(Display *dpy, int screen, const int *attribs, int *n)
{
    int count = 0;
    GLXFBConfig *c = choose(dpy, screen, attribs, false, &count);

    if (n != NULL)
        *n = count;
    return c;
}

GLXFBConfig *glmux_pixels_GetFBConfigs(Display *dpy, int screen, int *n)
{
    int count = 0;
    struct glmux_pixels_config *c = glmux_pixels_configs(dpy, screen, &count);
    GLXFBConfig *out = count > 0 ? malloc(sizeof(*out) * (size_t)count) : NULL;

    if (out == NULL)
        count = 0;
    for (int i = 0; i < count; i++)
        out[i] = (GLXFBConfig)&c[i];
    if (n != NULL)
        *n = count;
    return out;
}

int glmux_pixels_GetFBConfigAttrib(Display *dpy, GLXFBConfig config, int attrib, int *value)
{
    if (!glmux_pixels_config_valid(dpy, (struct glmux_pixels_config *)config))
        return GLX_BAD_VISUAL; /* GLXBadFBConfig is an X error; the call's own code */
    return glmux_pixels_config_attrib((struct glmux_pixels_config *)config, attrib, value);
}

XVisualInfo *glmux_pixels_GetVisualFromFBConfig(Display *dpy, GLXFBConfig config)
{
    if (!glmux_pixels_config_valid(dpy, (struct glmux_pixels_config *)config))
        return NULL;
    return glmux_pixels_visual_info(dpy, (struct glmux_pixels_config *)config, false);
}

XVisualInfo *glmux_pixels_ChooseVisual(Display *dpy, int screen, int *attribs)
{
    int n = 0;
    GLXFBConfig *c = choose(dpy, screen, attribs, true, &n);
    XVisualInfo *vi = NULL;

    if (c != NULL && n > 0)
        vi = glmux_pixels_visual_info(dpy, (struct glmux_pixels_config *)c[0], true);
    free(c);
    return vi;
}

int glmux_pixels_GetConfig(Display *dpy, XVisualInfo *vis, int attrib, int *value)
{
    struct glmux_pixels_config *c;

    if (vis == NULL)
        return GLX_BAD_VISUAL;
    c = glmux_pixels_config_of_visual(dpy, vis);
    if (c == NULL) {
        if (attrib == GLX_USE_GL) {
            *value = False;
            return Success;
        }
        return GLX_BAD_VISUAL;
    }
    return glmux_pixels_config_attrib(c, attrib, value);
}
