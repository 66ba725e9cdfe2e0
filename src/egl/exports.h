/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the exports table handed to every vendor's __egl_Main (exports.c).
 */
#ifndef GLMUX_EGL_EXPORTS_H
#define GLMUX_EGL_EXPORTS_H

#include "glvnd/libeglabi.h"

extern const __EGLapiExports glmux_egl_exports;

#endif /* GLMUX_EGL_EXPORTS_H */
