/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the 54 functions libEGL implements itself, sorted by name, and their fixed
 * winsys indices GLMUX_EGL_IDX_<Name> (as libglvnd numbers them); the export macro; the
 * vendor type's name. Every file of libEGL may include it; it declares no function.
 *
 * Naming: the body of each of the 54 functions is glmux_egl_<Name>; the 44 exported ones
 * (libEGL.symbols) get their Khronos-named export from gen_winsys_wrappers.py
 * (glmux_egl_wrappers.c and the bodies' prototypes, glmux_egl_impl.h, in the build tree), a
 * wrapper that calls the top of the name's chain of GL layers when a layer intercepts it.
 * Other functions that cross files are glmux_egl_<verb>, declared in the header of the file
 * that defines them.
 */
#ifndef GLMUX_EGL_FUNCS_H
#define GLMUX_EGL_FUNCS_H


typedef struct __EGLvendorInfoRec glmux_egl_vendor;

#define GLMUX_EGL_EXPORT __attribute__((visibility("default")))

/* The 54 functions libEGL implements, sorted by name: their winsys indices are 0..53. */
#define GLMUX_EGL_FUNCS(X) \
    X(BindAPI) \
    X(BindTexImage) \
    X(ChooseConfig) \
    X(ClientWaitSync) \
    X(CopyBuffers) \
    X(CreateContext) \
    X(CreateImage) \
    X(CreatePbufferFromClientBuffer) \
    X(CreatePbufferSurface) \
    X(CreatePixmapSurface) \
    X(CreatePlatformPixmapSurface) \
    X(CreatePlatformPixmapSurfaceEXT) \
    X(CreatePlatformWindowSurface) \
    X(CreatePlatformWindowSurfaceEXT) \
    X(CreateSync) \
    X(CreateWindowSurface) \
    X(DebugMessageControlKHR) \
    X(DestroyContext) \
    X(DestroyImage) \
    X(DestroySurface) \
    X(DestroySync) \
    X(GetConfigAttrib) \
    X(GetConfigs) \
    X(GetCurrentContext) \
    X(GetCurrentDisplay) \
    X(GetCurrentSurface) \
    X(GetDisplay) \
    X(GetError) \
    X(GetPlatformDisplay) \
    X(GetPlatformDisplayEXT) \
    X(GetProcAddress) \
    X(GetSyncAttrib) \
    X(Initialize) \
    X(LabelObjectKHR) \
    X(MakeCurrent) \
    X(QueryAPI) \
    X(QueryContext) \
    X(QueryDebugKHR) \
    X(QueryDevicesEXT) \
    X(QueryDisplayAttribEXT) \
    X(QueryDisplayAttribKHR) \
    X(QueryDisplayAttribNV) \
    X(QueryString) \
    X(QuerySurface) \
    X(ReleaseTexImage) \
    X(ReleaseThread) \
    X(SurfaceAttrib) \
    X(SwapBuffers) \
    X(SwapInterval) \
    X(Terminate) \
    X(WaitClient) \
    X(WaitGL) \
    X(WaitNative) \
    X(WaitSync)

enum glmux_egl_idx {
#define GLMUX_EGL_IDX_ENUM(name) GLMUX_EGL_IDX_##name,
    GLMUX_EGL_FUNCS(GLMUX_EGL_IDX_ENUM)
#undef GLMUX_EGL_IDX_ENUM
    GLMUX_EGL_IDX_COUNT
};

#endif /* GLMUX_EGL_FUNCS_H */
