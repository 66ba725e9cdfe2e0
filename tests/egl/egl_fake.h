/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: what the tests and the fake EGL vendor (fake_vendor.c, built several
 * times under different names) agree on: a test platform whose native display is the
 * vendor name, test attributes, and the vendor extension functions reached through
 * eglGetProcAddress.
 */
#ifndef GLMUX_EGL_FAKE_H
#define GLMUX_EGL_FAKE_H

#ifndef EGL_NO_X11
#define EGL_NO_X11
#endif
#include <EGL/egl.h>
#include <EGL/eglext.h>

/* eglGetPlatformDisplay(FAKE_PLATFORM, "fake0", NULL) gives fake0's display. */
#define FAKE_PLATFORM 0x10000
/* eglCreateContext attribute: the vendor fails with EGL_BAD_MATCH. */
#define FAKE_CREATE_CONTEXT_FAIL 0x10001
/* eglCreateContext attribute: eglMakeCurrent with this context fails with EGL_BAD_ACCESS. */
#define FAKE_MAKE_CURRENT_FAIL 0x10002
/* eglGetPlatformDisplay(FAKE_PLATFORM) attribute: the display of device i of that vendor. */
#define FAKE_DEVICE_INDEX 0x10003
/* eglGetPlatformDisplay(FAKE_PLATFORM) attribute: return this handle (another vendor's). */
#define FAKE_RETURN_DISPLAY 0x10004

/* Vendor extension functions (vendor dispatch stubs) and what they return. */
typedef const char *(*PFN_FAKE_DISPLAY)(EGLDisplay dpy);          /* eglFakeDisplayFAKE */
typedef const char *(*PFN_FAKE_DEVICE)(EGLDeviceEXT dev);         /* eglFakeDeviceFAKE */
typedef const char *(*PFN_FAKE_CURRENT)(void);                    /* eglFakeCurrentFAKE */
typedef EGLDeviceEXT (*PFN_FAKE_RETURN_DEVICE)(EGLDisplay dpy, EGLint index);
                                                                  /* eglFakeReturnDeviceFAKE */

/* What the fake vendors accept as a GBM device or Wayland display (platform detection). */
struct fake_native {
    const void *first;     /* gbm_create_device or &wl_display_interface */
    const char *vendor;    /* the vendor that claims it */
};

/* Exported by each fake library for tests (dlsym with RTLD_NOLOAD): device count 1..3. */
typedef void (*PFN_FAKE_SET_DEVICE_COUNT)(int count);
/* Counts of calls into the fake vendor's eglReleaseThread, eglDebugMessageControlKHR,
 * setDispatchIndex import and eglLabelObjectKHR for objects other than threads. */
typedef int (*PFN_FAKE_COUNTER)(const char *what);
/* fake_dispatch_index: the winsys index libEGL gave a vendor extension function, or -1. */
typedef int (*PFN_FAKE_DISPATCH_INDEX)(const char *name);
/* fake_bound_api: the API libEGL last bound in this vendor on the calling thread (0: none). */
typedef EGLenum (*PFN_FAKE_BOUND_API)(void);
/* fake_thread_label: the calling thread's label as the vendor was told it. */
typedef void *(*PFN_FAKE_THREAD_LABEL)(void);

#endif
