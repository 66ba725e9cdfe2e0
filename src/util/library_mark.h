/* SPDX-License-Identifier: MIT */
/*
 * glmux: the mark every library glmux ships carries (library_mark.c, built into each by
 * glmux_add_library). It tells glmux's build of a libglvnd soname from libglvnd's own, which has
 * the same name, exports and ABI: `glmux check` looks for it in the libraries a program would
 * load (src/cli/libmix.c), tests/abi/reference.py in the reference libraries of the comparison
 * tests (its LIBRARY_MARK is the same bytes).
 */
#ifndef GLMUX_UTIL_LIBRARY_MARK_H
#define GLMUX_UTIL_LIBRARY_MARK_H

#define GLMUX_LIBRARY_MARK "glmux: vendor-neutral GL dispatch, not libglvnd"

#endif /* GLMUX_UTIL_LIBRARY_MARK_H */
