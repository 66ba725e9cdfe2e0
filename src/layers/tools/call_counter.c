/* SPDX-License-Identifier: MIT */
/*
 * glmux_call_counter, a GL layer (docs/layers.md): counts the calls of every GL, GLES, GLX
 * and EGL function the program makes and, when glmux unloads the layer or the process exits,
 * writes one line per function called, "count name", most called first, to the file
 * GLMUX_CALL_COUNT_FILE names (appended to; default: standard error) -- what apitrace's
 * `--calls` is used for, without tracing. A layer can forward only calls whose signature it
 * knows, so it counts the functions the Khronos registry (gl.xml, glx.xml, egl.xml) describes:
 * a typed wrapper each, generated at build time (gen_call_counter.py). For any other name
 * (a vendor's private function) it declines, and the report says how many names it declined.
 * Written against include/glmux/glmux_layer.h only.
 */
#define _GNU_SOURCE
#include <glmux/glmux_layer.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "call_counter.h"

static const struct glmux_cc_table *const tables[] = { &glmux_cc_gl, &glmux_cc_glx, &glmux_cc_egl };
static _Atomic unsigned declined;    /* names asked about that no table has */
static atomic_flag reported = ATOMIC_FLAG_INIT;

/* The table for a name's API: glmux says which API it is asking about. */
static const struct glmux_cc_table *table_of(uint32_t api)
{
    if (api & GLMUX_LAYER_API_GL)
        return &glmux_cc_gl;
    if (api & GLMUX_LAYER_API_GLX)
        return &glmux_cc_glx;
    if (api & GLMUX_LAYER_API_EGL)
        return &glmux_cc_egl;
    return NULL;
}

/* glmux asks once per name (from any thread): answer with our wrapper, having stored the
 * function below us for it to call; decline (return next) where we have no wrapper. */
static void *get_proc_address(const char *name, uint32_t api, void *next)
{
    const struct glmux_cc_table *t = table_of(api);
    if (!t || !next) {
        return next;
    }
    unsigned lo = 0, hi = t->count;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        int cmp = strcmp(name, t->names[mid]);
        if (cmp == 0) {
            atomic_store_explicit(&t->next[mid], next, memory_order_release);
            return t->wrappers[mid];
        }
        if (cmp < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    atomic_fetch_add_explicit(&declined, 1, memory_order_relaxed);
    return next;
}

struct row {
    unsigned long long count;
    const char *name;
};

static int by_count(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* Writes the report once: at unload, or at the process's exit when glmux did not unload us. */
static void report(void)
{
    if (atomic_flag_test_and_set(&reported))
        return;
    size_t total = 0;
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        total += tables[i]->count;
    struct row *rows = calloc(total, sizeof *rows);
    if (!rows)
        return;
    size_t n = 0;
    unsigned long long calls = 0;
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        const struct glmux_cc_table *t = tables[i];
        for (unsigned j = 0; j < t->count; j++) {
            unsigned long long c = atomic_load_explicit(&t->counts[j], memory_order_relaxed);
            if (c) {
                rows[n++] = (struct row){ c, t->names[j] };
                calls += c;
            }
        }
    }
    qsort(rows, n, sizeof *rows, by_count);
    /* secure_getenv: a setuid program never writes where its caller's environment says. */
    const char *path = secure_getenv("GLMUX_CALL_COUNT_FILE");
    FILE *out = path && *path ? fopen(path, "ae") : NULL;
    if (path && *path && !out)
        fprintf(stderr, "glmux_call_counter: cannot open %s; the counts follow here\n", path);
    FILE *f = out ? out : stderr;
    fprintf(f, "# glmux_call_counter: pid %ld, %llu calls of %zu functions; %u names asked "
            "about were not counted (no prototype in the registry)\n",
            (long)getpid(), calls, n, atomic_load(&declined));
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%llu %s\n", rows[i].count, rows[i].name);
    if (out)
        fclose(out);
    else
        fflush(stderr);
    free(rows);
}

/* A child of fork() starts counting from zero, and reports its own calls if it exits
 * normally (a child that execs or calls _exit reports nothing). */
static void after_fork_child(void)
{
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        for (unsigned j = 0; j < tables[i]->count; j++)
            atomic_store_explicit(&tables[i]->counts[j], 0, memory_order_relaxed);
    atomic_store(&declined, 0);
    atomic_flag_clear(&reported);
}

/* Runs at dlclose or exit: the report of a process that glmux did not unload us in. */
__attribute__((destructor)) static void at_exit(void)
{
    report();
}

__attribute__((visibility("default"))) int glmux_layer_negotiate(struct glmux_layer_negotiate *n)
{
    if (n->size < sizeof *n || GLMUX_LAYER_ABI_GET_MAJOR(n->abi_version) != GLMUX_LAYER_ABI_MAJOR)
        return 1;
    n->abi_version = GLMUX_LAYER_ABI_VERSION;
    n->get_proc_address = get_proc_address;
    n->unload = report;
    static atomic_flag registered = ATOMIC_FLAG_INIT;
    if (!atomic_flag_test_and_set(&registered))
        pthread_atfork(NULL, NULL, after_fork_child);
    return 0;
}
