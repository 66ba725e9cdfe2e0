/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layers, the core: finds layer manifests in their folders (docs/layers.md), reads
 * them, applies the variables that switch layers on and off and the secure-execution rules,
 * and loads the chosen layers (glmux_layers_load, called once per process by libGLdispatch,
 * which owns the chain). The same judgement without loading anything (glmux_layers_scan) is
 * what `glmux layers` and `glmux explain` print. A static library (glmux_layers) that needs
 * nothing beyond libc, libdl and libpthread.
 */
#ifndef GLMUX_LAYERS_CORE_LAYERS_H
#define GLMUX_LAYERS_CORE_LAYERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glmux/glmux_layer.h"

/* ---- Loading (libGLdispatch) ---- */

/* One loaded layer; its address is its layer_id. */
struct glmux_layer_loaded {
    char *name, *manifest, *library;
    void *handle;                    /* dlopen handle */
    uint32_t apis;                   /* GLMUX_LAYER_API_* bits from the manifest */
    /* exactly one of the two is set: glmux's negotiated entry, or Android's */
    void *(*get_proc_address)(const char *name, uint32_t api, void *next);
    void *(*android_get_proc_address)(const char *name, EGLFuncPointer next);
    void (*unload)(void);            /* optional */
    void *block_;                    /* glmux_layers_unload's: what to free (do not use) */
};

/*
 * Scans, filters and loads this process's layers (once; the caller makes it once). Layers are
 * loaded and initialized BOTTOM first (so that get_next works during a layer's initialization,
 * for the layers below it already loaded), and returned TOP first in *out (an array of *count).
 * Returns false with *count 0 when none. get_next is the chain's (libGLdispatch's).
 */
bool glmux_layers_load(struct glmux_layer_loaded **out, size_t *count,
                       PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next);
/* Calls each layer's unload, dlcloses it, frees the array. */
void glmux_layers_unload(struct glmux_layer_loaded *layers, size_t count);
/* One layer's answer (either entry), or next when it declines / the name's API is not in apis. */
void *glmux_layer_ask(const struct glmux_layer_loaded *layer, const char *name, uint32_t api,
                      void *next);
/*
 * The loaded layers below layer_id (a get_next's first argument), top first: *below gets the
 * first of them and the count is returned (0: the terminator comes next). It works during
 * glmux_layers_load too, while a layer initializes (the layers below it are loaded and at their
 * final addresses, the ones in the array that follow it), and after; NULL or an unknown
 * layer_id gives 0. So a get_next is: next = terminator; for (i = count; i-- > 0;) next =
 * glmux_layer_ask(&below[i], name, api, next).
 */
size_t glmux_layers_below(const void *layer_id, const struct glmux_layer_loaded **below);

/* ---- Judging without loading (the glmux tool) ---- */

/* The variable names (docs/environment.md). */
#define GLMUX_LAYERS_VAR "GLMUX_LAYERS"
#define GLMUX_LAYERS_ENABLE_VAR "GLMUX_LAYERS_ENABLE"
#define GLMUX_LAYERS_DISABLE_VAR "GLMUX_LAYERS_DISABLE"
#define GLMUX_LAYER_PATH_VAR "GLMUX_LAYER_PATH"

/* Most layers one process considers, and the longest layer name. */
#define GLMUX_LAYERS_MAX 64
#define GLMUX_LAYER_NAME_MAX 64
/* Largest layer manifest read (they are a few hundred bytes). */
#define GLMUX_LAYER_MANIFEST_MAX (64u * 1024u)

enum glmux_layer_verdict {
    GLMUX_LAYER_WOULD_LOAD,     /* in the chain */
    GLMUX_LAYER_OFF,            /* not switched on, or switched off: reason says by what */
    GLMUX_LAYER_WRONG_ARCH,     /* library_arch or the library's ELF header is not ours */
    GLMUX_LAYER_NO_LIBRARY,     /* the library is missing or unreadable */
    GLMUX_LAYER_SECURE_IGNORED, /* secure execution: the folder or the layer may not be used */
    GLMUX_LAYER_DUPLICATE,      /* a layer of the same name was found first: reason names it */
    GLMUX_LAYER_WRONG_FOLDER,   /* its "type" is not its folder's kind: reason says where */
    GLMUX_LAYER_BROKEN,         /* the manifest is unusable: reason says why */
};

/* One environment variable a layer's manifest names, and its value now. */
struct glmux_layer_var {
    char *name;
    char *want;                 /* the value the manifest asks for */
    const char *value;          /* the process's value now (NULL: unset, or not read) */
    bool matches;               /* value equals want */
};

/* One manifest found (a "layers" array gives one per member). */
struct glmux_layer_info {
    char *manifest;             /* the file, as found in its folder */
    int manifest_line;          /* the layer object's line in it (0: unknown) */
    char *name;                 /* NULL only for a broken manifest without one */
    bool implicit;
    char *library;              /* as resolved: absolute path, or a bare name */
    char *library_found;        /* the file the library is (a bare name searched), or NULL */
    char *description;
    char *abi_version;          /* as written; NULL when absent */
    int library_arch;           /* declared: 0 (absent), 32 or 64 */
    char arch[64];              /* found in the ELF header: "64-bit x86-64", or "" */
    uint32_t apis;              /* GLMUX_LAYER_API_* */
    char **api_names;           /* as written, n_api_names of them */
    size_t n_api_names;
    bool secure_execution;      /* the manifest's "secure_execution" */
    struct glmux_layer_var enable, disable; /* name NULL where absent */
    enum glmux_layer_verdict verdict;
    char reason[320];           /* one sentence: why this verdict ("" for WOULD_LOAD) */
    int chain_position;         /* 0 on top; -1 when not in the chain */
};

/* The folder names under each of the user's, the administrators' and the packages' bases
 * (Vulkan's names): the folder says the kind of the layers in it. */
#define GLMUX_LAYER_IMPLICIT_FOLDER "implicit_layer.d"
#define GLMUX_LAYER_EXPLICIT_FOLDER "explicit_layer.d"

/* What a folder may hold. */
enum glmux_layer_folder_kind {
    GLMUX_LAYER_FOLDER_ANY,     /* GLMUX_LAYER_PATH's: each manifest's "type" says */
    GLMUX_LAYER_FOLDER_IMPLICIT,
    GLMUX_LAYER_FOLDER_EXPLICIT,
};

/* One folder searched, in order. */
struct glmux_layer_folder {
    char *path;
    const char *source;         /* "GLMUX_LAYER_PATH", "user", "system", "package" */
    enum glmux_layer_folder_kind kind;
    bool ignored_secure;        /* not read: secure execution */
    bool unasked;               /* not read: an explicit folder, and nothing can switch an
                                 * explicit layer on (the loader only) */
    bool missing;               /* does not exist */
};

struct glmux_layer_scan {
    struct glmux_layer_folder *folders;
    size_t n_folders;
    struct glmux_layer_info *layers;    /* discovery order */
    size_t count;
    size_t *chain;                      /* indices into layers, top first */
    size_t chain_count;
    bool secure;                        /* secure execution */
    bool skipped;                       /* a disable filter covers everything: nothing read */
    bool explicit_asked;                /* GLMUX_LAYERS or GLMUX_LAYERS_ENABLE can switch an
                                         * explicit layer on: a program reads the explicit
                                         * folders (the tool reads them always) */
    char **unknown_names;               /* GLMUX_LAYERS names no manifest has */
    size_t n_unknown;
    /* The variables read and their values (NULL: unset or ignored). */
    const char *layers_var, *enable_var, *disable_var, *path_var;
};

/*
 * How the core reads its world; glmux_layers_env_default() is the process's own. Tests pass
 * their own to simulate secure execution and variables.
 */
struct glmux_layers_env {
    /* A variable filtered as glmux_env_get does (NULL in secure execution). */
    const char *(*get)(const char *name);
    /* A variable honoured in secure execution too (the disable variables). */
    const char *(*get_always)(const char *name);
    bool secure;
    /* The owner a file must have in secure execution (0, root). */
    unsigned trusted_uid;
    /* The administrators' and the packages' bases, each holding implicit_layer.d and
     * explicit_layer.d; NULL: the built-in ones (${sysconfdir}/glmux, ${libdir}/glvnd). */
    const char *system_base, *package_base;
};
const struct glmux_layers_env *glmux_layers_env_default(void);

/*
 * Finds and judges every layer as glmux_layers_load would, loading nothing (the ELF header of
 * each library is read to check its class and machine), and reads the explicit folders even
 * when a program would not (explicit_asked false): what the tool shows. Returns false only
 * when out of memory. env NULL means glmux_layers_env_default().
 */
bool glmux_layers_scan(const struct glmux_layers_env *env, struct glmux_layer_scan *out);
void glmux_layers_scan_free(struct glmux_layer_scan *scan);

/* The same load as glmux_layers_load, from the given world (tests). */
bool glmux_layers_load_env(const struct glmux_layers_env *env, struct glmux_layer_loaded **out,
                           size_t *count, PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next);

/* The verdict's word for messages and JSON: "would load", "off", "wrong architecture", ... */
const char *glmux_layer_verdict_name(enum glmux_layer_verdict verdict);

#endif /* GLMUX_LAYERS_CORE_LAYERS_H */
