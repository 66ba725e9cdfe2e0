/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layers: loading the layers the scan chose (layers.h). Each library is opened with
 * dlopen(RTLD_NOW | RTLD_LOCAL): a layer's missing symbol is found now, as one message, rather
 * than as a crash at its first call, and its names never satisfy another library's. The loader
 * is not select/vendor_load.c's, whose vendor policy (RTLD_LAZY, one entry point) is not a
 * layer's (two alternative entries, Android's taking no version). Layers are initialized
 * bottom first, each at its final address in the array (its layer_id), so that a layer may call
 * get_next while it initializes; one that fails is closed and the next one up takes its place,
 * so the layers loaded so far never move. Every failure is one warning naming the manifest, at
 * most a few per process, the rest at GLMUX_DEBUG=layer; the other layers and the program go on.
 */
#define _GNU_SOURCE
#include "layers/core/layer_internal.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* Warnings about layers per process; the rest go to the layer category. */
#define WARNINGS_MAX 8

struct layer_block {
    size_t n;                            /* slots */
    struct glmux_layer_loaded slot[];    /* the loaded ones are the last ones */
};

/* The block of the chain loaded last (glmux_layers_below). */
static struct layer_block *current_block;

static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void warn(const char *fmt, ...)
{
    static unsigned warned;
    unsigned n = __atomic_fetch_add(&warned, 1, __ATOMIC_RELAXED);
    char msg[768];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (n < WARNINGS_MAX)
        glmux_log(GLMUX_LOG_WARN, "%s", msg);
    else
        glmux_log(GLMUX_LOG_LAYER, "%s", msg);
    if (n == WARNINGS_MAX - 1)
        glmux_log(GLMUX_LOG_WARN, "more GL layer problems are logged with GLMUX_DEBUG=layer only");
}

static void clear_slot(struct glmux_layer_loaded *slot)
{
    free(slot->name);
    free(slot->manifest);
    free(slot->library);
    memset(slot, 0, sizeof(*slot));
}

/* Opens one layer into slot and calls its entry; false with why filled. */
static bool open_layer(const struct glmux_layer_info *info, struct glmux_layer_loaded *slot,
                       PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next, char *why, size_t size)
{
    PFN_glmux_layer_negotiate negotiate;
    void *(*android_init)(void *, PFNEGLGETNEXTLAYERPROCADDRESSPROC);
    void *android_gpa;
    const char *err;

    dlerror();
    slot->handle = dlopen(info->library, RTLD_NOW | RTLD_LOCAL);
    if (slot->handle == NULL) {
        err = dlerror();
        if (err != NULL && strstr(err, "wrong ELF class") != NULL)
            snprintf(why, size, "wrong architecture: %s (this process is %s)", err,
                     glmux_elf_own());
        else
            snprintf(why, size, "cannot be loaded: %s", err != NULL ? err : "dlopen failed");
        return false;
    }
    *(void **)&negotiate = dlsym(slot->handle, "glmux_layer_negotiate");
    *(void **)&android_init = dlsym(slot->handle, "AndroidGLESLayer_Initialize");
    android_gpa = dlsym(slot->handle, "AndroidGLESLayer_GetProcAddress");
    if (negotiate != NULL) {
        struct glmux_layer_negotiate n = {
            .size = sizeof(n),
            .abi_version = GLMUX_LAYER_ABI_VERSION,
            .layer_name = slot->name,
            .layer_id = slot,
            .get_next = get_next,
            .apis = slot->apis,
        };
        int rc = negotiate(&n);

        if (rc != 0) {
            snprintf(why, size, "its glmux_layer_negotiate declined (returned %d)", rc);
            return false;
        }
        if (GLMUX_LAYER_ABI_GET_MAJOR(n.abi_version) != GLMUX_LAYER_ABI_MAJOR ||
            GLMUX_LAYER_ABI_GET_MINOR(n.abi_version) > GLMUX_LAYER_ABI_MINOR) {
            snprintf(why, size, "it speaks layer ABI %u.%u; this glmux speaks %d.%d (a layer "
                     "must answer a version no higher than the one offered)",
                     GLMUX_LAYER_ABI_GET_MAJOR(n.abi_version),
                     GLMUX_LAYER_ABI_GET_MINOR(n.abi_version), GLMUX_LAYER_ABI_MAJOR,
                     GLMUX_LAYER_ABI_MINOR);
            return false;
        }
        if (n.get_proc_address == NULL) {
            snprintf(why, size, "its glmux_layer_negotiate set no get_proc_address");
            return false;
        }
        slot->get_proc_address = n.get_proc_address;
        slot->unload = n.unload;
        return true;
    }
    if (android_init != NULL && android_gpa != NULL) {
        *(void **)&slot->android_get_proc_address = android_gpa;
        android_init(slot, get_next);
        return true;
    }
    if (android_init != NULL || android_gpa != NULL)
        snprintf(why, size, "it exports %s but not %s (Android's layers need both)",
                 android_init != NULL ? "AndroidGLESLayer_Initialize"
                                      : "AndroidGLESLayer_GetProcAddress",
                 android_init != NULL ? "AndroidGLESLayer_GetProcAddress"
                                      : "AndroidGLESLayer_Initialize");
    else
        snprintf(why, size, "it exports neither glmux_layer_negotiate nor Android's "
                 "AndroidGLESLayer_Initialize and AndroidGLESLayer_GetProcAddress");
    return false;
}

/* Says at the layer level (warn for what a user must fix) why each layer is not loaded. */
static void report_scan(const struct glmux_layer_scan *s)
{
    for (size_t i = 0; i < s->count; i++) {
        const struct glmux_layer_info *info = &s->layers[i];
        const char *name = info->name != NULL ? info->name : "?";

        switch (info->verdict) {
        case GLMUX_LAYER_WOULD_LOAD:
            break;
        case GLMUX_LAYER_BROKEN:
            warn("layer manifest %s is broken, skipped: %s", info->manifest, info->reason);
            break;
        case GLMUX_LAYER_WRONG_FOLDER:
            warn("layer %s (%s) skipped: %s", name, info->manifest, info->reason);
            break;
        case GLMUX_LAYER_WRONG_ARCH:
        case GLMUX_LAYER_NO_LIBRARY:
            warn("layer %s (%s) not loaded: %s: %s", name, info->manifest,
                 glmux_layer_verdict_name(info->verdict), info->reason);
            break;
        default:
            glmux_log(GLMUX_LOG_LAYER, "layer %s (%s): %s: %s", name, info->manifest,
                      glmux_layer_verdict_name(info->verdict), info->reason);
            break;
        }
    }
    for (size_t i = 0; i < s->n_unknown; i++)
        warn("GLMUX_LAYERS names \"%s\", which no layer manifest declares; `glmux layers` "
             "lists the layers found and the folders searched", s->unknown_names[i]);
}

bool glmux_layers_load_env(const struct glmux_layers_env *env, struct glmux_layer_loaded **out,
                           size_t *count, PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next)
{
    struct glmux_layer_scan scan;
    struct layer_block *block;
    size_t pos;

    *out = NULL;
    *count = 0;
    if (env != NULL && glmux_layers_none_quick(env))
        return false;
    if (!glmux_layers_scan_mode(env, &scan, false)) {
        warn("out of memory while looking for GL layers; going on without them");
        return false;
    }
    report_scan(&scan);
    if (scan.chain_count == 0) {
        glmux_log(GLMUX_LOG_LAYER, "no GL layer to load");
        glmux_layers_scan_free(&scan);
        return false;
    }
    block = calloc(1, sizeof(*block) + scan.chain_count * sizeof(block->slot[0]));
    if (block == NULL) {
        warn("out of memory while loading GL layers; going on without them");
        glmux_layers_scan_free(&scan);
        return false;
    }
    block->n = scan.chain_count;
    __atomic_store_n(&current_block, block, __ATOMIC_RELEASE);
    /* Bottom first; pos is the next free slot, from the end. */
    pos = block->n;
    for (size_t c = scan.chain_count; c-- > 0;) {
        const struct glmux_layer_info *info = &scan.layers[scan.chain[c]];
        struct glmux_layer_loaded *slot = &block->slot[pos - 1];
        char why[512];

        slot->name = strdup(info->name);
        slot->manifest = strdup(info->manifest);
        slot->library = strdup(info->library);
        slot->apis = info->apis;
        slot->block_ = block;
        if (slot->name == NULL || slot->manifest == NULL || slot->library == NULL) {
            snprintf(why, sizeof(why), "out of memory");
        } else if (open_layer(info, slot, get_next, why, sizeof(why))) {
            glmux_log(GLMUX_LOG_LAYER, "layer %s loaded from %s (%s, %s entry)", info->name,
                      info->library, info->manifest,
                      slot->get_proc_address != NULL ? "glmux's" : "Android's");
            pos--;
            continue;
        }
        warn("layer %s (%s) not loaded: %s; the other layers and the program go on", info->name,
             info->manifest, why);
        if (slot->handle != NULL)
            dlclose(slot->handle);
        clear_slot(slot);
    }
    glmux_layers_scan_free(&scan);
    if (pos == block->n) {
        __atomic_store_n(&current_block, NULL, __ATOMIC_RELEASE);
        free(block);
        return false;
    }
    *out = &block->slot[pos];
    *count = block->n - pos;
    if (glmux_log_enabled(GLMUX_LOG_LAYER)) {
        char line[1024];
        size_t len = (size_t)snprintf(line, sizeof(line), "layer chain: program");
        for (size_t i = 0; i < *count && len < sizeof(line); i++)
            len += (size_t)snprintf(line + len, sizeof(line) - len, " -> %s", (*out)[i].name);
        glmux_log(GLMUX_LOG_LAYER, "%s -> glmux -> vendor", line);
    }
    return true;
}

bool glmux_layers_load(struct glmux_layer_loaded **out, size_t *count,
                       PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next)
{
    /* No layer installed or all switched off: a few system calls, no scan (layer_scan.c). */
    *out = NULL;
    *count = 0;
    return !glmux_layers_none_quick(NULL) && glmux_layers_load_env(NULL, out, count, get_next);
}

void glmux_layers_unload(struct glmux_layer_loaded *layers, size_t count)
{
    struct layer_block *block, *mem;

    if (layers == NULL || count == 0)
        return;
    block = mem = layers[0].block_;
    /* Top first: the reverse of their initialization. */
    for (size_t i = 0; i < count; i++)
        if (layers[i].unload != NULL)
            layers[i].unload();
    __atomic_compare_exchange_n(&current_block, &block, NULL, false, __ATOMIC_ACQ_REL,
                                __ATOMIC_ACQUIRE);
    for (size_t i = 0; i < count; i++) {
        if (layers[i].handle != NULL)
            dlclose(layers[i].handle);
        clear_slot(&layers[i]);
    }
    free(mem);
}

size_t glmux_layers_below(const void *layer_id, const struct glmux_layer_loaded **below)
{
    struct layer_block *block = __atomic_load_n(&current_block, __ATOMIC_ACQUIRE);
    const struct glmux_layer_loaded *layer = layer_id;

    *below = NULL;
    if (block == NULL || layer == NULL || layer < block->slot || layer >= block->slot + block->n)
        return 0;
    *below = layer + 1;
    return (size_t)(block->slot + block->n - (layer + 1));
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
