/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL test: fork() while another thread loads the vendors. The vendors are
 * fake0, fakeslow (its __egl_Main signals, then sleeps) and fake1, in that order. A thread
 * starts the load; while fakeslow's __egl_Main sleeps the main thread forks three children.
 * Each child must finish the list its parent was making, once: the same vendors in the same
 * order (the platform extensions of the client extension string follow the vendor list),
 * render with the first (glGetString names the vendor), write nothing to stderr (no "no EGL
 * vendor library loaded", no sanitizer report: a child exits through exit(), so
 * LeakSanitizer checks it), and exit 0. The parent ends with the same list.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "egl_fake.h"
#include "glmux_test.h"

#include <GL/gl.h>

#define CHILDREN 3
static const char expected[] = "fake0 fakeslow fake1";

/* The vendors, in list order, from their EGL_FAKE_platform_<name> extensions. */
static void vendor_order(char *out, size_t size)
{
    const char *s = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    const char *p = s;
    size_t len = 0;

    CHECK(s != NULL);
    out[0] = '\0';
    while ((p = strstr(p, "EGL_FAKE_platform_")) != NULL) {
        size_t n;

        p += strlen("EGL_FAKE_platform_");
        n = strcspn(p, " ");
        len += (size_t)snprintf(out + len, size - len, "%s%.*s", len ? " " : "", (int)n, p);
        CHECK(len < size);
    }
}

static void *load(void *arg)
{
    vendor_order(arg, 256);
    return NULL;
}

static void render(void)
{
    EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    EGLConfig config;
    EGLContext ctx;
    EGLint n = 0;

    CHECK(dpy != EGL_NO_DISPLAY && eglInitialize(dpy, NULL, NULL));
    CHECK(eglBindAPI(EGL_OPENGL_API));
    CHECK(eglChooseConfig(dpy, NULL, &config, 1, &n) && n == 1);
    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL);
    CHECK(ctx != EGL_NO_CONTEXT);
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
    CHECK_MSG(strcmp((const char *)glGetString(GL_VENDOR), "fake0") == 0, "rendered by %s",
              (const char *)glGetString(GL_VENDOR));
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglDestroyContext(dpy, ctx));
    CHECK(eglTerminate(dpy));
}

static void child(FILE *err)
{
    char order[256];

    /* Whatever the child writes to stderr (glmux's messages, sanitizer reports) goes to err. */
    CHECK(dup2(fileno(err), STDERR_FILENO) == STDERR_FILENO);
    vendor_order(order, sizeof(order));
    CHECK_MSG(strcmp(order, expected) == 0, "child's vendors: %s", order);
    render();
    exit(0);
}

int main(void)
{
    char order[256] = "", signal_fd[16], text[4096];
    pthread_t thread;
    int pipefd[2];

    alarm(60);
    CHECK(pipe(pipefd) == 0);
    snprintf(signal_fd, sizeof(signal_fd), "%d", pipefd[1]);
    CHECK(setenv("FAKE_EGL_SLOW_FD", signal_fd, 1) == 0);
    CHECK(pthread_create(&thread, NULL, load, order) == 0);
    /* fakeslow's __egl_Main has started: fake0 is loaded, fake1 not yet. */
    CHECK(read(pipefd[0], text, 1) == 1);
    glmux_test_fork_children(CHILDREN, child);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_MSG(strcmp(order, expected) == 0, "parent's vendors: %s", order);
    render();
    return 0;
}
