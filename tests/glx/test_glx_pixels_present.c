/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: how the pixels GLX vendor (src/glx/pixels) gets frames to the X server, on an
 * Xvfb without GLX that run_glx_pixels.sh started for this test alone.
 * usage: glx_pixels_present MODE
 *   depth   every FBConfig against drawables of depth 1, 4, 8, 15, 16, 24, 30 and 32 (pixmaps
 *           on screen 0; windows of every visual depth of every screen: the wrapper starts one
 *           screen, then five of depth 24, 16, 8, 30 and 15; an InputOnly window), through glXCreatePixmap, glXCreateGLXPixmap,
 *           glXCreateWindow and glXMakeCurrent on the X window itself: each either shows the
 *           frame as drawn or fails with BadMatch (and nothing else reaches the application).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xmd.h>
#include <GL/glxproto.h>

#include "pixels_util.h"

static Display *dpy;

static const int depths[] = { 1, 4, 8, 15, 16, 24, 30, 32 };
#define N_DEPTHS (int)(sizeof(depths) / sizeof(depths[0]))

struct config_info {
    GLXFBConfig config;
    GLXContext ctx;
    int id, depth, screen;
    bool double_buffer;
};

/* Shows one frame of color in the current drawable and checks it reached target. */
static void frame(Drawable target, GLXDrawable glx, const struct config_info *c, bool pixmap,
                  unsigned long color)
{
    pixels_clear(color);
    if (pixmap || !c->double_buffer)
        glFinish();
    else
        glXSwapBuffers(dpy, glx);
    CHECK_PIXEL(dpy, target, 3, 3, color);
}

/* Expect the last call to have failed with exactly one BadMatch on resource. */
static void expect_bad_match(int errors_before, XID resource, int minor, const char *what,
                             const struct config_info *c, int depth)
{
    XSync(dpy, False);
    CHECK_MSG(pixels_app_errors == errors_before + 1, "%s: config 0x%x (depth %d) on depth %d: "
              "%d X errors, want one BadMatch", what, c->id, c->depth, depth,
              pixels_app_errors - errors_before);
    CHECK_MSG(pixels_last_error == BadMatch && pixels_last_resource == resource &&
              pixels_last_minor == minor, "%s: error %d on 0x%lx (minor %d), want BadMatch (%d) "
              "on 0x%lx (minor %d)", what, pixels_last_error,
              (unsigned long)pixels_last_resource, pixels_last_minor, BadMatch,
              (unsigned long)resource, minor);
}

static void expect_no_error(int errors_before, const char *what, const struct config_info *c,
                            int depth)
{
    XSync(dpy, False);
    CHECK_MSG(pixels_app_errors == errors_before, "%s: config 0x%x (depth %d) on depth %d: "
              "X error %d reached the application", what, c->id, c->depth, depth,
              pixels_last_error);
}

static void try_pixmap(const struct config_info *c, int depth, bool glx12, unsigned long color)
{
    Pixmap pix = XCreatePixmap(dpy, RootWindow(dpy, 0), 16, 16, (unsigned)depth);
    int before = pixels_app_errors;
    GLXPixmap glx;
    bool fits = depth == c->depth;
    const char *what = glx12 ? "glXCreateGLXPixmap" : "glXCreatePixmap";

    if (glx12) {
        XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, c->config);

        CHECK(vi != NULL);
        glx = glXCreateGLXPixmap(dpy, vi, pix);
        XFree(vi);
    } else {
        glx = glXCreatePixmap(dpy, c->config, pix, NULL);
    }
    if (!fits) {
        CHECK_MSG(glx == None, "%s: config 0x%x (depth %d) accepted a pixmap of depth %d", what,
                  c->id, c->depth, depth);
        expect_bad_match(before, pix, glx12 ? X_GLXCreateGLXPixmap : X_GLXCreatePixmap, what, c,
                         depth);
    } else {
        CHECK_MSG(glx != None, "%s: config 0x%x refused a pixmap of its depth %d", what, c->id,
                  depth);
        CHECK(glXMakeContextCurrent(dpy, glx, glx, c->ctx));
        frame(pix, glx, c, true, color);
        CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
        glXDestroyPixmap(dpy, glx);
        expect_no_error(before, what, c, depth);
    }
    XFreePixmap(dpy, pix);
}

static void try_window(const struct config_info *c, Window win, int screen, int depth,
                       unsigned long color)
{
    bool fits = screen == c->screen && depth == c->depth;
    int before = pixels_app_errors;
    GLXWindow glx = glXCreateWindow(dpy, c->config, win, NULL);

    if (!fits) {
        CHECK_MSG(glx == None, "glXCreateWindow: config 0x%x (depth %d) accepted a window of "
                  "depth %d on screen %d", c->id, c->depth, depth, screen);
        expect_bad_match(before, win, X_GLXCreateWindow, "glXCreateWindow", c, depth);
        /* GLX 1.2: the X window itself. */
        before = pixels_app_errors;
        CHECK_MSG(!glXMakeCurrent(dpy, win, c->ctx), "glXMakeCurrent: config 0x%x (depth %d) "
                  "accepted a window of depth %d on screen %d", c->id, c->depth, depth, screen);
        expect_bad_match(before, win, X_GLXMakeCurrent, "glXMakeCurrent", c, depth);
        return;
    }
    CHECK_MSG(glx != None, "glXCreateWindow: config 0x%x refused a window of its depth %d",
              c->id, depth);
    CHECK(glXMakeContextCurrent(dpy, glx, glx, c->ctx));
    frame(win, glx, c, false, color);
    CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
    glXDestroyWindow(dpy, glx);
    CHECK(glXMakeCurrent(dpy, win, c->ctx));
    frame(win, win, c, false, color ^ 0xffffff);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    expect_no_error(before, "window", c, depth);
}

static int depth_matrix(void)
{
    static const unsigned long colors[] = { RED, GREEN, BLUE, YELLOW, MAGENTA, CYAN };
    struct config_info *configs;
    GLXFBConfig *all;
    int n = 0, shown = 0, refused = 0, k = 0, screens;

    dpy = pixels_open_display();
    glmux_test_require_ours("libGLX.so.0");
    XSetErrorHandler(pixels_count_errors);
    all = glXGetFBConfigs(dpy, 0, &n);
    CHECK_MSG(all != NULL && n > 0, "no FBConfig on screen 0");
    configs = calloc((size_t)n, sizeof(*configs));
    CHECK(configs != NULL);
    for (int i = 0; i < n; i++) {
        XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, all[i]);
        int db = 0, id = 0;

        CHECK(vi != NULL);
        glXGetFBConfigAttrib(dpy, all[i], GLX_DOUBLEBUFFER, &db);
        glXGetFBConfigAttrib(dpy, all[i], GLX_FBCONFIG_ID, &id);
        configs[i] = (struct config_info){ all[i], NULL, id, vi->depth, vi->screen, db != 0 };
        XFree(vi);
        configs[i].ctx = glXCreateNewContext(dpy, all[i], GLX_RGBA_TYPE, NULL, True);
        CHECK_MSG(configs[i].ctx != NULL, "no context for config 0x%x", id);
    }
    for (int i = 0; i < n; i++) {
        const struct config_info *c = &configs[i];

        for (int j = 0; j < N_DEPTHS; j++) {
            try_pixmap(c, depths[j], false, colors[k++ % 6]);
            if (c->double_buffer) /* the GLX 1.2 call uses a visual's double-buffered config */
                try_pixmap(c, depths[j], true, colors[k++ % 6]);
            if (depths[j] == c->depth)
                shown++;
            else
                refused++;
        }
        /* Windows of every visual depth on every screen (one window per screen and depth). */
        for (int s = 0; s < ScreenCount(dpy); s++) {
            XVisualInfo tmpl = { .screen = s }, *vis;
            int nv = 0;
            bool seen[33] = { false };

            vis = XGetVisualInfo(dpy, VisualScreenMask, &tmpl, &nv);
            for (int v = 0; vis != NULL && v < nv; v++) {
                Window win;

                if (vis[v].depth > 32 || seen[vis[v].depth])
                    continue;
                seen[vis[v].depth] = true;
                win = pixels_make_window(dpy, &vis[v], 0, 0, 16, 16);
                try_window(c, win, s, vis[v].depth, colors[k++ % 6]);
                XDestroyWindow(dpy, win);
            }
            XFree(vis);
        }
        /* An InputOnly window has depth 0: nothing to show frames in. */
        {
            XSetWindowAttributes swa = { 0 };
            Window in = XCreateWindow(dpy, RootWindow(dpy, 0), 0, 0, 16, 16, 0, 0, InputOnly,
                                      CopyFromParent, 0, &swa);

            try_window(c, in, 0, 0, RED);
            XDestroyWindow(dpy, in);
        }
    }
    XSync(dpy, False);
    for (int i = 0; i < n; i++)
        glXDestroyContext(dpy, configs[i].ctx);
    free(configs);
    XFree(all);
    screens = ScreenCount(dpy);
    XCloseDisplay(dpy);
    printf("ok: %d configs x %d pixmap depths (%d shown, %d BadMatch), windows of %d screen(s)\n",
           n, N_DEPTHS, shown, refused, screens);
    return 0;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc >= 2, "usage: %s depth", argv[0]);
    if (strcmp(argv[1], "depth") == 0)
        return depth_matrix();
    CHECK_MSG(0, "unknown mode %s", argv[1]);
    return 1;
}
