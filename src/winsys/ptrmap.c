/* SPDX-License-Identifier: MIT */
/*
 * glmux winsys: the pointer map behind libEGL's display and device maps and libGLX's context,
 * FBConfig and drawable maps. Keys are non-zero integers (a handle's address or an XID);
 * open addressing with linear probing, grown at half load, removal by tombstones.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "winsys/winsys.h"

#define TOMBSTONE UINTPTR_MAX

/* A 64-bit mixer: handles are aligned addresses or small XIDs, both poorly spread. */
static size_t slot_of(uintptr_t key, size_t cap)
{
    uint64_t x = (uint64_t)key;

    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

static long find(const struct glmux_ptrmap *map, uintptr_t key)
{
    if (map->cap == 0 || key == 0 || key == TOMBSTONE)
        return -1;
    for (size_t i = slot_of(key, map->cap), n = 0; n < map->cap;
         i = (i + 1) & (map->cap - 1), n++) {
        if (map->keys[i] == key)
            return (long)i;
        if (map->keys[i] == 0)
            return -1;
    }
    return -1;
}

void *glmux_ptrmap_get(const struct glmux_ptrmap *map, uintptr_t key)
{
    long i = find(map, key);

    return i < 0 ? NULL : map->vals[i];
}

/* Rehashes into a table of cap (a power of two) slots. */
static bool resize(struct glmux_ptrmap *map, size_t cap)
{
    uintptr_t *keys;
    void **vals;

    keys = calloc(cap, sizeof(*keys));
    vals = calloc(cap, sizeof(*vals));
    if (keys == NULL || vals == NULL) {
        free(keys);
        free(vals);
        return false;
    }
    for (size_t i = 0; i < map->cap; i++) {
        uintptr_t k = map->keys[i];
        size_t j;

        if (k == 0 || k == TOMBSTONE)
            continue;
        for (j = slot_of(k, cap); keys[j] != 0; j = (j + 1) & (cap - 1))
            ;
        keys[j] = k;
        vals[j] = map->vals[i];
    }
    free(map->keys);
    free(map->vals);
    map->keys = keys;
    map->vals = vals;
    map->cap = cap;
    map->used = map->count;
    return true;
}

static bool grow(struct glmux_ptrmap *map)
{
    /* Mostly tombstones: rehash at the same size. */
    return resize(map, map->count * 4 < map->cap ? map->cap : map->cap ? map->cap * 2 : 32);
}

bool glmux_ptrmap_reserve(struct glmux_ptrmap *map, size_t n)
{
    size_t cap = map->cap ? map->cap : 32;

    while ((map->used + n) * 2 > cap)
        cap *= 2;
    return cap == map->cap || resize(map, cap);
}

/* claim's rare paths, out of line so that the common one saves no registers: the map must
 * grow first, or a tombstone lies on the key's probe sequence. */
__attribute__((noinline)) static void *claim_slow(struct glmux_ptrmap *map, uintptr_t key,
                                                  void *val)
{
    size_t j, tomb = SIZE_MAX;

    if ((map->used + 1) * 2 > map->cap && !grow(map))
        return val;
    for (j = slot_of(key, map->cap); map->keys[j] != 0; j = (j + 1) & (map->cap - 1)) {
        if (map->keys[j] == key)
            return map->vals[j];
        if (map->keys[j] == TOMBSTONE && tomb == SIZE_MAX)
            tomb = j;
    }
    if (tomb != SIZE_MAX)
        j = tomb;
    else
        map->used++;
    map->keys[j] = key;
    map->vals[j] = val;
    map->count++;
    return NULL;
}

void *glmux_ptrmap_claim(struct glmux_ptrmap *map, uintptr_t key, void *val)
{
    size_t mask = map->cap - 1, j;
    uintptr_t k;

    if (key - 1 >= TOMBSTONE - 1)       /* 0 or TOMBSTONE: never a key */
        return val;
    if ((map->used + 1) * 2 > map->cap)
        return claim_slow(map, key, val);
    for (j = slot_of(key, map->cap); (k = map->keys[j]) != 0; j = (j + 1) & mask) {
        if (k == key)
            return map->vals[j];
        if (k == TOMBSTONE)
            return claim_slow(map, key, val);
    }
    map->keys[j] = key;
    map->vals[j] = val;
    map->used++;
    map->count++;
    return NULL;
}

/*
 * A vendor hands libGLX its FBConfigs by the hundred (Mesa: 840 on one screen), each claimed
 * at the first glXChooseFBConfig: one reservation, then one probe sequence per key in a loop
 * that keeps the table in registers, about a third of a glmux_ptrmap_claim call per key.
 */
void *glmux_ptrmap_claim_all(struct glmux_ptrmap *map, const void *keys, size_t n, void *val,
                             size_t *at)
{
    const char *p = keys;
    size_t mask, added = 0;
    uintptr_t *slots;
    void **vals;

    *at = 0;
    if (!glmux_ptrmap_reserve(map, n))
        return val;
    slots = map->keys;
    vals = map->vals;
    mask = map->cap - 1;
    for (size_t i = 0; i < n; i++, p += sizeof(void *)) {
        void *key_ptr, *owner;
        uintptr_t key, k;
        size_t j;

        memcpy(&key_ptr, p, sizeof(key_ptr));   /* the i-th pointer, whatever it points to */
        key = (uintptr_t)key_ptr;
        if (key - 1 >= TOMBSTONE - 1)
            continue;
        for (j = slot_of(key, mask + 1); (k = slots[j]) != 0; j = (j + 1) & mask) {
            if (k == key || k == TOMBSTONE)
                break;
        }
        if (k == 0) {
            slots[j] = key;
            vals[j] = val;
            added++;
            continue;
        }
        /* Mapped already, or a tombstone on the way: the one-key path (no growth: the
         * reservation holds). */
        map->used += added;
        map->count += added;
        added = 0;
        owner = glmux_ptrmap_claim(map, key, val);
        if (owner != NULL && owner != val) {
            *at = i;
            return owner;
        }
    }
    map->used += added;
    map->count += added;
    return NULL;
}

bool glmux_ptrmap_put(struct glmux_ptrmap *map, uintptr_t key, void *val)
{
    long i = find(map, key);
    size_t j;

    if (key == 0 || key == TOMBSTONE)
        return false;
    if (i >= 0) {
        map->vals[i] = val;
        return true;
    }
    if ((map->used + 1) * 2 > map->cap && !grow(map))
        return false;
    for (j = slot_of(key, map->cap); map->keys[j] != 0 && map->keys[j] != TOMBSTONE;
         j = (j + 1) & (map->cap - 1))
        ;
    if (map->keys[j] == 0)
        map->used++;
    map->keys[j] = key;
    map->vals[j] = val;
    map->count++;
    return true;
}

void *glmux_ptrmap_remove(struct glmux_ptrmap *map, uintptr_t key)
{
    long i = find(map, key);
    void *val;

    if (i < 0)
        return NULL;
    val = map->vals[i];
    map->keys[i] = TOMBSTONE;
    map->vals[i] = NULL;
    map->count--;
    return val;
}

void glmux_ptrmap_clear(struct glmux_ptrmap *map)
{
    free(map->keys);
    free(map->vals);
    map->keys = NULL;
    map->vals = NULL;
    map->cap = map->count = map->used = 0;
}

void glmux_ptrmap_each(const struct glmux_ptrmap *map, void (*fn)(uintptr_t, void *, void *),
                       void *data)
{
    for (size_t i = 0; i < map->cap; i++) {
        if (map->keys[i] != 0 && map->keys[i] != TOMBSTONE)
            fn(map->keys[i], map->vals[i], data);
    }
}
