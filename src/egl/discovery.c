/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: building the ordered list of vendor manifests and loading it, once per
 * process, on the first EGL call that needs vendors. The list builder and the loader are
 * separate so that the glmux vendor directory and a GPU-aware order can add candidates or
 * reorder them before anything is dlopened. GLMUX_DEBUG=vendor explains every step.
 */
#define _GNU_SOURCE
#include "manifest.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egl_internal.h"
#include "util/env.h"
#include "util/log.h"

#ifndef GLMUX_EGL_VENDOR_DIRS
#define GLMUX_EGL_VENDOR_DIRS "/etc/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d"
#endif

static const char *const source_names[] = {
    [GLMUX_EGL_SOURCE_FILENAMES] = "__EGL_VENDOR_LIBRARY_FILENAMES",
    [GLMUX_EGL_SOURCE_ENV_DIRS] = "__EGL_VENDOR_LIBRARY_DIRS",
    [GLMUX_EGL_SOURCE_DEFAULT_DIRS] = "default directories",
};

bool glmux_egl_candidates_add(struct glmux_egl_candidates *list, const char *manifest,
                              enum glmux_egl_source source)
{
    char *copy;

    if (list->count == list->capacity) {
        size_t cap = list->capacity ? list->capacity * 2 : 8;
        struct glmux_egl_candidate *n = realloc(list->items, sizeof(*n) * cap);

        if (n == NULL)
            return false;
        list->items = n;
        list->capacity = cap;
    }
    copy = strdup(manifest);
    if (copy == NULL)
        return false;
    list->items[list->count].manifest = copy;
    list->items[list->count].source = source;
    list->count++;
    return true;
}

static int json_filter(const struct dirent *e)
{
    size_t n = strlen(e->d_name);

    if (e->d_type != DT_REG && e->d_type != DT_LNK && e->d_type != DT_UNKNOWN)
        return 0;
    return n > 5 && strcmp(e->d_name + n - 5, ".json") == 0;
}

static int by_strcmp(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

void glmux_egl_candidates_add_dir(struct glmux_egl_candidates *list, const char *dir,
                                  enum glmux_egl_source source)
{
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, json_filter, by_strcmp);

    if (n < 0) {
        glmux_log(GLMUX_LOG_VENDOR, "EGL vendor directory %s: cannot read it (%m)", dir);
        return;
    }
    glmux_log(GLMUX_LOG_VENDOR, "EGL vendor directory %s (%s): %d manifest(s)", dir,
              source_names[source], n);
    for (int i = 0; i < n; i++) {
        char *path;

        if (asprintf(&path, "%s/%s", dir, entries[i]->d_name) >= 0) {
            glmux_egl_candidates_add(list, path, source);
            free(path);
        }
        free(entries[i]);
    }
    free(entries);
}

/* Calls fn for each non-empty ':'-separated element of value. */
static void for_each_element(const char *value, void (*fn)(const char *, void *), void *data)
{
    char *copy = strdup(value), *save = NULL;

    if (copy == NULL)
        return;
    for (char *t = strtok_r(copy, ":", &save); t != NULL; t = strtok_r(NULL, ":", &save))
        fn(t, data);
    free(copy);
}

struct add_ctx {
    struct glmux_egl_candidates *list;
    enum glmux_egl_source source;
};

static void add_file(const char *path, void *data)
{
    struct add_ctx *c = data;

    glmux_egl_candidates_add(c->list, path, c->source);
}

static void add_dir(const char *path, void *data)
{
    struct add_ctx *c = data;

    glmux_egl_candidates_add_dir(c->list, path, c->source);
}

void glmux_egl_candidates_build(struct glmux_egl_candidates *list)
{
    const char *files = glmux_env_get("__EGL_VENDOR_LIBRARY_FILENAMES");
    const char *dirs = glmux_env_get("__EGL_VENDOR_LIBRARY_DIRS");
    struct add_ctx c = { .list = list };

    if (glmux_env_is_secure())
        glmux_log(GLMUX_LOG_VENDOR, "secure-execution process: ignoring "
                  "__EGL_VENDOR_LIBRARY_FILENAMES and __EGL_VENDOR_LIBRARY_DIRS");
    if (files != NULL && files[0] != '\0') {
        glmux_log(GLMUX_LOG_VENDOR, "__EGL_VENDOR_LIBRARY_FILENAMES=%s: loading only these",
                  files);
        c.source = GLMUX_EGL_SOURCE_FILENAMES;
        for_each_element(files, add_file, &c);
        return;
    }
    if (dirs != NULL && dirs[0] != '\0') {
        glmux_log(GLMUX_LOG_VENDOR, "__EGL_VENDOR_LIBRARY_DIRS=%s", dirs);
        c.source = GLMUX_EGL_SOURCE_ENV_DIRS;
        for_each_element(dirs, add_dir, &c);
        return;
    }
    c.source = GLMUX_EGL_SOURCE_DEFAULT_DIRS;
    for_each_element(GLMUX_EGL_VENDOR_DIRS, add_dir, &c);
}

void glmux_egl_candidates_free(struct glmux_egl_candidates *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->items[i].manifest);
    free(list->items);
    list->items = NULL;
    list->count = list->capacity = 0;
}

/* ---- the vendor list ---- */

static pthread_once_t vendors_once = PTHREAD_ONCE_INIT;
static glmux_egl_vendor *vendor_list;
static bool vendors_done;

static void load_vendors(void)
{
    struct glmux_egl_candidates list = { 0 };
    glmux_egl_vendor **tail = &vendor_list;
    int loaded = 0;

    if (!glmux_egl_usable())
        return;
    glmux_egl_candidates_build(&list);
    for (size_t i = 0; i < list.count; i++) {
        const char *manifest = list.items[i].manifest;
        char *library = NULL;
        glmux_egl_vendor *v;

        glmux_log(GLMUX_LOG_VENDOR, "reading EGL manifest %s", manifest);
        if (!glmux_egl_manifest_read(manifest, &library))
            continue;
        v = glmux_egl_vendor_load(library, manifest, vendor_list);
        free(library);
        if (v == NULL)
            continue;
        *tail = v;
        tail = &v->next;
        loaded++;
    }
    if (loaded == 0) {
        glmux_log(GLMUX_LOG_WARN | GLMUX_LOG_VENDOR, "no EGL vendor library loaded; searched %s; set "
                  "GLMUX_DEBUG=vendor to see why",
                  glmux_env_get("__EGL_VENDOR_LIBRARY_FILENAMES") ? "__EGL_VENDOR_LIBRARY_FILENAMES"
                  : glmux_env_get("__EGL_VENDOR_LIBRARY_DIRS") ? glmux_env_get("__EGL_VENDOR_LIBRARY_DIRS")
                  : GLMUX_EGL_VENDOR_DIRS);
    } else {
        glmux_log(GLMUX_LOG_VENDOR, "%d EGL vendor(s) loaded", loaded);
    }
    glmux_egl_candidates_free(&list);
    __atomic_store_n(&vendors_done, true, __ATOMIC_RELEASE);
}

glmux_egl_vendor *glmux_egl_vendors(void)
{
    pthread_once(&vendors_once, load_vendors);
    return vendor_list;
}

glmux_egl_vendor *glmux_egl_vendors_loaded(void)
{
    return __atomic_load_n(&vendors_done, __ATOMIC_ACQUIRE) ? vendor_list : NULL;
}

void glmux_egl_vendors_teardown(bool keep_tables)
{
    glmux_egl_vendor *v = vendor_list;

    vendor_list = NULL;
    if (keep_tables)
        glmux_log(GLMUX_LOG_WARN, "libEGL unloaded while other threads have EGL contexts "
                  "current; their GL calls go to unloaded vendors from now on");
    while (v != NULL) {
        glmux_egl_vendor *next = v->next;

        if (keep_tables)
            v->gl_table = NULL;

        glmux_egl_vendor_free(v);
        v = next;
    }
}
