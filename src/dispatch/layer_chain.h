/* SPDX-License-Identifier: MIT */
/*
 * glmux: the process's one chain of GL layers in libGLdispatch (layer_chain.c, docs/layers.md):
 * loaded once, at the first layer_top or make-current; the top of the chain per function name
 * for libEGL and libGLX (winsys version 5, GLdispatch.h), per GL slot for the layered twin
 * tables (tables.c), and get_next for the layers. Nothing here runs while no layer is loaded:
 * the callers test glmux_chain_state (one load) first.
 */
#ifndef GLMUX_DISPATCH_LAYER_CHAIN_H
#define GLMUX_DISPATCH_LAYER_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "GLdispatch.h"

enum glmux_chain_state {
    GLMUX_CHAIN_UNLOADED = 0,   /* not looked for yet (or unloaded at the last fini) */
    GLMUX_CHAIN_LOADING,        /* one thread is loading the layers */
    GLMUX_CHAIN_NONE,           /* looked for: none loaded */
    GLMUX_CHAIN_ACTIVE,         /* layers loaded */
};

/* enum glmux_chain_state, read with an acquire load (defined in floor.c, which the tables
 * and the stubs' floors may use). */
extern int glmux_chain_state;

/*
 * The GL part of the chain, while a loaded layer lists a GL api (NULL otherwise): for each
 * slot in use, top[slot] is the top of its chain where a layer intercepts it, else NULL, once
 * done[slot] is set (atomic; a dynamic slot's is set a little after the slot is handed out,
 * when its layers have answered: until then a table's twin holds the vendor's function there
 * and is brought up to date again). Both written under glmux_dispatch_lock after the chain is
 * published. generation changes at each load, so a table's twin made for an earlier chain is
 * remade.
 */
struct glmux_chain_gl {
    unsigned generation;
    const void **top;           /* GLMUX_TOTAL_SLOTS */
    const unsigned char *done;  /* GLMUX_TOTAL_SLOTS */
};
extern struct glmux_chain_gl *glmux_chain_gl;     /* floor.c */

static inline int glmux_chain_state_now(void)
{
    return __atomic_load_n(&glmux_chain_state, __ATOMIC_ACQUIRE);
}

/* The GL chain, or NULL while no GL layer is loaded. */
static inline struct glmux_chain_gl *glmux_chain_gl_now(void)
{
    return __atomic_load_n(&glmux_chain_gl, __ATOMIC_ACQUIRE);
}

/* Finds and loads the layers if nobody has yet, or waits while another thread loads them
 * (make-current; no lock held). Returns at once on the thread that is loading them (a layer's
 * initialization that re-enters). */
void glmux_chain_load(void);
static inline void glmux_chain_ensure_loaded(void)
{
    /* UNLOADED: load them; LOADING: wait for the thread that is loading them. */
    if (__builtin_expect(glmux_chain_state_now() < GLMUX_CHAIN_NONE, 0))
        glmux_chain_load();
}

/*
 * The dynamic slot of a GL name without a static one, while GL layers may be loaded
 * (procaddr.c): handed out and published if it has none, as without layers; then, while its
 * chain is not set, the layers are asked about the name with the slot's below stub at the
 * bottom, with no lock held, and their answers stored with a re-check (the first stored
 * stands), so that the caller gets the slot with its chain set. Two threads asking for one new
 * name at once both ask the layers and get one slot and one chain; a layer that asks for the
 * name again while it is asked about it, on that thread, gets the slot at once. -1 when it
 * gets none. Called with no lock held.
 */
int glmux_chain_dynamic_slot(const char *name, size_t len, uint64_t hash);

/* At the last __glDispatchFini, no lock held: every layer's unload, dlclose, all freed. */
void glmux_chain_unload(void);

/* winsys v5's layer_top: the top of the chain for name, or NULL when no layer intercepts it. */
void *glmux_chain_layer_top(const char *name, uint32_t api, void *terminator);
/* winsys v5's layers_active. */
bool glmux_chain_layers_active(void);

/* The below stub of a slot: the bottom of its GL chain (GLdispatch_below.S/.c). */
const void *glmux_below_stub(unsigned slot);

#endif /* GLMUX_DISPATCH_LAYER_CHAIN_H */
