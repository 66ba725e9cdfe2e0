/* SPDX-License-Identifier: MIT */
/*
 * glmux unit test: GLMUX_DEBUG_FILE is created with mode 0600 whatever the umask, and a
 * symbolic link at its path is never followed, nor one anywhere among its directories (another
 * user could point it at a file of the program's); control characters in a message are
 * escaped, and so are the outside strings of the log's own messages, the bad GLMUX_DEBUG token
 * and the GLMUX_DEBUG_FILE path (they could rewrite the terminal). The log configuration is
 * read once per process, so each case runs in a child of its own, whose stderr goes to a file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "glmux_test.h"
#include "util/escape.h"
#include "util/log.h"

static char dir[PATH_MAX];
static char err_path[PATH_MAX + 16];

/* The whole of a small file, NUL-terminated, in a static buffer ("" when missing). */
static const char *slurp(const char *path)
{
    static char text[4096];
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : 0;

    if (fd >= 0)
        close(fd);
    text[n > 0 ? n : 0] = '\0';
    return text;
}

/*
 * Runs glmux_log once in a child with GLMUX_DEBUG_FILE=path (unset when NULL), GLMUX_DEBUG=debug
 * and umask 0; its stderr is written to err_path.
 */
static void log_in_child(const char *path, const char *debug, const char *message)
{
    int status;
    pid_t pid = fork();

    CHECK(pid >= 0);
    if (pid == 0) {
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
            _exit(3);
        umask(0);
        if (path != NULL)
            setenv("GLMUX_DEBUG_FILE", path, 1);
        else
            unsetenv("GLMUX_DEBUG_FILE");
        setenv("GLMUX_DEBUG", debug, 1);
        glmux_log(GLMUX_LOG_WARN, "%s", message);
        _exit(0);
    }
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* No terminal control byte (ESC, BEL, CSI...) and no line but those the log wrote. */
static void check_clean(const char *text, int lines)
{
    int n = 0;

    for (const char *p = text; *p; p++) {
        CHECK_MSG(*p == '\n' || (unsigned char)*p >= 0x20, "control byte 0x%02x in %s", *p, text);
        n += *p == '\n';
    }
    CHECK_MSG(n == lines, "%d lines instead of %d: %s", n, lines, text);
}

static void test_escaper(void)
{
    char buf[16], out[64];
    size_t used, n;

    /* Lines kept or escaped; a cut character waits with GLMUX_ESCAPE_PARTIAL, not without. */
    n = glmux_escape("a\nb\t\x1b", 5, GLMUX_ESCAPE_KEEP_LINES, out, sizeof(out), &used);
    CHECK(used == 5 && n == 8 && memcmp(out, "a\nb\t\\x1b", 8) == 0);
    n = glmux_escape("a\nb", 3, 0, out, sizeof(out), &used);
    CHECK(used == 3 && n == 6 && memcmp(out, "a\\x0ab", 6) == 0);
    n = glmux_escape("x\xc3", 2, GLMUX_ESCAPE_PARTIAL, out, sizeof(out), &used);
    CHECK(used == 1 && n == 1);
    n = glmux_escape("x\xc3", 2, 0, out, sizeof(out), &used);
    CHECK(used == 2 && n == 5 && memcmp(out, "x\\xc3", 5) == 0);
    CHECK(glmux_escape("\xc3\xa9\x07", 3, 0, NULL, 0, NULL) == 6);
    /* Only whole escapes fit: 2 bytes of room take "a" but not "\x07". */
    n = glmux_escape("a\x07", 2, 0, out, 2, &used);
    CHECK(used == 1 && n == 1);
    CHECK(strcmp(glmux_escape_str("1\nforged", buf, sizeof(buf)), "1\\x0aforged") == 0);
    CHECK(strcmp(glmux_escape_str("\x1b\x1b\x1b\x1b", buf, 12), "\\x1b\\x1b...") == 0);
}

int main(void)
{
    char log[PATH_MAX + 16], target[PATH_MAX + 16], link[PATH_MAX + 16], real[PATH_MAX + 16];
    char linkdir[PATH_MAX + 16], via[PATH_MAX + 32], bad[PATH_MAX + 64];
    const char *text;
    struct stat st;
    int fd;

    test_escaper();
    snprintf(dir, sizeof(dir), "%s/glmux-logfile-XXXXXX", glmux_test_tmpdir());
    CHECK(mkdtemp(dir) != NULL);
    snprintf(err_path, sizeof(err_path), "%s/stderr", dir);
    snprintf(log, sizeof(log), "%s/debug.log", dir);
    snprintf(target, sizeof(target), "%s/victim", dir);
    snprintf(link, sizeof(link), "%s/link.log", dir);

    /* A new file is private to the user, even with umask 0. */
    log_in_child(log, "warn", "hello from the child");
    CHECK(stat(log, &st) == 0);
    CHECK_MSG((st.st_mode & 0777) == 0600, "mode %o", (unsigned)(st.st_mode & 0777));
    text = slurp(log);
    CHECK(strcmp(text, "glmux: hello from the child\n") == 0);

    /* Control characters and invalid UTF-8 in a message are escaped; UTF-8 text is kept. */
    unlink(log);
    log_in_child(log, "warn", "a\x1b[31mb\r\nc\xff\xc2\x9b d\xc3\xa9");
    text = slurp(log);
    CHECK_MSG(strcmp(text, "glmux: a\\x1b[31mb\\x0d\\x0ac\\xff\\xc2\\x9b d\xc3\xa9\n") == 0,
              "%s", text);

    /* A symlink is refused: the file it points at is neither created nor written. */
    CHECK(symlink(target, link) == 0);
    log_in_child(link, "warn", "hello");
    CHECK(lstat(target, &st) != 0 && errno == ENOENT);
    fd = open(target, O_WRONLY | O_CREAT, 0600);
    CHECK(fd >= 0);
    close(fd);
    log_in_child(link, "warn", "hello");
    CHECK(stat(target, &st) == 0 && st.st_size == 0);

    /* A symlinked directory anywhere in the path is refused as well, with the link named. */
    snprintf(real, sizeof(real), "%s/real", dir);
    snprintf(linkdir, sizeof(linkdir), "%s/linkdir", dir);
    snprintf(via, sizeof(via), "%s/linkdir/./sub/debug.log", dir);
    CHECK(mkdir(real, 0700) == 0);
    snprintf(bad, sizeof(bad), "%s/sub", real);
    CHECK(mkdir(bad, 0700) == 0);
    CHECK(symlink(real, linkdir) == 0);
    log_in_child(via, "warn", "through a linked directory");
    snprintf(bad, sizeof(bad), "%s/sub/debug.log", real);
    CHECK_MSG(lstat(bad, &st) != 0 && errno == ENOENT, "%s was written through %s", bad, linkdir);
    text = slurp(err_path);
    CHECK_MSG(strstr(text, "is a symbolic link, which glmux never follows") != NULL &&
              strstr(text, linkdir) != NULL && strstr(text, "through a linked directory"),
              "%s", text);
    /* ... while the same file reached without the link is written. */
    log_in_child(bad, "warn", "direct");
    CHECK(strcmp(slurp(bad), "glmux: direct\n") == 0);
    /* A relative path and "." or ".." components work. */
    CHECK(chdir(real) == 0);
    log_in_child("sub/../sub/./rel.log", "warn", "relative");
    snprintf(bad, sizeof(bad), "%s/sub/rel.log", real);
    CHECK(strcmp(slurp(bad), "glmux: relative\n") == 0);
    unlink(bad);
    snprintf(bad, sizeof(bad), "%s/sub/debug.log", real);
    unlink(bad);
    snprintf(bad, sizeof(bad), "%s/sub", real);
    rmdir(bad);

    /* The log's own messages escape what they quote: the bad GLMUX_DEBUG token... */
    log_in_child(NULL, "warn,\x1b]0;PWN\x07", "after");
    text = slurp(err_path);
    check_clean(text, 2);
    CHECK_MSG(strstr(text, "unknown GLMUX_DEBUG token \"\\x1b]0;PWN\\x07\"") != NULL, "%s", text);
    /* ... and the path of a debug file that cannot be opened (a newline cannot forge a line). */
    snprintf(bad, sizeof(bad), "%s/no-such-dir/x\x1b[2J\nglmux: forged", dir);
    log_in_child(bad, "warn", "after");
    text = slurp(err_path);
    check_clean(text, 2);
    CHECK_MSG(strstr(text, "x\\x1b[2J\\x0aglmux: forged: No such file or directory") != NULL,
              "%s", text);

    unlink(linkdir);
    rmdir(real);
    unlink(link);
    unlink(target);
    unlink(log);
    unlink(err_path);
    rmdir(dir);
    return 0;
}
