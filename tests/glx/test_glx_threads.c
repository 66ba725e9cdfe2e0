/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: several threads making GLX contexts of two vendors current in a loop. Each
 * thread owns one context on screen 0 (fakea) and one on screen 1 (fakeb) and alternates
 * between them; after every switch glGetString must come from the right vendor and context.
 * Some threads exit with a context still current. Then fork: the child starts with no current
 * context and can make one current; the parent keeps its own.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <GL/gl.h>
#include <GL/glx.h>

#include "fake_vendor.h"
#include "glmux_test.h"
#include "glx_test_x.h"

#define THREADS 4
#define ITERATIONS 2000

struct job {
    Display *dpy;
    GLXContext ctx[2];
    int id[2];
    int failures;
};

static void *run(void *data)
{
    struct job *job = data;
    char want[64];

    for (int i = 0; i < ITERATIONS; i++) {
        int s = i & 1;
        const char *r;

        if (!glXMakeCurrent(job->dpy, None, job->ctx[s])) {
            job->failures++;
            continue;
        }
        snprintf(want, sizeof(want), "fake%c ctx %d", "ab"[s], job->id[s]);
        r = (const char *)glGetString(GL_RENDERER);
        if (r == NULL || strcmp(r, want) != 0 || glXGetCurrentContext() != job->ctx[s])
            job->failures++;
        if (i % 7 == 0 && !glXMakeCurrent(job->dpy, None, NULL))
            job->failures++;
    }
    /* Odd threads exit with a context current: libGLdispatch's thread-exit hook cleans up. */
    if (job->id[0] % 2 == 0)
        glXMakeCurrent(job->dpy, None, NULL);
    return NULL;
}

int main(void)
{
    struct job jobs[THREADS];
    pthread_t threads[THREADS];
    Display *dpy;
    GLXFBConfig *configs[2];
    int n;

    XInitThreads();
    dpy = glx_test_open("two");
    glmux_test_require_ours("libGLX.so.0");
    glmux_test_require_ours("libGLdispatch.so.0");
    for (int s = 0; s < 2; s++) {
        configs[s] = glXChooseFBConfig(dpy, s, NULL, &n);
        CHECK(configs[s] != NULL && n > 0);
    }
    for (int t = 0; t < THREADS; t++) {
        jobs[t].dpy = dpy;
        jobs[t].failures = 0;
        for (int s = 0; s < 2; s++) {
            jobs[t].ctx[s] = glXCreateNewContext(dpy, configs[s][0], GLX_RGBA_TYPE, NULL, True);
            CHECK(jobs[t].ctx[s] != NULL);
            CHECK(glXQueryContext(dpy, jobs[t].ctx[s], FAKE_ATTRIB_ID, &jobs[t].id[s]) == Success);
        }
    }
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, run, &jobs[t]) == 0);
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK_MSG(jobs[t].failures == 0, "thread %d: %d failures", t, jobs[t].failures);
    }
    {
        pid_t pid;
        int status = -1;

        CHECK(glXMakeCurrent(dpy, None, jobs[0].ctx[0]));
        pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
            const char *v;

            if (glXGetCurrentContext() != NULL || glGetString(GL_VENDOR) != NULL)
                _exit(3);
            /* job 1 released its contexts before its thread ended */
            if (!glXMakeCurrent(dpy, None, jobs[1].ctx[1]))
                _exit(4);
            v = (const char *)glGetString(GL_VENDOR);
            _exit(v != NULL && strcmp(v, "fakeb") == 0 ? 0 : 5);
        }
        CHECK(waitpid(pid, &status, 0) == pid);
        CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
        CHECK(glXGetCurrentContext() == jobs[0].ctx[0]);
        CHECK(strcmp((const char *)glGetString(GL_VENDOR), "fakea") == 0);
        CHECK(glXMakeCurrent(dpy, None, NULL));
    }
    for (int t = 0; t < THREADS; t++) {
        glXDestroyContext(dpy, jobs[t].ctx[0]);
        glXDestroyContext(dpy, jobs[t].ctx[1]);
    }
    XFree(configs[0]);
    XFree(configs[1]);
    XCloseDisplay(dpy);
    return 0;
}
