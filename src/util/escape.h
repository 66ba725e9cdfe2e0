/* SPDX-License-Identifier: MIT */
/*
 * glmux: the one escaper of text that comes from outside (environment values, file names,
 * manifest strings, sysfs and udev values) on its way to a terminal or a log. The libraries'
 * log (src/util/log.c) and the glmux tool's output filter (src/cli/safe_out.c) both write
 * through it, so that a byte such as ESC, BEL or a newline inside a value can neither drive the
 * terminal nor forge a line of its own.
 */
#ifndef GLMUX_UTIL_ESCAPE_H
#define GLMUX_UTIL_ESCAPE_H

#include <stddef.h>

/* Newline and tab pass unescaped (output of several lines, e.g. the tool's own text). */
#define GLMUX_ESCAPE_KEEP_LINES 1u
/* More input follows: a character cut short at the end is left unconsumed for the next call. */
#define GLMUX_ESCAPE_PARTIAL 2u

/*
 * Escapes the n bytes at s into out: C0 control characters, DEL, the C1 controls and every byte
 * that is not valid UTF-8 become "\xNN", one per byte (newline and tab too, unless
 * GLMUX_ESCAPE_KEEP_LINES); other UTF-8 text is copied. Output grows by at most 4 bytes per input
 * byte. Only whole characters are written, as long as they fit in out_size bytes (no terminator
 * is added). Returns the bytes written; *used (may be NULL) gets the input bytes consumed: n,
 * unless out was full or, with GLMUX_ESCAPE_PARTIAL, the input ends in the valid start of a
 * character. With out NULL nothing is written and the whole output's length is returned.
 */
size_t glmux_escape(const char *s, size_t n, unsigned flags, char *out, size_t out_size,
                    size_t *used);

/*
 * A value for the middle of a line: the string s escaped (newlines too) into buf, NUL-terminated,
 * ending in "..." when it does not fit in size bytes (size >= 4). Returns buf.
 */
const char *glmux_escape_str(const char *s, char *buf, size_t size);

#endif /* GLMUX_UTIL_ESCAPE_H */
