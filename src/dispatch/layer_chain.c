/* SPDX-License-Identifier: MIT */
/*
 * glmux: the process's one chain of GL layers (docs/layers.md). This first version is the
 * interface only: no layer is ever loaded, layer_top answers NULL and layers_active false, so
 * libEGL and libGLX can be built against winsys version 5 (GLdispatch.h).
 */
#include <stddef.h>

#include "layer_chain.h"

void *glmux_chain_layer_top(const char *name, uint32_t api, void *terminator)
{
    (void)name;
    (void)api;
    (void)terminator;
    return NULL;
}

bool glmux_chain_layers_active(void)
{
    return false;
}
