/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the terminal-safe output filter (see safe_out.h). stdout and stderr become
 * fopencookie streams whose write function escapes control characters and invalid UTF-8
 * before writing to the original descriptors 1 and 2. A UTF-8 character split across two
 * writes is held back until its end arrives.
 */
#define _GNU_SOURCE
#include "safe_out.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "util/utf8.h"

struct safe_stream {
    int fd;
    unsigned char pending[4];  /* the start of a character cut by the previous write */
    size_t n_pending;
};

static struct safe_stream safe_out = { STDOUT_FILENO, { 0 }, 0 };
static struct safe_stream safe_err = { STDERR_FILENO, { 0 }, 0 };

static bool put_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

/* Escapes the bytes of s into out (4 bytes per input byte at most); returns the length. */
static size_t escape_bytes(const unsigned char *s, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;

    for (size_t i = 0; i < n; i++) {
        out[o++] = '\\';
        out[o++] = 'x';
        out[o++] = hex[s[i] >> 4];
        out[o++] = hex[s[i] & 15];
    }
    return o;
}

/* Output collected for one write(2). */
struct out_buf {
    char data[4096 + 32];
    size_t len;
};

static bool out_flush(struct safe_stream *st, struct out_buf *o)
{
    bool ok = put_all(st->fd, o->data, o->len);

    o->len = 0;
    return ok;
}

/*
 * Decides what st->pending holds: a whole character (written, escaped if it is a control), the
 * valid start of one (kept, unless flushing), or an invalid first byte (escaped, and the rest
 * looked at again).
 */
static bool drain(struct safe_stream *st, struct out_buf *o, bool flush)
{
    while (st->n_pending > 0) {
        uint32_t cp;
        int n = glmux_utf8_next(st->pending, st->n_pending, &cp);

        if (n == -1 && !flush)
            return true;
        if (n <= 0) {
            o->len += escape_bytes(st->pending, 1, o->data + o->len);
            n = 1;
        } else if (glmux_utf8_is_control(cp)) {
            o->len += escape_bytes(st->pending, (size_t)n, o->data + o->len);
        } else {
            memcpy(o->data + o->len, st->pending, (size_t)n);
            o->len += (size_t)n;
        }
        memmove(st->pending, st->pending + n, st->n_pending - (size_t)n);
        st->n_pending -= (size_t)n;
        if (o->len >= 4096 && !out_flush(st, o))
            return false;
    }
    return true;
}

static ssize_t safe_write(void *cookie, const char *buf, size_t size)
{
    struct safe_stream *st = cookie;
    struct out_buf o;

    o.len = 0;
    for (size_t i = 0; i < size; i++) {
        st->pending[st->n_pending++] = (unsigned char)buf[i];
        if (!drain(st, &o, false))
            return -1;
    }
    return out_flush(st, &o) ? (ssize_t)size : -1;
}

static int safe_close(void *cookie)
{
    struct safe_stream *st = cookie;
    struct out_buf o;

    o.len = 0;
    drain(st, &o, true);
    out_flush(st, &o);
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
