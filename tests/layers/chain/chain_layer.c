/* SPDX-License-Identifier: MIT */
/*
 * glmux layer-chain tests: one test layer, built several times with different names and
 * entries (CMakeLists.txt): LAYER_NAME names it in the trace, LAYER_ANDROID=1 gives it
 * Android's two entry points instead of glmux_layer_negotiate. It intercepts glClear,
 * glGetError (adding 0x10 to what lies below, so a test counts the layers a call went
 * through), glGetString, two dynamic names glmuxGen5MUX and glmuxGen7MUX and
 * glmuxTestAfterMUX (adding 1), the names of the dynamic-slot tests glmuxGen21MUX to
 * glmuxGen25MUX (adding 1), and eglSwapBuffers / glXSwapBuffers when LAYER_SWAP=1 (then nothing
 * else). Each call and its unload are written to the test program's trace (layer_hooks.h);
 * before it answers, it tells the test program which name it is asked about
 * (chain_test_asked, when the program exports it), so that a test can act inside a layer's
 * get_proc_address;
 * chain_test_layer_next() answers get_next for the test, chain_test_layer_init_next() what
 * get_next answered for glClear while the layer initialized (the layers below it loaded).
 */
#include <stdint.h>
#include <string.h>

#include "layer_hooks.h"

#ifndef LAYER_ANDROID
#define LAYER_ANDROID 0
#endif
#ifndef LAYER_SWAP
#define LAYER_SWAP 0
#endif

static void *my_id;
static PFNEGLGETNEXTLAYERPROCADDRESSPROC my_get_next;
static void *init_next_clear;       /* get_next(glClear) while the layer initialized */

typedef unsigned int GLenum_;
static void (*next_clear)(unsigned int mask);
static GLenum_ (*next_get_error)(void);
static int (*next_gen5)(int x);
static int (*next_gen7)(int x);
static int (*next_after)(int x);
static unsigned int (*next_egl_swap)(void *dpy, void *surface);
static void (*next_glx_swap)(void *dpy, unsigned long drawable);
static const unsigned char *(*next_get_string)(unsigned int name);

__attribute__((unused)) static void hook_clear(unsigned int mask)
{
    trace("glClear");
    NEXT(next_clear)(mask);
}

__attribute__((unused)) static GLenum_ hook_get_error(void)
{
    trace("glGetError");
    return NEXT(next_get_error)() + 0x10;
}

__attribute__((unused)) static const unsigned char *hook_get_string(unsigned int name)
{
    trace("glGetString");
    return NEXT(next_get_string)(name);
}

__attribute__((unused)) static int hook_gen5(int x)
{
    trace("glmuxGen5MUX");
    return NEXT(next_gen5)(x) + 1;
}

__attribute__((unused)) static int hook_gen7(int x)
{
    trace("glmuxGen7MUX");
    return NEXT(next_gen7)(x) + 1;
}

__attribute__((unused)) static int hook_after(int x)
{
    trace("glmuxTestAfterMUX");
    return NEXT(next_after)(x) + 1;
}

/* The dynamic-slot tests' names: hooked like glmuxGen5MUX. */
#define GEN_HOOK(n)                                                                    \
    static int (*next_gen##n)(int x);                                                  \
    __attribute__((unused)) static int hook_gen##n(int x)                              \
    {                                                                                  \
        trace("glmuxGen" #n "MUX");                                                    \
        return NEXT(next_gen##n)(x) + 1;                                               \
    }
GEN_HOOK(21)
GEN_HOOK(22)
GEN_HOOK(23)
GEN_HOOK(24)
GEN_HOOK(25)

/* The test program's view of this layer being asked about name (test_chain.c), if it has one. */
extern void chain_test_asked(const char *layer, const char *name) __attribute__((weak));

__attribute__((unused)) static unsigned int hook_egl_swap(void *dpy, void *surface)
{
    trace("eglSwapBuffers");
    return NEXT(next_egl_swap) != NULL ? NEXT(next_egl_swap)(dpy, surface) : 0;
}

__attribute__((unused)) static void hook_glx_swap(void *dpy, unsigned long drawable)
{
    trace("glXSwapBuffers");
    if (NEXT(next_glx_swap) != NULL)
        NEXT(next_glx_swap)(dpy, drawable);
}

static void *answer(const char *name, void *next)
{
    if (chain_test_asked != NULL)
        chain_test_asked(LAYER_NAME, name);
    if (next == NULL)
        return next;
#if LAYER_SWAP
    HOOK("eglSwapBuffers", next_egl_swap, hook_egl_swap)
    HOOK("glXSwapBuffers", next_glx_swap, hook_glx_swap)
#else
    HOOK("glClear", next_clear, hook_clear)
    HOOK("glGetError", next_get_error, hook_get_error)
    HOOK("glGetString", next_get_string, hook_get_string)
    HOOK("glmuxGen5MUX", next_gen5, hook_gen5)
    HOOK("glmuxGen7MUX", next_gen7, hook_gen7)
    HOOK("glmuxTestAfterMUX", next_after, hook_after)
    HOOK("glmuxGen21MUX", next_gen21, hook_gen21)
    HOOK("glmuxGen22MUX", next_gen22, hook_gen22)
    HOOK("glmuxGen23MUX", next_gen23, hook_gen23)
    HOOK("glmuxGen24MUX", next_gen24, hook_gen24)
    HOOK("glmuxGen25MUX", next_gen25, hook_gen25)
#endif
    return next;
}

/* For the test: what lies below this layer for name (its get_next). */
EXPORT void *chain_test_layer_next(const char *name)
{
    return my_get_next != NULL ? my_get_next(my_id, name) : NULL;
}

/* For the test: what get_next answered for glClear while the layer initialized. */
EXPORT void *chain_test_layer_init_next(void)
{
    return init_next_clear;
}

#if LAYER_ANDROID
EXPORT void *AndroidGLESLayer_Initialize(void *layer_id, PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next)
{
    my_id = layer_id;
    my_get_next = get_next;
    init_next_clear = get_next(layer_id, "glClear");
    trace("init");
    return NULL;
}

EXPORT void *AndroidGLESLayer_GetProcAddress(const char *funcName, EGLFuncPointer next)
{
    return answer(funcName, (void *)(uintptr_t)next);
}
#else
static void layer_unload(void)
{
    trace("unload");
}

EXPORT int glmux_layer_negotiate(struct glmux_layer_negotiate *n)
{
    if (!layer_accept(n, layer_unload))
        return 1;
    my_id = n->layer_id;
    my_get_next = n->get_next;
    init_next_clear = n->get_next(n->layer_id, "glClear");
    trace("init");
    return 0;
}
#endif
