/* SPDX-License-Identifier: MIT */
/*
 * glmux: what glx_procaddr.c offers besides glXGetProcAddress: libGLX's terminator for one of
 * its names, registered with libGLdispatch (glx_init.c) as the bottom of every GLX chain of GL
 * layers.
 */
#ifndef GLMUX_GLX_PROCADDR_H
#define GLMUX_GLX_PROCADDR_H

/* For a "glX" name: the body of libGLX's own function, or what glXGetProcAddress answers
 * without layers (a vendor's dispatch stub, libGLdispatch's stub, a GLX entry stub); NULL for
 * any other name. */
void *glmux_glx_own_proc(const char *name);

#endif /* GLMUX_GLX_PROCADDR_H */
