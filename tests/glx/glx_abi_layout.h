/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the members of the GLX vendor ABI structures, in order, for comparing our
 * glvnd/libglxabi.h with libglvnd-dev's (test_glx_abi_layout.c).
 */
#ifndef GLMUX_GLX_ABI_LAYOUT_H
#define GLMUX_GLX_ABI_LAYOUT_H

#include <stddef.h>

#define GLX_ABI_EXPORTS(X)                                                                   \
    X(getDynDispatch) X(getCurrentDynDispatch) X(fetchDispatchEntry) X(getCurrentContext)    \
    X(addVendorContextMapping) X(removeVendorContextMapping) X(vendorFromContext)            \
    X(addVendorFBConfigMapping) X(removeVendorFBConfigMapping) X(vendorFromFBConfig)         \
    X(addVendorDrawableMapping) X(removeVendorDrawableMapping) X(vendorFromDrawable)
#define GLX_ABI_IMPORTS(X)                                                                   \
    X(isScreenSupported) X(getProcAddress) X(getDispatchAddress) X(setDispatchIndex)         \
    X(notifyError) X(isPatchSupported) X(initiatePatch) X(releasePatch) X(patchThreadAttach)

struct glx_abi_layout {
    size_t exports_size, imports_size;
    size_t exports[13], imports[9];
    unsigned long version;
    const char *main_name;
};

#define GLX_ABI_LAYOUT_FILL(layout)                                                          \
    do {                                                                                     \
        int i_ = 0;                                                                          \
        (layout)->exports_size = sizeof(__GLXapiExports);                                    \
        (layout)->imports_size = sizeof(__GLXapiImports);                                    \
        GLX_ABI_EXPORTS(GLX_ABI_EXPORT_OFFSET)                                               \
        i_ = 0;                                                                              \
        GLX_ABI_IMPORTS(GLX_ABI_IMPORT_OFFSET)                                               \
        (layout)->version = GLX_VENDOR_ABI_VERSION;                                          \
        (layout)->main_name = __GLX_MAIN_PROTO_NAME;                                         \
    } while (0)
#define GLX_ABI_EXPORT_OFFSET(m) layout->exports[i_++] = offsetof(__GLXapiExports, m);
#define GLX_ABI_IMPORT_OFFSET(m) layout->imports[i_++] = offsetof(__GLXapiImports, m);

void glx_abi_layout_ours(struct glx_abi_layout *layout);
void glx_abi_layout_glvnd(struct glx_abi_layout *layout);

#endif
