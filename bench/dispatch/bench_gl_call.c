/* SPDX-License-Identifier: MIT */
/*
 * glmux benchmark: the cost of one GL call through an API library's entry stub. It makes a
 * trivial in-process vendor current through the GLdispatch private interface (the same in
 * glmux and libglvnd, so one binary runs on both; LD_LIBRARY_PATH picks which) and calls
 * glColor3f through libOpenGL.so.0 once, then N times inside calls_loop(), which callgrind
 * counts alone (the steady state: glmux resolves each slot at its first call).
 *
 *   bench_gl_call N      prints the loaded libraries; exits 0
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <GL/gl.h>

#include "GLdispatch.h"

static volatile float sink;

static void vendor_color3f(GLfloat r, GLfloat g, GLfloat b)
{
    sink = r + g + b;
}

static void *vendor_get_proc_address(const char *name, void *param)
{
    (void)param;
    return strcmp(name, "glColor3f") == 0 ? (void *)vendor_color3f : NULL;
}

__attribute__((noinline)) void calls_loop(long n)
{
    for (long i = 0; i < n; i++)
        glColor3f(1.0f, 0.5f, 0.25f);
}

static int print_lib(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (strstr(info->dlpi_name, "libOpenGL") || strstr(info->dlpi_name, "libGLdispatch"))
        printf("using %s\n", info->dlpi_name);
    return 0;
}

int main(int argc, char **argv)
{
    static __GLdispatchThreadState state;
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    __GLdispatchTable *table;
    int vendor;

    __glDispatchInit();
    vendor = __glDispatchNewVendorID();
    table = __glDispatchCreateTable(vendor_get_proc_address, NULL);
    state.tag = GLDISPATCH_API_EGL;
    if (table == NULL || !__glDispatchMakeCurrent(&state, table, vendor, NULL)) {
        fprintf(stderr, "bench_gl_call: make-current failed\n");
        return 1;
    }
    /* One call first: glmux resolves a slot at its first use; the loop measures the rest. */
    glColor3f(0.0f, 0.0f, 0.0f);
    calls_loop(n);
    __glDispatchLoseCurrent();
    __glDispatchDestroyTable(table);
    dl_iterate_phdr(print_lib, NULL);
    return 0;
}
