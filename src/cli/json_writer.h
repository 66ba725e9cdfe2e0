/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: a tiny streaming JSON writer (indented, properly escaped) for the --json outputs;
 * its line mode writes each document on one line (JSON Lines, for `glmux gpus --watch --json`).
 */
#ifndef GLMUX_CLI_JSON_WRITER_H
#define GLMUX_CLI_JSON_WRITER_H

#include <stdbool.h>
#include <stdio.h>

struct glmux_jw {
    FILE *out;
    int depth;
    bool first[32];
    bool line;      /* one line per document: no newlines, no indentation */
};

void glmux_jw_init(struct glmux_jw *w, FILE *out);
/* The same, in line mode: the document and glmux_jw_finish's newline make one line. */
void glmux_jw_init_line(struct glmux_jw *w, FILE *out);
/* key is NULL inside arrays and for the top-level value. */
void glmux_jw_object(struct glmux_jw *w, const char *key);
void glmux_jw_array(struct glmux_jw *w, const char *key);
void glmux_jw_end(struct glmux_jw *w, char close);
void glmux_jw_string(struct glmux_jw *w, const char *key, const char *value); /* NULL: null */
void glmux_jw_int(struct glmux_jw *w, const char *key, long value);
void glmux_jw_bool(struct glmux_jw *w, const char *key, bool value);
void glmux_jw_finish(struct glmux_jw *w);

#endif
