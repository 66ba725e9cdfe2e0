/* SPDX-License-Identifier: MIT */
/*
 * glmux layer tests: one fake layer built several times (TEST_LAYER_KIND): 1 glmux's entry,
 * intercepting glClear and eglSwapBuffers; 2 Android's two entries, intercepting glClear and
 * asking get_next for glClear while it initializes; 3 a negotiation that declines; 4 one that
 * answers layer ABI 2.0; 5 no entry at all; 6 only AndroidGLESLayer_Initialize. Each appends
 * "init NAME" (and "unload NAME", "next NAME ok|null") to the file $TEST_LAYER_LOG, so the test
 * sees the order of initialization.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer_hooks.h"

__attribute__((unused)) static void record(const char *what)
{
    const char *path = getenv("TEST_LAYER_LOG");
    FILE *f;

    if (path == NULL || (f = fopen(path, "a")) == NULL)
        return;
    fprintf(f, "%s %s\n", what, TEST_LAYER_NAME);
    fclose(f);
}

/* What the layer puts in place of glClear / eglSwapBuffers. */
EXPORT void test_layer_hook(void)
{
}

__attribute__((unused)) static void *answer(const char *name, void *next)
{
    if (strcmp(name, "glClear") == 0 || strcmp(name, "eglSwapBuffers") == 0)
        return (void *)test_layer_hook;
    return next;
}

#if TEST_LAYER_KIND == 1 || TEST_LAYER_KIND == 3 || TEST_LAYER_KIND == 4
static void on_unload(void)
{
    record("unload");
}

EXPORT int glmux_layer_negotiate(struct glmux_layer_negotiate *n)
{
    record("init");
    if (TEST_LAYER_KIND == 3)
        return 1;
    if (n->layer_id == NULL || n->get_next == NULL || strcmp(n->layer_name, TEST_LAYER_NAME) != 0 ||
        !layer_accept(n, on_unload))
        return 2;
    if (TEST_LAYER_KIND == 4)
        n->abi_version = 2u << 16;
    return 0;
}
#endif

#if TEST_LAYER_KIND == 2 || TEST_LAYER_KIND == 6
EXPORT void *AndroidGLESLayer_Initialize(void *layer_id, PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next)
{
    record("init");
    record(get_next(layer_id, "glClear") != NULL ? "next-ok" : "next-null");
    return NULL;
}
#endif

#if TEST_LAYER_KIND == 2
EXPORT void *AndroidGLESLayer_GetProcAddress(const char *funcName, EGLFuncPointer next)
{
    return answer(funcName, (void *)next);
}
#endif

#if TEST_LAYER_KIND == 5
EXPORT int test_layer_nothing;
#endif
