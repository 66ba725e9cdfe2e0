/* SPDX-License-Identifier: MIT */
/*
 * glmux: the GL layers' re-entry guard (docs/layers.md, "Calling public functions from a hook").
 * Only under GLMUX_DEBUG=layer, and only while layers are loaded, libGLdispatch dlopens a small
 * private library (src/layers/guard, installed as ${libdir}/glmux/libglmux-layer-guard.so beside
 * libGLdispatch) and puts its typed wrappers at the top and at the bottom of each chain: every
 * GL slot's, and each intercepted egl/glX name's. A top wrapper marks the calling thread as
 * inside that function's chain, a bottom wrapper marks it as outside while the vendor below
 * runs, so a public GL call made by a layer's hook (not by the vendor) is reported once per
 * pair of functions, at the layer debug level. Otherwise nothing of it is mapped or run. This
 * header is the interface between the two libraries (versioned, a struct each way) and what
 * layer_chain.c calls.
 */
#ifndef GLMUX_DISPATCH_LAYER_GUARD_H
#define GLMUX_DISPATCH_LAYER_GUARD_H

#include <stdbool.h>
#include <stdint.h>

/* Where the guard lies: this folder beside libGLdispatch's own file, and its name. */
#define GLMUX_GUARD_FOLDER "glmux"
#define GLMUX_GUARD_LIBRARY "libglmux-layer-guard.so"
/* Its one export, a glmux_guard_open_fn. */
#define GLMUX_GUARD_OPEN "glmux_guard_open"
#define GLMUX_GUARD_VERSION 1u

enum glmux_guard_where {
    GLMUX_GUARD_TOP = 0,        /* above the top layer: the thread enters the chain */
    GLMUX_GUARD_BOTTOM = 1,     /* below the lowest layer: the vendor runs, outside it */
};

/* What libGLdispatch gives the guard. */
struct glmux_guard_host {
    uint32_t version;           /* GLMUX_GUARD_VERSION */
    /* A public function (called) was entered while the thread ran a layer's hook in the chain
     * of running; called on the thread that did it, with names the guard keeps and a number
     * that is the pair's alone (never 0). */
    void (*report)(const char *called, const char *running, uint32_t pair);
};

/* What the guard gives back. */
struct glmux_guard {
    uint32_t version;           /* GLMUX_GUARD_VERSION */
    /* The guard's wrapper for name (api: one GLMUX_LAYER_API_* bit) at `where`, which calls
     * next; NULL when it has none (a name the registry gives no prototype for, or next NULL).
     * The same wrapper each time for a name and place; the last next given is the one called. */
    void *(*wrap)(const char *name, uint32_t api, enum glmux_guard_where where, void *next);
};

typedef const struct glmux_guard *(*glmux_guard_open_fn)(const struct glmux_guard_host *host);

/* ---- libGLdispatch's side (layer_guard.c) ---- */

/*
 * At each load of the chain, on the loader thread with layers loaded and no lock held: when
 * the layer debug category is on, loads the guard (once per process; it stays mapped) and
 * switches it on for this chain. True when it is on.
 */
bool glmux_guard_load(void);
/* At the chain's unload: off (the wrappers stay mapped, and answer as before if still called). */
void glmux_guard_drop(void);
/* The guard's wrapper for name at where over next, or NULL (guard off, or no wrapper). */
void *glmux_guard_wrap(const char *name, uint32_t api, enum glmux_guard_where where, void *next);

#endif /* GLMUX_DISPATCH_LAYER_GUARD_H */
