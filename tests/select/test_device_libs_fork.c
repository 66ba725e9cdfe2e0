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
    glmux_test_fork_children(CHILDREN, child);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(libs != NULL && libs->have_drm && libs->have_udev);
    CHECK(atomic_load(&drm_opens) == 1 && atomic_load(&udev_opens) == 1);
    return 0;
}
