/* SPDX-License-Identifier: MIT */
/*
 * glmux: the process's one chain of GL layers (docs/layers.md). The layers are found and loaded
 * once (src/layers/core, glmux_layers_load), at the first layer_top (libEGL's and libGLX's
 * first call) or the first make-current, whichever comes first; they stay loaded across fork
 * and go at the last __glDispatchFini (each layer's unload, dlclose). For a name, the chain is
 * asked bottom first: the bottom (the terminator) is glmux's own function for the name — for a
 * GL name the slot's "below" stub (GLdispatch_below.S/.c, which jumps through the current
 * vendor's own table), for an egl/glX name the registered client's own_proc — and each layer,
 * from the lowest up, gets what lies below it as `next`; what each layer was given is what
 * get_next(layer_id, name) answers, and the top layer's answer is the top of the chain. A name
 * whose top is its terminator is not intercepted (layer_top answers NULL). The answers are
 * cached: for GL, per slot in arrays (static slots at load, a dynamic slot when it is handed
 * out); for egl/glX names, in a hash map that is read without a lock. No lock is held while a
 * layer is asked: a new GL name's dynamic slot is handed out first, the layers are asked with
 * no lock held, and their answers are stored with a re-check, the first stored standing
 * (layer_chain.h). A GL slot of a glX name (a vendor's GL function with a GLX name, which
 * libGLX hands out) is asked of no layer: libGLX's chain of the name already runs them. With
 * no layer found, the state is NONE and every caller returns after one load. Under
 * GLMUX_DEBUG=layer the re-entry guard (layer_guard.h) adds its wrappers at the bottom and the
 * top of each chain: of every GL slot (then the GL part is set up even for layers without GL
 * names), and of each intercepted egl/glX name.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "floor.h"
#include "lazy.h"
#include "layer_chain.h"
#include "layer_guard.h"
#include "layers/core/layers.h"
#include "lifetime.h"
#include "slots.h"
#include "tables.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/log.h"


/* Guards loading (state changes, loader) and inserting into the name map; never held while a
 * layer, a client or the loader runs. */
static pthread_mutex_t chain_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t chain_loaded = PTHREAD_COND_INITIALIZER;
static pthread_t loader;

/*
 * The threads asking the layers about a dynamic slot now (floor.h; what: slot_key's): a layer
 * that asks for the same name again, on the same thread, while it is asked about it gets the
 * slot without a second round of questions.
 */
static struct glmux_busy *askers;

/* What an asker is busy with: its slot, as a pointer that is never read through. */
static const void *slot_key(unsigned slot)
{
    return (const void *)((uintptr_t)slot + 1);
}

/* The loaded layers, top first (set before the state becomes ACTIVE). */
static struct glmux_layer_loaded *layers;
static size_t layer_count;
static uint32_t layer_apis;         /* the union of their apis */
static unsigned generation;

/* ---- GL: per slot ---- */

struct chain_gl_full {
    struct glmux_chain_gl pub;
    const void **below;             /* layer_count * GLMUX_TOTAL_SLOTS: what layer i is given */
    unsigned char *done;            /* atomic: below and top are set for the slot */
};
static struct chain_gl_full *gl_full;

#if GLMUX_HAVE_ASM_ENTRY
extern const char glmux_below_start[];

const void *glmux_below_stub(unsigned slot)
{
    return slot < GLMUX_TOTAL_SLOTS ? glmux_below_start + (size_t)slot * GLMUX_BELOW_SIZE : NULL;
}
#else
extern const void *const glmux_c_below_table[GLMUX_TOTAL_SLOTS];

const void *glmux_below_stub(unsigned slot)
{
    if (slot >= (GLMUX_HAVE_DYNAMIC_STUBS ? GLMUX_TOTAL_SLOTS : GLMUX_STATIC_SLOTS))
        return NULL;
    return glmux_c_below_table[slot];
}
#endif

/* The bottom of a GL name's chain: the slot's below stub, under the guard's bottom wrapper
 * while the guard is on; NULL without a stub. */
static const void *gl_bottom(unsigned slot, const char *name)
{
    const void *stub = glmux_below_stub(slot);
    void *guarded = stub != NULL ? glmux_guard_wrap(name, GLMUX_LAYER_API_GL, GLMUX_GUARD_BOTTOM,
                                                    (void *)(uintptr_t)stub)
                                 : NULL;

    return guarded != NULL ? guarded : stub;
}

/*
 * Asks the layers about a GL name, the slot's bottom (gl_bottom) below them; stores what layer
 * i was given in below[i * stride]. Returns the top layer's answer (the bottom itself when
 * none intercepts the name). A glX name's slot is asked of no layer: a vendor's GL function
 * with a GLX name gets its slot from libGLX (glXGetProcAddress, a generated entry filled when
 * the vendor loads), whose chain of the name, asked with GLMUX_LAYER_API_GLX, is above the
 * slot's stub; asking again here would run each layer twice per call. Called with no lock held.
 */
static const void *gl_ask(unsigned slot, const char *name, const void **below, size_t stride)
{
    const void *p = gl_bottom(slot, name);
    size_t count = __atomic_load_n(&layer_count, __ATOMIC_ACQUIRE);
    bool glx = name[0] == 'g' && name[1] == 'l' && name[2] == 'X';

    if (p == NULL)
        return NULL;    /* pure C without a stub for a dynamic slot: nothing to layer over */
    for (size_t i = count; i-- > 0;) {
        below[i * stride] = p;
        if (!glx)
            p = glmux_layer_ask(&layers[i], name, GLMUX_LAYER_API_GL, (void *)(uintptr_t)p);
    }
    return p;
}

/* What a slot's top is to hold, from gl_ask's answer: NULL when no layer intercepts the name.
 * With the guard on, every slot it has a wrapper for gets its top wrapper, intercepted or not
 * (a layer's public call of a function nobody intercepts is reported too). */
static const void *gl_top(unsigned slot, const char *name, const void *top)
{
    bool intercepted = top != NULL && top != gl_bottom(slot, name);
    void *guarded = top != NULL ? glmux_guard_wrap(name, GLMUX_LAYER_API_GL, GLMUX_GUARD_TOP,
                                                   (void *)(uintptr_t)top)
                                : NULL;

    if (intercepted)
        glmux_log(GLMUX_LOG_LAYER, "%s: intercepted by a GL layer", name);
    return guarded != NULL ? guarded : intercepted ? top : NULL;
}

/* Sets a static slot's chain (the loader, before any other thread sees full). */
static void gl_set_slot(struct chain_gl_full *full, unsigned slot, const char *name)
{
    full->pub.top[slot] = gl_top(slot, name, gl_ask(slot, name, &full->below[slot],
                                                    GLMUX_TOTAL_SLOTS));
    __atomic_store_n(&full->done[slot], 1, __ATOMIC_RELEASE);
}

/*
 * Sets a dynamic slot's chain: the layers are asked with no lock held (a layer may wait for
 * another thread, which may ask for a new name meanwhile, or ask GetProcAddress itself), and
 * their answers are stored under glmux_dispatch_lock unless another thread stored the slot's
 * first (two threads asking for one new name at once, or the loader and a thread): one chain
 * per slot, what any get_next answers. Then the current tables get the slot's top.
 */
static void gl_set_dynamic(struct chain_gl_full *full, unsigned slot, const char *name)
{
    size_t count = __atomic_load_n(&layer_count, __ATOMIC_ACQUIRE);
    const void **below = calloc(count > 0 ? count : 1, sizeof(*below));
    const void *top;

    if (below == NULL) {
        /* Left unset: the next thread that asks for the name asks the layers again. */
        glmux_log(GLMUX_LOG_ERROR, "%s: out of memory asking the GL layers", name);
        return;
    }
    top = gl_top(slot, name, gl_ask(slot, name, below, 1));
    pthread_mutex_lock(&glmux_dispatch_lock);
    if (__atomic_load_n(&gl_full, __ATOMIC_RELAXED) == full &&
        !__atomic_load_n(&full->done[slot], __ATOMIC_RELAXED)) {
        for (size_t i = 0; i < count; i++)
            full->below[i * GLMUX_TOTAL_SLOTS + slot] = below[i];
        full->pub.top[slot] = top;
        __atomic_store_n(&full->done[slot], 1, __ATOMIC_RELEASE);
        glmux_tables_fixup_current();
    }
    pthread_mutex_unlock(&glmux_dispatch_lock);
    free(below);
}

/* The slot of a GL name whose chain is set, or -1 (no slot, or its layers are being asked:
 * the caller asks them too, or waits for nothing). Called with no lock held. */
static int gl_slot_of(const char *name)
{
    size_t len = strlen(name);
    int slot = glmux_slot_static_find(name, len, glmux_slot_hash(name, len));
    struct chain_gl_full *full;

    if (slot >= 0)
        return slot;
    pthread_mutex_lock(&glmux_dispatch_lock);
    slot = glmux_slot_find(name);
    full = __atomic_load_n(&gl_full, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&glmux_dispatch_lock);
    if (slot >= 0 && full != NULL && !__atomic_load_n(&full->done[slot], __ATOMIC_ACQUIRE))
        slot = -1;
    return slot;
}

int glmux_chain_dynamic_slot(const char *name, size_t len, uint64_t hash)
{
    struct glmux_busy me;
    struct chain_gl_full *full;
    bool added = false, ask;
    int slot;

    /* Handed out and published at once, as without layers: its stub works before its chain
     * is set (the tables' twins hold the vendor's function there until it is). */
    pthread_mutex_lock(&glmux_dispatch_lock);
    slot = glmux_slot_allot_locked(name, len, hash, &added);
    if (added) {
        glmux_slot_prepare((unsigned)slot);
        glmux_slot_publish_locked((unsigned)slot);
        glmux_tables_fixup_current();
    }
    /* Eager fill: the vendors are asked about it with the lock released (tables.c). */
    if (slot >= 0)
        glmux_tables_fill_current_locked();
    full = __atomic_load_n(&gl_full, __ATOMIC_RELAXED);
    /* Its chain not set yet: this thread asks the layers, unless a layer asks again on the
     * thread that is asking them (then the layer gets the slot; the chain comes after). */
    ask = slot >= 0 && full != NULL && !__atomic_load_n(&full->done[slot], __ATOMIC_RELAXED) &&
          !glmux_busy_is_locked(&askers, slot_key((unsigned)slot));
    if (ask)
        glmux_busy_begin_locked(&askers, &me, slot_key((unsigned)slot));
    pthread_mutex_unlock(&glmux_dispatch_lock);
    if (ask) {
        gl_set_dynamic(full, (unsigned)slot, name);
        pthread_mutex_lock(&glmux_dispatch_lock);
        glmux_busy_end_locked(&askers, &me);
        pthread_mutex_unlock(&glmux_dispatch_lock);
    }
    return slot;
}

/* ---- egl / glX names: a map read without a lock ---- */

struct name_chain {
    char *name;
    uint32_t api;
    void *top;              /* NULL: not intercepted */
    void *below[];          /* layer_count: what layer i is given */
};

/* Enough for every EGL and GLX function and extension; names past half of it are answered
 * without being cached. */
#define NAME_CELLS 4096
static struct name_chain **name_cells;
static unsigned name_count;

static struct name_chain *name_find(struct name_chain **cells, const char *name, uint64_t hash)
{
    for (unsigned i = (unsigned)hash & (NAME_CELLS - 1);; i = (i + 1) & (NAME_CELLS - 1)) {
        struct name_chain *c = __atomic_load_n(&cells[i], __ATOMIC_ACQUIRE);

        if (c == NULL || strcmp(c->name, name) == 0)
            return c;
    }
}

/* Adds c unless another thread added the name first; returns the one in the map, or NULL
 * when the map is full (the caller keeps c as its own). */
static struct name_chain *name_insert(struct name_chain **cells, struct name_chain *c,
                                      uint64_t hash)
{
    struct name_chain *have = NULL;

    pthread_mutex_lock(&chain_lock);
    if (cells == name_cells) {
        for (unsigned i = (unsigned)hash & (NAME_CELLS - 1);; i = (i + 1) & (NAME_CELLS - 1)) {
            have = cells[i];
            if (have != NULL && strcmp(have->name, c->name) == 0)
                break;
            if (have == NULL) {
                if (name_count < NAME_CELLS / 2) {
                    name_count++;
                    __atomic_store_n(&cells[i], c, __ATOMIC_RELEASE);
                    have = c;
                }
                break;
            }
        }
    }
    pthread_mutex_unlock(&chain_lock);
    return have;
}

/* The client's own function for an egl/glX name (NULL: none). Called with no lock held. */
static void *own_proc(const char *name, uint32_t api)
{
    if (api == GLMUX_LAYER_API_EGL)
        return glmux_client_own_proc(GLDISPATCH_API_EGL, name);
    if (api == GLMUX_LAYER_API_GLX)
        return glmux_client_own_proc(GLDISPATCH_API_GLX, name);
    return NULL;
}

/* The chain of an egl/glX name over terminator, asked of every layer and cached; NULL when
 * there is nothing to layer over or no memory. *owned is set when the caller must free it. */
static struct name_chain *name_chain(const char *name, uint32_t api, void *terminator,
                                     bool *owned)
{
    struct name_chain **cells = __atomic_load_n(&name_cells, __ATOMIC_ACQUIRE);
    size_t count = __atomic_load_n(&layer_count, __ATOMIC_ACQUIRE);
    uint64_t hash = glmux_slot_hash(name, strlen(name));
    struct name_chain *c, *have;
    void *p, *bottom;

    *owned = false;
    if (cells == NULL)
        return NULL;
    c = name_find(cells, name, hash);
    if (c != NULL)
        return c;
    if (terminator == NULL)
        terminator = own_proc(name, api);
    if (terminator == NULL)
        return NULL;    /* nothing below: no chain (not cached: a vendor may come later) */
    c = malloc(sizeof(*c) + count * sizeof(c->below[0]));
    if (c == NULL || (c->name = strdup(name)) == NULL) {
        free(c);
        return NULL;
    }
    c->api = api;
    /* Under the guard's wrappers while it is on (layer_guard.h): none when nothing intercepts. */
    bottom = glmux_guard_wrap(name, api, GLMUX_GUARD_BOTTOM, terminator);
    if (bottom == NULL)
        bottom = terminator;
    p = bottom;
    for (size_t i = count; i-- > 0;) {
        c->below[i] = p;
        p = glmux_layer_ask(&layers[i], name, api, p);
    }
    c->top = NULL;
    if (p != bottom) {
        c->top = glmux_guard_wrap(name, api, GLMUX_GUARD_TOP, p);
        if (c->top == NULL)
            c->top = p;
    }
    if (c->top != NULL)
        glmux_log(GLMUX_LOG_LAYER, "%s: intercepted by a layer", name);
    have = name_insert(cells, c, hash);
    if (have != c) {
        if (have != NULL) {     /* another thread was first: its answer stands */
            free(c->name);
            free(c);
            return have;
        }
        *owned = true;
    }
    return c;
}

static void name_chain_release(struct name_chain *c, bool owned)
{
    if (owned) {
        free(c->name);
        free(c);
    }
}

static uint32_t api_of(const char *name)
{
    if (strncmp(name, "glX", 3) == 0)
        return GLMUX_LAYER_API_GLX;
    if (strncmp(name, "egl", 3) == 0)
        return GLMUX_LAYER_API_EGL;
    if (strncmp(name, "gl", 2) == 0)
        return GLMUX_LAYER_API_GL;
    return 0;
}

/* ---- get_next: what lies below a layer ---- */

/* What the n layers of list (top first) make of bottom for a name, asked bottom first. */
static void *ask_list(const struct glmux_layer_loaded *list, size_t n, const char *name,
                      uint32_t api, void *bottom)
{
    void *p = bottom;

    for (size_t j = n; j-- > 0;)
        p = glmux_layer_ask(&list[j], name, api, p);
    return p;
}

/*
 * get_next(layer_id, name): the pointer below the layer. Once the chain is loaded, from the
 * caches; while the layers initialize (bottom first: the ones below are loaded), or for a name
 * not cached, by asking the layers below it (glmux_layers_below) over the name's terminator.
 */
static void *get_next(void *layer_id, const char *name)
{
    struct glmux_layer_loaded *all = __atomic_load_n(&layers, __ATOMIC_ACQUIRE);
    size_t count = __atomic_load_n(&layer_count, __ATOMIC_ACQUIRE);
    const struct glmux_layer_loaded *below;
    size_t i, n_below;
    uint32_t api;

    if (name == NULL || layer_id == NULL)
        return NULL;
    api = api_of(name);
    if (api == 0)
        return NULL;
    for (i = 0; i < count && (void *)&all[i] != layer_id; i++)
        ;
    if (i < count) {
        below = &all[i + 1];
        n_below = count - i - 1;
    } else {
        n_below = glmux_layers_below(layer_id, &below);
        if (below == NULL) {
            glmux_log(GLMUX_LOG_LAYER, "get_next(\"%s\") from an unknown layer: NULL", name);
            return NULL;
        }
    }
    if (api == GLMUX_LAYER_API_GL) {
        struct chain_gl_full *full = __atomic_load_n(&gl_full, __ATOMIC_ACQUIRE);
        int slot = gl_slot_of(name);

        if (slot < 0) {
            /* A name nobody asked for yet: its slot (which asks the layers about it). */
            size_t len = strlen(name);

            slot = glmux_chain_dynamic_slot(name, len, glmux_slot_hash(name, len));
            if (slot < 0)
                return NULL;
        }
        if (i < count && full != NULL && __atomic_load_n(&full->done[slot], __ATOMIC_ACQUIRE))
            return (void *)(uintptr_t)full->below[i * GLMUX_TOTAL_SLOTS + (unsigned)slot];
        return ask_list(below, n_below, name, api, (void *)(uintptr_t)gl_bottom((unsigned)slot,
                                                                                  name));
    }
    if (i < count) {
        bool owned;
        struct name_chain *c = name_chain(name, api, NULL, &owned);
        void *next;

        if (c != NULL) {
            next = c->below[i];
            name_chain_release(c, owned);
            return next;
        }
    }
    return ask_list(below, n_below, name, api, own_proc(name, api));
}

/* ---- loading and unloading ---- */

/* Sets up the GL part (a GL layer is loaded): every slot in use now. Loader, no lock held. */
static void gl_setup(void)
{
    struct chain_gl_full *full = calloc(1, sizeof(*full));
    unsigned used;

    if (full != NULL) {
        full->pub.top = calloc(GLMUX_TOTAL_SLOTS, sizeof(*full->pub.top));
        full->below = calloc(layer_count * GLMUX_TOTAL_SLOTS, sizeof(*full->below));
        full->done = calloc(GLMUX_TOTAL_SLOTS, 1);
    }
    if (full == NULL || full->pub.top == NULL || full->below == NULL || full->done == NULL) {
        if (full != NULL) {
            free(full->pub.top);
            free(full->below);
            free(full->done);
            free(full);
        }
        glmux_log(GLMUX_LOG_ERROR, "out of memory setting up the GL layers; GL calls bypass "
                  "them");
        return;
    }
    full->pub.generation = generation;
    full->pub.done = full->done;
    for (unsigned s = 0; s < GLMUX_STATIC_SLOTS; s++)
        gl_set_slot(full, s, glmux_slot_static_name(s));
    /* From here a thread that hands out a dynamic slot asks the layers itself
     * (glmux_chain_dynamic_slot); the ones handed out before are asked here. */
    pthread_mutex_lock(&glmux_dispatch_lock);
    __atomic_store_n(&gl_full, full, __ATOMIC_RELEASE);
    used = glmux_slots_used();
    pthread_mutex_unlock(&glmux_dispatch_lock);
    for (unsigned s = GLMUX_STATIC_SLOTS; s < used; s++) {
        const char *name = glmux_slot_name(s);

        if (name != NULL && !__atomic_load_n(&full->done[s], __ATOMIC_ACQUIRE))
            gl_set_dynamic(full, s, name);
    }
    /* Then the chain is published for the tables. */
    __atomic_store_n(&glmux_chain_gl, &full->pub, __ATOMIC_RELEASE);
}

void glmux_chain_load(void)
{
    struct glmux_layer_loaded *loaded = NULL;
    size_t count = 0;
    uint32_t apis = 0;
    struct name_chain **cells;

    pthread_mutex_lock(&chain_lock);
    for (;;) {
        int st = glmux_chain_state;

        if (st == GLMUX_CHAIN_NONE || st == GLMUX_CHAIN_ACTIVE ||
            (st == GLMUX_CHAIN_LOADING && pthread_equal(loader, pthread_self()))) {
            pthread_mutex_unlock(&chain_lock);
            return;
        }
        if (st == GLMUX_CHAIN_UNLOADED)
            break;
        pthread_cond_wait(&chain_loaded, &chain_lock);
    }
    loader = pthread_self();
    __atomic_store_n(&glmux_chain_state, GLMUX_CHAIN_LOADING, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&chain_lock);

    if (!glmux_layers_load(&loaded, &count, get_next) || loaded == NULL)
        count = 0;
    cells = count > 0 ? calloc(NAME_CELLS, sizeof(*cells)) : NULL;
    if (count > 0 && cells == NULL) {
        glmux_log(GLMUX_LOG_ERROR, "out of memory setting up the GL layers; they are unloaded");
        glmux_layers_unload(loaded, count);
        count = 0;
    }
    if (count > 0) {
        for (size_t i = 0; i < count; i++)
            apis |= loaded[i].apis;
        /* GLMUX_DEBUG=layer: the re-entry guard watches every GL slot (layer_guard.h). */
        if (glmux_guard_load())
            apis |= GLMUX_LAYER_API_GL;
        layer_apis = apis;
        generation++;
        __atomic_store_n(&name_cells, cells, __ATOMIC_RELEASE);
        __atomic_store_n(&layers, loaded, __ATOMIC_RELEASE);
        __atomic_store_n(&layer_count, count, __ATOMIC_RELEASE);
        if (apis & GLMUX_LAYER_API_GL)
            gl_setup();
    }

    pthread_mutex_lock(&chain_lock);
    __atomic_store_n(&glmux_chain_state, count > 0 ? GLMUX_CHAIN_ACTIVE : GLMUX_CHAIN_NONE,
                     __ATOMIC_RELEASE);
    pthread_cond_broadcast(&chain_loaded);
    pthread_mutex_unlock(&chain_lock);
}

void glmux_chain_unload(void)
{
    struct glmux_layer_loaded *old_layers;
    size_t old_count;
    struct name_chain **cells;
    struct chain_gl_full *full;

    pthread_mutex_lock(&chain_lock);
    while (glmux_chain_state == GLMUX_CHAIN_LOADING && !pthread_equal(loader, pthread_self()))
        pthread_cond_wait(&chain_loaded, &chain_lock);
    old_layers = layers;
    old_count = layer_count;
    cells = name_cells;
    full = gl_full;
    __atomic_store_n(&glmux_chain_gl, NULL, __ATOMIC_RELEASE);
    __atomic_store_n(&gl_full, NULL, __ATOMIC_RELEASE);
    __atomic_store_n(&name_cells, NULL, __ATOMIC_RELEASE);
    __atomic_store_n(&layer_count, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&layers, NULL, __ATOMIC_RELEASE);
    layer_apis = 0;
    name_count = 0;
    glmux_guard_drop();
    __atomic_store_n(&glmux_chain_state, GLMUX_CHAIN_UNLOADED, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&chain_lock);
    /* A dynamic slot's answers being stored now (they were asked of full) are stored before
     * full goes; a store after this sees gl_full changed and drops them. */
    pthread_mutex_lock(&glmux_dispatch_lock);
    pthread_mutex_unlock(&glmux_dispatch_lock);

    if (cells != NULL) {
        for (unsigned i = 0; i < NAME_CELLS; i++) {
            if (cells[i] != NULL) {
                free(cells[i]->name);
                free(cells[i]);
            }
        }
        free(cells);
    }
    if (full != NULL) {
        free(full->pub.top);
        free(full->below);
        free(full->done);
        free(full);
    }
    if (old_count > 0) {
        glmux_log(GLMUX_LOG_LAYER, "GL layers unloaded");
        glmux_layers_unload(old_layers, old_count);
    }
}

/* ---- winsys version 5 ---- */

void *glmux_chain_layer_top(const char *name, uint32_t api, void *terminator)
{
    int st = glmux_chain_state_now();
    struct name_chain *c;
    bool owned;
    void *top;

    if (__builtin_expect(st == GLMUX_CHAIN_NONE, 1))
        return NULL;
    if (st != GLMUX_CHAIN_ACTIVE) {
        glmux_chain_load();
        if (glmux_chain_state_now() != GLMUX_CHAIN_ACTIVE)
            return NULL;
    }
    if (name == NULL || (layer_apis & api) == 0)
        return NULL;
    if (api == GLMUX_LAYER_API_GL) {
        struct glmux_chain_gl *gl = glmux_chain_gl_now();
        int slot = gl_slot_of(name);

        return gl != NULL && slot >= 0 ? (void *)(uintptr_t)gl->top[slot] : NULL;
    }
    c = name_chain(name, api, terminator, &owned);
    if (c == NULL)
        return NULL;
    top = c->top;
    name_chain_release(c, owned);
    return top;
}

bool glmux_chain_layers_active(void)
{
    return glmux_chain_state_now() == GLMUX_CHAIN_ACTIVE;
}

/*
 * Fork: the chain survives as it is (the layers stay loaded in the child). Before fork the
 * chain lock is taken, after the clients' locks and before glmux_dispatch_lock (order 15). A
 * load under way on another thread does not finish in the child: the child looks for layers
 * again at its first call (what that thread had loaded stays mapped, unused). A dynamic slot
 * whose layers another thread was asking stays without its chain until a thread of the child
 * asks for its name (and then asks the layers); the child's list of askers starts empty.
 */
static void chain_fork(enum glmux_fork_step step)
{
    if (step == GLMUX_FORK_PREPARE)
        pthread_mutex_lock(&chain_lock);
    else if (step == GLMUX_FORK_CHILD_ANEW)
        pthread_mutex_init(&chain_lock, NULL);
    else
        pthread_mutex_unlock(&chain_lock);
}

static void chain_child(void)
{
    pthread_cond_init(&chain_loaded, NULL);
    askers = NULL;
    if (glmux_chain_state == GLMUX_CHAIN_LOADING && !pthread_equal(loader, pthread_self()))
        glmux_chain_state = GLMUX_CHAIN_UNLOADED;
}

GLMUX_LIFECYCLE_STEP(dispatch_chain, 15, .fork = chain_fork, .child = chain_child);
