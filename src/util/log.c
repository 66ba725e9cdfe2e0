/* SPDX-License-Identifier: MIT */
/*
 * glmux: category logging to stderr or GLMUX_DEBUG_FILE (see log.h). The configuration is
 * read once, on the first message, under a pthread_once. There is no lock: each message is
 * formatted into a buffer of its own and leaves in one write(2), so lines from several
 * threads never interleave and a fork() while another thread logs cannot leave the child
 * waiting for a lock that nobody will release. Every message, and every
 * outside string in it, is escaped by util/escape.c. The debug file is created with mode 0600,
 * opened with O_CLOEXEC, reached without following a symbolic link anywhere in its path, and
 * closed when the library that opened it is unloaded (a program that loads and unloads a
 * library in a loop would otherwise run out of descriptors).
 */
#define _GNU_SOURCE
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "escape.h"
#include "file.h"

static const struct {
    const char *name;
    unsigned mask;
} log_tokens[] = {
    { "error", GLMUX_LOG_ERROR },   { "warn", GLMUX_LOG_WARN },
    { "info", GLMUX_LOG_INFO },     { "vendor", GLMUX_LOG_VENDOR },
    { "select", GLMUX_LOG_SELECT }, { "dispatch", GLMUX_LOG_DISPATCH },
    { "layer", GLMUX_LOG_LAYER },   { "all", GLMUX_LOG_ALL },
};

static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static unsigned log_mask = GLMUX_LOG_DEFAULT;   /* atomic */
static bool log_known;      /* atomic: log_mask holds GLMUX_DEBUG's categories */
unsigned glmux_log_maybe_on = ~0u;                 /* atomic (log.h) */

/* log_mask is known to be mask. */
static void log_set_known(unsigned mask)
{
    __atomic_store_n(&log_mask, mask, __ATOMIC_RELAXED);
    __atomic_store_n(&glmux_log_maybe_on, mask, __ATOMIC_RELAXED);
    __atomic_store_n(&log_known, true, __ATOMIC_RELEASE);
}
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
        if (!known && len > 0 && bad_size > 0 && bad[0] == '\0') {
            if (len < bad_size || bad_size < 4)
                snprintf(bad, bad_size, "%.*s", (int)len, p);
            else   /* a long token: its start, cut as in any message */
                snprintf(bad, bad_size, "%.*s...", (int)(bad_size - 4), p);
        }
        p += len;
        if (*p != '\0')
            p++;
    }
    /* Errors are always worth seeing once somebody asked for debugging. */
    return mask | GLMUX_LOG_ERROR;
}

/*
 * Writes "glmux: <message>\n" in one write(2). Messages quote environment values, file names
 * and manifest strings: the whole message goes through the one escaper (util/escape.h), newlines
 * included, so that it is one line and cannot drive the terminal. Without memory a long message
 * is cut.
 */
static void log_write(const char *fmt, va_list ap)
{
    static const char prefix[] = "glmux: ";
    char text[1024], escaped[2048], *buf = text, *out = escaped;
    size_t size = sizeof(text), len, out_len;
    va_list again;
    int n;

    va_copy(again, ap);
    n = vsnprintf(buf + sizeof(prefix) - 1, size - sizeof(prefix) + 1, fmt, ap);
    if (n >= 0 && (size_t)n + sizeof(prefix) > size) {
        char *heap = malloc((size_t)n + sizeof(prefix));
        if (heap != NULL) {
            buf = heap;
            size = (size_t)n + sizeof(prefix);
            vsnprintf(buf + sizeof(prefix) - 1, size - sizeof(prefix) + 1, fmt, again);
        } else {
            n = (int)(size - sizeof(prefix)); /* out of memory: the message is cut */
        }
    }
    va_end(again);
    if (n < 0)
        return;
    memcpy(buf, prefix, sizeof(prefix) - 1);
    len = sizeof(prefix) - 1 + (size_t)n;
    out_len = glmux_escape(buf, len, 0, NULL, 0, NULL);
    if (out_len + 1 > sizeof(escaped)) {
        out = malloc(out_len + 1);
        if (out == NULL) /* out of memory: as much as fits */
            out = escaped;
    }
    out_len = glmux_escape(buf, len, 0, out, out == escaped ? sizeof(escaped) - 1 : out_len,
                           NULL);
    out[out_len++] = '\n';
    /* A message is one write unless the kernel splits it; a failed write is dropped. */
    (void)glmux_file_write_all(__atomic_load_n(&log_fd, __ATOMIC_RELAXED), out, out_len);
    if (out != escaped)
        free(out);
    if (buf != text)
        free(buf);
}

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A message of the log itself, written whatever the categories. */
static void log_line(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    log_write(fmt, ap);
    va_end(ap);
}

/*
 * Opens the debug file for appending: never inherited by exec (O_CLOEXEC), created private to
 * the user (0600), never blocking on a FIFO, and never through a symbolic link. The path is
 * walked one directory at a time, each opened relative to the one before with
 * O_DIRECTORY|O_NOFOLLOW, and the file itself with O_NOFOLLOW: a link anywhere in the path
 * (a planted /tmp/dir -> /home/victim/.bashrc.d as well as a link at the file's own name) is
 * refused, not followed. Returns -1 with errno set, and *link_at naming the link when one is
 * why.
 */
static int open_debug_file(const char *path, char *link_at, size_t link_size)
{
    char buf[PATH_MAX];
    char *p = buf, *slash;
    size_t len = strlen(path);
    int dir, fd, saved;

    link_at[0] = '\0';
    if (len >= sizeof(buf)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, len + 1);
    dir = open(*p == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return -1;
    for (;;) {
        struct stat st;
        int next;

        while (*p == '/')
            p++;
        slash = strchr(p, '/');
        if (slash == NULL)
            break;
        *slash = '\0';
        next = openat(dir, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0) {
            saved = errno;
            if (fstatat(dir, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
                snprintf(link_at, link_size, "%.*s", (int)(slash - buf), path);
                saved = ELOOP;
            }
            close(dir);
            errno = saved;
            return -1;
        }
        close(dir);
        dir = next;
        p = slash + 1;
    }
    if (*p == '\0') {
        close(dir);
        errno = EISDIR;
        return -1;
    }
    fd = openat(dir, p, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK |
                            O_NOCTTY, 0600);
    saved = errno;
    if (fd < 0 && saved == ELOOP)
        snprintf(link_at, link_size, "%s", path);
    close(dir);
    errno = saved;
    return fd;
}

static void log_init(void)
{
    char bad[64], link_at[256];
    const char *path = glmux_env_get("GLMUX_DEBUG_FILE");

    bad[0] = '\0';
    if (!__atomic_load_n(&log_known, __ATOMIC_ACQUIRE))
        log_set_known(glmux_log_parse(glmux_env_get("GLMUX_DEBUG"), bad, sizeof(bad)));
    if (path != NULL && *path != '\0') {
        int fd = open_debug_file(path, link_at, sizeof(link_at));
        int saved = errno;

        if (fd < 0 && glmux_log_claim("GLMUX_DEBUG_FILE"))
            log_line("cannot open GLMUX_DEBUG_FILE=%s: %s%s%s%s; logging to stderr",
                     GLMUX_LOG_CUT(path), strerror(saved), link_at[0] ? " (" : "",
                     GLMUX_LOG_CUT(link_at),
                     link_at[0] ? " is a symbolic link, which glmux never follows)" : "");
        else if (fd >= 0)
            __atomic_store_n(&log_fd, fd, __ATOMIC_RELAXED);
    }
    /* Once per process (glmux_log_claim), whichever library reads GLMUX_DEBUG first. */
    if (bad[0] != '\0' && glmux_log_claim("GLMUX_DEBUG"))
        log_line("unknown GLMUX_DEBUG token \"%s\"; valid tokens: "
                 "error,warn,info,vendor,select,dispatch,layer,all",
                 bad);
}

/*
 * Every library has a copy of this file (src/util is linked statically into each): when one is
 * unloaded, its copy's debug file is closed, or each dlopen/dlclose would leave a descriptor
 * behind. A message written later (another destructor of the same library) goes to stderr.
 */
__attribute__((destructor)) static void log_fini(void)
{
    int fd = __atomic_exchange_n(&log_fd, STDERR_FILENO, __ATOMIC_RELAXED);

    if (fd != STDERR_FILENO)
        close(fd);
}

/* The process's claims (libGLdispatch's), or NULL: this copy's own table. */
static bool (*process_claim)(const char *key);

/* FNV-1a: the table keeps hashes, not pointers into a library that may be unloaded. */
static unsigned long long key_hash(const char *key)
{
    unsigned long long h = 0xcbf29ce484222325ull;

    for (const unsigned char *p = (const unsigned char *)key; *p != '\0'; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return h | 1;   /* never 0, the free slot's mark */
}

/* Lock-free, like the rest of the log: a message may come from any thread, in a fork child. */
static bool claim_here(const char *key)
{
    static unsigned long long claimed[64];
    unsigned long long h = key_hash(key);

    for (size_t i = 0; i < sizeof(claimed) / sizeof(claimed[0]); i++) {
        unsigned long long seen = __atomic_load_n(&claimed[i], __ATOMIC_ACQUIRE);

        if (seen == 0 && __atomic_compare_exchange_n(&claimed[i], &seen, h, false,
                                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return true;
        if (seen == h)
            return false;
    }
    return true;
}

bool glmux_log_claim(const char *key)
{
    bool (*claim)(const char *) = __atomic_load_n(&process_claim, __ATOMIC_ACQUIRE);

    return claim != NULL ? claim(key) : claim_here(key);
}

void glmux_log_set_claim(bool (*claim)(const char *key))
{
    __atomic_store_n(&process_claim, claim, __ATOMIC_RELEASE);
}

const char *glmux_log_cut(const char *s, char *buf, size_t size)
{
    size_t n;

    if (s == NULL || size < 4 || strlen(s) < size)
        return s;
    n = size - 4;
    /* Back to the start of a UTF-8 character (the log escapes any byte that is no text). */
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--;
    memcpy(buf, s, n);
    memcpy(buf + n, "...", 4);
    return buf;
}

void glmux_log_mark_cut(char *buf, size_t size, int n)
{
    size_t end;

    if (n < 0 || (size_t)n < size || size < 4)
        return;
    end = size - 4;
    while (end > 0 && ((unsigned char)buf[end] & 0xc0) == 0x80)
        end--;
    memcpy(buf + end, "...", 4);
}

/* The first check of a category off by default, before GLMUX_DEBUG is read: when it is unset,
 * the categories are known without setting the log up (the debug file is opened at the first
 * message written; start-up's cost, docs/performance.md "GL layers"). */
static __attribute__((noinline)) bool log_first_check(unsigned category)
{
    if ((category & GLMUX_LOG_DEFAULT) == 0 && glmux_env_get("GLMUX_DEBUG") == NULL) {
        log_set_known(GLMUX_LOG_DEFAULT);
        return false;
    }
    pthread_once(&log_once, log_init);
    return (__atomic_load_n(&log_mask, __ATOMIC_RELAXED) & category) != 0;
}

bool glmux_log_check(unsigned category)
{
    if (__builtin_expect(!__atomic_load_n(&log_known, __ATOMIC_ACQUIRE), 0)) {
        if (!log_first_check(category))
            return false;
    } else if ((__atomic_load_n(&log_mask, __ATOMIC_RELAXED) & category) == 0) {
        return false;
    }
    pthread_once(&log_once, log_init);
    return true;
}

void (glmux_log)(unsigned category, const char *fmt, ...)
{
    va_list ap;

    if (!glmux_log_enabled(category))
        return;
    va_start(ap, fmt);
    log_write(fmt, ap);
    va_end(ap);
}
