/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: eglGetDisplay and eglGetPlatformDisplay (platform.c).
 */
#ifndef GLMUX_EGL_PLATFORM_H
#define GLMUX_EGL_PLATFORM_H

#include <EGL/egl.h>
#include <EGL/eglext.h>

/* ---- platform.c: eglGetDisplay and eglGetPlatformDisplay ---- */
EGLDisplay glmux_egl_get_platform_display(EGLenum platform, void *native,
                                          const EGLAttrib *attribs, const char *command);
EGLenum glmux_egl_guess_platform(void *native);
EGLenum glmux_egl_platform_from_env(void);

EGLDisplay glmux_egl_GetPlatformDisplayEXT(EGLenum platform, void *native, const EGLint *attribs);
/* glmux_egl_explain_fn (egl_explain.h): eglGetDisplay(EGL_DEFAULT_DISPLAY), written down. */
struct glmux_egl_explain_display;
bool glmux_egl_explain_default(struct glmux_egl_explain_display *out);

#endif /* GLMUX_EGL_PLATFORM_H */
