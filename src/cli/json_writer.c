/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the streaming JSON writer (see json_writer.h). Strings are escaped per RFC 8259;
 * control characters are escaped and invalid UTF-8 is replaced (see quote()).
 */
#include "json_writer.h"

#include <stdint.h>
#include <string.h>

#include "util/utf8.h"

void glmux_jw_init(struct glmux_jw *w, FILE *out)
{
    w->out = out;
    w->depth = 0;
    w->first[0] = true;
    w->line = false;
}

void glmux_jw_init_line(struct glmux_jw *w, FILE *out)
{
    glmux_jw_init(w, out);
    w->line = true;
}

/*
 * Writes s as a JSON string. Control characters (C0, DEL, C1) are \u escapes, so that the
 * output is safe on a terminal too, and a byte that is not valid UTF-8 becomes U+FFFD, so that
 * the document always is valid UTF-8 (sysfs and environment strings are arbitrary bytes).
 */
static void quote(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);

    fputc('"', out);
    while (left > 0) {
        uint32_t cp;
        int n = glmux_utf8_next(p, left, &cp);

        if (n <= 0) {
            fputs("\\ufffd", out);
            n = 1;
        } else if (cp == '"' || cp == '\\') {
            fprintf(out, "\\%c", (int)cp);
        } else if (cp == '\n') {
            fputs("\\n", out);
        } else if (cp == '\t') {
            fputs("\\t", out);
        } else if (cp < 0x20 || glmux_utf8_is_control(cp)) {
            fprintf(out, "\\u%04x", (unsigned)cp);
        } else {
            fwrite(p, 1, (size_t)n, out);
        }
        p += n;
        left -= (size_t)n;
    }
    fputc('"', out);
}

static void prefix(struct glmux_jw *w, const char *key)
{
    if (w->depth > 0 && w->line) {
        fputs(w->first[w->depth] ? "" : ", ", w->out);
    } else if (w->depth > 0) {
        fputs(w->first[w->depth] ? "\n" : ",\n", w->out);
        fprintf(w->out, "%*s", w->depth * 2, "");
    }
    w->first[w->depth] = false;
    if (key != NULL) {
        quote(w->out, key);
        fputs(": ", w->out);
    }
}

static void open_(struct glmux_jw *w, const char *key, char c)
{
    prefix(w, key);
    fputc(c, w->out);
    if (w->depth < 31)
        w->depth++;
    w->first[w->depth] = true;
}

void glmux_jw_object(struct glmux_jw *w, const char *key)
{
    open_(w, key, '{');
}

void glmux_jw_array(struct glmux_jw *w, const char *key)
{
    open_(w, key, '[');
}

void glmux_jw_end(struct glmux_jw *w, char close)
{
    bool empty = w->first[w->depth];

    if (w->depth > 0)
        w->depth--;
    if (!empty && !w->line)
        fprintf(w->out, "\n%*s", w->depth * 2, "");
    fputc(close, w->out);
}

void glmux_jw_string(struct glmux_jw *w, const char *key, const char *value)
{
    prefix(w, key);
    if (value == NULL)
        fputs("null", w->out);
    else
        quote(w->out, value);
}

void glmux_jw_int(struct glmux_jw *w, const char *key, long value)
{
    prefix(w, key);
    fprintf(w->out, "%ld", value);
}

void glmux_jw_bool(struct glmux_jw *w, const char *key, bool value)
{
    prefix(w, key);
    fputs(value ? "true" : "false", w->out);
}

void glmux_jw_finish(struct glmux_jw *w)
{
    fputc('\n', w->out);
}
