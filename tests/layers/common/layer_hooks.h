/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layer tests: what the test layers of tests/layers share. A layer source includes
 * this header and defines answer(name, next): what it hands out for the function name, where
 * next is what lies below it (HOOK keeps next and hands out a hook). layer_get_proc_address is
 * glmux's get_proc_address over answer, and layer_accept the part of glmux_layer_negotiate that
 * every test layer does alike. trace writes "LAYER_NAME:what" into the test program's trace
 * (glmux_layer_test_trace, layer_test.h), when the program that loaded the layer keeps one.
 */
#ifndef GLMUX_LAYER_HOOKS_H
#define GLMUX_LAYER_HOOKS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "glmux/glmux_layer.h"

#define EXPORT __attribute__((visibility("default")))

/* In answer(): when name is str, keeps next in var and hands out fn. Two threads may ask at
 * once (docs/layers.md) and a hook may run on a third: var is written and read atomically
 * (NEXT), as a layer author's should be. */
#define HOOK(str, var, fn)                                                             \
    if (strcmp(name, str) == 0) {                                                      \
        __atomic_store_n((void **)&var, next, __ATOMIC_RELEASE);                      \
        return (void *)(uintptr_t)fn;                                                  \
    }

/* The function below, as HOOK kept it. */
#define NEXT(var) ((__typeof__(var))__atomic_load_n((void **)&(var), __ATOMIC_ACQUIRE))

static void *answer(const char *name, void *next);

static inline void *layer_get_proc_address(const char *name, uint32_t api, void *next)
{
    (void)api;
    return answer(name, next);
}

/* False when the loader's negotiate struct is older than this layer's; else fills it in. */
static inline bool layer_accept(struct glmux_layer_negotiate *n, void (*unload)(void))
{
    if (n->size < sizeof(*n))
        return false;
    n->abi_version = GLMUX_LAYER_ABI_VERSION;
    n->get_proc_address = layer_get_proc_address;
    n->unload = unload;
    return true;
}

extern void glmux_layer_test_trace(const char *layer, const char *what) __attribute__((weak));

#ifdef LAYER_NAME
static inline void trace(const char *what)
{
    if (glmux_layer_test_trace != NULL)
        glmux_layer_test_trace(LAYER_NAME, what);
}
#endif

#endif
