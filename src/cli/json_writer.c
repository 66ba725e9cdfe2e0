/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the streaming JSON writer (see json_writer.h). Strings are escaped per RFC 8259;
 * bytes >= 0x80 pass through (the data is UTF-8 or plain ASCII file names).
 */
#include "json_writer.h"

void glmux_jw_init(struct glmux_jw *w, FILE *out)
{
    w->out = out;
    w->depth = 0;
    w->first[0] = true;
}

static void quote(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void prefix(struct glmux_jw *w, const char *key)
{
    if (w->depth > 0) {
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
    if (!empty)
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
