/* SPDX-License-Identifier: MIT */
/*
 * glmux winsys: whether this library (libEGL or libGLX) must ask libGLdispatch for chains of
 * GL layers, and the top of a name's chain (layer.h). libGLdispatch loads the layers once per
 * process, at the first layer_top of any library or the first make-current; this file only
 * remembers, per library, that none were found (then the exports never ask again) and, per
 * export, the answer for its name. A libGLdispatch older than winsys version 5, or not glmux's,
 * has no layers. It also says, at the layer debug level, when a layer calls an export of this
 * library from inside its own function (layer.h).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>

#include "util/exiting.h"
#include "util/lazy_key.h"
#include "util/log.h"
#include "winsys/layer.h"
#include "winsys/winsys.h"

int glmux_winsys_layers = GLMUX_WINSYS_LAYERS_UNKNOWN;

/*
 * The calling thread's depth in layers' functions (layer.h), a thread-specific value made at
 * the first use (util/lazy_key.h): not TLS, which would take static TLS space at each dlopen of
 * the library. When the key cannot be made, nothing is reported.
 */
static struct glmux_lazy_key depth;

/* How many re-entries into an export from inside a layer this library reports. */
#define REENTRY_REPORTS 8
static unsigned reentry_reports;

/* libGLdispatch's winsys interface with layers, once found; NULL before. */
static const struct glmux_dispatch_winsys *layers_winsys;

/* What a cache slot holds for a name that no loaded layer intercepts. */
static char not_layered;

/*
 * libGLdispatch's version 5 interface, or NULL when this process can have no layers (then the
 * state becomes NONE). NULL too, with the state left UNKNOWN, while the library is not usable
 * (its constructor has not run yet, or it is being unloaded).
 */
static const struct glmux_dispatch_winsys *find_winsys(void)
{
    const struct glmux_dispatch_winsys *w = __atomic_load_n(&layers_winsys, __ATOMIC_ACQUIRE);

    if (w != NULL)
        return w;
    if (!glmux_winsys_usable())
        return NULL;
    /* The name carries the version: only a glmux libGLdispatch with layers answers it with its
     * interface. thread.c asked for it at load (and checked its magic); asked again only when
     * that registration failed. */
    w = glmux_winsys_dispatch();
    if (w == NULL)
        w = (const struct glmux_dispatch_winsys *)(uintptr_t)__glDispatchGetProcAddress(
            GLMUX_DISPATCH_WINSYS_NAME);
    if (w == NULL || w->magic != GLMUX_DISPATCH_WINSYS_MAGIC || w->layer_top == NULL ||
        w->layers_active == NULL) {
        __atomic_store_n(&glmux_winsys_layers, GLMUX_WINSYS_LAYERS_NONE, __ATOMIC_RELAXED);
        return NULL;
    }
    __atomic_store_n(&layers_winsys, w, __ATOMIC_RELEASE);
    return w;
}

void *glmux_winsys_layer_top(const char *name, uint32_t api, void *terminator, void **cache)
{
    const struct glmux_dispatch_winsys *w;
    void *top = cache != NULL ? __atomic_load_n(cache, __ATOMIC_ACQUIRE) : NULL;

    if (top != NULL)
        return top == &not_layered ? NULL : top;
    w = find_winsys();
    if (w == NULL)
        return NULL;
    /* The first call in the process loads the layers; later ones look the name up. */
    top = w->layer_top(name, api, terminator);
    if (!w->layers_active()) {
        __atomic_store_n(&glmux_winsys_layers, GLMUX_WINSYS_LAYERS_NONE, __ATOMIC_RELAXED);
        return NULL;
    }
    __atomic_store_n(&glmux_winsys_layers, GLMUX_WINSYS_LAYERS_ACTIVE, __ATOMIC_RELAXED);
    if (cache != NULL)
        __atomic_store_n(cache, top != NULL ? top : (void *)&not_layered, __ATOMIC_RELEASE);
    return top;
}

/* The calling thread's depth; 0 without making the key when no thread has entered a layer's
 * function yet (an export's first call with no layer loaded). */
static uintptr_t depth_get(void)
{
    return glmux_lazy_key_made(&depth) ? (uintptr_t)pthread_getspecific(depth.key) : 0;
}

void glmux_winsys_layer_enter(void)
{
    if (glmux_lazy_key_ready(&depth))
        pthread_setspecific(depth.key, (void *)(depth_get() + 1));
}

void glmux_winsys_layer_leave(void)
{
    uintptr_t d = depth_get();

    if (d != 0)
        pthread_setspecific(depth.key, (void *)(d - 1));
}

void glmux_winsys_layer_check(const char *name)
{
    if (depth_get() == 0 || !glmux_log_enabled(GLMUX_LOG_LAYER) ||
        __atomic_fetch_add(&reentry_reports, 1, __ATOMIC_RELAXED) >= REENTRY_REPORTS)
        return;
    glmux_log(GLMUX_LOG_LAYER, "%s was called from inside a layer's function, through the "
              "public symbol: the call starts again at the top of the chain, above the layer "
              "that made it. A layer calls on through the next pointer it was given (or "
              "get_next), never through the public symbols (docs/layers.md)", name);
}

/* At unload (not at process exit, when other threads may still be in a layer): the key goes. */
__attribute__((destructor)) static void depth_fini(void)
{
    if (!glmux_process_exiting())
        glmux_lazy_key_delete(&depth);
}
