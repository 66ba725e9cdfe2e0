/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLdispatch's dispatch tables. A vendor's table is created empty; its entries are
 * allocated at its first make-current and extended whenever a dynamic slot is handed out
 * while it is current. In assembly builds the entries start as their lazy trampolines
 * (lazy.c); with GLMUX_EAGER_TABLES=1, and in pure-C builds, every slot in use is asked of the
 * vendor at make-current, as libglvnd does, but with glmux_dispatch_lock released (unlike
 * libglvnd): the answers are stored, then counted under the lock with a re-check. A table
 * destroyed while still current somewhere, or while a thread asks its vendor, is freed when
 * the last of those threads lets go of it. In a forked child the list of current tables is
 * forgotten (its lifecycle step). While a GL layer is loaded, each table made current gets a
 * layered twin (layer_chain.c, docs/layers.md).
 */
#define _GNU_SOURCE
#include <pthread.h>
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
/*
 * The threads filling a table eagerly now, each a node on its own stack, under
 * glmux_dispatch_lock: a vendor's getProcAddress that asks for a new name on that thread does
 * not start a second fill of the same table from inside the first.
 */
static struct glmux_busy *fillers;
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
    in_use = dispatch->current_threads > 0 || dispatch->pinned > 0;
    /* Still current somewhere, or its vendor being asked: freed when the last of those
     * threads lets go of it. */
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
 * their chain; the others get what entries holds. The vendor is not asked here: where entries
 * holds a lazy trampoline, a call through the below stub runs it, and it resolves through the
 * twin's back pointer to this table, storing into entries and leaving the layer's function in
 * the twin (lazy.c). A twin made for an earlier chain (layers unloaded and loaded again) is
 * made anew. A dynamic slot whose chain is not set yet (its layers are being asked,
 * layer_chain.c) gets what entries holds for now, and the twin counts as filled only up to
 * it: the next fixup, after the chain is set, starts there again; so does an eager fill that
 * replaces the no-op entries it copied (glmux_table_fill_locked).
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

/*
 * New slots start as the no-op table's entries: their trampolines, which lazy fill keeps (the
 * slots count as filled), or, for eager fill, what a call gets until the vendor's answer is
 * stored (glmux_table_fill_locked; no stub of such a slot is handed out before, procaddr.c).
 * Eager fillers store only below placed, so this copy never overwrites an answer.
 */
static bool entries_fixup(__GLdispatchTable *table, unsigned used)
{
    if (table->entries == NULL) {
        table->entries = alloc_entries(table);
        if (table->entries == NULL)
            return false;
        table->filled = table->placed = 0;
    }
    if (table->placed < used) {
        memcpy(table->entries + table->placed, glmux_noop_table + table->placed,
               sizeof(*table->entries) * (used - table->placed));
        table->placed = used;
    }
    if (!eager_tables)
        table->filled = table->placed;
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

/*
 * The vendor is asked about [from, to) with no lock held: it may ask for a new dynamic name,
 * or wait for a thread that does, or that makes current. Two threads filling one table store
 * the same answers; the first count stored stands, and a larger one wins (both cover every
 * slot below them). The twin copied the no-op entries of [from, to): it copies again from from.
 */
bool glmux_table_fill_locked(__GLdispatchTable *table)
{
    struct glmux_busy me;

    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    while (table->filled < table->placed) {     /* lazy fill: never */
        unsigned from = table->filled, to = table->placed;

        table->pinned++;
        glmux_busy_begin_locked(&fillers, &me, table);
        pthread_mutex_unlock(&glmux_dispatch_lock);
        for (unsigned s = from; s < to; s++)
            __atomic_store_n(&table->entries[s], resolve_slot(table, s), __ATOMIC_RELEASE);
        pthread_mutex_lock(&glmux_dispatch_lock);
        glmux_busy_end_locked(&fillers, &me);
        table->pinned--;
        if (table->filled < to) {
            table->filled = to;
            if (table->layered != NULL && table->layered_filled > from)
                table->layered_filled = from;
        }
        if (table->destroyed && table->current_threads == 0 && table->pinned == 0) {
            free_table(table);
            return false;
        }
        /* Slots handed out meanwhile are placed (and asked about in the next round). */
        if (!glmux_table_fixup(table))
            return false;
    }
    return true;
}

void glmux_tables_fill_current_locked(void)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (!eager_tables)
        return;
    /* Each fill releases the lock: the list may have changed, so the walk starts again. */
    for (__GLdispatchTable *t = current_tables; t != NULL;) {
        if (t->filled < t->placed && !glmux_busy_is_locked(&fillers, t)) {
            if (!glmux_table_fill_locked(t))
                return;     /* out of memory: the slots keep the no-op entries */
            t = current_tables;
        } else {
            t = t->next_current;
        }
    }
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
        if (table->destroyed && table->pinned == 0)
            free_table(table);
    }
}

void glmux_tables_reset(void)
{
    fillers = NULL;     /* the threads that were filling a table are gone */
    while (current_tables != NULL) {
        __GLdispatchTable *t = current_tables;

        current_tables = t->next_current;
        t->next_current = NULL;
        t->current_threads = 0;
        t->pinned = 0;
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
