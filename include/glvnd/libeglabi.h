/* SPDX-License-Identifier: MIT */
/*
 * glmux: the EGL vendor ABI, version 0.2, as seen by a vendor library such as Mesa's
 * libEGL_mesa.so.0. libEGL.so.1 dlopens the vendor named by a JSON manifest and calls its
 * __egl_Main entry point with a table of services (__EGLapiExports) and a zeroed table the
 * vendor fills in (__EGLapiImports). Member order, types and numbers are binary facts shared
 * with libglvnd 1.6 so that existing vendor binaries load unchanged; the text is glmux's own.
 */
#ifndef GLMUX_LIBEGLABI_H
#define GLMUX_LIBEGLABI_H

#include <stdint.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "glvnd/GLdispatchABI.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version libEGL passes to __egl_Main: major in the high 16 bits, minor in the low. */
#define EGL_VENDOR_ABI_MAJOR_VERSION ((uint32_t)0)
#define EGL_VENDOR_ABI_MINOR_VERSION ((uint32_t)2)
#define EGL_VENDOR_ABI_VERSION \
    ((EGL_VENDOR_ABI_MAJOR_VERSION << 16) | EGL_VENDOR_ABI_MINOR_VERSION)

static inline uint32_t EGL_VENDOR_ABI_GET_MAJOR_VERSION(uint32_t version)
{
    return version >> 16;
}

static inline uint32_t EGL_VENDOR_ABI_GET_MINOR_VERSION(uint32_t version)
{
    return version & 0xFFFF;
}

/* Names accepted by __EGLapiImports.getVendorString. */
enum {
    /* Platform client extensions the vendor adds to libEGL's client extension string. */
    __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS = 0
};

/* libEGL's record of one loaded vendor; vendors only pass the pointer back. */
typedef struct __EGLvendorInfoRec __EGLvendorInfo;

/* Services libEGL offers to vendor libraries (12 pointers, in this order). */
typedef struct __EGLapiExportsRec {
    /*
     * Every vendor-provided EGL dispatch stub calls this first: it recovers after fork and
     * gives an entry-point patching owner its per-thread hook.
     */
    void (*threadInit)(void);

    /* The client API the calling thread bound with eglBindAPI (EGL_OPENGL_ES_API by default). */
    EGLenum (*getCurrentApi)(void);

    /* The vendor of the thread's current context, or NULL. */
    __EGLvendorInfo *(*getCurrentVendor)(void);

    /* The thread's current context, display and surfaces (EGL_DRAW or EGL_READ). */
    EGLContext (*getCurrentContext)(void);
    EGLDisplay (*getCurrentDisplay)(void);
    EGLSurface (*getCurrentSurface)(EGLint readDraw);

    /*
     * The vendor's implementation of the function that received dispatch index `index`
     * through setDispatchIndex, or NULL when the index is unknown.
     */
    __eglMustCastToProperFunctionPointerType (*fetchDispatchEntry)(__EGLvendorInfo *vendor,
                                                                   int index);

    /* Records an error raised by a dispatch stub; eglGetError then returns it. */
    void (*setEGLError)(EGLint errorCode);

    /*
     * Records the vendor a dispatch stub is about to call, so that eglGetError asks that
     * vendor. Returns EGL_FALSE when the thread state cannot be recorded.
     */
    EGLBoolean (*setLastVendor)(__EGLvendorInfo *vendor);

    /* The vendor that owns a display or a device, or NULL. */
    __EGLvendorInfo *(*getVendorFromDisplay)(EGLDisplay dpy);
    __EGLvendorInfo *(*getVendorFromDevice)(EGLDeviceEXT dev);

    /*
     * ABI 0.2: a dispatch stub of a function that returns an EGLDeviceEXT reports the owner
     * of the device here. EGL_NO_DEVICE_EXT is accepted and ignored.
     */
    EGLBoolean (*setVendorForDevice)(EGLDeviceEXT dev, __EGLvendorInfo *vendor);
} __EGLapiExports;

/* What a vendor provides to libEGL (11 pointers, in this order); libEGL zeroes it first. */
typedef struct __EGLapiImportsRec {
    /*
     * Required. Backs eglGetDisplay and eglGetPlatformDisplay; platform EGL_NONE asks for the
     * vendor's default display. Returns EGL_NO_DISPLAY, with the reason in the vendor's
     * eglGetError, when the vendor cannot serve the request.
     */
    EGLDisplay (*getPlatformDisplay)(EGLenum platform, void *nativeDisplay,
                                     const EGLAttrib *attrib_list);

    /* Required. Whether the vendor supports EGL_OPENGL_API or EGL_OPENGL_ES_API. */
    EGLBoolean (*getSupportsAPI)(EGLenum api);

    /* Optional. Extra strings; the only name is __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS. */
    const char *(*getVendorString)(int name);

    /* Required. The vendor's real EGL or GL function of that name, or NULL. */
    void *(*getProcAddress)(const char *procName);

    /*
     * Required. The vendor's vendor-neutral dispatch stub for an EGL display or device
     * extension function, or NULL.
     */
    void *(*getDispatchAddress)(const char *procName);

    /* Required. Tells the vendor which dispatch index a stub function received. */
    void (*setDispatchIndex)(const char *procName, int index);

    /* Optional entry-point patching (see glvnd/GLdispatchABI.h); both or neither. */
    GLboolean (*isPatchSupported)(int type, int stubSize);
    GLboolean (*initiatePatch)(int type, int stubSize,
                               DispatchPatchLookupStubOffset lookupStubOffset);
    void (*releasePatch)(void);
    void (*patchThreadAttach)(void);

    /*
     * Optional, ABI 0.1. The platform of a native display handed to eglGetDisplay, or
     * EGL_NONE when the vendor cannot tell. Never called with EGL_DEFAULT_DISPLAY.
     */
    EGLenum (*findNativeDisplayPlatform)(void *nativeDisplay);
} __EGLapiImports;

/* The one symbol a vendor library exports. */
#define __EGL_MAIN_PROTO_NAME "__egl_Main"

typedef EGLBoolean (*__PFNEGLMAINPROC)(uint32_t version, const __EGLapiExports *exports,
                                       __EGLvendorInfo *vendor, __EGLapiImports *imports);

#ifdef __cplusplus
}
#endif

#endif /* GLMUX_LIBEGLABI_H */
