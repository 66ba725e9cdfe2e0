/* SPDX-License-Identifier: MIT */
/*
 * glmux: dispatch slots. The first GLMUX_STATIC_SLOTS carry the frozen, sorted GL names of
 * gl_slots.txt (the same numbering as libglvnd 1.6); the GLMUX_DYNAMIC_SLOTS after them go to
 * any other name __glDispatchGetProcAddress is asked for (procaddr.c hands them out and
 * extends the current tables). Static names are found without a lock through the generated
 * hash table (glmux_slot_names.c: offsets into one string pool, no pointers, so no
 * relocations; the lookup is inline in slots.h); dynamic names through a hash table of the
 * same kind, filled at run time under the dispatch lock. Also here: the report of a call
 * through a slot without a function, and the application-error settings it follows.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "floor.h"
#include "slots.h"
#include "util/env.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/log.h"

static char *dynamic_names[GLMUX_DYNAMIC_SLOTS];
static unsigned dynamic_count;
/* Dynamic index + 1 by hash (0: empty); twice the dynamic slots, so never full. */
#define DYNAMIC_HASH_SIZE (2 * GLMUX_DYNAMIC_SLOTS)
static uint16_t dynamic_hash[DYNAMIC_HASH_SIZE];
/*
 * Why a name got no dynamic slot, reported once per process and reason: a program that asks
 * for millions of names must not write millions of lines.
 */
#if GLMUX_HAVE_DYNAMIC_STUBS
static bool warned_full, warned_long;
#endif
static bool app_error_checking;
static bool app_error_abort;

unsigned glmux_slots_used(void)
{
    return GLMUX_STATIC_SLOTS + __atomic_load_n(&dynamic_count, __ATOMIC_ACQUIRE);
}

const char *glmux_slot_name(unsigned slot)
{
    if (slot < GLMUX_STATIC_SLOTS)
        return glmux_slot_static_name(slot);
    if (slot < glmux_slots_used())
        return dynamic_names[slot - GLMUX_STATIC_SLOTS];
    return NULL;
}

/* The dynamic slot of a name, or -1; *cell gets the hash cell where it would go. Lock held. */
static int dynamic_find(const char *name, uint64_t hash, unsigned *cell)
{
    unsigned i = (unsigned)hash & (DYNAMIC_HASH_SIZE - 1);

    for (; dynamic_hash[i] != 0; i = (i + 1) & (DYNAMIC_HASH_SIZE - 1)) {
        unsigned index = dynamic_hash[i] - 1u;

        if (strcmp(dynamic_names[index], name) == 0)
            return (int)(GLMUX_STATIC_SLOTS + index);
    }
    if (cell != NULL)
        *cell = i;
    return -1;
}

/*
 * libglvnd's lookups accept "Vertex3fv" for "glVertex3fv" (its own test vendor patches by the
 * short name).
 */
int glmux_slot_static_find_short(const char *name, size_t len)
{
    char full[GLMUX_SLOT_NAME_MAX + 1];

    if (len + 2 > GLMUX_SLOT_NAME_MAX || (name[0] == 'g' && name[1] == 'l'))
        return -1;
    full[0] = 'g';
    full[1] = 'l';
    memcpy(full + 2, name, len + 1);
    return glmux_slot_static_find(full, len + 2, glmux_slot_hash(full, len + 2));
}

int glmux_slot_find(const char *name)
{
    size_t len = strlen(name);
    uint64_t hash = glmux_slot_hash(name, len);
    int slot;

    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    slot = glmux_slot_static_find(name, len, hash);
    if (slot < 0)
        slot = glmux_slot_static_find_short(name, len);
    return slot >= 0 ? slot : dynamic_find(name, hash, NULL);
}

int glmux_slot_allot_locked(const char *name, size_t len, uint64_t hash, bool *added)
{
    unsigned cell = 0;
    int slot;

    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    *added = false;
    slot = dynamic_find(name, hash, &cell);
#if GLMUX_HAVE_DYNAMIC_STUBS
    if (slot < 0 && len > GLMUX_SLOT_NAME_MAX) {
        if (!warned_long)
            glmux_log(GLMUX_LOG_WARN, "a function name of more than %d bytes (\"%.40s...\") "
                      "gets no dispatch slot; no GL function has such a name (warned once)",
                      GLMUX_SLOT_NAME_MAX, name);
        warned_long = true;
    } else if (slot < 0 && dynamic_count < GLMUX_DYNAMIC_SLOTS) {
        char *copy = strdup(name);

        if (copy != NULL) {
            slot = (int)(GLMUX_STATIC_SLOTS + dynamic_count);
            dynamic_names[dynamic_count] = copy;
            dynamic_hash[cell] = (uint16_t)(dynamic_count + 1);
            *added = true;
        }
    } else if (slot < 0) {
        if (!warned_full)
            glmux_log(GLMUX_LOG_WARN, "%s: all %d dynamic dispatch slots are in use; this and "
                      "every further unknown function name get NULL (warned once)",
                      name, GLMUX_DYNAMIC_SLOTS);
        warned_full = true;
    }
#else
    (void)len;
#endif
    return slot;
}

void glmux_slot_publish_locked(unsigned slot)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    __atomic_store_n(&dynamic_count, slot - GLMUX_STATIC_SLOTS + 1, __ATOMIC_RELEASE);
    glmux_log(GLMUX_LOG_DISPATCH, "%s: new dynamic slot %u", dynamic_names[slot -
              GLMUX_STATIC_SLOTS], slot);
}

bool glmux_app_error_checking(void)
{
    return app_error_checking;
}

bool glmux_dispatch_noop_reported(void)
{
    return app_error_checking || glmux_log_enabled(GLMUX_LOG_DISPATCH);
}

/* A GL call with no current context, or one the current vendor lacks. */
intptr_t glmux_dispatch_noop(unsigned slot)
{
    if (glmux_dispatch_noop_reported()) {
        const char *name = glmux_slot_name(slot);

        glmux_log(GLMUX_LOG_ERROR,
                  "%s called without a current context (or the current vendor lacks it)",
                  name ? name : "a GL function");
        /* Only on the user's explicit request: a library does not end the process. */
        if (app_error_abort)
            abort();
    }
    return 0;
}

/* At the first __glDispatchInit: libglvnd's application-error variables. */
static void slots_init(void)
{
    app_error_checking = glmux_env_get_flag("__GLVND_APP_ERROR_CHECKING");
    app_error_abort = app_error_checking && glmux_env_get_flag("__GLVND_ABORT_ON_APP_ERROR");
}

/* At the last __glDispatchFini: every dynamic name goes. */
static void slots_teardown(void)
{
    for (unsigned i = 0; i < dynamic_count; i++) {
        free(dynamic_names[i]);
        dynamic_names[i] = NULL;
    }
    memset(dynamic_hash, 0, sizeof(dynamic_hash));
    dynamic_count = 0;
#if GLMUX_HAVE_DYNAMIC_STUBS
    warned_full = warned_long = false;
#endif
}

GLMUX_LIFECYCLE_STEP(dispatch_slots, 30, .init = slots_init, .teardown = slots_teardown);
