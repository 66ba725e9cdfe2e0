/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the handle maps (EGLDisplay → vendor, EGLDeviceEXT → vendor) and the list of
 * winsys dispatch names. The maps are winsys pointer maps under a read-write lock:
 * every display-dispatched call does one lookup, so reads never block each other. Displays
 * stay mapped for the life of the process (eglTerminate keeps them), as in libglvnd.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maps.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "winsys/winsys.h"

/* A winsys pointer map under a read-write lock. */
struct vendor_map {
    pthread_rwlock_t lock;
    struct glmux_ptrmap map;
};

static struct vendor_map display_map = { .lock = PTHREAD_RWLOCK_INITIALIZER };
static struct vendor_map device_map = { .lock = PTHREAD_RWLOCK_INITIALIZER };

static glmux_egl_vendor *map_get(struct vendor_map *m, const void *key)
{
    glmux_egl_vendor *v;

    if (key == NULL)
        return NULL;
    pthread_rwlock_rdlock(&m->lock);
    v = glmux_ptrmap_get(&m->map, (uintptr_t)key);
    pthread_rwlock_unlock(&m->lock);
    return v;
}

/*
 * Maps key to vendor. With overwrite false an existing entry for another vendor wins and
 * the call fails. False on allocation failure.
 */
static bool map_put(struct vendor_map *m, void *key, glmux_egl_vendor *vendor, bool overwrite)
{
    glmux_egl_vendor *old;
    bool ok = true;

    pthread_rwlock_wrlock(&m->lock);
    old = glmux_ptrmap_get(&m->map, (uintptr_t)key);
    if (old == NULL || (old != vendor && overwrite))
        ok = glmux_ptrmap_put(&m->map, (uintptr_t)key, vendor);
    else if (old != vendor)
        ok = false;
    pthread_rwlock_unlock(&m->lock);
    return ok;
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
/* Names vendors' stubs added: index GLMUX_EGL_IDX_COUNT + i; data is the stub handed out. */
static struct glmux_names extra_names;

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

int glmux_egl_winsys_find(const char *name)
{
    int index = builtin_find(name);

    if (index >= 0)
        return index;
    pthread_mutex_lock(&winsys_lock);
    index = glmux_names_find(&extra_names, name);
    pthread_mutex_unlock(&winsys_lock);
    return index < 0 ? -1 : GLMUX_EGL_IDX_COUNT + index;
}

int glmux_egl_winsys_add(const char *name, void *stub)
{
    int index = builtin_find(name);

    if (index >= 0)
        return index;
    pthread_mutex_lock(&winsys_lock);
    index = glmux_names_add(&extra_names, name);
    if (index >= 0 && stub != NULL && extra_names.items[index].data == NULL)
        extra_names.items[index].data = stub;
    pthread_mutex_unlock(&winsys_lock);
    return index < 0 ? -1 : GLMUX_EGL_IDX_COUNT + index;
}

void *glmux_egl_winsys_stub(int index)
{
    void *stub = NULL;

    pthread_mutex_lock(&winsys_lock);
    if (index >= GLMUX_EGL_IDX_COUNT && index - GLMUX_EGL_IDX_COUNT < extra_names.count)
        stub = extra_names.items[index - GLMUX_EGL_IDX_COUNT].data;
    pthread_mutex_unlock(&winsys_lock);
    return stub;
}

const char *glmux_egl_winsys_name(int index)
{
    const char *name = NULL;

    if (index < 0)
        return NULL;
    if (index < GLMUX_EGL_IDX_COUNT)
        return builtin_names[index];
    pthread_mutex_lock(&winsys_lock);
    name = glmux_names_get(&extra_names, index - GLMUX_EGL_IDX_COUNT);
    pthread_mutex_unlock(&winsys_lock);
    return name;
}

int glmux_egl_winsys_count(void)
{
    int n;

    pthread_mutex_lock(&winsys_lock);
    n = GLMUX_EGL_IDX_COUNT + extra_names.count;
    pthread_mutex_unlock(&winsys_lock);
    return n;
}

/* Around fork: the maps' locks and winsys_lock. */
static void maps_fork(enum glmux_fork_step step)
{
    glmux_fork_rwlock(&display_map.lock, step);
    glmux_fork_rwlock(&device_map.lock, step);
    glmux_fork_mutex(&winsys_lock, step);
}

static void maps_teardown(void)
{
    glmux_ptrmap_clear(&display_map.map);
    glmux_ptrmap_clear(&device_map.map);
    glmux_names_clear(&extra_names);
}

GLMUX_LIFECYCLE_STEP(egl_maps, 10, .fork = maps_fork, .teardown = maps_teardown);
