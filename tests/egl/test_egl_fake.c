/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: the fake-vendor test program. Each ctest runs one mode against our
 * libEGL.so.1 with libEGL_fake0/libEGL_fake1 found through a JSON fixture directory.
 */
#define _GNU_SOURCE
#include "test_egl_fake.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

EGLDisplay fake_display(const char *vendor)
{
    EGLDisplay dpy = eglGetPlatformDisplay(FAKE_PLATFORM, (void *)vendor, NULL);

    CHECK_MSG(dpy != EGL_NO_DISPLAY, "no display for %s (error 0x%x)", vendor, eglGetError());
    CHECK(eglInitialize(dpy, NULL, NULL));
    return dpy;
}

EGLContext fake_context(EGLDisplay dpy, const EGLint *attribs)
{
    EGLConfig config;
    EGLint n = 0;
    EGLContext ctx;

    CHECK(eglChooseConfig(dpy, NULL, &config, 1, &n) && n == 1);
    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);
    return ctx;
}

void *fake_symbol(const char *vendor, const char *name)
{
    char lib[64];
    void *handle, *sym;

    snprintf(lib, sizeof(lib), "libEGL_%s.so.0", vendor);
    handle = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD);
    CHECK_MSG(handle != NULL, "%s is not loaded", lib);
    sym = dlsym(handle, name);
    dlclose(handle);
    CHECK_MSG(sym != NULL, "%s has no %s", lib, name);
    return sym;
}

void *fake_proc(const char *name)
{
    void *p = (void *)eglGetProcAddress(name);

    CHECK_MSG(p != NULL, "eglGetProcAddress(%s) is NULL", name);
    return p;
}

const char *fake_vendor_of(EGLDisplay dpy)
{
    const char *s = eglQueryString(dpy, EGL_VENDOR);

    CHECK(s != NULL);
    return s;
}

static const struct {
    const char *name;
    int (*run)(void);
} modes[] = {
    { "display", mode_display },       { "order", mode_order },
    { "filenames", mode_filenames },   { "platform_env", mode_platform_env },
    { "platform_detect", mode_platform_detect },
    { "device", mode_device },         { "device_later", mode_device_later },
    { "procaddr", mode_procaddr },     { "makecurrent", mode_makecurrent },
    { "error", mode_error },           { "debug", mode_debug },
    { "threads", mode_threads },       { "fork", mode_fork },
};

int main(int argc, char **argv)
{
    CHECK_MSG(argc == 2, "usage: egl_fake MODE");
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        if (strcmp(argv[1], modes[i].name) == 0) {
            int rc = modes[i].run();

            if (rc == 0) {
                glmux_test_require_ours("libEGL.so.1");
                glmux_test_require_ours("libGLdispatch.so.0");
            }
            return rc;
        }
    }
    fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
}
