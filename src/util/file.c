/* SPDX-License-Identifier: MIT */
/*
 * glmux: bounded, non-blocking reads of regular files (see file.h). The file is opened with
 * O_RDONLY|O_NONBLOCK|O_CLOEXEC so that a FIFO or a character device planted where a manifest
 * or a sysfs attribute is expected cannot hang the process; stat before and fstat after the
 * open refuse anything that is not a regular file before a single byte is read.
 */
#define _GNU_SOURCE
#include "file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void set_error(struct glmux_file_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_error(struct glmux_file_error *err, int code, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL)
        return;
    err->code = code;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
}

static const char *kind_name(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISDIR(mode))
        return "a directory";
    return "not a plain file";
}

int glmux_file_open_regular(const char *path, struct glmux_file_error *err)
{
    struct stat st;
    int fd;

    /* Looked at before it is opened: opening a device node can do something (a tape rewinds). */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        set_error(err, EINVAL, "not a regular file (%s); only regular files are read",
                  kind_name(st.st_mode));
        return -1;
    }
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int code = errno;
        set_error(err, code, "cannot open: %s", strerror(code));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        int code = errno;
        set_error(err, code, "cannot stat: %s", strerror(code));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        set_error(err, EINVAL, "not a regular file (%s); only regular files are read",
                  kind_name(st.st_mode));
        close(fd);
        return -1;
    }
    return fd;
}

bool glmux_file_write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;

    while (n > 0) {
        ssize_t w = write(fd, p, n);

        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* read() that retries on EINTR; a regular file never returns EAGAIN. */
static ssize_t read_some(int fd, char *buf, size_t count)
{
    ssize_t n;

    do
        n = read(fd, buf, count);
    while (n < 0 && errno == EINTR);
    return n;
}

char *glmux_file_read(const char *path, size_t max_size, size_t *len_out,
                      struct glmux_file_error *err)
{
    size_t len = 0, cap = 4096;
    char *text = NULL;
    int fd = glmux_file_open_regular(path, err);

    if (fd < 0)
        return NULL;
    /* st_size may be wrong (sysfs, a file growing under us): read until EOF, bounded. */
    for (;;) {
        ssize_t got;

        if (len + 1 >= cap || text == NULL) {
            char *grown;
            if (text != NULL)
                cap *= 2;
            if (cap > max_size + 2)
                cap = max_size + 2;
            grown = realloc(text, cap);
            if (grown == NULL) {
                set_error(err, ENOMEM, "out of memory");
                goto fail;
            }
            text = grown;
        }
        got = read_some(fd, text + len, cap - 1 - len);
        if (got < 0) {
            int code = errno;
            set_error(err, code, "cannot read: %s", strerror(code));
            goto fail;
        }
        if (got == 0)
            break;
        len += (size_t)got;
        if (len > max_size) {
            set_error(err, EFBIG, "file larger than %zu bytes", max_size);
            goto fail;
        }
    }
    close(fd);
    text[len] = '\0';
    if (len_out != NULL)
        *len_out = len;
    return text;
fail:
    close(fd);
    free(text);
    return NULL;
}

int glmux_file_read_small(const char *path, char *buf, size_t size)
{
    struct glmux_file_error err;
    size_t len = 0;
    int fd;

    if (size == 0)
        return EINVAL;
    buf[0] = '\0';
    fd = glmux_file_open_regular(path, &err);
    if (fd < 0)
        return err.code;
    while (len + 1 < size) {
        ssize_t got = read_some(fd, buf + len, size - 1 - len);
        if (got < 0) {
            int code = errno;
            close(fd);
            buf[0] = '\0';
            return code;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    buf[len] = '\0';
    while (len > 0 && isspace((unsigned char)buf[len - 1]))
        buf[--len] = '\0';
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void glmux_file_list_free(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

/* Lists the open folder d (closed here) for glmux_file_list_dir (file.h). */
int glmux_file_list_open_dir(DIR *d, const char *suffix, char ***names, size_t *count)
{
    size_t suffix_len = strlen(suffix), n = 0, cap = 0;
    char **list = NULL;
    struct dirent *e;
    int code = 0;

    *names = NULL;
    *count = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        char *copy;

        if (len <= suffix_len ||
            strcmp(e->d_name + len - suffix_len, suffix) != 0)
            continue;
        if (n == cap) {
            size_t more = cap == 0 ? 16 : cap * 2;
            char **grown = realloc(list, more * sizeof(*list));
            if (grown == NULL) {
                code = ENOMEM;
                break;
            }
            list = grown;
            cap = more;
        }
        copy = strdup(e->d_name);
        if (copy == NULL) {
            code = ENOMEM;
            break;
        }
        list[n++] = copy;
    }
    closedir(d);
    if (code != 0) {
        glmux_file_list_free(list, n);
        return code;
    }
    if (n > 1)
        qsort(list, n, sizeof(*list), compare_names);
    *names = list;
    *count = n;
    return 0;
}
