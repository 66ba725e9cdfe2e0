/* SPDX-License-Identifier: MIT */
/*
 * glmux benchmarks: GLX start-up and make-current cost. No RUNPATH: run_glx_bench.sh picks
 * glmux or Debian's libglvnd with LD_LIBRARY_PATH, so one binary measures both, and counts
 * instructions with callgrind inside glx_startup() or make_current_loop() only.
 *   bench_glx startup             first GLX use: vendor lookup and load, FBConfigs, a context,
 *                                 first make-current, release
 *   bench_glx same N              N make-currents alternating two contexts of one vendor
 *   bench_glx switch N            N make-currents alternating the vendors of screens 0 and 1
 * Prints wall-clock nanoseconds per make-current as well (informative only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <X11/Xlib.h>
#include <GL/glx.h>

static GLXContext make_context(Display *dpy, int screen)
{
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(dpy, screen, NULL, &n);
    GLXContext ctx;

    if (configs == NULL || n == 0) {
        fprintf(stderr, "bench_glx: no FBConfig on screen %d\n", screen);
        exit(2);
    }
    ctx = glXCreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    XFree(configs);
    if (ctx == NULL) {
        fprintf(stderr, "bench_glx: no context on screen %d\n", screen);
        exit(2);
    }
    return ctx;
}

__attribute__((noinline)) GLXContext glx_startup(Display *dpy, Window win)
{
    GLXContext ctx = make_context(dpy, 0);

    if (!glXMakeCurrent(dpy, win, ctx) || !glXMakeCurrent(dpy, None, NULL))
        exit(2);
    return ctx;
}

__attribute__((noinline)) int make_current_loop(Display *dpy, Window win[2], GLXContext ctx[2],
                                                long n)
{
    int failures = 0;

    for (long i = 0; i < n; i++)
        failures += !glXMakeCurrent(dpy, win[i & 1], ctx[i & 1]);
    return failures;
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "startup";
    long n = argc > 2 ? atol(argv[2]) : 10000;
    Display *dpy = XOpenDisplay(NULL);
    Window win[2];
    GLXContext ctx[2];
    double t0;

    if (dpy == NULL) {
        fprintf(stderr, "bench_glx: cannot open the display\n");
        return 2;
    }
    for (int s = 0; s < 2; s++) {
        int screen = strcmp(mode, "switch") == 0 ? s : 0;

        win[s] = XCreateSimpleWindow(dpy, RootWindow(dpy, screen), 0, 0, 16, 16, 0, 0, 0);
    }
    XSync(dpy, False);
    if (strcmp(mode, "startup") == 0) {
        glXDestroyContext(dpy, glx_startup(dpy, win[0]));
        XCloseDisplay(dpy);
        return 0;
    }
    ctx[0] = make_context(dpy, 0);
    ctx[1] = make_context(dpy, strcmp(mode, "switch") == 0 ? 1 : 0);
    t0 = now();
    if (make_current_loop(dpy, win, ctx, n) != 0) {
        fprintf(stderr, "bench_glx: make-current failed\n");
        return 2;
    }
    printf("%s: %.1f ns per make-current (wall clock, %ld calls)\n", mode, (now() - t0) / n, n);
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx[0]);
    glXDestroyContext(dpy, ctx[1]);
    XCloseDisplay(dpy);
    return 0;
}
