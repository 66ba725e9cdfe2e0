/* SPDX-License-Identifier: MIT */
/*
 * glmux: which vendor owns each GLX object. Contexts are unique in the whole process and are
 * kept until no thread has them current; FBConfigs may repeat across displays but only within
 * one vendor; drawables are XIDs, kept per display, and an XID libGLX did not create is looked
 * up through the server (glx_display.c). Adding a handle another vendor already owns fails,
 * as the GLX vendor ABI requires.
 */
#include <stdlib.h>

#include "glx/glx_internal.h"
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
    int ret = 0;

    (void)dpy;
    if (vendor == NULL)
        return -1;
    /* One lock and one probe sequence per config: a vendor returns hundreds of them. */
    glmux_glx_map_acquire();
    glmux_ptrmap_reserve(&fbconfigs, (size_t)n);
    for (int i = 0; i < n && ret == 0; i++) {
        glmux_glx_vendor *owner;

        if (configs[i] == NULL)
            continue;
        owner = glmux_ptrmap_claim(&fbconfigs, (uintptr_t)configs[i], vendor);
        if (owner == vendor && glmux_ptrmap_get(&fbconfigs, (uintptr_t)configs[i]) != vendor) {
            ret = -1;           /* out of memory: claim() could not insert it */
        } else if (owner != NULL && owner != vendor) {
            glmux_log(GLMUX_LOG_WARN, "GLXFBConfig %p of vendor %s claimed by vendor %s; refused",
                      (void *)configs[i], owner->name, vendor->name);
            ret = -1;
        }
    }
    glmux_glx_map_release();
    return ret;
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

int glmux_glx_drawable_add(Display *dpy, GLXDrawable draw, glmux_glx_vendor *vendor)
{
    struct glmux_glx_display *d;
    glmux_glx_vendor *owner;
    int ret = 0;

    if (draw == None)
        return 0;
    if (dpy == NULL || vendor == NULL)
        return -1;
    d = glmux_glx_display_get(dpy);
    glmux_glx_map_acquire();
    if (d == NULL) {
        ret = -1;
    } else {
        owner = glmux_ptrmap_get(d->drawables, draw);
        if (owner != NULL && owner != vendor)
            ret = -1;
        else if (owner == NULL && !glmux_ptrmap_put(d->drawables, draw, vendor))
            ret = -1;
    }
    glmux_glx_map_release();
    return ret;
}

void glmux_glx_drawable_remove(Display *dpy, GLXDrawable draw)
{
    struct glmux_glx_display *d;

    if (dpy == NULL || draw == None || (d = glmux_glx_display_get(dpy)) == NULL)
        return;
    glmux_glx_map_acquire();
    glmux_ptrmap_remove(d->drawables, draw);
    glmux_glx_map_release();
}

glmux_glx_vendor *glmux_glx_vendor_from_drawable(Display *dpy, GLXDrawable draw)
{
    struct glmux_glx_display *d;
    glmux_glx_vendor *vendor = NULL;
    int screen = -1;
    bool ext = false, has_glx = false;
    int opcode = 0;

    if (dpy == NULL || draw == None || (d = glmux_glx_display_get(dpy)) == NULL)
        return NULL;
    glmux_glx_map_acquire();
    vendor = glmux_ptrmap_get(d->drawables, draw);
    glmux_glx_map_release();
    if (vendor != NULL)
        return vendor;
    ext = d->libglvnd_ext;
    opcode = d->opcode;
    has_glx = d->has_glx;
    if (!has_glx)
        screen = 0;

    /* Not ours: ask the server which screen it is on, then cache the screen's vendor. */
    if (screen < 0 && has_glx)
        screen = glmux_glx_x11_drawable_screen(dpy, opcode, ext, draw);
    if (screen < 0) {
        glmux_log(GLMUX_LOG_VENDOR, "drawable 0x%lx is unknown to the server",
                  (unsigned long)draw);
        return NULL;
    }
    vendor = glmux_glx_vendor_for_screen(dpy, screen);
    if (vendor != NULL)
        glmux_glx_drawable_add(dpy, draw, vendor);
    return vendor;
}

static void free_context(uintptr_t key, void *val, void *data)
{
    (void)key;
    (void)data;
    free(val);
}

void glmux_glx_mapping_fini(void)
{
    glmux_ptrmap_each(&contexts, free_context, NULL);
    glmux_ptrmap_clear(&contexts);
    contexts_freed++;
    glmux_ptrmap_clear(&fbconfigs);
}
