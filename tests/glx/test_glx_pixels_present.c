/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: how the pixels GLX vendor (src/pixels) gets frames to the X server, on an
 * Xvfb without GLX that run_glx_pixels.sh started for this test alone.
 * usage: glx_pixels_present MODE
 *   depth   every FBConfig against drawables of depth 1, 4, 8, 15, 16, 24, 30 and 32 (pixmaps
 *           on screen 0; windows of every visual depth of every screen: the wrapper starts one
 *           screen, then five of depth 24, 16, 8, 30 and 15; an InputOnly window), through
 *           glXCreatePixmap, glXCreateGLXPixmap, glXCreateWindow and glXMakeCurrent on the X
 *           window itself: each either shows the
 *           frame as drawn or fails with BadMatch (and nothing else reaches the application).
 *   count present|nopresent shm|put
 *           the requests frames cost, counted by the server (RECORD) between two markers: no
 *           XSync (GetInputFocus), at most one request with a reply per frame (GetGeometry, the
 *           frame's fence), across a resize (the window shows the new size after).
 *   swap    glXSwapBuffers of a drawable current nowhere (shown, and the calling thread's own
 *           binding kept), of one current on another thread (shown at that thread's glFlush);
 *           a GLX pixmap starts with what X drew into it.
 *   interval
 *           GLX_EXT_swap_control, GLX_MESA_swap_control and GLX_SGI_swap_control: values,
 *           errors, glXQueryDrawable, and frames paced by Present at interval 2 (the log's count).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixels_util.h"

#include <X11/Xatom.h>
#include <X11/Xmd.h>
#include <X11/Xproto.h>
#ifdef PIXELS_HAVE_RECORD
#include <X11/extensions/record.h>
#endif
#include <GL/glxproto.h>

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

/* ---- count: the requests frames cost ---- */

#ifdef PIXELS_HAVE_RECORD

struct counts {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    Atom start, begin, end;
    int shm_major, present_major;
    bool started, counting, ended;
    int get_geometry, get_input_focus, replies, put_image, shm_put, notify_msc;
};

/* Core requests with a reply (the ones a GL program's frame might send). */
static bool has_reply(int op)
{
    return op == X_GetWindowAttributes || op == X_GetGeometry || op == X_QueryTree ||
           op == X_InternAtom || op == X_GetProperty || op == X_GetInputFocus ||
           op == X_GetImage || op == X_QueryExtension || op == X_ListExtensions;
}

static void record_cb(XPointer closure, XRecordInterceptData *d)
{
    struct counts *c = (struct counts *)closure;
    const unsigned char *req = d->data;

    /* data_len counts 4-byte units. */
    if (d->category == XRecordFromClient && d->data_len >= 1) {
        pthread_mutex_lock(&c->lock);
        if (req[0] == X_ChangeProperty && d->data_len >= 3) {
            Atom prop = ((const CARD32 *)req)[2];

            if (prop == c->start)
                c->started = true;
            if (prop == c->begin)
                c->counting = true;
            if (prop == c->end)
                c->ended = true;
            pthread_cond_broadcast(&c->cond);
        } else if (c->counting && !c->ended) {
            c->get_geometry += req[0] == X_GetGeometry;
            c->get_input_focus += req[0] == X_GetInputFocus;
            c->put_image += req[0] == X_PutImage;
            c->replies += has_reply(req[0]);
            if (req[0] == c->shm_major) {
                c->shm_put += req[1] == 3;      /* X_ShmPutImage */
                c->replies += req[1] == 0;      /* X_ShmQueryVersion */
            }
            if (req[0] == c->present_major) {
                c->notify_msc += req[1] == 2;   /* PresentNotifyMSC */
                c->replies += req[1] == 0;      /* PresentQueryVersion */
            }
        }
        pthread_mutex_unlock(&c->lock);
    }
    XRecordFreeData(d);
}

struct recorder {
    Display *data;
    XRecordContext rc;
    struct counts *counts;
};

static void *record_thread(void *p)
{
    struct recorder *r = p;

    XRecordEnableContext(r->data, r->rc, record_cb, (XPointer)r->counts);
    return NULL;
}

/* Marks the request stream (a property change the recorder sees) and waits for the mark. The
 * XSync after it makes the server flush what it recorded (it does when a client has output). */
static void mark(struct counts *c, Window root, Atom which, bool *seen)
{
    XChangeProperty(dpy, root, which, XA_STRING, 8, PropModeReplace, (const unsigned char *)"m",
                    1);
    XSync(dpy, False);
    pthread_mutex_lock(&c->lock);
    while (!*seen)
        pthread_cond_wait(&c->cond, &c->lock);
    pthread_mutex_unlock(&c->lock);
}

static int count_requests(bool present, bool shm)
{
    static struct counts c = { .lock = PTHREAD_MUTEX_INITIALIZER,
                               .cond = PTHREAD_COND_INITIALIZER };
    const int frames = 24;
    struct recorder r = { 0 };
    XRecordRange *range;
    XRecordClientSpec client;
    Display *ctl;
    GLXFBConfig *cfgs;
    XVisualInfo *vis;
    GLXContext ctx;
    pthread_t th;
    Window win;
    int n = 0, ev, er, op, tries = 0;
    static const int attribs[] = { GLX_DOUBLEBUFFER, True, GLX_RED_SIZE, 8, None };

    CHECK(XInitThreads());
    dpy = pixels_open_display();
    ctl = pixels_open_display();
    r.data = pixels_open_display();
    glmux_test_require_ours("libGLX.so.0");
    XSetErrorHandler(pixels_count_errors);
    CHECK_MSG(XQueryExtension(ctl, "RECORD", &op, &ev, &er), "no RECORD extension");
    if (!XQueryExtension(dpy, "MIT-SHM", &c.shm_major, &ev, &er))
        c.shm_major = -1;
    if (!XQueryExtension(dpy, "Present", &c.present_major, &ev, &er))
        c.present_major = -1;
    c.start = XInternAtom(dpy, "GLMUX_COUNT_START", False);
    c.begin = XInternAtom(dpy, "GLMUX_COUNT_BEGIN", False);
    c.end = XInternAtom(dpy, "GLMUX_COUNT_END", False);
    cfgs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
    CHECK(cfgs != NULL && n > 0);
    vis = glXGetVisualFromFBConfig(dpy, cfgs[0]);
    ctx = glXCreateNewContext(dpy, cfgs[0], GLX_RGBA_TYPE, NULL, True);
    CHECK(vis != NULL && ctx != NULL);
    win = pixels_make_window(dpy, vis, 0, 0, 160, 120);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    for (int i = 0; i < 3; i++) { /* the once-per-display questions happen here */
        pixels_clear(RED);
        glXSwapBuffers(dpy, win);
    }
    XSync(dpy, False);
    pixels_check_log(present ? "Present: window sizes from its events"
                             : "no Present: window sizes asked after each frame");
    /* Record the application's connection (the client owning win). */
    client = (XRecordClientSpec)win;
    range = XRecordAllocRange();
    CHECK(range != NULL);
    range->core_requests.first = 1;
    range->core_requests.last = 127;
    range->ext_requests.ext_major.first = 128;
    range->ext_requests.ext_major.last = 255;
    range->ext_requests.ext_minor.first = 0;
    range->ext_requests.ext_minor.last = 255;
    r.rc = XRecordCreateContext(ctl, 0, &client, 1, &range, 1);
    CHECK(r.rc != 0);
    XSync(ctl, False);
    r.counts = &c;
    CHECK(pthread_create(&th, NULL, record_thread, &r) == 0);
    /* The recorder sees the start mark once it records (marks before that are re-sent). */
    for (;;) {
        struct pollfd pfd = { ConnectionNumber(ctl), POLLIN, 0 };
        bool started;

        XChangeProperty(dpy, RootWindow(dpy, 0), c.start, XA_STRING, 8, PropModeReplace,
                        (const unsigned char *)"s", 1);
        XSync(dpy, False);
        pthread_mutex_lock(&c.lock);
        started = c.started;
        pthread_mutex_unlock(&c.lock);
        if (started)
            break;
        CHECK_MSG(++tries < 3000, "the recorder never started");
        poll(&pfd, 1, 20); /* the recorder thread needs a moment to enable the context */
    }
    /* Counting starts here (the XSync of the loop above is before it). */
    XChangeProperty(dpy, RootWindow(dpy, 0), c.begin, XA_STRING, 8, PropModeReplace,
                    (const unsigned char *)"b", 1);
    for (int i = 0; i < frames; i++) {
        if (i == frames / 2)
            XResizeWindow(dpy, win, 240, 180); /* sent with the next request, no XSync */
        pixels_clear(i < frames / 2 ? GREEN : BLUE);
        glXSwapBuffers(dpy, win);
    }
    mark(&c, RootWindow(dpy, 0), c.end, &c.ended);
    XRecordDisableContext(ctl, r.rc);
    XSync(ctl, False);
    CHECK(pthread_join(th, NULL) == 0);
    XRecordFreeContext(ctl, r.rc);
    XFree(range);
    printf("%d frames (%s, %s): GetGeometry %d, GetInputFocus %d, requests with a reply %d, "
           "PutImage %d, ShmPutImage %d, PresentNotifyMSC %d\n", frames,
           present ? "Present" : "no Present", shm ? "MIT-SHM" : "PutImage", c.get_geometry,
           c.get_input_focus, c.replies, c.put_image, c.shm_put, c.notify_msc);
    CHECK_MSG(c.get_input_focus == 0, "%d XSync (GetInputFocus) in %d frames",
              c.get_input_focus, frames);
    CHECK_MSG(c.replies <= frames, "%d requests with a reply in %d frames", c.replies, frames);
    if (shm)
        CHECK_MSG(c.shm_put == frames && c.put_image == 0, "%d ShmPutImage, %d PutImage",
                  c.shm_put, c.put_image);
    else
        CHECK_MSG(c.shm_put == 0 && c.put_image >= frames, "%d ShmPutImage, %d PutImage",
                  c.shm_put, c.put_image);
    /* The one question a frame asks is its fence (GetGeometry: an MIT-SHM segment is written
     * again, or the next frame put, once the server has taken this one), whose reply is read
     * later; without Present it also tells the window's size. */
    CHECK_MSG(c.replies == c.get_geometry, "%d requests with a reply, %d of them GetGeometry",
              c.replies, c.get_geometry);
    /* The window shows frames of its new size. */
    XSync(dpy, False);
    for (int i = 0; i < 2; i++) {
        pixels_clear(BLUE);
        glXSwapBuffers(dpy, win);
    }
    CHECK_PIXEL(dpy, win, 230, 170, BLUE);
    CHECK_MSG(pixels_app_errors == 0, "%d X errors reached the application", pixels_app_errors);
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    XFree(vis);
    XFree(cfgs);
    XCloseDisplay(r.data);
    XCloseDisplay(ctl);
    XCloseDisplay(dpy);
    return 0;
}
#else
static int count_requests(bool present, bool shm)
{
    (void)present;
    (void)shm;
    SKIP("built without libXtst (RECORD): nothing counts the requests");
}
#endif

/* ---- swap: drawables current elsewhere or nowhere; pixmaps start defined ---- */

struct elsewhere {
    GLXContext ctx;
    Window win;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int step;
};

static void step_to(struct elsewhere *e, int step)
{
    pthread_mutex_lock(&e->lock);
    e->step = step;
    pthread_cond_broadcast(&e->cond);
    pthread_mutex_unlock(&e->lock);
}

static void wait_step(struct elsewhere *e, int step)
{
    pthread_mutex_lock(&e->lock);
    while (e->step < step)
        pthread_cond_wait(&e->cond, &e->lock);
    pthread_mutex_unlock(&e->lock);
}

static void *elsewhere_thread(void *p)
{
    struct elsewhere *e = p;

    CHECK(glXMakeCurrent(dpy, e->win, e->ctx));
    pixels_clear(BLUE);
    step_to(e, 1);          /* drawn, not swapped */
    wait_step(e, 2);        /* the main thread swapped it */
    glFlush();              /* this thread shows it */
    step_to(e, 3);
    wait_step(e, 4);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    return NULL;
}

static int swap_elsewhere(void)
{
    struct elsewhere e = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };
    XVisualInfo *vis;
    GLXFBConfig cfg;
    GLXContext ctx1, ctx2;
    Window a, b;
    Pixmap pix;
    GLXPixmap glxpix;
    GC gc;
    pthread_t th;

    CHECK(XInitThreads());
    dpy = pixels_open_display();
    glmux_test_require_ours("libGLX.so.0");
    XSetErrorHandler(pixels_count_errors);
    cfg = pixels_pick_config(dpy, &vis);
    ctx1 = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    ctx2 = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    e.ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx1 != NULL && ctx2 != NULL && e.ctx != NULL);
    a = pixels_make_window(dpy, vis, 0, 0, 64, 64);
    b = pixels_make_window(dpy, vis, 100, 0, 64, 64);
    e.win = pixels_make_window(dpy, vis, 200, 0, 64, 64);

    /* Current nowhere: the swap shows it. */
    CHECK(glXMakeCurrent(dpy, b, ctx1));
    pixels_clear(RED);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXSwapBuffers(dpy, b);
    CHECK_PIXEL(dpy, b, 32, 32, RED);

    /* Current nowhere while this thread has another drawable current: shown, and this
     * thread's context, drawable and unswapped frame are as they were. */
    CHECK(glXMakeCurrent(dpy, b, ctx1));
    pixels_clear(YELLOW);
    CHECK(glXMakeCurrent(dpy, a, ctx2));
    pixels_clear(GREEN);
    glXSwapBuffers(dpy, b);
    CHECK_PIXEL(dpy, b, 32, 32, YELLOW);
    CHECK(glXGetCurrentContext() == ctx2 && glXGetCurrentDrawable() == a);
    glXSwapBuffers(dpy, a);
    CHECK_PIXEL(dpy, a, 32, 32, GREEN);
    CHECK(glXMakeCurrent(dpy, None, NULL));

    /* Current on another thread: shown by that thread at its next glFlush. */
    CHECK(pthread_create(&th, NULL, elsewhere_thread, &e) == 0);
    wait_step(&e, 1);
    glXSwapBuffers(dpy, e.win);
    step_to(&e, 2);
    wait_step(&e, 3);
    CHECK_PIXEL(dpy, e.win, 32, 32, BLUE);
    step_to(&e, 4);
    CHECK(pthread_join(th, NULL) == 0);

    /* A GLX pixmap starts with what X drew into the pixmap. */
    pix = XCreatePixmap(dpy, RootWindow(dpy, vis->screen), 32, 32, (unsigned)vis->depth);
    gc = XCreateGC(dpy, pix, 0, NULL);
    XSetForeground(dpy, gc, MAGENTA);
    XFillRectangle(dpy, pix, gc, 0, 0, 32, 32);
    glxpix = glXCreatePixmap(dpy, cfg, pix, NULL);
    CHECK(glxpix != None);
    CHECK(glXMakeCurrent(dpy, glxpix, ctx1));
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 8, 8);
    glClearColor(0, 1, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glFinish();
    CHECK_PIXEL(dpy, pix, 20, 5, MAGENTA);  /* X's drawing kept */
    CHECK_PIXEL(dpy, pix, 2, 29, CYAN);     /* GL's bottom-left corner */
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyPixmap(dpy, glxpix);
    XFreeGC(dpy, gc);
    XFreePixmap(dpy, pix);

    XSync(dpy, False);
    CHECK_MSG(pixels_app_errors == 0, "%d X errors reached the application", pixels_app_errors);
    glXDestroyContext(dpy, ctx1);
    glXDestroyContext(dpy, ctx2);
    glXDestroyContext(dpy, e.ctx);
    XFree(vis);
    XCloseDisplay(dpy);
    printf("ok: swaps of drawables current nowhere and elsewhere; a pixmap's X contents\n");
    return 0;
}

/* ---- interval: swap control ---- */

#ifndef GLX_SWAP_INTERVAL_EXT
#define GLX_SWAP_INTERVAL_EXT 0x20F1
#define GLX_MAX_SWAP_INTERVAL_EXT 0x20F2
#endif

static void *proc(const char *name)
{
    void *fn = (void *)glXGetProcAddress((const GLubyte *)name);

    CHECK_MSG(fn != NULL, "no %s", name);
    return fn;
}

/* The number after "what " in the glmux log's last display-closed line. */
static unsigned long long logged(const char *what)
{
    const char *text = pixels_log_text(), *p = NULL, *q;
    unsigned long long n = 0;

    for (q = text; (q = strstr(q, "frame(s) sent so far")) != NULL; q++)
        p = q;
    CHECK_MSG(p != NULL, "no frame count in the log");
    p = strstr(p, what);
    CHECK_MSG(p != NULL, "no \"%s\" in the log", what);
    while (p > text && p[-1] == ' ')
        p--;
    while (p > text && p[-1] >= '0' && p[-1] <= '9')
        p--;
    sscanf(p, "%llu", &n);
    return n;
}

static int swap_interval(void)
{
    void (*interval_ext)(Display *, GLXDrawable, int) =
        (void (*)(Display *, GLXDrawable, int))proc("glXSwapIntervalEXT");
    int (*interval_mesa)(unsigned int) = (int (*)(unsigned int))proc("glXSwapIntervalMESA");
    int (*get_mesa)(void) = (int (*)(void))proc("glXGetSwapIntervalMESA");
    int (*interval_sgi)(int) = (int (*)(int))proc("glXSwapIntervalSGI");
    const char *ext;
    XVisualInfo *vis;
    GLXFBConfig cfg;
    GLXContext ctx;
    unsigned int v = 99;
    Window win;
    int before;

    dpy = pixels_open_display();
    glmux_test_require_ours("libGLX.so.0");
    XSetErrorHandler(pixels_count_errors);
    ext = glXQueryExtensionsString(dpy, DefaultScreen(dpy));
    CHECK(strstr(ext, "GLX_EXT_swap_control") && strstr(ext, "GLX_MESA_swap_control") &&
          strstr(ext, "GLX_SGI_swap_control"));
    cfg = pixels_pick_config(dpy, &vis);
    ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    win = pixels_make_window(dpy, vis, 0, 0, 64, 64);
    CHECK(ctx != NULL && glXMakeCurrent(dpy, win, ctx));
    glXQueryDrawable(dpy, win, GLX_SWAP_INTERVAL_EXT, &v);
    CHECK_MSG(v == 0, "default swap interval %u", v);
    glXQueryDrawable(dpy, win, GLX_MAX_SWAP_INTERVAL_EXT, &v);
    CHECK_MSG(v >= 2, "maximum swap interval %u with Present", v);
    interval_ext(dpy, win, 2);
    glXQueryDrawable(dpy, win, GLX_SWAP_INTERVAL_EXT, &v);
    CHECK(v == 2 && get_mesa() == 2);
    CHECK(interval_mesa(1) == 0 && get_mesa() == 1);
    CHECK(interval_sgi(0) == GLX_BAD_VALUE && get_mesa() == 1);
    CHECK(interval_sgi(3) == 0 && get_mesa() == 3);
    before = pixels_app_errors;
    interval_ext(dpy, win, -1);
    XSync(dpy, False);
    CHECK_MSG(pixels_app_errors == before + 1 && pixels_last_error == BadValue,
              "glXSwapIntervalEXT(-1): %d errors, last %d", pixels_app_errors - before,
              pixels_last_error);
    /* Eight frames paced at interval 2, then four unpaced. */
    interval_ext(dpy, win, 2);
    for (int i = 0; i < 12; i++) {
        if (i == 8)
            interval_ext(dpy, win, 0);
        pixels_clear(i & 1 ? RED : GREEN);
        glXSwapBuffers(dpy, win);
    }
    CHECK_PIXEL(dpy, win, 32, 32, RED);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    /* Without a current context the MESA and SGI calls have nothing to set. */
    CHECK(interval_mesa(1) == GLX_BAD_CONTEXT && interval_sgi(1) == GLX_BAD_CONTEXT);
    glXDestroyContext(dpy, ctx);
    XFree(vis);
    XCloseDisplay(dpy);
    CHECK_MSG(logged("paced by Present") == 8, "%llu frames paced, want 8",
              logged("paced by Present"));
    printf("ok: swap intervals; 8 of 12 frames paced by Present\n");
    return 0;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc >= 2, "usage: %s depth | count present|nopresent shm|put | swap | interval",
              argv[0]);
    if (strcmp(argv[1], "depth") == 0)
        return depth_matrix();
    if (strcmp(argv[1], "count") == 0 && argc >= 4)
        return count_requests(strcmp(argv[2], "present") == 0, strcmp(argv[3], "shm") == 0);
    if (strcmp(argv[1], "swap") == 0)
        return swap_elsewhere();
    if (strcmp(argv[1], "interval") == 0)
        return swap_interval();
    CHECK_MSG(0, "unknown mode %s", argv[1]);
    return 1;
}
