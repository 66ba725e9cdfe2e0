/* SPDX-License-Identifier: MIT */
/*
 * glmux_android_counter, a GL layer written only against Android's two GLES layer entry points
 * (AndroidGLESLayer_Initialize and AndroidGLESLayer_GetProcAddress, as Android 10's EGL loader
 * calls them), so the same source builds as an Android layer: glmux loads such a layer
 * unchanged (docs/layers.md). It counts glClear and eglSwapBuffers calls and, when the process
 * exits or the layer is unloaded, writes "glClear N" and "eglSwapBuffers M" lines to the file
 * GLMUX_ANDROID_COUNTER_FILE names (default: standard error). It also shows Android's way to
 * reach a function the layer does not intercept: get_next(layer_id, name), never
 * eglGetProcAddress, which would re-enter the chain at its top.
 */
#define _GNU_SOURCE
#include <glmux/glmux_layer.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*PFN_glClear)(unsigned int mask);                         /* GLbitfield */
typedef unsigned int (*PFN_eglSwapBuffers)(void *dpy, void *surface);   /* EGLBoolean */
typedef unsigned int (*PFN_glGetError)(void);                           /* GLenum */

static void *layer_id;
static PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next;
static _Atomic(void *) next_clear, next_swap;
static _Atomic unsigned long long clears, swaps;
static atomic_bool saw_gl_below;   /* get_next found glGetError below us */

static void hook_glClear(unsigned int mask)
{
    atomic_fetch_add_explicit(&clears, 1, memory_order_relaxed);
    ((PFN_glClear)atomic_load(&next_clear))(mask);
}

static unsigned int hook_eglSwapBuffers(void *dpy, void *surface)
{
    atomic_fetch_add_explicit(&swaps, 1, memory_order_relaxed);
    /* A function we do not intercept, found below us (not through eglGetProcAddress). */
    if (!atomic_load_explicit(&saw_gl_below, memory_order_relaxed) && get_next &&
        get_next(layer_id, "glGetError"))
        atomic_store_explicit(&saw_gl_below, true, memory_order_relaxed);
    return ((PFN_eglSwapBuffers)atomic_load(&next_swap))(dpy, surface);
}

__attribute__((visibility("default"))) void *
AndroidGLESLayer_Initialize(void *id, PFNEGLGETNEXTLAYERPROCADDRESSPROC next_proc)
{
    layer_id = id;
    get_next = next_proc;
    return NULL;
}

__attribute__((visibility("default"))) void *
AndroidGLESLayer_GetProcAddress(const char *name, EGLFuncPointer next)
{
    if (next == NULL)
        return (void *)next;
    if (strcmp(name, "glClear") == 0) {
        atomic_store(&next_clear, (void *)next);
        return (void *)hook_glClear;
    }
    if (strcmp(name, "eglSwapBuffers") == 0) {
        atomic_store(&next_swap, (void *)next);
        return (void *)hook_eglSwapBuffers;
    }
    return (void *)next;
}

/* Android layers have no unload entry: a destructor runs at dlclose and at exit. */
__attribute__((destructor)) static void report(void)
{
    unsigned long long c = atomic_load(&clears), s = atomic_load(&swaps);
    if (!c && !s)
        return;
    const char *path = secure_getenv("GLMUX_ANDROID_COUNTER_FILE");
    FILE *out = path && *path ? fopen(path, "ae") : NULL;
    FILE *f = out ? out : stderr;
    fprintf(f, "glClear %llu\neglSwapBuffers %llu\nget_next %s\n", c, s,
            atomic_load(&saw_gl_below) ? "found glGetError" : "not used");
    if (out)
        fclose(out);
}
