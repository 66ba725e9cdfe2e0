/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: fork() while another thread builds libGLX's GPU selector and vendor list (its
 * once-gate, glx_selector.c). opendir is interposed: the first look into GLMUX_VENDOR_DIRS
 * signals and sleeps. A thread makes the display's first GLX call; while it reads the vendor
 * directory the main thread forks two children. The fork waits for the selector (it reads only
 * the environment and manifests, with the gate's lock held), so each child finds it whole:
 * it renders on its own connection with the vendor the parent gets (the server's "mesa", a
 * fake), writes nothing to stderr and exits through exit() (LeakSanitizer checks it). The
 * parent's thread is mid-call in every child (its locals, e.g. the server's vendor names that
 * libGLX frees after trying them, are on its stack), so under LeakSanitizer the child scans that
 * stack, which fork() copied but no thread of the child runs on, as a root region.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "glmux_test.h"
#include "glx_test_x.h"

#define CHILDREN 2

static int signal_fd = -1;
static int release[2];   /* the thread lives on until the children are done (ThreadSanitizer
                          * calls a finished, unjoined thread of the parent a leak in a child) */
static atomic_int dir_opens;
static Display *thread_dpy;   /* a global: LeakSanitizer in a child scans it, not the stack */
static char parent_vendor[64];

__attribute__((visibility("default"))) DIR *opendir(const char *name)
{
    DIR *(*real)(const char *) = (DIR * (*)(const char *)) dlsym(RTLD_NEXT, "opendir");
    const char *dirs = getenv("GLMUX_VENDOR_DIRS");

    if (dirs != NULL && strcmp(name, dirs) == 0 &&
        atomic_fetch_add(&dir_opens, 1) == 0 && signal_fd >= 0) {
        (void)!write(signal_fd, "o", 1);
        usleep(500 * 1000);
    }
    return real(name);
}

static void *first_call(void *arg)
{
    char done;

    (void)arg;
    glmux_test_fork_keeps_thread_stack();
    thread_dpy = glx_test_open("one");
    CHECK(glx_test_screen_vendor(thread_dpy, 0, parent_vendor, sizeof(parent_vendor)));
    CHECK(read(release[0], &done, 1) == 1);
    return NULL;
}

static void child(FILE *err)
{
    static Display *dpy;
    char vendor[64];

    CHECK(dup2(fileno(err), STDERR_FILENO) == STDERR_FILENO);
    dpy = glx_test_open("one");
    CHECK(glx_test_screen_vendor(dpy, 0, vendor, sizeof(vendor)));
    CHECK_MSG(strcmp(vendor, "mesa") == 0, "child's vendor: %s", vendor);
    XCloseDisplay(dpy);
    exit(0);
}

int main(void)
{
    pthread_t thread;
    char text[4096];
    int pipefd[2];

    alarm(60);
    CHECK(getenv("GLMUX_VENDOR_DIRS") != NULL);
    CHECK(pipe(pipefd) == 0 && pipe(release) == 0);
    signal_fd = pipefd[1];
    CHECK(pthread_create(&thread, NULL, first_call, NULL) == 0);
    CHECK(read(pipefd[0], text, 1) == 1);
    glmux_test_fork_children(CHILDREN, child);
    CHECK(write(release[1], "r", 1) == 1);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_MSG(strcmp(parent_vendor, "mesa") == 0, "parent's vendor: %s", parent_vendor);
    /* The vendor directory was read once in the parent; the children read it never. */
    CHECK(atomic_load(&dir_opens) == 1);
    XCloseDisplay(thread_dpy);
    return 0;
}
