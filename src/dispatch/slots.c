/* SPDX-License-Identifier: MIT */
/*
 * glmux: dispatch slots. The first GLMUX_STATIC_SLOTS carry the frozen, sorted GL names of
 * gl_slots.txt (the same numbering as libglvnd 1.6); __glDispatchGetProcAddress hands out
 * the GLMUX_DYNAMIC_SLOTS after them to any other name, and extends every current table
 * at once so that the new stub works immediately.
 *
 * Static names are found without a lock through the generated hash table (glmux_slot_names.c:
 * offsets into one string pool, no pointers, so no relocations); dynamic names through a hash
 * table of the same kind, filled at run time under the dispatch lock.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch_internal.h"
#include "entry/entry.h"
#include "util/lock.h"
#include "util/log.h"

static char *dynamic_names[GLMUX_DYNAMIC_SLOTS];
static unsigned dynamic_count;
/* Dynamic index + 1 by hash (0: empty); twice the dynamic slots, so never full. */
#define DYNAMIC_HASH_SIZE (2 * GLMUX_DYNAMIC_SLOTS)
static uint16_t dynamic_hash[DYNAMIC_HASH_SIZE];
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

static inline uint64_t load_le64(const char *p)
{
    uint64_t v;

    memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* The name hash of scripts/gen/gen_dispatch.py (name_hash): keep the two identical. */
static inline uint64_t slot_hash(const char *name, size_t len)
{
    uint64_t a = 0, z = 0, h;

    if (len >= 8) {
        a = load_le64(name);
        z = load_le64(name + len - 8);
    } else {
        for (size_t i = 0; i < len; i++)
            a |= (uint64_t)(unsigned char)name[i] << (8 * i);
    }
    h = a * UINT64_C(0x9E3779B97F4A7C15);
    h ^= z * UINT64_C(0xC2B2AE3D27D4EB4F);
    h ^= (uint64_t)len * UINT64_C(0x165667B19E3779F9);
    h ^= h >> 29;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 32;
    return h;
}

/* Whether two names of length len are equal: 8 bytes at a time (the last word may overlap). */
static inline bool same_name(const char *a, const char *b, size_t len)
{
    size_t i = 0;

    if (len < 8) {
        for (; i < len; i++) {
            if (a[i] != b[i])
                return false;
        }
        return true;
    }
    for (; i + 8 < len; i += 8) {
        if (load_le64(a + i) != load_le64(b + i))
            return false;
    }
    return load_le64(a + len - 8) == load_le64(b + len - 8);
}

/* The static slot of a name of length len, or -1. Needs no lock: the table is constant. */
static inline int static_find(const char *name, size_t len, uint64_t hash)
{
    uint32_t want = (uint32_t)(len << 16) | (uint32_t)(hash >> 56) << 24;

    if (len > 255)      /* the table's length field; no static name is that long */
        return -1;
    for (unsigned i = (unsigned)hash & (GLMUX_SLOT_HASH_SIZE - 1);;
         i = (i + 1) & (GLMUX_SLOT_HASH_SIZE - 1)) {
        uint32_t cell = glmux_slot_hash_table[i];
        unsigned slot = (cell & 0xFFFF) - 1;

        if (cell == 0)
            return -1;
        if ((cell & 0xFFFF0000u) == want && same_name(static_name(slot), name, len))
            return (int)slot;
    }
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
 * The static slot of a GL name given without its "gl" prefix: libglvnd's lookups accept
 * "Vertex3fv" for "glVertex3fv" (its own test vendor patches by the short name).
 */
static int static_find_short(const char *name, size_t len)
{
    char full[GLMUX_SLOT_NAME_MAX + 1];

    if (len + 2 > GLMUX_SLOT_NAME_MAX || (name[0] == 'g' && name[1] == 'l'))
        return -1;
    full[0] = 'g';
    full[1] = 'l';
    memcpy(full + 2, name, len + 1);
    return static_find(full, len + 2, slot_hash(full, len + 2));
}

int glmux_slot_find(const char *name)
{
    size_t len = strlen(name);
    uint64_t hash = slot_hash(name, len);
    int slot;

    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    slot = static_find(name, len, hash);
    if (slot < 0)
        slot = static_find_short(name, len);
    return slot >= 0 ? slot : dynamic_find(name, hash, NULL);
}

void glmux_slots_reset(void)
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

/* A name without a static slot: its dynamic slot, handed out now if it has none. */
static __attribute__((noinline)) __GLdispatchProc dynamic_proc(const char *procName,
                                                               size_t len, uint64_t hash)
{
    __GLdispatchProc proc = NULL;
    unsigned cell = 0;
    int slot;

    /* glmux's private extension (GLdispatch.h): data, not a function; never a slot. */
    if (strcmp(procName, GLMUX_DISPATCH_WINSYS_NAME) == 0)
        return (__GLdispatchProc)(uintptr_t)&glmux_dispatch_winsys;
    slot = static_find_short(procName, len);
    if (slot >= 0)
        return slot_stub(slot);
    pthread_mutex_lock(&glmux_dispatch_lock);
    slot = dynamic_find(procName, hash, &cell);
#if GLMUX_HAVE_DYNAMIC_STUBS
    if (slot < 0 && len > GLMUX_SLOT_NAME_MAX) {
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
            dynamic_hash[cell] = (uint16_t)(dynamic_count + 1);
            glmux_slot_prepare((unsigned)slot);
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

/* Static names are found without a call after strlen; dynamic_proc is out of line. */
__GLdispatchProc __glDispatchGetProcAddress(const char *procName)
{
    size_t len;
    uint64_t hash;
    int slot;

    if (procName == NULL)
        return NULL;
    len = strlen(procName);
    hash = slot_hash(procName, len);
    slot = static_find(procName, len, hash);
    return slot >= 0 ? slot_stub(slot) : dynamic_proc(procName, len, hash);
}

bool glmux_dispatch_noop_reported(void)
{
    return glmux_app_error_checking() || glmux_log_enabled(GLMUX_LOG_DISPATCH);
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
        if (glmux_app_error_abort())
            abort();
    }
    return 0;
}
