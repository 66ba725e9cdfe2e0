/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the pixels GLX vendor (libGLX_glmux-pixels.so.0, src/pixels) when a program
 * changes its objects, on an Xvfb the wrapper (run_glx_pixels.sh) started for this test alone,
 * through our libGLX or the one PIXELS_LIBGLX names (Debian's libglvnd). Each mode reads the
 * window's pixels back from the X server (XGetImage).
 * usage: glx_pixels_objects recreate | destroyed | readdraw | extensions | fork
 *   recreate  a window (used directly, and a GLX window) shows context 1's frames; context 1 is
 *             destroyed (the window is then swapped with no context current), a little memory
 *             allocated, and context 2 on the same window shows its own frames: nothing of
 *             context 1 is used after it went (the sanitized builds and valgrind run this).
 *   destroyed 40 windows of 1024x768, half used directly and half through glXCreateWindow,
 *             each shows a frame and is destroyed with XDestroyWindow (never glXDestroyWindow):
 *             no MIT-SHM segment of this process is left, and (not in sanitized builds, whose
 *             allocators keep freed memory) the resident size grew by less than 100 MiB.
 *   readdraw  glXMakeContextCurrent with a read drawable (a pbuffer) other than the draw one (a
 *             window): a blit from the read framebuffer shows the pbuffer's colour.
 *   extensions the GLX extensions the EGL vendor (Mesa) backs are offered and work, each
 *             context's frames on a window: GLX_ARB_create_context_no_error,
 *             GLX_ARB_context_flush_control (both behaviours), GLX_EXT_create_context_es2_profile
 *             and _es_profile (ES 2.0 and 3.0 contexts), GLX_EXT_no_config_context (on a GLX
 *             window and on an X window used directly); the ones it cannot back are not offered
 *             (docs/compatibility.md), and an unknown attribute gets no context.
 *   fork      while two threads show frames, make and destroy contexts and swap windows current
 *             nowhere (the vendor's own contexts), the main thread forks 40 times; each child
 *             calls into the vendor's records and configs (their locks) and exits: no child
 *             hangs on a lock copied while held (a 30 s wait each), and the threads' last
 *             frames are as drawn.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <GL/gl.h>
#include <GL/glx.h>

#include "pixels_util.h"

#define ES_PROFILE_BIT 0x0004          /* GLX_CONTEXT_ES(2)_PROFILE_BIT_EXT */
#define NO_ERROR_ATTRIB 0x31B3         /* GLX_CONTEXT_OPENGL_NO_ERROR_ARB */
#define RELEASE_ATTRIB 0x2097          /* GLX_CONTEXT_RELEASE_BEHAVIOR_ARB */
#define RELEASE_NONE 0                 /* GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB */
#define RELEASE_FLUSH 0x2098           /* GLX_CONTEXT_RELEASE_BEHAVIOR_FLUSH_ARB */
#define GL_RELEASE_BEHAVIOR 0x82FB     /* GL_CONTEXT_RELEASE_BEHAVIOR */
#define GL_RELEASE_FLUSH 0x82FC        /* GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH */
#define GL_FLAG_NO_ERROR 0x0008        /* GL_CONTEXT_FLAG_NO_ERROR_BIT */
#ifndef GL_CONTEXT_FLAGS
#define GL_CONTEXT_FLAGS 0x821E
#endif
#ifndef GL_READ_FRAMEBUFFER
#define GL_READ_FRAMEBUFFER 0x8CA8
#define GL_DRAW_FRAMEBUFFER 0x8CA9
#endif

static Display *dpy;
static GLXFBConfig config;
static XVisualInfo *vis;

static void setup(void)
{
    const char *vendor;

    dpy = pixels_open_display();
    XSetErrorHandler(pixels_count_errors);
    vendor = glXGetClientString(dpy, GLX_VENDOR);
    CHECK_MSG(vendor != NULL && strstr(vendor, "glmux pixels") != NULL, "GLX vendor \"%s\"",
              vendor ? vendor : "(null)");
    config = pixels_pick_config(dpy, &vis);
    pixels_check_libraries();
}

static void finish(void)
{
    CHECK_MSG(pixels_app_errors == 0, "%d X errors reached the application", pixels_app_errors);
    XFree(vis);
    XCloseDisplay(dpy);
}

static GLXContext new_context(void)
{
    GLXContext ctx = glXCreateNewContext(dpy, config, GLX_RGBA_TYPE, NULL, True);

    CHECK_MSG(ctx != NULL, "glXCreateNewContext failed");
    return ctx;
}

/* n frames of rgb on draw (a GLX drawable of win), each read back from the server. */
static void frames(GLXDrawable draw, Window win, unsigned long rgb, int n)
{
    for (int i = 0; i < n; i++) {
        pixels_clear(rgb);
        glXSwapBuffers(dpy, draw);
        glFinish();
        CHECK_PIXEL(dpy, win, 8, 8, rgb);
    }
}

static void recreate_on(bool glx_window)
{
    Window win = pixels_make_window(dpy, vis, 0, 0, 64, 64);
    GLXDrawable draw = glx_window ? glXCreateWindow(dpy, config, win, NULL) : win;
    GLXContext ctx1 = new_context(), ctx2;
    void *junk[64];

    CHECK(draw != None);
    CHECK(glXMakeContextCurrent(dpy, draw, draw, ctx1));
    frames(draw, win, GREEN, 1);
    CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
    glXDestroyContext(dpy, ctx1);
    /* Whatever context 1 held is reused now. */
    for (int i = 0; i < 64; i++) {
        junk[i] = malloc(32 + (size_t)i * 16);
        CHECK(junk[i] != NULL);
        memset(junk[i], 0xa5, 32 + (size_t)i * 16);
    }
    /* A swap of the window current nowhere reads it back with a context of the vendor's own. */
    glXSwapBuffers(dpy, draw);
    XSync(dpy, False);
    ctx2 = new_context();
    CHECK(glXMakeContextCurrent(dpy, draw, draw, ctx2));
    frames(draw, win, RED, 3);
    CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
    glXDestroyContext(dpy, ctx2);
    for (int i = 0; i < 64; i++)
        free(junk[i]);
    if (glx_window)
        glXDestroyWindow(dpy, draw);
    XDestroyWindow(dpy, win);
}

static int recreate(void)
{
    setup();
    recreate_on(false);
    recreate_on(true);
    finish();
    printf("ok: context 2 shows its own frames on a window context 1 used before it went\n");
    return 0;
}

/* The MIT-SHM segments this process made that still exist (/proc/sysvipc/shm). */
static int own_segments(void)
{
    FILE *f = fopen("/proc/sysvipc/shm", "r");
    char line[512];
    int n = 0;

    CHECK_MSG(f != NULL, "cannot read /proc/sysvipc/shm");
    while (fgets(line, sizeof(line), f) != NULL) {
        long key, shmid, perms, size, cpid;

        if (sscanf(line, "%ld %ld %lo %ld %ld", &key, &shmid, &perms, &size, &cpid) == 5 &&
            cpid == (long)getpid())
            n++;
    }
    fclose(f);
    return n;
}

/* The resident size in MiB, of memory in use: what the C library keeps of freed memory for
 * later is handed back first (malloc_trim), so that the figure does not depend on how the
 * heap happens to be laid out between one build or machine and another. */
static long rss_mib(void)
{
    FILE *f;
    long size = 0, resident = 0;

    malloc_trim(0);
    f = fopen("/proc/self/statm", "r");
    CHECK(f != NULL);
    CHECK(fscanf(f, "%ld %ld", &size, &resident) == 2);
    fclose(f);
    return resident * sysconf(_SC_PAGESIZE) / (1024 * 1024);
}

static int destroyed(void)
{
    bool sanitized = getenv("PIXELS_SANITIZED") != NULL;
    long start = 0, end;
    GLXContext ctx;
    int segments, gone = 0;
    const char *p;

    setup();
    ctx = new_context();
    for (int i = 0; i < 40; i++) {
        Window win = pixels_make_window(dpy, vis, 0, 0, 1024, 768);
        GLXDrawable draw = i % 2 ? glXCreateWindow(dpy, config, win, NULL) : win;
        unsigned long rgb = i % 2 ? RED : BLUE;

        CHECK(glXMakeContextCurrent(dpy, draw, draw, ctx));
        pixels_clear(rgb);
        glXSwapBuffers(dpy, draw);
        glFinish();
        CHECK_PIXEL(dpy, win, 1000, 700, rgb);
        CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
        XDestroyWindow(dpy, win);
        XSync(dpy, False);
        if (i == 0)
            start = rss_mib(); /* after the first frame: the renderer's own start is done */
    }
    glXDestroyContext(dpy, ctx);
    XSync(dpy, False);
    segments = own_segments();
    end = rss_mib();
    for (p = pixels_log_text(); (p = strstr(p, "is gone; its record")) != NULL; p++)
        gone++;
    printf("40 windows destroyed: %d segment(s) of this process left, resident %ld MiB after "
           "the first, %ld MiB at the end; %d record(s) freed as gone\n", segments, start, end,
           gone);
    CHECK_MSG(segments == 0, "%d MIT-SHM segment(s) of destroyed windows are left", segments);
    CHECK_MSG(gone == 40, "%d of 40 destroyed windows' records were freed", gone);
    if (!sanitized)
        CHECK_MSG(end - start < 100, "the resident size grew by %ld MiB", end - start);
    finish();
    printf("ok: windows destroyed with XDestroyWindow leave nothing behind\n");
    return 0;
}

static int readdraw(void)
{
    static const int pbuffer_attribs[] = { GLX_PBUFFER_WIDTH, 64, GLX_PBUFFER_HEIGHT, 64, None };
    void (*blit)(GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield, GLenum);
    GLXContext ctx;
    GLXPbuffer pb;
    Window win;
    unsigned char px[4] = { 0 };

    setup();
    ctx = new_context();
    win = pixels_make_window(dpy, vis, 0, 0, 64, 64);
    pb = glXCreatePbuffer(dpy, config, pbuffer_attribs);
    CHECK(pb != None);
    blit = (void (*)(GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield,
                     GLenum))glXGetProcAddress((const GLubyte *)"glBlitFramebuffer");
    CHECK(blit != NULL);
    CHECK(glXMakeContextCurrent(dpy, pb, pb, ctx));
    pixels_clear(YELLOW);
    glFinish();
    CHECK(glXMakeContextCurrent(dpy, win, pb, ctx));
    CHECK(glXGetCurrentDrawable() == win && glXGetCurrentReadDrawable() == pb);
    pixels_clear(GREEN);
    glReadPixels(8, 8, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK_MSG(px[0] == 255 && px[1] == 255 && px[2] == 0, "read drawable gives %u,%u,%u",
              px[0], px[1], px[2]);
    blit(0, 0, 32, 64, 0, 0, 32, 64, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glXSwapBuffers(dpy, win);
    glFinish();
    CHECK_PIXEL(dpy, win, 8, 8, YELLOW);
    CHECK_PIXEL(dpy, win, 48, 8, GREEN);
    CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
    glXDestroyContext(dpy, ctx);
    glXDestroyPbuffer(dpy, pb);
    XDestroyWindow(dpy, win);
    finish();
    printf("ok: a read drawable other than the draw one\n");
    return 0;
}

typedef GLXContext (*create_attribs_fn)(Display *, GLXFBConfig, GLXContext, Bool, const int *);

/* Whether name is a whole word of the space-separated list. */
static bool has_word(const char *list, const char *name)
{
    size_t n = strlen(name);

    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    }
    return false;
}

/* ctx, made current on draw (of win), shows frames of rgb; then let go and destroyed. */
static void context_frames(GLXContext ctx, GLXDrawable draw, Window win, unsigned long rgb,
                           const char *what)
{
    CHECK_MSG(ctx != NULL, "%s: no context", what);
    CHECK_MSG(glXMakeContextCurrent(dpy, draw, draw, ctx), "%s: not made current", what);
    frames(draw, win, rgb, 2);
    CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
    glXDestroyContext(dpy, ctx);
    printf("ok: %s\n", what);
}

static int extensions(void)
{
    static const char *const offered[] = {
        "GLX_ARB_create_context_no_error", "GLX_ARB_context_flush_control",
        "GLX_EXT_create_context_es2_profile", "GLX_EXT_create_context_es_profile",
        "GLX_EXT_no_config_context",
    };
    static const char *const not_offered[] = {
        "GLX_MESA_query_renderer", "GLX_SGI_make_current_read", "GLX_MESA_copy_sub_buffer",
    };
    const int no_error[] = { GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
                             GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                             NO_ERROR_ATTRIB, True, None };
    const int release_none[] = { RELEASE_ATTRIB, RELEASE_NONE, None };
    const int release_flush[] = { RELEASE_ATTRIB, RELEASE_FLUSH, None };
    const int es2[] = { GLX_CONTEXT_MAJOR_VERSION_ARB, 2, GLX_CONTEXT_MINOR_VERSION_ARB, 0,
                        GLX_CONTEXT_PROFILE_MASK_ARB, ES_PROFILE_BIT, None };
    const int es3[] = { GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 0,
                        GLX_CONTEXT_PROFILE_MASK_ARB, ES_PROFILE_BIT, None };
    const int unknown[] = { 0x7777, 1, None };
    int no_config[] = { GLX_SCREEN, 0, None };
    create_attribs_fn create;
    const char *exts, *version;
    GLXContext ctx;
    GLXWindow glxwin;
    Window win;
    GLint v = -1;
    int screen = -1;

    setup();
    exts = glXQueryExtensionsString(dpy, DefaultScreen(dpy));
    CHECK(exts != NULL);
    for (size_t i = 0; i < sizeof(offered) / sizeof(offered[0]); i++)
        CHECK_MSG(has_word(exts, offered[i]), "%s is not offered: %s", offered[i], exts);
    for (size_t i = 0; i < sizeof(not_offered) / sizeof(not_offered[0]); i++)
        CHECK_MSG(!has_word(exts, not_offered[i]), "%s is offered", not_offered[i]);
    create = (create_attribs_fn)glXGetProcAddress((const GLubyte *)"glXCreateContextAttribsARB");
    CHECK(create != NULL);
    win = pixels_make_window(dpy, vis, 0, 0, 64, 64);

    ctx = create(dpy, config, NULL, True, no_error);
    CHECK(ctx != NULL && glXMakeContextCurrent(dpy, win, win, ctx));
    glGetIntegerv(GL_CONTEXT_FLAGS, &v);
    CHECK_MSG(v & GL_FLAG_NO_ERROR, "GL_CONTEXT_FLAGS 0x%x lacks the no-error bit", v);
    context_frames(ctx, win, win, RED, "GLX_ARB_create_context_no_error");

    ctx = create(dpy, config, NULL, True, release_none);
    CHECK(ctx != NULL && glXMakeContextCurrent(dpy, win, win, ctx));
    glGetIntegerv(GL_RELEASE_BEHAVIOR, &v);
    CHECK_MSG(v == 0, "GL_CONTEXT_RELEASE_BEHAVIOR 0x%x, not GL_NONE", v);
    context_frames(ctx, win, win, GREEN, "GLX_ARB_context_flush_control (none)");
    ctx = create(dpy, config, NULL, True, release_flush);
    CHECK(ctx != NULL && glXMakeContextCurrent(dpy, win, win, ctx));
    glGetIntegerv(GL_RELEASE_BEHAVIOR, &v);
    CHECK_MSG(v == GL_RELEASE_FLUSH, "GL_CONTEXT_RELEASE_BEHAVIOR 0x%x, not flush", v);
    context_frames(ctx, win, win, BLUE, "GLX_ARB_context_flush_control (flush)");

    ctx = create(dpy, config, NULL, True, es2);
    CHECK(ctx != NULL && glXMakeContextCurrent(dpy, win, win, ctx));
    version = (const char *)glGetString(GL_VERSION);
    /* An ES 2.0 request may get a later version, compatible with it. */
    CHECK_MSG(version != NULL && (strncmp(version, "OpenGL ES 2.", 12) == 0 ||
                                  strncmp(version, "OpenGL ES 3.", 12) == 0),
              "an ES 2.0 context has version %s", version ? version : "(none)");
    context_frames(ctx, win, win, YELLOW, "GLX_EXT_create_context_es2_profile (ES 2.0)");
    ctx = create(dpy, config, NULL, True, es3);
    CHECK(ctx != NULL && glXMakeContextCurrent(dpy, win, win, ctx));
    version = (const char *)glGetString(GL_VERSION);
    CHECK_MSG(version != NULL && strncmp(version, "OpenGL ES 3.", 12) == 0,
              "an ES 3.0 context has version %s", version ? version : "(none)");
    context_frames(ctx, win, win, CYAN, "GLX_EXT_create_context_es_profile (ES 3.0)");

    no_config[1] = DefaultScreen(dpy);
    glxwin = glXCreateWindow(dpy, config, win, NULL);
    CHECK(glxwin != None);
    ctx = create(dpy, NULL, NULL, True, no_config);
    CHECK(ctx != NULL);
    CHECK(glXQueryContext(dpy, ctx, GLX_SCREEN, &screen) == Success &&
          screen == DefaultScreen(dpy));
    context_frames(ctx, glxwin, win, MAGENTA, "GLX_EXT_no_config_context (GLX window)");
    glXDestroyWindow(dpy, glxwin);
    XDestroyWindow(dpy, win);
    win = pixels_make_window(dpy, vis, 0, 0, 64, 64);
    context_frames(create(dpy, NULL, NULL, True, no_config), win, win, RED,
                   "GLX_EXT_no_config_context (X window)");

    CHECK_MSG(create(dpy, config, NULL, True, unknown) == NULL,
              "a context with an unknown attribute");
    XDestroyWindow(dpy, win);
    finish();
    return 0;
}

struct forker {
    Window win, spare;          /* spare: swapped while current nowhere */
    unsigned long rgb;
    GLXContext ctx;
};

static int fork_stop;

static void *fork_worker(void *p)
{
    struct forker *f = p;

    for (int i = 0; !__atomic_load_n(&fork_stop, __ATOMIC_ACQUIRE) || i < 4; i++) {
        GLXContext extra = new_context();

        CHECK(glXMakeContextCurrent(dpy, f->spare, f->spare, extra));
        pixels_clear(f->rgb);
        CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
        glXDestroyContext(dpy, extra);
        glXSwapBuffers(dpy, f->spare);
        CHECK(glXMakeContextCurrent(dpy, f->win, f->win, f->ctx));
        pixels_clear(f->rgb);
        glXSwapBuffers(dpy, f->win);
        glFinish();
        CHECK(glXMakeContextCurrent(dpy, None, None, NULL));
    }
    return NULL;
}

/* Waits for a child at most 30 s; its exit status, or -1 when it hung (then killed). */
static int child_status(pid_t pid)
{
    struct timespec pause = { 0, 10 * 1000 * 1000 };
    int status;

    for (int i = 0; i < 3000; i++) {
        pid_t got = waitpid(pid, &status, WNOHANG);

        if (got == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        nanosleep(&pause, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

static int forks(void)
{
    struct forker f[2] = { { .rgb = RED }, { .rgb = BLUE } };
    pthread_t threads[2];
    int id = 0, screen = -1;

    CHECK(XInitThreads());
    setup();
    for (int t = 0; t < 2; t++) {
        f[t].win = pixels_make_window(dpy, vis, t * 100, 0, 64, 64);
        f[t].spare = pixels_make_window(dpy, vis, t * 100, 100, 64, 64);
        f[t].ctx = new_context();
        CHECK(pthread_create(&threads[t], NULL, fork_worker, &f[t]) == 0);
    }
    for (int i = 0; i < 40; i++) {
        pid_t pid = fork();
        int status;

        CHECK(pid >= 0);
        if (pid == 0) {
            /* The child: the vendor's locks (records, configs) must be free. */
            bool ok = glXQueryContext(dpy, f[0].ctx, GLX_SCREEN, &screen) == Success &&
                      glXGetFBConfigAttrib(dpy, config, GLX_FBCONFIG_ID, &id) == Success;

            _exit(ok ? 0 : 3);
        }
        status = child_status(pid);
        CHECK_MSG(status == 0, "fork %d: the child %s (status %d)", i,
                  status < 0 ? "hung (a lock of the vendor was copied while held)"
                             : "could not query the vendor", status);
    }
    __atomic_store_n(&fork_stop, 1, __ATOMIC_RELEASE);
    for (int t = 0; t < 2; t++) {
        CHECK(pthread_join(threads[t], NULL) == 0);
        CHECK_PIXEL(dpy, f[t].win, 8, 8, f[t].rgb);
        glXDestroyContext(dpy, f[t].ctx);
    }
    finish();
    printf("ok: 40 forks while two threads showed frames\n");
    return 0;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc >= 2, "usage: %s recreate | destroyed | readdraw | extensions | fork",
              argv[0]);
    if (strcmp(argv[1], "fork") == 0)
        return forks();

    if (strcmp(argv[1], "extensions") == 0)
        return extensions();
    if (strcmp(argv[1], "recreate") == 0)
        return recreate();
    if (strcmp(argv[1], "destroyed") == 0)
        return destroyed();
    if (strcmp(argv[1], "readdraw") == 0)
        return readdraw();
    CHECK_MSG(0, "unknown mode %s", argv[1]);
    return 1;
}
