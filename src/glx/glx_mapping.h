/* SPDX-License-Identifier: MIT */
/*
 * glmux: which vendor owns each GLX context and FBConfig (glx_mapping.c), under
 * glmux_glx_map_lock.
 */
#ifndef GLMUX_GLX_MAPPING_H
#define GLMUX_GLX_MAPPING_H

#include <stdbool.h>

#include <X11/Xlib.h>
#include <GL/glx.h>

#include "glx/glx_vendor.h"

/* What libGLX records of a context. */
struct glmux_glx_context {
    GLXContext handle;
    glmux_glx_vendor *vendor;
    int current_count;              /* threads on which it is current */
    bool deleted;                   /* freed once no thread has it current */
};

/* The exports of the GLX vendor ABI for contexts and FBConfigs. */
int glmux_glx_context_add(Display *dpy, GLXContext ctx, glmux_glx_vendor *vendor);
void glmux_glx_context_remove(Display *dpy, GLXContext ctx);
glmux_glx_vendor *glmux_glx_vendor_from_context(GLXContext ctx);
/* The record of ctx (glmux_glx_map_lock held), or NULL. */
struct glmux_glx_context *glmux_glx_context_find(GLXContext ctx);
/*
 * How many context records were freed so far (glmux_glx_map_lock held): a record pointer
 * taken while this count had the same value is still alive, which lets a thread reuse the
 * record of the context it left last without looking it up (glx_current.c).
 */
unsigned long glmux_glx_context_generation(void);
/* Drops a current reference; frees a deleted context at zero. glmux_glx_map_lock held. */
void glmux_glx_context_unref_locked(struct glmux_glx_context *info);
int glmux_glx_fbconfig_add(Display *dpy, GLXFBConfig config, glmux_glx_vendor *vendor);
/* Adds n configs of one vendor under one lock; -1 when one belongs to another vendor. */
int glmux_glx_fbconfig_add_list(Display *dpy, GLXFBConfig *configs, int n,
                                glmux_glx_vendor *vendor);
void glmux_glx_fbconfig_remove(Display *dpy, GLXFBConfig config);
glmux_glx_vendor *glmux_glx_vendor_from_fbconfig(Display *dpy, GLXFBConfig config);

#endif /* GLMUX_GLX_MAPPING_H */
