/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's GLX dispatch indices. Indices [0, OWN_COUNT) are libGLX's own functions, in
 * the order of glx_core_table.h and then GLMUX_GLX_OWN_EXTRA (glx_api.h), found by name in a
 * constant hash table; the vendors' GLX extension functions follow, in the order they got one.
 * Every vendor is told every index: when it is loaded, all of them so far; then each new one.
 * The vendors told are this file's own list, so that nothing here reaches back into the vendor
 * loader. glmux_glx_lock guards the name map and the appends; the names are kept by pointer
 * (the caller's copy, glx_procaddr.c's) in chunks that never move, published with a release
 * store of the count, so that fetchDispatchEntry reads a name with no lock at all, never
 * waiting behind a vendor's load; the told list only grows at its head and is walked without
 * a lock too.
 */
#include <stdlib.h>
#include <string.h>

#include "glx/glx_api.h"
#include "glx/glx_core_table.h"
#include "glx/glx_index.h"
#include "glx/glx_lock.h"
#include "util/lifecycle.h"
#include "util/log.h"
#include "util/name_index.h"

static const char *const own_names[] = {
#define GLMUX_GLX_OWN_NAME(ret, name, params, args) "glX" #name,
    GLMUX_GLX_CORE_FUNCTIONS(GLMUX_GLX_OWN_NAME)
#undef GLMUX_GLX_OWN_NAME
#define GLMUX_GLX_OWN_NAME(name) "glX" #name,
    GLMUX_GLX_OWN_EXTRA(GLMUX_GLX_OWN_NAME)
#undef GLMUX_GLX_OWN_NAME
};
#define OWN_COUNT ((int)(sizeof(own_names) / sizeof(own_names[0])))

/*
 * The own names by hash: own_cells[i] is 1 + the index into own_names (0: empty), at a load of
 * at most one half. Built once under the lock; read without it by whoever has seen it built
 * (glx_procaddr.c publishes that). Never cleared: it depends on own_names only.
 */
#define OWN_CELLS 128
static unsigned char own_cells[OWN_CELLS];
static uint32_t own_hash[OWN_COUNT];
static bool own_built;

_Static_assert(2 * OWN_COUNT <= OWN_CELLS && OWN_COUNT < 256, "own_cells is too small");

/*
 * The extension names: name j (index OWN_COUNT + j) is chunks[j / CHUNK][j % CHUNK], written
 * before ext_count is raised past j (release); read by anyone who loaded ext_count (acquire).
 * ext_cells maps (hash, name) to 1 + j, at a load of at most one half (glmux_glx_lock).
 */
#define CHUNK 256
#define CHUNKS 64
static const char **chunks[CHUNKS];
static uint32_t *chunk_hashes[CHUNKS];
static int ext_count;
static int *ext_cells;
static unsigned ext_cap;

static const char *ext_name(int j)
{
    return chunks[j / CHUNK][j % CHUNK];
}

/* The position of name in the extension names, or -1. glmux_glx_lock held. */
static int ext_find(const char *name, uint32_t h)
{
    if (ext_cap == 0)
        return -1;
    for (unsigned c = h & (ext_cap - 1); ext_cells[c] != 0; c = (c + 1) & (ext_cap - 1)) {
        int j = ext_cells[c] - 1;

        if (chunk_hashes[j / CHUNK][j % CHUNK] == h && strcmp(ext_name(j), name) == 0)
            return j;
    }
    return -1;
}

static void ext_cell_put(int *cells, unsigned cap, uint32_t h, int j)
{
    unsigned c = h & (cap - 1);

    while (cells[c] != 0)
        c = (c + 1) & (cap - 1);
    cells[c] = j + 1;
}

/* Appends name (kept by pointer) as extension name ext_count; false out of room or memory. */
static bool ext_append(const char *name, uint32_t h)
{
    int j = ext_count;

    if (j == CHUNK * CHUNKS)
        return false;
    if (2 * (unsigned)(j + 1) > ext_cap) {
        unsigned cap = ext_cap ? 2 * ext_cap : 256;
        int *cells = calloc(cap, sizeof(*cells));

        if (cells == NULL)
            return false;
        for (int k = 0; k < j; k++)
            ext_cell_put(cells, cap, chunk_hashes[k / CHUNK][k % CHUNK], k);
        free(ext_cells);
        ext_cells = cells;
        ext_cap = cap;
    }
    if (chunks[j / CHUNK] == NULL) {
        const char **names = malloc(CHUNK * sizeof(*names));
        uint32_t *hashes = malloc(CHUNK * sizeof(*hashes));

        if (names == NULL || hashes == NULL) {
            free(names);
            free(hashes);
            return false;
        }
        chunk_hashes[j / CHUNK] = hashes;
        __atomic_store_n(&chunks[j / CHUNK], names, __ATOMIC_RELEASE);
    }
    chunks[j / CHUNK][j % CHUNK] = name;
    chunk_hashes[j / CHUNK][j % CHUNK] = h;
    ext_cell_put(ext_cells, ext_cap, h, j);
    __atomic_store_n(&ext_count, j + 1, __ATOMIC_RELEASE);
    return true;
}

/* The vendors told every index so far (newest first). */
struct told {
    struct told *next;
    glmux_glx_vendor *vendor;
};
static struct told *told;

void glmux_glx_index_own_build(void)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    if (own_built)
        return;
    for (int i = 0; i < OWN_COUNT; i++) {
        uint32_t h = glmux_name_index_hash(own_names[i]);
        unsigned c = h & (OWN_CELLS - 1);

        while (own_cells[c] != 0)
            c = (c + 1) & (OWN_CELLS - 1);
        own_cells[c] = (unsigned char)(i + 1);
        own_hash[i] = h;
    }
    own_built = true;
}

int glmux_glx_index_own(const char *name, uint32_t h)
{
    for (unsigned c = h & (OWN_CELLS - 1); own_cells[c] != 0; c = (c + 1) & (OWN_CELLS - 1)) {
        int i = own_cells[c] - 1;

        if (own_hash[i] == h && strcmp(own_names[i], name) == 0)
            return i;
    }
    return -1;
}

int glmux_glx_index_assign(const char *name, uint32_t h, bool *is_new)
{
    int j;

    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    *is_new = false;
    if ((j = ext_find(name, h)) >= 0)
        return OWN_COUNT + j;
    if (!ext_append(name, h)) {
        glmux_log(GLMUX_LOG_WARN, "out of memory (or past %d GLX extension functions): \"%s\" "
                  "gets no GLX dispatch index", CHUNK * CHUNKS, name);
        return -1;
    }
    *is_new = true;
    return OWN_COUNT + ext_count - 1;
}

void glmux_glx_index_tell(const char *name, int index)
{
    for (struct told *t = __atomic_load_n(&told, __ATOMIC_ACQUIRE); t != NULL; t = t->next)
        t->vendor->imports.setDispatchIndex((const GLubyte *)name, index);
}

int glmux_glx_index_add(const char *name)
{
    bool is_new;
    int i;

    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    i = glmux_glx_index_assign(name, glmux_name_index_hash(name), &is_new);
    if (i >= 0 && is_new) {
        glmux_glx_call_out_begin();
        glmux_glx_index_tell(glmux_glx_index_name(i), i);
        glmux_glx_call_out_end();
    }
    return i;
}

const char *glmux_glx_index_name(int index)
{
    int j = index - OWN_COUNT;

    if (index >= 0 && index < OWN_COUNT)
        return own_names[index];
    if (j < 0 || j >= __atomic_load_n(&ext_count, __ATOMIC_ACQUIRE))
        return NULL;
    return __atomic_load_n(&chunks[j / CHUNK], __ATOMIC_ACQUIRE)[j % CHUNK];
}

void glmux_glx_index_vendor_loaded(glmux_glx_vendor *vendor)
{
    struct told *t = malloc(sizeof(*t));
    int count = OWN_COUNT + ext_count;

    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    glmux_glx_call_out_begin();
    for (int i = 0; i < count; i++)
        vendor->imports.setDispatchIndex((const GLubyte *)glmux_glx_index_name(i), i);
    glmux_glx_call_out_end();
    if (t != NULL) {
        t->vendor = vendor;
        t->next = told;
        __atomic_store_n(&told, t, __ATOMIC_RELEASE);
    } else {
        glmux_log(GLMUX_LOG_WARN, "out of memory: GLX vendor \"%s\" is not told the GLX "
                  "dispatch indices handed out from now on", vendor->name);
    }
}

static void teardown(void)
{
    for (int c = 0; c < CHUNKS; c++) {
        free(chunks[c]);
        free(chunk_hashes[c]);
        chunks[c] = NULL;
        chunk_hashes[c] = NULL;
    }
    ext_count = 0;
    free(ext_cells);
    ext_cells = NULL;
    ext_cap = 0;
    while (told != NULL) {
        struct told *t = told;

        told = t->next;
        free(t);
    }
}

GLMUX_LIFECYCLE_STEP(glx_indices, GLMUX_GLX_ORDER_INDICES, .teardown = teardown);
