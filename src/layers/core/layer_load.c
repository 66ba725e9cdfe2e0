/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layers: loading the chosen layers (layers.h). A first version that finds none, so
 * that libGLdispatch builds against the interface while discovery is written.
 */
#define _GNU_SOURCE
#include "layers/core/layers.h"

#include <dlfcn.h>
#include <stdlib.h>

bool glmux_layers_load(struct glmux_layer_loaded **out, size_t *count,
                       PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next)
{
    (void)get_next;
    *out = NULL;
    *count = 0;
    return false;
}

void glmux_layers_unload(struct glmux_layer_loaded *layers, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (layers[i].unload != NULL)
            layers[i].unload();
        if (layers[i].handle != NULL)
            dlclose(layers[i].handle);
        free(layers[i].name);
        free(layers[i].manifest);
        free(layers[i].library);
    }
    free(layers);
}

void *glmux_layer_ask(const struct glmux_layer_loaded *layer, const char *name, uint32_t api,
                      void *next)
{
    void *mine;

    if ((layer->apis & api) == 0)
        return next;
    if (layer->get_proc_address != NULL)
        mine = layer->get_proc_address(name, api, next);
    else if (layer->android_get_proc_address != NULL)
        mine = layer->android_get_proc_address(name, (EGLFuncPointer)next);
    else
        mine = NULL;
    return mine != NULL ? mine : next;
}
