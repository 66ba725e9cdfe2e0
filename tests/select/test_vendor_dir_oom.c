/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: out of memory during vendor discovery leaves a consistent list. The program
 * is linked with -Wl,--wrap for malloc, calloc, realloc, strdup, strndup and asprintf, so
 * every allocation of glmux's code (discovery, manifests, JSON, file reads, the
 * log) goes through a counter here. Discovery is run once to count its allocations, then again
 * with the first one failing, then the second, and so on through the last. After each run, the
 * list must hold only complete vendors (a name, at least one manifest, every string present),
 * lookups by name must work, and clearing it must free everything (LeakSanitizer checks that in
 * the sanitizer builds). Both the GLMUX_VENDOR_DIRS path (vendors merged by name) and the
 * __EGL_VENDOR_LIBRARY_FILENAMES path are run. Before the fix, a failed strdup of a new
 * vendor's name left a vendor with a NULL name for strcmp to read.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"
#include "select/manifest.h"
#include "select/select.h"
#include "tree.h"

static long calls;       /* allocations since counting started */
static long fail_at;     /* the one to fail (1-based); 0: none */
static long failed;      /* how many were failed */

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

static int fail_now(void)
{
    if (++calls == fail_at) {
        failed++;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t size)
{
    return fail_now() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    return fail_now() ? NULL : __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
    return fail_now() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
    return fail_now() ? NULL : __real_strndup(s, n);
}

int __wrap_asprintf(char **out, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (fail_now())
        return -1;
    va_start(ap, fmt);
    n = vasprintf(out, fmt, ap);
    va_end(ap);
    return n;
}

/* Every vendor complete; lookups by name find each one. */
static void check_consistent(const struct glmux_vendor_list *l, long at)
{
    for (size_t i = 0; i < l->count; i++) {
        const struct glmux_vendor *v = &l->vendors[i];

        CHECK_MSG(v->name != NULL && glmux_manifest_valid_name(v->name),
                  "allocation %ld failed: vendor %zu has no valid name", at, i);
        CHECK_MSG(v->n_manifests >= 1 && v->manifests != NULL,
                  "allocation %ld failed: vendor %s has no manifest", at, v->name);
        for (size_t j = 0; j < v->n_manifests; j++)
            CHECK(v->manifests[j] != NULL);
        CHECK(v->n_drivers == 0 || v->drivers != NULL);
        for (size_t j = 0; j < v->n_drivers; j++)
            CHECK(v->drivers[j] != NULL && glmux_manifest_valid_name(v->drivers[j]));
        CHECK(v->egl_library != NULL || v->glx_library != NULL);
        CHECK(glmux_vendor_list_find(l, v->name) != NULL);
    }
    CHECK(glmux_vendor_list_find(l, "no-such-vendor") == NULL);
    for (size_t i = 0; i < l->n_dirs; i++)
        CHECK(l->dirs[i] != NULL);
}

/* Runs discovery failing each of its allocations in turn; returns how many it makes. */
static long every_failure(const char *what, size_t full_count)
{
    struct glmux_vendor_list l;
    long total;
    bool ok;

    calls = 0;
    fail_at = 0;
    ok = glmux_vendor_list_discover(&l);
    total = calls;
    CHECK(ok && l.count == full_count);
    check_consistent(&l, 0);
    glmux_vendor_list_clear(&l);
    for (long n = 1; n <= total; n++) {
        calls = 0;
        failed = 0;
        fail_at = n;
        ok = glmux_vendor_list_discover(&l);
        fail_at = 0;
        CHECK_MSG(failed == 1, "%s: allocation %ld of %ld was not reached", what, n, total);
        check_consistent(&l, n);
        /* A list that says it is complete is complete. */
        CHECK_MSG(!ok || l.count <= full_count, "%s: allocation %ld: %zu vendors", what, n,
                  l.count);
        glmux_vendor_list_clear(&l);
    }
    printf("%s: %ld allocations, each failed once; the list stayed consistent\n", what, total);
    return total;
}

int main(void)
{
    char root[200], dirs[500], files[800];

    unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");
    unsetenv("__EGL_VENDOR_LIBRARY_DIRS");
    /* The log's first message reads the configuration; its warnings go nowhere. */
    setenv("GLMUX_DEBUG_FILE", "/dev/null", 1);
    setenv("GLMUX_DEBUG", "all", 1);
    snprintf(root, sizeof(root), "%s", tree_new("select-oom"));
    tree_file(root, "one/10_mesa.json",
              "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
              "\"libEGL_mesa.so.0\"}, \"vendor\": {\"name\": \"mesa\"}}");
    tree_file(root, "one/20_amd.json",
              "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
              "\"./libEGL_amd.so.1\"}, \"vendor\": {\"name\": \"amd\", \"priority\": 40, "
              "\"glx_library_path\": \"libGLX_amd.so.0\", \"drivers\": [\"amdgpu\", \"radeon\"]}}");
    tree_file(root, "one/30_broken.json", "{\"file_format_version\": \"1.0.0\",");
    tree_file(root, "two/50_mesa.json",
              "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
              "\"/elsewhere/libEGL_mesa.so.0\"}, \"vendor\": {\"name\": \"mesa\", "
              "\"glx_library_path\": \"libGLX_mesa.so.0\", \"drivers\": [\"i915\", \"xe\"]}}");
    tree_file(root, "two/60_nvidia.json",
              "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
              "\"libEGL_nvidia.so.0\"}}");

    /* Vendor directories: mesa merged from two files, amd with drivers, one file refused. */
    snprintf(dirs, sizeof(dirs), "%s/one:%s/two", root, root);
    setenv("GLMUX_VENDOR_DIRS", dirs, 1);
    every_failure("GLMUX_VENDOR_DIRS", 3);
    unsetenv("GLMUX_VENDOR_DIRS");

    /* libglvnd's file list: each file its own entry. */
    snprintf(files, sizeof(files), "%s/one/10_mesa.json:%s/one/20_amd.json:%s/two/50_mesa.json",
             root, root, root);
    setenv("__EGL_VENDOR_LIBRARY_FILENAMES", files, 1);
    every_failure("__EGL_VENDOR_LIBRARY_FILENAMES", 3);
    unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");

    tree_remove(root);
    return 0;
}
