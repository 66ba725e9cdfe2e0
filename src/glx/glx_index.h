/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's GLX dispatch indices (glx_index.c). Indices [0, own count) are libGLX's own
 * functions (glx_core_table.h, then GLMUX_GLX_OWN_EXTRA); then the vendors' GLX extension
 * functions, in the order they got one. Every loaded vendor is told every index
 * (setDispatchIndex). glmux_glx_lock guards the list; a name is read with no lock
 * (glmux_glx_index_name).
 */
#ifndef GLMUX_GLX_INDEX_H
#define GLMUX_GLX_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "glx/glx_vendor.h"

/* libGLX's own index of name (hash: glmux_name_index_hash(name)), or -1. Needs no lock once
 * glmux_glx_index_own_build ran (under glmux_glx_lock) and the caller has seen that. */
int glmux_glx_index_own(const char *name, uint32_t hash);
void glmux_glx_index_own_build(void);
/*
 * The index of name, which is not one of libGLX's own, given one if it has none (*is_new then
 * true); -1 out of memory. name is kept by pointer: a copy that lives until libGLX is unloaded
 * (glx_procaddr.c's). glmux_glx_lock held. The caller tells the vendors a new index
 * (glmux_glx_index_tell), with the lock held or not.
 */
int glmux_glx_index_assign(const char *name, uint32_t hash, bool *is_new);
/* Tells every vendor loaded so far that name (a copy that lives until unload) has index. */
void glmux_glx_index_tell(const char *name, int index);
/* glmux_glx_index_assign and, for a new index, glmux_glx_index_tell. Lock held. name: as for
 * glmux_glx_index_assign. */
int glmux_glx_index_add(const char *name);
/* The name of an index (stable until libGLX is unloaded), or NULL. Needs no lock. */
const char *glmux_glx_index_name(int index);
/* A vendor was just loaded (lock held): it learns every index. (glx_vendor.c then has the
 * generated entry stubs it can serve filled in: glmux_glx_entry_vendor_loaded.) */
void glmux_glx_index_vendor_loaded(glmux_glx_vendor *vendor);

#endif /* GLMUX_GLX_INDEX_H */
