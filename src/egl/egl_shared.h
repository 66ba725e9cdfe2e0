/* SPDX-License-Identifier: MIT */
/*
 * glmux: what libEGL offers glmux's libGLX, whose pixels vendor renders with libEGL's EGL
 * vendors instead of loading them a second time (docs/architecture.md, "libGLX renders with
 * libEGL's vendors"). libEGL registers this table as its libGLdispatch client's `shared`;
 * libGLX dlopens libEGL.so.1 and finds it with glmux_winsys_peer(GLDISPATCH_API_EGL). The
 * vendors' functions are called directly, not through libEGL's entry points, so nothing a
 * caller does here becomes libEGL's current context or error.
 */
#ifndef GLMUX_EGL_SHARED_H
#define GLMUX_EGL_SHARED_H

#include <stddef.h>

#include <EGL/egl.h>

#include "glvnd/libeglabi.h"

/* Changes whenever the table below changes; a caller checks it first. */
#define GLMUX_EGL_SHARED_VERSION 1

/* One vendor libEGL loaded: its __egl_Main ran once, with libEGL's exports. */
struct glmux_egl_shared_vendor {
    const char *name;                   /* its name in the vendor directory */
    const char *library;                /* what libEGL passed to dlopen */
    const __EGLapiImports *imports;     /* what its __egl_Main filled in */
};

struct glmux_egl_shared {
    unsigned version;                   /* GLMUX_EGL_SHARED_VERSION */
    /*
     * Loads libEGL's vendors if no EGL call did yet (once per process, the GPU selector's
     * order and variables) and fills out with at most max of them, in the order libEGL asks
     * them for a display of platform with native display NULL. Returns how many it filled: 0
     * when no vendor loaded (GLMUX_DEBUG=vendor says why). The strings and imports stay valid
     * while libEGL is loaded. Thread-safe; no lock is held when it returns.
     */
    size_t (*vendors)(EGLenum platform, struct glmux_egl_shared_vendor *out, size_t max);
};

#endif /* GLMUX_EGL_SHARED_H */
