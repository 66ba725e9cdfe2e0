/* SPDX-License-Identifier: MIT */
/*
 * glmux unit test: fork() while another thread logs. The child's first log
 * call must not wait for a lock the parent's other thread held at the moment of the fork. Each
 * child logs and exits; the parent reaps it. A child that blocks is a hang, which the alarm
 * turns into a failure (a guard, not a timing assertion).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "glmux_test.h"
#include "util/log.h"

#define FORKS 300

static atomic_bool stop;
static pid_t current_child;

static void *logger(void *arg)
{
    unsigned long n = 0;

    (void)arg;
    while (!atomic_load(&stop))
        glmux_log(GLMUX_LOG_WARN, "background message %lu from the logging thread", n++);
    return NULL;
}

static void on_alarm(int sig)
{
    static const char msg[] = "test_log_fork: a forked child blocked in glmux_log\n";
    (void)sig;
    if (current_child > 0)
        kill(current_child, SIGKILL);
    (void)!write(2, msg, sizeof(msg) - 1);
    _exit(1);
}

int main(void)
{
    pthread_t thread;

    /* Messages go to a file of the test's own (ctest sets GLMUX_DEBUG_FILE), not the terminal. */
    CHECK(glmux_log_enabled(GLMUX_LOG_WARN));
    signal(SIGALRM, on_alarm);
    alarm(120);
    CHECK(pthread_create(&thread, NULL, logger, NULL) == 0);
    for (int i = 0; i < FORKS; i++) {
        int status;
        pid_t pid = fork();

        CHECK(pid >= 0);
        if (pid == 0) {
            glmux_log(GLMUX_LOG_WARN, "child %d logs after fork", i);
            _exit(0);
        }
        current_child = pid;
        CHECK(waitpid(pid, &status, 0) == pid);
        CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d status %d", i, status);
    }
    atomic_store(&stop, true);
    pthread_join(thread, NULL);
    return 0;
}
