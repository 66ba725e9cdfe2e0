/* SPDX-License-Identifier: MIT */
/*
 * glmux: a map from names to small integers (dispatch indices, stub numbers) for the lists
 * that grow at run time: open addressing with linear probing over a power-of-two array that
 * doubles at half load. The map keeps its own copy of every name, in blocks of a few KB (one
 * allocation for many names). No locking: the caller's lock guards it.
 */
#ifndef GLMUX_UTIL_NAME_INDEX_H
#define GLMUX_UTIL_NAME_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct glmux_name_index {
    struct glmux_name_index_cell *cells;
    size_t size;                    /* a power of two, or 0 */
    size_t count;
    struct glmux_name_index_block *blocks;  /* the copies of the names */
};

/* The value stored for name, or -1. */
int glmux_name_index_find(const struct glmux_name_index *map, const char *name);
/*
 * The value stored for name; if there is none, stores value (>= 0) and returns it. *copy
 * (may be NULL) gets the map's copy of the name (valid until glmux_name_index_clear). -1 when
 * out of memory.
 */
int glmux_name_index_find_or_add(struct glmux_name_index *map, const char *name, int value,
                                 const char **copy);
/*
 * The same with the name's hash given (glmux_name_index_hash), for a caller that looks a name
 * up more than once: the hash is computed once.
 */
uint32_t glmux_name_index_hash(const char *name);
int glmux_name_index_find_hashed(const struct glmux_name_index *map, const char *name,
                                 uint32_t hash);
int glmux_name_index_find_or_add_hashed(struct glmux_name_index *map, const char *name,
                                        uint32_t hash, int value, const char **copy);
/* Empties the map and frees its memory, the copies of the names included. */
void glmux_name_index_clear(struct glmux_name_index *map);

#endif /* GLMUX_UTIL_NAME_INDEX_H */
