/* SPDX-License-Identifier: MIT */
/*
 * glmux ABI test: our libraries next to libglvnd's. The program has no RUNPATH; ctest runs it
 * with LD_LIBRARY_PATH naming either our libGLdispatch (with libglvnd's libOpenGL.so.0) or our
 * libOpenGL (with libglvnd's libGLdispatch.so.0). Either way a vendor made
 * current through the private GLdispatch interface must receive the GL calls, because both
 * sides share the TLS variable and the slot numbering.
 *   test_mix OURS_SONAME THEIRS_SONAME THEIRS_PATH
 * THEIRS_PATH: libglvnd's library as tests/abi/reference.py found it (its real path).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <GL/gl.h>

#include "GLdispatch.h"
#include "glmux_test.h"

static int calls;

static void vendor_clear(GLbitfield mask)
{
    calls += mask == GL_COLOR_BUFFER_BIT;
}

static void *vendor_proc(const char *name, void *param)
{
    (void)param;
    return strcmp(name, "glClear") == 0 ? (void *)vendor_clear : NULL;
}

int main(int argc, char **argv)
{
    static __GLdispatchThreadState state;
    const char *theirs;
    char real[PATH_MAX];
    __GLdispatchTable *table;
    int id;

    if (argc != 4)
        return 2;
    glmux_test_require_ours(argv[1]);
    theirs = glmux_test_loaded_path(argv[2]);
    CHECK_MSG(theirs != NULL && realpath(theirs, real) != NULL && strcmp(real, argv[3]) == 0,
              "%s should be libglvnd's %s, got %s", argv[2], argv[3],
              theirs ? theirs : "(not loaded)");
    printf("with libglvnd's %s\n", theirs);

    __glDispatchInit();
    CHECK(__glDispatchGetABIVersion() == 1);
    id = __glDispatchNewVendorID();
    table = __glDispatchCreateTable(vendor_proc, NULL);
    CHECK(table != NULL);
    glClear(GL_COLOR_BUFFER_BIT); /* no context yet: no-op */
    CHECK(calls == 0);
    state.tag = GLDISPATCH_API_EGL;
    CHECK(__glDispatchMakeCurrent(&state, table, id, NULL));
    glClear(GL_COLOR_BUFFER_BIT);
    glClear(GL_COLOR_BUFFER_BIT);
    CHECK(calls == 2);
    __glDispatchLoseCurrent();
    glClear(GL_COLOR_BUFFER_BIT);
    CHECK(calls == 2);
    __glDispatchDestroyTable(table);
    __glDispatchFini();
    return 0;
}
