/* SPDX-License-Identifier: MIT */
/*
 * glmux_frame_limiter, a GL layer (docs/layers.md) and the example to copy for a layer that
 * intercepts a few functions: it holds a program to GLMUX_FRAME_LIMIT frames a second (a
 * decimal number, e.g. 60 or 59.94) by pacing glXSwapBuffers, eglSwapBuffers and
 * eglSwapBuffersWithDamage{KHR,EXT}. Before each swap it sleeps until that frame's deadline
 * (clock_nanosleep on CLOCK_MONOTONIC with TIMER_ABSTIME: no busy loop, no drift), then calls
 * the swap below it. Deadlines are one period apart; a frame that is late by more than one
 * period starts the schedule again from now instead of rushing to catch up. One schedule serves
 * the whole process (all windows and threads), as libstrangle's does. Without the variable,
 * or with 0, the layer declines every function and costs nothing. Written against
 * include/glmux/glmux_layer.h only; the GLX and EGL types are spelled as the plain C types they
 * are on Linux so that it needs no window-system header.
 */
#define _GNU_SOURCE
#include <glmux/glmux_layer.h>

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The functions we pace, with their Linux ABI types: Display * and EGLDisplay/EGLSurface are
 * pointers, GLXDrawable an XID (unsigned long), EGLBoolean unsigned int, EGLint int32_t. */
typedef void (*PFN_glXSwapBuffers)(void *dpy, unsigned long drawable);
typedef unsigned int (*PFN_eglSwapBuffers)(void *dpy, void *surface);
typedef unsigned int (*PFN_eglSwapBuffersWithDamage)(void *dpy, void *surface,
                                                     const int32_t *rects, int32_t n_rects);

static uint64_t period_ns;                 /* 0: off */
/* The functions below us, stored when glmux asks about them (once per name). */
static _Atomic(void *) next_glx_swap, next_egl_swap, next_egl_damage_khr, next_egl_damage_ext;
/* The deadline of the last frame (CLOCK_MONOTONIC ns; 0: no frame yet). */
static _Atomic uint64_t last_deadline;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The pacing rule, a pure function: the deadline of the next frame given the previous one.
 * The first frame goes at once; the next is one period after the previous deadline, so that
 * sleeping a little too long once does not slow the average; a frame more than a period late
 * starts again from now (a stall is not followed by a burst of unpaced frames).
 */
static uint64_t next_deadline(uint64_t prev, uint64_t now, uint64_t period)
{
    if (prev == 0)
        return now;
    uint64_t d = prev + period;
    return d + period < now ? now : d;
}

/* Sleeps until this frame's deadline. Lock-free, so any thread may swap, and a fork in the
 * middle leaves nothing held. */
static void pace(void)
{
    uint64_t now = now_ns();
    uint64_t prev = atomic_load(&last_deadline), d;
    do {
        d = next_deadline(prev, now, period_ns);
    } while (!atomic_compare_exchange_weak(&last_deadline, &prev, d));
    if (d <= now)
        return;
    struct timespec ts = { .tv_sec = (time_t)(d / 1000000000u),
                           .tv_nsec = (long)(d % 1000000000u) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* Our functions: pace, then call the function below us (never the public symbol, which would
 * re-enter the chain at its top). */
static void glx_swap(void *dpy, unsigned long drawable)
{
    pace();
    ((PFN_glXSwapBuffers)atomic_load(&next_glx_swap))(dpy, drawable);
}

static unsigned int egl_swap(void *dpy, void *surface)
{
    pace();
    return ((PFN_eglSwapBuffers)atomic_load(&next_egl_swap))(dpy, surface);
}

static unsigned int egl_damage_khr(void *dpy, void *surface, const int32_t *rects, int32_t n)
{
    pace();
    return ((PFN_eglSwapBuffersWithDamage)atomic_load(&next_egl_damage_khr))(dpy, surface,
                                                                              rects, n);
}

static unsigned int egl_damage_ext(void *dpy, void *surface, const int32_t *rects, int32_t n)
{
    pace();
    return ((PFN_eglSwapBuffersWithDamage)atomic_load(&next_egl_damage_ext))(dpy, surface,
                                                                              rects, n);
}

/* glmux asks about every GLX and EGL name (our manifest lists "glx" and "egl"); we answer for
 * four and decline the others by returning next. */
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
    if (period_ns == 0 || next == NULL)
        return next;
    for (size_t i = 0; i < sizeof hooks / sizeof *hooks; i++) {
        if ((api & hooks[i].api) && strcmp(name, hooks[i].name) == 0) {
            atomic_store(hooks[i].next, next);
            return hooks[i].ours;
        }
    }
    return next;
}

/* Reads GLMUX_FRAME_LIMIT: frames a second, > 0 and at most 10000; 0 or unset: off. */
static uint64_t read_period(void)
{
    const char *s = secure_getenv("GLMUX_FRAME_LIMIT");
    if (!s || !*s)
        return 0;
    char *end;
    double fps = strtod(s, &end);
    if (*end != '\0' || !(fps >= 0.0 && fps <= 10000.0)) {
        fprintf(stderr, "glmux_frame_limiter: GLMUX_FRAME_LIMIT=%s is not a number of frames "
                "a second (0 to 10000); not limiting\n", s);
        return 0;
    }
    return fps > 0.0 ? (uint64_t)llround(1e9 / fps) : 0;
}

__attribute__((visibility("default"))) int glmux_layer_negotiate(struct glmux_layer_negotiate *n)
{
    /* Speak version 1.x; fill only the members glmux knows (its size). */
    if (n->size < sizeof *n || GLMUX_LAYER_ABI_GET_MAJOR(n->abi_version) != GLMUX_LAYER_ABI_MAJOR)
        return 1;
    n->abi_version = GLMUX_LAYER_ABI_VERSION;
    n->get_proc_address = get_proc_address;
    n->unload = NULL;
    period_ns = read_period();
    return 0;
}
