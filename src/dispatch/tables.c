/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLdispatch's dispatch tables. A vendor's table is created empty; its entries are
 * allocated at its first make-current and extended whenever a dynamic slot is handed out
 * while it is current. In assembly builds the entries start as their lazy trampolines
 * (lazy.c); with GLMUX_EAGER_TABLES=1, and in pure-C builds, every slot in use is asked of the
 * vendor at make-current, as libglvnd does. A table destroyed while still current somewhere
 * is freed when the last of those threads lets go of it. In a forked child the list of
 * current tables is forgotten (its lifecycle step). While a GL layer is loaded, each table
 * made current gets a layered twin (layer_chain.c, docs/layers.md).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "floor.h"
#include "layer_chain.h"
#include "slots.h"
#include "tables.h"
#include "util/env.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/log.h"

static __GLdispatchTable *current_tables;
#if GLMUX_HAVE_LAZY
static bool eager_tables;       /* GLMUX_EAGER_TABLES: fill at make-current, not lazily */
#else
static const bool eager_tables = true;
#endif

/*
 * A table's entries are preceded by a pointer back to the table, so that the lazy resolver can
 * find the table from the entries pointer in _glapi_tls_Current.
 */
static const void **alloc_entries(__GLdispatchTable *table)
{
    const void **block = malloc(sizeof(*block) * (GLMUX_TOTAL_SLOTS + 1));

    if (block == NULL)
        return NULL;
    block[0] = table;
    return block + 1;
}

static void free_entries(const void **entries)
{
    if (entries != NULL)
        free(entries - 1);
}

static void free_table(__GLdispatchTable *table)
{
    free_entries(table->entries);
    free_entries(table->layered);
    free(table);
}

__GLdispatchTable *__glDispatchCreateTable(__GLgetProcAddressCallback getProcAddress, void *param)
{
    __GLdispatchTable *table;

    if (getProcAddress == NULL)
        return NULL;
    table = calloc(1, sizeof(*table));
    if (table == NULL) {
        glmux_log(GLMUX_LOG_ERROR, "out of memory creating a dispatch table");
        return NULL;
    }
    table->get_proc_address = getProcAddress;
    table->param = param;
    return table;
}

void __glDispatchDestroyTable(__GLdispatchTable *dispatch)
{
    bool in_use;

    if (dispatch == NULL)
        return;
    pthread_mutex_lock(&glmux_dispatch_lock);
    in_use = dispatch->current_threads > 0;
    /* Still current somewhere: freed when the last of those threads lets go of it. */
    dispatch->destroyed = in_use;
    pthread_mutex_unlock(&glmux_dispatch_lock);
    if (in_use)
        glmux_log(GLMUX_LOG_DISPATCH, "dispatch table destroyed while current on %d thread(s); "
                  "freed when released", dispatch->current_threads);
    else
        free_table(dispatch);
}

static const void *resolve_slot(__GLdispatchTable *table, unsigned slot)
{
    const char *name = glmux_slot_name(slot);
    const void *proc = name ? table->get_proc_address(name, table->param) : NULL;

    return proc != NULL ? proc : glmux_noop_table[slot];
}

/*
 * The layered twin of a table (a GL layer is loaded): slots a layer intercepts get the top of
 * their chain, and the vendor's own function in entries at once (the below stubs jump through
 * entries; a lazy trampoline there would resolve through the twin); the others get what entries
 * holds. A twin made for an earlier chain (layers unloaded and loaded again) is made anew. A
 * dynamic slot whose chain is not set yet (its layers are being asked, layer_chain.c) gets what
 * entries holds for now, and the twin counts as filled only up to it: the next fixup, after
 * the chain is set, starts there again.
 */
static bool twin_fixup(__GLdispatchTable *table, const struct glmux_chain_gl *gl, unsigned used)
{
    unsigned filled = used;

    if (table->layered == NULL) {
        table->layered = alloc_entries(table);
        if (table->layered == NULL)
            return false;
        table->layered_filled = 0;
    }
    if (table->layered_generation != gl->generation) {
        table->layered_generation = gl->generation;
        table->layered_filled = 0;
    }
    for (unsigned s = table->layered_filled; s < used; s++) {
        const void *top = gl->top[s];

        if (filled == used && !__atomic_load_n(&gl->done[s], __ATOMIC_ACQUIRE))
            filled = s;
        if (top != NULL) {
            if (table->entries[s] == glmux_noop_table[s])
                __atomic_store_n(&table->entries[s], resolve_slot(table, s), __ATOMIC_RELEASE);
            __atomic_store_n(&table->layered[s], top, __ATOMIC_RELEASE);
        } else {
            __atomic_store_n(&table->layered[s],
                             __atomic_load_n(&table->entries[s], __ATOMIC_ACQUIRE),
                             __ATOMIC_RELEASE);
        }
    }
    table->layered_filled = filled;
    return true;
}

static bool entries_fixup(__GLdispatchTable *table, unsigned used)
{
    if (table->entries == NULL) {
        table->entries = alloc_entries(table);
        if (table->entries == NULL)
            return false;
        table->filled = 0;
    }
    if (table->filled >= used)
        return true;
    if (eager_tables) {
        for (; table->filled < used; table->filled++)
            __atomic_store_n(&table->entries[table->filled],
                             resolve_slot(table, table->filled), __ATOMIC_RELEASE);
        return true;
    }
    /* Lazy: the slots not set yet start as their trampolines. */
    memcpy(table->entries + table->filled, glmux_noop_table + table->filled,
           sizeof(*table->entries) * (used - table->filled));
    table->filled = used;
    return true;
}

bool glmux_table_fixup(__GLdispatchTable *table)
{
    unsigned used = glmux_slots_used();
    const struct glmux_chain_gl *gl;

    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (!entries_fixup(table, used))
        return false;
    gl = glmux_chain_gl_now();
    if (__builtin_expect(gl != NULL, 0))
        return twin_fixup(table, gl, used);
    return true;
}

const void **glmux_table_twin_locked(__GLdispatchTable *table)
{
    const struct glmux_chain_gl *gl = glmux_chain_gl_now();

    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (__builtin_expect(gl == NULL, 1) || table->layered == NULL ||
        table->layered_generation != gl->generation)
        return NULL;
    return table->layered;
}

void glmux_tables_fixup_current(void)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    for (__GLdispatchTable *t = current_tables; t != NULL; t = t->next_current)
        glmux_table_fixup(t);
}

void glmux_table_current_add_locked(__GLdispatchTable *table)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (table->current_threads++ == 0) {
        table->next_current = current_tables;
        current_tables = table;
    }
}

static void unlink_current_table(__GLdispatchTable *table)
{
    for (__GLdispatchTable **p = &current_tables; *p != NULL; p = &(*p)->next_current) {
        if (*p == table) {
            *p = table->next_current;
            table->next_current = NULL;
            return;
        }
    }
}

void glmux_table_current_drop_locked(__GLdispatchTable *table)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (--table->current_threads == 0) {
        unlink_current_table(table);
        if (table->destroyed)
            free_table(table);
    }
}

void glmux_tables_reset(void)
{
    while (current_tables != NULL) {
        __GLdispatchTable *t = current_tables;

        current_tables = t->next_current;
        t->next_current = NULL;
        t->current_threads = 0;
        if (t->destroyed)
            free_table(t);
    }
    glmux_dispatch_current_count = 0;
}

/* At the first __glDispatchInit. */
static void tables_init(void)
{
#if GLMUX_HAVE_LAZY
    eager_tables = glmux_env_get_flag("GLMUX_EAGER_TABLES");
#endif
}

GLMUX_LIFECYCLE_STEP(dispatch_tables, 50, .init = tables_init, .child = glmux_tables_reset);
