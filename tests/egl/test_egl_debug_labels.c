/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL test: the labels EGL_KHR_debug callbacks receive for errors libEGL raises itself
 * (the thread's label and the display's, as libglvnd passes them), compared with libglvnd in
 * the same run. Each of two children dlopens one
 * libEGL (ours from the build tree, libglvnd's: the path in argv[1], which
 * tests/abi/reference.py found and checked), sets a thread label,
 * triggers the same errors and prints, per case, the command, the error and which label came as
 * the thread and as the object label. The parent requires equal lines, and then checks the
 * display label that ours adds for display-scoped errors. Needs Mesa and libglvnd (exit 77
 * without them).
 *   test_egl_debug_labels LIBGLVND_LIBEGL
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "glmux_test.h"

/* libglvnd's libEGL of the architecture being built (argv[1]). */
static const char *system_libegl;
#define THREAD_LABEL ((EGLLabelKHR)(uintptr_t)0x7101)
#define DISPLAY_LABEL ((EGLLabelKHR)(uintptr_t)0x7202)

static char last[256];
static FILE *results;   /* the child's answer to the parent */

static const char *label_name(EGLLabelKHR label)
{
    if (label == NULL)
        return "none";
    if (label == THREAD_LABEL)
        return "thread";
    if (label == DISPLAY_LABEL)
        return "display";
    return "other";
}

static void EGLAPIENTRY callback(EGLenum error, const char *command, EGLint type,
                                 EGLLabelKHR thread, EGLLabelKHR object, const char *message)
{
    (void)type;
    (void)message;
    snprintf(last, sizeof(last), "%s 0x%04x thread=%s object=%s", command ? command : "?",
             (unsigned)error, label_name(thread), label_name(object));
}

/* Runs every case through the libEGL at path; one line per case to results. */
static int run_cases(const char *path)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    PFNEGLGETPROCADDRESSPROC gpa;
    PFNEGLDEBUGMESSAGECONTROLKHRPROC control;
    PFNEGLLABELOBJECTKHRPROC label;
    PFNEGLQUERYDEVICESEXTPROC query_devices;
    PFNEGLGETPLATFORMDISPLAYPROC get_platform_display;
    EGLint num;
    EGLDisplay dpy;

    if (lib == NULL) {
        fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        return 1;
    }
    gpa = (PFNEGLGETPROCADDRESSPROC)dlsym(lib, "eglGetProcAddress");
    CHECK(gpa != NULL);
    control = (PFNEGLDEBUGMESSAGECONTROLKHRPROC)gpa("eglDebugMessageControlKHR");
    label = (PFNEGLLABELOBJECTKHRPROC)gpa("eglLabelObjectKHR");
    query_devices = (PFNEGLQUERYDEVICESEXTPROC)gpa("eglQueryDevicesEXT");
    get_platform_display = (PFNEGLGETPLATFORMDISPLAYPROC)dlsym(lib, "eglGetPlatformDisplay");
    CHECK(control && label && query_devices && get_platform_display);
    if (strcmp(path, system_libegl) != 0) {
        glmux_test_require_ours("libEGL.so.1");
        glmux_test_require_ours("libGLdispatch.so.0");
    } else {
        /* libglvnd's libGLdispatch, from the reference libEGL's directory. */
        const char *d = glmux_test_loaded_path("libGLdispatch.so.0");
        char real_d[PATH_MAX], real_egl[PATH_MAX];

        CHECK_MSG(d != NULL && realpath(d, real_d) && realpath(system_libegl, real_egl),
                  "libGLdispatch %s", d ? d : "(not loaded)");
        *strrchr(real_d, '/') = '\0';
        *strrchr(real_egl, '/') = '\0';
        CHECK_MSG(strcmp(real_d, real_egl) == 0, "libGLdispatch %s is not libglvnd's (%s)", d,
                  real_egl);
    }

    CHECK(control(callback, NULL) == EGL_SUCCESS);
    CHECK(label(EGL_NO_DISPLAY, EGL_OBJECT_THREAD_KHR, NULL, THREAD_LABEL) == EGL_SUCCESS);

#define CASE(name, call)                                                                   \
    do {                                                                                   \
        last[0] = '\0';                                                                    \
        (void)(call);                                                                      \
        fprintf(results, "%s: %s\n", name, last[0] ? last : "no callback");                 \
    } while (0)
    CASE("eglGetCurrentSurface(bad enum)",
         ((PFNEGLGETCURRENTSURFACEPROC)dlsym(lib, "eglGetCurrentSurface"))(0x1234));
    CASE("eglBindAPI(bad api)", ((PFNEGLBINDAPIPROC)dlsym(lib, "eglBindAPI"))(0x1234));
    CASE("eglGetPlatformDisplay(EGL_NONE)", get_platform_display(EGL_NONE, NULL, NULL));
    CASE("eglGetPlatformDisplay(unknown platform)", get_platform_display(0x1234, NULL, NULL));
    CASE("eglGetPlatformDisplay(bad device)",
         get_platform_display(EGL_PLATFORM_DEVICE_EXT, (void *)&num, NULL));
    CASE("eglQueryDevicesEXT(NULL count)", query_devices(0, NULL, NULL));
    CASE("eglQueryString(no display, bad name)",
         ((PFNEGLQUERYSTRINGPROC)dlsym(lib, "eglQueryString"))(EGL_NO_DISPLAY, 0x1234));
    CASE("eglMakeCurrent(bad display)",
         ((PFNEGLMAKECURRENTPROC)dlsym(lib, "eglMakeCurrent"))((EGLDisplay)&num, NULL, NULL,
                                                               NULL));
#undef CASE

    /* The display label, for the display-scoped check the parent runs on ours only. */
    dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy != EGL_NO_DISPLAY &&
        ((PFNEGLINITIALIZEPROC)dlsym(lib, "eglInitialize"))(dpy, NULL, NULL) &&
        label(dpy, EGL_OBJECT_DISPLAY_KHR, dpy, DISPLAY_LABEL) == EGL_SUCCESS) {
        PFNEGLQUERYDISPLAYATTRIBEXTPROC query =
            (PFNEGLQUERYDISPLAYATTRIBEXTPROC)gpa("eglQueryDisplayAttribEXT");
        last[0] = '\0';
        if (query != NULL)
            query(dpy, EGL_DEVICE_EXT, NULL);
        fprintf(stderr, "display-scoped: %s\n", last[0] ? last : "no callback");
        fprintf(results, "#display %s\n", last[0] ? last : "no callback");
        ((PFNEGLTERMINATEPROC)dlsym(lib, "eglTerminate"))(dpy);
    } else {
        fprintf(results, "#display unavailable\n");
    }
    fclose(results);
    return 0;
}

/* The output of run_cases(path) in a child process (static storage, one at a time). */
static char *cases_in_child(const char *path)
{
    static char out[2][8192];
    static int which;
    char *buf = out[which++ % 2];
    size_t len = 0;
    int fds[2], status;
    pid_t pid;
    ssize_t n;

    CHECK(pipe(fds) == 0);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        results = fdopen(fds[1], "w");
        CHECK(results != NULL);
        dup2(STDERR_FILENO, STDOUT_FILENO);   /* the library paths the checks print */
        _exit(run_cases(path));
    }
    close(fds[1]);
    while ((n = read(fds[0], buf + len, sizeof(out[0]) - 1 - len)) > 0)
        len += (size_t)n;
    buf[len] = '\0';
    close(fds[0]);
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child failed", path);
    return buf;
}

int main(int argc, char **argv)
{
    char ours_path[512], *ours, *theirs, *a, *b;

    if (argc != 2)
        return 2;
    system_libegl = argv[1];
    if (access(system_libegl, R_OK) != 0 ||
        access("/usr/share/glvnd/egl_vendor.d/50_mesa.json", R_OK) != 0)
        SKIP("needs Debian's libglvnd libEGL and Mesa (libegl1, libegl-mesa0)");
    snprintf(ours_path, sizeof(ours_path), "%s", GLMUX_TEST_LIBEGL);
    ours = cases_in_child(ours_path);
    theirs = cases_in_child(system_libegl);
    printf("glmux:\n%slibglvnd:\n%s", ours, theirs);

    /* Every case but the display one: the same command, error and labels as libglvnd. */
    a = ours;
    b = theirs;
    while (*a != '\0' && *a != '#') {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        CHECK_MSG(la == lb && strncmp(a, b, la) == 0, "differs from libglvnd:\n  glmux:    %.*s\n"
                  "  libglvnd: %.*s", (int)la, a, (int)lb, b);
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
    }
    CHECK(*b == '#');
    /* The thread-scoped errors carry the thread label as the object label. */
    CHECK(strstr(ours, "eglGetCurrentSurface(bad enum): eglGetCurrentSurface 0x300c "
                       "thread=thread object=thread") != NULL);
    /* A display-scoped error libEGL raises carries the display's label. */
    CHECK_MSG(strstr(ours, "#display eglQueryDisplayAttribEXT 0x300c thread=thread "
                           "object=display") != NULL, "%s", strstr(ours, "#display"));
    return 0;
}
