/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the pixels GLX vendor (src/pixels) while a second X connection acts on the same
 * windows, as window managers and toolkits do, on an Xvfb without GLX that run_glx_pixels.sh
 * started for this test alone; the windows' pixels are read back from the server (XGetImage).
 * usage: glx_pixels_races create | resize | grab | grabkill
 *   create   glXCreateWindow on a window another connection destroys meanwhile (after a
 *            delay of 0 to 0.4 ms, so that the window goes during and after the vendor's
 *            questions; one try in eight, before the call), 400 times: each call returns None
 *            with one BadWindow naming the window (request code X_GetGeometry, minor code
 *            X_GLXCreateWindow: the server has no GLX), or a GLX window that is made current
 *            and swapped with no error reaching the application; one window in eight is left
 *            alone and shows its frame. Under ASan (the sanitize configuration) no use after
 *            free.
 *   resize   another connection resizes the window 200 times, as fast as the server takes it,
 *            while frames are drawn; then one frame at the final size: right, every pixel.
 *   grab     another connection holds XGrabServer across two resizes while frames are drawn
 *            (the vendor's ShmAttach of the new sizes' segments waits behind the grab): 7
 *            frames, the last right at the final size.
 *   grabkill a child process draws the grab's frames and is killed (SIGKILL) while the server
 *            still runs none of its requests: no SysV segment of it is left (/proc/sysvipc/shm,
 *            what ipcs -m reads).
 * In resize and grab, with the glmux log (GLMUX_DEBUG=info, GLMUX_DEBUG_FILE): every frame
 * drawn went out, each with ShmPutImage (the vendor's count, logged at XCloseDisplay), and no
 * X error of the vendor's requests was heard; the wrapper also runs them with GLMUX_DEBUG
 * unset and checks that nothing reached stderr (no warning).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xproto.h>
#include <GL/glxproto.h>

#include "pixels_util.h"

static Display *dpy;

/* The X errors that reached the application, counted without a word (the quiet runs check
 * that nothing reaches stderr). */
static int app_errors, last_error, last_major, last_minor;
static XID last_resource;

static int quiet_errors(Display *d, XErrorEvent *ev)
{
    (void)d;
    app_errors++;
    last_error = ev->error_code;
    last_major = ev->request_code;
    last_minor = ev->minor_code;
    last_resource = ev->resourceid;
    return 0;
}

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

    nanosleep(&ts, NULL);
}

/* What create, resize and grab start with: dpy and a second connection (other) to the same
 * server, the X errors counted quietly, a double-buffered config (vis, cfg), the libraries
 * checked, and a context of that config. */
struct race_gl {
    Display *other;
    XVisualInfo *vis;
    GLXFBConfig cfg;
    GLXContext ctx;
};

static void race_gl_open(struct race_gl *gl)
{
    dpy = pixels_open_display();
    gl->other = pixels_open_display();
    XSetErrorHandler(quiet_errors);
    gl->cfg = pixels_pick_config(dpy, &gl->vis);
    pixels_check_libraries();
    gl->ctx = glXCreateNewContext(dpy, gl->cfg, GLX_RGBA_TYPE, NULL, True);
    CHECK(gl->ctx != NULL);
}

/* Destroys the context (not current) and closes both connections. */
static void race_gl_close(struct race_gl *gl)
{
    glXDestroyContext(dpy, gl->ctx);
    XFree(gl->vis);
    XCloseDisplay(gl->other);
    XCloseDisplay(dpy);
}

/* ---- create: glXCreateWindow on a window another connection destroys ---- */

#define CREATE_TRIES 400

struct destroyer {
    Display *other;
    sem_t go, done;
    Window win;
    long delay_us;
    bool stop;
};

static void *destroyer_main(void *p)
{
    struct destroyer *t = p;

    for (;;) {
        sem_wait(&t->go);
        if (t->stop)
            return NULL;
        sleep_us(t->delay_us);
        XDestroyWindow(t->other, t->win);
        XSync(t->other, False);
        sem_post(&t->done);
    }
}

static int create_race(void)
{
    struct destroyer t = { 0 };
    int made = 0, refused = 0, shown = 0;
    struct race_gl gl;
    pthread_t thread;

    race_gl_open(&gl);
    t.other = gl.other;
    CHECK(sem_init(&t.go, 0, 0) == 0 && sem_init(&t.done, 0, 0) == 0);
    CHECK(pthread_create(&thread, NULL, destroyer_main, &t) == 0);
    srand(43);
    for (int i = 0; i < CREATE_TRIES; i++) {
        /* Every eighth window is left alone, every eighth other one is gone before the call
         * (so that a BadWindow is seen on every run), the others go during it or just after. */
        bool destroy = i % 8 != 7, before = i % 8 == 3;
        Window win = pixels_make_window(dpy, gl.vis, 0, 0, 24, 16);
        int errors = app_errors;
        GLXWindow g;

        if (destroy) {
            t.win = win;
            t.delay_us = before ? 0 : rand() % 400;
            sem_post(&t.go);
            if (before)
                sem_wait(&t.done);
        }
        g = glXCreateWindow(dpy, gl.cfg, win, NULL);
        if (g == None) {
            CHECK_MSG(destroy, "try %d: glXCreateWindow of a window nobody destroyed failed", i);
            CHECK_MSG(app_errors == errors + 1 && last_error == BadWindow &&
                      last_resource == win, "try %d: glXCreateWindow returned None with %d X "
                      "error(s) (last %d on 0x%lx), want one BadWindow on 0x%lx", i,
                      app_errors - errors, last_error, (unsigned long)last_resource,
                      (unsigned long)win);
            /* No GLX on the server: the request that found the window gone, GetGeometry
             * (Xlib's default handler prints "14 (X_GetGeometry)", not "0 ()"); the minor code
             * is the GLX request. */
            CHECK_MSG(last_major == X_GetGeometry && last_minor == X_GLXCreateWindow,
                      "try %d: BadWindow with request code %d.%d, want %d.%d (X_GetGeometry, "
                      "X_GLXCreateWindow)", i, last_major, last_minor, X_GetGeometry,
                      X_GLXCreateWindow);
            refused++;
        } else {
            CHECK_MSG(!before, "try %d: glXCreateWindow made 0x%lx of a window destroyed "
                      "before", i, (unsigned long)g);
            CHECK_MSG(app_errors == errors, "try %d: glXCreateWindow made 0x%lx and raised %d "
                      "X error(s) (last %d)", i, (unsigned long)g, app_errors - errors,
                      last_error);
            CHECK_MSG(glXMakeContextCurrent(dpy, g, g, gl.ctx), "try %d: GLX window 0x%lx cannot "
                      "be made current", i, (unsigned long)g);
            pixels_clear(i & 1 ? GREEN : BLUE);
            glXSwapBuffers(dpy, g);
            if (!destroy) {
                XSync(dpy, False);
                CHECK_PIXEL(dpy, win, 3, 3, i & 1 ? GREEN : BLUE);
                shown++;
            }
            CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
            glXDestroyWindow(dpy, g);
            XSync(dpy, False);
            CHECK_MSG(app_errors == errors, "try %d: %d X error(s) reached the application "
                      "(last %d on 0x%lx)", i, app_errors - errors, last_error,
                      (unsigned long)last_resource);
            made++;
        }
        if (destroy && !before)
            sem_wait(&t.done);
        else if (!destroy)
            XDestroyWindow(dpy, win);
    }
    t.stop = true;
    sem_post(&t.go);
    pthread_join(thread, NULL);
    race_gl_close(&gl);
    printf("ok: create: %d tries of glXCreateWindow on a window another connection destroys: "
           "%d GLX windows made (%d of windows left alone, shown), %d clean BadWindow\n",
           CREATE_TRIES, made, shown, refused);
    return 0;
}

/* ---- resize and grab: frames while another connection resizes ---- */

/* With the glmux log: every one of frames went out as ShmPutImage, and no X error of the
 * vendor's requests was heard (the count is the process's, logged at XCloseDisplay). */
static void check_frames_sent(unsigned long long frames, const char *what)
{
    const char *log, *at, *p;
    unsigned long long sent = 0, shm = 0;

    if (getenv("GLMUX_DEBUG_FILE") == NULL)
        return; /* the quiet run: the wrapper looks at stderr */
    log = pixels_log_text();
    for (at = NULL, p = log; (p = strstr(p, " closed; ")) != NULL; p++)
        at = p;
    CHECK_MSG(at != NULL && sscanf(at, " closed; %llu frame(s) sent so far in this process "
                                   "(%llu as ShmPutImage", &sent, &shm) == 2,
              "%s: the log says nothing of the frames sent", what);
    CHECK_MSG(sent == frames && shm == frames, "%s: %llu frames drawn, %llu sent, %llu of them "
              "with ShmPutImage; want every frame sent with ShmPutImage", what, frames, sent,
              shm);
    CHECK_MSG(strstr(log, "failed (X error") == NULL && strstr(log, "is gone (X error") == NULL,
              "%s: the vendor heard an X error of its requests (log %s)", what,
              getenv("GLMUX_DEBUG_FILE"));
    pixels_check_log("frames go out with xcb ShmPutImage requests (MIT-SHM works)");
}

/* Resize and grab end with one frame of rgb: every pixel of the window's final w x h is the
 * frame's (the message says which frame, e.g. "the frame after the grab"), no X error reached
 * the application; then nothing is current. */
static void check_last_frame(Window win, int w, int h, unsigned long rgb, const char *what,
                             const char *frame)
{
    long wrong;

    pixels_clear(rgb);
    glXSwapBuffers(dpy, win);
    wrong = pixels_wrong_pixels(dpy, win, w, h, rgb);
    CHECK_MSG(wrong == 0, "%s: %s: %ld of %d pixels are not the frame's", what, frame, wrong,
              w * h);
    CHECK_MSG(app_errors == 0, "%s: %d X errors reached the application", what, app_errors);
    CHECK(glXMakeCurrent(dpy, None, NULL));
}

struct resizer {
    Display *other;
    Window win;
    int final_w, final_h;
    int stop;
};

#define RESIZES 200

static void *resizer_main(void *p)
{
    struct resizer *r = p;

    for (int i = 0; i < RESIZES; i++) {
        XResizeWindow(r->other, r->win, (unsigned)(40 + (i * 37) % 300),
                      (unsigned)(30 + (i * 53) % 200));
        /* Now and then the server catches up; mostly the resizes are queued. */
        if (i % 16 == 15)
            XSync(r->other, False);
        else
            XFlush(r->other);
        sleep_us(rand() % 400);
    }
    XResizeWindow(r->other, r->win, (unsigned)r->final_w, (unsigned)r->final_h);
    XSync(r->other, False);
    __atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
    return NULL;
}

static const unsigned long colors[] = { RED, GREEN, BLUE, YELLOW, MAGENTA, CYAN };

static int resize_race(void)
{
    struct resizer r = { .final_w = 123, .final_h = 77 };
    unsigned long long frames = 0;
    char frame[64];
    struct race_gl gl;
    pthread_t thread;

    race_gl_open(&gl);
    r.other = gl.other;
    r.win = pixels_make_window(dpy, gl.vis, 0, 0, 64, 64);
    CHECK(glXMakeCurrent(dpy, r.win, gl.ctx));
    srand(45);
    CHECK(pthread_create(&thread, NULL, resizer_main, &r) == 0);
    while (!__atomic_load_n(&r.stop, __ATOMIC_ACQUIRE)) {
        pixels_clear(colors[frames % 6]);
        glXSwapBuffers(dpy, r.win);
        frames++;
    }
    pthread_join(thread, NULL);
    snprintf(frame, sizeof(frame), "the frame after %d resizes", RESIZES);
    check_last_frame(r.win, r.final_w, r.final_h, CYAN, "resize", frame);
    frames++;
    race_gl_close(&gl);
    check_frames_sent(frames, "resize");
    printf("ok: resize: %llu frames while another connection resized the window %d times; the "
           "last right at %dx%d\n", frames, RESIZES, r.final_w, r.final_h);
    return 0;
}

/*
 * The grab: after two frames, another connection grabs the server, resizes the window, draws
 * nothing; this one draws two frames at that size (their segments' ShmAttach waits behind the
 * grab), the other resizes again, two frames more (the first size's segments are let go before
 * the server has attached them), the other ungrabs, one last frame. The other connection waits
 * for each step of this one (at most 5 s: without Present a frame waits for the server, which
 * the grab holds, and the test then goes on with what it has).
 */
struct grabber {
    Display *other;
    Window win;
    sem_t step, drawn;
};

static const int grab_sizes[2][2] = { { 200, 150 }, { 120, 90 } };

static void wait_up_to(sem_t *s, int seconds)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += seconds;
    while (sem_timedwait(s, &ts) != 0 && errno == EINTR)
        ;
}

static void *grabber_main(void *p)
{
    struct grabber *g = p;

    XGrabServer(g->other);
    for (int i = 0; i < 2; i++) {
        XResizeWindow(g->other, g->win, (unsigned)grab_sizes[i][0],
                      (unsigned)grab_sizes[i][1]);
        XSync(g->other, False);
        sem_post(&g->step);
        wait_up_to(&g->drawn, 5);
    }
    XUngrabServer(g->other);
    XSync(g->other, False);
    sem_post(&g->step);
    return NULL;
}

static int grab_race(void)
{
    struct grabber g = { 0 };
    unsigned long long frames = 0;
    struct race_gl gl;
    pthread_t thread;

    race_gl_open(&gl);
    g.other = gl.other;
    g.win = pixels_make_window(dpy, gl.vis, 0, 0, 64, 64);
    CHECK(glXMakeCurrent(dpy, g.win, gl.ctx));
    for (int i = 0; i < 2; i++, frames++) {
        pixels_clear(colors[frames % 6]);
        glXSwapBuffers(dpy, g.win);
    }
    XSync(dpy, False); /* the server has answered everything before the grab */
    CHECK(sem_init(&g.step, 0, 0) == 0 && sem_init(&g.drawn, 0, 0) == 0);
    CHECK(pthread_create(&thread, NULL, grabber_main, &g) == 0);
    for (int step = 0; step < 2; step++) {
        wait_up_to(&g.step, 30);
        for (int i = 0; i < 2; i++, frames++) {
            pixels_clear(colors[frames % 6]);
            glXSwapBuffers(dpy, g.win);
        }
        sem_post(&g.drawn);
    }
    wait_up_to(&g.step, 30); /* ungrabbed */
    pthread_join(thread, NULL);
    check_last_frame(g.win, grab_sizes[1][0], grab_sizes[1][1], MAGENTA, "grab",
                     "the frame after the grab");
    frames++;
    race_gl_close(&gl);
    check_frames_sent(frames, "grab");
    printf("ok: grab: %llu frames, 4 of them while another connection held the server across "
           "two resizes; the last right at %dx%d\n", frames, grab_sizes[1][0],
           grab_sizes[1][1]);
    return 0;
}

/* ---- grabkill: a process killed while its segments wait for the server ---- */

/* Reads n bytes from fd, waiting at most 60 s. */
static void read_from(int fd, void *buf, size_t n, const char *what)
{
    struct pollfd pfd = { fd, POLLIN, 0 };

    CHECK_MSG(poll(&pfd, 1, 60000) == 1 && read(fd, buf, n) == (ssize_t)n,
              "grabkill: no word from the other process (%s)", what);
}

static void child_frames(Window win, int n)
{
    for (int i = 0; i < n; i++) {
        pixels_clear(colors[i % 6]);
        glXSwapBuffers(dpy, win);
    }
}

static int grab_kill(void)
{
    int to_child[2], to_parent[2], status, before, after = -1;
    Display *other = pixels_open_display();
    pid_t child;
    Window win;
    char c = 0;

    CHECK(pipe(to_child) == 0 && pipe(to_parent) == 0);
    fflush(NULL);
    child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        XVisualInfo *vis;
        GLXFBConfig cfg;
        GLXContext ctx;

        dpy = pixels_open_display();
        cfg = pixels_pick_config(dpy, &vis);
        ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
        win = pixels_make_window(dpy, vis, 0, 0, 64, 64);
        CHECK(ctx != NULL && glXMakeCurrent(dpy, win, ctx));
        child_frames(win, 2);
        XSync(dpy, False);
        CHECK(write(to_parent[1], &win, sizeof(win)) == (ssize_t)sizeof(win));
        for (int step = 0; step < 2; step++) {
            read_from(to_child[0], &c, 1, "a resize");
            child_frames(win, 2);
            CHECK(write(to_parent[1], &c, 1) == 1);
        }
        pause(); /* killed here */
        _exit(3);
    }
    read_from(to_parent[0], &win, sizeof(win), "the window");
    XGrabServer(other);
    for (int step = 0; step < 2; step++) {
        XResizeWindow(other, win, (unsigned)grab_sizes[step][0], (unsigned)grab_sizes[step][1]);
        XSync(other, False);
        CHECK(write(to_child[1], &c, 1) == 1);
        read_from(to_parent[0], &c, 1, "its frames");
    }
    before = pixels_segments_of(child);
    CHECK(kill(child, SIGKILL) == 0);
    CHECK(waitpid(child, &status, 0) == child);
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the child ended with 0x%x",
              status);
    XUngrabServer(other);
    XSync(other, False);
    /* The server lets the killed client's segments go when it has read what the client sent. */
    for (int i = 0; i < 500 && (after = pixels_segments_of(child)) != 0; i++)
        sleep_us(10000);
    CHECK_MSG(after == 0, "grabkill: %d shared memory segment(s) of the killed process left "
              "(ipcs -m -p)", after);
    XCloseDisplay(other);
    printf("ok: grabkill: a process killed while the server was grabbed across two resizes "
           "left none of its %d segment(s)\n", before);
    return 0;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc >= 2, "usage: %s create | resize | grab | grabkill", argv[0]);
    alarm(300); /* a watchdog: a hang fails the test */
    if (strcmp(argv[1], "create") == 0)
        return create_race();
    if (strcmp(argv[1], "resize") == 0)
        return resize_race();
    if (strcmp(argv[1], "grab") == 0)
        return grab_race();
    if (strcmp(argv[1], "grabkill") == 0)
        return grab_kill();
    CHECK_MSG(0, "unknown mode %s", argv[1]);
    return 1;
}
