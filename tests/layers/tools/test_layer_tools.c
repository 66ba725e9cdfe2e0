/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: glmux's own layers (src/layers/tools) driven through their entries with no chain:
 * the test stands in for glmux, loads each layer library, negotiates (or initializes an
 * Android-ABI layer), asks for names with fake `next` functions and calls what it gets.
 * Checks the frame limiter's pacing (the deadlines one period apart, asleep rather than
 * spinning, off without its variable), the frame-time log's lines, the call counter's counts,
 * arguments and return values (floats among them) and its report, and the Android-ABI layer's
 * hooks and report. Usage: test_layer_tools MODE LIBRARY (MODE: limiter, frametime, counter,
 * android; threads COUNTER LIMITER: both from four threads at once); each mode is a ctest of
 * its own.
 */
#define _GNU_SOURCE
#include <glmux/glmux_layer.h>

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "glmux_test.h"

static int fake_swaps, fake_clears;
static atomic_int fake_calls;
static float fake_color[4];
static unsigned long fake_drawable;

static void fake_glx_swap(void *dpy, unsigned long drawable)
{
    (void)dpy;
    fake_drawable = drawable;
    fake_swaps++;
}

static unsigned int fake_egl_swap(void *dpy, void *surface)
{
    (void)dpy;
    (void)surface;
    fake_swaps++;
    return 1;
}

static void fake_clear(unsigned int mask)
{
    CHECK(mask == 0x4000);
    fake_clears++;
}

static void fake_clear_color(float r, float g, float b, float a)
{
    fake_color[0] = r, fake_color[1] = g, fake_color[2] = b, fake_color[3] = a;
}

static unsigned int fake_get_error(void)
{
    return 0x0502;
}

static void *fake_get_next(void *layer_id, const char *name)
{
    CHECK(layer_id == (void *)&fake_get_next);
    if (strcmp(name, "glGetError") == 0)
        return (void *)fake_get_error;
    return NULL;
}

static double now_s(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    CHECK_MSG(f, "cannot read %s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Loads a glmux-entry layer and negotiates as glmux does. */
static struct glmux_layer_negotiate load(const char *lib, uint32_t apis)
{
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(h, "%s", dlerror());
    PFN_glmux_layer_negotiate negotiate =
        (PFN_glmux_layer_negotiate)dlsym(h, "glmux_layer_negotiate");
    CHECK(negotiate);
    CHECK(dlsym(h, "AndroidGLESLayer_Initialize") == NULL);
    struct glmux_layer_negotiate n = {
        .size = sizeof n, .abi_version = GLMUX_LAYER_ABI_VERSION, .layer_name = "test",
        .layer_id = (void *)&fake_get_next, .get_next = fake_get_next, .apis = apis,
    };
    CHECK(negotiate(&n) == 0);
    CHECK(n.abi_version == GLMUX_LAYER_ABI_VERSION);
    CHECK(n.get_proc_address);
    /* A glmux of another major version is declined. */
    struct glmux_layer_negotiate other = n;
    other.abi_version = (GLMUX_LAYER_ABI_MAJOR + 1) << 16;
    CHECK(negotiate(&other) != 0);
    return n;
}

static void test_limiter(const char *lib)
{
    const int fps = 200, frames = 21;
    setenv("GLMUX_FRAME_LIMIT", "200", 1);
    struct glmux_layer_negotiate n = load(lib, GLMUX_LAYER_API_GLX | GLMUX_LAYER_API_EGL);
    /* Declines what it does not pace, and a name of another API. */
    CHECK(n.get_proc_address("glXMakeCurrent", GLMUX_LAYER_API_GLX, (void *)fake_glx_swap) ==
          (void *)fake_glx_swap);
    CHECK(n.get_proc_address("glXSwapBuffers", GLMUX_LAYER_API_EGL, (void *)fake_glx_swap) ==
          (void *)fake_glx_swap);
    void (*glx_swap)(void *, unsigned long) = (void (*)(void *, unsigned long))
        n.get_proc_address("glXSwapBuffers", GLMUX_LAYER_API_GLX, (void *)fake_glx_swap);
    unsigned int (*egl_swap)(void *, void *) = (unsigned int (*)(void *, void *))
        n.get_proc_address("eglSwapBuffers", GLMUX_LAYER_API_EGL, (void *)fake_egl_swap);
    CHECK(glx_swap != fake_glx_swap && egl_swap != fake_egl_swap);
    double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < frames; i++) {
        if (i % 2)
            CHECK(egl_swap(NULL, NULL) == 1);
        else
            glx_swap(NULL, 42);
    }
    double wall = now_s(CLOCK_MONOTONIC) - t0, cpu = now_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    CHECK(fake_swaps == frames && fake_drawable == 42);
    /* 21 frames at 200 a second: the first at once, then 20 periods of 5 ms. Deadlines are
     * absolute, so never shorter; a loaded machine may make it longer. */
    double want = (frames - 1) / (double)fps;
    printf("limiter: %d frames in %.1f ms (want %.1f), %.1f ms of CPU\n", frames, wall * 1e3,
           want * 1e3, cpu * 1e3);
    CHECK_MSG(wall >= want - 0.0005, "%.4f s < %.4f s", wall, want);
    CHECK_MSG(wall < want * 4, "%.4f s: far slower than %d frames a second", wall, fps);
    CHECK_MSG(cpu < wall / 4, "%.4f s of CPU in %.4f s: a busy loop?", cpu, wall);
    /* A stall longer than a period: the next frame goes at once, not in a burst after. */
    usleep(30000);
    t0 = now_s(CLOCK_MONOTONIC);
    glx_swap(NULL, 1);
    CHECK(now_s(CLOCK_MONOTONIC) - t0 < 0.004);
    t0 = now_s(CLOCK_MONOTONIC);
    glx_swap(NULL, 1);
    glx_swap(NULL, 1);
    CHECK_MSG(now_s(CLOCK_MONOTONIC) - t0 >= 2.0 / fps - 0.0005, "burst after a stall");
}

static void test_limiter_off(const char *lib, const char *value)
{
    if (value)
        setenv("GLMUX_FRAME_LIMIT", value, 1);
    else
        unsetenv("GLMUX_FRAME_LIMIT");
    struct glmux_layer_negotiate n = load(lib, GLMUX_LAYER_API_GLX | GLMUX_LAYER_API_EGL);
    CHECK(n.get_proc_address("glXSwapBuffers", GLMUX_LAYER_API_GLX, (void *)fake_glx_swap) ==
          (void *)fake_glx_swap);
    CHECK(n.get_proc_address("eglSwapBuffers", GLMUX_LAYER_API_EGL, (void *)fake_egl_swap) ==
          (void *)fake_egl_swap);
}

static void test_frametime(const char *lib)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/glmux-frametime-%d.csv", glmux_test_tmpdir(), getpid());
    setenv("GLMUX_FRAMETIME_LOG", path, 1);
    struct glmux_layer_negotiate n = load(lib, GLMUX_LAYER_API_GLX | GLMUX_LAYER_API_EGL);
    CHECK(n.unload);
    void (*glx_swap)(void *, unsigned long) = (void (*)(void *, unsigned long))
        n.get_proc_address("glXSwapBuffers", GLMUX_LAYER_API_GLX, (void *)fake_glx_swap);
    unsigned int (*egl_swap)(void *, void *) = (unsigned int (*)(void *, void *))
        n.get_proc_address("eglSwapBuffers", GLMUX_LAYER_API_EGL, (void *)fake_egl_swap);
    CHECK(n.get_proc_address("glXGetProcAddress", GLMUX_LAYER_API_GLX, (void *)fake_clear) ==
          (void *)fake_clear);
    const int frames = 5;
    for (int i = 0; i < frames; i++) {
        usleep(10000);
        if (i % 2)
            CHECK(egl_swap(NULL, NULL) == 1);
        else
            glx_swap(NULL, 7);
    }
    CHECK(fake_swaps == frames);
    n.unload();
    char *text = slurp(path);
    printf("%s", text);
    unlink(path);
    char *line = strtok(text, "\n");
    CHECK(line && strcmp(line, "frame,elapsed_ms,frametime_ms") == 0);
    double sum = 0, last_elapsed = 0;
    int count = 0;
    while ((line = strtok(NULL, "\n"))) {
        unsigned frame;
        double elapsed, ft;
        CHECK_MSG(sscanf(line, "%u,%lf,%lf", &frame, &elapsed, &ft) == 3, "line '%s'", line);
        CHECK(frame == (unsigned)++count);
        CHECK(elapsed >= last_elapsed && ft >= 9.5 && ft < 1000);
        sum += ft;
        last_elapsed = elapsed;
    }
    CHECK_MSG(count == frames, "%d lines for %d frames", count, frames);
    /* The frame times add up to the time since the load. */
    CHECK(fabs(sum - last_elapsed) < 0.01);
}

static void test_counter(const char *lib)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/glmux-calls-%d.txt", glmux_test_tmpdir(), getpid());
    unlink(path);
    setenv("GLMUX_CALL_COUNT_FILE", path, 1);
    struct glmux_layer_negotiate n =
        load(lib, GLMUX_LAYER_API_GL | GLMUX_LAYER_API_GLX | GLMUX_LAYER_API_EGL);
    void (*clear)(unsigned int) = (void (*)(unsigned int))
        n.get_proc_address("glClear", GLMUX_LAYER_API_GL, (void *)fake_clear);
    void (*clear_color)(float, float, float, float) = (void (*)(float, float, float, float))
        n.get_proc_address("glClearColor", GLMUX_LAYER_API_GL, (void *)fake_clear_color);
    unsigned int (*get_error)(void) = (unsigned int (*)(void))
        n.get_proc_address("glGetError", GLMUX_LAYER_API_GL, (void *)fake_get_error);
    void (*glx_swap)(void *, unsigned long) = (void (*)(void *, unsigned long))
        n.get_proc_address("glXSwapBuffers", GLMUX_LAYER_API_GLX, (void *)fake_glx_swap);
    unsigned int (*egl_swap)(void *, void *) = (unsigned int (*)(void *, void *))
        n.get_proc_address("eglSwapBuffers", GLMUX_LAYER_API_EGL, (void *)fake_egl_swap);
    CHECK(clear != fake_clear && clear_color != fake_clear_color && get_error != fake_get_error);
    CHECK(glx_swap != fake_glx_swap && egl_swap != fake_egl_swap);
    /* Names with no prototype in the registry are declined. */
    CHECK(n.get_proc_address("glMadeUpVendorFunctionXYZ", GLMUX_LAYER_API_GL,
                             (void *)fake_clear) == (void *)fake_clear);
    CHECK(n.get_proc_address("eglMadeUpXYZ", GLMUX_LAYER_API_EGL, (void *)fake_clear) ==
          (void *)fake_clear);
    /* Asked again (glmux may ask twice): the same answer. */
    CHECK(n.get_proc_address("glClear", GLMUX_LAYER_API_GL, (void *)fake_clear) == (void *)clear);
    for (int i = 0; i < 3; i++)
        clear(0x4000);
    clear_color(0.25f, 0.5f, 0.75f, 1.0f);
    CHECK(get_error() == 0x0502);
    for (int i = 0; i < 7; i++)
        glx_swap(NULL, 9);
    CHECK(egl_swap(NULL, NULL) == 1);
    CHECK(fake_clears == 3 && fake_swaps == 8 && fake_drawable == 9);
    CHECK(fake_color[0] == 0.25f && fake_color[1] == 0.5f && fake_color[2] == 0.75f &&
          fake_color[3] == 1.0f);
    n.unload();
    n.unload();   /* once only */
    char *text = slurp(path);
    printf("%s", text);
    unlink(path);
    CHECK(strncmp(text, "# glmux_call_counter: pid ", 26) == 0);
    CHECK(strstr(text, "13 calls of 5 functions; 2 names asked about were not counted"));
    CHECK(strstr(text, "\n7 glXSwapBuffers\n3 glClear\n1 eglSwapBuffers\n1 glClearColor\n"
                       "1 glGetError\n"));
    CHECK(strchr(text, '\0')[-1] == '\n');
}

static void test_android(const char *lib)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/glmux-android-%d.txt", glmux_test_tmpdir(), getpid());
    unlink(path);
    setenv("GLMUX_ANDROID_COUNTER_FILE", path, 1);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(h, "%s", dlerror());
    CHECK(dlsym(h, "glmux_layer_negotiate") == NULL);
    typedef void *(*init_fn)(void *, PFNEGLGETNEXTLAYERPROCADDRESSPROC);
    init_fn init = (init_fn)dlsym(h, "AndroidGLESLayer_Initialize");
    void *(*gpa)(const char *, EGLFuncPointer) =
        (void *(*)(const char *, EGLFuncPointer))dlsym(h, "AndroidGLESLayer_GetProcAddress");
    CHECK(init && gpa);
    init((void *)&fake_get_next, fake_get_next);
    void (*clear)(unsigned int) =
        (void (*)(unsigned int))gpa("glClear", (EGLFuncPointer)fake_clear);
    unsigned int (*egl_swap)(void *, void *) =
        (unsigned int (*)(void *, void *))gpa("eglSwapBuffers", (EGLFuncPointer)fake_egl_swap);
    CHECK((void *)clear != (void *)fake_clear && (void *)egl_swap != (void *)fake_egl_swap);
    CHECK(gpa("glDrawArrays", (EGLFuncPointer)fake_clear) == (void *)fake_clear);
    clear(0x4000);
    clear(0x4000);
    CHECK(egl_swap(NULL, NULL) == 1);
    CHECK(fake_clears == 2 && fake_swaps == 1);
    CHECK(dlclose(h) == 0);   /* its destructor writes the report */
    char *text = slurp(path);
    printf("%s", text);
    unlink(path);
    CHECK(strcmp(text, "glClear 2\neglSwapBuffers 1\nget_next found glGetError\n") == 0);
}

/* Several threads through one layer at once: the counter's counts are exact, and the frame
 * limiter gives every thread's frames their own deadlines (ThreadSanitizer runs this too). */
static void fake_thread_swap(void *dpy, unsigned long drawable)
{
    (void)dpy;
    (void)drawable;
    atomic_fetch_add(&fake_calls, 1);
}

static void fake_thread_clear(unsigned int mask)
{
    (void)mask;
    atomic_fetch_add(&fake_calls, 1);
}

enum { THREADS = 4, PER_THREAD = 500, PACED = 5 };
static void (*thread_swap)(void *, unsigned long);
static void (*thread_clear)(unsigned int);

static void *counter_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < PER_THREAD; i++) {
        thread_clear(0x4000);
        thread_swap(NULL, 1);
    }
    return NULL;
}

static void *limiter_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < PACED; i++)
        thread_swap(NULL, 1);
    return NULL;
}

static void run_threads(void *(*fn)(void *))
{
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, fn, NULL) == 0);
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
}

static void test_threads(const char *counter, const char *limiter)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/glmux-calls-threads-%d.txt", glmux_test_tmpdir(), getpid());
    unlink(path);
    setenv("GLMUX_CALL_COUNT_FILE", path, 1);
    struct glmux_layer_negotiate n = load(counter, GLMUX_LAYER_API_GL | GLMUX_LAYER_API_GLX);
    thread_swap = (void (*)(void *, unsigned long))
        n.get_proc_address("glXSwapBuffers", GLMUX_LAYER_API_GLX, (void *)fake_thread_swap);
    thread_clear = (void (*)(unsigned int))
        n.get_proc_address("glClear", GLMUX_LAYER_API_GL, (void *)fake_thread_clear);
    run_threads(counter_thread);
    CHECK(atomic_load(&fake_calls) == 2 * THREADS * PER_THREAD);
    n.unload();
    char *text = slurp(path);
    unlink(path);
    char want[64];
    snprintf(want, sizeof want, "\n%d glClear\n", THREADS * PER_THREAD);
    CHECK_MSG(strstr(text, want), "%s", text);
    snprintf(want, sizeof want, "\n%d glXSwapBuffers\n", THREADS * PER_THREAD);
    CHECK_MSG(strstr(text, want), "%s", text);

    /* 20 frames from 4 threads at 500 a second: at least 19 periods of 2 ms in all. */
    setenv("GLMUX_FRAME_LIMIT", "500", 1);
    n = load(limiter, GLMUX_LAYER_API_GLX);
    atomic_store(&fake_calls, 0);
    thread_swap = (void (*)(void *, unsigned long))
        n.get_proc_address("glXSwapBuffers", GLMUX_LAYER_API_GLX, (void *)fake_thread_swap);
    double t0 = now_s(CLOCK_MONOTONIC);
    run_threads(limiter_thread);
    double wall = now_s(CLOCK_MONOTONIC) - t0;
    printf("limiter: %d frames from %d threads in %.1f ms\n", THREADS * PACED, THREADS,
           wall * 1e3);
    CHECK(atomic_load(&fake_calls) == THREADS * PACED);
    CHECK_MSG(wall >= (THREADS * PACED - 1) * 0.002 - 0.0005, "%.4f s", wall);
}

int main(int argc, char **argv)
{
    CHECK(argc == 3 || argc == 4);
    const char *mode = argv[1], *lib = argv[2];
    if (strcmp(mode, "threads") == 0) {
        CHECK(argc == 4);
        test_threads(lib, argv[3]);
    } else if (strcmp(mode, "limiter") == 0) {
        test_limiter(lib);
    } else if (strcmp(mode, "limiter-off") == 0) {
        test_limiter_off(lib, NULL);
        test_limiter_off(lib, "0");
        test_limiter_off(lib, "sixty");   /* says so on stderr, and does not limit */
    } else if (strcmp(mode, "frametime") == 0) {
        test_frametime(lib);
    } else if (strcmp(mode, "counter") == 0) {
        test_counter(lib);
    } else if (strcmp(mode, "android") == 0) {
        test_android(lib);
    } else {
        CHECK_MSG(0, "unknown mode %s", mode);
    }
    printf("ok: %s\n", mode);
    return 0;
}
