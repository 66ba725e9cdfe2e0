/* SPDX-License-Identifier: MIT */
/*
 * glmux: what glmux's libEGL offers the pixels GLX vendor (libGLX_glmux-pixels.so.0), so that
 * the vendor renders with the EGL vendors libEGL already loaded instead of loading them a
 * second time: an EGL vendor's __egl_Main runs once per process (Mesa keeps the exports table
 * and dispatch indices of its last caller). docs/architecture.md, "The pixels vendor renders
 * with libEGL's vendors", documents it.
 *
 * The interface is reached through a public call, without an exported name:
 * eglGetProcAddress(GLMUX_EGL_VENDORS_PROC) returns a glmux_egl_vendors_fn. The name carries
 * the version; whoever changes the structure or the function below changes the number. Any
 * other libEGL.so.1 answers NULL (libglvnd's answers NULL for every name that starts with
 * neither "egl" nor "gl", without loading a vendor), and the pixels vendor then loads EGL
 * vendors itself (the public path). The vendors' functions are called directly, not through
 * libEGL's entry points, so nothing a caller does here becomes libEGL's current context,
 * error or last vendor.
 */
#ifndef GLMUX_EGL_SHARED_H
#define GLMUX_EGL_SHARED_H

#include <stddef.h>

#include <EGL/egl.h>

#include "glvnd/libeglabi.h"

#define GLMUX_EGL_VENDORS_PROC "__glmux_egl_vendors_1"

/* One vendor libEGL loaded: its __egl_Main ran once, with libEGL's exports. */
struct glmux_egl_shared_vendor {
    const char *name;                   /* its name in the vendor directory */
    const char *library;                /* what libEGL passed to dlopen */
    const __EGLapiImports *imports;     /* what its __egl_Main filled in */
};

/*
 * Loads libEGL's vendors if no EGL call did yet (once per process, the GPU selector's order and
 * variables) and fills out with at most max of them, in the order libEGL asks them for a
 * display of platform with native display NULL. Returns how many it filled: 0 when no vendor
 * loaded (GLMUX_DEBUG=vendor says why). The strings and imports stay valid while libEGL is
 * loaded (the caller keeps a dlopen reference for the life of the process). Thread-safe; no
 * lock is held when it returns.
 */
typedef size_t (*glmux_egl_vendors_fn)(EGLenum platform, struct glmux_egl_shared_vendor *out,
                                       size_t max);

#endif /* GLMUX_EGL_SHARED_H */
