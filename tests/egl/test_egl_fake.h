/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: helpers shared by the fake-vendor test modes (test_egl_display.c,
 * test_egl_current.c) and the list of modes test_egl_fake.c runs.
 */
#ifndef GLMUX_TEST_EGL_FAKE_H
#define GLMUX_TEST_EGL_FAKE_H

#include "egl_fake.h"
#include "glmux_test.h"

/* fake0's or fake1's FAKE_PLATFORM display, initialised. */
EGLDisplay fake_display(const char *vendor);
/* A context on dpy (attribs may be NULL). */
EGLContext fake_context(EGLDisplay dpy, const EGLint *attribs);
/* A symbol the fake vendor library exports for tests (the library must be loaded). */
void *fake_symbol(const char *vendor, const char *name);
/* eglGetProcAddress that fails the test on NULL. */
void *fake_proc(const char *name);
/* The EGL_VENDOR string of dpy. */
const char *fake_vendor_of(EGLDisplay dpy);

int mode_display(void);
int mode_order(void);
int mode_filenames(void);
int mode_platform_env(void);
int mode_platform_detect(void);
int mode_device(void);
int mode_device_later(void);
int mode_procaddr(void);
int mode_makecurrent(void);
int mode_error(void);
int mode_debug(void);
int mode_threads(void);
int mode_fork(void);

#endif
