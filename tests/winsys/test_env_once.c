/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: messages about the environment, from a process that uses both libEGL and
 * libGLX. "debug" (GLMUX_DEBUG=bogus): both libraries log, and the unknown token is reported
 * once in the process, not once by each (they claim the message in glmux's libGLdispatch).
 * "long_name" (GLMUX_DEBUG=all, __GLX_VENDOR_LIBRARY_NAME set here to a 10 kB name before the
 * first GLX call): no line quotes the name whole; the lines that name it cut it with "...",
 * and the warning that the vendor cannot be used comes once.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <GL/glx.h>

#include "glmux_test.h"
#include "glx_test_x.h"

static int mode_debug(void)
{
    char *text;

    glmux_test_capture_begin();
    /* libEGL logs while it looks for vendors; libGLX when asked for a function it lacks (it
     * answers with a stub of its own). */
    (void)eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    (void)glXGetProcAddressARB((const GLubyte *)"glXNoSuchFunctionGLMUX");
    text = glmux_test_capture_end();
    CHECK_MSG(glmux_test_count(text, "glmux: unknown GLMUX_DEBUG token \"bogus\"; valid tokens: "
                                     "error,warn,info,vendor,select,dispatch,layer,all\n") == 1,
              "got:\n%s", text);
    free(text);
    return 0;
}

static int mode_long_name(void)
{
    char *name = malloc(10001), *text;
    int n = 0;
    Display *dpy;

    CHECK(name != NULL);
    memset(name, 'v', 10000);
    name[10000] = '\0';
    CHECK(setenv("__GLX_VENDOR_LIBRARY_NAME", name, 1) == 0);
    dpy = glx_test_open("one");
    glmux_test_capture_begin();
    for (int i = 0; i < 2; i++) {
        GLXFBConfig *configs = glXChooseFBConfig(dpy, 0, NULL, &n);

        if (configs != NULL)
            XFree(configs);
    }
    text = glmux_test_capture_end();
    CHECK_MSG(strstr(text, name) == NULL, "a line quotes the whole name");
    for (const char *line = text; *line != '\0';) {
        size_t len = strcspn(line, "\n");

        CHECK_MSG(len < 800, "a line of %zu bytes: %.120s", len, line);
        if (memmem(line, len, "vvvvvvvvvvvvvvvv", 16) != NULL)
            CHECK_MSG(memmem(line, len, "vvv...", 6) != NULL, "not cut: %.120s", line);
        line += len + (line[len] == '\n');
    }
    CHECK_MSG(glmux_test_count(text, "glmux: cannot use GLX vendor \"vvvv") == 1, "got:\n%.2000s",
              text);
    free(text);
    free(name);
    XCloseDisplay(dpy);
    return 0;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc == 2, "usage: env_once debug|long_name");
    if (strcmp(argv[1], "debug") == 0)
        return mode_debug();
    CHECK(strcmp(argv[1], "long_name") == 0);
    return mode_long_name();
}
