/* SPDX-License-Identifier: MIT */
/*
 * glmux demos: the shared scene and the pixel dump (see demo_pixels.h). Only GL 1.0 calls, so
 * that it runs unchanged on a GLX context through libGL.so.1 and on an EGL one through
 * libOpenGL.so.0.
 */
#include "demo_pixels.h"

#include <stdio.h>
#include <stdlib.h>

#include <GL/gl.h>

bool demo_draw_scene(int size)
{
    unsigned char red[4], green[4];
    bool ok;

    glViewport(0, 0, size, size);
    glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, size / 2, size / 2);
    glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glFinish();
    glReadPixels(4, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, red);
    glReadPixels(size - 4, size - 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, green);
    ok = red[0] == 255 && red[1] == 0 && green[0] == 0 && green[1] == 255;
    printf("pixels: quadrant (%u,%u,%u) rest (%u,%u,%u): %s\n", red[0], red[1], red[2],
           green[0], green[1], green[2], ok ? "as drawn" : "WRONG");
    return ok;
}

bool demo_dump_pixels(const char *path, int size)
{
    unsigned char *px = malloc((size_t)size * (size_t)size * 4);
    FILE *f;
    bool ok;

    if (px == NULL)
        return false;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, px);
    f = fopen(path, "wb");
    if (f == NULL) {
        perror(path);
        free(px);
        return false;
    }
    fprintf(f, "P6\n%d %d\n255\n", size, size);
    for (int y = size - 1; y >= 0; y--) /* PPM rows go top down, GL's bottom up */
        for (int x = 0; x < size; x++)
            fwrite(px + ((size_t)y * (size_t)size + (size_t)x) * 4, 1, 3, f);
    ok = fclose(f) == 0;
    free(px);
    return ok;
}
