/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layer tests: the re-entry guard (src/dispatch/layer_guard.h, docs/layers.md). The
 * test layer guard_layer.c calls public GL functions from its hooks; a vendor of this program's
 * own (an in-process dispatch table) calls the public glGetError from its glFlush. Each run
 * writes the layer's manifest into a fresh folder of its own (GLMUX_LAYER_PATH); the ctest
 * ENVIRONMENT gives GLMUX_DEBUG and GLMUX_DEBUG_FILE=LOG. Modes:
 *   report LOG    GLMUX_DEBUG=layer: the guard library beside libGLdispatch (glmux/) is
 *                 mapped (in the test layers_guard_installed: an installed prefix's); the
 *                 layer's public calls are reported once per pair of functions, naming both
 *                 (glGetError from glClear's chain, which no layer intercepts; glFlush from
 *                 glFinish's, which the layer intercepts), the vendor's own public call is
 *                 not, nor the program's calls; every call still reaches the vendor and
 *                 answers right
 *   threads LOG   the same from two threads at once: each pair still reported once
 *   unload LOG    after the last __glDispatchFini and a new make-current (the layer loaded
 *                 again) the guard is on again, and a pair already said is not said again
 *   off LOG       GLMUX_DEBUG without layer: the same calls answer the same, nothing is
 *                 reported and the guard library is not mapped
 *   fork LOG      a child of fork keeps the guard and what was reported: a pair the parent
 *                 reported is not reported again by the child, a new one is, once
 *   missing LOG   GLMUX_DEBUG=layer with a libGLdispatch that has no guard beside it (a copy
 *                 in a folder of its own): the calls answer the same, nothing is reported, and
 *                 the log says once that the guard is off
 *   egl LOG       (built with libEGL, the fake EGL vendors of tests/egl) the layer's
 *                 eglSwapBuffers hook calls the public glGetString: reported as called from
 *                 eglSwapBuffers's chain, and the answer names the display's vendor
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <GL/gl.h>

#include "GLdispatch.h"
#include "glmux_test.h"
#include "layer_test.h"

#ifdef GUARD_TEST_EGL
#include "egl_fake.h"
#endif

#define GUARD_LIBRARY "libglmux-layer-guard.so"
#define REPORT "was called from inside the layer chain of"
#define VENDOR_ERROR 0x0502u

/* ---- the debug log (GLMUX_DEBUG_FILE): what this run added ---- */

static long log_start;

static void log_mark(const char *path)
{
    struct stat st;

    log_start = stat(path, &st) == 0 ? (long)st.st_size : 0;
}

static char *log_since(const char *path)
{
    FILE *f = fopen(path, "re");
    char *text = calloc(1, 1 << 20);
    size_t n = 0;

    CHECK(text != NULL);
    if (f != NULL) {
        if (fseek(f, log_start, SEEK_SET) == 0)
            n = fread(text, 1, (1 << 20) - 1, f);
        fclose(f);
    }
    text[n] = '\0';
    return text;
}

/* How many reports name called and running, and all reports. */
static void expect_reports(const char *log, int total, const char *const *pairs)
{
    char *text = log_since(log);
    char want[256];

    CHECK_MSG(glmux_test_count(text, REPORT) == total, "%d reports, want %d, in:\n%s",
              glmux_test_count(text, REPORT), total, text);
    for (; pairs != NULL && *pairs != NULL; pairs += 2) {
        snprintf(want, sizeof(want), "glmux: %s " REPORT " %s:", pairs[0], pairs[1]);
        CHECK_MSG(glmux_test_count(text, want) == 1, "\"%s\" %d times, want once, in:\n%s",
                  want, glmux_test_count(text, want), text);
    }
    free(text);
}

static void setup_layer(void)
{
    glmux_layer_test_folder("glmux-guard");
    glmux_layer_test_manifest("reenter", "reenter", GUARD_LAYER_DIR "/libglmux_guard_reenter.so",
                              "\"gl\", \"egl\"", "glmux guard test layer");
    glmux_layer_test_switch_on("reenter");
}

static bool guard_mapped(void)
{
    return glmux_layer_test_mapped(GUARD_LIBRARY);
}

/* The guard mapped is the one in glmux/ beside the libGLdispatch loaded (the build tree's, or
 * an installed prefix's: the installed mode). */
static void expect_guard_beside_dispatch(void)
{
    char dispatch[4096], want[4200];
    const char *path = glmux_test_loaded_path("libGLdispatch.so.0");
    char *slash;

    CHECK(path != NULL && strlen(path) < sizeof(dispatch));
    strcpy(dispatch, path);
    slash = strrchr(dispatch, '/');
    CHECK(slash != NULL);
    *slash = '\0';
    snprintf(want, sizeof(want), "%s/glmux/" GUARD_LIBRARY, dispatch);
    path = glmux_test_loaded_path(GUARD_LIBRARY);
    CHECK_MSG(path != NULL && strcmp(path, want) == 0, "the guard mapped is %s, want %s",
              path != NULL ? path : "none", want);
}

/* What the layer's hooks' public calls answered last. */
static void layer_seen(unsigned int *error, const char **vendor)
{
    void (*seen)(unsigned int *, const char **);
    void *h = dlopen(GUARD_LAYER_DIR "/libglmux_guard_reenter.so", RTLD_NOW | RTLD_NOLOAD);

    CHECK_MSG(h != NULL, "the test layer is not loaded");
    *(void **)&seen = dlsym(h, "guard_layer_seen");
    CHECK(seen != NULL);
    seen(error, vendor);
    dlclose(h);
}

#ifndef GUARD_TEST_EGL

/* ---- a vendor of the program's own ---- */

static int clears, errors, flushes, finishes;       /* atomic */
static GLenum vendor_flush_saw;                      /* what its public glGetError answered */

static void vendor_clear(GLbitfield mask)
{
    (void)mask;
    __atomic_add_fetch(&clears, 1, __ATOMIC_RELAXED);
}

static GLenum vendor_get_error(void)
{
    __atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
    return VENDOR_ERROR;
}

static void vendor_flush(void)
{
    __atomic_add_fetch(&flushes, 1, __ATOMIC_RELAXED);
    /* A vendor may call public GL functions itself: not a layer's doing, not reported. */
    __atomic_store_n(&vendor_flush_saw, glGetError(), __ATOMIC_RELAXED);
}

static void vendor_finish(void)
{
    __atomic_add_fetch(&finishes, 1, __ATOMIC_RELAXED);
}

static void *vendor_proc(const char *name, void *param)
{
    (void)param;
    if (strcmp(name, "glClear") == 0)
        return (void *)(uintptr_t)vendor_clear;
    if (strcmp(name, "glGetError") == 0)
        return (void *)(uintptr_t)vendor_get_error;
    if (strcmp(name, "glFlush") == 0)
        return (void *)(uintptr_t)vendor_flush;
    if (strcmp(name, "glFinish") == 0)
        return (void *)(uintptr_t)vendor_finish;
    return NULL;
}

static __GLdispatchTable *vendor_table;
static int vendor_id;

static void vendor_init(void)
{
    vendor_id = __glDispatchNewVendorID();
    vendor_table = __glDispatchCreateTable(vendor_proc, NULL);
    CHECK(vendor_table != NULL);
}

static void make_current(__GLdispatchThreadState *state)
{
    memset(state, 0, sizeof(*state));
    state->tag = GLDISPATCH_API_EGL;
    CHECK(__glDispatchMakeCurrent(state, vendor_table, vendor_id, NULL));
}

static int load(int *v)
{
    return __atomic_load_n(v, __ATOMIC_RELAXED);
}

/* The calls the checks count on: n of each, with the right answers throughout. */
static void calls(int n)
{
    unsigned int seen_error;
    const char *seen_vendor;

    for (int i = 0; i < n; i++) {
        glClear(GL_COLOR_BUFFER_BIT);   /* the layer: public glGetError; then the vendor */
        glFinish();                     /* the layer: public glFlush (the vendor's: glGetError) */
        glFlush();                      /* the layer passes it on; the vendor: glGetError */
        CHECK(glGetError() == VENDOR_ERROR);
    }
    layer_seen(&seen_error, &seen_vendor);
    CHECK_MSG(seen_error == VENDOR_ERROR, "the layer's public glGetError answered 0x%x",
              seen_error);
    CHECK(__atomic_load_n(&vendor_flush_saw, __ATOMIC_RELAXED) == VENDOR_ERROR);
}

static void start(void)
{
    static __GLdispatchThreadState state;

    setup_layer();
    glmux_test_require_ours("libGLdispatch.so.0");
    vendor_init();
    make_current(&state);
}

static void expect_counts(int n)
{
    /* Per round: glClear 1; glFinish 1; glFlush 2 (the layer's and the program's); glGetError
     * 1 (the layer's from glClear) + 2 (the vendor's, from each glFlush) + 1 (the program's). */
    CHECK_MSG(load(&clears) == n && load(&finishes) == n && load(&flushes) == 2 * n &&
              load(&errors) == 4 * n, "vendor calls: %d clear, %d finish, %d flush, %d "
              "glGetError; want %d, %d, %d, %d", load(&clears), load(&finishes), load(&flushes),
              load(&errors), n, n, 2 * n, 4 * n);
}

static const char *const layer_pairs[] = {
    "glGetError", "glClear", "glFlush", "glFinish", NULL,
};

static int mode_report(const char *log)
{
    log_mark(log);
    start();
    CHECK_MSG(guard_mapped(), "GLMUX_DEBUG=layer: the guard library is not mapped");
    expect_guard_beside_dispatch();
    calls(3);
    expect_counts(3);
    expect_reports(log, 2, layer_pairs);
    __glDispatchLoseCurrent();
    return 0;
}

#define THREAD_ROUNDS 300

static void *thread_main(void *arg)
{
    __GLdispatchThreadState state;

    (void)arg;
    make_current(&state);
    calls(THREAD_ROUNDS);
    __glDispatchLoseCurrent();
    return NULL;
}

static int mode_threads(const char *log)
{
    pthread_t t[2];

    log_mark(log);
    setup_layer();
    vendor_init();
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&t[i], NULL, thread_main, NULL) == 0);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
    expect_counts(2 * THREAD_ROUNDS);
    expect_reports(log, 2, layer_pairs);
    CHECK(guard_mapped());
    return 0;
}

static int mode_unload(const char *log)
{
    static __GLdispatchThreadState state;

    log_mark(log);
    start();
    calls(1);
    __glDispatchLoseCurrent();
    /* libOpenGL's constructor made the one __glDispatchInit: this is the last Fini. */
    __glDispatchFini();
    CHECK(!glmux_layer_test_mapped("libglmux_guard_reenter.so"));
    CHECK(guard_mapped());              /* kept mapped: a thread may still be inside it */
    __glDispatchInit();                 /* for libOpenGL's own Fini at exit */
    make_current(&state);               /* loads the layer again, the guard with it */
    CHECK(glmux_layer_test_mapped("libglmux_guard_reenter.so"));
    calls(2);
    expect_counts(3);
    expect_reports(log, 2, layer_pairs);
    __glDispatchLoseCurrent();
    return 0;
}

static int mode_off(const char *log)
{
    log_mark(log);
    start();
    calls(3);
    expect_counts(3);
    expect_reports(log, 0, NULL);
    CHECK_MSG(!guard_mapped(), "the guard library is mapped without GLMUX_DEBUG=layer");
    __glDispatchLoseCurrent();
    return 0;
}

static int mode_fork(const char *log)
{
    pid_t pid;
    int status;

    log_mark(log);
    start();
    glClear(0);                         /* reported: glGetError from glClear's chain */
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        static __GLdispatchThreadState state;

        /* The child starts without a context (as in libglvnd), with the chain and guard. */
        make_current(&state);
        calls(2);                       /* glGetError/glClear again, glFlush/glFinish new */
        CHECK(guard_mapped());
        __glDispatchLoseCurrent();
        _exit(0);
    }
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    expect_reports(log, 2, layer_pairs);
    __glDispatchLoseCurrent();
    return 0;
}

static int mode_missing(const char *log)
{
    char *text;

    log_mark(log);
    start();
    calls(3);
    calls(1);       /* the layers are not loaded again: the guard is looked for once */
    expect_counts(4);
    expect_reports(log, 0, NULL);
    CHECK(!guard_mapped());
    text = log_since(log);
    CHECK_MSG(glmux_test_count(text, "the layer re-entry guard is off: ") == 1 &&
              strstr(text, "glmux/" GUARD_LIBRARY) != NULL, "in:\n%s", text);
    free(text);
    __glDispatchLoseCurrent();
    return 0;
}

#else /* GUARD_TEST_EGL */

static int mode_egl(const char *log)
{
    EGLDisplay dpy;
    EGLConfig config;
    EGLContext ctx;
    EGLint n = 0;
    unsigned int error;
    const char *vendor = NULL;
    static const char *const pairs[] = { "glGetString", "eglSwapBuffers", NULL };

    log_mark(log);
    setup_layer();
    dpy = eglGetPlatformDisplay(FAKE_PLATFORM, (void *)"fake1", NULL);
    CHECK(dpy != EGL_NO_DISPLAY && eglInitialize(dpy, NULL, NULL));
    CHECK(eglChooseConfig(dpy, NULL, &config, 1, &n) && n == 1);
    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL);
    CHECK(ctx != EGL_NO_CONTEXT);
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
    for (int i = 0; i < 3; i++)
        CHECK(eglSwapBuffers(dpy, EGL_NO_SURFACE));
    layer_seen(&error, &vendor);
    CHECK_MSG(vendor != NULL && strcmp(vendor, "fake1") == 0, "the hook's glGetString: %s",
              vendor != NULL ? vendor : "(null)");
    /* The program's own calls are not reported. */
    CHECK(strcmp((const char *)glGetString(GL_VENDOR), "fake1") == 0);
    expect_reports(log, 1, pairs);
    glmux_test_require_ours("libEGL.so.1");
    CHECK(guard_mapped());
    expect_guard_beside_dispatch();
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglDestroyContext(dpy, ctx));
    CHECK(eglTerminate(dpy));
    CHECK(eglReleaseThread());
    return 0;
}

#endif

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    if (argc < 3) {
        fprintf(stderr, "usage: %s report|threads|unload|off|fork|missing|egl LOG\n", argv[0]);
        return 2;
    }
#ifndef GUARD_TEST_EGL
    if (strcmp(mode, "report") == 0)
        return mode_report(argv[2]);
    if (strcmp(mode, "threads") == 0)
        return mode_threads(argv[2]);
    if (strcmp(mode, "unload") == 0)
        return mode_unload(argv[2]);
    if (strcmp(mode, "off") == 0)
        return mode_off(argv[2]);
    if (strcmp(mode, "fork") == 0)
        return mode_fork(argv[2]);
    if (strcmp(mode, "missing") == 0)
        return mode_missing(argv[2]);
#else
    if (strcmp(mode, "egl") == 0)
        return mode_egl(argv[2]);
#endif
    fprintf(stderr, "%s: unknown mode %s\n", argv[0], mode);
    return 2;
}
