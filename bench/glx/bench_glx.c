/* SPDX-License-Identifier: MIT */
/*
 * glmux benchmarks: GLX start-up and make-current cost. No RUNPATH: run_glx_bench.sh picks
 * glmux or Debian's libglvnd with LD_LIBRARY_PATH, so one binary measures both, and counts
 * instructions with callgrind inside glx_startup() or make_current_loop() only.
 *   bench_glx startup             first GLX use: vendor lookup and load, FBConfigs, a context,
 *                                 first make-current, release
 *   bench_glx same N              N make-currents alternating two contexts of one vendor
 *   bench_glx switch N            N make-currents alternating the vendors of screens 0 and 1
 *   bench_glx again N             N make-currents of the context that is already current
 *   bench_glx procaddr GL GLX     after the vendor of screen 0 is loaded, glXGetProcAddress
 *                                 for every name of the file GL inside gl_first(), again in
 *                                 gl_again(), and for every name of the file GLX in glx_first()
 * Prints wall-clock nanoseconds per make-current as well (informative only).
 */
#include <stdint.h>
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

static volatile uintptr_t sink;

__attribute__((noinline)) static void lookup(char **names, int count)
{
    for (int i = 0; i < count; i++)
        sink += (uintptr_t)glXGetProcAddress((const GLubyte *)names[i]);
}

__attribute__((noinline)) void gl_first(char **names, int count)
{
    lookup(names, count);
}

__attribute__((noinline)) void gl_again(char **names, int count)
{
    lookup(names, count);
}

__attribute__((noinline)) void glx_first(char **names, int count)
{
    lookup(names, count);
}

/* The names of a list file (one a line, '#' comments), or exits. */
static char **read_names(const char *path, int *count)
{
    FILE *f = fopen(path, "r");
    char line[256], **names = NULL;
    int cap = 0;

    *count = 0;
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\r\n# ")] = '\0';
        if (line[0] == '\0')
            continue;
        if (*count == cap) {
            cap = cap ? cap * 2 : 4096;
            names = realloc(names, sizeof(*names) * cap);
            if (names == NULL)
                exit(2);
        }
        names[(*count)++] = strdup(line);
    }
    fclose(f);
    return names;
}

static int procaddr(Display *dpy, const char *gl_file, const char *glx_file)
{
    int gl_count, glx_count;
    char **gl = read_names(gl_file, &gl_count), **glx = read_names(glx_file, &glx_count);

    glXDestroyContext(dpy, make_context(dpy, 0));   /* loads the vendor of screen 0 */
    gl_first(gl, gl_count);
    gl_again(gl, gl_count);
    glx_first(glx, glx_count);
    printf("looked up %d GL and %d GLX names\n", gl_count, glx_count);
    return 0;
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
    if (strcmp(mode, "procaddr") == 0 && argc == 4)
        return procaddr(dpy, argv[2], argv[3]);
    if (strcmp(mode, "startup") == 0) {
        glXDestroyContext(dpy, glx_startup(dpy, win[0]));
        XCloseDisplay(dpy);
        return 0;
    }
    ctx[0] = make_context(dpy, 0);
    if (strcmp(mode, "again") == 0) {
        ctx[1] = ctx[0];
        win[1] = win[0];
        if (!glXMakeCurrent(dpy, win[0], ctx[0]))
            return 2;
    } else {
        ctx[1] = make_context(dpy, strcmp(mode, "switch") == 0 ? 1 : 0);
    }
    t0 = now();
    if (make_current_loop(dpy, win, ctx, n) != 0) {
        fprintf(stderr, "bench_glx: make-current failed\n");
        return 2;
    }
    printf("%s: %.1f ns per make-current (wall clock, %ld calls)\n", mode, (now() - t0) / n, n);
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx[0]);
    if (ctx[1] != ctx[0])
        glXDestroyContext(dpy, ctx[1]);
    XCloseDisplay(dpy);
    return 0;
}
