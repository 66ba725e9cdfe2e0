/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: load and unload libEGL.so.1 many times with Debian's Mesa initialising a
 * display each time. Every round must succeed: libEGL may not use up glibc's static TLS
 * reserve for dlopened libraries (which is not always given back at dlclose), or after a dozen
 * rounds the vendor itself can no longer be loaded.
 */
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>
#include <string.h>

#include "glmux_test.h"

#define ROUNDS 64

int main(void)
{
    for (int round = 0; round < ROUNDS; round++) {
        void *lib = dlopen(GLMUX_TEST_LIBEGL, RTLD_NOW | RTLD_LOCAL);
        PFNEGLGETPLATFORMDISPLAYPROC get_display;
        PFNEGLINITIALIZEPROC initialize;
        PFNEGLTERMINATEPROC terminate;
        PFNEGLRELEASETHREADPROC release;
        EGLDisplay dpy;

        CHECK_MSG(lib != NULL, "round %d: %s", round, dlerror());
        if (round == 0)
            glmux_test_require_ours("libEGL.so.1");
        get_display = (PFNEGLGETPLATFORMDISPLAYPROC)dlsym(lib, "eglGetPlatformDisplay");
        initialize = (PFNEGLINITIALIZEPROC)dlsym(lib, "eglInitialize");
        terminate = (PFNEGLTERMINATEPROC)dlsym(lib, "eglTerminate");
        release = (PFNEGLRELEASETHREADPROC)dlsym(lib, "eglReleaseThread");
        CHECK(get_display && initialize && terminate && release);
        dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        if (dpy == EGL_NO_DISPLAY && round == 0) {
            printf("SKIP: Mesa's surfaceless platform is not available\n");
            return 77;
        }
        CHECK_MSG(dpy != EGL_NO_DISPLAY, "round %d: no display", round);
        CHECK_MSG(initialize(dpy, NULL, NULL), "round %d: eglInitialize failed", round);
        CHECK(terminate(dpy));
        CHECK(release());
        CHECK_MSG(dlclose(lib) == 0, "round %d: %s", round, dlerror());
    }
    printf("libEGL loaded, used with Mesa and unloaded %d times\n", ROUNDS);
    return 0;
}
