/* SPDX-License-Identifier: MIT */
/*
 * glmux: what the files of libGLdispatch share among themselves: the dispatch lock, the
 * table record, slot lookups and the patching state. Nothing here is exported.
 */
#ifndef GLMUX_DISPATCH_INTERNAL_H
#define GLMUX_DISPATCH_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "GLdispatch.h"
#include "glmux_slots.h"

/* A vendor's dispatch table; entries is what _glapi_tls_Current[0] points at. */
struct __GLdispatchTableRec {
    __GLgetProcAddressCallback get_proc_address;
    void *param;
    const void **entries;   /* GLMUX_TOTAL_SLOTS pointers, allocated at first make-current;
                               entries[-1] points back to this record */
    unsigned filled;        /* eager fill: slots [0, filled) hold their final value */
    int current_threads;    /* threads on which this table is current */
    bool destroyed;         /* __glDispatchDestroyTable ran while it was still current */
    struct __GLdispatchTableRec *next_current; /* in the list of current tables */
};

/* libGLdispatch's record of one thread's current context. */
struct __GLdispatchThreadStatePrivateRec {
    __GLdispatchThreadState *state;
    __GLdispatchTable *table;
    int vendor_id;
};

/* Guards every piece of global dispatch state below and in patch.c and slots.c. */
extern pthread_mutex_t glmux_dispatch_lock;

/* Threads with a current context, all vendors together. */
extern int glmux_dispatch_current_count;

/* Slots in use: the static ones plus the dynamic ones handed out so far. */
unsigned glmux_slots_used(void);
/* The GL name of a slot in use (with its "gl" prefix), or NULL. */
const char *glmux_slot_name(unsigned slot);
/* The slot of a name: static first, then the dynamic ones; -1 when it has none. */
int glmux_slot_find(const char *name);
/* Drops every dynamic name (at the last __glDispatchFini). */
void glmux_slots_reset(void);

/* Brings one table up to date with glmux_slots_used(). Lock held. False on allocation failure. */
bool glmux_table_fixup(__GLdispatchTable *table);
/* Calls glmux_table_fixup for every table that is current on some thread. Lock held. */
void glmux_tables_fixup_current(void);

/* Reads __GLVND_DISALLOW_PATCHING and the app-error variables once. */
void glmux_patch_read_env(void);
/* Whether no-op calls are to be reported (app error checking). */
bool glmux_app_error_checking(void);
/* Whether the user asked for an abort on an application error (__GLVND_ABORT_ON_APP_ERROR). */
bool glmux_app_error_abort(void);
/* Makes the stubs right for a vendor about to become current. Lock held. */
bool glmux_patch_for_make_current(const __GLdispatchPatchCallbacks *cb, int vendor_id);
/* Registers libGLdispatch's own stubs (asm builds only). */
void glmux_patch_register_own_stubs(void);
void glmux_patch_unregister_own_stubs(void);

#endif /* GLMUX_DISPATCH_INTERNAL_H */
