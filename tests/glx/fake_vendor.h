/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: what the fake GLX vendors (fake_vendor.c) and the tests that drive them share:
 * test-only attribute numbers and the counters glXFakeCountGLMUX reports.
 */
#ifndef GLMUX_TEST_FAKE_GLX_VENDOR_H
#define GLMUX_TEST_FAKE_GLX_VENDOR_H

/* glXGetFBConfigAttrib / glXQueryContext / glXGetConfig: the vendor's letter ('a', 'b'). */
#define FAKE_ATTRIB_VENDOR 0x10000
/* glXQueryContext: the context's id (also in GL_RENDERER). */
#define FAKE_ATTRIB_ID 0x10001

enum {
    FAKE_COUNT_MAIN_CALLS,
    FAKE_COUNT_CONTEXTS,
    FAKE_COUNT_MAKE_CURRENT,
    FAKE_COUNT_SWAPS,
    FAKE_COUNT_WAITS,
    FAKE_COUNT_CLEARS,
    FAKE_COUNT_DESTROYED_DRAWABLES,
    FAKE_COUNT_PATCH_QUERIES,       /* isPatchSupported calls */
    FAKE_COUNT_PATCHED,             /* initiatePatch calls that found glClear's stub */
    FAKE_COUNT_PATCHED_LIBGL,       /* ... whose glClear stub lies in libGL.so.1 */
    FAKE_COUNT_MAX
};

#endif
