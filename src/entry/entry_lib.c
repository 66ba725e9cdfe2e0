/* SPDX-License-Identifier: MIT */
/*
 * glmux: load and unload of a stub-owning API library (libOpenGL, libGLESv1_CM, libGLESv2,
 * libGL). The constructor takes a reference on libGLdispatch and, in assembly builds, offers
 * the library's stubs for patching; the destructor undoes both.
 */
#include "entry/entry.h"

#ifdef GLMUX_HAVE_ASM_STUBS
static int stub_id = -1;
#endif

__attribute__((constructor)) static void entry_lib_init(void)
{
    __glDispatchInit();
#ifdef GLMUX_HAVE_ASM_STUBS
    stub_id = __glDispatchRegisterStubCallbacks(&glmux_entry_patch_callbacks);
#endif
}

__attribute__((destructor)) static void entry_lib_fini(void)
{
#ifdef GLMUX_HAVE_ASM_STUBS
    if (stub_id >= 0)
        __glDispatchUnregisterStubCallbacks(stub_id);
#endif
    __glDispatchFini();
}
