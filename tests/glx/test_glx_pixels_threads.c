/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the pixels GLX vendor's frame transport under many drawables and threads, on an
 * Xvfb without GLX that run_glx_pixels.sh started for this test alone (XInitThreads). Also run
 * under ThreadSanitizer (scripts/test.sh, tsan configuration).
 * usage: glx_pixels_threads MODE
 *   threads  4 threads with 4 windows each, each thread drawing its windows in turn: every
 *            window shows its last frame, nothing reaches the application's error handler.
 *   many     130 windows each shown once, then the last one destroyed while current and
 *            swapped: no X error reaches the application (a fixed table of 256 XIDs whose errors
 *            were ours once dropped the ones past it).
 *   race     one thread opens, uses and closes displays while another swaps a destroyed window
 *            on a display of its own (and gets errors of its own requests), and two threads
 *            show their first frames on one new display at once (an error hook once walked the
 *            display list unlocked while XCloseDisplay freed an entry, and the MIT-SHM state was
 *            read and written unlocked; ThreadSanitizer reported both).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pixels_util.h"

static Display *dpy;

/* ---- threads: 4 threads x 4 windows ---- */

#define THREADS 4
#define WINDOWS 4

struct worker {
    int index;
    GLXFBConfig cfg;
    XVisualInfo *vis;
    Window win[WINDOWS];
};

static unsigned long color_of(int thread, int window)
{
    static const unsigned long colors[] = { RED, GREEN, BLUE, YELLOW, MAGENTA, CYAN };

    return colors[(thread * WINDOWS + window) % 6] ^ (unsigned long)(thread * 0x10);
}

static void *worker_main(void *p)
{
    struct worker *w = p;
    GLXContext ctx = glXCreateNewContext(dpy, w->cfg, GLX_RGBA_TYPE, NULL, True);

    CHECK(ctx != NULL);
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < WINDOWS; i++) {
            CHECK(glXMakeCurrent(dpy, w->win[i], ctx));
            pixels_clear(round == 4 ? color_of(w->index, i) : 0x202020ul * (unsigned)round);
            glXSwapBuffers(dpy, w->win[i]);
        }
    }
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyContext(dpy, ctx);
    return NULL;
}

static int threads(void)
{
    struct worker w[THREADS];
    pthread_t th[THREADS];
    XVisualInfo *vis;
    GLXFBConfig cfg;

    CHECK(XInitThreads());
    dpy = pixels_open_display();
    glmux_test_require_ours("libGLX.so.0");
    XSetErrorHandler(pixels_count_errors);
    cfg = pixels_pick_config(dpy, &vis);
    for (int t = 0; t < THREADS; t++) {
        w[t].index = t;
        w[t].cfg = cfg;
        w[t].vis = vis;
        for (int i = 0; i < WINDOWS; i++)
            w[t].win[i] = pixels_make_window(dpy, vis, 70 * i, 70 * t, 64, 48);
    }
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, worker_main, &w[t]) == 0);
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
    for (int t = 0; t < THREADS; t++) {
        for (int i = 0; i < WINDOWS; i++)
            CHECK_PIXEL(dpy, w[t].win[i], 60, 40, color_of(t, i) & 0xffffff);
    }
    CHECK_MSG(pixels_app_errors == 0, "%d X errors reached the application", pixels_app_errors);
    XFree(vis);
    XCloseDisplay(dpy);
    printf("ok: %d threads x %d windows\n", THREADS, WINDOWS);
    return 0;
}

/* ---- many: 130 windows, the last destroyed while current ---- */

static int many(void)
{
    enum { N = 130 };
    Window *win = calloc(N, sizeof(*win));
    XVisualInfo *vis;
    GLXFBConfig cfg;
    GLXContext ctx;

    CHECK(win != NULL);
    dpy = pixels_open_display();
    glmux_test_require_ours("libGLX.so.0");
    XSetErrorHandler(pixels_count_errors);
    cfg = pixels_pick_config(dpy, &vis);
    ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx != NULL);
    for (int i = 0; i < N; i++) {
        win[i] = pixels_make_window(dpy, vis, (i % 20) * 20, (i / 20) * 20, 16, 16);
        CHECK(glXMakeCurrent(dpy, win[i], ctx));
        pixels_clear(GREEN);
        glXSwapBuffers(dpy, win[i]);
    }
    XDestroyWindow(dpy, win[N - 1]);
    XSync(dpy, False);
    for (int i = 0; i < 3; i++) {
        pixels_clear(RED);
        glXSwapBuffers(dpy, win[N - 1]);
    }
    XSync(dpy, False);
    CHECK_MSG(pixels_app_errors == 0, "%d X errors reached the application (last: %d on 0x%lx)",
              pixels_app_errors, pixels_last_error, (unsigned long)pixels_last_resource);
    CHECK_PIXEL(dpy, win[0], 8, 8, GREEN);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyContext(dpy, ctx);
    XFree(vis);
    XCloseDisplay(dpy);
    free(win);
    printf("ok: %d windows; a destroyed one swapped quietly\n", N);
    return 0;
}

/* ---- race: displays closed while others show frames ---- */

static int own_errors; /* BadWindow errors of the application's own requests */

static void *closer(void *p)
{
    (void)p;
    for (int round = 0; round < 8; round++) {
        Display *d = pixels_open_display();
        XVisualInfo *vis;
        GLXFBConfig cfg = pixels_pick_config(d, &vis);
        GLXContext ctx = glXCreateNewContext(d, cfg, GLX_RGBA_TYPE, NULL, True);
        Window win = pixels_make_window(d, vis, 300, 0, 32, 32);

        CHECK(ctx != NULL && glXMakeCurrent(d, win, ctx));
        pixels_clear(BLUE);
        glXSwapBuffers(d, win);
        CHECK(glXMakeCurrent(d, None, NULL));
        glXDestroyContext(d, ctx);
        XFree(vis);
        XCloseDisplay(d);
    }
    return NULL;
}

static void *destroyed_swapper(void *p)
{
    XVisualInfo *vis;
    GLXFBConfig cfg = pixels_pick_config(dpy, &vis);
    GLXContext ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    Window win = pixels_make_window(dpy, vis, 0, 0, 32, 32);

    (void)p;
    CHECK(ctx != NULL && glXMakeCurrent(dpy, win, ctx));
    pixels_clear(RED);
    glXSwapBuffers(dpy, win);
    XDestroyWindow(dpy, win);
    for (int i = 0; i < 200; i++) {
        pixels_clear(i & 1 ? RED : GREEN);
        glXSwapBuffers(dpy, win);
        if (i % 10 == 0) {
            /* An error of the application's own (it reaches its handler: expected) while the
             * other thread closes displays: every error passes any hook on the display. */
            XMapWindow(dpy, win);
            __atomic_add_fetch(&own_errors, 1, __ATOMIC_SEQ_CST);
            XSync(dpy, False);
        }
    }
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyContext(dpy, ctx);
    XFree(vis);
    return NULL;
}

struct first {
    Display *d;
    int x;
    pthread_barrier_t *start;
};

static void *first_frame(void *p)
{
    struct first *f = p;
    XVisualInfo *vis;
    GLXFBConfig cfg = pixels_pick_config(f->d, &vis);
    GLXContext ctx = glXCreateNewContext(f->d, cfg, GLX_RGBA_TYPE, NULL, True);
    Window win = pixels_make_window(f->d, vis, f->x, 100, 32, 32);

    CHECK(ctx != NULL && glXMakeCurrent(f->d, win, ctx));
    pixels_clear(CYAN);
    pthread_barrier_wait(f->start);
    glXSwapBuffers(f->d, win); /* both threads: the display's first frames (MIT-SHM test) */
    CHECK_PIXEL(f->d, win, 16, 16, CYAN);
    CHECK(glXMakeCurrent(f->d, None, NULL));
    glXDestroyContext(f->d, ctx);
    XFree(vis);
    return NULL;
}

static int race(void)
{
    pthread_barrier_t start;
    struct first f[2];
    pthread_t th[4];
    Display *shared;

    CHECK(XInitThreads());
    dpy = pixels_open_display();
    glmux_test_require_ours("libGLX.so.0");
    XSetErrorHandler(pixels_count_errors);
    CHECK(pthread_create(&th[0], NULL, closer, NULL) == 0);
    CHECK(pthread_create(&th[1], NULL, destroyed_swapper, NULL) == 0);
    shared = pixels_open_display();
    CHECK(pthread_barrier_init(&start, NULL, 2) == 0);
    for (int i = 0; i < 2; i++) {
        f[i] = (struct first){ shared, 100 * i, &start };
        CHECK(pthread_create(&th[2 + i], NULL, first_frame, &f[i]) == 0);
    }
    for (int i = 0; i < 4; i++)
        CHECK(pthread_join(th[i], NULL) == 0);
    pthread_barrier_destroy(&start);
    XSync(dpy, False);
    CHECK_MSG(pixels_app_errors == own_errors, "%d X errors reached the application, %d were its "
              "own", pixels_app_errors, own_errors);
    XCloseDisplay(shared);
    XCloseDisplay(dpy);
    printf("ok: displays closed while others showed frames\n");
    return 0;
}

/* ---- iodeath: the server killed while 4 threads show frames ---- */

static int exits;        /* the application's I/O error handler's calls */
static bool stopping;    /* the first call has begun to end the process */
static int parked;       /* the other rendering threads stopped (in the handler or idle) */
static bool quick_exit_; /* _exit rather than exit */

/* Stops this thread for good (it never again calls GL or X). */
static void park(void)
{
    __atomic_add_fetch(&parked, 1, __ATOMIC_SEQ_CST);
    for (;;)
        pause();
}

/*
 * What a program can do (docs/reliability.md): the first thread whose connection died ends the
 * process; any other thread that gets there meanwhile (its own display died too) waits for it,
 * so that exit runs once. _exit runs no atexit handler and no library destructor. exit runs
 * them all, Mesa's and LLVM's among them, which pull llvmpipe from under a thread still
 * rendering (SIGSEGV): before exit, the other rendering threads are stopped (each looks at
 * `stopping` between GL calls; one blocked in Xlib on a display the dying thread holds calls
 * nothing more). glmux's own destructors then run while the other threads sit in the handler
 * holding their own dead display's lock.
 */
static int io_error_exit_once(Display *d)
{
    (void)d;
    if (__atomic_add_fetch(&exits, 1, __ATOMIC_SEQ_CST) != 1)
        park();
    if (quick_exit_)
        _exit(42);
    __atomic_store_n(&stopping, true, __ATOMIC_SEQ_CST);
    /* Every other thread parks promptly on displays of their own (this test's "own"). */
    while (__atomic_load_n(&parked, __ATOMIC_SEQ_CST) < THREADS - 1)
        usleep(1000);
    exit(42);
}

static void park_if_stopping(void)
{
    if (__atomic_load_n(&stopping, __ATOMIC_SEQ_CST))
        park();
}

struct dying {
    Display *d; /* the thread's display: the shared one, or its own */
    GLXFBConfig cfg;
    Window win;
};

static pthread_barrier_t shown; /* every thread has shown a frame */

static void *dying_worker(void *p)
{
    struct dying *w = p;
    GLXContext ctx = glXCreateNewContext(w->d, w->cfg, GLX_RGBA_TYPE, NULL, True);

    CHECK(ctx != NULL);
    CHECK(glXMakeCurrent(w->d, w->win, ctx));
    for (int i = 0;; i++) {
        park_if_stopping();
        pixels_clear(i & 1 ? RED : GREEN);
        park_if_stopping();
        glXSwapBuffers(w->d, w->win);
        if (i == 2)
            pthread_barrier_wait(&shown);
        if (i > 2)
            usleep(1000);
    }
    return NULL;
}

/* No thread may wait forever on a dead connection: a minute after the kill, the test fails. */
static void *watchdog(void *p)
{
    (void)p;
    sleep(60);
    fprintf(stderr, "FAIL: 60 s after the X server was killed the process still runs: a "
            "thread waits on a dead connection\n");
    _exit(3);
}

/*
 * how: "exit" and "_exit": the application's I/O error handler (io_error_exit_once: exit status
 * 42, through exit or _exit; "exit" only with "own" displays, where every other thread parks);
 * "default": Xlib's own (exit(1) in every thread that gets there, while the others render:
 * not something a test can expect to end well, docs/reliability.md). displays: "shared": the 4 threads draw on one display;
 * "own": each thread has a display of its own, so that several connections die at once.
 * PIXELS_XVFB_PID names the server to kill. SIGPIPE is ignored, as a program that wants its I/O
 * error handler to run must (docs/reliability.md): a write to a dead socket then fails with
 * EPIPE instead of killing the process before any handler runs.
 */
static int iodeath(const char *how, const char *displays)
{
    const char *pid = getenv("PIXELS_XVFB_PID");
    bool own = strcmp(displays, "own") == 0;
    struct dying w[THREADS];
    pthread_t th[THREADS], dog;
    XVisualInfo *vis[THREADS];
    const char *vendor;

    CHECK_MSG(pid != NULL, "PIXELS_XVFB_PID is not set (run through run_glx_pixels.sh)");
    CHECK_MSG(strcmp(how, "exit") == 0 || strcmp(how, "_exit") == 0 ||
              strcmp(how, "default") == 0, "iodeath exit|_exit|default shared|own, not %s", how);
    CHECK_MSG(own || strcmp(displays, "shared") == 0, "iodeath: shared|own, not %s", displays);
    CHECK_MSG(own || strcmp(how, "exit") != 0, "iodeath exit: only with own displays");
    CHECK(signal(SIGPIPE, SIG_IGN) != SIG_ERR);
    CHECK(XInitThreads());
    quick_exit_ = strcmp(how, "_exit") == 0;
    if (strcmp(how, "default") != 0)
        XSetIOErrorHandler(io_error_exit_once);
    dpy = pixels_open_display();
    for (int t = 0; t < THREADS; t++) {
        w[t].d = own ? pixels_open_display() : dpy;
        w[t].cfg = pixels_pick_config(w[t].d, &vis[t]);
        w[t].win = pixels_make_window(w[t].d, vis[t], 70 * t, 0, 64, 48);
    }
    glmux_test_require_ours("libGLX.so.0");
    vendor = glmux_test_loaded_path("libGLX_glmux-pixels.so.0");
    CHECK_MSG(vendor != NULL && strstr(vendor, "/src/pixels/") != NULL,
              "the pixels vendor loaded is %s, not the build tree's", vendor ? vendor : "none");
    CHECK(pthread_barrier_init(&shown, NULL, THREADS + 1) == 0);
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, dying_worker, &w[t]) == 0);
    pthread_barrier_wait(&shown);
    CHECK(pthread_create(&dog, NULL, watchdog, NULL) == 0);
    printf("%d threads show frames on %s; killing the X server\n", THREADS,
           own ? "a display each" : "one display");
    fflush(stdout);
    CHECK(kill((pid_t)atol(pid), SIGKILL) == 0);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    fprintf(stderr, "FAIL: every thread returned; no I/O error handler ended the process\n");
    return 1;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc >= 2, "usage: %s threads | many | race | iodeath exit|_exit|default shared|own",
              argv[0]);
    if (strcmp(argv[1], "iodeath") == 0 && argc >= 4)
        return iodeath(argv[2], argv[3]);
    if (strcmp(argv[1], "threads") == 0)
        return threads();
    if (strcmp(argv[1], "many") == 0)
        return many();
    if (strcmp(argv[1], "race") == 0)
        return race();
    CHECK_MSG(0, "unknown mode %s", argv[1]);
    return 1;
}
