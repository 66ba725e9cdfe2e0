/* SPDX-License-Identifier: MIT */
/*
 * glmux's re-entry guard library, libglmux-layer-guard.so (src/dispatch/layer_guard.h): what
 * libGLdispatch loads under GLMUX_DEBUG=layer to notice a layer's hook calling a public GL
 * function. Its generated wrappers (gen_call_counter.py --kind guard) sit at the top and the
 * bottom of the chains; here is the thread's place they keep, and glmux_guard_open, the one
 * export. The place is a pthread key's value, not TLS: a dlopened library's TLS takes the
 * static TLS reserve in some cases (initial-exec) or allocates at first use (general-dynamic),
 * and a key needs neither; nothing is allocated, so a thread's exit has nothing to free, a
 * fork's child keeps its thread's place, and the library never needs unloading (libGLdispatch
 * opens it with RTLD_NODELETE: a thread may still be inside a wrapper). The key is made once
 * and never deleted.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/layer_guard.h"
#include "glmux/glmux_layer.h"
#include "guard.h"
#include "util/lazy_key.h"

#define EXPORT __attribute__((visibility("default")))

/* The thread's place: depth in the low bits, the outermost function's id above them. */
#define DEPTH_BITS 16u
#define DEPTH_MASK ((uintptr_t)((1u << DEPTH_BITS) - 1u))
#define INDEX_BITS 14u

static const struct glmux_guard_table *const tables[GLMUX_GUARD_APIS] = {
    [GLMUX_GUARD_API_GL] = &glmux_guard_gl,
#ifdef GLMUX_GUARD_HAVE_GLX
    [GLMUX_GUARD_API_GLX] = &glmux_guard_glx,
#endif
#ifdef GLMUX_GUARD_HAVE_EGL
    [GLMUX_GUARD_API_EGL] = &glmux_guard_egl,
#endif
};

/* Made by the first open (libGLdispatch opens the guard on the one thread that loads the
 * chain; another caller meanwhile fails). */
static struct glmux_lazy_key place;
/* libGLdispatch's report function (atomic: set by open, read by any thread). */
static void (*report_fn)(const char *called, const char *running, uint32_t pair);

static uintptr_t place_get(void)
{
    return (uintptr_t)pthread_getspecific(place.key);
}

static void place_set(uintptr_t v)
{
    /* Can fail only for memory at a thread's first use of the key: then nothing is kept. */
    (void)pthread_setspecific(place.key, (void *)v);
}

static const char *name_of(uintptr_t id)
{
    unsigned api = (unsigned)(id >> INDEX_BITS), index = (unsigned)(id & ((1u << INDEX_BITS) - 1));

    return api < GLMUX_GUARD_APIS && tables[api] != NULL && index < tables[api]->count
               ? tables[api]->names[index]
               : "?";
}

uintptr_t glmux_guard_enter(unsigned api, unsigned index)
{
    uintptr_t saved = place_get(), depth = saved & DEPTH_MASK;
    uintptr_t outer = saved >> DEPTH_BITS;
    uintptr_t id = ((uintptr_t)api << INDEX_BITS) | index;

    if (depth == 0) {
        outer = id;
    } else if (api == GLMUX_GUARD_API_GL || api != (unsigned)(outer >> INDEX_BITS)) {
        /* A GL function, or one of another library than the function being run (libEGL and
         * libGLX say it of their own exports themselves). */
        void (*report)(const char *, const char *, uint32_t) =
            __atomic_load_n(&report_fn, __ATOMIC_ACQUIRE);

        if (report != NULL)
            report(tables[api]->names[index], name_of(outer),
                   (uint32_t)((id << DEPTH_BITS) | outer) + 1u);
    }
    if (depth < DEPTH_MASK)
        depth++;
    place_set((outer << DEPTH_BITS) | depth);
    return saved;
}

uintptr_t glmux_guard_suspend(void)
{
    uintptr_t saved = place_get();

    if (saved != 0)
        place_set(0);
    return saved;
}

void glmux_guard_restore(uintptr_t saved)
{
    place_set(saved);
}

static int by_name(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

static void *wrap(const char *name, uint32_t api, enum glmux_guard_where where, void *next)
{
    const struct glmux_guard_table *t = NULL;
    const char *const *found;
    size_t i;

    if (name == NULL || next == NULL)
        return NULL;
    if (api == GLMUX_LAYER_API_GL)
        t = tables[GLMUX_GUARD_API_GL];
    else if (api == GLMUX_LAYER_API_GLX)
        t = tables[GLMUX_GUARD_API_GLX];
    else if (api == GLMUX_LAYER_API_EGL)
        t = tables[GLMUX_GUARD_API_EGL];
    if (t == NULL)
        return NULL;
    found = bsearch(name, t->names, t->count, sizeof(*t->names), by_name);
    if (found == NULL)
        return NULL;
    i = (size_t)(found - t->names);
    if (where == GLMUX_GUARD_TOP) {
        atomic_store_explicit(&t->next_top[i], next, memory_order_release);
        return t->top[i];
    }
    atomic_store_explicit(&t->next_bottom[i], next, memory_order_release);
    return t->bottom[i];
}

static const struct glmux_guard guard = {
    .version = GLMUX_GUARD_VERSION,
    .wrap = wrap,
};

EXPORT const struct glmux_guard *glmux_guard_open(const struct glmux_guard_host *host)
{
    if (host == NULL || host->version != GLMUX_GUARD_VERSION || host->report == NULL)
        return NULL;
    if (!glmux_lazy_key_ready(&place))
        return NULL;
    __atomic_store_n(&report_fn, host->report, __ATOMIC_RELEASE);
    return &guard;
}
