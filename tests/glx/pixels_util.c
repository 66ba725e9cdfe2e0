/* SPDX-License-Identifier: MIT */
/* glmux tests: the pixels-vendor test helpers (pixels_util.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixels_util.h"

int pixels_app_errors;
int pixels_last_error, pixels_last_minor;
XID pixels_last_resource;

Display *pixels_open_display(void)
{
    const char *name = getenv("PIXELS_DISPLAY");
    Display *d;

    CHECK_MSG(name != NULL, "PIXELS_DISPLAY is not set (run through run_glx_pixels.sh)");
    d = XOpenDisplay(name);
    CHECK_MSG(d != NULL, "cannot open display %s", name);
    return d;
}

int pixels_count_errors(Display *dpy, XErrorEvent *ev)
{
    (void)dpy;
    fprintf(stderr, "X error %d (request %d.%d, resource 0x%lx) reached the application\n",
            ev->error_code, ev->request_code, ev->minor_code, (unsigned long)ev->resourceid);
    __atomic_store_n(&pixels_last_error, ev->error_code, __ATOMIC_SEQ_CST);
    __atomic_store_n(&pixels_last_minor, ev->minor_code, __ATOMIC_SEQ_CST);
    __atomic_store_n(&pixels_last_resource, ev->resourceid, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&pixels_app_errors, 1, __ATOMIC_SEQ_CST);
    return 0;
}

GLXFBConfig pixels_pick_config(Display *dpy, XVisualInfo **vis)
{
    static const int attribs[] = { GLX_DOUBLEBUFFER, True, GLX_RED_SIZE, 8, GLX_DRAWABLE_TYPE,
                                   GLX_WINDOW_BIT | GLX_PIXMAP_BIT, None };
    GLXFBConfig *cfgs, cfg;
    int n = 0;

    cfgs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
    CHECK_MSG(cfgs != NULL && n > 0, "no double-buffered FBConfig for windows and pixmaps");
    cfg = cfgs[0];
    XFree(cfgs);
    *vis = glXGetVisualFromFBConfig(dpy, cfg);
    CHECK(*vis != NULL);
    return cfg;
}

Window pixels_make_window(Display *dpy, const XVisualInfo *vis, int x, int y, int w, int h)
{
    XSetWindowAttributes swa = { 0 };
    Window win;

    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vis->screen), vis->visual, AllocNone);
    win = XCreateWindow(dpy, RootWindow(dpy, vis->screen), x, y, (unsigned)w, (unsigned)h, 0,
                        vis->depth, InputOutput, vis->visual, CWColormap | CWBorderPixel, &swa);
    XMapWindow(dpy, win);
    XSync(dpy, False);
    return win;
}

void pixels_clear(unsigned long rgb)
{
    glDisable(GL_SCISSOR_TEST);
    glClearColor((float)((rgb >> 16) & 0xff) / 255.0f, (float)((rgb >> 8) & 0xff) / 255.0f,
                 (float)(rgb & 0xff) / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

unsigned long pixels_pixel(Display *dpy, Drawable d, int x, int y)
{
    XImage *img = XGetImage(dpy, d, x, y, 1, 1, AllPlanes, ZPixmap);
    unsigned long p;

    CHECK_MSG(img != NULL, "XGetImage of 0x%lx failed", (unsigned long)d);
    p = XGetPixel(img, 0, 0) & 0xffffff;
    XDestroyImage(img);
    return p;
}

long pixels_wrong_pixels(Display *dpy, Window win, int w, int h, unsigned long rgb)
{
    XImage *img = XGetImage(dpy, win, 0, 0, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
    long wrong = 0;

    CHECK_MSG(img != NULL, "XGetImage of 0x%lx (%dx%d) failed", (unsigned long)win, w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            wrong += (XGetPixel(img, x, y) & 0xffffff) != rgb;
    }
    XDestroyImage(img);
    return wrong;
}

const char *pixels_log_text(void)
{
    const char *path = getenv("GLMUX_DEBUG_FILE");
    static char buf[1 << 20];
    size_t n;
    FILE *f;

    CHECK_MSG(path != NULL, "GLMUX_DEBUG_FILE must be set");
    f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot read %s", path);
    n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

bool pixels_log_has(const char *needle)
{
    return strstr(pixels_log_text(), needle) != NULL;
}

void pixels_check_log(const char *needle)
{
    CHECK_MSG(pixels_log_has(needle), "the log %s does not say \"%s\"",
              getenv("GLMUX_DEBUG_FILE"), needle);
}

int pixels_segments_of(pid_t pid)
{
    FILE *f = fopen("/proc/sysvipc/shm", "r");
    char line[512];
    int n = 0;

    CHECK_MSG(f != NULL, "no /proc/sysvipc/shm");
    CHECK(fgets(line, sizeof(line), f) != NULL); /* the header */
    while (fgets(line, sizeof(line), f) != NULL) {
        long key, id, perms, size, cpid;

        if (sscanf(line, "%ld %ld %lo %ld %ld", &key, &id, &perms, &size, &cpid) == 5 &&
            cpid == (long)pid)
            n++;
    }
    fclose(f);
    return n;
}

void pixels_check_libraries(void)
{
    const char *want = getenv("PIXELS_LIBGLX"), *got, *vendor;
    char a[4096], b[4096];

    if (want == NULL) {
        glmux_test_require_ours("libGLX.so.0");
    } else {
        got = glmux_test_loaded_path("libGLX.so.0");
        CHECK_MSG(got != NULL && realpath(got, a) != NULL && realpath(want, b) != NULL &&
                  strcmp(a, b) == 0, "libGLX.so.0 is %s, not %s", got ? got : "not loaded",
                  want);
    }
    vendor = glmux_test_loaded_path("libGLX_glmux-pixels.so.0");
    CHECK_MSG(vendor != NULL && strstr(vendor, "/src/pixels/") != NULL,
              "the pixels vendor loaded is %s, not the build tree's", vendor ? vendor : "none");
}
