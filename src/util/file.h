/* SPDX-License-Identifier: MIT */
/*
 * glmux: the one way library code reads a whole small file (manifests, sysfs attributes). It
 * never blocks on a FIFO or a device (O_NONBLOCK), never leaks the descriptor into a child
 * (O_CLOEXEC), accepts only regular files (fstat) and never reads more than the caller's bound.
 * Failures come back as an errno value plus a ready-made message, so each caller can report in
 * its own voice. It also holds the one write-everything loop (glmux_file_write_all), which the
 * log, the tool and the tests' X proxies share.
 */
#ifndef GLMUX_UTIL_FILE_H
#define GLMUX_UTIL_FILE_H

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

/* What glmux_file_read failed on, for callers that report it themselves. */
struct glmux_file_error {
    int code;             /* errno value: ENOENT, EACCES, EINVAL (not a regular file),
                             EFBIG (larger than the bound), ENOMEM, ... */
    char message[128];    /* e.g. "not a regular file (a FIFO); only regular files are read" */
};

/*
 * Opens path read-only (O_NONBLOCK, O_CLOEXEC) when it is a regular file; -1 with *err (may be
 * NULL) filled otherwise. A FIFO or a device node is refused without being opened.
 */
int glmux_file_open_regular(const char *path, struct glmux_file_error *err);

/*
 * Reads the whole file at path into a new NUL-terminated buffer (free() it). *len_out (may be
 * NULL) gets the byte count without the NUL. Files larger than max_size bytes are refused with
 * EFBIG. Returns NULL and fills *err (may be NULL) on failure.
 */
char *glmux_file_read(const char *path, size_t max_size, size_t *len_out,
                      struct glmux_file_error *err);

/*
 * Reads at most size - 1 bytes of a small attribute file (sysfs) into buf, NUL-terminated, with
 * trailing whitespace removed. Same rules as glmux_file_read, but a longer file is truncated,
 * not refused (sysfs reports a page-sized st_size). Returns 0 or an errno value.
 */
int glmux_file_read_small(const char *path, char *buf, size_t size);

/*
 * The names in folder dir that end in suffix (and are longer), sorted by strcmp (byte
 * order, as in the C locale): the one order every manifest folder is read in. *names is a
 * malloc'ed array of *count malloc'ed names (glmux_file_list_free). Returns 0, or an errno value
 * (ENOENT for a missing folder) with *names NULL and *count 0.
 */
/* The same for a folder opened with opendir (closed here). */
int glmux_file_list_open_dir(DIR *d, const char *suffix, char ***names, size_t *count);
static inline int glmux_file_list_dir(const char *dir, const char *suffix, char ***names,
                                      size_t *count)
{
    /* Inline up to the opendir: most folders of a search list are missing, and then this is
     * all a folder costs (start-up, docs/performance.md). */
    DIR *d = opendir(dir);

    *names = NULL;
    *count = 0;
    if (d == NULL)
        return errno != 0 ? errno : EIO;
    return glmux_file_list_open_dir(d, suffix, names, count);
}
void glmux_file_list_free(char **names, size_t count);

/*
 * Writes all n bytes of buf to fd, going on after a write(2) cut short or interrupted (EINTR).
 * Returns false when a write fails (errno says why) or writes nothing. It calls write(2) only,
 * so a forked child may use it before _exit.
 */
bool glmux_file_write_all(int fd, const void *buf, size_t n);

#endif /* GLMUX_UTIL_FILE_H */
