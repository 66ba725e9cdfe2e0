/* SPDX-License-Identifier: MIT */
/*
 * Built into every library glmux ships (glmux_add_library, cmake/GlmuxLibrary.cmake): a string
 * that tells glmux's build of a libglvnd soname from libglvnd's own, which has the same name,
 * exports and ABI. tests/abi/reference.py looks for it so that the tests comparing glmux with
 * libglvnd skip, and say why, where the system's library is glmux's (an earlier glmux package
 * installed in place of libglvnd) instead of comparing glmux with itself; `glmux check` looks
 * for it too (src/cli/libmix.c). The bytes are defined once, in library_mark.h.
 */
#include "util/library_mark.h"

__attribute__((used)) static const char glmux_library_mark[] = GLMUX_LIBRARY_MARK;
