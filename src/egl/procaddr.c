/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: eglGetProcAddress. An "egl" name is one of libEGL's own 54 functions, or a
 * vendor's dispatch stub: the first vendor whose getDispatchAddress knows the name supplies
 * the stub, the name gets the next winsys index and every vendor is told that index. Any
 * "gl" name is libGLdispatch's stub (filled at make-current). Results are cached. One more name,
 * GLMUX_EGL_VENDORS_PROC, is glmux's versioned interface for the pixels GLX vendor
 * (egl_shared.h); every other name gets NULL. With GL layers loaded, an "egl" name's answer is
 * the top of its chain (winsys/layer.h) when a layer intercepts it; glmux_egl_own_proc, the
 * bottom of the chain, is the answer without layers, but an own function's body instead of
 * its export.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "discovery.h"
#include "egl_explain.h"
#include "display.h"
#include "glmux_egl_impl.h"
#include "maps.h"
#include "platform.h"
#include "procaddr.h"
#include "state.h"
#include "vendor.h"
#include "glmux/glmux_layer.h"
#include "util/log.h"
#include "winsys/layer.h"

typedef void (*proc)(void);

/* The bodies of libEGL's own functions (own_proc's answers; the bottom of their chains). */
static const proc own_functions[GLMUX_EGL_IDX_COUNT] = {
#define OWN(name) [GLMUX_EGL_IDX_##name] = (proc)glmux_egl_##name,
    GLMUX_EGL_FUNCS(OWN)
#undef OWN
};

/*
 * The stub for a vendor extension function: the one handed out before, else the first
 * vendor's getDispatchAddress answer, which gets the next winsys index; every vendor is then
 * told that index. Vendors are called with no lock held; two threads racing on a new name
 * get the same index and the stub recorded first.
 */
static proc vendor_stub(const char *name)
{
    int index = glmux_egl_winsys_find(name);
    proc stub = index >= GLMUX_EGL_IDX_COUNT ? (proc)glmux_egl_winsys_stub(index) : NULL;

    for (glmux_egl_vendor *v = glmux_egl_vendors(); stub == NULL && v != NULL; v = v->next) {
        void *found = v->imports.getDispatchAddress(name);

        if (found == NULL)
            continue;
        index = glmux_egl_winsys_add(name, found);
        if (index < GLMUX_EGL_IDX_COUNT)
            return NULL;
        stub = (proc)glmux_egl_winsys_stub(index);
        glmux_log(GLMUX_LOG_DISPATCH, "eglGetProcAddress(%s): stub from %s, dispatch index %d",
                  name, v->library, index);
        for (glmux_egl_vendor *o = glmux_egl_vendors(); o != NULL; o = o->next)
            o->imports.setDispatchIndex(name, index);
    }
    return stub;
}

/* An "egl" name without layers: one of ours (the export, if it has one), or a vendor's
 * dispatch stub. *own gets the own function's body, the bottom of the name's chain. */
static proc egl_proc(const char *name, proc *own)
{
    int index = glmux_egl_winsys_find(name);

    if (index >= 0 && index < GLMUX_EGL_IDX_COUNT) {
        *own = own_functions[index];
        return glmux_egl_exported[index] != NULL ? glmux_egl_exported[index] : *own;
    }
    return *own = vendor_stub(name);
}

/* An "egl" name: the top of its chain of layers, else egl_proc's answer. */
static __attribute__((noinline)) proc egl_answer(const char *name)
{
    proc own = NULL, fn = egl_proc(name, &own);

    if (fn != NULL && glmux_winsys_layers_maybe()) {
        proc top = (proc)glmux_winsys_layer_top(name, GLMUX_LAYER_API_EGL, (void *)own, NULL);

        if (top != NULL)
            return top;
    }
    return fn;
}

void *glmux_egl_own_proc(const char *name)
{
    proc own = NULL;

    if (strncmp(name, "egl", 3) == 0)
        egl_proc(name, &own);
    return (void *)own;
}

__eglMustCastToProperFunctionPointerType EGLAPIENTRY glmux_egl_GetProcAddress(const char *name)
{
    glmux_egl_entry();
    if (name == NULL)
        return NULL;
    if (name[0] == 'g' && name[1] == 'l')       /* the common case first: a GL function */
        return (__eglMustCastToProperFunctionPointerType)__glDispatchGetProcAddress(name);
    if (strncmp(name, "egl", 3) == 0)
        return egl_answer(name);
    if (strcmp(name, GLMUX_EGL_VENDORS_PROC) == 0)
        return (__eglMustCastToProperFunctionPointerType)glmux_egl_shared_vendors;
    if (strcmp(name, GLMUX_EGL_EXPLAIN_NAME) == 0)     /* glmux explain (egl_explain.h) */
        return (__eglMustCastToProperFunctionPointerType)(glmux_egl_explain_fn)
            glmux_egl_explain_default;
    return NULL;
}
