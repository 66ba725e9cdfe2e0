/* SPDX-License-Identifier: MIT */
/*
 * glmux bench: frames per second and bytes sent per frame of the pixels GLX vendor
 * (docs/remote.md) for one window size. Renders FRAMES frames (a clear each, alternating colour)
 * into a WIDTHxHEIGHT window of $DISPLAY and swaps; prints the wall-clock rate and the bytes
 * the process wrote in that time (/proc/self/io "wchar": the X connection, nearly all of it).
 * usage: bench_pixels WIDTH HEIGHT FRAMES
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <X11/Xlib.h>
#include <GL/gl.h>
#include <GL/glx.h>

static unsigned long long written(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    char line[128];
    unsigned long long v = 0;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "wchar:", 6) == 0)
            v = strtoull(line + 6, NULL, 10);
    }
    fclose(f);
    return v;
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    static const int attribs[] = { GLX_DOUBLEBUFFER, True, GLX_RED_SIZE, 8, None };
    Display *dpy;
    GLXFBConfig *configs;
    XVisualInfo *vis;
    XSetWindowAttributes swa = { 0 };
    GLXContext ctx;
    Window win;
    int w, h, frames, n = 0;
    unsigned long long b0;
    double t0, t1;

    if (argc < 4) {
        fprintf(stderr, "usage: %s WIDTH HEIGHT FRAMES\n", argv[0]);
        return 2;
    }
    w = atoi(argv[1]);
    h = atoi(argv[2]);
    frames = atoi(argv[3]);
    dpy = XOpenDisplay(NULL);
    if (dpy == NULL)
        return 1;
    configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
    if (configs == NULL || n == 0) {
        fprintf(stderr, "no FBConfig\n");
        return 1;
    }
    vis = glXGetVisualFromFBConfig(dpy, configs[0]);
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vis->screen), vis->visual, AllocNone);
    win = XCreateWindow(dpy, RootWindow(dpy, vis->screen), 0, 0, (unsigned)w, (unsigned)h, 0,
                        vis->depth, InputOutput, vis->visual, CWColormap | CWBorderPixel, &swa);
    XMapWindow(dpy, win);
    XSync(dpy, False);
    ctx = glXCreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    if (ctx == NULL || !glXMakeCurrent(dpy, win, ctx))
        return 1;
    /* Warm up: the first frames allocate the image and segment. */
    for (int i = 0; i < 3; i++) {
        glClear(GL_COLOR_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }
    XSync(dpy, False);
    b0 = written();
    t0 = now();
    for (int i = 0; i < frames; i++) {
        glClearColor(i & 1 ? 1.0f : 0.0f, 0.5f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }
    XSync(dpy, False);
    t1 = now();
    printf("%dx%d frames=%d fps=%.1f bytes_per_frame=%llu\n", w, h, frames,
           (double)frames / (t1 - t0), (written() - b0) / (unsigned long long)frames);
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    XCloseDisplay(dpy);
    return 0;
}
