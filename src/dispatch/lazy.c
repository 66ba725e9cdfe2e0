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

__attribute__((constructor)) static void fill_noop_table(void)
{
    const char *group = glmux_lazy_start;

    for (unsigned first = 0; first < GLMUX_STATIC_SLOTS; first += GLMUX_LAZY_GROUP) {
        unsigned n = GLMUX_STATIC_SLOTS - first < GLMUX_LAZY_GROUP ? GLMUX_STATIC_SLOTS - first
                                                                     : GLMUX_LAZY_GROUP;

        for (unsigned j = 0; j < n; j++)
            glmux_noop_table[first + j] = group + (size_t)j * GLMUX_LAZY_SIZE;
        group += GLMUX_LAZY_GROUP_BYTES;
    }
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
            __atomic_store_n(&entries[slot], proc, __ATOMIC_RELEASE);
            return proc;
        }
    }
    /* No context, or the vendor lacks the function. While calls without a function are
     * reported, the slot keeps its trampoline so that every such call is reported. */
    glmux_dispatch_noop(slot);
    if (entries != NULL && entries != glmux_noop_table && !glmux_dispatch_noop_reported())
        __atomic_store_n(&entries[slot], (const void *)noop_return, __ATOMIC_RELEASE);
    return (const void *)noop_return;
}
#else
void glmux_slot_prepare(unsigned slot)
{
    (void)slot;     /* pure C: the no-op table is complete from the start */
}
#endif
