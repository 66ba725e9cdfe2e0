/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the handle maps (EGLDisplay → vendor, EGLDeviceEXT → vendor) and the list of
 * winsys dispatch names. The maps are open-addressing hash tables under a read-write lock:
 * every display-dispatched call does one lookup, so reads never block each other. Displays
 * stay mapped for the life of the process (eglTerminate keeps them), as in libglvnd.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "egl_internal.h"
#include "util/log.h"

struct ptr_map {
    pthread_rwlock_t lock;
    void **keys;
    glmux_egl_vendor **values;
    size_t capacity;   /* a power of two, or 0 */
    size_t count;
};

static struct ptr_map display_map = { .lock = PTHREAD_RWLOCK_INITIALIZER };
static struct ptr_map device_map = { .lock = PTHREAD_RWLOCK_INITIALIZER };

static size_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;

    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

/* The slot holding key, or the empty slot where it would go. Lock held. */
static size_t map_slot(const struct ptr_map *m, const void *key)
{
    size_t mask = m->capacity - 1;
    size_t i = hash_ptr(key) & mask;

    while (m->keys[i] != NULL && m->keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

static glmux_egl_vendor *map_get(struct ptr_map *m, const void *key)
{
    glmux_egl_vendor *v = NULL;

    if (key == NULL)
        return NULL;
    pthread_rwlock_rdlock(&m->lock);
    if (m->capacity > 0) {
        size_t i = map_slot(m, key);

        if (m->keys[i] == key)
            v = m->values[i];
    }
    pthread_rwlock_unlock(&m->lock);
    return v;
}

static bool map_grow(struct ptr_map *m)
{
    size_t cap = m->capacity ? m->capacity * 2 : 16;
    struct ptr_map n = { .capacity = cap };

    n.keys = calloc(cap, sizeof(*n.keys));
    n.values = calloc(cap, sizeof(*n.values));
    if (n.keys == NULL || n.values == NULL) {
        free(n.keys);
        free(n.values);
        return false;
    }
    for (size_t i = 0; i < m->capacity; i++) {
        if (m->keys[i] != NULL) {
            size_t j = map_slot(&n, m->keys[i]);

            n.keys[j] = m->keys[i];
            n.values[j] = m->values[i];
        }
    }
    free(m->keys);
    free(m->values);
    m->keys = n.keys;
    m->values = n.values;
    m->capacity = cap;
    return true;
}

/*
 * Maps key to vendor. With overwrite false an existing entry for another vendor wins and
 * the call fails. False on allocation failure.
 */
static bool map_put(struct ptr_map *m, void *key, glmux_egl_vendor *vendor, bool overwrite)
{
    bool ok = true;

    pthread_rwlock_wrlock(&m->lock);
    if ((m->count + 1) * 2 > m->capacity && !map_grow(m)) {
        ok = false;
    } else {
        size_t i = map_slot(m, key);

        if (m->keys[i] == NULL) {
            m->keys[i] = key;
            m->values[i] = vendor;
            m->count++;
        } else if (m->values[i] != vendor) {
            if (overwrite)
                m->values[i] = vendor;
            else
                ok = false;
        }
    }
    pthread_rwlock_unlock(&m->lock);
    return ok;
}

static void map_free(struct ptr_map *m)
{
    free(m->keys);
    free(m->values);
    m->keys = NULL;
    m->values = NULL;
    m->capacity = m->count = 0;
}

glmux_egl_vendor *glmux_egl_display_vendor(EGLDisplay dpy)
{
    return map_get(&display_map, dpy);
}

bool glmux_egl_display_add(EGLDisplay dpy, glmux_egl_vendor *vendor)
{
    return dpy != EGL_NO_DISPLAY && map_put(&display_map, dpy, vendor, false);
}

glmux_egl_vendor *glmux_egl_device_vendor(EGLDeviceEXT dev)
{
    return map_get(&device_map, dev);
}

bool glmux_egl_device_set(EGLDeviceEXT dev, glmux_egl_vendor *vendor)
{
    if (dev == EGL_NO_DEVICE_EXT || vendor == NULL)
        return false;
    return map_put(&device_map, dev, vendor, true);
}

/* ---- winsys dispatch names ---- */

static const char *const builtin_names[GLMUX_EGL_IDX_COUNT] = {
#define GLMUX_EGL_NAME(name) "egl" #name,
    GLMUX_EGL_FUNCS(GLMUX_EGL_NAME)
#undef GLMUX_EGL_NAME
};

static pthread_mutex_t winsys_lock = PTHREAD_MUTEX_INITIALIZER;
static char **extra_names;     /* names vendors' stubs added, index GLMUX_EGL_IDX_COUNT + i */
static int extra_count, extra_capacity;

static int builtin_find(const char *name)
{
    int lo = 0, hi = GLMUX_EGL_IDX_COUNT - 1;

    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        int c = strcmp(name, builtin_names[mid]);

        if (c == 0)
            return mid;
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}

static int extra_find_locked(const char *name)
{
    for (int i = 0; i < extra_count; i++) {
        if (strcmp(extra_names[i], name) == 0)
            return GLMUX_EGL_IDX_COUNT + i;
    }
    return -1;
}

int glmux_egl_winsys_find(const char *name)
{
    int index = builtin_find(name);

    if (index >= 0)
        return index;
    pthread_mutex_lock(&winsys_lock);
    index = extra_find_locked(name);
    pthread_mutex_unlock(&winsys_lock);
    return index;
}

int glmux_egl_winsys_add(const char *name)
{
    int index = builtin_find(name);

    if (index >= 0)
        return index;
    pthread_mutex_lock(&winsys_lock);
    index = extra_find_locked(name);
    if (index < 0) {
        char *copy = strdup(name);

        if (copy != NULL && extra_count == extra_capacity) {
            int cap = extra_capacity ? extra_capacity * 2 : 32;
            char **n = realloc(extra_names, sizeof(*n) * cap);

            if (n == NULL) {
                free(copy);
                copy = NULL;
            } else {
                extra_names = n;
                extra_capacity = cap;
            }
        }
        if (copy != NULL) {
            extra_names[extra_count] = copy;
            index = GLMUX_EGL_IDX_COUNT + extra_count++;
        }
    }
    pthread_mutex_unlock(&winsys_lock);
    return index;
}

const char *glmux_egl_winsys_name(int index)
{
    const char *name = NULL;

    if (index < 0)
        return NULL;
    if (index < GLMUX_EGL_IDX_COUNT)
        return builtin_names[index];
    pthread_mutex_lock(&winsys_lock);
    if (index - GLMUX_EGL_IDX_COUNT < extra_count)
        name = extra_names[index - GLMUX_EGL_IDX_COUNT];
    pthread_mutex_unlock(&winsys_lock);
    return name;
}

int glmux_egl_winsys_count(void)
{
    int n;

    pthread_mutex_lock(&winsys_lock);
    n = GLMUX_EGL_IDX_COUNT + extra_count;
    pthread_mutex_unlock(&winsys_lock);
    return n;
}

void glmux_egl_maps_reset_locks(void)
{
    pthread_rwlock_init(&display_map.lock, NULL);
    pthread_rwlock_init(&device_map.lock, NULL);
    pthread_mutex_init(&winsys_lock, NULL);
}

void glmux_egl_maps_teardown(void)
{
    map_free(&display_map);
    map_free(&device_map);
    for (int i = 0; i < extra_count; i++)
        free(extra_names[i]);
    free(extra_names);
    extra_names = NULL;
    extra_count = extra_capacity = 0;
}
