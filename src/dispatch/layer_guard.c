/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLdispatch's side of the GL layers' re-entry guard (layer_guard.h). At a load of
 * the chain with layers loaded and GLMUX_DEBUG=layer, the guard library is opened from the
 * folder glmux/ beside libGLdispatch's own file (found with dladdr: the same in the build tree
 * and in every installed prefix); it stays mapped (RTLD_NODELETE). dladdr is looked up with
 * dlsym, which libGLdispatch imports anyway: a direct call would add an imported symbol, and a
 * relocation at every start-up, for a debugging aid. A missing or mismatched guard is said once
 * at the layer level, and the chain goes on without it. Its reports are rate-limited here: each
 * pair of functions once, at most GUARD_REPORTS messages a process. Without the debug category
 * none of this runs: the chain's load asks glmux_log_enabled once.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "layer_guard.h"
#include "util/log.h"

/* The guard once opened (the library is never closed), and whether this chain uses it. */
static const struct glmux_guard *opened;
static bool tried;                  /* the loader thread only */
static bool on;                     /* atomic */

#define GUARD_REPORTS 8
static uint32_t reported[GUARD_REPORTS];    /* atomic: the pairs reported, 0: free */

/* Each pair once, the first GUARD_REPORTS pairs only: a pair takes the first free cell. */
static void report(const char *called, const char *running, uint32_t pair)
{
    unsigned i;

    for (i = 0; i < GUARD_REPORTS; i++) {
        uint32_t have = __atomic_load_n(&reported[i], __ATOMIC_ACQUIRE);

        if (have == pair)
            return;
        if (have == 0 && __atomic_compare_exchange_n(&reported[i], &have, pair, false,
                                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            break;
        if (have == pair)
            return;     /* another thread took this cell for the same pair */
    }
    if (i == GUARD_REPORTS)
        return;
    glmux_log(GLMUX_LOG_LAYER, "%s was called from inside the layer chain of %s: a layer called "
              "the public %s from its hook, so that call passes through every layer again; a "
              "layer calls on through the next pointer it was given or get_next "
              "(docs/layers.md)%s", called, running, called,
              i + 1 == GUARD_REPORTS ? "; further re-entries are not reported" : "");
}

static const struct glmux_guard_host host = {
    .version = GLMUX_GUARD_VERSION,
    .report = report,
};

/* Opens the guard in dir; NULL (with why in err) when it cannot. */
static const struct glmux_guard *open_in(const char *dir, char *path, size_t size, char *err,
                                         size_t err_size)
{
    glmux_guard_open_fn open_fn;
    const struct glmux_guard *g;
    void *h;

    snprintf(path, size, "%s/" GLMUX_GUARD_FOLDER "/" GLMUX_GUARD_LIBRARY, dir);
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (h == NULL) {
        const char *e = dlerror();     /* names the file */

        snprintf(err, err_size, "%s", e != NULL ? e : path);
        return NULL;
    }
    *(void **)&open_fn = dlsym(h, GLMUX_GUARD_OPEN);
    g = open_fn != NULL ? open_fn(&host) : NULL;
    if (g == NULL || g->version != GLMUX_GUARD_VERSION || g->wrap == NULL) {
        snprintf(err, err_size, "%s is not a guard of this libGLdispatch (interface version "
                 "%u)", path, GLMUX_GUARD_VERSION);
        dlclose(h);     /* RTLD_NODELETE: stays mapped, unused */
        return NULL;
    }
    return g;
}

static const struct glmux_guard *find_guard(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 64], err[PATH_MAX + 256] = "";
    int (*addr_info)(const void *, Dl_info *);
    const struct glmux_guard *g;
    Dl_info info;
    char *slash;

    *(void **)&addr_info = dlsym(RTLD_DEFAULT, "dladdr");
    if (addr_info == NULL || addr_info((void *)(uintptr_t)glmux_guard_load, &info) == 0 ||
        info.dli_fname == NULL ||
        snprintf(dir, sizeof(dir), "%s", info.dli_fname) >= (int)sizeof(dir) ||
        (slash = strrchr(dir, '/')) == NULL) {
        glmux_log(GLMUX_LOG_LAYER, "the layer re-entry guard is off: libGLdispatch's own file "
                  "is unknown; a layer calling public GL functions from its hooks is not "
                  "reported");
        return NULL;
    }
    *slash = '\0';
    g = open_in(dir, path, sizeof(path), err, sizeof(err));
    if (g == NULL)
        glmux_log(GLMUX_LOG_LAYER, "the layer re-entry guard is off: %s; a layer calling "
                  "public GL functions from its hooks is not reported (the guard ships with "
                  "libGLdispatch)", err);
    else
        glmux_log(GLMUX_LOG_LAYER, "layer re-entry guard %s: a layer's public GL calls from "
                  "its hooks are reported (GL calls are slower while GLMUX_DEBUG has layer)",
                  path);
    return g;
}

bool glmux_guard_load(void)
{
    if (!glmux_log_enabled(GLMUX_LOG_LAYER))
        return false;
    if (!tried) {
        tried = true;
        __atomic_store_n(&opened, find_guard(), __ATOMIC_RELEASE);
    }
    __atomic_store_n(&on, __atomic_load_n(&opened, __ATOMIC_ACQUIRE) != NULL, __ATOMIC_RELEASE);
    return __atomic_load_n(&on, __ATOMIC_ACQUIRE);
}

void glmux_guard_drop(void)
{
    __atomic_store_n(&on, false, __ATOMIC_RELEASE);
}

void *glmux_guard_wrap(const char *name, uint32_t api, enum glmux_guard_where where, void *next)
{
    const struct glmux_guard *g;

    if (!__atomic_load_n(&on, __ATOMIC_ACQUIRE))
        return NULL;
    g = __atomic_load_n(&opened, __ATOMIC_ACQUIRE);
    return g != NULL ? g->wrap(name, api, where, next) : NULL;
}
