/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the ground floor (state.c), which every file may use and which uses no other
 * file of libEGL: each thread's error, last vendor, bound API and label (a record under a
 * pthread key), its current context (a record that embeds libGLdispatch's thread state), and
 * the prologue of every entry point. Each module registers its own init, fork, after-fork and
 * teardown steps (util/lifecycle.h); library.c's fork and unload handlers run them.
 */
#ifndef GLMUX_EGL_STATE_H
#define GLMUX_EGL_STATE_H

#include <stdbool.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "GLdispatch.h"
#include "funcs.h"

/* The thread's current EGL context; the first member is libGLdispatch's record. */
struct glmux_egl_current {
    __GLdispatchThreadState base;
    glmux_egl_vendor *vendor;
    EGLDisplay display;
    EGLSurface draw, read;
    EGLContext context;
};

/* Per-thread API state (a record under a pthread key, state.c). */
struct glmux_egl_tls {
    EGLint error;
    glmux_egl_vendor *last_vendor;
    EGLenum api;
    EGLLabelKHR label;
};

/* The thread's state (NULL only while libEGL is unusable). */
struct glmux_egl_tls *glmux_egl_tls(void);
struct glmux_egl_tls *glmux_egl_tls_peek(void);
/* error := EGL_SUCCESS, last_vendor := NULL (what the entry prologue does). */
void glmux_egl_tls_clear(struct glmux_egl_tls *t);
/* Puts the thread's state back to its defaults (eglReleaseThread). */
void glmux_egl_tls_free(void);
/* Every exported function starts here: fork check, patch thread hook, error := SUCCESS. */
void glmux_egl_entry(void);
/* The prologue without clearing the error (eglGetError; eglMakeCurrent, whose every way out
 * sets the error or the last vendor, or calls glmux_egl_tls_reset). */
void glmux_egl_thread_init(void);
/* The rest of the prologue: error := SUCCESS, last vendor := NULL, if the record holds either. */
void glmux_egl_tls_reset(void);
void glmux_egl_set_error(EGLint error);
bool glmux_egl_set_last_vendor(glmux_egl_vendor *vendor);
/* The calling thread's current EGL context record, or NULL. */
struct glmux_egl_current *glmux_egl_current_get(void);
/* True when libEGL initialised libGLdispatch and may be used. */
bool glmux_egl_usable(void);

/*
 * The order of libEGL's lifecycle steps (declared with each step; the numbers only order
 * them): fork takes the locks upwards, the parent and the child release them downwards, and
 * unload tears the modules down downwards (util/lifecycle.h). Every lock is a leaf held for a
 * few instructions, never across a vendor call, so no fork waits for a vendor.
 *   10 maps.c  20 display.c (strings)  30 debug.c  40 state.c  50 discovery.c (vendors,
 *   their dyn_locks, the selector)
 */

#endif /* GLMUX_EGL_STATE_H */
