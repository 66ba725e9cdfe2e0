/* SPDX-License-Identifier: MIT */
/*
 * glmux unit test of src/util/name_index.c, the name -> integer map behind libGLX's dispatch
 * indices and GLX entry stubs: an empty map, absent names next to present ones (prefixes,
 * extensions, the empty name), names whose full hashes are equal (the hash reads only a
 * name's length and its first and last 8 bytes, so names that differ only in the middle
 * collide), growth through many doublings, names longer than a block of name copies, the
 * map's own copies of the names, and clearing and reuse.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "glmux_test.h"
#include "util/name_index.h"

#define MANY 20000

/* Stores value for name, which must not be in the map yet (find_or_add gives back the value
 * already there otherwise); the map's copy of the name, or NULL. */
static const char *add(struct glmux_name_index *map, const char *name, int value)
{
    const char *copy = NULL;

    return glmux_name_index_find_or_add(map, name, value, &copy) == value ? copy : NULL;
}

/* Every stored name must be found with its value, and the table must stay at most half full. */
static void check_shape(const struct glmux_name_index *map, size_t count)
{
    CHECK(map->count == count);
    CHECK(map->size == 0 || (map->size & (map->size - 1)) == 0);
    CHECK(2 * map->count <= map->size || (map->size == 0 && count == 0));
}

static void empty_map(void)
{
    struct glmux_name_index map = {0};

    CHECK(glmux_name_index_find(&map, "glXSwapBuffers") == -1);
    CHECK(glmux_name_index_find(&map, "") == -1);
    glmux_name_index_clear(&map);      /* clearing an empty map is fine */
    check_shape(&map, 0);
}

static void absent_names(void)
{
    struct glmux_name_index map = {0};
    char buf[64];
    const char *copy = NULL;

    strcpy(buf, "glXGetProcAddressARB");
    CHECK(add(&map, buf, 7) != NULL);
    /* The map holds a copy: changing the caller's buffer changes nothing. */
    buf[0] = 'X';
    CHECK(glmux_name_index_find(&map, "glXGetProcAddressARB") == 7);
    CHECK(glmux_name_index_find(&map, buf) == -1);
    CHECK(add(&map, "a", 0) != NULL);              /* shorter than 8 bytes */
    CHECK(add(&map, "glXQuery", 1) != NULL);       /* exactly 8 */
    CHECK(add(&map, "glXQueryContext", 2) != NULL); /* 8 to 16: loads overlap */
    CHECK(add(&map, "", 3) != NULL);
    CHECK(glmux_name_index_find(&map, "a") == 0);
    CHECK(glmux_name_index_find(&map, "glXQuery") == 1);
    CHECK(glmux_name_index_find(&map, "glXQueryContext") == 2);
    CHECK(glmux_name_index_find(&map, "") == 3);
    /* Prefixes, extensions and near misses of stored names are absent. */
    CHECK(glmux_name_index_find(&map, "glXGetProcAddress") == -1);
    CHECK(glmux_name_index_find(&map, "glXGetProcAddressARBX") == -1);
    CHECK(glmux_name_index_find(&map, "glXQuer") == -1);
    CHECK(glmux_name_index_find(&map, "glXQueryContexT") == -1);
    CHECK(glmux_name_index_find(&map, "b") == -1);
    CHECK(glmux_name_index_find(&map, "aa") == -1);
    /* find_or_add: an existing name keeps its value and copy; a new one gets the value given. */
    CHECK(glmux_name_index_find_or_add(&map, "glXQuery", 99, &copy) == 1);
    CHECK(copy != NULL && strcmp(copy, "glXQuery") == 0);
    CHECK(glmux_name_index_find_or_add(&map, "glXQueryDrawable", 4, &copy) == 4);
    CHECK(copy != NULL && strcmp(copy, "glXQueryDrawable") == 0);
    CHECK(glmux_name_index_find_or_add(&map, "glXQueryDrawable", 5, NULL) == 4);
    CHECK(glmux_name_index_find(&map, "glXQueryDrawable") == 4);
    /* The hashed variants agree with the plain ones. */
    CHECK(glmux_name_index_hash("glXQuery") == glmux_name_index_hash("glXQuery"));
    CHECK(glmux_name_index_find_hashed(&map, "glXQuery", glmux_name_index_hash("glXQuery")) == 1);
    CHECK(glmux_name_index_find_hashed(&map, "glXNone", glmux_name_index_hash("glXNone")) == -1);
    CHECK(glmux_name_index_find_or_add_hashed(&map, "glXNone", glmux_name_index_hash("glXNone"),
                                              5, &copy) == 5);
    CHECK(glmux_name_index_find(&map, "glXNone") == 5 && strcmp(copy, "glXNone") == 0);
    check_shape(&map, 7);
    glmux_name_index_clear(&map);
}

/* Names of one length whose first and last 8 bytes agree: all have the same hash. */
static void colliding_names(void)
{
    struct glmux_name_index map = {0};
    char name[64];
    int n = 1000;

    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof(name), "glXSameStart_%06d_SameEnd", i);
        CHECK(add(&map, name, i) != NULL);
    }
    check_shape(&map, (size_t)n);
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof(name), "glXSameStart_%06d_SameEnd", i);
        CHECK_MSG(glmux_name_index_find(&map, name) == i, "%s", name);
    }
    /* Same hash, not stored: the whole probe sequence is compared and nothing matches. */
    snprintf(name, sizeof(name), "glXSameStart_%06d_SameEnd", n);
    CHECK(glmux_name_index_find(&map, name) == -1);
    CHECK(glmux_name_index_find(&map, "glXSameStart_00000x_SameEnd") == -1);
    CHECK(glmux_name_index_find_or_add(&map, "glXSameStart_000500_SameEnd", -5, NULL) == 500);
    glmux_name_index_clear(&map);
}

/* Many names: the table doubles many times and every name keeps its value. */
static void many_names(void)
{
    struct glmux_name_index map = {0};
    char name[64];
    size_t last_size = 0;
    int grew = 0;

    for (int i = 0; i < MANY; i++) {
        snprintf(name, sizeof(name), "glFunction%dEXT", i);
        CHECK(glmux_name_index_find(&map, name) == -1);
        CHECK(glmux_name_index_find_or_add(&map, name, i, NULL) == i);
        if (map.size != last_size) {
            grew++;
            last_size = map.size;
        }
    }
    check_shape(&map, MANY);
    CHECK(grew >= 7);       /* from 256 cells to at least 32768 */
    for (int i = 0; i < MANY; i++) {
        snprintf(name, sizeof(name), "glFunction%dEXT", i);
        CHECK_MSG(glmux_name_index_find(&map, name) == i, "%s", name);
        snprintf(name, sizeof(name), "glFunction%dARB", i);
        CHECK(glmux_name_index_find(&map, name) == -1);
    }
    glmux_name_index_clear(&map);
    check_shape(&map, 0);
    /* A cleared map is empty and can be used again. */
    CHECK(glmux_name_index_find(&map, "glFunction0EXT") == -1);
    CHECK(add(&map, "glFunction0EXT", 42) != NULL);
    CHECK(glmux_name_index_find(&map, "glFunction0EXT") == 42);
    glmux_name_index_clear(&map);
}

/* Names longer than a block of copies (4,000 bytes) get a block of their own; the current
 * block stays in use for the short names after them. */
static void long_names(void)
{
    struct glmux_name_index map = {0};
    static char longer[3][10000];
    const char *copies[3];
    char name[64];

    for (int k = 0; k < 3; k++) {
        size_t len = k == 0 ? 3999 : k == 1 ? 4000 : sizeof(longer[k]) - 1;

        memset(longer[k], 'a' + k, len);
        memcpy(longer[k], "glX", 3);
        longer[k][len] = '\0';
    }
    for (int i = 0; i < 300; i++) {
        snprintf(name, sizeof(name), "glXShort%d", i);
        CHECK(add(&map, name, i) != NULL);
        if (i % 100 == 50) {
            copies[i / 100] = add(&map, longer[i / 100], 1000 + i / 100);
            CHECK(copies[i / 100] != NULL);
            CHECK(copies[i / 100] != longer[i / 100]);
            CHECK(strcmp(copies[i / 100], longer[i / 100]) == 0);
        }
    }
    check_shape(&map, 303);
    for (int k = 0; k < 3; k++) {
        CHECK(glmux_name_index_find(&map, longer[k]) == 1000 + k);
        CHECK(strcmp(copies[k], longer[k]) == 0);      /* later names did not overwrite it */
        /* The same long name one byte shorter, and one byte different in the middle. */
        longer[k][strlen(longer[k]) - 1] = '\0';
        CHECK(glmux_name_index_find(&map, longer[k]) == -1);
        longer[k][strlen(longer[k])] = 'a' + k;
        longer[k][2000] = 'z';
        CHECK(glmux_name_index_find(&map, longer[k]) == -1);
    }
    for (int i = 0; i < 300; i++) {
        snprintf(name, sizeof(name), "glXShort%d", i);
        CHECK(glmux_name_index_find(&map, name) == i);
    }
    glmux_name_index_clear(&map);
}

int main(void)
{
    empty_map();
    absent_names();
    colliding_names();
    many_names();
    long_names();
    return 0;
}
