/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: member offsets and sizes of our glvnd/libeglabi.h, for comparison with
 * the header libglvnd-dev installs (abi_layout_ref.c) by test_egl_abi_layout.c.
 */
#include <stddef.h>

#include "glvnd/libeglabi.h"

#define LAYOUT_PREFIX ours
#include "abi_layout.h"
