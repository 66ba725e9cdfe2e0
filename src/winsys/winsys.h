/* SPDX-License-Identifier: MIT */
/*
 * glmux: the window-system core shared by libEGL and libGLX (a static library linked into
 * both). It holds what the two libraries do alike: the per-thread current-context record and
 * its lifetime protocol with libGLdispatch (one fork reset, one unload rule), the pointer maps
 * behind their handle→vendor lookups, the dispatch-name lists and the per-vendor caches of
 * fetchDispatchEntry answers, word lists (extension strings) and the patch-callback set-up.
 * Nothing here knows EGL or GLX types; docs/architecture.md describes the protocol.
 *
 * Naming: glmux_ptrmap_*, glmux_words_*, glmux_strbuf_*, glmux_names_*, glmux_lookup_*,
 * glmux_winsys_*. No function here calls a vendor while holding a lock.
 */
#ifndef GLMUX_WINSYS_H
#define GLMUX_WINSYS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "GLdispatch.h"
#include "util/lock.h"
#include "util/name_index.h"

/* ---- ptrmap.c: open-addressing map from a non-zero integer key to a pointer ---- */

/* Zero-initialised is empty. The caller provides the locking. */
struct glmux_ptrmap {
    uintptr_t *keys;
    void **vals;
    size_t cap, count, used; /* used: live entries plus tombstones */
};
void *glmux_ptrmap_get(const struct glmux_ptrmap *map, uintptr_t key);
/* Inserts or replaces; false for key 0 or on allocation failure. */
bool glmux_ptrmap_put(struct glmux_ptrmap *map, uintptr_t key, void *val);
/* Maps key to val unless it is mapped already; returns the earlier value (the map is then
 * unchanged), NULL after inserting, or val itself on allocation failure or a bad key. One
 * probe sequence, where a get and a put take two. */
void *glmux_ptrmap_claim(struct glmux_ptrmap *map, uintptr_t key, void *val);
/* glmux_ptrmap_claim for each of the n pointers in the array keys (NULL ones skipped), in
 * order: NULL when each is now val's; else what the key at *at was mapped to (the keys
 * before it are claimed, those after it are not), or val itself on allocation failure. */
void *glmux_ptrmap_claim_all(struct glmux_ptrmap *map, const void *keys, size_t n, void *val,
                             size_t *at);
/* Grows the map, if needed, so that n more keys go in without growing again. */
bool glmux_ptrmap_reserve(struct glmux_ptrmap *map, size_t n);
/* Removes key; returns what it mapped to, or NULL. */
void *glmux_ptrmap_remove(struct glmux_ptrmap *map, uintptr_t key);
void glmux_ptrmap_clear(struct glmux_ptrmap *map);
/* Calls fn for every entry (fn must not modify the map). */
void glmux_ptrmap_each(const struct glmux_ptrmap *map, void (*fn)(uintptr_t, void *, void *),
                       void *data);

/* ---- words.c: space-separated word lists (extension strings) and a growing string ---- */

/* Whether list (NULL: empty) holds the n bytes of word as a whole word. */
bool glmux_words_has(const char *list, const char *word, size_t n);
/* glmux_words_has with a NUL-terminated word. */
bool glmux_words_has_str(const char *list, const char *word);

struct glmux_strbuf {
    char *s; /* NUL-terminated once anything was appended; NULL before */
    size_t len, cap;
};
bool glmux_strbuf_append(struct glmux_strbuf *b, const char *s, size_t n);
/* Appends each word of words that b does not hold yet, space-separated. */
bool glmux_words_append_new(struct glmux_strbuf *b, const char *words);

/* ---- names.c: dispatch-name lists and per-vendor lookup caches ---- */

/*
 * A list of function names in the order they got their dispatch index (index = position),
 * each with one pointer of data (e.g. the dispatch stub handed out for it), found by hash.
 * Names never move once added. The caller provides the locking.
 */
struct glmux_names {
    struct glmux_name_entry {
        const char *name;           /* map's copy */
        void *data;
    } *items;
    int count, cap;
    struct glmux_name_index map;    /* name -> index, holding the names */
};
int glmux_names_find(const struct glmux_names *names, const char *name);
/* The index of name, adding it if new; -1 on allocation failure. */
int glmux_names_add(struct glmux_names *names, const char *name);
const char *glmux_names_get(const struct glmux_names *names, int index);
void glmux_names_clear(struct glmux_names *names);

/* A vendor's answers to getProcAddress(name of index), looked up once each. */
struct glmux_lookup_cache {
    void **fn;
    unsigned char *known;
    int size;
};
/*
 * The vendor's function for index: the cached answer, else lookup(name, vendor) called with
 * lock NOT held (it enters the vendor) and cached under it. name NULL: index unknown, NULL.
 */
void *glmux_lookup_fetch(struct glmux_lookup_cache *cache, pthread_mutex_t *lock, int index,
                         const char *name, void *(*lookup)(const char *name, void *vendor),
                         void *vendor);
void glmux_lookup_clear(struct glmux_lookup_cache *cache);

/* ---- thread.c: current-context records, the lifetime protocol, patch callbacks ---- */

/*
 * The library this code is linked into, defined once by it with GLMUX_WINSYS_LIBRARY (libEGL:
 * library.c, libGLX: glx_init.c), which also defines the library's constructor and destructor:
 * they hand the descriptor down to glmux_winsys_load and call glmux_winsys_unload, which run
 * the one load and unload protocol for it (docs/architecture.md, "Threads, fork, unload"), so
 * no call of this floor runs up into the library:
 *   load: check libGLdispatch's private ABI version (on a mismatch the library stays unusable
 *     and says why), take a reference on libGLdispatch, register client; libGLdispatch's fork
 *     handler then resets the dispatch state, calls after_fork and passes every record of the
 *     parent to record_destroyed; before fork it runs fork_prepare (and fork_parent after it in
 *     the parent). With a libGLdispatch that is not glmux's, the library installs the same
 *     handlers itself (fork_prepare, fork_parent, and libglvnd's reset around after_fork).
 *   own_proc: the library's terminator for one of its names, the bottom of its chains of GL
 *     layers (GLdispatch.h, version 5; layer.h).
 *   unload: drop_current (release the calling thread's context without calling its vendor),
 *     unregister with none of the library's locks held (records still current on other threads
 *     become libGLdispatch's, freed when those threads exit or next ask for their state, never
 *     passed back into the unloaded library), teardown (the library's own state; vendors are
 *     closed), drop the reference on libGLdispatch.
 */
struct glmux_winsys_library {
    /* tag, name, fork_prepare/fork_parent/after_fork (take every lock of the library before
     * fork; release them in the parent; release or make them anew in the child) and
     * record_destroyed (drop what a record holds and free it) */
    struct glmux_dispatch_client client;
    void (*drop_current)(void);
    void (*teardown)(void);
};
extern const struct glmux_winsys_library glmux_winsys_library;
/* thread.c: the load protocol for lib (kept for the records and the unload), and the unload. */
void glmux_winsys_load(const struct glmux_winsys_library *lib);
void glmux_winsys_unload(void);
#define GLMUX_WINSYS_LOAD_HOOKS                                                                 \
    __attribute__((constructor)) static void glmux_winsys_library_load(void)                    \
    {                                                                                           \
        glmux_winsys_load(&glmux_winsys_library);                                               \
    }                                                                                           \
    __attribute__((destructor)) static void glmux_winsys_library_unload(void)                   \
    {                                                                                           \
        glmux_winsys_unload();                                                                  \
    }
#define GLMUX_WINSYS_LIBRARY(api_tag, lib_name, prepare_fn, parent_fn, after_fork_fn,           \
                             record_destroyed_fn, drop_current_fn, teardown_fn, own_proc_fn)    \
    GLMUX_WINSYS_LOAD_HOOKS                                                                     \
    const struct glmux_winsys_library glmux_winsys_library = {                                  \
        .client = { .tag = (api_tag), .name = (lib_name), .fork_prepare = (prepare_fn),         \
                    .fork_parent = (parent_fn), .after_fork = (after_fork_fn),                  \
                    .record_destroyed = (record_destroyed_fn), .own_proc = (own_proc_fn) },     \
        .drop_current = (drop_current_fn), .teardown = (teardown_fn)                            \
    }
/* Whether the library loaded (libGLdispatch's ABI matched) and is not being unloaded. */
bool glmux_winsys_usable(void);
/* glmux's libGLdispatch interface this library registered with at load, or NULL (another
 * libGLdispatch, or the registration failed). */
const struct glmux_dispatch_winsys *glmux_winsys_dispatch(void);

/* A zeroed record of size bytes (>= sizeof the base) of this library, or NULL (no memory). */
__GLdispatchThreadState *glmux_winsys_record_new(size_t size);
/* The calling thread's record if its current context belongs to API tag, else NULL. */
__GLdispatchThreadState *glmux_winsys_record_current(int tag);

/*
 * Copies a vendor's patch imports into cb; true when the vendor can patch (it has
 * isPatchSupported and initiatePatch). Use GLMUX_WINSYS_PATCH_SETUP with an imports struct.
 */
bool glmux_winsys_patch_setup(__GLdispatchPatchCallbacks *cb,
                              GLboolean (*is_supported)(int, int),
                              GLboolean (*initiate)(int, int, DispatchPatchLookupStubOffset),
                              void (*release)(void), void (*thread_attach)(void));
#define GLMUX_WINSYS_PATCH_SETUP(cb, imports)                                              \
    glmux_winsys_patch_setup((cb), (imports).isPatchSupported, (imports).initiatePatch,     \
                             (imports).releasePatch, (imports).patchThreadAttach)

#endif /* GLMUX_WINSYS_H */
