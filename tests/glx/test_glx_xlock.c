/* SPDX-License-Identifier: MIT */
/*
 * glmux GLX test: libGLX holds no lock of its own across Xlib. A thread holds XLockDisplay(dpy)
 * and calls GLX functions on dpy while another thread makes the first GLX call on the same
 * display, 100 times, each time on a newly opened display (so that every run builds libGLX's
 * record of the display anew). The first call adds an Xlib extension record and asks the
 * server about GLX; if libGLX held its lock meanwhile, that thread would wait in Xlib for the
 * display lock while the lock's owner waited in libGLX: a deadlock, which the watchdog turns
 * into a failure instead of a hang. Both threads must see the same GLX answers, and the
 * client string names the expected vendor (argument 2: the fake vendors, or Debian's Mesa).
 * Every tenth run the holder also forks meanwhile: the child, whose copy of the display is
 * locked for good, must still get through libGLX's locks (glXGetProcAddress of a name it has
 * to record, glXGetCurrentContext) and exit; a child that hangs trips the watchdog.
 *   test_glx_xlock SERVER VENDOR-SUBSTRING     (SERVER: "one" or "two", xvfb_fixture.sh)
 */
#include <pthread.h>
#include <sys/wait.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <GL/glx.h>

#include "glmux_test.h"
#include "glx_test_x.h"

#define RUNS 100
#define WATCHDOG_SECONDS 30 /* per run; a run takes milliseconds */

struct answer {
    Display *dpy;
    Bool has_glx;
    int error_base, event_base;
    const char *vendor;
};

static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t progress_cond = PTHREAD_COND_INITIALIZER;
static int progress;            /* runs completed */
static int finished;

/* Fails the test when a run makes no progress for WATCHDOG_SECONDS: a deadlock. */
static void *watchdog(void *unused)
{
    int seen = -1;

    (void)unused;
    pthread_mutex_lock(&progress_lock);
    while (!finished) {
        struct timespec t;

        if (progress == seen) {
            fprintf(stderr, "FAIL: run %d of %d did not finish in %d s: a thread holding "
                    "XLockDisplay and one making the first GLX call wait for each other "
                    "(a lock of libGLX held across Xlib)\n", progress + 1, RUNS,
                    WATCHDOG_SECONDS);
            _exit(1);
        }
        seen = progress;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_sec += WATCHDOG_SECONDS;
        while (!finished && progress == seen &&
               pthread_cond_timedwait(&progress_cond, &progress_lock, &t) == 0)
            ;
    }
    pthread_mutex_unlock(&progress_lock);
    return NULL;
}

static void ask(struct answer *a)
{
    a->has_glx = glXQueryExtension(a->dpy, &a->error_base, &a->event_base);
    a->vendor = glXGetClientString(a->dpy, GLX_VENDOR);
}

/* fork() while the other thread may be inside its first GLX call: the child uses libGLX. */
static void fork_and_check(int run)
{
    pid_t pid = fork();
    int status;

    CHECK(pid >= 0);
    if (pid == 0) {
        /* A name no vendor knows: recorded under the load lock (a generated stub, or NULL). */
        glXGetProcAddress((const GLubyte *)"glXGlmuxNoSuchFunction");
        _exit(glXGetCurrentContext() == NULL ? 0 : 3);
    }
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "run %d: the child forked meanwhile failed (status 0x%x)", run, status);
}

/* The other thread: its first call is the display's first GLX call, unless the holder's is. */
static void *first_call(void *data)
{
    ask(data);
    return NULL;
}

int main(int argc, char **argv)
{
    const char *server = argc > 1 ? argv[1] : "two";
    const char *want = argc > 2 ? argv[2] : "";
    pthread_t dog;

    CHECK(XInitThreads());
    glmux_test_require_ours("libGLX.so.0");
    CHECK(pthread_create(&dog, NULL, watchdog, NULL) == 0);
    for (int run = 0; run < RUNS; run++) {
        Display *dpy = glx_test_open(server);
        struct answer holder = {.dpy = dpy}, other = {.dpy = dpy};
        int major = 0, minor = 0;
        pthread_t thread;

        /* Even runs: the display is locked before the other thread starts, so that its first
         * GLX call meets the lock (the short sleep only makes that likelier); odd runs: the
         * other thread may be anywhere in its first call when the lock is taken. */
        if (run % 2 == 0)
            XLockDisplay(dpy);
        CHECK(pthread_create(&thread, NULL, first_call, &other) == 0);
        if (run % 2 == 0)
            usleep(1000);
        else
            XLockDisplay(dpy);
        if (run % 10 == 0)
            fork_and_check(run);
        ask(&holder);
        CHECK_MSG(glXQueryVersion(dpy, &major, &minor) && major == 1,
                  "run %d: glXQueryVersion with XLockDisplay held", run);
        XUnlockDisplay(dpy);
        CHECK(pthread_join(thread, NULL) == 0);

        CHECK_MSG(holder.has_glx && other.has_glx, "run %d: glXQueryExtension said no GLX", run);
        CHECK_MSG(holder.error_base == other.error_base &&
                  holder.event_base == other.event_base,
                  "run %d: the threads got different GLX bases (%d/%d, %d/%d)", run,
                  holder.error_base, other.error_base, holder.event_base, other.event_base);
        CHECK_MSG(holder.vendor != NULL && other.vendor != NULL &&
                  strcmp(holder.vendor, other.vendor) == 0 && strstr(holder.vendor, want),
                  "run %d: GLX_VENDOR \"%s\" / \"%s\", wanted one with \"%s\"", run,
                  holder.vendor ? holder.vendor : "(null)",
                  other.vendor ? other.vendor : "(null)", want);
        XCloseDisplay(dpy);
        pthread_mutex_lock(&progress_lock);
        progress++;
        pthread_cond_broadcast(&progress_cond);
        pthread_mutex_unlock(&progress_lock);
    }
    pthread_mutex_lock(&progress_lock);
    finished = 1;
    pthread_cond_broadcast(&progress_cond);
    pthread_mutex_unlock(&progress_lock);
    CHECK(pthread_join(dog, NULL) == 0);
    printf("%d runs: XLockDisplay in one thread, the first GLX call in another\n", RUNS);
    return 0;
}
