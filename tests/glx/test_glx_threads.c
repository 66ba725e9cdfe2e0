/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: several threads making GLX contexts of two vendors current in a loop. Each
 * thread owns one context on screen 0 (fakea) and one on screen 1 (fakeb) and alternates
 * between them; after every switch glGetString must come from the right vendor and context.
 * Some threads exit with a context still current. Then a failed switch of vendors: while
 * another thread holds a fakeb context, making it current here fails in fakeb, and libGLX puts
 * this thread's fakea context back (GL calls reach it again). Then fork: the child starts with
 * no current context and can make one current; the parent keeps its own.
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

/* Holds a context current on a thread of its own until told to let go. */
struct holder {
    Display *dpy;
    GLXContext ctx;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int state;                  /* 0 starting, 1 holding (or 2 failed), 3 told to release */
};

static void *hold(void *data)
{
    struct holder *h = data;
    int got = glXMakeCurrent(h->dpy, None, h->ctx) ? 1 : 2;

    pthread_mutex_lock(&h->lock);
    h->state = got;
    pthread_cond_broadcast(&h->cond);
    while (h->state != 3)
        pthread_cond_wait(&h->cond, &h->lock);
    pthread_mutex_unlock(&h->lock);
    if (got == 1)
        glXMakeCurrent(h->dpy, None, NULL);
    return NULL;
}

/* Switching from this thread's fakea context to a fakeb context that fakeb refuses (current
 * on another thread): glXMakeCurrent fails and the fakea context is current again. */
static void check_restore_after_failed_switch(Display *dpy, GLXContext mine, int my_id,
                                              GLXContext theirs)
{
    struct holder h = {.dpy = dpy, .ctx = theirs, .lock = PTHREAD_MUTEX_INITIALIZER,
                       .cond = PTHREAD_COND_INITIALIZER};
    pthread_t thread;
    char want[64];
    const char *r;

    CHECK(glXMakeCurrent(dpy, None, mine));
    CHECK(pthread_create(&thread, NULL, hold, &h) == 0);
    pthread_mutex_lock(&h.lock);
    while (h.state == 0)
        pthread_cond_wait(&h.cond, &h.lock);
    pthread_mutex_unlock(&h.lock);
    CHECK_MSG(h.state == 1, "the holder thread could not make its context current");

    CHECK(!glXMakeCurrent(dpy, None, theirs));
    CHECK(glXGetCurrentContext() == mine);
    snprintf(want, sizeof(want), "fakea ctx %d", my_id);
    r = (const char *)glGetString(GL_RENDERER);
    CHECK_MSG(r != NULL && strcmp(r, want) == 0, "after the failed switch: \"%s\"",
              r ? r : "(null)");

    pthread_mutex_lock(&h.lock);
    h.state = 3;
    pthread_cond_broadcast(&h.cond);
    pthread_mutex_unlock(&h.lock);
    CHECK(pthread_join(thread, NULL) == 0);
    /* Once released there, it can be made current here. */
    CHECK(glXMakeCurrent(dpy, None, theirs));
    CHECK(strcmp((const char *)glGetString(GL_VENDOR), "fakeb") == 0);
    CHECK(glXMakeCurrent(dpy, None, NULL));
}

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
    check_restore_after_failed_switch(dpy, jobs[0].ctx[0], jobs[0].id[0], jobs[1].ctx[1]);
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
