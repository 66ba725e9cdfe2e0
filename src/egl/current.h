/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the current context (current.c): what unload and libGLdispatch's thread
 * records need of it.
 */
#ifndef GLMUX_EGL_CURRENT_H
#define GLMUX_EGL_CURRENT_H

#include "GLdispatch.h"

/* Releases the thread's current context without asking the vendor (unload). */
void glmux_egl_current_drop(void);
/* Frees a record whose thread exited or that a forked child inherited (record_destroyed). */
void glmux_egl_current_destroyed(__GLdispatchThreadState *state);

#endif /* GLMUX_EGL_CURRENT_H */
