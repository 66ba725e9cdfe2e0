/* SPDX-License-Identifier: MIT */
/*
 * glmux unit test: GLMUX_DEBUG_FILE is created with mode 0600 whatever the umask, and a
 * symbolic link at its path is never followed (issue 9, item 9); control characters in a
 * message are escaped (item 10). The log configuration is read once per process, so each case
 * runs in a child of its own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "glmux_test.h"
#include "util/log.h"

/* Runs glmux_log once in a child with GLMUX_DEBUG_FILE=path and umask 0. */
static void log_in_child(const char *path, const char *message)
{
    int status;
    pid_t pid = fork();

    CHECK(pid >= 0);
    if (pid == 0) {
        umask(0);
        setenv("GLMUX_DEBUG_FILE", path, 1);
        setenv("GLMUX_DEBUG", "warn", 1);
        glmux_log(GLMUX_LOG_WARN, "%s", message);
        _exit(0);
    }
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
    char dir[] = "/tmp/glmux-logfile-XXXXXX";
    char log[256], target[256], link[256], text[256];
    struct stat st;
    int fd;
    ssize_t n;

    CHECK(mkdtemp(dir) != NULL);
    snprintf(log, sizeof(log), "%s/debug.log", dir);
    snprintf(target, sizeof(target), "%s/victim", dir);
    snprintf(link, sizeof(link), "%s/link.log", dir);

    /* A new file is private to the user, even with umask 0. */
    log_in_child(log, "hello from the child");
    CHECK(stat(log, &st) == 0);
    CHECK_MSG((st.st_mode & 0777) == 0600, "mode %o", (unsigned)(st.st_mode & 0777));
    fd = open(log, O_RDONLY);
    CHECK(fd >= 0);
    n = read(fd, text, sizeof(text) - 1);
    close(fd);
    CHECK(n > 0);
    text[n] = '\0';
    CHECK(strcmp(text, "glmux: hello from the child\n") == 0);

    /* Control characters and invalid UTF-8 in a message are escaped; UTF-8 text is kept. */
    unlink(log);
    log_in_child(log, "a\x1b[31mb\r\nc\xff\xc2\x9b d\xc3\xa9");
    fd = open(log, O_RDONLY);
    CHECK(fd >= 0);
    n = read(fd, text, sizeof(text) - 1);
    close(fd);
    CHECK(n > 0);
    text[n] = '\0';
    CHECK_MSG(strcmp(text, "glmux: a\\x1b[31mb\\x0d\\x0ac\\xff\\xc2\\x9b d\xc3\xa9\n") == 0,
              "%s", text);

    /* A symlink is refused: the file it points at is neither created nor written. */
    CHECK(symlink(target, link) == 0);
    log_in_child(link, "hello");
    CHECK(lstat(target, &st) != 0 && errno == ENOENT);
    fd = open(target, O_WRONLY | O_CREAT, 0600);
    CHECK(fd >= 0);
    close(fd);
    log_in_child(link, "hello");
    CHECK(stat(target, &st) == 0 && st.st_size == 0);

    unlink(link);
    unlink(target);
    unlink(log);
    rmdir(dir);
    return 0;
}
