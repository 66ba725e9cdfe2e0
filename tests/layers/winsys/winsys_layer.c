/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layer tests for libEGL and libGLX: one test layer, built several times
 * (CMakeLists.txt). LAYER_NAME names it in the trace the test program keeps
 * (layer_hooks.h).
 *
 * LAYER_SINK=1: every egl and glX name it is asked about gets a hook of its own that writes
 * the name to the trace and returns 0 without calling below, so that a test can call every
 * export with no vendor at all; GL names are declined. winsys_layer_next(name) gives the test
 * what lies below the layer for a name it intercepted (the `next` it was given).
 * Otherwise it passes calls through: for the few functions of pass_hooks below it writes
 * "LAYER_NAME:function" and calls what lies below, so that a test sees the order of the layers
 * and that the vendor of the display, screen or context still answers. LAYER_REENTER=1 breaks
 * the layer rule on purpose: its eglGetCurrentContext and glXGetCurrentDisplay hooks also call
 * the public eglQueryAPI and glXGetCurrentContext, which glmux reports at debug level.
 * glXAllocateMemoryNV (a GL function with a glX name, test_winsys_layers.c's glx_glname) gets
 * one hook per api it is asked with, each with its own next, so that a test sees how often a
 * call passes the layer.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "layer_hooks.h"

#ifndef LAYER_SINK
#define LAYER_SINK 0
#endif
#ifndef LAYER_REENTER
#define LAYER_REENTER 0
#endif

/* LAYER_REENTER: calls the public function name (no arguments), as a layer must not. */
__attribute__((unused)) static void call_public(const char *name)
{
    void (*fn)(void);

    *(void **)&fn = dlsym(RTLD_DEFAULT, name);
    if (fn != NULL)
        fn();
}

#if LAYER_SINK
/* ---- one hook per name, handed out in the order the names are asked about ---- */

#define SINKS 400
static pthread_mutex_t sink_lock = PTHREAD_MUTEX_INITIALIZER;
static char *sink_names[SINKS];
static void *sink_next[SINKS];
static int sink_count;

/* Called with whatever arguments the function has; it looks at none of them. */
static long sink_hit(int i)
{
    trace(sink_names[i]);
    return 0;
}

#define SINK(n) static long sink_##n(void) { return sink_hit(n - 1000); }
#define SINK10(n) SINK(n##0) SINK(n##1) SINK(n##2) SINK(n##3) SINK(n##4) \
                  SINK(n##5) SINK(n##6) SINK(n##7) SINK(n##8) SINK(n##9)
#define SINK100(n) SINK10(n##0) SINK10(n##1) SINK10(n##2) SINK10(n##3) SINK10(n##4) \
                   SINK10(n##5) SINK10(n##6) SINK10(n##7) SINK10(n##8) SINK10(n##9)
SINK100(10) SINK100(11) SINK100(12) SINK100(13)
#undef SINK
#define SINK(n) sink_##n,
static long (*const sinks[SINKS])(void) = { SINK100(10) SINK100(11) SINK100(12) SINK100(13) };

static void *answer(const char *name, void *next)
{
    void *hook = next;

    if (strncmp(name, "egl", 3) != 0 && strncmp(name, "glX", 3) != 0)
        return next;
    pthread_mutex_lock(&sink_lock);
    for (int i = 0; i < sink_count; i++) {
        if (strcmp(sink_names[i], name) == 0) {
            hook = (void *)(uintptr_t)sinks[i];
            goto out;
        }
    }
    if (sink_count < SINKS && (sink_names[sink_count] = strdup(name)) != NULL) {
        sink_next[sink_count] = next;
        hook = (void *)(uintptr_t)sinks[sink_count++];
    }
out:
    pthread_mutex_unlock(&sink_lock);
    return hook;
}

/* What lies below this layer for a name it intercepted (NULL: not asked about it). */
EXPORT void *winsys_layer_next(const char *name)
{
    void *next = NULL;

    pthread_mutex_lock(&sink_lock);
    for (int i = 0; i < sink_count; i++) {
        if (strcmp(sink_names[i], name) == 0)
            next = sink_next[i];
    }
    pthread_mutex_unlock(&sink_lock);
    return next;
}
#else
/* ---- pass-through hooks, typed without the API headers ---- */

static const char *(*next_egl_query_string)(void *dpy, int32_t name);
static unsigned int (*next_egl_swap)(void *dpy, void *surface);
static const char *(*next_egl_fake_display)(void *dpy);
static void *(*next_egl_get_current_context)(void);
static const char *(*next_glx_query_server_string)(void *dpy, int screen, int name);
static void (*next_glx_swap)(void *dpy, unsigned long drawable);
static const char *(*next_glx_which_vendor)(void *dpy, int screen);
static void *(*next_glx_get_current_display)(void);
static int (*next_glx_make_current)(void *dpy, unsigned long drawable, void *ctx);

static const char *hook_egl_query_string(void *dpy, int32_t name)
{
    trace("eglQueryString");
    return NEXT(next_egl_query_string)(dpy, name);
}

static unsigned int hook_egl_swap(void *dpy, void *surface)
{
    trace("eglSwapBuffers");
    return NEXT(next_egl_swap)(dpy, surface);
}

static const char *hook_egl_fake_display(void *dpy)
{
    trace("eglFakeDisplayFAKE");
    return NEXT(next_egl_fake_display)(dpy);
}

static void *hook_egl_get_current_context(void)
{
    trace("eglGetCurrentContext");
    if (LAYER_REENTER)
        call_public("eglQueryAPI");
    return NEXT(next_egl_get_current_context)();
}

static const char *hook_glx_query_server_string(void *dpy, int screen, int name)
{
    trace("glXQueryServerString");
    return NEXT(next_glx_query_server_string)(dpy, screen, name);
}

static void hook_glx_swap(void *dpy, unsigned long drawable)
{
    trace("glXSwapBuffers");
    NEXT(next_glx_swap)(dpy, drawable);
}

static const char *hook_glx_which_vendor(void *dpy, int screen)
{
    trace("glXFakeWhichVendorGLMUX");
    return NEXT(next_glx_which_vendor)(dpy, screen);
}

static void *hook_glx_get_current_display(void)
{
    trace("glXGetCurrentDisplay");
    if (LAYER_REENTER)
        call_public("glXGetCurrentContext");
    return NEXT(next_glx_get_current_display)();
}

static int hook_glx_make_current(void *dpy, unsigned long drawable, void *ctx)
{
    trace("glXMakeCurrent");
    return NEXT(next_glx_make_current)(dpy, drawable, ctx);
}

/* glXAllocateMemoryNV, asked as a GL name (a GL dispatch slot) and as a glX name. */
typedef void *(*alloc_fn)(int size, float readfreq, float writefreq, float priority);
static alloc_fn next_alloc_gl, next_alloc_glx;

static void *hook_alloc_gl(int size, float readfreq, float writefreq, float priority)
{
    trace("glXAllocateMemoryNV");
    return NEXT(next_alloc_gl)(size, readfreq, writefreq, priority);
}

static void *hook_alloc_glx(int size, float readfreq, float writefreq, float priority)
{
    trace("glXAllocateMemoryNV");
    return NEXT(next_alloc_glx)(size, readfreq, writefreq, priority);
}

static void *pass_get_proc_address(const char *name, uint32_t api, void *next)
{
    if (next != NULL && strcmp(name, "glXAllocateMemoryNV") == 0) {
        if (api == GLMUX_LAYER_API_GL) {
            __atomic_store_n((void **)&next_alloc_gl, next, __ATOMIC_RELEASE);
            return (void *)(uintptr_t)hook_alloc_gl;
        }
        __atomic_store_n((void **)&next_alloc_glx, next, __ATOMIC_RELEASE);
        return (void *)(uintptr_t)hook_alloc_glx;
    }
    return layer_get_proc_address(name, api, next);
}

static void *answer(const char *name, void *next)
{
    if (next == NULL)
        return next;
    HOOK("eglQueryString", next_egl_query_string, hook_egl_query_string)
    HOOK("eglSwapBuffers", next_egl_swap, hook_egl_swap)
    HOOK("eglFakeDisplayFAKE", next_egl_fake_display, hook_egl_fake_display)
    HOOK("eglGetCurrentContext", next_egl_get_current_context, hook_egl_get_current_context)
    HOOK("glXQueryServerString", next_glx_query_server_string, hook_glx_query_server_string)
    HOOK("glXSwapBuffers", next_glx_swap, hook_glx_swap)
    HOOK("glXFakeWhichVendorGLMUX", next_glx_which_vendor, hook_glx_which_vendor)
    HOOK("glXGetCurrentDisplay", next_glx_get_current_display, hook_glx_get_current_display)
    HOOK("glXMakeCurrent", next_glx_make_current, hook_glx_make_current)
    return next;
}
#endif

EXPORT int glmux_layer_negotiate(struct glmux_layer_negotiate *n)
{
    if (!layer_accept(n, NULL))
        return 1;
#if !LAYER_SINK
    n->get_proc_address = pass_get_proc_address;
#endif
    trace("init");
    return 0;
}
