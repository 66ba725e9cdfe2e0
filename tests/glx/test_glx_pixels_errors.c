/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the pixels GLX vendor (src/pixels) when the X server fails its MIT-SHM
 * requests, through an X proxy in this program (pixels_proxy.c) in front of the Xvfb without
 * GLX that run_glx_pixels.sh started for this test alone.
 * usage: glx_pixels_errors MODE
 *   shmput  every ShmPutImage fails (BadShmSeg) and the server's answers come 20 ms late, so
 *           that each error arrives while later frames are under way: the vendor hears them,
 *           turns to PutImage, and the window shows the last frame (XGetImage on a connection
 *           of its own, past the proxy); no error reaches the application.
 *   attach  the display's MIT-SHM test passes, the window's own ShmAttach requests fail
 *           (BadAccess), answered 20 ms late: the same.
 *   kill    a child process is killed (SIGKILL) while the display's MIT-SHM test waits for the
 *           server (the proxy holds its ShmAttach back): no shared memory segment of it is
 *           left (/proc/sysvipc/shm, what ipcs -m reads).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pixels_proxy.h"
#include "pixels_util.h"

/* The latency the proxy adds to everything the server sends. */
#define LATE_MS 20

/* Renders frames on a display reached through the proxy p; the window shows the last one. */
static int frames_through(struct pixels_proxy *p, const char *what)
{
    static const unsigned long colors[] = { RED, GREEN, BLUE, YELLOW, MAGENTA, CYAN };
    const int frames = 12;
    Display *dpy, *direct = pixels_open_display();
    XVisualInfo *vis;
    GLXFBConfig cfg;
    GLXContext ctx;
    Window win;

    pixels_proxy_serve(p);
    dpy = XOpenDisplay(pixels_proxy_display(p));
    CHECK_MSG(dpy != NULL, "cannot open the proxy's display %s", pixels_proxy_display(p));
    glmux_test_require_ours("libGLX.so.0");
    XSetErrorHandler(pixels_count_errors);
    cfg = pixels_pick_config(dpy, &vis);
    ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx != NULL);
    win = pixels_make_window(dpy, vis, 0, 0, 64, 48);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    for (int i = 0; i < frames; i++) {
        pixels_clear(colors[i % 6]);
        glXSwapBuffers(dpy, win);
    }
    XSync(dpy, False);
    /* Read past the proxy: what the server shows. */
    CHECK_PIXEL(direct, win, 3, 3, colors[(frames - 1) % 6]);
    CHECK_PIXEL(direct, win, 60, 44, colors[(frames - 1) % 6]);
    CHECK_MSG(pixels_proxy_failed(p) > 0, "%s: the proxy failed no MIT-SHM request", what);
    CHECK_MSG(pixels_app_errors == 0, "%s: %d X errors reached the application", what,
              pixels_app_errors);
    pixels_check_log("frames go out with xcb ShmPutImage requests (MIT-SHM works)");
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyContext(dpy, ctx);
    XFree(vis);
    XCloseDisplay(dpy);
    XCloseDisplay(direct);
    printf("ok: %s: %d MIT-SHM requests failed late; the window shows the last of %d frames\n",
           what, pixels_proxy_failed(p), frames);
    return 0;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { 0, (long)ms * 1000000L };

    nanosleep(&ts, NULL);
}

static int killed_in_test(void)
{
    struct pixels_proxy *p = pixels_proxy_start(getenv("PIXELS_DISPLAY"), PROXY_HOLD_ATTACH, 0);
    int status, before, tries = 0;
    pid_t child;

    fflush(NULL);
    child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        Display *dpy = XOpenDisplay(pixels_proxy_display(p));
        XVisualInfo *vis;
        GLXFBConfig cfg;
        GLXContext ctx;
        Window win;

        CHECK(dpy != NULL);
        glmux_test_require_ours("libGLX.so.0");
        cfg = pixels_pick_config(dpy, &vis);
        ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
        win = pixels_make_window(dpy, vis, 0, 0, 32, 32);
        CHECK(ctx != NULL && glXMakeCurrent(dpy, win, ctx));
        pixels_clear(RED);
        glXSwapBuffers(dpy, win); /* the display's MIT-SHM test: never answered */
        fprintf(stderr, "the swap returned: the MIT-SHM test was not held up\n");
        _exit(3);
    }
    pixels_proxy_serve(p); /* after the fork: the child has no thread of the proxy's */
    /* The child is in the test once the proxy holds its attach back (60 s at most). */
    while (!pixels_proxy_holding(p)) {
        CHECK_MSG(waitpid(child, &status, WNOHANG) == 0, "the child ended before its MIT-SHM "
                  "test (status 0x%x)", status);
        CHECK_MSG(++tries < 6000, "the child never sent ShmAttach");
        sleep_ms(10);
    }
    before = pixels_segments_of(child);
    CHECK_MSG(before >= 1, "the child has no segment during its MIT-SHM test");
    CHECK(kill(child, SIGKILL) == 0);
    CHECK(waitpid(child, &status, 0) == child);
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the child ended with 0x%x",
              status);
    CHECK_MSG(pixels_segments_of(child) == 0, "%d shared memory segment(s) of the killed "
              "process left (ipcs -m -p)", pixels_segments_of(child));
    printf("ok: kill: a process killed during the MIT-SHM test left none of its %d segment(s)\n",
           before);
    return 0;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc >= 2, "usage: %s shmput | attach | kill", argv[0]);
    alarm(300); /* a watchdog: a hang fails the test */
    if (strcmp(argv[1], "shmput") == 0)
        return frames_through(pixels_proxy_start(getenv("PIXELS_DISPLAY"), PROXY_FAIL_SHM_PUT,
                                                 LATE_MS), "shmput");
    if (strcmp(argv[1], "attach") == 0)
        return frames_through(pixels_proxy_start(getenv("PIXELS_DISPLAY"),
                                                 PROXY_FAIL_LATE_ATTACH, LATE_MS), "attach");
    if (strcmp(argv[1], "kill") == 0)
        return killed_in_test();
    CHECK_MSG(0, "unknown mode %s", argv[1]);
    return 1;
}
