/* SPDX-License-Identifier: MIT */
/*
 * glmux test: no descriptor is left behind by a library unload. Every
 * library has its own copy of the log (src/util/log.c), which opens GLMUX_DEBUG_FILE on its
 * first message. This program dlopens each library given (libEGL, libGLX, libGL), makes it log
 * (eglGetDisplay, or a new GLX name through glXGetProcAddress), dlcloses it, checks that it
 * really went, 50 times, and requires the same open descriptors at the end as after the first
 * round. libGLdispatch stays once loaded (-z nodelete, src/dispatch/CMakeLists.txt), so the
 * descriptor of its own log copy, opened in the first round, is counted from then on.
 *   test_log_unload LIBRARY...   (GLMUX_DEBUG=all and GLMUX_DEBUG_FILE set by ctest)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "glmux_test.h"

#define ROUNDS 50

static long file_size(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* One round: load, make the library log, unload; the library must really be gone. */
static void round_trip(const char *path, int round)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void *(*egl_get_display)(void *);
    void *(*get_proc)(const char *);
    char name[64];

    CHECK_MSG(h != NULL, "%s", dlerror());
    if (round == 0)
        glmux_test_require_ours(strrchr(path, '/') + 1);
    egl_get_display = (void *(*)(void *))dlsym(h, "eglGetDisplay");
    get_proc = (void *(*)(const char *))dlsym(h, "glXGetProcAddress");
    if (egl_get_display != NULL) {
        egl_get_display(NULL);
    } else {
        CHECK(get_proc != NULL);
        snprintf(name, sizeof(name), "glXGlmuxLogUnload%d", round);
        get_proc(name);
    }
    CHECK(dlclose(h) == 0);
    CHECK_MSG(dlopen(path, RTLD_NOW | RTLD_NOLOAD) == NULL, "%s stays loaded after dlclose",
              path);
}

int main(int argc, char **argv)
{
    const char *log = getenv("GLMUX_DEBUG_FILE");

    CHECK(log != NULL && argc > 1);
    remove(log);
    for (int i = 1; i < argc; i++) {
        int before, after;
        long size;

        round_trip(argv[i], 0);     /* libGLdispatch loaded (and kept), its log opened */
        before = glmux_test_open_fds();
        size = file_size(log);
        for (int round = 1; round <= ROUNDS; round++)
            round_trip(argv[i], round);
        after = glmux_test_open_fds();
        printf("%s: %d rounds, open descriptors %d -> %d, debug file %ld -> %ld bytes\n",
               argv[i], ROUNDS, before, after, size, file_size(log));
        CHECK_MSG(file_size(log) > size, "%s wrote nothing to GLMUX_DEBUG_FILE", argv[i]);
        CHECK_MSG(after == before, "%s: %d descriptor(s) left open by %d loads", argv[i],
                  after - before, ROUNDS);
    }
    remove(log);
    return 0;
}
