/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: fork() while another thread loads libdrm and libudev (select/device_libs.c).
 * dlopen is interposed (the selector is linked into this program): the first
 * dlopen of libdrm.so.2 signals and sleeps before it goes on, and the main thread forks two
 * children meanwhile. Each child's first glmux_device_libs_get() completes its parent's load
 * (the library whose dlopen was cut is opened again, the others are not), gets what the
 * parent gets, writes nothing to stderr and exits through exit() (LeakSanitizer checks it).
 * The program's lifecycle steps (the device libraries' gate) run from its own fork handlers,
 * as each library's do.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "glmux_test.h"
#include "select/device_libs.h"
#include "util/lifecycle.h"

#define CHILDREN 2

static int signal_fd = -1;
static atomic_int drm_opens, udev_opens;

__attribute__((visibility("default"))) void *dlopen(const char *file, int mode)
{
    void *(*real)(const char *, int) = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");

    if (file != NULL && strcmp(file, "libdrm.so.2") == 0) {
        if (atomic_fetch_add(&drm_opens, 1) == 0 && signal_fd >= 0) {
            (void)!write(signal_fd, "d", 1);
            usleep(500 * 1000);
        }
    } else if (file != NULL && strcmp(file, "libudev.so.1") == 0) {
        atomic_fetch_add(&udev_opens, 1);
    }
    return real(file, mode);
}

static void *load(void *arg)
{
    *(const struct glmux_device_libs **)arg = glmux_device_libs_get();
    return NULL;
}

/*
 * LeakSanitizer's notice that the parent's loading thread, which the child does not have, was
 * not suspended ("==PID==Running thread TID was not suspended. False leaks are possible."):
 * not glmux's word, and no report (a leak fails the child's exit status).
 */
static void drop_thread_notice(char *text)
{
    char *p;

    while ((p = strstr(text, "was not suspended. False leaks are possible.\n")) != NULL) {
        char *start = p, *end = strchr(p, '\n') + 1;

        while (start > text && start[-1] != '\n')
            start--;
        memmove(start, end, strlen(end) + 1);
    }
}

static void child(FILE *err)
{
    const struct glmux_device_libs *libs;

    CHECK(dup2(fileno(err), STDERR_FILENO) == STDERR_FILENO);
    libs = glmux_device_libs_get();
    /* libdrm: cut in the parent, opened again here; libudev: opened once, here. */
    CHECK_MSG(atomic_load(&drm_opens) == 2 && atomic_load(&udev_opens) == 1,
              "libdrm opened %d times, libudev %d", atomic_load(&drm_opens),
              atomic_load(&udev_opens));
    CHECK_MSG(libs->have_drm && libs->drmGetDevices2 != NULL, "%s", libs->error);
    CHECK_MSG(libs->have_udev && libs->udev_new != NULL, "%s", libs->error);
    glmux_device_libs_get();
    CHECK(atomic_load(&drm_opens) == 2 && atomic_load(&udev_opens) == 1);
    exit(0);
}

int main(void)
{
    const struct glmux_device_libs *libs = NULL;
    FILE *errs[CHILDREN];
    pid_t pids[CHILDREN];
    pthread_t thread;
    char text[4096];
    int pipefd[2];

    alarm(60);
    for (int i = 0; i < 2; i++) {
        void *h = dlopen(i ? "libudev.so.1" : "libdrm.so.2", RTLD_LAZY | RTLD_LOCAL);

        if (h == NULL)
            SKIP("%s is not installed", i ? "libudev.so.1" : "libdrm.so.2");
        dlclose(h);
    }
    drm_opens = udev_opens = 0;
    CHECK(pthread_atfork(glmux_lifecycle_fork_prepare, glmux_lifecycle_fork_parent,
                         glmux_lifecycle_fork_child) == 0);
    CHECK(pipe(pipefd) == 0);
    signal_fd = pipefd[1];
    CHECK(pthread_create(&thread, NULL, load, &libs) == 0);
    CHECK(read(pipefd[0], text, 1) == 1);
    for (int i = 0; i < CHILDREN; i++) {
        errs[i] = tmpfile();
        CHECK(errs[i] != NULL);
        fflush(NULL);
        pids[i] = fork();
        CHECK(pids[i] >= 0);
        if (pids[i] == 0)
            child(errs[i]);
        usleep(100 * 1000);
    }
    for (int i = 0; i < CHILDREN; i++) {
        int status;
        size_t n;

        CHECK(waitpid(pids[i], &status, 0) == pids[i]);
        rewind(errs[i]);
        n = fread(text, 1, sizeof(text) - 1, errs[i]);
        text[n] = '\0';
        drop_thread_notice(text);
        n = strlen(text);
        CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d: status 0x%x: %s",
                  i, status, text);
        CHECK_MSG(n == 0, "child %d wrote: %s", i, text);
        fclose(errs[i]);
    }
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(libs != NULL && libs->have_drm && libs->have_udev);
    CHECK(atomic_load(&drm_opens) == 1 && atomic_load(&udev_opens) == 1);
    return 0;
}
