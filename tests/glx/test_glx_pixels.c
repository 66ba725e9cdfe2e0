/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the pixels GLX vendor (libGLX_glmux-pixels.so.0, src/pixels) on an Xvfb the
 * wrapper (run_glx_pixels.sh) started for this test alone: a GL 3.3 core context from the local
 * EGL vendor on a display that cannot render GL itself, and the window's pixels read back from
 * the X server (XGetImage) as drawn: after a swap, after a resize, in two windows, from two
 * threads, in a pixmap (glFinish), in a pbuffer, and with a window destroyed while current.
 * The libGLX is ours, or the one PIXELS_LIBGLX names (Debian's libglvnd); the vendor is always
 * the build tree's.
 * usage: glx_pixels render shm|put | withegl shared|before|after | noegl | iodeath
 *   render  PIXELS_DISPLAY names the server; "shm"/"put" is how frames must have gone out
 *           (read from the GLMUX_DEBUG_FILE log).
 *   withegl the application uses libEGL (PIXELS_LIBEGL, dlopened) and the pixels vendor renders
 *           with the same Mesa; afterwards Mesa's EGL extension dispatch (eglDestroyImageKHR
 *           through eglGetProcAddress) must still reach Mesa through libEGL's services, so
 *           Mesa's __egl_Main ran once, or last for libEGL. shared: glmux's libEGL, used
 *           first: the vendor renders with libEGL's load of Mesa. before: another libEGL (Debian's
 *           libglvnd) loads Mesa first: the vendor leaves it alone and cannot render (the log
 *           says why). after: the vendor loads Mesa first (GLX before EGL), then another libEGL
 *           takes Mesa over; both keep working.
 *   noegl   no EGL vendor installed: glXChooseFBConfig finds nothing and the log says why.
 *   iodeath the server is killed (PIXELS_XVFB_PID) while frames are sent: the application's
 *           XSetIOErrorHandler runs (exit 42), nothing crashes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <GL/gl.h>
#include <GL/glx.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "pixels_util.h"

#ifndef GL_CONTEXT_PROFILE_MASK
#define GL_CONTEXT_PROFILE_MASK 0x9126
#define GL_CONTEXT_CORE_PROFILE_BIT 0x00000001
#endif
#ifndef GL_MAJOR_VERSION
#define GL_MAJOR_VERSION 0x821B
#define GL_MINOR_VERSION 0x821C
#endif

typedef GLXContext (*create_attribs_fn)(Display *, GLXFBConfig, GLXContext, Bool, const int *);

static Display *dpy;
static GLXFBConfig config;
static XVisualInfo *vis;
static create_attribs_fn create_attribs;

static GLXContext core_context(void)
{
    static const int attribs[] = {
        GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
        GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None
    };
    GLXContext ctx = create_attribs(dpy, config, NULL, True, attribs);

    CHECK_MSG(ctx != NULL, "no GL 3.3 core context");
    return ctx;
}

static void setup(void)
{
    static const int attribs[] = {
        GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT | GLX_PIXMAP_BIT |
        GLX_PBUFFER_BIT, GLX_DOUBLEBUFFER, True, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8,
        GLX_BLUE_SIZE, 8, GLX_DEPTH_SIZE, 24, None
    };
    GLXFBConfig *configs;
    int n = 0, major = 0, minor = 0;
    const char *vendor;

    CHECK(glXQueryExtension(dpy, NULL, NULL));
    CHECK(glXQueryVersion(dpy, &major, &minor) && major == 1 && minor >= 3);
    vendor = glXGetClientString(dpy, GLX_VENDOR);
    CHECK_MSG(vendor != NULL && strstr(vendor, "glmux pixels") != NULL, "GLX vendor \"%s\"",
              vendor ? vendor : "(null)");
    CHECK(strstr(glXQueryExtensionsString(dpy, DefaultScreen(dpy)),
                 "GLX_ARB_create_context_profile") != NULL);
    configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
    pixels_check_libraries();
    CHECK_MSG(configs != NULL && n > 0, "no FBConfig");
    config = configs[0];
    XFree(configs);
    vis = glXGetVisualFromFBConfig(dpy, config);
    CHECK(vis != NULL);
    create_attribs = (create_attribs_fn)glXGetProcAddress(
        (const GLubyte *)"glXCreateContextAttribsARB");
    CHECK(create_attribs != NULL);
}

/* Opens the display, checks the pixels vendor, makes a core context current on a window. */
static Window start(int w, int h, GLXContext *ctx)
{
    Window win;

    dpy = pixels_open_display();
    XSetErrorHandler(pixels_count_errors);
    setup();
    *ctx = core_context();
    win = pixels_make_window(dpy, vis, 0, 0, w, h);
    CHECK(glXMakeCurrent(dpy, win, *ctx));
    return win;
}

struct thread_arg {
    int x;
    unsigned long color;
    Window win;
    GLXContext ctx;
};

static void *thread_main(void *p)
{
    struct thread_arg *a = p;

    a->ctx = core_context();
    a->win = pixels_make_window(dpy, vis, a->x, 400, 64, 64);
    CHECK(glXMakeCurrent(dpy, a->win, a->ctx));
    for (int i = 0; i < 5; i++) {
        pixels_clear(a->color);
        glXSwapBuffers(dpy, a->win);
    }
    glFinish();
    CHECK(glXMakeCurrent(dpy, None, NULL));
    return NULL;
}

static int render(const char *expect)
{
    GLXContext ctx, ctx2;
    Window win, win2, doomed;
    Pixmap pix;
    GLXPixmap glxpix;
    GLXPbuffer pbuf;
    GLint major = 0, minor = 0, profile = 0;
    unsigned char rgba[4];
    unsigned int width = 0;
    const int pbuf_attribs[] = { GLX_PBUFFER_WIDTH, 32, GLX_PBUFFER_HEIGHT, 16, None };
    struct thread_arg t[2] = { { 0, MAGENTA, 0, NULL }, { 100, CYAN, 0, NULL } };
    pthread_t th[2];

    CHECK(XInitThreads());
    /* A 3.3 core context from llvmpipe; one frame, read back from the server. */
    win = start(128, 96, &ctx);
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
    printf("GL %d.%d, profile mask %d, renderer %s\n", major, minor, profile,
           (const char *)glGetString(GL_RENDERER));
    CHECK(major * 10 + minor >= 33 && (profile & GL_CONTEXT_CORE_PROFILE_BIT));
    CHECK(strstr((const char *)glGetString(GL_RENDERER), "llvmpipe") != NULL);
    pixels_clear(GREEN);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 32, 24);
    glClearColor(1, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glXSwapBuffers(dpy, win);
    CHECK_PIXEL(dpy, win, 100, 10, GREEN);
    CHECK_PIXEL(dpy, win, 5, 90, RED);   /* GL's bottom-left is X's bottom-left */
    CHECK_PIXEL(dpy, win, 40, 90, GREEN);

    /* Resize: frames have the new size from the second swap on with Present's events, from
     * the third when the size is heard from a GetGeometry sent after a frame. The vendor never
     * waits for that reply; the XSync after each frame lets it in whatever the server's speed
     * (the test's own round trip, not the vendor's). */
    XResizeWindow(dpy, win, 200, 150);
    XSync(dpy, False);
    for (int i = 0; i < 3; i++) {
        pixels_clear(BLUE);
        glXSwapBuffers(dpy, win);
        XSync(dpy, False);
    }
    CHECK_PIXEL(dpy, win, 190, 140, BLUE);
    CHECK(glXQueryContext(dpy, ctx, GLX_RENDER_TYPE, &major) == Success);

    /* A second window with a second context; the first keeps its frame. */
    ctx2 = core_context();
    win2 = pixels_make_window(dpy, vis, 300, 0, 80, 60);
    CHECK(glXMakeCurrent(dpy, win2, ctx2));
    pixels_clear(YELLOW);
    glXSwapBuffers(dpy, win2);
    CHECK_PIXEL(dpy, win2, 70, 50, YELLOW);
    CHECK_PIXEL(dpy, win, 190, 140, BLUE);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    pixels_clear(GREEN);
    glXSwapBuffers(dpy, win);
    CHECK_PIXEL(dpy, win, 10, 10, GREEN);
    CHECK_PIXEL(dpy, win2, 10, 10, YELLOW);

    /* A pixmap shows what was drawn at glFinish. */
    pix = XCreatePixmap(dpy, RootWindow(dpy, vis->screen), 48, 40, (unsigned)vis->depth);
    glxpix = glXCreatePixmap(dpy, config, pix, NULL);
    CHECK(glxpix != None);
    CHECK(glXMakeCurrent(dpy, glxpix, ctx2));
    pixels_clear(MAGENTA);
    glFinish();
    CHECK_PIXEL(dpy, pix, 47, 39, MAGENTA);
    CHECK_PIXEL(dpy, pix, 0, 0, MAGENTA);

    /* A pbuffer. */
    pbuf = glXCreatePbuffer(dpy, config, pbuf_attribs);
    CHECK(pbuf != None);
    glXQueryDrawable(dpy, pbuf, GLX_WIDTH, &width);
    CHECK(width == 32);
    CHECK(glXMakeContextCurrent(dpy, pbuf, pbuf, ctx2));
    pixels_clear(CYAN);
    glReadPixels(31, 15, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    CHECK_MSG(rgba[0] == 0 && rgba[1] == 255 && rgba[2] == 255, "pbuffer %d %d %d", rgba[0],
              rgba[1], rgba[2]);

    /* A window destroyed while current: drawing and swapping go on, nothing reaches the
     * application's error handler. */
    doomed = pixels_make_window(dpy, vis, 500, 0, 64, 64);
    CHECK(glXMakeCurrent(dpy, doomed, ctx2));
    pixels_clear(RED);
    glXSwapBuffers(dpy, doomed);
    XDestroyWindow(dpy, doomed);
    XSync(dpy, False);
    for (int i = 0; i < 3; i++) {
        pixels_clear(GREEN);
        glXSwapBuffers(dpy, doomed);
    }
    XSync(dpy, False);
    CHECK(glXMakeCurrent(dpy, None, NULL));

    /* Two threads, each with its own context and window. */
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, thread_main, &t[i]) == 0);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_join(th[i], NULL) == 0);
    CHECK_PIXEL(dpy, t[0].win, 32, 32, MAGENTA);
    CHECK_PIXEL(dpy, t[1].win, 32, 32, CYAN);

    CHECK_MSG(pixels_app_errors == 0, "%d X errors reached the application", pixels_app_errors);
    pixels_check_log(strcmp(expect, "shm") == 0 ? "xcb ShmPutImage requests (MIT-SHM works)"
                                         : "xcb PutImage requests (no usable MIT-SHM)");
    glXDestroyPixmap(dpy, glxpix);
    glXDestroyPbuffer(dpy, pbuf);
    glXDestroyContext(dpy, ctx);
    glXDestroyContext(dpy, ctx2);
    for (int i = 0; i < 2; i++)
        glXDestroyContext(dpy, t[i].ctx);
    XFree(vis);
    XCloseDisplay(dpy);
    printf("ok: frames reached the X server as drawn (%s)\n", expect);
    return 0;
}

static void *egl_sym(void *lib, const char *name)
{
    void *fn = dlsym(lib, name);

    CHECK_MSG(fn != NULL, "libEGL has no %s", name);
    return fn;
}

/* libEGL (PIXELS_LIBEGL): its surfaceless display and its eglDestroyImageKHR stub. */
struct app_egl {
    PFNEGLTERMINATEPROC terminate;
    PFNEGLGETERRORPROC get_error;
    PFNEGLDESTROYIMAGEKHRPROC destroy_image;
    EGLDisplay dpy;
};

static void app_egl_start(struct app_egl *e)
{
    const char *path = getenv("PIXELS_LIBEGL");
    PFNEGLGETPLATFORMDISPLAYPROC get_display;
    PFNEGLINITIALIZEPROC initialize;
    PFNEGLGETPROCADDRESSPROC get_proc;
    EGLint major, minor;
    void *lib;

    CHECK_MSG(path != NULL, "PIXELS_LIBEGL is not set (run through run_glx_pixels.sh)");
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(lib != NULL, "%s: %s", path, dlerror());
    get_display = (PFNEGLGETPLATFORMDISPLAYPROC)egl_sym(lib, "eglGetPlatformDisplay");
    initialize = (PFNEGLINITIALIZEPROC)egl_sym(lib, "eglInitialize");
    e->terminate = (PFNEGLTERMINATEPROC)egl_sym(lib, "eglTerminate");
    e->get_error = (PFNEGLGETERRORPROC)egl_sym(lib, "eglGetError");
    get_proc = (PFNEGLGETPROCADDRESSPROC)egl_sym(lib, "eglGetProcAddress");
    e->dpy = get_display(0x31DD /* EGL_PLATFORM_SURFACELESS_MESA */, EGL_DEFAULT_DISPLAY, NULL);
    CHECK_MSG(e->dpy != EGL_NO_DISPLAY, "no surfaceless EGL display (0x%x)", e->get_error());
    CHECK(initialize(e->dpy, &major, &minor));
    e->destroy_image = (PFNEGLDESTROYIMAGEKHRPROC)get_proc("eglDestroyImageKHR");
    CHECK_MSG(e->destroy_image != NULL, "no eglDestroyImageKHR from libEGL");
}

/*
 * Mesa's dispatch stub asks libEGL for the display through the services its __egl_Main was
 * given. After a second __egl_Main with other services the call finds no vendor: EGL_FALSE and
 * no error. With libEGL's services, Mesa's own check answers: EGL_BAD_PARAMETER for an image
 * that does not exist.
 */
static void app_egl_check(struct app_egl *e)
{
    EGLint err;

    CHECK(e->destroy_image(e->dpy, (EGLImageKHR)(uintptr_t)0x1234) == EGL_FALSE);
    err = e->get_error();
    CHECK_MSG(err == EGL_BAD_PARAMETER, "eglDestroyImageKHR(bad image): error 0x%x, not "
              "EGL_BAD_PARAMETER: Mesa's EGL dispatch lost libEGL's services", err);
}

/* One frame on a window of its own, read back. */
static void frame(GLXContext ctx, unsigned long rgb)
{
    Window win = pixels_make_window(dpy, vis, 0, 0, 64, 64);

    CHECK(glXMakeCurrent(dpy, win, ctx));
    pixels_clear(rgb);
    glXSwapBuffers(dpy, win);
    glFinish();
    CHECK_PIXEL(dpy, win, 32, 32, rgb);
    CHECK(glXMakeCurrent(dpy, None, NULL));
}

static int withegl(const char *order)
{
    struct app_egl e;
    GLXContext ctx;
    Window win;
    int n = 5;

    if (strcmp(order, "after") != 0)
        app_egl_start(&e);   /* libEGL loads Mesa first */
    if (strcmp(order, "before") == 0) {
        /* Another libEGL owns Mesa: the pixels vendor leaves it alone and renders nothing. */
        dpy = pixels_open_display();
        CHECK(glXChooseFBConfig(dpy, DefaultScreen(dpy), NULL, &n) == NULL && n == 0);
        pixels_check_libraries();
        pixels_check_log("was loaded before by a libEGL.so.1 that is not glmux's");
        app_egl_check(&e);
        CHECK(e.terminate(e.dpy));
        XCloseDisplay(dpy);
        printf("ok: another libEGL loaded Mesa first; the pixels vendor left it alone\n");
        return 0;
    }
    win = start(64, 64, &ctx);
    pixels_clear(BLUE);
    glXSwapBuffers(dpy, win);
    glFinish();
    CHECK_PIXEL(dpy, win, 32, 32, BLUE);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    if (strcmp(order, "shared") == 0) {
        glmux_test_require_ours("libEGL.so.1");
        pixels_check_log("pixels GLX vendor: EGL vendors from glmux's libEGL");
    } else {
        pixels_check_log("is not glmux's");
        app_egl_start(&e);   /* libEGL takes Mesa over, after the pixels vendor loaded it */
    }
    app_egl_check(&e);
    frame(ctx, GREEN);      /* and the pixels vendor keeps rendering */
    CHECK(e.terminate(e.dpy));
    CHECK_MSG(pixels_app_errors == 0, "%d X errors reached the application", pixels_app_errors);
    glXDestroyContext(dpy, ctx);
    XFree(vis);
    XCloseDisplay(dpy);
    printf("ok: libEGL and the pixels vendor share Mesa (%s)\n", order);
    return 0;
}

static int noegl(void)
{
    int n = 5;
    GLXFBConfig *configs;

    dpy = pixels_open_display();
    configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), NULL, &n);
    pixels_check_libraries();
    CHECK_MSG(configs == NULL && n == 0, "%d FBConfigs without an EGL vendor", n);
    pixels_check_log("cannot render it locally either: no EGL vendor is installed");
    XCloseDisplay(dpy);
    return 0;
}

static int io_error_exit(Display *d)
{
    (void)d;
    _exit(42);
}

static int iodeath(void)
{
    const char *pid = getenv("PIXELS_XVFB_PID");
    GLXContext ctx;
    Window win;

    CHECK(pid != NULL);
    dpy = pixels_open_display();
    XSetIOErrorHandler(io_error_exit);
    setup();
    ctx = core_context();
    win = pixels_make_window(dpy, vis, 0, 0, 256, 256);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    for (int i = 0; i < 2000; i++) {
        pixels_clear(i & 1 ? RED : GREEN);
        glXSwapBuffers(dpy, win);
        if (i == 5)
            kill((pid_t)atol(pid), SIGKILL);
        if (i > 5)
            usleep(1000);
    }
    fprintf(stderr, "the connection died but Xlib's I/O error handler never ran\n");
    return 1;
}

/*
 * XCloseDisplay with a context current: libGLX lets it go without calling the vendor, as
 * libglvnd does. The context outlives that connection (its display's FBConfigs do not): made
 * current on a second connection it renders, answers glXQueryContext and is destroyed there,
 * touching nothing of the closed display (the sanitized builds run this).
 */
static int closed(void)
{
    GLXContext ctx;
    Window win = start(64, 64, &ctx);
    int id = 0;

    pixels_clear(RED);
    glXSwapBuffers(dpy, win);
    glFinish();
    CHECK_PIXEL(dpy, win, 32, 32, RED);
    XFree(vis);
    XCloseDisplay(dpy);
    CHECK_MSG(glXGetCurrentContext() == NULL && glXGetCurrentDisplay() == NULL,
              "the context is still current after XCloseDisplay");
    CHECK(glGetString(GL_VENDOR) == NULL);
    dpy = pixels_open_display();
    XSetErrorHandler(pixels_count_errors);
    setup();
    win = pixels_make_window(dpy, vis, 0, 0, 64, 64);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    CHECK(glXGetCurrentContext() == ctx && glXGetCurrentDisplay() == dpy);
    pixels_clear(BLUE);
    glXSwapBuffers(dpy, win);
    glFinish();
    CHECK_PIXEL(dpy, win, 32, 32, BLUE);
    CHECK(glXQueryContext(dpy, ctx, GLX_FBCONFIG_ID, &id) == Success && id > 0);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyContext(dpy, ctx);
    CHECK_MSG(pixels_app_errors == 0, "%d X errors reached the application", pixels_app_errors);
    XFree(vis);
    XCloseDisplay(dpy);
    printf("ok: a context current at XCloseDisplay was let go and renders on another "
           "connection\n");
    return 0;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc >= 2, "usage: %s render shm|put | withegl shared|before|after | noegl | "
              "iodeath | closed", argv[0]);
    if (strcmp(argv[1], "closed") == 0)
        return closed();
    if (strcmp(argv[1], "render") == 0 && argc >= 3)
        return render(argv[2]);
    if (strcmp(argv[1], "withegl") == 0 && argc >= 3)
        return withegl(argv[2]);
    if (strcmp(argv[1], "noegl") == 0)
        return noegl();
    if (strcmp(argv[1], "iodeath") == 0)
        return iodeath();
    CHECK_MSG(0, "unknown mode %s", argv[1]);
    return 1;
}
