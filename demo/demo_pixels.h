/* SPDX-License-Identifier: MIT */
/*
 * glmux demos: the scene the GLX demonstration and its EGL port both draw, and a dump of the
 * pixels read back, which tests/port compares between the two.
 */
#ifndef GLMUX_DEMO_PIXELS_H
#define GLMUX_DEMO_PIXELS_H

#include <stdbool.h>

/* Green clear, red scissored quadrant at the bottom left, into the current context's
 * size x size draw buffer; reads two pixels back and prints them. True when they are as drawn. */
bool demo_draw_scene(int size);

/* Writes the size x size RGBA pixels of the read buffer to path as a binary PPM (P6, RGB).
 * Returns false, with a message, on failure. */
bool demo_dump_pixels(const char *path, int size);

#endif
