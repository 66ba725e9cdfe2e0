/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the lifetime tests' view of libEGL and libGLX. Each API is reached through
 * function pointers from a library the test dlopens (or the one the program is linked with),
 * and makes one context current per call with either the fake vendors or real Mesa
 * (llvmpipe; a pbuffer under Xvfb for GLX, a surfaceless pbuffer for EGL).
 */
#ifndef GLMUX_TEST_LIFETIME_H
#define GLMUX_TEST_LIFETIME_H

#include <stdbool.h>

struct lt_api {
    const char *name;       /* "glx" or "egl" */
    bool mesa;              /* real Mesa, else the fake vendors */
    void *lib;              /* the dlopen handle the functions come from */
};

/* What one lt_make_current made current (kept by the caller, reachable for leak checkers). */
struct lt_current {
    void *dpy;              /* Display * (GLX) or EGLDisplay */
    void *ctx;
    unsigned long pbuffer;  /* GLXPbuffer */
    void *surface;          /* EGLSurface */
};

/* Finds the API's functions in lib (a dlopen handle, or RTLD_DEFAULT). */
void lt_api_bind(struct lt_api *api, void *lib);
/* Makes a new context current on the calling thread (its own display connection for GLX). */
void lt_make_current(const struct lt_api *api, struct lt_current *c);
/* Whether the calling thread has a context of this API current. */
bool lt_has_current(const struct lt_api *api);
/* Releases the calling thread's context and destroys it. */
void lt_release(const struct lt_api *api, struct lt_current *c);
/*
 * Renders through the current context and checks the result: a clear read back with Mesa,
 * GL_VENDOR naming the fake vendor otherwise. GL calls go through the libOpenGL the program
 * is linked with.
 */
void lt_render(const struct lt_api *api);

#endif
