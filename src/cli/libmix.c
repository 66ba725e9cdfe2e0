/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: which GL libraries a program started in this environment would load, and
 * whether they are glmux's or libglvnd's (`glmux check`, docs/prefix.md). Each of the seven
 * sonames is found as the dynamic loader finds a program's dependency that has no RUNPATH
 * (libcheck.c: LD_LIBRARY_PATH, /etc/ld.so.cache, the default directories); a file carrying
 * the mark every glmux library is built with (util/library_mark.h) is glmux's. glmux's and
 * libglvnd's libraries in one process is a mix: it runs (the private ABI is libglvnd's) but it
 * is not what either installed, so it is reported as an error.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/libcheck.h"
#include "util/file.h"
#include "util/library_mark.h"

static const char *const sonames[] = {
    "libGLdispatch.so.0", "libOpenGL.so.0", "libGL.so.1",        "libGLX.so.0",
    "libEGL.so.1",        "libGLESv1_CM.so.1", "libGLESv2.so.2",
};
#define N_SONAMES (sizeof(sonames) / sizeof(sonames[0]))

enum owner { MISSING, GLMUX, OTHER };

/* Whether the file at path carries glmux's mark. */
bool glmux_cli_is_glmux_library(const char *path)
{
    static const char mark[] = GLMUX_LIBRARY_MARK;
    size_t len = 0;
    char *data = glmux_file_read(path, 256u << 20, &len, NULL);
    bool found = data != NULL && memmem(data, len, mark, sizeof(mark) - 1) != NULL;

    free(data);
    return found;
}

int glmux_cli_check_libraries(void)
{
    char found[N_SONAMES][4096], why[256];
    enum owner owner[N_SONAMES];
    int count[3] = { 0, 0, 0 };

    for (size_t i = 0; i < N_SONAMES; i++) {
        owner[i] = MISSING;
        if (glmux_cli_libcheck(sonames[i], found[i], sizeof(found[i]), why, sizeof(why)) ==
            GLMUX_LIBCHECK_OK)
            owner[i] = glmux_cli_is_glmux_library(found[i]) ? GLMUX : OTHER;
        count[owner[i]]++;
    }
    if (count[GLMUX] > 0 && count[OTHER] > 0) {
        fprintf(stderr, "glmux: check: error: a program started here would mix glmux's GL "
                "libraries with another GL dispatch library's (libglvnd's):\n");
        for (size_t i = 0; i < N_SONAMES; i++) {
            if (owner[i] != MISSING)
                fprintf(stderr, "  %-18s %s (%s)\n", sonames[i],
                        owner[i] == GLMUX ? "glmux's" : "not glmux's", found[i]);
        }
        fprintf(stderr, "  Put every glmux library on the search path (LD_LIBRARY_PATH naming "
                "the directory of glmux's libGLdispatch.so.0), or install glmux as the "
                "system's GL libraries; see docs/prefix.md in the glmux sources.\n");
        return 1;
    }
    if (count[GLMUX] > 0) {
        printf("libraries: ok: a program started here loads glmux's GL libraries (%d of 7; "
               "libGLdispatch.so.0 from %s)\n", count[GLMUX],
               owner[0] == GLMUX ? found[0] : "nowhere");
    } else if (count[OTHER] > 0) {
        printf("libraries: a program started here loads another GL dispatch library "
               "(libglvnd's; libGLdispatch.so.0 from %s), not glmux's: glmux is not in use in "
               "this environment (docs/prefix.md)\n", owner[0] == OTHER ? found[0] : "nowhere");
    } else {
        printf("libraries: a program started here finds no GL dispatch library\n");
    }
    return 0;
}
