/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: fork() while another thread has the pixels GLX vendor find its EGL vendor (its
 * resumable once-gate, pixels_egl.c). The EGL vendors are tests/egl's fakes fake0, fakeslow
 * (its __egl_Main signals, then sleeps) and fake1, in that order; FAKE_EGL_SURFACELESS makes
 * fakeslow and fake1 offer the surfaceless display the vendor renders on, fake0 not. The
 * vendor is loaded as a libGLX loads it (dlopen, __glx_Main); a thread asks it for a GL
 * function, its first use of EGL, and while fakeslow's __egl_Main sleeps the main thread forks
 * three children. Each child finishes the search its parent was making and must get the GL
 * function of the vendor the parent ends with (fakeslow), write nothing to stderr (no "cannot
 * render" error, no sanitizer report: a child exits through exit(), so LeakSanitizer checks
 * it), and exit 0; a hang fails the test (alarm). Modes:
 *   libegl  glmux's libEGL found: the vendor takes libEGL's vendors (whose own once-gate the
 *           child resumes too)
 *   own     a libEGL.so.1 that is not glmux's loaded first (ARGV[3], libglvnd's): the vendor
 *           loads the EGL vendors itself, and the child loads fakeslow again
 *   test_glx_pixels_fork libegl|own PIXELS_LIBRARY [LIBEGL]
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glmux_test.h"
#include "glvnd/libglxabi.h"

#define CHILDREN 3
#define EXPECTED "libEGL_fakeslow.so.0"

static __GLXapiExports exports;   /* the vendor keeps the pointer; the test calls nothing */
static __GLXapiImports imports;
static char parent_library[4096];
static int release[2];   /* the thread lives on until the children are done (ThreadSanitizer
                          * calls a finished, unjoined thread of the parent a leak in a child) */

/* The file of the EGL vendor whose glGetString the pixels vendor hands out ("" when none). */
static void gl_library(char *out, size_t size)
{
    void *fn = imports.getProcAddress((const GLubyte *)"glGetString");
    Dl_info info;

    out[0] = '\0';
    if (fn != NULL && dladdr(fn, &info) != 0 && info.dli_fname != NULL)
        snprintf(out, size, "%s", info.dli_fname);
}

static void *first_use(void *arg)
{
    char done;

    (void)arg;
    glmux_test_fork_keeps_thread_stack();
    gl_library(parent_library, sizeof(parent_library));
    CHECK(read(release[0], &done, 1) == 1);
    return NULL;
}

static void child(FILE *err)
{
    char library[4096];

    CHECK(dup2(fileno(err), STDERR_FILENO) == STDERR_FILENO);
    gl_library(library, sizeof(library));
    CHECK_MSG(strstr(library, EXPECTED) != NULL, "child's EGL vendor: '%s'", library);
    exit(0);
}

/* Whether libEGL.so.1, as loaded now, is glmux's (it answers glmux's private name). */
static int libegl_is_glmux(void)
{
    void *egl = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_NOLOAD);
    void *(*gpa)(const char *) = egl ? (void *(*)(const char *))dlsym(egl, "eglGetProcAddress")
                                     : NULL;
    int ours = gpa != NULL && gpa("__glmux_egl_vendors_1") != NULL;

    if (egl != NULL)
        dlclose(egl);
    return ours;
}

int main(int argc, char **argv)
{
    Bool (*glx_main)(uint32_t, const __GLXapiExports *, __GLXvendorInfo *, __GLXapiImports *);
    pthread_t thread;
    char text[16], signal_fd[16];
    void *pixels, *other_egl = NULL;
    int pipefd[2];
    int own;

    alarm(60);
    CHECK(argc >= 3);
    own = strcmp(argv[1], "own") == 0;
    if (own) {
        /* libglvnd's libEGL, loaded first: the vendor's dlopen("libEGL.so.1") finds it. */
        if (argc < 4 || (other_egl = dlopen(argv[3], RTLD_NOW | RTLD_GLOBAL)) == NULL)
            SKIP("no libEGL.so.1 other than glmux's (%s)", argc < 4 ? "none named" : dlerror());
        if (libegl_is_glmux())
            SKIP("%s is glmux's libEGL", argv[3]);
    }
    CHECK(pipe(pipefd) == 0 && pipe(release) == 0);
    snprintf(signal_fd, sizeof(signal_fd), "%d", pipefd[1]);
    CHECK(setenv("FAKE_EGL_SLOW_FD", signal_fd, 1) == 0);
    CHECK(setenv("FAKE_EGL_SURFACELESS", "fakeslow fake1", 1) == 0);
    pixels = dlopen(argv[2], RTLD_LAZY | RTLD_LOCAL);
    CHECK_MSG(pixels != NULL, "%s", dlerror());
    glx_main = (Bool (*)(uint32_t, const __GLXapiExports *, __GLXvendorInfo *,
                         __GLXapiImports *))dlsym(pixels, "__glx_Main");
    CHECK(glx_main != NULL);
    CHECK(glx_main(GLX_VENDOR_ABI_VERSION, &exports, NULL, &imports));
    CHECK(imports.getProcAddress != NULL);

    CHECK(pthread_create(&thread, NULL, first_use, NULL) == 0);
    /* fakeslow's __egl_Main has started: the vendor's search is under way. */
    CHECK(read(pipefd[0], text, 1) == 1);
    glmux_test_fork_children(CHILDREN, child);
    CHECK(write(release[1], "r", 1) == 1);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_MSG(strstr(parent_library, EXPECTED) != NULL, "parent's EGL vendor: '%s'",
              parent_library);
    /* The path the vendor took: glmux's libEGL in the process only when it took its vendors. */
    CHECK_MSG(libegl_is_glmux() == !own, "libEGL.so.1 %s glmux's", own ? "is" : "is not");
    if (!own)
        glmux_test_require_ours("libEGL.so.1");
    printf("ok: %s: the children and the parent render with %s\n", argv[1], parent_library);
    (void)other_egl;   /* stays loaded, as the vendor's EGL vendors do */
    return 0;
}
