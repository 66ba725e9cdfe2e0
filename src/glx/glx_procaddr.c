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
 * libGLX's own names are found in glx_index.c's constant hash table without a lock (their
 * index is their place in own[]). Every other glX answer is kept in one name index (answers):
 * one hashed probe under glmux_glx_lock finds it again. The vendors are asked with
 * glmux_glx_lock released. The first call also loads the vendor __GLX_VENDOR_LIBRARY_NAME
 * names, so its extension functions are known before any display is opened.
 *
 * With GL layers loaded, a glX name's answer is the top of its chain (winsys/layer.h) when a
 * layer intercepts it. The bottom of the chain, glmux_glx_own_proc (glx_procaddr.h), is the
 * answer without layers, but an own function's body instead of its export.
 */
#include <stdlib.h>
#include <string.h>

#include "glx/glx_api.h"
#include "glx/glx_core_table.h"
#include "glx/glx_entry.h"
#include "glx/glx_explain.h"
#include "glx/glx_index.h"
#include "glx/glx_lock.h"
#include "glx/glx_procaddr.h"
#include "glx/glx_screen.h"
#include "glx/glx_vendor.h"
#include "glmux/glmux_layer.h"
#include "util/env.h"
#include "util/lifecycle.h"
#include "util/log.h"
#include "util/name_index.h"
#include "winsys/layer.h"

/* The bodies of libGLX's own functions, in the order of their dispatch indices (glx_index.c):
 * the 40 exports and the 3 reached only through GetProcAddress. The bottom of their chains of
 * GL layers (glmux_glx_own_proc). */
static const __GLXextFuncPtr own[] = {
#define GLMUX_GLX_OWN(ret, name, params, args) (__GLXextFuncPtr)glmux_glx_##name,
    GLMUX_GLX_CORE_FUNCTIONS(GLMUX_GLX_OWN)
#undef GLMUX_GLX_OWN
#define GLMUX_GLX_OWN(name) (__GLXextFuncPtr)glmux_glx_##name,
    GLMUX_GLX_OWN_EXTRA(GLMUX_GLX_OWN)
#undef GLMUX_GLX_OWN
};

/* What glXGetProcAddress answers without layers for the first of them, the exported ones: the
 * exports (the core table's 39, then glXGetCurrentDisplay, GLMUX_GLX_OWN_EXTRA's first). */
static const __GLXextFuncPtr own_exported[] = {
#define GLMUX_GLX_OWN(ret, name, params, args) (__GLXextFuncPtr)glX##name,
    GLMUX_GLX_CORE_FUNCTIONS(GLMUX_GLX_OWN)
#undef GLMUX_GLX_OWN
    (__GLXextFuncPtr)glXGetCurrentDisplay,
};
_Static_assert(sizeof(own_exported) / sizeof(own_exported[0]) == GLMUX_GLX_CORE_COUNT + 1,
               "libGLX exports the core table's functions and glXGetCurrentDisplay");

static bool preloaded;

/*
 * Every other glX name asked for: answers[answer_map(name)]. fn is what glXGetProcAddress
 * returns (NULL until there is an answer; the first answer stays). Names are the map's
 * copies, stable until libGLX is unloaded. glmux_glx_lock held for all of it.
 */
struct answer {
    const char *name;
    __GLXextFuncPtr fn;
};
static struct glmux_name_index answer_map;
static struct answer *answers;
static int answer_count, answer_cap;

/* The position of name's answer, added (fn NULL) when new; -1 out of memory. */
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
        answers[pos] = (struct answer){ .name = copy, .fn = NULL };
        answer_count++;
    }
    return pos;
}

/*
 * Records fn as name's answer (the first answer recorded wins) and, for a vendor's dispatch
 * stub, gives the name a dispatch index and tells every loaded vendor, with the lock
 * released: a vendor loaded meanwhile learnt the index while loading. Returns the answer.
 */
static __GLXextFuncPtr publish(const char *name, uint32_t h, __GLXextFuncPtr fn, bool dispatch)
{
    const char *copy = NULL;
    bool is_new = false;
    int pos, index = -1;

    glmux_glx_lock_acquire();
    pos = answer_add(name, h);
    if (pos >= 0) {
        if (answers[pos].fn == NULL)
            answers[pos].fn = fn;
        fn = answers[pos].fn;
        if (dispatch && (index = glmux_glx_index_assign(answers[pos].name, h, &is_new)) >= 0 &&
            is_new)
            copy = answers[pos].name;
    }
    glmux_glx_lock_release();
    if (copy != NULL)
        glmux_glx_index_tell(copy, index);
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
    glmux_glx_index_own_build();
    first = !preloaded;
    __atomic_store_n(&preloaded, true, __ATOMIC_RELEASE);
    glmux_glx_lock_release();
    if (first) {
        const char *forced = glmux_env_get("__GLX_VENDOR_LIBRARY_NAME");

        if (forced != NULL && *forced != '\0')
            glmux_glx_vendor_load(forced, true, NULL, 0);
    }
}

/*
 * A glX name without layers: libGLX's own function without the lock (its export, if it has
 * one), else the answer kept or found. *bottom gets the bottom of the name's chain of layers:
 * an own function's body, else the same answer.
 */
static __GLXextFuncPtr glx_proc(const char *name, __GLXextFuncPtr *bottom)
{
    uint32_t h = glmux_name_index_hash(name);
    int i = glmux_glx_index_own(name, h);
    __GLXextFuncPtr fn;

    if (i >= 0) {
        *bottom = own[i];
        return i < (int)(sizeof(own_exported) / sizeof(own_exported[0])) ? own_exported[i] : own[i];
    }
    fn = lookup_glx(name, h);
    if (fn == NULL)
        glmux_log(GLMUX_LOG_DISPATCH, "glXGetProcAddress(\"%s\"): no function", name);
    return *bottom = fn;
}

/* A glX name: the top of its chain of GL layers (winsys/layer.h), else glx_proc's answer. */
static __attribute__((noinline)) __GLXextFuncPtr glx_answer(const char *name)
{
    __GLXextFuncPtr bottom = NULL, fn = glx_proc(name, &bottom);

    if (fn != NULL && glmux_winsys_layers_maybe()) {
        __GLXextFuncPtr top = (__GLXextFuncPtr)glmux_winsys_layer_top(name, GLMUX_LAYER_API_GLX,
                                                                      (void *)bottom, NULL);

        if (top != NULL)
            return top;
    }
    return fn;
}

void *glmux_glx_own_proc(const char *name)
{
    __GLXextFuncPtr bottom = NULL;

    if (name[0] == 'g' && name[1] == 'l' && name[2] == 'X') {
        if (!__atomic_load_n(&preloaded, __ATOMIC_ACQUIRE))
            preload();
        glx_proc(name, &bottom);
    }
    return (void *)bottom;
}

__GLXextFuncPtr glmux_glx_GetProcAddressARB(const GLubyte *procName)
{
    const char *name = (const char *)procName;
    __GLXextFuncPtr fn;

    glmux_glx_entry();
    if (name == NULL)
        return NULL;
    /* glmux explain's private entry (glx_explain.h), asked before the first call's preload
     * loads a vendor: explain decides itself which vendors it may load. */
    if (name[0] == '_' && strcmp(name, GLMUX_GLX_EXPLAIN_NAME) == 0)
        return (__GLXextFuncPtr)(glmux_glx_explain_fn)glmux_glx_explain;
    if (!__atomic_load_n(&preloaded, __ATOMIC_ACQUIRE))
        preload();
    if (name[0] == 'g' && name[1] == 'l') {
        if (name[2] == 'X')
            return glx_answer(name);
    } else if (strcmp(name, GLMUX_DISPATCH_WINSYS_NAME) == 0) {
        return NULL;    /* libGLdispatch's private extension is not a function (GLdispatch.h) */
    }
    /* A GL name: libGLdispatch's lookup is lock-free and gives the same answer every time. */
    fn = (__GLXextFuncPtr)__glDispatchGetProcAddress(name);
    if (fn == NULL)
        glmux_log(GLMUX_LOG_DISPATCH, "glXGetProcAddress(\"%s\"): no function", name);
    return fn;
}

__GLXextFuncPtr glmux_glx_GetProcAddress(const GLubyte *procName)
{
    return glmux_glx_GetProcAddressARB(procName);
}

static void teardown(void)
{
    glmux_name_index_clear(&answer_map);
    free(answers);
    answers = NULL;
    answer_count = answer_cap = 0;
    preloaded = false;
}

GLMUX_LIFECYCLE_STEP(glx_procaddr, GLMUX_GLX_ORDER_PROCADDR, .teardown = teardown);

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
    fn = glmux_glx_GetProcAddressARB((const GLubyte *)name);
    if (fn != NULL &&
        !__atomic_compare_exchange_n(ptr, &expected, fn, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        fn = expected;
    return fn;
}
