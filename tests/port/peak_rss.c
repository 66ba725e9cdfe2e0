/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: runs a command and prints its peak resident set size in KiB on stderr as
 * "peak_rss_kib N", passing its stdout through and exiting with its status. A small C parent,
 * because the kernel counts the pages a child had before exec: measured from Python, every
 * child would start at the interpreter's size.
 *   peak_rss COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct rusage ru;
    int status;
    pid_t pid;

    if (argc < 2) {
        fprintf(stderr, "usage: peak_rss COMMAND [ARG...]\n");
        return 2;
    }
    pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("wait4");
        return 2;
    }
    fprintf(stderr, "peak_rss_kib %ld\n", ru.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
