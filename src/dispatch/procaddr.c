/* SPDX-License-Identifier: MIT */
/*
 * glmux: __glDispatchGetProcAddress, libGLdispatch's name -> entry stub lookup. A static name
 * is found without a lock and without a call (slots.h); any other name gets a dynamic slot,
 * whose trampoline is made ready (lazy.c) before the slot counts, and every current table is
 * extended at once (tables.c) so that the new stub works immediately (with eager fill, the
 * vendors are asked with no lock held before the stub is returned); while GL layers may be
 * loaded, the layers are asked about the name, with no lock held, before its stub is returned
 * (layer_chain.c).
 * The stubs are libGLdispatch's own, generated in slot order (entry/entry.h), or in pure-C
 * builds the generated C stubs.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>

#include "entry/entry.h"
#include "floor.h"
#include "layer_chain.h"
#include "lazy.h"
#include "lifetime.h"
#include "slots.h"
#include "tables.h"
#include "util/log.h"

#if GLMUX_HAVE_ASM_ENTRY
static __GLdispatchProc slot_stub(int slot)
{
    return (__GLdispatchProc)(uintptr_t)(glmux_entry_start + (size_t)slot * GLMUX_STUB_SIZE);
}
#else
/*
 * Pure-C builds: typed C stubs for the static names; for the dynamic ones, C stubs that pass
 * any arguments on (GLMUX_C_FORWARD, glmux_constants.h) where the compiler can, NULL elsewhere.
 */
extern const void *const glmux_c_stub_table[GLMUX_TOTAL_SLOTS];

static __GLdispatchProc slot_stub(int slot)
{
    if (slot >= (GLMUX_HAVE_DYNAMIC_STUBS ? GLMUX_TOTAL_SLOTS : GLMUX_STATIC_SLOTS))
        return NULL;
    return (__GLdispatchProc)(uintptr_t)glmux_c_stub_table[slot];
}
#endif

/*
 * glmux's private extension of libGLdispatch (GLdispatch.h), returned for
 * GLMUX_DISPATCH_WINSYS_NAME: the clients' registration (lifetime.c) and the chain of GL layers
 * (layer_chain.c).
 */
static const struct glmux_dispatch_winsys glmux_dispatch_winsys = {
    .magic = GLMUX_DISPATCH_WINSYS_MAGIC,
    .register_client = glmux_client_register,
    .unregister_client = glmux_client_unregister,
    .layer_top = glmux_chain_layer_top,
    .layers_active = glmux_chain_layers_active,
    /* libGLdispatch's copy of the log claims in its own table: the process's one. */
    .claim_message = glmux_log_claim,
};

/* A name without a static slot: its dynamic slot, handed out now if it has none. */
static __attribute__((noinline)) __GLdispatchProc dynamic_proc(const char *procName,
                                                               size_t len, uint64_t hash)
{
    __GLdispatchProc proc = NULL;
    bool added;
    int slot;

    /* glmux's private extension (GLdispatch.h): data, not a function; never a slot. */
    if (strcmp(procName, GLMUX_DISPATCH_WINSYS_NAME) == 0)
        return (__GLdispatchProc)(uintptr_t)&glmux_dispatch_winsys;
    slot = glmux_slot_static_find_short(procName, len);
    if (slot >= 0)
        return slot_stub(slot);
    if (glmux_chain_state_now() != GLMUX_CHAIN_NONE) {
        /* GL layers may be loaded: they are asked about a new name (layer_chain.c). */
        slot = glmux_chain_dynamic_slot(procName, len, hash);
        return slot >= 0 ? slot_stub(slot) : NULL;
    }
    pthread_mutex_lock(&glmux_dispatch_lock);
    slot = glmux_slot_allot_locked(procName, len, hash, &added);
    if (added) {
        glmux_slot_prepare((unsigned)slot);
        glmux_slot_publish_locked((unsigned)slot);
        glmux_tables_fixup_current();
    }
    /* Eager fill: every current table gets the vendor's answer before the stub is handed out
     * (also when another thread handed the slot out and is still asking), with the lock
     * released while a vendor is asked. */
    if (slot >= 0) {
        glmux_tables_fill_current_locked();
        proc = slot_stub(slot);
    }
    pthread_mutex_unlock(&glmux_dispatch_lock);
    return proc;
}

/* Static names are found without a call after strlen; dynamic_proc is out of line. */
__GLdispatchProc __glDispatchGetProcAddress(const char *procName)
{
    size_t len;
    uint64_t hash;
    int slot;

    if (procName == NULL)
        return NULL;
    len = strlen(procName);
    hash = glmux_slot_hash(procName, len);
    slot = glmux_slot_static_find(procName, len, hash);
    return slot >= 0 ? slot_stub(slot) : dynamic_proc(procName, len, hash);
}
