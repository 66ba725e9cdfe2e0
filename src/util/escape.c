/* SPDX-License-Identifier: MIT */
/*
 * glmux: the escaper of outside text (see escape.h), on the strict UTF-8 decoder of utf8.c.
 */
#include "escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "utf8.h"

size_t glmux_escape(const char *s, size_t n, unsigned flags, char *out, size_t out_size,
                    size_t *used)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *in = (const unsigned char *)s;
    size_t i = 0, o = 0;

    while (i < n) {
        uint32_t cp;
        int k = glmux_utf8_next(in + i, n - i, &cp);
        bool escaped;
        size_t len;

        if (k == -1 && (flags & GLMUX_ESCAPE_PARTIAL))
            break; /* the rest of this character comes with the next call */
        if (k <= 0) {
            k = 1; /* not UTF-8 (or cut short for good): this byte alone */
            escaped = true;
        } else {
            escaped = glmux_utf8_is_control(cp) ||
                      (!(flags & GLMUX_ESCAPE_KEEP_LINES) && (cp == '\n' || cp == '\t'));
        }
        len = escaped ? 4 * (size_t)k : (size_t)k;
        if (out != NULL) {
            if (o + len > out_size)
                break;
            if (!escaped) {
                memcpy(out + o, in + i, len);
            } else {
                for (int j = 0; j < k; j++) {
                    out[o + 4 * (size_t)j] = '\\';
                    out[o + 4 * (size_t)j + 1] = 'x';
                    out[o + 4 * (size_t)j + 2] = hex[in[i + (size_t)j] >> 4];
                    out[o + 4 * (size_t)j + 3] = hex[in[i + (size_t)j] & 15];
                }
            }
        }
        o += len;
        i += (size_t)k;
    }
    if (used != NULL)
        *used = i;
    return o;
}

const char *glmux_escape_str(const char *s, char *buf, size_t size)
{
    size_t n = strlen(s), used;
    size_t o = glmux_escape(s, n, 0, buf, size - 1, &used);

    if (used < n) {
        /* Cut: room for "..." at the end, on a character boundary of the escaped text. */
        o = glmux_escape(s, n, 0, buf, size - 4, &used);
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}
