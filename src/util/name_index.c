/* SPDX-License-Identifier: MIT */
/*
 * glmux: the name -> integer map of name_index.h. A word-at-a-time hash of the name (its
 * length and its first and last 8 bytes, multiplied and folded) picks the first cell; each
 * cell keeps the full hash, so a probe compares strings only when the hashes agree.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/name_index.h"

struct glmux_name_index_cell {
    const char *name;               /* NULL: empty */
    uint32_t hash;
    int value;
};

/* A block of name copies; the newest block is first. */
struct glmux_name_index_block {
    struct glmux_name_index_block *next;
    size_t used, size;
    char text[];
};
#define BLOCK_SIZE 4000

static char *copy_name(struct glmux_name_index *map, const char *name)
{
    size_t len = strlen(name) + 1;
    struct glmux_name_index_block *b = map->blocks;
    char *copy;

    if (b == NULL || b->size - b->used < len) {
        size_t size = len > BLOCK_SIZE ? len : BLOCK_SIZE;

        b = malloc(sizeof(*b) + size);
        if (b == NULL)
            return NULL;
        b->used = 0;
        b->size = size;
        /* A block filled by a long name goes second, so the current one stays in use. */
        if (map->blocks != NULL && size > BLOCK_SIZE) {
            b->next = map->blocks->next;
            map->blocks->next = b;
        } else {
            b->next = map->blocks;
            map->blocks = b;
        }
    }
    copy = b->text + b->used;
    memcpy(copy, name, len);
    b->used += len;
    return copy;
}

static uint64_t load64(const char *p)
{
    uint64_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

uint32_t glmux_name_index_hash(const char *s)
{
    size_t len = strlen(s);
    uint64_t a = 0, z = 0, h;

    if (len >= 8) {
        a = load64(s);
        z = load64(s + len - 8);
    } else {
        memcpy(&a, s, len);
    }
    h = a * UINT64_C(0x9E3779B97F4A7C15) ^ z * UINT64_C(0xC2B2AE3D27D4EB4F) ^
        (uint64_t)len * UINT64_C(0x165667B19E3779F9);
    h ^= h >> 29;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    return (uint32_t)(h ^ (h >> 32));
}

static struct glmux_name_index_cell *find_cell(const struct glmux_name_index *map,
                                               const char *name, uint32_t h)
{
    if (map->size == 0)
        return NULL;
    for (size_t i = h & (map->size - 1); map->cells[i].name != NULL; i = (i + 1) & (map->size - 1)) {
        if (map->cells[i].hash == h && strcmp(map->cells[i].name, name) == 0)
            return &map->cells[i];
    }
    return NULL;
}

int glmux_name_index_find_hashed(const struct glmux_name_index *map, const char *name,
                                 uint32_t hash)
{
    const struct glmux_name_index_cell *cell = find_cell(map, name, hash);

    return cell != NULL ? cell->value : -1;
}

int glmux_name_index_find(const struct glmux_name_index *map, const char *name)
{
    return glmux_name_index_find_hashed(map, name, glmux_name_index_hash(name));
}

static void put(struct glmux_name_index_cell *cells, size_t size,
                const struct glmux_name_index_cell *cell)
{
    size_t i = cell->hash & (size - 1);

    while (cells[i].name != NULL)
        i = (i + 1) & (size - 1);
    cells[i] = *cell;
}

static const char *add_hashed(struct glmux_name_index *map, const char *name, uint32_t h,
                              int value)
{
    struct glmux_name_index_cell cell = { NULL, h, value };

    if (2 * (map->count + 1) > map->size) {
        size_t size = map->size ? 2 * map->size : 256;
        struct glmux_name_index_cell *cells = malloc(size * sizeof(*cells));

        if (cells == NULL)
            return NULL;
        /* Only the names need clearing (cheaper than calloc's memset of every byte). */
        for (size_t i = 0; i < size; i++)
            cells[i].name = NULL;
        for (size_t i = 0; i < map->size; i++) {
            if (map->cells[i].name != NULL)
                put(cells, size, &map->cells[i]);
        }
        free(map->cells);
        map->cells = cells;
        map->size = size;
    }
    cell.name = copy_name(map, name);
    if (cell.name == NULL)
        return NULL;
    put(map->cells, map->size, &cell);
    map->count++;
    return cell.name;
}

int glmux_name_index_find_or_add(struct glmux_name_index *map, const char *name, int value,
                                 const char **copy)
{
    return glmux_name_index_find_or_add_hashed(map, name, glmux_name_index_hash(name), value,
                                               copy);
}

int glmux_name_index_find_or_add_hashed(struct glmux_name_index *map, const char *name,
                                        uint32_t h, int value, const char **copy)
{
    const struct glmux_name_index_cell *cell = find_cell(map, name, h);
    const char *stored;

    if (cell != NULL) {
        if (copy != NULL)
            *copy = cell->name;
        return cell->value;
    }
    stored = add_hashed(map, name, h, value);
    if (copy != NULL)
        *copy = stored;
    return stored != NULL ? value : -1;
}

void glmux_name_index_clear(struct glmux_name_index *map)
{
    while (map->blocks != NULL) {
        struct glmux_name_index_block *b = map->blocks;

        map->blocks = b->next;
        free(b);
    }
    free(map->cells);
    map->cells = NULL;
    map->size = 0;
    map->count = 0;
}
