/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's GLX dispatch indices. Indices [0, OWN_COUNT) are libGLX's own functions, in
 * the order of glx_core_table.h and then GLMUX_GLX_OWN_EXTRA (glx_api.h), found by name in a
 * constant hash table; the vendors' GLX extension functions follow, in the order they got one
 * (a name list of their own). Every vendor is told every index: when it is loaded, all of them
 * so far; then each new one. The vendors told are this file's own list, so that nothing here
 * reaches back into the vendor loader. glmux_glx_lock guards the lists; the names are also
 * changed under glmux_glx_dyn_lock, so that fetchDispatchEntry reads a name under that leaf
 * alone, never waiting behind a vendor's load. The told list only grows at its head, so it
 * may be walked without a lock.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "glx/glx_api.h"
#include "glx/glx_core_table.h"
#include "glx/glx_entry.h"
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

static struct glmux_names extension_names;     /* index OWN_COUNT + position */

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
    int i, count;

    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    *is_new = false;
    glmux_glx_index_own_build();
    if ((i = glmux_glx_index_own(name, h)) >= 0)
        return i;
    if ((i = glmux_names_find(&extension_names, name)) >= 0)
        return OWN_COUNT + i;
    count = extension_names.count;
    pthread_mutex_lock(&glmux_glx_dyn_lock);
    i = glmux_names_add(&extension_names, name);
    pthread_mutex_unlock(&glmux_glx_dyn_lock);
    if (i < 0)
        return -1;
    *is_new = i == count;
    return OWN_COUNT + i;
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
    if (is_new) {
        glmux_glx_call_out_begin();
        glmux_glx_index_tell(glmux_glx_index_name(i), i);
        glmux_glx_call_out_end();
    }
    return i;
}

const char *glmux_glx_index_name(int index)
{
    assert(glmux_lock_held(&glmux_glx_lock) || glmux_lock_held(&glmux_glx_dyn_lock));
    if (index >= 0 && index < OWN_COUNT)
        return own_names[index];
    return glmux_names_get(&extension_names, index - OWN_COUNT);
}

void glmux_glx_index_vendor_loaded(glmux_glx_vendor *vendor)
{
    struct told *t = malloc(sizeof(*t));
    int count = OWN_COUNT + extension_names.count;

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
    glmux_glx_entry_vendor_loaded(vendor);
}

static void teardown(void)
{
    glmux_names_clear(&extension_names);
    while (told != NULL) {
        struct told *t = told;

        told = t->next;
        free(t);
    }
}

GLMUX_LIFECYCLE_STEP(glx_indices, GLMUX_GLX_ORDER_INDICES, .teardown = teardown);
