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
#include <stddef.h>

#include "util/log.h"
#include "winsys/layer.h"
#include "winsys/winsys.h"

int glmux_winsys_layers = GLMUX_WINSYS_LAYERS_UNKNOWN;
__thread unsigned glmux_winsys_layer_depth __attribute__((tls_model("initial-exec")));

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
     * interface (thread.c has checked the magic of the same answer at load). */
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

void glmux_winsys_layer_reentered(const char *name)
{
    if (!glmux_log_enabled(GLMUX_LOG_LAYER) ||
        __atomic_fetch_add(&reentry_reports, 1, __ATOMIC_RELAXED) >= REENTRY_REPORTS)
        return;
    glmux_log(GLMUX_LOG_LAYER, "%s was called from inside a layer's function, through the "
              "public symbol: the call starts again at the top of the chain, above the layer "
              "that made it. A layer calls on through the next pointer it was given (or "
              "get_next), never through the public symbols (docs/layers.md)", name);
}
