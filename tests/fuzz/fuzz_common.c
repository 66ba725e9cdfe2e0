/* SPDX-License-Identifier: MIT */
/*
 * glmux: helpers shared by the fuzz targets (see fuzz.h), and the entry point libFuzzer and
 * driver.c call: it runs the target's input function and watches the open descriptors, so a
 * target that leaks one per input shows it in a short run instead of dying in a long one.
 */
#define _GNU_SOURCE
#define GLMUX_FUZZ_ENTRY
#include "fuzz.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The descriptors open after the first inputs, by number and what they point at, so that the
 * end can name the ones opened since. */
#define FD_SEEN_MAX 256

static unsigned long inputs;
static struct {
    int fd;
    char target[96];
} seen[FD_SEEN_MAX];
static int n_seen;

void glmux_fuzz_quiet_log(void)
{
    /* Every message is still formatted (GLMUX_DEBUG=all), so the formatting runs on fuzzed
     * text too; it just goes nowhere. The log reads these once, on its first message. */
    setenv("GLMUX_DEBUG", "all", 1);
    setenv("GLMUX_DEBUG_FILE", "/dev/null", 1);
}

/* Calls visit for each open descriptor but the directory's own; returns how many there are. */
static int each_fd(void (*visit)(int fd, const char *target))
{
    DIR *dir = opendir("/proc/self/fd");
    int n = 0;

    if (dir == NULL)
        return -1;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        char path[64], target[96];
        ssize_t len;
        int fd;

        if (e->d_name[0] == '.' || (fd = atoi(e->d_name)) == dirfd(dir))
            continue;
        n++;
        if (visit == NULL)
            continue;
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        len = readlink(path, target, sizeof(target) - 1);
        target[len < 0 ? 0 : len] = '\0';
        visit(fd, target);
    }
    closedir(dir);
    return n;
}

int glmux_fuzz_open_fds(void)
{
    return each_fd(NULL);
}

static void remember(int fd, const char *target)
{
    if (n_seen == FD_SEEN_MAX)
        return;
    seen[n_seen].fd = fd;
    snprintf(seen[n_seen].target, sizeof(seen[n_seen].target), "%s", target);
    n_seen++;
}

static void name_if_new(int fd, const char *target)
{
    for (int i = 0; i < n_seen; i++)
        if (seen[i].fd == fd && strcmp(seen[i].target, target) == 0)
            return;
    fprintf(stderr, "glmux-fuzz: descriptor %d opened since: %s\n", fd, target);
}

static void report_end(void)
{
    int n = glmux_fuzz_open_fds();

    fprintf(stderr, "glmux-fuzz: %d open descriptors at the end, after %lu inputs\n", n, inputs);
    if (n > n_seen && n - n_seen <= 32)
        each_fd(name_if_new);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int ret = glmux_fuzz_one_input(data, size);

    if (++inputs == GLMUX_FUZZ_FD_BASELINE) {
        fprintf(stderr, "glmux-fuzz: %d open descriptors after the first %d inputs\n",
                each_fd(remember), GLMUX_FUZZ_FD_BASELINE);
        atexit(report_end);
    }
    return ret;
}
