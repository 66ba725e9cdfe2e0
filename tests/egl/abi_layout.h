/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: one list of the EGL vendor ABI's numbers (struct sizes, member offsets,
 * version and enum values), compiled against our header and against libglvnd's so that
 * test_egl_abi_layout.c can compare them entry by entry.
 */
#define LAYOUT_CAT2(a, b) a##_##b
#define LAYOUT_CAT(a, b) LAYOUT_CAT2(a, b)

#define LAYOUT_ITEMS(X) \
    X(sizeof(__EGLapiExports)) \
    X(offsetof(__EGLapiExports, threadInit)) \
    X(offsetof(__EGLapiExports, getCurrentApi)) \
    X(offsetof(__EGLapiExports, getCurrentVendor)) \
    X(offsetof(__EGLapiExports, getCurrentContext)) \
    X(offsetof(__EGLapiExports, getCurrentDisplay)) \
    X(offsetof(__EGLapiExports, getCurrentSurface)) \
    X(offsetof(__EGLapiExports, fetchDispatchEntry)) \
    X(offsetof(__EGLapiExports, setEGLError)) \
    X(offsetof(__EGLapiExports, setLastVendor)) \
    X(offsetof(__EGLapiExports, getVendorFromDisplay)) \
    X(offsetof(__EGLapiExports, getVendorFromDevice)) \
    X(offsetof(__EGLapiExports, setVendorForDevice)) \
    X(sizeof(__EGLapiImports)) \
    X(offsetof(__EGLapiImports, getPlatformDisplay)) \
    X(offsetof(__EGLapiImports, getSupportsAPI)) \
    X(offsetof(__EGLapiImports, getVendorString)) \
    X(offsetof(__EGLapiImports, getProcAddress)) \
    X(offsetof(__EGLapiImports, getDispatchAddress)) \
    X(offsetof(__EGLapiImports, setDispatchIndex)) \
    X(offsetof(__EGLapiImports, isPatchSupported)) \
    X(offsetof(__EGLapiImports, initiatePatch)) \
    X(offsetof(__EGLapiImports, releasePatch)) \
    X(offsetof(__EGLapiImports, patchThreadAttach)) \
    X(offsetof(__EGLapiImports, findNativeDisplayPlatform)) \
    X(EGL_VENDOR_ABI_MAJOR_VERSION) \
    X(EGL_VENDOR_ABI_MINOR_VERSION) \
    X(EGL_VENDOR_ABI_VERSION) \
    X(EGL_VENDOR_ABI_GET_MAJOR_VERSION(0x00030004)) \
    X(EGL_VENDOR_ABI_GET_MINOR_VERSION(0x00030004)) \
    X(__EGL_VENDOR_STRING_PLATFORM_EXTENSIONS) \
    X(sizeof(__EGL_MAIN_PROTO_NAME))

#ifdef LAYOUT_PREFIX
#define LAYOUT_VALUE(e) (unsigned long)(e),
#define LAYOUT_NAME(e) #e,
const char *const LAYOUT_CAT(LAYOUT_PREFIX, layout_names)[] = { LAYOUT_ITEMS(LAYOUT_NAME) };

/* Fills out (at least 64 entries) and returns the number of entries. */
unsigned LAYOUT_CAT(LAYOUT_PREFIX, layout)(unsigned long *out)
{
    const unsigned long values[] = { LAYOUT_ITEMS(LAYOUT_VALUE) };
    unsigned n = sizeof(values) / sizeof(values[0]);

    for (unsigned i = 0; i < n; i++)
        out[i] = values[i];
    return n;
}
/* The entry point's type must match too. */
__PFNEGLMAINPROC LAYOUT_CAT(LAYOUT_PREFIX, main_proc);
#endif
