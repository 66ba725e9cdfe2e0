/* SPDX-License-Identifier: MIT */
/*
 * glmux re-entry guard tests: a test layer that breaks the rule of docs/layers.md on purpose.
 * Its glClear hook calls the public glGetError (which no layer intercepts), its glFinish hook
 * the public glFlush (which it intercepts itself), its eglSwapBuffers hook the public
 * glGetString; each then calls on through next. glFlush's hook only calls on. The public
 * functions are found with dlsym(RTLD_DEFAULT): those of the program's libOpenGL, as a layer
 * that linked against it would call them. guard_layer_seen() tells the test what the public
 * calls answered.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "layer_hooks.h"

static void (*next_clear)(unsigned int mask);
static void (*next_finish)(void);
static void (*next_flush)(void);
static unsigned int (*next_egl_swap)(void *dpy, void *surface);

/* What the last public calls from the hooks answered. */
static unsigned int seen_error;
static const char *seen_vendor;

static void *public(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

static void hook_clear(unsigned int mask)
{
    unsigned int (*get_error)(void);

    *(void **)&get_error = public("glGetError");
    __atomic_store_n(&seen_error, get_error(), __ATOMIC_RELAXED);   /* the rule broken */
    NEXT(next_clear)(mask);
}

static void hook_finish(void)
{
    void (*flush)(void);

    *(void **)&flush = public("glFlush");
    flush();                                                        /* the rule broken */
    NEXT(next_finish)();
}

static void hook_flush(void)
{
    NEXT(next_flush)();
}

static unsigned int hook_egl_swap(void *dpy, void *surface)
{
    const char *(*get_string)(unsigned int);

    *(void **)&get_string = public("glGetString");
    __atomic_store_n(&seen_vendor, get_string(0x1F00 /* GL_VENDOR */), __ATOMIC_RELAXED);
    return NEXT(next_egl_swap)(dpy, surface);
}

static void *answer(const char *name, void *next)
{
    if (next == NULL)
        return next;
    HOOK("glClear", next_clear, hook_clear)
    HOOK("glFinish", next_finish, hook_finish)
    HOOK("glFlush", next_flush, hook_flush)
    HOOK("eglSwapBuffers", next_egl_swap, hook_egl_swap)
    return next;
}

/* For the test: what the hooks' public glGetError and glGetString calls answered last. */
EXPORT void guard_layer_seen(unsigned int *error, const char **vendor)
{
    *error = __atomic_load_n(&seen_error, __ATOMIC_RELAXED);
    *vendor = __atomic_load_n(&seen_vendor, __ATOMIC_RELAXED);
}

EXPORT int glmux_layer_negotiate(struct glmux_layer_negotiate *n)
{
    return layer_accept(n, NULL) ? 0 : 1;
}
