/* SPDX-License-Identifier: MIT */
/*
 * glmux: glXGetProcAddress and the list of GLX dispatch indices.
 *
 * A glX name resolves to, in order: libGLX's own function; the dispatch stub a loaded vendor
 * offers (getDispatchAddress), which gets a dispatch index broadcast to every vendor; the
 * libGLdispatch stub when a vendor's getProcAddress knows the name (a GL function whose name
 * starts with "glX"); or a generated GLX entry stub that a vendor loaded later fills in. Any
 * other name is a GL function and gets libGLdispatch's stub (its lookup is lock-free and
 * gives the same answer every time, so nothing here caches it).
 *
 * libGLX's own names are found in a constant hash table without a lock. Every other glX
 * answer is kept in one name index (answers): one hashed probe under glmux_glx_lock finds
 * it again, and the same entry holds the name's dispatch index, if it has one. The vendors
 * are asked with glmux_glx_lock released. The first call also loads the vendor
 * __GLX_VENDOR_LIBRARY_NAME names, so its extension functions are known before any display
 * is opened.
 */
#include <stdlib.h>
#include <string.h>

#include "glx/glx_core_table.h"
#include "glx/glx_internal.h"
#include "util/env.h"
#include "util/log.h"
#include "util/name_index.h"

/* libGLX's own functions: the 40 exports and the 3 reached only through GetProcAddress. */
static const struct {
    const char *name;
    __GLXextFuncPtr fn;
} own[] = {
#define GLMUX_GLX_OWN(ret, name, params, args) {"glX" #name, (__GLXextFuncPtr)glX##name},
    GLMUX_GLX_CORE_FUNCTIONS(GLMUX_GLX_OWN)
#undef GLMUX_GLX_OWN
    {"glXGetCurrentDisplay", (__GLXextFuncPtr)glXGetCurrentDisplay},
    {"glXCreateContextAttribsARB", (__GLXextFuncPtr)glXCreateContextAttribsARB},
    {"glXImportContextEXT", (__GLXextFuncPtr)glXImportContextEXT},
    {"glXFreeContextEXT", (__GLXextFuncPtr)glXFreeContextEXT},
};
#define OWN_COUNT ((int)(sizeof(own) / sizeof(own[0])))

/*
 * The own names by hash: own_cells[i] is 1 + the index into own[] (0: empty), at a load of
 * at most one half. Filled once, under the lock, before `preloaded` is set; read without
 * the lock by whoever has seen `preloaded` set (acquire). Never cleared: it depends on own[]
 * only.
 */
#define OWN_CELLS 128
static unsigned char own_cells[OWN_CELLS];
static uint32_t own_hash[OWN_COUNT];
static bool own_built;
static bool preloaded;

_Static_assert(2 * OWN_COUNT <= OWN_CELLS && OWN_COUNT < 256, "own_cells is too small");

static void own_build(void)
{
    if (own_built)
        return;
    for (int i = 0; i < OWN_COUNT; i++) {
        uint32_t h = glmux_name_index_hash(own[i].name);
        unsigned c = h & (OWN_CELLS - 1);

        while (own_cells[c] != 0)
            c = (c + 1) & (OWN_CELLS - 1);
        own_cells[c] = (unsigned char)(i + 1);
        own_hash[i] = h;
    }
    own_built = true;
}

/* The index of an own name in own[] (= its dispatch index), or -1. Needs no lock. */
static int own_find(const char *name, uint32_t h)
{
    for (unsigned c = h & (OWN_CELLS - 1); own_cells[c] != 0; c = (c + 1) & (OWN_CELLS - 1)) {
        int i = own_cells[c] - 1;

        if (own_hash[i] == h && strcmp(own[i].name, name) == 0)
            return i;
    }
    return -1;
}

/*
 * Every other glX name asked for or given a dispatch index: answers[answer_map(name)].
 * fn is what glXGetProcAddress returns (NULL until there is an answer; the first answer
 * stays), index the name's dispatch index or -1. Names are the map's copies, stable until
 * glmux_glx_procaddr_fini. Lock held for all of it.
 */
struct answer {
    const char *name;
    __GLXextFuncPtr fn;
    int index;
};
static struct glmux_name_index answer_map;
static struct answer *answers;
static int answer_count, answer_cap;

/* Dispatch indices: [0, OWN_COUNT) are own[], then vendor extension functions. */
static const char **index_names;
static int index_count, index_cap;

/* The position of name's answer, added (fn NULL, index -1) when new; -1 out of memory. */
static int answer_add(const char *name, uint32_t h)
{
    const char *copy = NULL;
    int pos;

    if (answer_count == answer_cap) {
        int cap = answer_cap ? 2 * answer_cap : 64;
        struct answer *a = realloc(answers, sizeof(*a) * (size_t)cap);

        if (a == NULL)
            return -1;
        answers = a;
        answer_cap = cap;
    }
    pos = glmux_name_index_find_or_add_hashed(&answer_map, name, h, answer_count, &copy);
    if (pos == answer_count) {
        answers[pos] = (struct answer){ .name = copy, .fn = NULL, .index = -1 };
        answer_count++;
    }
    return pos;
}

static bool index_append(const char *name)
{
    if (index_count == index_cap) {
        int cap = index_cap ? 2 * index_cap : 128;
        const char **n = realloc(index_names, sizeof(*n) * (size_t)cap);

        if (n == NULL)
            return false;
        index_names = n;
        index_cap = cap;
    }
    index_names[index_count++] = name;
    return true;
}

static bool ensure_own_indices(void)
{
    while (index_count < OWN_COUNT) {
        if (!index_append(own[index_count].name))
            return false;
    }
    return true;
}

/* Gives answers[pos] a dispatch index if it has none; true if it is new. Lock held. */
static bool index_assign(int pos)
{
    if (answers[pos].index >= 0 || !ensure_own_indices() || !index_append(answers[pos].name))
        return false;
    answers[pos].index = index_count - 1;
    return true;
}

const char *glmux_glx_index_name(int index)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    ensure_own_indices();
    return index >= 0 && index < index_count ? index_names[index] : NULL;
}

int glmux_glx_index_find(const char *name)
{
    uint32_t h = glmux_name_index_hash(name);
    int i;

    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    own_build();
    i = own_find(name, h);
    if (i >= 0)
        return i;
    i = glmux_name_index_find_hashed(&answer_map, name, h);
    return i >= 0 ? answers[i].index : -1;
}

int glmux_glx_index_add(const char *name)
{
    uint32_t h = glmux_name_index_hash(name);
    int i, pos;

    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    own_build();
    i = own_find(name, h);
    if (i >= 0)
        return i;
    pos = answer_add(name, h);
    if (pos < 0)
        return -1;
    if (!index_assign(pos))
        return answers[pos].index;
    i = answers[pos].index;
    glmux_glx_call_out_begin();
    for (glmux_glx_vendor *v = glmux_glx_vendor_first(); v != NULL; v = v->next)
        v->imports.setDispatchIndex((const GLubyte *)answers[pos].name, i);
    glmux_glx_call_out_end();
    return i;
}

void glmux_glx_procaddr_vendor_loaded(glmux_glx_vendor *vendor)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    ensure_own_indices();
    glmux_glx_call_out_begin();
    for (int i = 0; i < index_count; i++)
        vendor->imports.setDispatchIndex((const GLubyte *)index_names[i], i);
    glmux_glx_call_out_end();
    glmux_glx_entry_vendor_loaded(vendor);
}

/*
 * Records fn as name's answer (the first answer recorded wins) and, for a vendor's dispatch
 * stub, gives the name a dispatch index and tells every loaded vendor, with the lock
 * released: a vendor loaded meanwhile learnt the index while loading. Returns the answer.
 */
static __GLXextFuncPtr publish(const char *name, uint32_t h, __GLXextFuncPtr fn, bool dispatch)
{
    glmux_glx_vendor *first = NULL;
    const char *copy = NULL;
    bool told = false;
    int pos, index = -1;

    glmux_glx_lock_acquire();
    pos = answer_add(name, h);
    if (pos >= 0) {
        if (answers[pos].fn == NULL)
            answers[pos].fn = fn;
        fn = answers[pos].fn;
        if (dispatch && index_assign(pos)) {
            told = true;
            index = answers[pos].index;
            copy = answers[pos].name;
            first = glmux_glx_vendor_first();
        }
    }
    glmux_glx_lock_release();
    if (told) {
        for (glmux_glx_vendor *v = first; v != NULL; v = v->next)
            v->imports.setDispatchIndex((const GLubyte *)copy, index);
    }
    return fn;
}

/*
 * A glX name that is not libGLX's own. The vendors are asked with the lock released: the
 * list is read once under it (vendors are only ever added at its head, and never freed
 * while libGLX is loaded). A generated stub is handed out only if no vendor was loaded in
 * the meantime; otherwise the vendors are asked again.
 */
static __GLXextFuncPtr lookup_glx(const char *name, uint32_t h)
{
    for (;;) {
        glmux_glx_vendor *first;
        __GLXextFuncPtr fn = NULL;
        int pos;

        glmux_glx_lock_acquire();
        pos = glmux_name_index_find_hashed(&answer_map, name, h);
        if (pos >= 0)
            fn = answers[pos].fn;
        first = glmux_glx_vendor_first();
        glmux_glx_lock_release();
        if (fn != NULL)
            return fn;
        for (glmux_glx_vendor *v = first; v != NULL; v = v->next) {
            fn = (__GLXextFuncPtr)v->imports.getDispatchAddress((const GLubyte *)name);
            if (fn != NULL)
                return publish(name, h, fn, true);
        }
        for (glmux_glx_vendor *v = first; v != NULL; v = v->next) {
            if (v->imports.getProcAddress((const GLubyte *)name) != NULL) {
                fn = (__GLXextFuncPtr)__glDispatchGetProcAddress(name);
                return fn != NULL ? publish(name, h, fn, false) : NULL;
            }
        }
        glmux_glx_lock_acquire();
        if (glmux_glx_vendor_first() == first) {
            pos = answer_add(name, h);
            if (pos >= 0 && answers[pos].fn == NULL)
                answers[pos].fn = glmux_glx_entry_new(answers[pos].name);
            fn = pos >= 0 ? answers[pos].fn : NULL;
            glmux_glx_lock_release();
            return fn;
        }
        glmux_glx_lock_release();
    }
}

/*
 * The first call: builds the own-name table and loads the vendor __GLX_VENDOR_LIBRARY_NAME
 * names (once; a call racing with it may go on before that vendor is loaded, as before).
 */
static __attribute__((noinline)) void preload(void)
{
    bool first;

    glmux_glx_lock_acquire();
    own_build();
    first = !preloaded;
    __atomic_store_n(&preloaded, true, __ATOMIC_RELEASE);
    glmux_glx_lock_release();
    if (first) {
        const char *forced = glmux_env_get("__GLX_VENDOR_LIBRARY_NAME");

        if (forced != NULL && *forced != '\0')
            glmux_glx_vendor_load(forced, true);
    }
}

/* A glX name: libGLX's own function without the lock, else the answer kept or found. */
static __attribute__((noinline)) __GLXextFuncPtr glx_proc(const char *name)
{
    uint32_t h = glmux_name_index_hash(name);
    int i = own_find(name, h);
    __GLXextFuncPtr fn;

    if (i >= 0)
        return own[i].fn;
    fn = lookup_glx(name, h);
    if (fn == NULL)
        glmux_log(GLMUX_LOG_DISPATCH, "glXGetProcAddress(\"%s\"): no function", name);
    return fn;
}

__GLXextFuncPtr glXGetProcAddressARB(const GLubyte *procName)
{
    const char *name = (const char *)procName;
    __GLXextFuncPtr fn;

    glmux_glx_entry();
    if (name == NULL)
        return NULL;
    if (!__atomic_load_n(&preloaded, __ATOMIC_ACQUIRE))
        preload();
    if (name[0] == 'g' && name[1] == 'l') {
        if (name[2] == 'X')
            return glx_proc(name);
    } else if (strcmp(name, GLMUX_DISPATCH_WINSYS_NAME) == 0) {
        return NULL;    /* libGLdispatch's private extension is not a function (GLdispatch.h) */
    }
    /* A GL name: libGLdispatch's lookup is lock-free and gives the same answer every time. */
    fn = (__GLXextFuncPtr)__glDispatchGetProcAddress(name);
    if (fn == NULL)
        glmux_log(GLMUX_LOG_DISPATCH, "glXGetProcAddress(\"%s\"): no function", name);
    return fn;
}

__GLXextFuncPtr glXGetProcAddress(const GLubyte *procName)
{
    return glXGetProcAddressARB(procName);
}

void glmux_glx_procaddr_fini(void)
{
    glmux_name_index_clear(&answer_map);
    free(answers);
    answers = NULL;
    answer_count = answer_cap = 0;
    free(index_names);
    index_names = NULL;
    index_count = index_cap = 0;
    preloaded = false;
}

/* ---- libGL.so.1's interface (glx_core_table.h) ---- */

const struct glmux_glx_core_functions __GLXGL_CORE_FUNCTIONS = {
#define GLMUX_GLX_CORE_INIT(ret, name, params, args) .name = glX##name,
    GLMUX_GLX_CORE_FUNCTIONS(GLMUX_GLX_CORE_INIT)
#undef GLMUX_GLX_CORE_INIT
};

/*
 * Resolves one of libGL's lazy glX wrappers into *ptr. The caller's mutex (libglvnd's interface
 * passes one) is not taken: a thread holding it at fork() would leave the child's first call of
 * that wrapper blocked for ever. None is needed: glXGetProcAddressARB gives the same pointer for
 * the same name every time, so threads that race here store the same value, and the first
 * store wins.
 */
__GLXextFuncPtr __glXGLLoadGLXFunction(const char *name, __GLXextFuncPtr *ptr,
                                       pthread_mutex_t *mutex)
{
    __GLXextFuncPtr fn, expected = NULL;

    (void)mutex;
    fn = __atomic_load_n(ptr, __ATOMIC_ACQUIRE);
    if (fn != NULL)
        return fn;
    fn = glXGetProcAddressARB((const GLubyte *)name);
    if (fn != NULL &&
        !__atomic_compare_exchange_n(ptr, &expected, fn, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        fn = expected;
    return fn;
}
