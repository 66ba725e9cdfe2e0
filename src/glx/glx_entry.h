/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's generated GLX entry stubs (glx_entry.c, with the generated glmux_glx_stubs.S
 * or .c): what glXGetProcAddress hands out for a glX name no loaded vendor knows yet.
 * GLMUX_GLX_ENTRY_COUNT, GLMUX_GLX_ENTRY_SIZE, GLMUX_HAVE_GLX_STUBS: glmux_constants.h.
 */
#ifndef GLMUX_GLX_ENTRY_H
#define GLMUX_GLX_ENTRY_H

#include "glx/glx_vendor.h"

/*
 * Returns the address of a new stub for name, or NULL (none left, or a build without them).
 * glmux_glx_lock held. The caller asks once per name (glx_procaddr.c keeps the answer) and
 * passes a copy of the name that lives until libGLX is unloaded.
 */
__GLXextFuncPtr glmux_glx_entry_new(const char *name);
/* Points every stub that has no target yet at what vendor offers for its name (lock held). */
void glmux_glx_entry_vendor_loaded(glmux_glx_vendor *vendor);

#endif /* GLMUX_GLX_ENTRY_H */
