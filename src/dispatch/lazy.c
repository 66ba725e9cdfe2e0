/* SPDX-License-Identifier: MIT */
/*
 * glmux: lazy filling of dispatch tables (assembly builds). Every slot of a table starts as
 * its resolver trampoline (glmux_lazy.S), and the first call through it asks the vendor once:
 * a process pays only for the functions it calls, not for all 3352 lookups at the first
 * make-current (GLMUX_EAGER_TABLES=1 fills every slot at make-current instead, as libglvnd
 * does: tables.c). glmux_noop_table, the table of threads without a context (floor.c), holds
 * the same trampolines: the resolver sees that no table is current and answers with a no-op.
 * It is filled when the library is loaded (static slots) and when a dynamic slot is handed
 * out, rather than by relocations: the generated code and data hold no pointers.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "floor.h"
#include "lazy.h"
#include "slots.h"
#include "tables.h"

#if GLMUX_HAVE_LAZY
extern const char glmux_lazy_start[];

static const void *lazy_address(unsigned slot)
{
    return glmux_lazy_start + (size_t)(slot / GLMUX_LAZY_GROUP) * GLMUX_LAZY_GROUP_BYTES +
           (size_t)(slot % GLMUX_LAZY_GROUP) * GLMUX_LAZY_SIZE;
}

/* Slots 0..n-1 of out, whose trampolines lie back to back from base: two slots a store,
 * eight a round. */
static inline void fill_run(const void **out, uintptr_t base, unsigned n)
{
    typedef uintptr_t pair __attribute__((vector_size(2 * sizeof(uintptr_t))));
    const pair step = { 8 * GLMUX_LAZY_SIZE, 8 * GLMUX_LAZY_SIZE };
    pair p0 = { base, base + GLMUX_LAZY_SIZE };
    pair p1 = p0 + 2 * GLMUX_LAZY_SIZE, p2 = p0 + 4 * GLMUX_LAZY_SIZE;
    pair p3 = p0 + 6 * GLMUX_LAZY_SIZE;
    const unsigned rounds = n / 8;

    /* Counted by rounds, not by j + 8 <= n: with a constant n, gcc for i386 could not bound j
     * after a loop of that form and warned that the tail loop overflows (a false alarm). */
    for (unsigned r = 0; r < rounds; r++) {
        const void **o = out + (size_t)r * 8;

        memcpy(o, &p0, sizeof(p0));
        memcpy(o + 2, &p1, sizeof(p1));
        memcpy(o + 4, &p2, sizeof(p2));
        memcpy(o + 6, &p3, sizeof(p3));
        p0 += step, p1 += step, p2 += step, p3 += step;
    }
    for (unsigned j = rounds * 8; j < n; j++)
        out[j] = (const void *)(base + (uintptr_t)j * GLMUX_LAZY_SIZE);
}

/*
 * Runs when the library is loaded, before main() of every GL program, for 3352 slots. A slot
 * at a time cost six instructions a slot, two thirds of glmux's own instructions up to the
 * first EGL context; fill_run's stores of two cost about one (docs/performance.md).
 */
__attribute__((constructor)) static void fill_noop_table(void)
{
    uintptr_t group = (uintptr_t)glmux_lazy_start;

#if GLMUX_LAZY_GROUP == 1
    fill_run(glmux_noop_table, group, GLMUX_STATIC_SLOTS);  /* one cell a slot, no gaps */
#else
    for (unsigned first = 0; first < GLMUX_STATIC_SLOTS; first += GLMUX_LAZY_GROUP) {
        unsigned n = GLMUX_STATIC_SLOTS - first < GLMUX_LAZY_GROUP ? GLMUX_STATIC_SLOTS - first
                                                                     : GLMUX_LAZY_GROUP;

        fill_run(glmux_noop_table + first, group, n);
        group += GLMUX_LAZY_GROUP_BYTES;
    }
#endif
}

void glmux_slot_prepare(unsigned slot)
{
    glmux_noop_table[slot] = lazy_address(slot);
}

/* What a call through a slot runs when there is no function for it: returns 0. */
static intptr_t noop_return(void)
{
    return 0;
}

/*
 * Stores what a slot resolved to. entries is what _glapi_tls_Current points at: the table's own
 * entries, or while a GL layer is loaded its layered twin (tables.c). Then the vendor's own
 * table gets the function (the call may have come through a below stub), and the twin's slot
 * is replaced only while it still holds the trampoline: where a layer intercepts the slot it
 * holds the layer's function, which must stay.
 */
static void store_resolved(__GLdispatchTable *table, const void **entries, unsigned slot,
                           const void *proc)
{
    const void *trampoline = lazy_address(slot);

    if (__builtin_expect(entries == table->entries, 1)) {
        __atomic_store_n(&entries[slot], proc, __ATOMIC_RELEASE);
        return;
    }
    __atomic_compare_exchange_n(&table->entries[slot], &trampoline, proc, false,
                                __ATOMIC_RELEASE, __ATOMIC_RELAXED);
    trampoline = lazy_address(slot);
    __atomic_compare_exchange_n(&entries[slot], &trampoline, proc, false, __ATOMIC_RELEASE,
                                __ATOMIC_RELAXED);
}

__attribute__((visibility("hidden"))) const void *glmux_lazy_resolve(unsigned slot);
const void *glmux_lazy_resolve(unsigned slot)
{
    const void **entries = (const void **)_glapi_tls_Current[0];
    __GLdispatchTable *table;
    const char *name;
    const void *proc = NULL;

    if (slot >= GLMUX_TOTAL_SLOTS)
        return (const void *)noop_return;
    if (entries != NULL && entries != glmux_noop_table) {
        table = (__GLdispatchTable *)entries[-1];
        name = glmux_slot_name(slot);
        proc = name ? table->get_proc_address(name, table->param) : NULL;
        if (proc != NULL) {
            store_resolved(table, entries, slot, proc);
            return proc;
        }
    }
    /* No context, or the vendor lacks the function. While calls without a function are
     * reported, the slot keeps its trampoline so that every such call is reported. */
    glmux_dispatch_noop(slot);
    if (entries != NULL && entries != glmux_noop_table && !glmux_dispatch_noop_reported())
        store_resolved((__GLdispatchTable *)entries[-1], entries, slot,
                       (const void *)noop_return);
    return (const void *)noop_return;
}
#else
void glmux_slot_prepare(unsigned slot)
{
    (void)slot;     /* pure C: the no-op table is complete from the start */
}
#endif
