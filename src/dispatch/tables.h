/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLdispatch's per-vendor dispatch tables (tables.c): the record, its filling
 * (lazily through the trampolines, or eagerly) and the list of tables current on some thread.
 * Uses the ground floor and the slots.
 */
#ifndef GLMUX_DISPATCH_TABLES_H
#define GLMUX_DISPATCH_TABLES_H

#include <stdbool.h>

#include "GLdispatch.h"

/* A vendor's dispatch table; entries is what _glapi_tls_Current[0] points at. */
struct __GLdispatchTableRec {
    __GLgetProcAddressCallback get_proc_address;
    void *param;
    const void **entries;   /* GLMUX_TOTAL_SLOTS pointers, allocated at first make-current;
                               entries[-1] points back to this record */
    unsigned filled;        /* slots [0, filled) are set: their trampoline or, with eager
                               fill, the vendor's answer */
    unsigned placed;        /* slots [0, placed) hold at least the no-op table's entry (its
                               trampoline in assembly builds); with eager fill, [filled,
                               placed) wait for the vendor's answer */
    int pinned;             /* threads asking its vendor with the lock released */
    int current_threads;    /* threads on which this table is current */
    bool destroyed;         /* __glDispatchDestroyTable ran while it was still current */
    struct __GLdispatchTableRec *next_current; /* in the list of current tables */
    /*
     * The layered twin, while a GL layer is loaded (layer_chain.c): what _glapi_tls_Current
     * points at instead of entries. Its slot holds the top of the slot's chain where a layer
     * intercepts it, else what entries holds (the vendor's function or its lazy trampoline,
     * whose resolution stores into both). layered[-1] points back to this record too.
     */
    const void **layered;
    unsigned layered_filled;        /* slots [0, layered_filled) are set */
    unsigned layered_generation;    /* the chain's generation it was made for */
};

/*
 * Brings one table up to date with glmux_slots_used(), and its layered twin while a GL layer
 * is loaded, without asking its vendor: lazily filled slots get their trampolines; with eager
 * fill, a new slot holds the no-op table's entry until glmux_table_fill_locked. Lock held.
 * False on allocation failure.
 */
bool glmux_table_fixup(__GLdispatchTable *table);
/*
 * Eager fill (GLMUX_EAGER_TABLES=1, pure-C builds): asks the table's vendor for every slot
 * placed but not filled yet, with glmux_dispatch_lock released (the table pinned), and counts
 * the answers under the lock with a re-check; again while slots were handed out meanwhile.
 * Lazy fill: nothing to do. Lock held on entry and on return (released in between). False on
 * allocation failure, or when the table was destroyed and freed meanwhile.
 */
bool glmux_table_fill_locked(__GLdispatchTable *table);
/* What _glapi_tls_Current is to point at for table after glmux_table_fixup: its layered twin
 * while a GL layer is loaded, else NULL (its entries). Lock held. */
const void **glmux_table_twin_locked(__GLdispatchTable *table);
/* Calls glmux_table_fixup for every table that is current on some thread. Lock held. */
void glmux_tables_fixup_current(void);
/*
 * Eager fill: glmux_table_fill_locked for every current table with slots not filled yet, but
 * those the calling thread is filling already (a vendor's getProcAddress that asks for a new
 * name); so a new dynamic slot's stub is handed out only once every table current elsewhere
 * holds the vendor's answer for it. Lazy fill: returns at once. Lock held on entry and on
 * return (released in between).
 */
void glmux_tables_fill_current_locked(void);
/* One more thread on which table is current (lock held). */
void glmux_table_current_add_locked(__GLdispatchTable *table);
/* One thread fewer; the last one frees a table destroyed meanwhile (lock held). */
void glmux_table_current_drop_locked(__GLdispatchTable *table);
/* Forgets every current table and the current count (after fork: only this thread exists). */
void glmux_tables_reset(void);

#endif /* GLMUX_DISPATCH_TABLES_H */
