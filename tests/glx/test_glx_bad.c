/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: bad vendors and bad servers. Modes (argv[1]):
 *   fallback MESSAGE [VENDOR]
 *                     on the fixture's server without GLX, the forced vendor of screen 0 is
 *                     broken (unknown name, '/', no __glx_Main, rejected ABI version, missing
 *                     required function: set by the ctest ENVIRONMENT); libGLX reports MESSAGE
 *                     once, even for a second connection, and falls back to "indirect" (a
 *                     fake vendor in this test's library path), or, when VENDOR is given, to
 *                     the vendor of that name (glx_bad_system: "indirect" rejects the ABI and
 *                     Fedora's "system" serves). GLX queries answer False, libGLX's errors
 *                     are not sent (no GLX opcode) and nothing crashes.
 *   alias             screens 0 and 1 forced to fakea and to fakealias, a symlink to the same
 *                     file: one vendor, __glx_Main called once.
 *   servername        no overrides: the server's GLX_VENDOR_NAMES_EXT list ("mesa") picks a
 *                     fake vendor built as libGLX_mesa.so.0 for screen 0; it refuses screen 1
 *                     (isScreenSupported), which falls back to "indirect" (fakeb).
 *   patch             fakea offers entry-point patching: making its context current hands it
 *                     the stubs (x86-64 builds), and GL calls still reach it. Built again
 *                     linked with libGL.so.1 alone (gl_patch_vendor, GLMUX_TEST_LIBGL): libGL's
 *                     own stubs are among those offered.
 *   noglx             no overrides, server without GLX: whatever "indirect" is on this system
 *                     (Debian: Mesa) gives NULL visuals; no crash.
 *   stubs             before any vendor is loaded, 4097 distinct unknown glX names: the first
 *                     4096 get distinct generated entry stubs (each asked twice gives the same
 *                     one; calling one returns NULL), the 4097th gets NULL. Pure-C builds: NULL.
 *   secure forced|ignored FAKEA
 *                     __GLX_FORCE_VENDOR_LIBRARY_0 and __GLX_VENDOR_LIBRARY_NAME name fakea,
 *                     loaded first from the path FAKEA so that its soname resolves even where
 *                     the dynamic linker ignores LD_LIBRARY_PATH. "forced": fakea serves both
 *                     screens; "ignored" (run with AT_SECURE by test_glx_secure.py): libGLX
 *                     ignores both variables and the server's vendor (Mesa) serves.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <GL/gl.h>
#include <GL/glx.h>

#include "fake_vendor.h"
#include "glmux_constants.h"
#include "glmux_test.h"
#include "glx_test_x.h"

typedef const char *(*which_fn)(Display *, int);
typedef int (*count_fn)(Display *, int, int);

static int occurrences(const char *path, const char *needle)
{
    char line[2048];
    int n = 0;
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strstr(line, needle) != NULL)
            n++;
    }
    fclose(f);
    return n;
}

static int fallback(const char *message, const char *vendor)
{
    const char *log = getenv("GLMUX_DEBUG_FILE");
    Display *dpy, *dpy2;
    int n = 0, major, minor;
    GLXFBConfig *configs;

    CHECK_MSG(log != NULL, "GLMUX_DEBUG_FILE must be set");
    dpy = glx_test_open("noglx");
    glx_test_catch_errors();
    glmux_test_require_ours("libGLX.so.0");
    CHECK(!glXQueryExtension(dpy, NULL, NULL));
    CHECK(!glXQueryVersion(dpy, &major, &minor));
    CHECK_MSG(strcmp(glXGetClientString(dpy, GLX_VENDOR), vendor) == 0, "vendor \"%s\"",
              glXGetClientString(dpy, GLX_VENDOR));
    configs = glXChooseFBConfig(dpy, 0, NULL, &n);
    CHECK(configs != NULL && n == 2);
    XFree(configs);
    glXDestroyContext(dpy, (GLXContext)(void *)&n); /* no GLX opcode: no error to send */
    CHECK(glx_test_last_error(dpy).error_code == 0);

    dpy2 = XOpenDisplay(DisplayString(dpy));
    CHECK(dpy2 != NULL);
    CHECK(strcmp(glXGetClientString(dpy2, GLX_VENDOR), vendor) == 0);
    XCloseDisplay(dpy2);
    XCloseDisplay(dpy);
    CHECK_MSG(occurrences(log, message) == 1, "\"%s\" reported %d times in %s", message,
              occurrences(log, message), log);
    return 0;
}

static int alias(void)
{
    Display *dpy = glx_test_open("two");
    which_fn which;
    count_fn count;
    void *early;

    glmux_test_require_ours("libGLX.so.0");
    /* Asked before any vendor is loaded: a generated stub, filled when the vendor loads
     * (pure-C builds have none and answer NULL until then). */
    early = (void *)glXGetProcAddress((const GLubyte *)"glXFakeWhichVendorGLMUX");
#if GLMUX_HAVE_GLX_STUBS
    CHECK(early != NULL);
#else
    CHECK(early == NULL);
#endif
    CHECK(strcmp(glXGetClientString(dpy, GLX_VENDOR), "fakea") == 0);
    which = (which_fn)glXGetProcAddress((const GLubyte *)"glXFakeWhichVendorGLMUX");
    count = (count_fn)glXGetProcAddress((const GLubyte *)"glXFakeCountGLMUX");
    CHECK(which != NULL && count != NULL);
#if GLMUX_HAVE_GLX_STUBS
    CHECK((void *)which == early);
#endif
    CHECK(strcmp(which(dpy, 0), "fakea") == 0);
    CHECK(strcmp(which(dpy, 1), "fakea") == 0);
    CHECK(count(dpy, 1, FAKE_COUNT_MAIN_CALLS) == 1);
    XCloseDisplay(dpy);
    return 0;
}

static int servername(void)
{
    Display *dpy = glx_test_open("two");
    which_fn which;

    glmux_test_require_ours("libGLX.so.0");
    CHECK_MSG(glmux_test_loaded_path("libGLX_mesa.so.0") == NULL, "Mesa loaded too early");
    CHECK(strcmp(glXGetClientString(dpy, GLX_VENDOR), "mesa, fakeb") == 0);
    CHECK_MSG(strstr(glmux_test_loaded_path("libGLX_mesa.so.0"), "/tests/glx/") != NULL,
              "libGLX_mesa.so.0 came from %s", glmux_test_loaded_path("libGLX_mesa.so.0"));
    which = (which_fn)glXGetProcAddress((const GLubyte *)"glXFakeWhichVendorGLMUX");
    CHECK(which != NULL);
    CHECK(strcmp(which(dpy, 0), "mesa") == 0 && strcmp(which(dpy, 1), "fakeb") == 0);
    XCloseDisplay(dpy);
    return 0;
}

static int patch(void)
{
    Display *dpy = glx_test_open("two");
    GLXFBConfig *configs;
    GLXContext ctx;
    count_fn count;
    int n = 0;

    glmux_test_require_ours("libGLX.so.0");
#ifdef GLMUX_TEST_LIBGL
    glmux_test_require_ours("libGL.so.1");
#else
    glmux_test_require_ours("libOpenGL.so.0");
#endif
    configs = glXChooseFBConfig(dpy, 0, NULL, &n);
    CHECK(configs != NULL && n > 0);
    ctx = glXCreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx != NULL && glXMakeCurrent(dpy, None, ctx));
    count = (count_fn)glXGetProcAddress((const GLubyte *)"glXFakeCountGLMUX");
    CHECK(count != NULL);
#if GLMUX_HAVE_ASM_ENTRY
    CHECK_MSG(count(dpy, 0, FAKE_COUNT_PATCH_QUERIES) > 0, "isPatchSupported never asked");
    CHECK_MSG(count(dpy, 0, FAKE_COUNT_PATCHED) > 0, "no stub set offered glClear");
#ifdef GLMUX_TEST_LIBGL
    CHECK_MSG(count(dpy, 0, FAKE_COUNT_PATCHED_LIBGL) > 0, "libGL.so.1's stubs were not offered");
#else
    CHECK(count(dpy, 0, FAKE_COUNT_PATCHED_LIBGL) == 0); /* libGL.so.1 is not loaded */
#endif
#else
    CHECK(count(dpy, 0, FAKE_COUNT_PATCHED) == 0); /* C stubs cannot be patched */
#endif
    glClear(GL_COLOR_BUFFER_BIT);
    CHECK(count(dpy, 0, FAKE_COUNT_CLEARS) == 1);
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glXDestroyContext(dpy, ctx);
    XFree(configs);
    XCloseDisplay(dpy);
    return 0;
}

static int noglx(void)
{
    Display *dpy = glx_test_open("noglx");
    int attribs[] = {GLX_RGBA, GLX_DOUBLEBUFFER, None};
    int major, minor;

    glmux_test_require_ours("libGLX.so.0");
    CHECK(!glXQueryExtension(dpy, NULL, NULL));
    CHECK(!glXQueryVersion(dpy, &major, &minor));
    CHECK(glXChooseVisual(dpy, 0, attribs) == NULL);
    CHECK(glXChooseFBConfig(dpy, 0, NULL, &major) == NULL);
    CHECK(glXChooseVisual(dpy, 5, attribs) == NULL); /* no such screen */
    XCloseDisplay(dpy);
    return 0;
}

static int stubs(void)
{
    enum { STUBS = 4096 };
    char name[64];
    __GLXextFuncPtr fn;
#if GLMUX_HAVE_GLX_STUBS
    __GLXextFuncPtr prev = NULL;
#endif

    glmux_test_require_ours("libGLX.so.0");
    for (int i = 0; i <= STUBS; i++) {
        snprintf(name, sizeof(name), "glXStubProbe%dGLMUX", i);
        fn = glXGetProcAddress((const GLubyte *)name);
#if GLMUX_HAVE_GLX_STUBS
        if (i < STUBS) {
            CHECK_MSG(fn != NULL, "no stub for unknown name %d", i);
            CHECK_MSG(fn != prev, "name %d got the stub of name %d", i, i - 1);
            CHECK(glXGetProcAddressARB((const GLubyte *)name) == fn);
            prev = fn;
        } else {
            CHECK_MSG(fn == NULL, "a stub beyond the %d generated ones", STUBS);
        }
#else
        CHECK(fn == NULL);
#endif
    }
#if GLMUX_HAVE_GLX_STUBS
    CHECK(((void *(*)(void))prev)() == NULL);
#endif
    return 0;
}

static int secure(const char *expect, const char *fakea)
{
    Display *dpy = glx_test_open("two");
    const char *v;

    CHECK_MSG(dlopen(fakea, RTLD_NOW | RTLD_LOCAL) != NULL, "%s", dlerror());
    glmux_test_require_ours("libGLX.so.0");
    v = glXGetClientString(dpy, GLX_VENDOR);
    if (strcmp(expect, "forced") == 0) {
        CHECK_MSG(v != NULL && strcmp(v, "fakea") == 0, "vendor \"%s\"", v ? v : "(null)");
    } else {
        CHECK_MSG(v != NULL && *v != '\0' && strstr(v, "fakea") == NULL,
                  "vendor \"%s\": the overrides were not ignored", v ? v : "(null)");
        printf("client GLX vendor with AT_SECURE: %s\n", v);
    }
    XCloseDisplay(dpy);
    return 0;
}

int main(int argc, char **argv)
{
    const char *log = getenv("GLMUX_DEBUG_FILE");

    if (log != NULL)
        unlink(log);
    /* These check libglvnd's fallbacks on a server without GLX, not glmux's pixels vendor. */
    setenv("GLMUX_GLX_REMOTE", "off", 0);
    CHECK_MSG(argc >= 2, "usage: %s fallback MESSAGE [VENDOR] | alias | servername | patch | "
              "noglx | stubs | secure forced|ignored FAKEA", argv[0]);
    if (strcmp(argv[1], "fallback") == 0 && argc >= 3)
        return fallback(argv[2], argc >= 4 ? argv[3] : "fakeb");
    if (strcmp(argv[1], "alias") == 0)
        return alias();
    if (strcmp(argv[1], "patch") == 0)
        return patch();
    if (strcmp(argv[1], "servername") == 0)
        return servername();
    if (strcmp(argv[1], "noglx") == 0)
        return noglx();
    if (strcmp(argv[1], "stubs") == 0)
        return stubs();
    if (strcmp(argv[1], "secure") == 0 && argc >= 4)
        return secure(argv[2], argv[3]);
    CHECK_MSG(0, "unknown mode %s", argv[1]);
    return 1;
}
