/* SPDX-License-Identifier: MIT */
/*
 * glmux: glXGetProcAddress and the list of GLX dispatch indices.
 *
 * A glX name resolves to, in order: libGLX's own function; the dispatch stub a loaded vendor
 * offers (getDispatchAddress), which gets a dispatch index broadcast to every vendor; the
 * libGLdispatch stub when a vendor's getProcAddress knows the name (a GL function whose name
 * starts with "glX"); or a generated GLX entry stub that a vendor loaded later fills in. Any
 * other name is a GL function and gets libGLdispatch's stub (its lock-free lookup answers
 * GL names without the lock or the cache once the first call is done). Every other answer is
 * cached. The vendors are asked with glmux_glx_lock released.
 * The first lookup also loads the vendor __GLX_VENDOR_LIBRARY_NAME names, so its extension
 * functions are known before any display is opened.
 */
#include <stdlib.h>
#include <string.h>

#include "glx/glx_core_table.h"
#include "glx/glx_internal.h"
#include "util/env.h"
#include "util/log.h"

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
 * Dispatch indices: [0, OWN_COUNT) are libGLX's functions, then vendor extension functions;
 * each entry's data is the vendor dispatch stub handed out for it.
 */
static struct glmux_names indices;

/* The cache of earlier answers: a chained hash table keyed by name. */
struct cached {
    struct cached *next;
    __GLXextFuncPtr fn;
    char name[];
};
#define CACHE_BUCKETS 512
static struct cached *cache[CACHE_BUCKETS];
static bool preloaded;

static unsigned hash_name(const char *s)
{
    unsigned h = 2166136261u;

    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h % CACHE_BUCKETS;
}

static __GLXextFuncPtr cache_find(const char *name)
{
    for (struct cached *c = cache[hash_name(name)]; c != NULL; c = c->next) {
        if (strcmp(c->name, name) == 0)
            return c->fn;
    }
    return NULL;
}

static void cache_add(const char *name, __GLXextFuncPtr fn)
{
    size_t len = strlen(name);
    struct cached *c = malloc(sizeof(*c) + len + 1);
    unsigned h = hash_name(name);

    if (c == NULL)
        return;
    memcpy(c->name, name, len + 1);
    c->fn = fn;
    c->next = cache[h];
    cache[h] = c;
}

static bool ensure_own_indices(void)
{
    for (int i = indices.count; i < OWN_COUNT; i++) {
        if (glmux_names_add(&indices, own[i].name) != i)
            return false;
    }
    return true;
}

const char *glmux_glx_index_name(int index)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    return glmux_names_get(&indices, index);
}

int glmux_glx_index_find(const char *name)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    ensure_own_indices();
    return glmux_names_find(&indices, name);
}

int glmux_glx_index_add(const char *name)
{
    int i;

    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    i = glmux_glx_index_find(name);

    if (i >= 0)
        return i;
    i = glmux_names_add(&indices, name);
    if (i < 0)
        return -1;
    for (glmux_glx_vendor *v = glmux_glx_vendor_first(); v != NULL; v = v->next)
        v->imports.setDispatchIndex((const GLubyte *)name, i);
    return i;
}

void glmux_glx_procaddr_vendor_loaded(glmux_glx_vendor *vendor)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    ensure_own_indices();
    for (int i = 0; i < indices.count; i++)
        vendor->imports.setDispatchIndex((const GLubyte *)indices.items[i].name, i);
    glmux_glx_entry_vendor_loaded(vendor);
}

/*
 * Gives name a dispatch index for a vendor's dispatch stub (the first one recorded wins) and
 * tells every loaded vendor, with the lock released: a vendor loaded meanwhile learnt the
 * index while loading, and a second setDispatchIndex with the same index is harmless.
 */
static __GLXextFuncPtr publish_stub(const char *name, __GLXextFuncPtr stub)
{
    glmux_glx_vendor *first;
    int i;

    glmux_glx_lock_acquire();
    ensure_own_indices();
    i = glmux_names_add(&indices, name);
    if (i >= 0) {
        if (indices.items[i].data == NULL)
            indices.items[i].data = (void *)stub;
        stub = (__GLXextFuncPtr)indices.items[i].data;
    }
    first = glmux_glx_vendor_first();
    glmux_glx_lock_release();
    if (i < 0)
        return NULL;
    for (glmux_glx_vendor *v = first; v != NULL; v = v->next)
        v->imports.setDispatchIndex((const GLubyte *)name, i);
    return stub;
}

/*
 * A glX name that is not libGLX's own. The vendors are asked with the lock released: the
 * list is read once under it (vendors are only ever added at its head, and never freed
 * while libGLX is loaded). A generated stub is handed out only if no vendor was loaded in
 * the meantime; otherwise the vendors are asked again.
 */
static __GLXextFuncPtr lookup_vendor_glx(const char *name)
{
    for (;;) {
        glmux_glx_vendor *first;
        __GLXextFuncPtr fn = NULL;
        int i;

        glmux_glx_lock_acquire();
        i = glmux_glx_index_find(name);
        if (i >= 0)
            fn = (__GLXextFuncPtr)indices.items[i].data;
        first = glmux_glx_vendor_first();
        glmux_glx_lock_release();
        if (fn != NULL)
            return fn;
        for (glmux_glx_vendor *v = first; v != NULL; v = v->next) {
            fn = (__GLXextFuncPtr)v->imports.getDispatchAddress((const GLubyte *)name);
            if (fn != NULL)
                return publish_stub(name, fn);
        }
        for (glmux_glx_vendor *v = first; v != NULL; v = v->next) {
            if (v->imports.getProcAddress((const GLubyte *)name) != NULL)
                return (__GLXextFuncPtr)__glDispatchGetProcAddress(name);
        }
        glmux_glx_lock_acquire();
        if (glmux_glx_vendor_first() == first) {
            fn = glmux_glx_entry_new(name);
            glmux_glx_lock_release();
            return fn;
        }
        glmux_glx_lock_release();
    }
}

static __GLXextFuncPtr lookup_glx(const char *name)
{
    int i;

    glmux_glx_lock_acquire();
    i = glmux_glx_index_find(name);         /* a hash map; [0, OWN_COUNT) are own[], in order */
    glmux_glx_lock_release();
    if (i >= 0 && i < OWN_COUNT)
        return own[i].fn;
    return lookup_vendor_glx(name);
}

/*
 * Locking (docs/architecture.md): the cache is read and written under glmux_glx_lock, the
 * answer is looked up with it released, so no vendor is called under it here.
 */
/* Every name but a GL name after the first call: through the cache. */
static __attribute__((noinline)) __GLXextFuncPtr cached_proc(const char *name)
{
    __GLXextFuncPtr fn, known;
    bool preload;

    /* libGLdispatch's private extension is not a function (GLdispatch.h). */
    if (strcmp(name, GLMUX_DISPATCH_WINSYS_NAME) == 0)
        return NULL;
    glmux_glx_lock_acquire();
    fn = cache_find(name);
    preload = !preloaded;
    __atomic_store_n(&preloaded, true, __ATOMIC_RELEASE);
    glmux_glx_lock_release();
    if (fn != NULL)
        return fn;
    if (preload) {
        const char *forced = glmux_env_get("__GLX_VENDOR_LIBRARY_NAME");

        if (forced != NULL && *forced != '\0')
            glmux_glx_vendor_load(forced, true);
    }
    if (strncmp(name, "glX", 3) == 0)
        fn = lookup_glx(name);
    else
        fn = (__GLXextFuncPtr)__glDispatchGetProcAddress(name);
    if (fn == NULL) {
        glmux_log(GLMUX_LOG_DISPATCH, "glXGetProcAddress(\"%s\"): no function", name);
        return NULL;
    }
    glmux_glx_lock_acquire();
    known = cache_find(name);
    if (known != NULL)
        fn = known;         /* another thread answered first: one answer per name */
    else
        cache_add(name, fn);
    glmux_glx_lock_release();
    return fn;
}

__GLXextFuncPtr glXGetProcAddressARB(const GLubyte *procName)
{
    const char *name = (const char *)procName;
    __GLXextFuncPtr fn;

    glmux_glx_entry();
    if (name == NULL)
        return NULL;
    if (name[0] == 'g' && name[1] == 'l' && name[2] != 'X' &&
        __atomic_load_n(&preloaded, __ATOMIC_ACQUIRE)) {
        /* A GL name: libGLdispatch's lookup is lock-free, as fast as the cache and gives the
         * same answer every time, so neither the lock nor the cache is needed. */
        fn = (__GLXextFuncPtr)__glDispatchGetProcAddress(name);
        if (fn == NULL)
            glmux_log(GLMUX_LOG_DISPATCH, "glXGetProcAddress(\"%s\"): no function", name);
        return fn;
    }
    return cached_proc(name);
}

__GLXextFuncPtr glXGetProcAddress(const GLubyte *procName)
{
    return glXGetProcAddressARB(procName);
}

void glmux_glx_procaddr_fini(void)
{
    for (int i = 0; i < CACHE_BUCKETS; i++) {
        while (cache[i] != NULL) {
            struct cached *c = cache[i];

            cache[i] = c->next;
            free(c);
        }
    }
    glmux_names_clear(&indices);
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
