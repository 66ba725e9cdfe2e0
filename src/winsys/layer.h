/* SPDX-License-Identifier: MIT */
/*
 * glmux winsys: libEGL's and libGLX's side of the GL layers (docs/layers.md). Every export of
 * the two libraries is a generated wrapper (scripts/gen/gen_winsys_wrappers.py) that asks
 * glmux_winsys_layers_maybe() first: false once this library knows that no layer is loaded in
 * the process, and then the export costs one load and one branch before its tail call into
 * glmux's own implementation. Until then, or while layers are loaded, it asks
 * glmux_winsys_layer_top() for the top of the name's chain, which libGLdispatch owns (winsys
 * version 5's layer_top, GLdispatch.h); the first such call in the process loads the layers.
 * The GetProcAddress answers of both libraries go through glmux_winsys_layer_top() too. Each
 * library links its own copy of this state.
 */
#ifndef GLMUX_WINSYS_LAYER_H
#define GLMUX_WINSYS_LAYER_H

#include <stdbool.h>
#include <stdint.h>

/* What this library knows of the process's layers. */
enum glmux_winsys_layers_state {
    GLMUX_WINSYS_LAYERS_NONE = 0,   /* none loaded, nor ever will be: call the own function */
    GLMUX_WINSYS_LAYERS_UNKNOWN,    /* not asked yet (the first export called asks) */
    GLMUX_WINSYS_LAYERS_ACTIVE,     /* layers are loaded: ask each name's top once */
};
extern int glmux_winsys_layers __attribute__((visibility("hidden")));

/* Whether a call has to ask glmux_winsys_layer_top (rarely: only until the first answer when
 * no layer is installed). */
static inline bool glmux_winsys_layers_maybe(void)
{
    return __builtin_expect(__atomic_load_n(&glmux_winsys_layers, __ATOMIC_RELAXED) !=
                                GLMUX_WINSYS_LAYERS_NONE, 0);
}

/*
 * The top of the chain of layers for name (api: a GLMUX_LAYER_API_* bit of glmux_layer.h), or
 * NULL when no loaded layer intercepts it: then the caller calls terminator, its own function
 * for name, which is also the bottom of the chain. The first call in the process loads the
 * layers (libGLdispatch does, once). cache, when not NULL, is the caller's own slot for this
 * name and terminator (zero-initialized): the answer is kept there, so that later calls cost
 * one load. Thread-safe; takes no lock of the library.
 */
void *glmux_winsys_layer_top(const char *name, uint32_t api, void *terminator, void **cache);

/*
 * How many layers' functions, called from this library's exports, the calling thread is in
 * (the exports' out-of-line path counts, in a thread-specific value made at the first use).
 * An export called while it is not zero was called by a layer through the public symbol (or
 * by a program's callback that a layer's call led to): the call enters the chain at its top
 * again, which docs/layers.md tells layer authors never to do. glmux_winsys_layer_check says
 * so at the layer debug level (a few times per process and library); the call goes on.
 */
void glmux_winsys_layer_check(const char *name);
void glmux_winsys_layer_enter(void);
void glmux_winsys_layer_leave(void);

#endif /* GLMUX_WINSYS_LAYER_H */
