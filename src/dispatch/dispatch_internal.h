/* SPDX-License-Identifier: MIT */
/*
 * glmux: what the files of libGLdispatch share among themselves: the dispatch lock, the
 * table record, slot lookups and the patching state. Nothing here is exported.
 */
#ifndef GLMUX_DISPATCH_INTERNAL_H
#define GLMUX_DISPATCH_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "GLdispatch.h"
#include "glmux_slots.h"

/* A vendor's dispatch table; entries is what _glapi_tls_Current[0] points at. */
struct __GLdispatchTableRec {
    __GLgetProcAddressCallback get_proc_address;
    void *param;
    const void **entries;   /* GLMUX_TOTAL_SLOTS pointers, allocated at first make-current;
                               entries[-1] points back to this record */
    unsigned filled;        /* slots [0, filled) are set: their trampoline or, with eager
                               fill, their final value */
    int current_threads;    /* threads on which this table is current */
    bool destroyed;         /* __glDispatchDestroyTable ran while it was still current */
    struct __GLdispatchTableRec *next_current; /* in the list of current tables */
};

struct glmux_client_slot;

/* libGLdispatch's record of one thread's current context. */
struct __GLdispatchThreadStatePrivateRec {
    __GLdispatchThreadState *state;
    __GLdispatchTable *table;
    int vendor_id;
    struct glmux_client_slot *client; /* the registered library that owns state, or NULL */
    bool orphaned;          /* its library was unloaded: state is ours to free */
    struct __GLdispatchThreadStatePrivateRec *prev, *next; /* every thread's record */
};

/* Guards every piece of global dispatch state below and in patch.c and slots.c. */
extern pthread_mutex_t glmux_dispatch_lock;

/* Threads with a current context, all vendors together. */
extern int glmux_dispatch_current_count;

/* ---- lifetime.c: registered API libraries, thread records, fork ---- */

/* Every thread's record (lock held to walk or change). */
extern struct __GLdispatchThreadStatePrivateRec *glmux_dispatch_records;
/* Links a new record and finds the client that owns its state. Lock held. */
void glmux_records_link_locked(struct __GLdispatchThreadStatePrivateRec *priv);
void glmux_records_unlink_locked(struct __GLdispatchThreadStatePrivateRec *priv);
/*
 * Thread exit: decides under the lock what happens to the state of a record that is being
 * released (returns the client whose record_destroyed is to be called, marked busy, or NULL).
 */
struct glmux_client_slot *glmux_client_enter_locked(struct __GLdispatchThreadStatePrivateRec *priv);
/* Calls the client's record_destroyed (or the plain callback) without the lock, then unmarks. */
void glmux_client_call_destroyed(struct glmux_client_slot *slot, __GLdispatchThreadState *state);
/* Installs libGLdispatch's fork handlers (once). */
void glmux_lifetime_init(void);
/* The private extension returned for GLMUX_DISPATCH_WINSYS_NAME. */
extern const struct glmux_dispatch_winsys glmux_dispatch_winsys;
/* Releases the calling thread's record: table, list, TLS. Lock NOT held. Returns the state. */
__GLdispatchThreadState *glmux_dispatch_release_thread(void);
/* The pthread key of the records (valid while libGLdispatch is initialised). */
extern pthread_key_t glmux_dispatch_thread_key;
extern bool glmux_dispatch_thread_key_valid;
/* What glmux_dispatch_thread_key holds for the calling thread, read without a call. */
extern __thread struct __GLdispatchThreadStatePrivateRec *glmux_dispatch_thread_record
    __attribute__((tls_model("initial-exec")));

/* Sets the calling thread's record in the key and in its mirror. */
static inline void glmux_dispatch_set_record(struct __GLdispatchThreadStatePrivateRec *priv)
{
    pthread_setspecific(glmux_dispatch_thread_key, priv);
    glmux_dispatch_thread_record = priv;
}
/* Resets tables and the current count after fork (only this thread exists). */
void glmux_dispatch_reset_tables(void);

/* Slots in use: the static ones plus the dynamic ones handed out so far. */
unsigned glmux_slots_used(void);
/* The GL name of a slot in use (with its "gl" prefix), or NULL. */
const char *glmux_slot_name(unsigned slot);
/* The slot of a name: static first, then the dynamic ones (lock held); -1 when it has none. */
int glmux_slot_find(const char *name);
/* Makes a slot about to be handed out valid in the table of threads without a context. */
void glmux_slot_prepare(unsigned slot);
/* Drops every dynamic name (at the last __glDispatchFini). */
void glmux_slots_reset(void);

/* Longest name that gets a dynamic slot (no GL function name comes near it). */
#define GLMUX_SLOT_NAME_MAX 255

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
/* A call through a slot without a function (no context, or the vendor lacks it): reports it
 * when asked and returns 0 (glmux_noop.c's functions call it too). */
intptr_t glmux_dispatch_noop(unsigned slot);
/* Whether such calls are reported (app error checking or GLMUX_DEBUG=dispatch). */
bool glmux_dispatch_noop_reported(void);
/* Registers libGLdispatch's own stubs (asm builds only). */
void glmux_patch_register_own_stubs(void);
void glmux_patch_unregister_own_stubs(void);

#endif /* GLMUX_DISPATCH_INTERNAL_H */
