/* SPDX-License-Identifier: MIT */
/*
 * glmux winsys: dispatch-name lists (the names that got a winsys dispatch index, libEGL's and
 * libGLX's alike) and the per-vendor caches of fetchDispatchEntry answers. A cache looks a
 * name up in the vendor once; the vendor is called with no lock held.
 */
#include <stdlib.h>
#include <string.h>

#include "winsys/winsys.h"

int glmux_names_find(const struct glmux_names *names, const char *name)
{
    return glmux_name_index_find(&names->map, name);
}

int glmux_names_add(struct glmux_names *names, const char *name)
{
    const char *copy = NULL;
    int i;

    if (names->count == names->cap) {
        int cap = names->cap ? names->cap * 2 : 64;
        struct glmux_name_entry *n = realloc(names->items, sizeof(*n) * (size_t)cap);

        if (n == NULL)
            return -1;
        names->items = n;
        names->cap = cap;
    }
    i = glmux_name_index_find_or_add(&names->map, name, names->count, &copy);
    if (i == names->count) {        /* new */
        names->items[i].name = copy;
        names->items[i].data = NULL;
        names->count++;
    }
    return i;
}

const char *glmux_names_get(const struct glmux_names *names, int index)
{
    return index >= 0 && index < names->count ? names->items[index].name : NULL;
}

void glmux_names_clear(struct glmux_names *names)
{
    glmux_name_index_clear(&names->map);    /* the names too */
    free(names->items);
    names->items = NULL;
    names->count = names->cap = 0;
}

/* Lock held. False when index is not cached (or the cache cannot grow). */
static bool cache_peek(const struct glmux_lookup_cache *c, int index, void **fn)
{
    if (index >= c->size || !c->known[index])
        return false;
    *fn = c->fn[index];
    return true;
}

/* Lock held. Out of memory only means the answer is not cached. */
static void cache_store(struct glmux_lookup_cache *c, int index, void *fn)
{
    if (index >= c->size) {
        int size = index + 32;
        void **f = realloc(c->fn, sizeof(*f) * (size_t)size);
        unsigned char *k;

        if (f == NULL)
            return;
        c->fn = f;
        k = realloc(c->known, (size_t)size);
        if (k == NULL)
            return;
        memset(k + c->size, 0, (size_t)(size - c->size));
        c->known = k;
        c->size = size;
    }
    c->fn[index] = fn;
    c->known[index] = 1;
}

void *glmux_lookup_fetch(struct glmux_lookup_cache *cache, pthread_mutex_t *lock, int index,
                         const char *name, void *(*lookup)(const char *name, void *vendor),
                         void *vendor)
{
    void *fn = NULL;
    bool hit;

    if (index < 0 || name == NULL)
        return NULL;
    pthread_mutex_lock(lock);
    hit = cache_peek(cache, index, &fn);
    pthread_mutex_unlock(lock);
    if (hit)
        return fn;
    /* Two threads may both ask the vendor: the answer is the same. */
    fn = lookup(name, vendor);
    pthread_mutex_lock(lock);
    cache_store(cache, index, fn);
    pthread_mutex_unlock(lock);
    return fn;
}

void glmux_lookup_clear(struct glmux_lookup_cache *cache)
{
    free(cache->fn);
    free(cache->known);
    cache->fn = NULL;
    cache->known = NULL;
    cache->size = 0;
}
