/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the FBConfigs of the pixels GLX vendor (src/pixels/pixels_config.c,
 * pixels_choose.c, pixels_texture.c) on an Xvfb without GLX that run_glx_pixels.sh started.
 * usage: glx_pixels_configs choose | render | visuals | tfp
 *   choose  the configs cover what applications ask for (depth 0/16/24, stencil 0/8, alpha or
 *           not, single/double, multisampled, sRGB), report consistent attributes, and
 *           glXChooseFBConfig / glXChooseVisual match and sort them as GLX 1.4 says.
 *   render  every config renders the right pixels in a window of its visual, read back from the
 *           server with XGetImage: the depth test, the stencil test, destination alpha (and the
 *           alpha of a depth-32 window), multisample resolve, sRGB encoding; a double-buffered
 *           config shows the frame at glXSwapBuffers only, a single-buffered one at glFlush.
 *   visuals GLX 1.2: glXChooseVisual gives single-buffered and multisampled visuals too, and
 *           glXCreateContext / glXGetConfig with that XVisualInfo (or a copy) get its config.
 *   tfp     GLX_EXT_texture_from_pixmap through libGLX's dispatch: a pixmap drawn by X, and one
 *           drawn by GL, bound as a texture and drawn into a window.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <GL/gl.h>
#include <GL/glx.h>
#include <GL/glxext.h>

#include "glmux_test.h"
#include "pixels_util.h"

#ifndef GL_FRAMEBUFFER_SRGB
#define GL_FRAMEBUFFER_SRGB 0x8DB9
#endif
#ifndef GL_MULTISAMPLE
#define GL_MULTISAMPLE 0x809D
#endif
#ifndef GL_SAMPLES
#define GL_SAMPLES 0x80A9
#endif
#ifndef GL_TEXTURE_RECTANGLE
#define GL_TEXTURE_RECTANGLE 0x84F5
#endif

#define SIZE 32
#define BACKGROUND 0x204060ul

static Display *dpy;
static int screen;

static void open_display(void)
{
    const char *vendor;

    dpy = pixels_open_display();
    XSetErrorHandler(pixels_count_errors);
    screen = DefaultScreen(dpy);
    glmux_test_require_ours("libGLX.so.0");
    vendor = glXGetClientString(dpy, GLX_VENDOR);
    CHECK_MSG(vendor != NULL && strstr(vendor, "glmux pixels") != NULL, "GLX vendor \"%s\"",
              vendor ? vendor : "(null)");
}

static int attr(GLXFBConfig c, int a)
{
    int v = -12345;

    CHECK_MSG(glXGetFBConfigAttrib(dpy, c, a, &v) == Success, "attribute 0x%x", a);
    return v;
}

/* No X error reached the application. */
static void close_display(void)
{
    XSync(dpy, False);
    CHECK_MSG(pixels_app_errors == 0, "%d X errors reached the application", pixels_app_errors);
    XCloseDisplay(dpy);
}

/* ---- choose ---- */

/* The GLX 1.4 sort key of c for a request that asked for the colour sizes in asked (r,g,b,a)
 * and for depth (0: none asked); compared as a tuple, smaller first. */
static void sort_key(GLXFBConfig c, const int asked[4], int depth_asked, long key[8])
{
    static const int colour[4] = { GLX_RED_SIZE, GLX_GREEN_SIZE, GLX_BLUE_SIZE, GLX_ALPHA_SIZE };
    int sum = 0, depth = attr(c, GLX_DEPTH_SIZE);

    for (int i = 0; i < 4; i++)
        sum += asked[i] > 0 ? attr(c, colour[i]) : 0;
    key[0] = attr(c, GLX_CONFIG_CAVEAT);
    key[1] = -sum;
    key[2] = attr(c, GLX_BUFFER_SIZE);
    key[3] = attr(c, GLX_DOUBLEBUFFER);
    key[4] = attr(c, GLX_SAMPLE_BUFFERS);
    key[5] = attr(c, GLX_SAMPLES);
    key[6] = depth_asked == 0 && depth == 0 ? -1000 : -depth;
    key[7] = attr(c, GLX_STENCIL_SIZE);
}

/* glXChooseFBConfig(attribs): every result matches pred-free checks done by the caller, and
 * the list is in GLX 1.4 order. Returns the list (XFree it) and its length. */
static GLXFBConfig *choose_sorted(const int *attribs, const int asked[4], int depth_asked,
                                  int *n)
{
    GLXFBConfig *c = glXChooseFBConfig(dpy, screen, attribs, n);

    for (int i = 1; c != NULL && i < *n; i++) {
        long a[8], b[8];
        int order = 0;

        sort_key(c[i - 1], asked, depth_asked, a);
        sort_key(c[i], asked, depth_asked, b);
        for (int k = 0; k < 8 && order == 0; k++)
            order = a[k] < b[k] ? -1 : a[k] > b[k];
        CHECK_MSG(order <= 0, "configs %d and %d (ids 0x%x, 0x%x) are out of GLX 1.4 order", i - 1,
                  i, attr(c[i - 1], GLX_FBCONFIG_ID), attr(c[i], GLX_FBCONFIG_ID));
    }
    return c;
}

static bool has_config(GLXFBConfig *all, int n, int alpha, int depth, int stencil, int dbl,
                       bool ms, int srgb)
{
    for (int i = 0; i < n; i++) {
        if (attr(all[i], GLX_ALPHA_SIZE) == alpha && attr(all[i], GLX_DEPTH_SIZE) == depth &&
            attr(all[i], GLX_STENCIL_SIZE) == stencil &&
            attr(all[i], GLX_DOUBLEBUFFER) == dbl && (attr(all[i], GLX_SAMPLES) > 0) == ms &&
            attr(all[i], GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB) == srgb)
            return true;
    }
    return false;
}

static int choose(void)
{
    static const int none_asked[4] = { 0, 0, 0, 0 }, rgb_asked[4] = { 1, 1, 1, 0 };
    static const int defaults[] = { None };
    static const int gears[] = { GLX_RED_SIZE, 1, GLX_GREEN_SIZE, 1, GLX_BLUE_SIZE, 1,
                                 GLX_DEPTH_SIZE, 1, GLX_DOUBLEBUFFER, True, None };
    static const int ms4[] = { GLX_SAMPLE_BUFFERS, 1, GLX_SAMPLES, 4, GLX_DOUBLEBUFFER, True,
                               None };
    static const int glmark2[] = { GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
                                   GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_X_VISUAL_TYPE,
                                   GLX_TRUE_COLOR, GLX_DOUBLEBUFFER, True, None };
    int visual_gl[] = { GLX_RGBA, GLX_DEPTH_SIZE, 1, None };
    int visual_ci[] = { GLX_DEPTH_SIZE, 1, None };
    int visual_ms[] = { GLX_RGBA, GLX_DOUBLEBUFFER, GLX_SAMPLE_BUFFERS, 1, GLX_SAMPLES, 2, None };
    GLXFBConfig *all, *c;
    int n = 0, m = 0, v = 0;
    XVisualInfo *vi;

    open_display();
    all = glXGetFBConfigs(dpy, screen, &n);
    CHECK_MSG(all != NULL && n >= 40, "%d FBConfigs", n);
    printf("%d FBConfigs\n", n);
    /* What applications ask for is there: depth 0/16/24, stencil 0/8, alpha or not,
     * single/double, sRGB or not; and multisampled ones (llvmpipe: 4 samples). */
    for (int alpha = 0; alpha <= 8; alpha += 8)
        for (int dbl = 0; dbl <= 1; dbl++)
            for (int srgb = 0; srgb <= 1; srgb++) {
                CHECK(has_config(all, n, alpha, 0, 0, dbl, false, srgb));
                CHECK(has_config(all, n, alpha, 16, 0, dbl, false, srgb));
                CHECK(has_config(all, n, alpha, 24, 0, dbl, false, srgb));
                CHECK(has_config(all, n, alpha, 24, 8, dbl, false, srgb));
                CHECK(has_config(all, n, alpha, 24, 8, dbl, true, srgb));
            }
    for (int i = 0; i < n; i++) {
        XVisualInfo *info = glXGetVisualFromFBConfig(dpy, all[i]);

        CHECK(info != NULL && info->visualid == (VisualID)attr(all[i], GLX_VISUAL_ID));
        CHECK(info->class == TrueColor && attr(all[i], GLX_X_VISUAL_TYPE) == GLX_TRUE_COLOR);
        CHECK(attr(all[i], GLX_BUFFER_SIZE) == 24 + attr(all[i], GLX_ALPHA_SIZE));
        CHECK(info->depth == 24 || attr(all[i], GLX_ALPHA_SIZE) == 8);
        CHECK((attr(all[i], GLX_SAMPLES) > 0) == attr(all[i], GLX_SAMPLE_BUFFERS));
        CHECK(attr(all[i], GLX_DRAWABLE_TYPE) ==
              (GLX_WINDOW_BIT | GLX_PIXMAP_BIT | GLX_PBUFFER_BIT));
        CHECK(attr(all[i], GLX_RENDER_TYPE) == GLX_RGBA_BIT && attr(all[i], GLX_X_RENDERABLE));
        CHECK(attr(all[i], GLX_TRANSPARENT_TYPE) == GLX_NONE);
        CHECK(attr(all[i], GLX_CONFIG_CAVEAT) == GLX_NONE);
        CHECK(attr(all[i], GLX_BIND_TO_TEXTURE_RGB_EXT) && attr(all[i], GLX_Y_INVERTED_EXT));
        CHECK(attr(all[i], GLX_BIND_TO_TEXTURE_TARGETS_EXT) & GLX_TEXTURE_2D_BIT_EXT);
        CHECK(attr(all[i], GLX_MAX_PBUFFER_WIDTH) > 0);
        CHECK(attr(all[i], GLX_FBCONFIG_ID) > 0 &&
              (i == 0 || attr(all[i], GLX_FBCONFIG_ID) != attr(all[i - 1], GLX_FBCONFIG_ID)));
        XFree(info);
    }
    /* A NULL list: every config, in glXGetFBConfigs' order. */
    c = glXChooseFBConfig(dpy, screen, NULL, &m);
    CHECK(c != NULL && m == n && memcmp(c, all, sizeof(*c) * (size_t)n) == 0);
    XFree(c);
    /* The defaults: windows; single-buffered, no alpha, no depth, no stencil, no samples first. */
    c = choose_sorted(defaults, none_asked, 0, &m);
    CHECK(c != NULL && m > 0 && m <= n);
    CHECK(!attr(c[0], GLX_DOUBLEBUFFER) && attr(c[0], GLX_ALPHA_SIZE) == 0 &&
          attr(c[0], GLX_DEPTH_SIZE) == 0 && attr(c[0], GLX_STENCIL_SIZE) == 0 &&
          attr(c[0], GLX_SAMPLES) == 0);
    XFree(c);
    /* glxgears: double-buffered, the largest depth buffer, no stencil, no samples first. */
    c = choose_sorted(gears, rgb_asked, 1, &m);
    CHECK(c != NULL && m > 0);
    for (int i = 0; i < m; i++)
        CHECK(attr(c[i], GLX_DOUBLEBUFFER) && attr(c[i], GLX_DEPTH_SIZE) >= 1);
    CHECK(attr(c[0], GLX_DEPTH_SIZE) >= 24 && attr(c[0], GLX_STENCIL_SIZE) == 0 &&
          attr(c[0], GLX_ALPHA_SIZE) == 0 && attr(c[0], GLX_SAMPLES) == 0);
    XFree(c);
    /* glmark2's request (its own score then wants stencil 0 and alpha): there. */
    c = choose_sorted(glmark2, none_asked, 0, &m);
    CHECK(c != NULL && m > 0);
    CHECK(has_config(c, m, 8, 24, 0, 1, false, 0));
    XFree(c);
    /* Multisampled: at least 4 samples, the fewest first. */
    c = choose_sorted(ms4, none_asked, 0, &m);
    CHECK_MSG(c != NULL && m > 0, "no configs with 4 samples");
    for (int i = 0; i < m; i++)
        CHECK(attr(c[i], GLX_SAMPLES) >= 4 && attr(c[i], GLX_SAMPLE_BUFFERS) == 1);
    XFree(c);
    /* Exact matches: sRGB, alpha, and a config id (every other attribute ignored then). */
    {
        const int srgb[] = { GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB, True, GLX_ALPHA_SIZE, 1, None };
        const int id[] = { GLX_DEPTH_SIZE, 100, GLX_FBCONFIG_ID,
                           attr(all[n - 1], GLX_FBCONFIG_ID), None };
        const int stereo[] = { GLX_STEREO, True, None };
        const int accum[] = { GLX_ACCUM_RED_SIZE, 1, None };

        c = choose_sorted(srgb, (const int[4]){ 0, 0, 0, 1 }, 0, &m);
        CHECK(c != NULL && m > 0);
        for (int i = 0; i < m; i++)
            CHECK(attr(c[i], GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB) && attr(c[i], GLX_ALPHA_SIZE));
        XFree(c);
        c = glXChooseFBConfig(dpy, screen, id, &m);
        CHECK(c != NULL && m == 1 && c[0] == all[n - 1]);
        XFree(c);
        const int visual[] = { GLX_VISUAL_ID, (int)XVisualIDFromVisual(DefaultVisual(dpy, screen)),
                               None };

        c = glXChooseFBConfig(dpy, screen, visual, &m);
        CHECK(c != NULL && m > 0 && m < n);
        for (int i = 0; i < m; i++)
            CHECK(attr(c[i], GLX_VISUAL_ID) == visual[1]);
        XFree(c);
        CHECK(glXChooseFBConfig(dpy, screen, stereo, &m) == NULL && m == 0);
        CHECK(glXChooseFBConfig(dpy, screen, accum, &m) == NULL && m == 0);
    }
    /* glXChooseVisual: colour index unless GLX_RGBA (none here); single-buffered unless
     * GLX_DOUBLEBUFFER; multisampled when asked. */
    CHECK(glXChooseVisual(dpy, screen, visual_ci) == NULL);
    vi = glXChooseVisual(dpy, screen, visual_gl);
    CHECK(vi != NULL);
    CHECK(glXGetConfig(dpy, vi, GLX_DOUBLEBUFFER, &v) == 0 && v == False);
    CHECK(glXGetConfig(dpy, vi, GLX_DEPTH_SIZE, &v) == 0 && v >= 24);
    CHECK(glXGetConfig(dpy, vi, GLX_STENCIL_SIZE, &v) == 0 && v == 0);
    XFree(vi);
    vi = glXChooseVisual(dpy, screen, visual_ms);
    CHECK(vi != NULL);
    CHECK(glXGetConfig(dpy, vi, GLX_SAMPLES, &v) == 0 && v >= 2);
    CHECK(glXGetConfig(dpy, vi, GLX_DOUBLEBUFFER, &v) == 0 && v == True);
    XFree(vi);
    XFree(all);
    close_display();
    printf("ok: %d FBConfigs, chosen in GLX 1.4 order\n", n);
    return 0;
}

/* ---- render ---- */

static Window make_window(XVisualInfo *vi)
{
    XSetWindowAttributes swa = { 0 };
    Window win;

    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen), vi->visual, AllocNone);
    swa.background_pixel = BACKGROUND | (vi->depth == 32 ? 0xff000000ul : 0);
    swa.border_pixel = 0;
    win = XCreateWindow(dpy, RootWindow(dpy, vi->screen), 0, 0, SIZE, SIZE, 0, vi->depth,
                        InputOutput, vi->visual, CWColormap | CWBackPixel | CWBorderPixel, &swa);
    XMapWindow(dpy, win);
    XSync(dpy, False);
    XFreeColormap(dpy, swa.colormap);
    return win;
}

static XImage *grab(Drawable d)
{
    XImage *img;

    XSync(dpy, False);
    img = XGetImage(dpy, d, 0, 0, SIZE, SIZE, AllPlanes, ZPixmap);
    CHECK_MSG(img != NULL, "XGetImage of 0x%lx failed", (unsigned long)d);
    return img;
}

static bool near(unsigned long got, unsigned long want, int tolerance)
{
    for (int shift = 0; shift < 32; shift += 8) {
        int g = (int)((got >> shift) & 0xff), w = (int)((want >> shift) & 0xff);

        if (g - w > tolerance || w - g > tolerance)
            return false;
    }
    return true;
}

#define CHECK_AT(img, x, y, want, tol, what)                                                 \
    do {                                                                                     \
        unsigned long got_ = XGetPixel((img), (x), (y)) & 0xffffff;                          \
        CHECK_MSG(near(got_, (want), (tol)), "config 0x%x, %s: pixel (%d,%d) is %06lx, want " \
                  "%06lx", id, (what), (x), (y), got_, (unsigned long)(want));               \
    } while (0)

static void quad(float x0, float y0, float x1, float y1, float z, float r, float g, float b)
{
    glColor4f(r, g, b, 1.0f);
    glBegin(GL_QUADS);
    glVertex3f(x0, y0, z);
    glVertex3f(x1, y0, z);
    glVertex3f(x1, y1, z);
    glVertex3f(x0, y1, z);
    glEnd();
}

/*
 * One frame, four quadrants (X coordinates, top-left origin): top-left the depth test (a near
 * red quad on its left half, then a far green one over all of it), top-right the stencil test
 * (stencil 1 written on its left half, then blue where it is 1), bottom-left destination alpha
 * (white blended with GL_DST_ALPHA over a clear alpha of 0.5), bottom-right a white triangle
 * whose diagonal edge multisampling blends.
 */
static void draw_scene(void)
{
    glClearColor(0.0f, 0.0f, 0.0f, 0.5f);
    glClearDepth(1.0);
    glClearStencil(0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    quad(-1.0f, 0.0f, -0.5f, 1.0f, -0.5f, 1, 0, 0);
    quad(-1.0f, 0.0f, 0.0f, 1.0f, 0.5f, 0, 1, 0);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_ALWAYS, 1, 0xff);
    glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    quad(0.0f, 0.0f, 0.5f, 1.0f, 0.0f, 1, 1, 1);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glStencilFunc(GL_EQUAL, 1, 0xff);
    glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
    quad(0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 0, 0, 1);
    glDisable(GL_STENCIL_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_DST_ALPHA, GL_ZERO);
    quad(-1.0f, -1.0f, 0.0f, 0.0f, 0.0f, 1, 1, 1);
    glDisable(GL_BLEND);
    glEnable(GL_MULTISAMPLE);
    glColor4f(1, 1, 1, 1);
    glBegin(GL_TRIANGLES);
    glVertex2f(0.0f, -1.0f);
    glVertex2f(1.0f, -1.0f);
    glVertex2f(1.0f, 0.0f);
    glEnd();
}

static void check_scene(XImage *img, int id, int depth, int stencil, int alpha, int samples,
                        int visual_depth)
{
    int blended = 0;

    CHECK_AT(img, 4, 8, depth > 0 ? 0xff0000ul : 0x00ff00ul, 0, "depth test");
    CHECK_AT(img, 12, 8, 0x00ff00ul, 0, "depth test");
    CHECK_AT(img, 20, 8, 0x0000fful, 0, "stencil test");
    CHECK_AT(img, 28, 8, stencil > 0 ? 0x000000ul : 0x0000fful, 0, "stencil test");
    CHECK_AT(img, 8, 24, alpha > 0 ? 0x808080ul : 0xffffff, 3, "destination alpha");
    CHECK_AT(img, 18, 18, 0x000000ul, 0, "clear colour");
    CHECK_AT(img, 30, 30, 0xffffffu, 0, "triangle");
    if (visual_depth == 32) {
        unsigned long a = (XGetPixel(img, 18, 18) >> 24) & 0xff;

        CHECK_MSG(a >= 0x7d && a <= 0x83, "config 0x%x: the window's alpha is %02lx, not 80",
                  id, a);
    }
    for (int y = 16; y < SIZE; y++)
        for (int x = 16; x < SIZE; x++) {
            unsigned long p = XGetPixel(img, x, y) & 0xff;

            blended += p > 0x20 && p < 0xe0;
        }
    CHECK_MSG((blended > 0) == (samples > 0), "config 0x%x with %d samples: %d edge pixels "
              "of the triangle are blended", id, samples, blended);
}

/*
 * The contexts render_config uses: one per kind of framebuffer (alpha, depth, stencil, samples,
 * sRGB), made for the first config of that kind and compatible (GLX 1.4, 2.1) with the others,
 * which differ in double-buffering or visual only. A context per config would make llvmpipe
 * compile the scene's shaders 120 times over.
 */
#define CONTEXT_KINDS 256
static struct {
    int key;
    GLXContext ctx;
} contexts[CONTEXT_KINDS];
static int context_count;

static GLXContext context_for(GLXFBConfig config)
{
    int key = attr(config, GLX_ALPHA_SIZE) | attr(config, GLX_DEPTH_SIZE) << 4 |
              attr(config, GLX_STENCIL_SIZE) << 10 | attr(config, GLX_SAMPLES) << 14 |
              attr(config, GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB) << 20;

    for (int i = 0; i < context_count; i++) {
        if (contexts[i].key == key)
            return contexts[i].ctx;
    }
    CHECK(context_count < CONTEXT_KINDS);
    contexts[context_count].key = key;
    contexts[context_count].ctx = glXCreateNewContext(dpy, config, GLX_RGBA_TYPE, NULL, True);
    CHECK_MSG(contexts[context_count].ctx != NULL, "config 0x%x: no context",
              attr(config, GLX_FBCONFIG_ID));
    return contexts[context_count++].ctx;
}

static void render_config(GLXFBConfig config)
{
    int id = attr(config, GLX_FBCONFIG_ID), depth = attr(config, GLX_DEPTH_SIZE);
    int stencil = attr(config, GLX_STENCIL_SIZE), alpha = attr(config, GLX_ALPHA_SIZE);
    int samples = attr(config, GLX_SAMPLES), dbl = attr(config, GLX_DOUBLEBUFFER);
    int srgb = attr(config, GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB);
    XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, config);
    GLXContext ctx = context_for(config);
    GLint bits[4] = { -1, -1, -1, -1 };
    Window win;
    GLXWindow glxwin;
    XImage *img;

    CHECK(vi != NULL);
    win = make_window(vi);
    glxwin = glXCreateWindow(dpy, config, win, NULL);
    CHECK(glxwin != None);
    CHECK(glXMakeContextCurrent(dpy, glxwin, glxwin, ctx));
    /* The GL framebuffer is the config's. */
    glGetIntegerv(GL_DEPTH_BITS, &bits[0]);
    glGetIntegerv(GL_STENCIL_BITS, &bits[1]);
    glGetIntegerv(GL_ALPHA_BITS, &bits[2]);
    glGetIntegerv(GL_SAMPLES, &bits[3]);
    CHECK_MSG(bits[0] == depth && bits[1] == stencil && bits[2] == alpha && bits[3] == samples,
              "config 0x%x (depth %d stencil %d alpha %d samples %d): GL has %d %d %d %d", id,
              depth, stencil, alpha, samples, bits[0], bits[1], bits[2], bits[3]);
    draw_scene();
    glFlush();
    img = grab(win);
    if (dbl) {
        /* glFlush shows nothing of a double-buffered window; the swap does. */
        CHECK_AT(img, 4, 8, BACKGROUND, 0, "before the swap");
        XDestroyImage(img);
        glXSwapBuffers(dpy, glxwin);
        img = grab(win);
    }
    check_scene(img, id, depth, stencil, alpha, samples, vi->depth);
    XDestroyImage(img);
    /* sRGB: GL_FRAMEBUFFER_SRGB encodes 0.5 as 0xbc. */
    if (srgb) {
        glEnable(GL_FRAMEBUFFER_SRGB);
        glClearColor(0.5f, 0.5f, 0.5f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_FRAMEBUFFER_SRGB);
        if (dbl)
            glXSwapBuffers(dpy, glxwin);
        else
            glFlush();
        img = grab(win);
        CHECK_AT(img, 16, 16, 0xbcbcbcul, 2, "sRGB encoding");
        XDestroyImage(img);
    }
    CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
    glXDestroyWindow(dpy, glxwin);
    XDestroyWindow(dpy, win);
    XFree(vi);
}

static int render(void)
{
    GLXFBConfig *all;
    int n = 0;

    open_display();
    all = glXGetFBConfigs(dpy, screen, &n);
    CHECK(all != NULL && n > 0);
    for (int i = 0; i < n; i++)
        render_config(all[i]);
    for (int i = 0; i < context_count; i++)
        glXDestroyContext(dpy, contexts[i].ctx);
    XFree(all);
    close_display();
    printf("ok: each of %d FBConfigs rendered the right pixels\n", n);
    return 0;
}

/* ---- GLX 1.2 visuals ---- */

static int config_of_context(GLXContext ctx)
{
    int id = 0;

    CHECK(glXQueryContext(dpy, ctx, GLX_FBCONFIG_ID, &id) == Success);
    return id;
}

static int visuals(void)
{
    int single_attribs[] = { GLX_RGBA, GLX_RED_SIZE, 8, GLX_DEPTH_SIZE, 16, None };
    int ms_attribs[] = { GLX_RGBA, GLX_DOUBLEBUFFER, GLX_SAMPLE_BUFFERS, 1, GLX_SAMPLES, 4,
                         None };
    XVisualInfo *single, *ms, copy, *fresh, tmpl;
    GLXContext ctx_single, ctx_copy, ctx_ms;
    int v = -1, single_id, ms_id, n = 0;
    Window win;
    XImage *img;
    int id = 0;

    open_display();
    single = glXChooseVisual(dpy, screen, single_attribs);
    ms = glXChooseVisual(dpy, screen, ms_attribs);
    CHECK(single != NULL && ms != NULL);
    /* One X visual may stand for both: each XVisualInfo keeps its own config. */
    CHECK(glXGetConfig(dpy, single, GLX_DOUBLEBUFFER, &v) == 0 && v == False);
    CHECK(glXGetConfig(dpy, ms, GLX_DOUBLEBUFFER, &v) == 0 && v == True);
    CHECK(glXGetConfig(dpy, ms, GLX_SAMPLES, &v) == 0 && v == 4);
    ctx_single = glXCreateContext(dpy, single, NULL, True);
    ctx_ms = glXCreateContext(dpy, ms, NULL, True);
    CHECK(ctx_single != NULL && ctx_ms != NULL);
    single_id = config_of_context(ctx_single);
    ms_id = config_of_context(ctx_ms);
    CHECK(single_id != ms_id);
    /* A copy of the structure stands for what glXChooseVisual last chose for the visual. */
    copy = *ms;
    CHECK(glXGetConfig(dpy, &copy, GLX_SAMPLES, &v) == 0 && v == 4);
    ctx_copy = glXCreateContext(dpy, &copy, NULL, True);
    CHECK(ctx_copy != NULL && config_of_context(ctx_copy) == ms_id);
    /* So does an XVisualInfo of the visual from Xlib (SDL2 passes the window's). */
    tmpl.visualid = single->visualid;
    tmpl.screen = screen;
    fresh = XGetVisualInfo(dpy, VisualIDMask | VisualScreenMask, &tmpl, &n);
    CHECK(fresh != NULL && glXGetConfig(dpy, fresh, GLX_SAMPLES, &v) == 0 && v == 4);
    XFree(fresh);
    /* A single-buffered GLX 1.2 window shows its frame at glFlush. */
    win = make_window(single);
    CHECK(glXMakeCurrent(dpy, win, ctx_single));
    glClearColor(1.0f, 0.0f, 1.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glFlush();
    img = grab(win);
    id = single_id;
    CHECK_AT(img, 16, 16, 0xff00fful, 0, "single-buffered visual at glFlush");
    XDestroyImage(img);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    XDestroyWindow(dpy, win);
    glXDestroyContext(dpy, ctx_single);
    glXDestroyContext(dpy, ctx_ms);
    glXDestroyContext(dpy, ctx_copy);
    XFree(single);
    XFree(ms);
    close_display();
    printf("ok: GLX 1.2 visuals stand for single-buffered and multisampled configs\n");
    return 0;
}

/* ---- texture from pixmap ---- */

static void draw_textured(GLenum target, float s_max, float t_max)
{
    glEnable(target);
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glColor4f(1, 1, 1, 1);
    /* Y inverted: t = 0 is the pixmap's top row, drawn at the window's top. */
    glBegin(GL_QUADS);
    glTexCoord2f(0, t_max);
    glVertex2f(-1, -1);
    glTexCoord2f(s_max, t_max);
    glVertex2f(1, -1);
    glTexCoord2f(s_max, 0);
    glVertex2f(1, 1);
    glTexCoord2f(0, 0);
    glVertex2f(-1, 1);
    glEnd();
    glDisable(target);
}

static int tfp(void)
{
    static const int want[] = { GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT | GLX_PIXMAP_BIT,
                                GLX_BIND_TO_TEXTURE_RGB_EXT, True, GLX_DOUBLEBUFFER, True,
                                None };
    const int tex2d[] = { GLX_TEXTURE_FORMAT_EXT, GLX_TEXTURE_FORMAT_RGB_EXT,
                          GLX_TEXTURE_TARGET_EXT, GLX_TEXTURE_2D_EXT, None };
    const int rgba_default[] = { GLX_TEXTURE_FORMAT_EXT, GLX_TEXTURE_FORMAT_RGBA_EXT, None };
    const int mipmap[] = { GLX_TEXTURE_FORMAT_EXT, GLX_TEXTURE_FORMAT_RGB_EXT,
                           GLX_MIPMAP_TEXTURE_EXT, True, None };
    PFNGLXBINDTEXIMAGEEXTPROC bind;
    PFNGLXRELEASETEXIMAGEEXTPROC release;
    GLXFBConfig *c;
    XVisualInfo *vi;
    GLXContext ctx, ctx2;
    Window win;
    Pixmap pix, npot;
    GLXPixmap glxpix, glxnpot;
    GC gc;
    GLuint tex[2];
    XImage *img;
    unsigned int value = 0;
    int n = 0, id = 0;

    open_display();
    CHECK(strstr(glXQueryExtensionsString(dpy, screen), "GLX_EXT_texture_from_pixmap") != NULL);
    bind = (PFNGLXBINDTEXIMAGEEXTPROC)glXGetProcAddress((const GLubyte *)"glXBindTexImageEXT");
    release = (PFNGLXRELEASETEXIMAGEEXTPROC)glXGetProcAddress(
        (const GLubyte *)"glXReleaseTexImageEXT");
    CHECK(bind != NULL && release != NULL);
    c = glXChooseFBConfig(dpy, screen, want, &n);
    CHECK(c != NULL && n > 0);
    id = attr(c[0], GLX_FBCONFIG_ID);
    vi = glXGetVisualFromFBConfig(dpy, c[0]);
    CHECK(vi != NULL);
    ctx = glXCreateNewContext(dpy, c[0], GLX_RGBA_TYPE, NULL, True);
    ctx2 = glXCreateNewContext(dpy, c[0], GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx != NULL && ctx2 != NULL);
    win = make_window(vi);
    /* A pixmap X draws into: red top half, blue bottom half. */
    pix = XCreatePixmap(dpy, RootWindow(dpy, screen), SIZE, SIZE, (unsigned)vi->depth);
    gc = XCreateGC(dpy, pix, 0, NULL);
    XSetForeground(dpy, gc, 0xff0000ul);
    XFillRectangle(dpy, pix, gc, 0, 0, SIZE, SIZE / 2);
    XSetForeground(dpy, gc, 0x0000fful);
    XFillRectangle(dpy, pix, gc, 0, SIZE / 2, SIZE, SIZE / 2);
    CHECK(glXCreatePixmap(dpy, c[0], pix, mipmap) == None); /* no mipmaps */
    glxpix = glXCreatePixmap(dpy, c[0], pix, tex2d);
    CHECK(glxpix != None);
    glXQueryDrawable(dpy, glxpix, GLX_TEXTURE_TARGET_EXT, &value);
    CHECK(value == GLX_TEXTURE_2D_EXT);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    glGenTextures(2, tex);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    bind(dpy, glxpix, GLX_FRONT_LEFT_EXT, NULL);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_textured(GL_TEXTURE_2D, 1, 1);
    release(dpy, glxpix, GLX_FRONT_LEFT_EXT);
    glXSwapBuffers(dpy, win);
    img = grab(win);
    CHECK_AT(img, 16, 4, 0xff0000ul, 0, "X-drawn pixmap, top");
    CHECK_AT(img, 16, 28, 0x0000fful, 0, "X-drawn pixmap, bottom");
    XDestroyImage(img);
    /* GL draws into the pixmap with another context; making this one current again flushes
     * it (GLX), so the texture shows it. */
    CHECK(glXMakeCurrent(dpy, glxpix, ctx2));
    glClearColor(0, 1, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    bind(dpy, glxpix, GLX_FRONT_LEFT_EXT, NULL);
    draw_textured(GL_TEXTURE_2D, 1, 1);
    release(dpy, glxpix, GLX_FRONT_LEFT_EXT);
    glXSwapBuffers(dpy, win);
    img = grab(win);
    CHECK_AT(img, 16, 16, 0x00ff00ul, 0, "GL-drawn pixmap");
    XDestroyImage(img);
    /* Without a target, a pixmap that is not a power of two is a rectangle texture. */
    npot = XCreatePixmap(dpy, RootWindow(dpy, screen), 24, 20, (unsigned)vi->depth);
    XSetForeground(dpy, gc, 0xffff00ul);
    XFreeGC(dpy, gc);
    gc = XCreateGC(dpy, npot, 0, NULL);
    XSetForeground(dpy, gc, 0xffff00ul);
    XFillRectangle(dpy, npot, gc, 0, 0, 24, 20);
    glxnpot = glXCreatePixmap(dpy, c[0], npot, rgba_default);
    CHECK(glxnpot != None);
    glXQueryDrawable(dpy, glxnpot, GLX_TEXTURE_TARGET_EXT, &value);
    CHECK(value == GLX_TEXTURE_RECTANGLE_EXT);
    glBindTexture(GL_TEXTURE_RECTANGLE, tex[1]);
    bind(dpy, glxnpot, GLX_FRONT_LEFT_EXT, NULL);
    draw_textured(GL_TEXTURE_RECTANGLE, 24, 20);
    release(dpy, glxnpot, GLX_FRONT_LEFT_EXT);
    glXSwapBuffers(dpy, win);
    img = grab(win);
    CHECK_AT(img, 16, 16, 0xffff00ul, 0, "rectangle texture");
    XDestroyImage(img);
    CHECK(glGetError() == GL_NO_ERROR);
    glDeleteTextures(2, tex);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyPixmap(dpy, glxpix);
    glXDestroyPixmap(dpy, glxnpot);
    XFreePixmap(dpy, pix);
    XFreePixmap(dpy, npot);
    XFreeGC(dpy, gc);
    XDestroyWindow(dpy, win);
    glXDestroyContext(dpy, ctx);
    glXDestroyContext(dpy, ctx2);
    XFree(vi);
    XFree(c);
    close_display();
    printf("ok: X- and GL-drawn pixmaps bound as textures\n");
    return 0;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc == 2, "usage: %s choose | render | visuals | tfp", argv[0]);
    if (strcmp(argv[1], "choose") == 0)
        return choose();
    if (strcmp(argv[1], "render") == 0)
        return render();
    if (strcmp(argv[1], "visuals") == 0)
        return visuals();
    if (strcmp(argv[1], "tfp") == 0)
        return tfp();
    CHECK_MSG(0, "unknown mode %s", argv[1]);
    return 1;
}
