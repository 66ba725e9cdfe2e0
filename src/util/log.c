/* SPDX-License-Identifier: MIT */
/*
 * glmux: category logging to stderr or GLMUX_DEBUG_FILE (see log.h). The configuration is
 * read once, on the first message, under a pthread_once. There is no lock: each message is
 * formatted into a buffer of its own and leaves in one write(2), so lines from several
 * threads never interleave and a fork() while another thread logs cannot leave the child
 * waiting for a lock that nobody will release (issue 9, item 5). The debug file is opened
 * with O_NOFOLLOW and O_CLOEXEC and created with mode 0600: a symlink planted at its path is
 * refused, not followed.
 */
#define _GNU_SOURCE
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "utf8.h"

static const struct {
    const char *name;
    unsigned mask;
} log_tokens[] = {
    { "error", GLMUX_LOG_ERROR },   { "warn", GLMUX_LOG_WARN },
    { "info", GLMUX_LOG_INFO },     { "vendor", GLMUX_LOG_VENDOR },
    { "select", GLMUX_LOG_SELECT }, { "dispatch", GLMUX_LOG_DISPATCH },
    { "all", GLMUX_LOG_ALL },
};

static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static unsigned log_mask = GLMUX_LOG_DEFAULT;
static int log_fd = STDERR_FILENO;

unsigned glmux_log_parse(const char *spec, char *bad, size_t bad_size)
{
    unsigned mask = 0;
    const char *p = spec;

    if (bad_size > 0)
        bad[0] = '\0';
    if (spec == NULL)
        return GLMUX_LOG_DEFAULT;

    while (*p != '\0') {
        size_t len = strcspn(p, ",: ");
        bool known = false;

        for (size_t i = 0; i < sizeof(log_tokens) / sizeof(log_tokens[0]); i++) {
            if (strlen(log_tokens[i].name) == len && strncmp(p, log_tokens[i].name, len) == 0) {
                mask |= log_tokens[i].mask;
                known = true;
            }
        }
        if (!known && len > 0 && bad_size > 0 && bad[0] == '\0')
            snprintf(bad, bad_size, "%.*s", (int)len, p);
        p += len;
        if (*p != '\0')
            p++;
    }
    /* Errors are always worth seeing once somebody asked for debugging. */
    return mask | GLMUX_LOG_ERROR;
}

/* Writes all of text to fd; a message is one write unless the kernel splits it. */
static void write_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        text += n;
        len -= (size_t)n;
    }
}

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void log_line(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (n > 0)
        write_all(log_fd, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/*
 * Opens the debug file for appending: never through a symbolic link (O_NOFOLLOW), never
 * inherited by exec (O_CLOEXEC), created private to the user (0600), never blocking on a
 * FIFO. Returns -1 with errno set on failure.
 */
static int open_debug_file(const char *path)
{
    return open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK |
                          O_NOCTTY, 0600);
}

static void log_init(void)
{
    char bad[64];
    const char *path = glmux_env_get("GLMUX_DEBUG_FILE");

    log_mask = glmux_log_parse(glmux_env_get("GLMUX_DEBUG"), bad, sizeof(bad));
    if (path != NULL && *path != '\0') {
        int fd = open_debug_file(path);
        if (fd < 0)
            log_line("glmux: cannot open GLMUX_DEBUG_FILE=%s: %s%s; logging to stderr\n", path,
                     strerror(errno),
                     errno == ELOOP ? " (it is a symbolic link, which glmux never follows)" : "");
        else
            log_fd = fd;
    }
    if (bad[0] != '\0')
        log_line("glmux: unknown GLMUX_DEBUG token \"%s\"; valid tokens: "
                 "error,warn,info,vendor,select,dispatch,all\n",
                 bad);
}

bool glmux_log_enabled(unsigned category)
{
    pthread_once(&log_once, log_init);
    return (log_mask & category) != 0;
}

/* True when the byte at s[i] (of n) needs escaping: a control character or invalid UTF-8. */
static int unsafe_at(const char *s, size_t n, size_t i, size_t *len)
{
    uint32_t cp;
    int k = glmux_utf8_next((const unsigned char *)s + i, n - i, &cp);

    if (k <= 0) {
        *len = 1;
        return 1;
    }
    *len = (size_t)k;
    return cp == '\n' || cp == '\t' || glmux_utf8_is_control(cp);
}

/*
 * Messages quote environment values, file names and manifest strings: a control character
 * among them (ESC, CSI, CR, a newline) or a byte that is not UTF-8 is written as "\xNN" per
 * byte, so that a message is one line and cannot drive the terminal. *buf holds len bytes plus
 * room for one more; when escaping is needed it is replaced by a heap copy (freeing the old one
 * unless it is stack). Returns the new length; without memory the bytes become '?' in place.
 */
static size_t escape_controls(char **buf, size_t len, char *stack)
{
    static const char hex[] = "0123456789abcdef";
    size_t unsafe = 0, o = 0, k;
    char *in = *buf, *out;

    for (size_t i = 0; i < len; i += k)
        if (unsafe_at(in, len, i, &k))
            unsafe += k;
    if (unsafe == 0)
        return len;
    out = malloc(len + 3 * unsafe + 1);
    for (size_t i = 0; i < len; i += k) {
        if (!unsafe_at(in, len, i, &k)) {
            if (out != NULL)
                memcpy(out + o, in + i, k);
            o += k;
            continue;
        }
        for (size_t j = i; j < i + k; j++) {
            unsigned char c = (unsigned char)in[j];
            if (out == NULL) {
                in[j] = '?';
                continue;
            }
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    if (out == NULL)
        return len;
    if (in != stack)
        free(in);
    *buf = out;
    return o;
}

void glmux_log(unsigned category, const char *fmt, ...)
{
    static const char prefix[] = "glmux: ";
    char stack[1024], *buf = stack;
    size_t size = sizeof(stack), len;
    va_list ap;
    int n;

    if (!glmux_log_enabled(category))
        return;
    /* "glmux: " + message + "\n" in one buffer, so that it leaves in one write. */
    va_start(ap, fmt);
    n = vsnprintf(buf + sizeof(prefix) - 1, size - sizeof(prefix), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n + sizeof(prefix) >= size) {
        char *heap = malloc((size_t)n + sizeof(prefix));
        if (heap != NULL) {
            buf = heap;
            size = (size_t)n + sizeof(prefix);
            va_start(ap, fmt);
            vsnprintf(buf + sizeof(prefix) - 1, size - sizeof(prefix) + 1, fmt, ap);
            va_end(ap);
        } else {
            n = (int)(size - sizeof(prefix) - 1); /* out of memory: the message is truncated */
        }
    }
    memcpy(buf, prefix, sizeof(prefix) - 1);
    len = sizeof(prefix) - 1 + (size_t)n;
    len = escape_controls(&buf, len, stack);
    buf[len++] = '\n';
    write_all(log_fd, buf, len);
    if (buf != stack)
        free(buf);
}
