/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: eglGetProcAddress. An "egl" name is one of libEGL's own 54 functions, or a
 * vendor's dispatch stub: the first vendor whose getDispatchAddress knows the name supplies
 * the stub, the name gets the next winsys index and every vendor is told that index. Any
 * "gl" name is libGLdispatch's stub (filled at make-current). Results are cached. One more name,
 * GLMUX_EGL_VENDORS_PROC, is glmux's versioned interface for the pixels GLX vendor
 * (egl_shared.h); every other name gets NULL.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "discovery.h"
#include "display.h"
#include "maps.h"
#include "platform.h"
#include "state.h"
#include "vendor.h"
#include "util/log.h"

typedef void (*proc)(void);

static const proc own_functions[GLMUX_EGL_IDX_COUNT] = {
#define OWN(name) [GLMUX_EGL_IDX_##name] = (proc)egl##name,
#define INTERNAL(name) [GLMUX_EGL_IDX_##name] = (proc)glmux_egl_##name,
    OWN(BindAPI) OWN(BindTexImage) OWN(ChooseConfig) OWN(ClientWaitSync) OWN(CopyBuffers)
    OWN(CreateContext) OWN(CreateImage) OWN(CreatePbufferFromClientBuffer)
    OWN(CreatePbufferSurface) OWN(CreatePixmapSurface) OWN(CreatePlatformPixmapSurface)
    INTERNAL(CreatePlatformPixmapSurfaceEXT) OWN(CreatePlatformWindowSurface)
    INTERNAL(CreatePlatformWindowSurfaceEXT) OWN(CreateSync) OWN(CreateWindowSurface)
    INTERNAL(DebugMessageControlKHR) OWN(DestroyContext) OWN(DestroyImage)
    OWN(DestroySurface) OWN(DestroySync) OWN(GetConfigAttrib) OWN(GetConfigs)
    OWN(GetCurrentContext) OWN(GetCurrentDisplay) OWN(GetCurrentSurface) OWN(GetDisplay)
    OWN(GetError) OWN(GetPlatformDisplay) INTERNAL(GetPlatformDisplayEXT)
    OWN(GetProcAddress) OWN(GetSyncAttrib) OWN(Initialize) INTERNAL(LabelObjectKHR)
    OWN(MakeCurrent) OWN(QueryAPI) OWN(QueryContext) INTERNAL(QueryDebugKHR)
    INTERNAL(QueryDevicesEXT) INTERNAL(QueryDisplayAttribEXT)
    INTERNAL(QueryDisplayAttribKHR) INTERNAL(QueryDisplayAttribNV) OWN(QueryString)
    OWN(QuerySurface) OWN(ReleaseTexImage) OWN(ReleaseThread) OWN(SurfaceAttrib)
    OWN(SwapBuffers) OWN(SwapInterval) OWN(Terminate) OWN(WaitClient) OWN(WaitGL)
    OWN(WaitNative) OWN(WaitSync)
#undef OWN
#undef INTERNAL
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

/* An "egl" name: one of ours, or a vendor's dispatch stub. */
static __attribute__((noinline)) proc egl_proc(const char *name)
{
    int index = glmux_egl_winsys_find(name);

    if (index >= 0 && index < GLMUX_EGL_IDX_COUNT)
        return own_functions[index];
    return vendor_stub(name);
}

GLMUX_EGL_EXPORT __eglMustCastToProperFunctionPointerType EGLAPIENTRY
eglGetProcAddress(const char *name)
{
    glmux_egl_entry();
    if (name == NULL)
        return NULL;
    if (name[0] == 'g' && name[1] == 'l')       /* the common case first: a GL function */
        return (__eglMustCastToProperFunctionPointerType)__glDispatchGetProcAddress(name);
    if (strncmp(name, "egl", 3) == 0)
        return egl_proc(name);
    if (strcmp(name, GLMUX_EGL_VENDORS_PROC) == 0)
        return (__eglMustCastToProperFunctionPointerType)glmux_egl_shared_vendors;
    return NULL;
}
