/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: EGL_KHR_debug and the error-report path (debug.c).
 */
#ifndef GLMUX_EGL_DEBUG_H
#define GLMUX_EGL_DEBUG_H

#include <EGL/egl.h>
#include <EGL/eglext.h>

/* ---- debug.c: EGL_KHR_debug and the error-report path ---- */
/*
 * Records error (for CRITICAL and ERROR types), calls the application's debug callback if
 * that message type is enabled, and logs the message under GLMUX_DEBUG=info.
 */
void glmux_egl_report(EGLint error, const char *command, EGLint type, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define glmux_egl_error(err, cmd, ...) \
    glmux_egl_report((err), (cmd), EGL_DEBUG_MSG_ERROR_KHR, __VA_ARGS__)
/* The same with the thread's label as the object label (libglvnd's thread-scoped errors). */
void glmux_egl_report_thread(EGLint error, const char *command, EGLint type, const char *fmt,
                             ...) __attribute__((format(printf, 4, 5)));
#define glmux_egl_error_thread(err, cmd, ...) \
    glmux_egl_report_thread((err), (cmd), EGL_DEBUG_MSG_ERROR_KHR, __VA_ARGS__)
/* The same with dpy's label (eglLabelObjectKHR) as the object label: display-scoped errors. */
void glmux_egl_report_display(EGLDisplay dpy, EGLint error, const char *command, EGLint type,
                              const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define glmux_egl_error_display(dpy, err, cmd, ...) \
    glmux_egl_report_display((dpy), (err), (cmd), EGL_DEBUG_MSG_ERROR_KHR, __VA_ARGS__)

EGLint glmux_egl_DebugMessageControlKHR(EGLDEBUGPROCKHR callback, const EGLAttrib *attribs);
EGLBoolean glmux_egl_QueryDebugKHR(EGLint attribute, EGLAttrib *value);
EGLint glmux_egl_LabelObjectKHR(EGLDisplay dpy, EGLenum type, EGLObjectKHR obj,
                                EGLLabelKHR label);

#endif /* GLMUX_EGL_DEBUG_H */
