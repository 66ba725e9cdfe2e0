/* SPDX-License-Identifier: MIT */
/*
 * glmux: the public part of the GLdispatch ABI, as seen by vendor libraries.
 *
 * A vendor that wants to rewrite the API libraries' entry stubs in place ("entry-point
 * patching") learns the stub flavour and size from the numbers below and finds each stub
 * through a lookup callback. The values are binary facts shared with libglvnd 1.6; the text
 * is glmux's own.
 */
#include <GL/gl.h>

#ifndef GLMUX_GLDISPATCHABI_H
#define GLMUX_GLDISPATCHABI_H

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of entry stub, passed to a vendor's isPatchSupported/initiatePatch. */
enum {
    __GLDISPATCH_STUB_UNKNOWN,       /* 0: C stubs, cannot be patched */
    __GLDISPATCH_STUB_X86,           /* 1 */
    __GLDISPATCH_STUB_X86_64,        /* 2 */
    __GLDISPATCH_STUB_ARMV7_THUMB,   /* 3 */
    __GLDISPATCH_STUB_ARMV7_ARM,     /* 4 */
    __GLDISPATCH_STUB_AARCH64,       /* 5 */
    __GLDISPATCH_STUB_X32,           /* 6 */
    __GLDISPATCH_STUB_PPC64,         /* 7 */
    __GLDISPATCH_STUB_LOONGARCH64,   /* 8 */
    __GLDISPATCH_STUB_PPC64LE = __GLDISPATCH_STUB_PPC64
};

/*
 * Finds the stub for the GL function funcName. On success it stores the address to write
 * the new code through in *writePtr and the address the code runs from in *execPtr (they may
 * differ) and returns GL_TRUE; it returns GL_FALSE when the library has no such stub.
 */
typedef GLboolean (*DispatchPatchLookupStubOffset)(const char *funcName,
                                                   void **writePtr,
                                                   const void **execPtr);

#ifdef __cplusplus
}
#endif

#endif /* GLMUX_GLDISPATCHABI_H */
