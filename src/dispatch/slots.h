/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLdispatch's slots (slots.c): the frozen static names of gl_slots.txt (found
 * without a lock through the generated hash table, inline here so that the hot lookup makes
 * no call), the dynamic names handed out at run time, and the report of a call through a slot
 * without a function. Uses only the ground floor (floor.h).
 */
#ifndef GLMUX_DISPATCH_SLOTS_H
#define GLMUX_DISPATCH_SLOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "glmux_slots.h"

/* Longest name that gets a dynamic slot (no GL function name comes near it). */
#define GLMUX_SLOT_NAME_MAX 255

static inline uint64_t glmux_slot_load_le64(const char *p)
{
    uint64_t v;

    memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* The name hash of scripts/gen/gen_dispatch.py (name_hash): keep the two identical. */
static inline uint64_t glmux_slot_hash(const char *name, size_t len)
{
    uint64_t a = 0, z = 0, h;

    if (len >= 8) {
        a = glmux_slot_load_le64(name);
        z = glmux_slot_load_le64(name + len - 8);
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
static inline bool glmux_slot_same_name(const char *a, const char *b, size_t len)
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
        if (glmux_slot_load_le64(a + i) != glmux_slot_load_le64(b + i))
            return false;
    }
    return glmux_slot_load_le64(a + len - 8) == glmux_slot_load_le64(b + len - 8);
}

static inline const char *glmux_slot_static_name(unsigned slot)
{
    return glmux_slot_names_pool + glmux_slot_names_offsets[slot];
}

/* The static slot of a name of length len, or -1. Needs no lock: the table is constant. */
static inline int glmux_slot_static_find(const char *name, size_t len, uint64_t hash)
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
        if ((cell & 0xFFFF0000u) == want &&
            glmux_slot_same_name(glmux_slot_static_name(slot), name, len))
            return (int)slot;
    }
}

/* The static slot of a GL name given without its "gl" prefix ("Vertex3fv"), or -1. */
int glmux_slot_static_find_short(const char *name, size_t len);

/* Slots in use: the static ones plus the dynamic ones handed out so far. */
unsigned glmux_slots_used(void);
/* The GL name of a slot in use (with its "gl" prefix), or NULL. */
const char *glmux_slot_name(unsigned slot);
/* The slot of a name: static first, then the dynamic ones (lock held); -1 when it has none. */
int glmux_slot_find(const char *name);
/*
 * The dynamic slot of a name without a static one (lock held), or -1 (too long, all in use:
 * warned once each). A slot handed out now sets *added; it counts in glmux_slots_used only
 * after glmux_slot_publish_locked, which the caller runs once the slot's trampoline is ready.
 */
int glmux_slot_allot_locked(const char *name, size_t len, uint64_t hash, bool *added);
void glmux_slot_publish_locked(unsigned slot);

/* A call through a slot without a function (no context, or the vendor lacks it): reports it
 * when asked and returns 0 (glmux_noop.c's functions call it too). */
intptr_t glmux_dispatch_noop(unsigned slot);
/* Whether such calls are reported (app error checking or GLMUX_DEBUG=dispatch). */
bool glmux_dispatch_noop_reported(void);
/* Whether application error checking is on (__GLVND_APP_ERROR_CHECKING, read at init). */
bool glmux_app_error_checking(void);

#endif /* GLMUX_DISPATCH_SLOTS_H */
