/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the pixels GLX vendor (src/pixels) shows the first frame after a resize at the
 * new size, on an Xvfb without GLX that run_glx_pixels.sh started for this test alone, or a
 * TCP display through Debian's libglvnd (PIXELS_LIBGLX names its libGLX; the vendor by name).
 * usage: glx_pixels_resize resize
 *   Another connection resizes the window (and waits for the server), then one frame: every
 *   pixel of the window (XGetImage) is the frame's, at each of seven sizes, with Present or
 *   without (GLMUX_GLX_REMOTE_PRESENT=0, set by the wrapper); a 9000 x 9000 window gets one
 *   BadAlloc and keeps frames of the last size.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixels_util.h"

static int resize_first_frame(void)
{
    static const struct {
        int w, h;
    } sizes[] = { { 640, 480 }, { 96, 60 }, { 300, 700 }, { 1000, 50 }, { 17, 333 },
                  { 1024, 768 }, { 64, 64 } };
    static const unsigned long colors[] = { GREEN, BLUE, YELLOW, MAGENTA, CYAN, RED };
    const bool present = getenv("GLMUX_GLX_REMOTE_PRESENT") == NULL ||
                         strcmp(getenv("GLMUX_GLX_REMOTE_PRESENT"), "0") != 0;
    Display *dpy, *other;
    XVisualInfo *vis;
    GLXFBConfig cfg;
    GLXContext ctx;
    Window win;
    int n = (int)(sizeof(sizes) / sizeof(sizes[0]));

    dpy = pixels_open_display();
    other = pixels_open_display();
    XSetErrorHandler(pixels_count_errors);
    cfg = pixels_pick_config(dpy, &vis);
    pixels_check_libraries();
    ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx != NULL);
    win = pixels_make_window(dpy, vis, 0, 0, 80, 72);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    for (int i = 0; i < 3; i++) {
        pixels_clear(RED);
        glXSwapBuffers(dpy, win);
    }
    pixels_check_log(present ? "Present: window sizes from its events"
                             : "no Present: window sizes asked");
    /* Another connection resizes the window and waits for the server; then one frame. */
    for (int i = 0; i < n; i++) {
        long wrong;

        XResizeWindow(other, win, (unsigned)sizes[i].w, (unsigned)sizes[i].h);
        XSync(other, False);
        pixels_clear(colors[i % 6]);
        glXSwapBuffers(dpy, win);
        wrong = pixels_wrong_pixels(dpy, win, sizes[i].w, sizes[i].h, colors[i % 6]);
        CHECK_MSG(wrong == 0, "%s: the first frame after a resize to %dx%d: %ld of %d pixels "
                  "wrong", present ? "Present" : "no Present", sizes[i].w, sizes[i].h, wrong,
                  sizes[i].w * sizes[i].h);
    }
    /* A size no frame is made for (81 million pixels): BadAlloc, once, and frames go on at
     * the last size; then a size that is fine again. */
    CHECK_MSG(pixels_app_errors == 0, "%d X errors reached the application", pixels_app_errors);
    XResizeWindow(other, win, 9000, 9000);
    XSync(other, False);
    for (int i = 0; i < 3; i++) {
        pixels_clear(i & 1 ? GREEN : BLUE);
        glXSwapBuffers(dpy, win);
    }
    XSync(dpy, False);
    CHECK_MSG(pixels_app_errors == 1 && pixels_last_error == BadAlloc && pixels_last_resource ==
              win, "a 9000x9000 window: %d X errors (last %d on 0x%lx), want one BadAlloc",
              pixels_app_errors, pixels_last_error, (unsigned long)pixels_last_resource);
    CHECK_PIXEL(dpy, win, 3, 3, BLUE);
    XResizeWindow(other, win, 200, 100);
    XSync(other, False);
    pixels_clear(CYAN);
    glXSwapBuffers(dpy, win);
    CHECK_MSG(pixels_wrong_pixels(dpy, win, 200, 100, CYAN) == 0,
              "200x100 after 9000x9000: not all cyan");
    CHECK_MSG(pixels_app_errors == 1, "%d X errors reached the application", pixels_app_errors);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyContext(dpy, ctx);
    XFree(vis);
    XCloseDisplay(other);
    XCloseDisplay(dpy);
    printf("ok: %s%s: the first frame after each of %d resizes is right at the new size; a "
           "9000x9000 window gets BadAlloc\n", present ? "Present" : "no Present",
           getenv("PIXELS_LIBGLX") != NULL ? ", through libglvnd" : "", n);
    return 0;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc >= 2 && strcmp(argv[1], "resize") == 0, "usage: %s resize", argv[0]);
    return resize_first_frame();
}
