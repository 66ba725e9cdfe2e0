/* SPDX-License-Identifier: MIT */
/*
 * glmux: what the stub-owning libraries' shared code (entry_lib.c, entry_patch.c) and
 * libGLdispatch (slots.c, patch.c) say to each other about a library's generated GL entry
 * stubs, declared once. The sizes come from the generated glmux_constants.h.
 */
#ifndef GLMUX_ENTRY_H
#define GLMUX_ENTRY_H

#include <string.h>

#include "GLdispatch.h"
#include "glmux_constants.h"

/* The library's stub region (assembly builds): GLMUX_STUB_SIZE bytes a stub, aligned to
 * GLMUX_STUB_ALIGN. */
extern const char glmux_entry_start[];
extern const char glmux_entry_end[];
/* Its stub names in stub order (sorted): a string pool and each name's offset (NAME_entries.c). */
extern const unsigned glmux_entry_count;
extern const char glmux_entry_names_pool[];
extern const unsigned glmux_entry_names_offsets[];

/* The patch callbacks of the region (entry_patch.c), registered with libGLdispatch. */
extern const __GLdispatchStubPatchCallbacks glmux_entry_patch_callbacks;

/* libGLdispatch only: the slot of a name, its dynamic stubs included (slots.c); lock held. */
int glmux_slot_find(const char *name);

/*
 * The index of a GL name in a sorted string pool of count names (the generated
 * glmux_slot_names and NAME_entries tables), or -1. The name may come with or without its
 * "gl" prefix: libglvnd's lookups accept "Vertex3fv" for "glVertex3fv" (its own test vendor
 * patches by the short name). Every pooled name starts with "gl", so comparing what follows
 * keeps the sorted order.
 */
static inline int glmux_entry_pool_find(const char *pool, const unsigned *offsets,
                                        unsigned count, const char *name)
{
    unsigned lo = 0, hi = count;
    const char *key = strncmp(name, "gl", 2) == 0 ? name + 2 : name;

    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        int cmp = strcmp(key, pool + offsets[mid] + 2);

        if (cmp == 0)
            return (int)mid;
        if (cmp < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

#endif /* GLMUX_ENTRY_H */
