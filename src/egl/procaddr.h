/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: what procaddr.c offers besides eglGetProcAddress: libEGL's terminator for one
 * of its names, registered with libGLdispatch (library.c) as the bottom of every EGL chain of
 * GL layers.
 */
#ifndef GLMUX_EGL_PROCADDR_H
#define GLMUX_EGL_PROCADDR_H

/* For an "egl" name: the body of libEGL's own function, or a vendor extension's dispatch
 * stub (what eglGetProcAddress answers without layers); NULL for any other name. */
void *glmux_egl_own_proc(const char *name);

#endif /* GLMUX_EGL_PROCADDR_H */
