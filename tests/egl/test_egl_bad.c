/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: bad vendor configuration. The ctest environment names one broken
 * manifest (malformed JSON, wrong version, missing or broken library, ...) followed by a
 * good one; the broken one must be skipped with the GLMUX_DEBUG=vendor explanation given as
 * argument, and the good vendor (fake1) must still serve the default display. With --empty
 * there is no vendor at all: EGL must fail cleanly with its documented errors. With
 * --empty EXPECTED-LOG-TEXT the only manifest is a broken one: the same errors, and the log
 * says why that vendor was skipped. With --gles-only the one vendor supports only OpenGL ES:
 * eglBindAPI(EGL_OPENGL_API) must fail, OpenGL ES stays usable.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#include "egl_fake.h"
#include "glmux_test.h"

static char *read_log(void)
{
    const char *path = getenv("GLMUX_DEBUG_FILE");
    static char buf[1 << 16];
    size_t n;
    FILE *f;

    CHECK_MSG(path != NULL, "GLMUX_DEBUG_FILE is not set");
    f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot read %s", path);
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void truncate_log(void)
{
    const char *path = getenv("GLMUX_DEBUG_FILE");
    FILE *f = path ? fopen(path, "w") : NULL;

    if (f != NULL)
        fclose(f);
}

static int empty_list(const char *expected)
{
    EGLint n = -1;
    PFNEGLQUERYDEVICESEXTPROC query;

    CHECK(eglGetDisplay(EGL_DEFAULT_DISPLAY) == EGL_NO_DISPLAY);
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    CHECK(eglGetPlatformDisplay(FAKE_PLATFORM, "fake0", NULL) == EGL_NO_DISPLAY);
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    CHECK(strcmp(eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS), "") == 0);
    CHECK(!eglBindAPI(EGL_OPENGL_API));
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    CHECK(eglGetProcAddress("eglFakeDisplayFAKE") == NULL);
    query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    CHECK(query != NULL && query(0, NULL, &n) && n == 0);
    CHECK(eglReleaseThread());
    CHECK_MSG(strstr(read_log(), "no EGL vendor library loaded") != NULL, "log:\n%s",
              read_log());
    CHECK_MSG(expected == NULL || strstr(read_log(), expected) != NULL, "\"%s\" not in the "
              "log:\n%s", expected, read_log());
    printf("%s", read_log());
    return 0;
}

static int gles_only(void)
{
    EGLDisplay dpy;

    CHECK(!eglBindAPI(EGL_OPENGL_API));
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    CHECK(eglQueryAPI() == EGL_OPENGL_ES_API);
    CHECK(eglBindAPI(EGL_OPENGL_ES_API));
    dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    CHECK(dpy != EGL_NO_DISPLAY && eglInitialize(dpy, NULL, NULL));
    CHECK(strcmp(eglQueryString(dpy, EGL_VENDOR), "fakegles") == 0);
    CHECK_MSG(strstr(read_log(), "GL no, GLES yes") != NULL, "log:\n%s", read_log());
    return 0;
}

/*
 * Run with a file capability (AT_SECURE): the environment names fake1 only, but libEGL must
 * ignore it and search the built-in directories (Mesa, or nothing).
 */
static int secure(void)
{
    EGLDisplay dpy;
    const char *vendor;

    CHECK_MSG(getauxval(AT_SECURE) != 0, "not running in secure-execution mode");
    CHECK(getenv("__EGL_VENDOR_LIBRARY_FILENAMES") != NULL);
    dpy = eglGetPlatformDisplay(FAKE_PLATFORM, "fake1", NULL);
    CHECK_MSG(dpy == EGL_NO_DISPLAY, "fake1 was loaded from __EGL_VENDOR_LIBRARY_FILENAMES");
    dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    vendor = dpy != EGL_NO_DISPLAY && eglInitialize(dpy, NULL, NULL)
             ? eglQueryString(dpy, EGL_VENDOR) : NULL;
    printf("default display served by: %s\n", vendor ? vendor : "(no vendor)");
    CHECK(vendor == NULL || strstr(vendor, "fake") == NULL);
    return 0;
}

int main(int argc, char **argv)
{
    EGLDisplay dpy;
    const char *log;

    CHECK_MSG(argc == 2 || (argc == 3 && strcmp(argv[1], "--empty") == 0),
              "usage: egl_bad_input EXPECTED-LOG-TEXT | --empty [EXPECTED-LOG-TEXT] | "
              "--gles-only | --secure");
    if (strcmp(argv[1], "--secure") == 0) {
        secure();
    } else if (truncate_log(), strcmp(argv[1], "--gles-only") == 0) {
        gles_only();
    } else if (strcmp(argv[1], "--empty") == 0) {
        empty_list(argc == 3 ? argv[2] : NULL);
    } else {
        dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
        CHECK_MSG(dpy != EGL_NO_DISPLAY, "error 0x%x", eglGetError());
        CHECK(eglInitialize(dpy, NULL, NULL));
        CHECK(strcmp(eglQueryString(dpy, EGL_VENDOR), "fake1") == 0);
        CHECK(eglTerminate(dpy));
        log = read_log();
        CHECK_MSG(strstr(log, argv[1]) != NULL, "\"%s\" not in the log:\n%s", argv[1], log);
        CHECK_MSG(strstr(log, "loaded EGL vendor") != NULL, "log:\n%s", log);
        printf("%s", log);
    }
    glmux_test_require_ours("libEGL.so.1");
    return 0;
}
