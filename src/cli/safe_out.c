/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the terminal-safe output filter (see safe_out.h). stdout and stderr become
 * fopencookie streams whose write function escapes control characters and invalid UTF-8, with
 * the escaper the libraries' log uses (util/escape.c), before writing to the original
 * descriptors 1 and 2. A UTF-8 character split across two writes is held back until its end
 * arrives. Line breaks pass that filter (the tool writes lines); a value inside a line goes
 * through glmux_cli_esc, which escapes them too.
 */
#define _GNU_SOURCE
#include "safe_out.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "util/escape.h"
#include "util/file.h"

struct safe_stream {
    int fd;
    unsigned char pending[4];  /* the start of a character cut by the previous write */
    size_t n_pending;
};

static struct safe_stream safe_out = { STDOUT_FILENO, { 0 }, 0 };
static struct safe_stream safe_err = { STDERR_FILENO, { 0 }, 0 };

/*
 * Escapes and writes buf (of len bytes, len <= 1024); with partial, a character cut at the end
 * is kept in st->pending for the next write. Returns the bytes of buf consumed, or -1.
 */
static ssize_t put_escaped(struct safe_stream *st, const char *buf, size_t len, bool partial)
{
    char out[4 * 1024];
    size_t used, n = glmux_escape(buf, len, GLMUX_ESCAPE_KEEP_LINES |
                                  (partial ? GLMUX_ESCAPE_PARTIAL : 0), out, sizeof(out), &used);

    if (!glmux_file_write_all(st->fd, out, n))
        return -1;
    return (ssize_t)used;
}

static ssize_t safe_write(void *cookie, const char *buf, size_t size)
{
    struct safe_stream *st = cookie;
    size_t done = 0;

    /* First the character the previous write cut, completed (or refuted) by this one. */
    while (st->n_pending > 0 && done < size) {
        ssize_t used;

        st->pending[st->n_pending++] = (unsigned char)buf[done++];
        used = put_escaped(st, (const char *)st->pending, st->n_pending, true);
        if (used < 0)
            return -1;
        memmove(st->pending, st->pending + used, st->n_pending - (size_t)used);
        st->n_pending -= (size_t)used;
    }
    while (done < size) {
        size_t chunk = size - done < 1024 ? size - done : 1024;
        ssize_t used = put_escaped(st, buf + done, chunk, true);

        if (used < 0)
            return -1;
        if ((size_t)used < chunk && done + chunk == size) {
            /* The start of a character the next write completes (at most 3 bytes). */
            memcpy(st->pending, buf + done + used, chunk - (size_t)used);
            st->n_pending = chunk - (size_t)used;
            break;
        }
        done += (size_t)used;
    }
    return (ssize_t)size;
}

static int safe_close(void *cookie)
{
    struct safe_stream *st = cookie;

    if (st->n_pending > 0)
        put_escaped(st, (const char *)st->pending, st->n_pending, false);
    st->n_pending = 0;
    return 0;
}

static FILE *wrap(struct safe_stream *st, int mode)
{
    cookie_io_functions_t io = { .read = NULL, .write = safe_write, .seek = NULL,
                                 .close = safe_close };
    FILE *f = fopencookie(st, "w", io);

    if (f != NULL)
        setvbuf(f, NULL, mode, BUFSIZ);
    return f;
}

const char *glmux_cli_esc(const char *s)
{
    static char bufs[16][512];
    static unsigned next;
    char *buf = bufs[next++ % 16];

    return s != NULL ? glmux_escape_str(s, buf, sizeof(bufs[0])) : NULL;
}

void glmux_cli_safe_streams(void)
{
    FILE *out = wrap(&safe_out, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);
    FILE *err = wrap(&safe_err, _IONBF);

    /* Without memory for the wrappers the tool still works, unfiltered. */
    if (out != NULL)
        stdout = out;
    if (err != NULL)
        stderr = err;
}
