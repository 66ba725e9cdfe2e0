/* SPDX-License-Identifier: MIT */
/*
 * glmux: the GLX vendor ABI, version 1.0, as a vendor library sees it.
 *
 * libGLX.so.0 loads a vendor as libGLX_<name>.so.0 and calls its __glx_Main entry point with
 * a table of functions the vendor may call back (__GLXapiExports) and a zeroed table the vendor
 * fills with its own functions (__GLXapiImports). The member order, the version numbers and the
 * entry point's name are binary facts shared with libglvnd 1.6 so that existing vendors
 * (Mesa's libGLX_mesa.so.0, NVIDIA's libGLX_nvidia.so.0) load unchanged; the text is glmux's.
 */
#ifndef GLMUX_LIBGLXABI_H
#define GLMUX_LIBGLXABI_H

#include <stdint.h>
#include <GL/glx.h>

#include "glvnd/GLdispatchABI.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version: major in the high 16 bits, minor in the low 16 bits. */
#define GLX_VENDOR_ABI_MAJOR_VERSION ((uint32_t)1)
#define GLX_VENDOR_ABI_MINOR_VERSION ((uint32_t)0)
#define GLX_VENDOR_ABI_VERSION \
    ((GLX_VENDOR_ABI_MAJOR_VERSION << 16) | GLX_VENDOR_ABI_MINOR_VERSION)

static inline uint32_t GLX_VENDOR_ABI_GET_MAJOR_VERSION(uint32_t version)
{
    return version >> 16;
}

static inline uint32_t GLX_VENDOR_ABI_GET_MINOR_VERSION(uint32_t version)
{
    return version & 0xFFFFu;
}

/* libGLX's record of one loaded vendor; vendors only pass it back. */
typedef struct __GLXvendorInfoRec __GLXvendorInfo;

/*
 * Functions libGLX offers a vendor. A vendor calls them from its dispatch stubs for GLX
 * extension functions, never from inside its own implementation: libGLX may hold a lock then.
 */
typedef struct __GLXapiExportsRec {
    /* The vendor serving (dpy, screen); loads it if needed. NULL when there is none. */
    __GLXvendorInfo *(*getDynDispatch)(Display *dpy, const int screen);
    /* The vendor of the calling thread's current GLX context, or NULL. */
    __GLXvendorInfo *(*getCurrentDynDispatch)(void);
    /* The vendor's function for a dispatch index given by setDispatchIndex (cached). */
    __GLXextFuncPtr (*fetchDispatchEntry)(__GLXvendorInfo *dynDispatch, int index);
    /* glXGetCurrentContext. */
    GLXContext (*getCurrentContext)(void);

    /* Context mapping: 0 on success; non-zero when another vendor already owns the handle. */
    int (*addVendorContextMapping)(Display *dpy, GLXContext context, __GLXvendorInfo *vendor);
    void (*removeVendorContextMapping)(Display *dpy, GLXContext context);
    /* No display argument; raises no X error (the caller reports GLXBadContext). */
    __GLXvendorInfo *(*vendorFromContext)(GLXContext context);

    /* FBConfig mapping; a NULL config is accepted and ignored. */
    int (*addVendorFBConfigMapping)(Display *dpy, GLXFBConfig config, __GLXvendorInfo *vendor);
    void (*removeVendorFBConfigMapping)(Display *dpy, GLXFBConfig config);
    __GLXvendorInfo *(*vendorFromFBConfig)(Display *dpy, GLXFBConfig config);

    /* Drawable mapping; None is accepted and ignored. An unknown drawable is looked up
     * through the server when it supports GLX_EXT_libglvnd. */
    int (*addVendorDrawableMapping)(Display *dpy, GLXDrawable drawable, __GLXvendorInfo *vendor);
    void (*removeVendorDrawableMapping)(Display *dpy, GLXDrawable drawable);
    __GLXvendorInfo *(*vendorFromDrawable)(Display *dpy, GLXDrawable drawable);
} __GLXapiExports;

/*
 * Functions a vendor gives libGLX. libGLX zeroes the structure before __glx_Main, so later
 * versions only ever append members. The first four are required.
 */
typedef struct __GLXapiImportsRec {
    /* Whether the vendor can serve this screen (asked only for server-named vendors). */
    Bool (*isScreenSupported)(Display *dpy, int screen);
    /* The vendor's implementation of a GLX or GL function. */
    void *(*getProcAddress)(const GLubyte *procName);
    /* The vendor's vendor-neutral dispatch stub for a GLX extension function, or NULL. */
    void *(*getDispatchAddress)(const GLubyte *procName);
    /* Tells the vendor the dispatch index libGLX gave a GLX extension function. */
    void (*setDispatchIndex)(const GLubyte *procName, int index);

    /* Optional: told before libGLX raises an X error; returning False suppresses it. */
    Bool (*notifyError)(Display *dpy, unsigned char error, XID resid, unsigned char opcode,
                        Bool coreX11error);

    /* Optional entry-point patching (both of the first two, or neither). */
    GLboolean (*isPatchSupported)(int type, int stubSize);
    GLboolean (*initiatePatch)(int type, int stubSize,
                               DispatchPatchLookupStubOffset lookupStubOffset);
    void (*releasePatch)(void);
    void (*patchThreadAttach)(void);
} __GLXapiImports;

/* The vendor's entry point. */
#define __GLX_MAIN_PROTO_NAME "__glx_Main"
#define __GLX_MAIN_PROTO(version, exports, vendor, imports)                          \
    Bool __glx_Main(uint32_t version, const __GLXapiExports *exports,                \
                    __GLXvendorInfo *vendor, __GLXapiImports *imports)

typedef Bool (*__PFNGLXMAINPROC)(uint32_t version, const __GLXapiExports *exports,
                                 __GLXvendorInfo *vendor, __GLXapiImports *imports);

#ifdef __cplusplus
}
#endif

#endif /* GLMUX_LIBGLXABI_H */
