/* SPDX-License-Identifier: MIT */
/*
 * glmux: the process's one chain of GL layers in libGLdispatch (layer_chain.c, docs/layers.md):
 * loaded once, at the first layer_top or make-current; the top of the chain per function name
 * for libEGL and libGLX (winsys version 5, GLdispatch.h) and per GL slot for the layered twin
 * tables (tables.c); get_next for the layers. Nothing here runs while no layer is loaded.
 */
#ifndef GLMUX_DISPATCH_LAYER_CHAIN_H
#define GLMUX_DISPATCH_LAYER_CHAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "GLdispatch.h"

/* winsys v5's layer_top: the top of the chain for name, or NULL when no layer intercepts it. */
void *glmux_chain_layer_top(const char *name, uint32_t api, void *terminator);
/* winsys v5's layers_active. */
bool glmux_chain_layers_active(void);

#endif /* GLMUX_DISPATCH_LAYER_CHAIN_H */
