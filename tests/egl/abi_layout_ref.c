/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: the same offsets from the reference header installed by Debian's
 * libglvnd-core-dev (/usr/include/glvnd/libeglabi.h).
 */
#include <stddef.h>

#include GLMUX_REF_LIBEGLABI

#define LAYOUT_PREFIX ref
#include "abi_layout.h"
