/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: every module header of libEGL at once, for vendor.c only until it includes
 * what it uses (funcs.h, vendor.h, exports.h, maps.h). Other files include their own headers.
 */
#ifndef GLMUX_EGL_INTERNAL_H
#define GLMUX_EGL_INTERNAL_H

#include "exports.h"
#include "maps.h"
#include "vendor.h"

#endif /* GLMUX_EGL_INTERNAL_H */
