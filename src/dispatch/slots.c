/* SPDX-License-Identifier: MIT */
/*
 * glmux: dispatch slots. The first GLMUX_STATIC_SLOTS carry the frozen, sorted GL names of
 * gl_slots.txt (the same numbering as libglvnd 1.6); __glDispatchGetProcAddress hands out
 * the GLMUX_DYNAMIC_SLOTS after them to any other name, and extends every current table
 * at once so that the new stub works immediately.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch_internal.h"
#include "entry/entry.h"
#include "util/log.h"

static char *dynamic_names[GLMUX_DYNAMIC_SLOTS];
static unsigned dynamic_count;
/*
 * Why a name got no dynamic slot, reported once per process and reason: a program that asks
 * for millions of names must not write millions of lines (issue 9, item 6).
 */
#if GLMUX_HAVE_DYNAMIC_STUBS
static bool warned_full, warned_long;
#endif

static const char *static_name(unsigned slot)
{
    return glmux_slot_names_pool + glmux_slot_names_offsets[slot];
}

unsigned glmux_slots_used(void)
{
    return GLMUX_STATIC_SLOTS + __atomic_load_n(&dynamic_count, __ATOMIC_ACQUIRE);
}

const char *glmux_slot_name(unsigned slot)
{
    if (slot < GLMUX_STATIC_SLOTS)
        return static_name(slot);
    if (slot < glmux_slots_used())
        return dynamic_names[slot - GLMUX_STATIC_SLOTS];
    return NULL;
}

int glmux_slot_find(const char *name)
{
    int slot = glmux_entry_pool_find(glmux_slot_names_pool, glmux_slot_names_offsets,
                                     GLMUX_STATIC_SLOTS, name);

    if (slot >= 0)
        return slot;
    for (unsigned i = 0; i < dynamic_count; i++) {
        if (strcmp(dynamic_names[i], name) == 0)
            return (int)(GLMUX_STATIC_SLOTS + i);
    }
    return -1;
}

void glmux_slots_reset(void)
{
    for (unsigned i = 0; i < dynamic_count; i++) {
        free(dynamic_names[i]);
        dynamic_names[i] = NULL;
    }
    dynamic_count = 0;
#if GLMUX_HAVE_DYNAMIC_STUBS
    warned_full = warned_long = false;
#endif
}

#if GLMUX_HAVE_ASM_ENTRY
/* The stubs of libGLdispatch itself, generated in slot order (entry/entry.h). */
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

__GLdispatchProc __glDispatchGetProcAddress(const char *procName)
{
    __GLdispatchProc proc = NULL;
    int slot;

    if (procName == NULL)
        return NULL;
    /* glmux's private extension (GLdispatch.h): data, not a function; never a slot. */
    if (strcmp(procName, GLMUX_DISPATCH_WINSYS_NAME) == 0)
        return (__GLdispatchProc)(uintptr_t)&glmux_dispatch_winsys;
    pthread_mutex_lock(&glmux_dispatch_lock);
    slot = glmux_slot_find(procName);
#if GLMUX_HAVE_DYNAMIC_STUBS
    if (slot < 0 && strnlen(procName, GLMUX_SLOT_NAME_MAX + 1) > GLMUX_SLOT_NAME_MAX) {
        if (!warned_long)
            glmux_log(GLMUX_LOG_WARN, "a function name of more than %d bytes (\"%.40s...\") "
                      "gets no dispatch slot; no GL function has such a name (warned once)",
                      GLMUX_SLOT_NAME_MAX, procName);
        warned_long = true;
    } else if (slot < 0 && dynamic_count < GLMUX_DYNAMIC_SLOTS) {
        char *copy = strdup(procName);

        if (copy != NULL) {
            slot = (int)(GLMUX_STATIC_SLOTS + dynamic_count);
            dynamic_names[dynamic_count] = copy;
            __atomic_store_n(&dynamic_count, dynamic_count + 1, __ATOMIC_RELEASE);
            glmux_log(GLMUX_LOG_DISPATCH, "%s: new dynamic slot %d", procName, slot);
            glmux_tables_fixup_current();
        }
    } else if (slot < 0) {
        if (!warned_full)
            glmux_log(GLMUX_LOG_WARN, "%s: all %d dynamic dispatch slots are in use; this and "
                      "every further unknown function name get NULL (warned once)",
                      procName, GLMUX_DYNAMIC_SLOTS);
        warned_full = true;
    }
#endif
    if (slot >= 0)
        proc = slot_stub(slot);
    pthread_mutex_unlock(&glmux_dispatch_lock);
    return proc;
}

/* Called by every no-op function (glmux_noop.c): the GL call had no current context. */
__attribute__((visibility("hidden"))) intptr_t glmux_dispatch_noop(unsigned slot);
intptr_t glmux_dispatch_noop(unsigned slot)
{
    if (glmux_app_error_checking() || glmux_log_enabled(GLMUX_LOG_DISPATCH)) {
        const char *name = glmux_slot_name(slot);

        glmux_log(GLMUX_LOG_ERROR,
                  "%s called without a current context (or the current vendor lacks it)",
                  name ? name : "a GL function");
        /* Only on the user's explicit request: a library does not end the process. */
        if (glmux_app_error_abort())
            abort();
    }
    return 0;
}
