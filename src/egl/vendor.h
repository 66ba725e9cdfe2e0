/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: one loaded vendor library (vendor.c): its record (the ABI's opaque
 * __EGLvendorInfo), loading it and the lookup of its functions by winsys index.
 */
#ifndef GLMUX_EGL_VENDOR_H
#define GLMUX_EGL_VENDOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "GLdispatch.h"
#include "funcs.h"
#include "glvnd/libeglabi.h"
#include "winsys/winsys.h"

/* One loaded vendor library. */
struct __EGLvendorInfoRec {
    struct __EGLvendorInfoRec *next;   /* load order = priority order */
    char *library;                     /* what was passed to dlopen */
    char *manifest;                    /* the JSON file that named it */
    void *handle;
    int vendor_id;                     /* libGLdispatch vendor id */
    size_t select_index;               /* its entry in discovery.c's vendor list */
    __EGLapiImports imports;
    /* The vendor's own implementation of each of libEGL's functions (NULL if none). */
    void (*fn[GLMUX_EGL_IDX_COUNT])(void);
    /* eglQueryDisplayAttrib under its KHR, EXT or NV name, whichever the vendor has. */
    PFNEGLQUERYDISPLAYATTRIBKHRPROC query_display_attrib;
    __GLdispatchTable *gl_table;
    __GLdispatchPatchCallbacks patch_cb;
    bool patch_supported;
    bool supports_gl, supports_gles;
    bool supports_device, supports_platform_device;
    bool supports_gbm, supports_wayland, supports_x11;
    /* Implementations of winsys indices past the static ones, looked up on demand. */
    pthread_mutex_t dyn_lock;
    struct glmux_lookup_cache dyn;     /* indexed by index - GLMUX_EGL_IDX_COUNT */
};

typedef struct __EGLvendorInfoRec glmux_egl_vendor;

/* ---- vendor.c: one vendor ---- */
/* dlopens library and runs __egl_Main; NULL (with a GLMUX_DEBUG=vendor reason) on failure.
 * *record holds the new record from its allocation on, and NULL again if it is not kept: a
 * child forked meanwhile frees what the parent's load left half made (discovery.c). */
glmux_egl_vendor *glmux_egl_vendor_load(const char *library, const char *manifest,
                                        glmux_egl_vendor *loaded, glmux_egl_vendor **record);
void glmux_egl_vendor_free(glmux_egl_vendor *vendor);
/* The vendor's implementation for a winsys index (exports.fetchDispatchEntry). */
void (*glmux_egl_vendor_fetch(glmux_egl_vendor *vendor, int index))(void);

#endif /* GLMUX_EGL_VENDOR_H */
