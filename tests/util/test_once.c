/* SPDX-License-Identifier: MIT */
/*
 * glmux unit test: the once-gate (util/once.h) across fork(). A thread runs a two-step
 * routine and waits between the steps while the main thread forks: the child's first call
 * resumes the routine (the first step ran once, in the parent; the second runs once, in the
 * child), as libEGL's vendor load and the device libraries do. A routine run with the gate's
 * lock held (libGLX's selector) makes the fork wait: the child finds it done, run once. The
 * forking thread's own run goes on in its child; a call from inside the routine returns.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "glmux_test.h"
#include "util/once.h"

static struct glmux_once resumable = GLMUX_ONCE_INIT, locked = GLMUX_ONCE_INIT,
                         inner = GLMUX_ONCE_INIT;
static atomic_int in_step, release_step;
static int step1_runs, step2_runs, locked_runs, inner_runs;
static bool step1_done, inner_recursed;

static void prepare(void)
{
    glmux_once_fork(&resumable, GLMUX_FORK_PREPARE);
    glmux_once_fork(&locked, GLMUX_FORK_PREPARE);
    glmux_once_fork(&inner, GLMUX_FORK_PREPARE);
}

static void parent(void)
{
    glmux_once_fork(&inner, GLMUX_FORK_PARENT);
    glmux_once_fork(&locked, GLMUX_FORK_PARENT);
    glmux_once_fork(&resumable, GLMUX_FORK_PARENT);
}

static void child(void)
{
    glmux_once_fork(&inner, GLMUX_FORK_CHILD);
    glmux_once_fork(&locked, GLMUX_FORK_CHILD);
    glmux_once_fork(&resumable, GLMUX_FORK_CHILD);
}

/* Step 1, then (the first time) wait for the main thread's fork, then step 2. */
static void two_steps(void)
{
    if (!step1_done) {
        glmux_once_lock(&resumable);
        step1_runs++;
        step1_done = true;
        glmux_once_unlock(&resumable);
    }
    if (atomic_load(&release_step) == 0) {
        atomic_store(&in_step, 1);
        while (atomic_load(&release_step) == 0)
            usleep(1000);
    }
    glmux_once_lock(&resumable);
    step2_runs++;
    glmux_once_unlock(&resumable);
}

static void slow_locked(void)
{
    atomic_store(&in_step, 1);
    usleep(200 * 1000);
    locked_runs++;
}

static void *run_resumable(void *arg)
{
    (void)arg;
    glmux_once_run(&resumable, two_steps);
    return NULL;
}

static void *run_locked(void *arg)
{
    (void)arg;
    glmux_once_run_fork_waits(&locked, slow_locked);
    return NULL;
}

static void wait_child(pid_t pid)
{
    int status;

    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
}

/* A routine that forks itself: the child's run goes on; and calls its own gate. */
static void forks_inside(void)
{
    pid_t pid;

    glmux_once_run(&inner, forks_inside);   /* from inside: returns at once */
    inner_recursed = true;
    pid = fork();
    CHECK(pid >= 0);
    inner_runs++;
    if (pid == 0)
        return;   /* the child finishes the run, main() checks it */
    wait_child(pid);
}

int main(void)
{
    pthread_attr_t detached;
    pthread_t thread;
    pid_t pid;

    alarm(60);
    CHECK(pthread_atfork(prepare, parent, child) == 0);

    /* Resumable: fork between the steps. */
    CHECK(pthread_create(&thread, NULL, run_resumable, NULL) == 0);
    while (atomic_load(&in_step) == 0)
        usleep(1000);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        CHECK(!glmux_once_done(&resumable));
        atomic_store(&release_step, 1);
        glmux_once_run(&resumable, two_steps);
        CHECK(glmux_once_done(&resumable));
        CHECK_MSG(step1_runs == 1 && step2_runs == 1, "child: step 1 ran %d times, step 2 %d",
                  step1_runs, step2_runs);
        glmux_once_run(&resumable, two_steps);
        CHECK(step2_runs == 1);
        exit(0);
    }
    atomic_store(&release_step, 1);
    CHECK(pthread_join(thread, NULL) == 0);
    wait_child(pid);
    CHECK(glmux_once_done(&resumable) && step1_runs == 1 && step2_runs == 1);

    /* Run with the lock held: the fork waits for it. The thread is detached from the start:
     * the fork lets it go on once the routine is done, and it may end before fork() copies
     * the process. A finished, unjoined thread of the parent would be a leak in the child's
     * exit to ThreadSanitizer (the child cannot join it: it is not there); a detached one is
     * none. The fork having waited for the routine, both processes find it done at once. */
    atomic_store(&in_step, 0);
    CHECK(pthread_attr_init(&detached) == 0 &&
          pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED) == 0);
    CHECK(pthread_create(&thread, &detached, run_locked, NULL) == 0);
    CHECK(pthread_attr_destroy(&detached) == 0);
    while (atomic_load(&in_step) == 0)
        usleep(1000);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        CHECK(glmux_once_done(&locked) && locked_runs == 1);
        glmux_once_run_fork_waits(&locked, slow_locked);
        CHECK(locked_runs == 1);
        exit(0);
    }
    CHECK(glmux_once_done(&locked) && locked_runs == 1);
    wait_child(pid);
    CHECK(locked_runs == 1);

    /* The forking thread's own run. */
    glmux_once_run(&inner, forks_inside);
    CHECK(glmux_once_done(&inner) && inner_recursed);
    if (inner_runs != 1)
        exit(1);   /* never: each process counts its own run once */
    return 0;
}
