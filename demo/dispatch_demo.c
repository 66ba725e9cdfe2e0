/* SPDX-License-Identifier: MIT */
/*
 * glmux demo: a GL call reaching a vendor through glmux's entry stubs. Two test vendors of
 * this program's own (a dispatch table each, registered with libGLdispatch; not GPU drivers)
 * are made current in turn and glGetString is called through libOpenGL.so.0's stub, printing
 * which vendor answered and which libraries were loaded.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include <GL/gl.h>

#include "GLdispatch.h"
#include "demo_libs.h"

static const GLubyte *alpha_get_string(GLenum name)
{
    return (const GLubyte *)(name == GL_VENDOR ? "test vendor alpha" : "alpha");
}

static const GLubyte *beta_get_string(GLenum name)
{
    return (const GLubyte *)(name == GL_VENDOR ? "test vendor beta" : "beta");
}

static void *alpha_proc(const char *name, void *param)
{
    (void)param;
    return strcmp(name, "glGetString") == 0 ? (void *)alpha_get_string : NULL;
}

static void *beta_proc(const char *name, void *param)
{
    (void)param;
    return strcmp(name, "glGetString") == 0 ? (void *)beta_get_string : NULL;
}

int main(void)
{
    static __GLdispatchThreadState state;
    __GLgetProcAddressCallback procs[2] = { alpha_proc, beta_proc };
    const GLubyte *none;

    __glDispatchInit();
    state.tag = GLDISPATCH_API_EGL;
    printf("Two in-process test vendors (dispatch tables this program registers, not GPU "
           "drivers):\n");
    none = glGetString(GL_VENDOR);
    printf("no current context: glGetString(GL_VENDOR) = %s\n", none ? (const char *)none : "NULL");
    for (int i = 0; i < 2; i++) {
        int id = __glDispatchNewVendorID();
        __GLdispatchTable *table = __glDispatchCreateTable(procs[i], NULL);

        if (table == NULL || !__glDispatchMakeCurrent(&state, table, id, NULL)) {
            fprintf(stderr, "glmux-demo: make-current failed\n");
            return 1;
        }
        printf("vendor %d current:  glGetString(GL_VENDOR) = %s\n", id,
               (const char *)glGetString(GL_VENDOR));
        __glDispatchLoseCurrent();
        __glDispatchDestroyTable(table);
    }
    demo_print_loaded((const char *const[]){ "libOpenGL", "libGLdispatch", NULL });
    __glDispatchFini();
    return 0;
}
