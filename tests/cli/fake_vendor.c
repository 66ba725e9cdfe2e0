/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: a stand-in vendor library for `glmux vendors`, which only checks that a library
 * loads and exports its entry point. Built as libEGL_clifake.so.0 (with __egl_Main) and as
 * libGLX_clifake.so.0 (without __glx_Main, to see that reported).
 */
#ifdef GLMUX_FAKE_EGL
__attribute__((visibility("default"))) int __egl_Main(unsigned version, const void *exports,
                                                      void *vendor, void *imports);

int __egl_Main(unsigned version, const void *exports, void *vendor, void *imports)
{
    (void)version;
    (void)exports;
    (void)vendor;
    (void)imports;
    return 0;
}
#else
__attribute__((visibility("default"))) int glmux_fake_vendor_present(void);

int glmux_fake_vendor_present(void)
{
    return 1;
}
#endif
