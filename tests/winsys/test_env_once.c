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
#include <unistd.h>

#include <EGL/egl.h>
#include <GL/glx.h>

#include "glmux_test.h"
#include "glx_test_x.h"

static FILE *capture;
static int saved_stderr = -1;

static void capture_begin(void)
{
    fflush(stderr);
    capture = tmpfile();
    CHECK(capture != NULL);
    saved_stderr = dup(STDERR_FILENO);
    CHECK(saved_stderr >= 0 && dup2(fileno(capture), STDERR_FILENO) == STDERR_FILENO);
}

/* What was written to stderr since capture_begin (the caller frees it). */
static char *capture_end(void)
{
    long n;
    char *text;

    CHECK(dup2(saved_stderr, STDERR_FILENO) == STDERR_FILENO);
    close(saved_stderr);
    n = ftell(capture);
    CHECK(n >= 0 && (text = calloc(1, (size_t)n + 1)) != NULL);
    rewind(capture);
    CHECK(fread(text, 1, (size_t)n, capture) == (size_t)n);
    fclose(capture);
    return text;
}

static int count(const char *text, const char *what)
{
    int n = 0;

    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

static int mode_debug(void)
{
    char *text;

    capture_begin();
    /* libEGL logs while it looks for vendors; libGLX when asked for a function it lacks (it
     * answers with a stub of its own). */
    (void)eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    (void)glXGetProcAddressARB((const GLubyte *)"glXNoSuchFunctionGLMUX");
    text = capture_end();
    CHECK_MSG(count(text, "glmux: unknown GLMUX_DEBUG token \"bogus\"; valid tokens: "
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
    capture_begin();
    for (int i = 0; i < 2; i++) {
        GLXFBConfig *configs = glXChooseFBConfig(dpy, 0, NULL, &n);

        if (configs != NULL)
            XFree(configs);
    }
    text = capture_end();
    CHECK_MSG(strstr(text, name) == NULL, "a line quotes the whole name");
    for (const char *line = text; *line != '\0';) {
        size_t len = strcspn(line, "\n");

        CHECK_MSG(len < 800, "a line of %zu bytes: %.120s", len, line);
        if (memmem(line, len, "vvvvvvvvvvvvvvvv", 16) != NULL)
            CHECK_MSG(memmem(line, len, "vvv...", 6) != NULL, "not cut: %.120s", line);
        line += len + (line[len] == '\n');
    }
    CHECK_MSG(count(text, "glmux: cannot use GLX vendor \"vvvv") == 1, "got:\n%.2000s", text);
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
