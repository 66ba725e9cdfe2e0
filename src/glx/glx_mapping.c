/* SPDX-License-Identifier: MIT */
/*
 * glmux: which vendor owns each GLX context and FBConfig (drawables: glx_screen.c). Contexts
 * are unique in the whole process and are kept until no thread has them current; FBConfigs may
 * repeat across displays but only within one vendor. Adding a handle another vendor already
 * owns fails, as the GLX vendor ABI requires. All of it under glmux_glx_map_lock.
 */
#include <stdlib.h>

#include "glx/glx_lock.h"
#include "glx/glx_mapping.h"
#include "util/lifecycle.h"
#include "util/log.h"

static struct glmux_ptrmap contexts;   /* GLXContext -> struct glmux_glx_context */
static unsigned long contexts_freed;   /* glmux_glx_context_generation */
static struct glmux_ptrmap fbconfigs;  /* GLXFBConfig -> vendor */

int glmux_glx_context_add(Display *dpy, GLXContext ctx, glmux_glx_vendor *vendor)
{
    struct glmux_glx_context *info;
    int ret = 0;

    (void)dpy;
    if (ctx == NULL || vendor == NULL)
        return ctx == NULL ? 0 : -1;
    glmux_glx_map_acquire();
    info = glmux_ptrmap_get(&contexts, (uintptr_t)ctx);
    if (info != NULL) {
        if (info->vendor != vendor) {
            glmux_log(GLMUX_LOG_WARN, "GLX context %p of vendor %s claimed by vendor %s; refused",
                      (void *)ctx, info->vendor->name, vendor->name);
            ret = -1;
        } else {
            info->deleted = false;
        }
    } else {
        info = calloc(1, sizeof(*info));
        if (info == NULL || !glmux_ptrmap_put(&contexts, (uintptr_t)ctx, info)) {
            free(info);
            ret = -1;
        } else {
            info->handle = ctx;
            info->vendor = vendor;
        }
    }
    glmux_glx_map_release();
    return ret;
}

void glmux_glx_context_unref_locked(struct glmux_glx_context *info)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_map_lock);
    if (info == NULL)
        return;
    if (info->current_count > 0)
        info->current_count--;
    if (info->deleted && info->current_count == 0) {
        glmux_ptrmap_remove(&contexts, (uintptr_t)info->handle);
        free(info);
        contexts_freed++;
    }
}

void glmux_glx_context_remove(Display *dpy, GLXContext ctx)
{
    struct glmux_glx_context *info;

    (void)dpy;
    glmux_glx_map_acquire();
    info = glmux_ptrmap_get(&contexts, (uintptr_t)ctx);
    if (info != NULL) {
        info->deleted = true;
        if (info->current_count == 0) {
            glmux_ptrmap_remove(&contexts, (uintptr_t)ctx);
            free(info);
            contexts_freed++;
        }
    }
    glmux_glx_map_release();
}

struct glmux_glx_context *glmux_glx_context_find(GLXContext ctx)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_map_lock);
    return glmux_ptrmap_get(&contexts, (uintptr_t)ctx);
}

unsigned long glmux_glx_context_generation(void)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_map_lock);
    return contexts_freed;
}

glmux_glx_vendor *glmux_glx_vendor_from_context(GLXContext ctx)
{
    struct glmux_glx_context *info;
    glmux_glx_vendor *vendor = NULL;

    glmux_glx_map_acquire();
    info = glmux_ptrmap_get(&contexts, (uintptr_t)ctx);
    if (info != NULL)
        vendor = info->vendor;
    glmux_glx_map_release();
    return vendor;
}

int glmux_glx_fbconfig_add(Display *dpy, GLXFBConfig config, glmux_glx_vendor *vendor)
{
    return glmux_glx_fbconfig_add_list(dpy, &config, 1, vendor);
}

int glmux_glx_fbconfig_add_list(Display *dpy, GLXFBConfig *configs, int n,
                                glmux_glx_vendor *vendor)
{
    glmux_glx_vendor *owner;
    size_t at;

    (void)dpy;
    if (vendor == NULL)
        return -1;
    if (n <= 0)
        return 0;
    /* One lock and one pass for the list: a vendor returns hundreds of configs. */
    glmux_glx_map_acquire();
    owner = glmux_ptrmap_claim_all(&fbconfigs, configs, (size_t)n, vendor, &at);
    glmux_glx_map_release();
    if (owner == NULL)
        return 0;
    if (owner != vendor)        /* else out of memory */
        glmux_log(GLMUX_LOG_WARN, "GLXFBConfig %p of vendor %s claimed by vendor %s; refused",
                  (void *)configs[at], owner->name, vendor->name);
    return -1;
}

void glmux_glx_fbconfig_remove(Display *dpy, GLXFBConfig config)
{
    (void)dpy;
    glmux_glx_map_acquire();
    glmux_ptrmap_remove(&fbconfigs, (uintptr_t)config);
    glmux_glx_map_release();
}

glmux_glx_vendor *glmux_glx_vendor_from_fbconfig(Display *dpy, GLXFBConfig config)
{
    glmux_glx_vendor *vendor;

    (void)dpy;
    glmux_glx_map_acquire();
    vendor = glmux_ptrmap_get(&fbconfigs, (uintptr_t)config);
    glmux_glx_map_release();
    return vendor;
}

static void free_context(uintptr_t key, void *val, void *data)
{
    (void)key;
    (void)data;
    free(val);
}

static void teardown(void)
{
    glmux_glx_map_acquire();
    glmux_ptrmap_each(&contexts, free_context, NULL);
    glmux_ptrmap_clear(&contexts);
    contexts_freed++;
    glmux_ptrmap_clear(&fbconfigs);
    glmux_glx_map_release();
}

GLMUX_LIFECYCLE_STEP(glx_maps, GLMUX_GLX_ORDER_MAPS, .teardown = teardown);
