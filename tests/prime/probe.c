/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: one program that uses both EGL and GLX, as an application that never heard of
 * GPUs does, for the PRIME table (run_table.py) and the switcheroo-control test. It asks for the
 * default EGL display and prints the vendor that serves it ("egl NAME"), then makes a GLX
 * context of screen 0 of DISPLAY current and prints the vendor of its GL_VENDOR ("glx NAME");
 * the fake vendors record what they saw (FAKE_EGL_RECORD, FAKE_GLX_RECORD). Last it checks that
 * libEGL.so.1 and libGLX.so.0 are glmux's. Arguments: "egl", "glx" or "both" (the default), then
 * "ours" (the default) or "system" (the libraries must be another build's: Debian's libglvnd).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <X11/Xlib.h>
#include <EGL/egl.h>

#include "glmux_test.h"
#include "glx_test_x.h"

static void egl(void)
{
    EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);

    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        printf("egl (none) error 0x%x\n", eglGetError());
        return;
    }
    printf("egl %s\n", eglQueryString(dpy, EGL_VENDOR));
    eglTerminate(dpy);
}

static void glx(void)
{
    Display *dpy = XOpenDisplay(NULL);
    char vendor[64];

    CHECK_MSG(dpy != NULL, "cannot open DISPLAY");
    printf("glx %s\n", glx_test_screen_vendor(dpy, 0, vendor, sizeof(vendor)) ? vendor : "(none)");
    XCloseDisplay(dpy);
}

/* mode "system": the library must NOT be glmux's (the X connection test runs the probe against
 * Debian's libglvnd too); anything else: it must be glmux's. */
static void require(const char *soname, const char *mode)
{
    const char *path;

    if (strcmp(mode, "system") != 0) {
        glmux_test_require_ours(soname);
        return;
    }
    path = glmux_test_loaded_path(soname);
    CHECK_MSG(path != NULL, "%s is not loaded", soname);
    CHECK_MSG(strncmp(path, GLMUX_TEST_BUILD_DIR, strlen(GLMUX_TEST_BUILD_DIR)) != 0,
              "%s was loaded from glmux's build (%s)", soname, path);
    printf("loaded %s from %s\n", soname, path);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "both";
    const char *mode = argc > 2 ? argv[2] : "ours";
    bool both = strcmp(what, "both") == 0;

    if (both || strcmp(what, "egl") == 0) {
        egl();
        require("libEGL.so.1", mode);
    }
    if (both || strcmp(what, "glx") == 0) {
        glx();
        require("libGLX.so.0", mode);
    }
    fflush(stdout);
    return 0;
}
