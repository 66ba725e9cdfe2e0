/* SPDX-License-Identifier: MIT */
/*
 * glmux_frame_time, a GL layer (docs/layers.md): writes one line per frame to the file
 * GLMUX_FRAMETIME_LOG names (created or truncated when the layer loads), the log MangoHud's
 * users keep for frame-time graphs. A frame ends at each glXSwapBuffers, eglSwapBuffers or
 * eglSwapBuffersWithDamage{KHR,EXT} call; the file is CSV with one header line:
 *
 *     frame,elapsed_ms,frametime_ms
 *     1,412.518,412.518
 *     2,429.190,16.672
 *
 * frame counts from 1; elapsed_ms is the time from the layer's load to the swap call;
 * frametime_ms the time since the previous swap call (the first frame's: since the load).
 * Times are taken when the program calls the swap, before the function below us runs. Each line
 * is one write(2), so lines of several threads never mix; a child of fork() stops logging (its
 * frames are not the parent's). Without the variable the layer declines every function.
 * Written against include/glmux/glmux_layer.h only.
 */
#define _GNU_SOURCE
#include <glmux/glmux_layer.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef void (*PFN_glXSwapBuffers)(void *dpy, unsigned long drawable);
typedef unsigned int (*PFN_eglSwapBuffers)(void *dpy, void *surface);
typedef unsigned int (*PFN_eglSwapBuffersWithDamage)(void *dpy, void *surface,
                                                     const int32_t *rects, int32_t n_rects);

static int log_fd = -1;
static uint64_t start_ns;
static _Atomic uint64_t frames;
static _Atomic uint64_t last_ns;
static atomic_bool forked;
static _Atomic(void *) next_glx_swap, next_egl_swap, next_egl_damage_khr, next_egl_damage_ext;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One frame's line. Frame numbers and intervals are taken atomically, so two threads that
 * swap at once each get a number and an interval of their own. */
static void frame(void)
{
    if (log_fd < 0 || atomic_load_explicit(&forked, memory_order_relaxed))
        return;
    uint64_t now = now_ns();
    uint64_t prev = atomic_exchange(&last_ns, now);
    uint64_t number = atomic_fetch_add(&frames, 1) + 1;
    uint64_t elapsed = now - start_ns, interval = now > prev ? now - prev : 0;
    char line[96];
    int len = snprintf(line, sizeof line, "%llu,%llu.%03llu,%llu.%03llu\n",
                       (unsigned long long)number,
                       (unsigned long long)(elapsed / 1000000u),
                       (unsigned long long)(elapsed / 1000u % 1000u),
                       (unsigned long long)(interval / 1000000u),
                       (unsigned long long)(interval / 1000u % 1000u));
    if (len > 0 && write(log_fd, line, (size_t)len) < 0) {
        /* A full disk or a closed pipe: stop quietly rather than fail the program's frame. */
    }
}

static void glx_swap(void *dpy, unsigned long drawable)
{
    frame();
    ((PFN_glXSwapBuffers)atomic_load(&next_glx_swap))(dpy, drawable);
}

static unsigned int egl_swap(void *dpy, void *surface)
{
    frame();
    return ((PFN_eglSwapBuffers)atomic_load(&next_egl_swap))(dpy, surface);
}

static unsigned int egl_damage_khr(void *dpy, void *surface, const int32_t *rects, int32_t n)
{
    frame();
    return ((PFN_eglSwapBuffersWithDamage)atomic_load(&next_egl_damage_khr))(dpy, surface,
                                                                              rects, n);
}

static unsigned int egl_damage_ext(void *dpy, void *surface, const int32_t *rects, int32_t n)
{
    frame();
    return ((PFN_eglSwapBuffersWithDamage)atomic_load(&next_egl_damage_ext))(dpy, surface,
                                                                              rects, n);
}

static void *get_proc_address(const char *name, uint32_t api, void *next)
{
    static const struct {
        uint32_t api;
        const char *name;
        _Atomic(void *) *next;
        void *ours;
    } hooks[] = {
        { GLMUX_LAYER_API_GLX, "glXSwapBuffers", &next_glx_swap, (void *)glx_swap },
        { GLMUX_LAYER_API_EGL, "eglSwapBuffers", &next_egl_swap, (void *)egl_swap },
        { GLMUX_LAYER_API_EGL, "eglSwapBuffersWithDamageKHR", &next_egl_damage_khr,
          (void *)egl_damage_khr },
        { GLMUX_LAYER_API_EGL, "eglSwapBuffersWithDamageEXT", &next_egl_damage_ext,
          (void *)egl_damage_ext },
    };
    if (log_fd < 0 || next == NULL)
        return next;
    for (size_t i = 0; i < sizeof hooks / sizeof *hooks; i++) {
        if ((api & hooks[i].api) && strcmp(name, hooks[i].name) == 0) {
            atomic_store(hooks[i].next, next);
            return hooks[i].ours;
        }
    }
    return next;
}

static void after_fork_child(void)
{
    atomic_store(&forked, true);
}

/* glmux calls this before it dlcloses the layer; no swap follows. */
static void unload(void)
{
    if (log_fd >= 0)
        close(log_fd);
    log_fd = -1;
}

__attribute__((visibility("default"))) int glmux_layer_negotiate(struct glmux_layer_negotiate *n)
{
    if (n->size < sizeof *n || GLMUX_LAYER_ABI_GET_MAJOR(n->abi_version) != GLMUX_LAYER_ABI_MAJOR)
        return 1;
    n->abi_version = GLMUX_LAYER_ABI_VERSION;
    n->get_proc_address = get_proc_address;
    n->unload = unload;
    /* secure_getenv: a setuid program never writes where its caller's environment says. */
    const char *path = secure_getenv("GLMUX_FRAMETIME_LOG");
    if (!path || !*path || log_fd >= 0)
        return 0;
    log_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (log_fd < 0) {
        fprintf(stderr, "glmux_frame_time: cannot write GLMUX_FRAMETIME_LOG=%s: %m; not "
                "logging\n", path);
        return 0;
    }
    static const char header[] = "frame,elapsed_ms,frametime_ms\n";
    if (write(log_fd, header, sizeof header - 1) < 0) {
        close(log_fd);
        log_fd = -1;
        return 0;
    }
    start_ns = now_ns();
    atomic_store(&last_ns, start_ns);
    static atomic_flag registered = ATOMIC_FLAG_INIT;
    if (!atomic_flag_test_and_set(&registered))
        pthread_atfork(NULL, NULL, after_fork_child);
    return 0;
}
