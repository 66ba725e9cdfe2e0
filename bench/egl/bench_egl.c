/* SPDX-License-Identifier: MIT */
/*
 * glmux benchmark: libEGL costs that callgrind can count, identical source for glmux and
 * Debian's libglvnd (LD_LIBRARY_PATH chooses). Modes:
 *
 *   bench_egl startup fake|mesa        getDisplay, initialize, config, context, first
 *                                      make-current, one glGetString, exit
 *   bench_egl switch N fake|fake2|mesa N make-current pairs inside switch_loop(): two
 *                                      contexts of one fake vendor (fake), of two (fake2), or
 *                                      two Mesa contexts on the default display (mesa)
 *   bench_egl procaddr SLOTS_FILE      eglGetProcAddress for every GL name of the frozen slot
 *                                      list and every EGL name, inside lookup_all()
 *   bench_egl procaddr-gl SLOTS_FILE   eglGetProcAddress for every GL name of the slot list,
 *                                      once inside lookup_first(), again in lookup_again()
 *
 * With "fake" the vendors are tests/egl's libEGL_fake0/1 (FAKE_PLATFORM displays); with
 * "mesa" the default display of whatever vendor the manifests give (Mesa, surfaceless).
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>

#include "egl_fake.h"

static volatile uintptr_t sink;

static EGLDisplay open_display(const char *which)
{
    EGLDisplay dpy = strcmp(which, "mesa") == 0
                     ? eglGetDisplay(EGL_DEFAULT_DISPLAY)
                     : eglGetPlatformDisplay(FAKE_PLATFORM, (void *)which, NULL);

    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        fprintf(stderr, "bench_egl: no display for %s (0x%x)\n", which, eglGetError());
        exit(1);
    }
    return dpy;
}

static EGLContext create_context(EGLDisplay dpy)
{
    static const EGLint attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT, EGL_NONE };
    EGLConfig config;
    EGLint n = 0;
    EGLContext ctx;

    eglBindAPI(EGL_OPENGL_API);
    if (!eglChooseConfig(dpy, attribs, &config, 1, &n) || n < 1) {
        fprintf(stderr, "bench_egl: no config\n");
        exit(1);
    }
    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL);
    if (ctx == EGL_NO_CONTEXT) {
        fprintf(stderr, "bench_egl: no context (0x%x)\n", eglGetError());
        exit(1);
    }
    return ctx;
}

static void make_current(EGLDisplay dpy, EGLContext ctx)
{
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        fprintf(stderr, "bench_egl: make-current failed (0x%x)\n", eglGetError());
        exit(1);
    }
}

__attribute__((noinline)) void switch_loop(long n, EGLDisplay d[2], EGLContext c[2])
{
    for (long i = 0; i < n; i++) {
        eglMakeCurrent(d[0], EGL_NO_SURFACE, EGL_NO_SURFACE, c[0]);
        eglMakeCurrent(d[1], EGL_NO_SURFACE, EGL_NO_SURFACE, c[1]);
    }
}

__attribute__((noinline)) void lookup_all(char **names, int count)
{
    for (int i = 0; i < count; i++)
        sink += (uintptr_t)eglGetProcAddress(names[i]);
}

__attribute__((noinline)) void lookup_first(char **names, int count)
{
    lookup_all(names, count);
}

__attribute__((noinline)) void lookup_again(char **names, int count)
{
    lookup_all(names, count);
}

static const char *const egl_names[] = {
    "eglBindAPI", "eglBindTexImage", "eglChooseConfig", "eglClientWaitSync", "eglCopyBuffers",
    "eglCreateContext", "eglCreateImage", "eglCreatePbufferFromClientBuffer",
    "eglCreatePbufferSurface", "eglCreatePixmapSurface", "eglCreatePlatformPixmapSurface",
    "eglCreatePlatformPixmapSurfaceEXT", "eglCreatePlatformWindowSurface",
    "eglCreatePlatformWindowSurfaceEXT", "eglCreateSync", "eglCreateWindowSurface",
    "eglDebugMessageControlKHR", "eglDestroyContext", "eglDestroyImage", "eglDestroySurface",
    "eglDestroySync", "eglGetConfigAttrib", "eglGetConfigs", "eglGetCurrentContext",
    "eglGetCurrentDisplay", "eglGetCurrentSurface", "eglGetDisplay", "eglGetError",
    "eglGetPlatformDisplay", "eglGetPlatformDisplayEXT", "eglGetProcAddress",
    "eglGetSyncAttrib", "eglInitialize", "eglLabelObjectKHR", "eglMakeCurrent", "eglQueryAPI",
    "eglQueryContext", "eglQueryDebugKHR", "eglQueryDevicesEXT", "eglQueryDisplayAttribEXT",
    "eglQueryDisplayAttribKHR", "eglQueryDisplayAttribNV", "eglQueryString", "eglQuerySurface",
    "eglReleaseTexImage", "eglReleaseThread", "eglSurfaceAttrib", "eglSwapBuffers",
    "eglSwapInterval", "eglTerminate", "eglWaitClient", "eglWaitGL", "eglWaitNative",
    "eglWaitSync", "eglFakeDisplayFAKE", "eglFakeDeviceFAKE", "eglNoSuchFunctionFAKE",
};

static int procaddr(const char *slots_file, bool gl_only)
{
    FILE *f = fopen(slots_file, "r");
    char line[256], **names = NULL;
    int count = 0, cap = 0;

    if (f == NULL) {
        perror(slots_file);
        return 1;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#')
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 4096;
            names = realloc(names, sizeof(*names) * cap);
        }
        names[count++] = strdup(line);
    }
    fclose(f);
    for (size_t i = 0; !gl_only && i < sizeof(egl_names) / sizeof(egl_names[0]); i++) {
        if (count == cap)
            names = realloc(names, sizeof(*names) * (cap *= 2));
        names[count++] = strdup(egl_names[i]);
    }
    open_display("fake0");   /* load the vendors outside the measured function */
    if (gl_only) {
        lookup_first(names, count);
        lookup_again(names, count);
    } else {
        lookup_all(names, count);
    }
    printf("looked up %d names\n", count);
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return 0;
}

static int print_lib(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (strstr(info->dlpi_name, "libEGL") || strstr(info->dlpi_name, "libGLdispatch"))
        printf("using %s\n", info->dlpi_name);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "startup") == 0) {
        EGLDisplay dpy = open_display(argv[2]);

        make_current(dpy, create_context(dpy));
        sink += (uintptr_t)glGetString(GL_VENDOR);
    } else if (argc == 4 && strcmp(argv[1], "switch") == 0) {
        long n = atol(argv[2]);
        bool two = strcmp(argv[3], "fake2") == 0;
        bool mesa = strcmp(argv[3], "mesa") == 0;
        EGLDisplay d[2];
        EGLContext c[2];

        d[0] = open_display(mesa ? "mesa" : "fake0");
        d[1] = two ? open_display("fake1") : d[0];
        c[0] = create_context(d[0]);
        c[1] = create_context(d[1]);
        make_current(d[0], c[0]);
        make_current(d[1], c[1]);
        switch_loop(n, d, c);
    } else if (argc == 3 && strcmp(argv[1], "procaddr") == 0) {
        if (procaddr(argv[2], false) != 0)
            return 1;
    } else if (argc == 3 && strcmp(argv[1], "procaddr-gl") == 0) {
        if (procaddr(argv[2], true) != 0)
            return 1;
    } else {
        fprintf(stderr, "usage: bench_egl startup fake0|mesa | switch N fake|fake2|mesa | "
                "procaddr SLOTS_FILE | procaddr-gl SLOTS_FILE\n");
        return 2;
    }
    dl_iterate_phdr(print_lib, NULL);
    return 0;
}
