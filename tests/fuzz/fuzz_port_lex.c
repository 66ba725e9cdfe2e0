/* SPDX-License-Identifier: MIT */
/*
 * glmux fuzz target: the C/C++ tokenizer of `glmux port-check` (src/cli/port_lex.c) on any
 * bytes. Checks what port_lex.h promises: tokens come in order, each at a position inside the
 * buffer whose byte is the token's first character, with a NUL-terminated text of at most
 * GLMUX_PORT_LEX_MAX bytes whose length is the one it claims (no NUL inside); a callback's
 * nonzero return stops the walk and is returned.
 */
#include <string.h>

#include "cli/port_lex.h"
#include "fuzz.h"

struct walk {
    const uint8_t *buf;
    size_t size;
    size_t *line_start;  /* offset of each line's first byte, [0] for line 1 */
    size_t lines;
    unsigned long last_line, last_column;
    size_t count, stop_at;
};

static int on_token(void *ctx, const struct glmux_port_token *t)
{
    struct walk *w = ctx;
    size_t offset;

    GLMUX_FUZZ_CHECK(t->kind == GLMUX_PORT_IDENT || t->kind == GLMUX_PORT_HEADER);
    GLMUX_FUZZ_CHECK(t->text != NULL && t->text[t->len] == '\0');
    /* Every string reported has the length it claims: no NUL inside (a header name holding
     * one was once reported cut at the NUL with the length of the whole). */
    GLMUX_FUZZ_CHECK(strlen(t->text) == t->len);
    GLMUX_FUZZ_CHECK(t->len <= GLMUX_PORT_LEX_MAX);
    GLMUX_FUZZ_CHECK(t->kind == GLMUX_PORT_HEADER || t->len > 0);
    GLMUX_FUZZ_CHECK(t->line >= 1 && t->line <= w->lines && t->column >= 1);
    GLMUX_FUZZ_CHECK(t->line > w->last_line ||
                     (t->line == w->last_line && t->column > w->last_column));
    w->last_line = t->line;
    w->last_column = t->column;
    offset = w->line_start[t->line - 1] + t->column - 1;
    GLMUX_FUZZ_CHECK(offset < w->size);
    if (t->kind == GLMUX_PORT_IDENT)
        GLMUX_FUZZ_CHECK(w->buf[offset] == (uint8_t)t->text[0]);
    w->count++;
    return w->count == w->stop_at ? 7 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct walk w = { .buf = data, .size = size };
    size_t total;
    int ret;

    w.line_start = malloc((size + 1) * sizeof(*w.line_start));
    if (w.line_start == NULL)
        return 0;
    /* A UTF-8 byte order mark is not part of line 1's columns. */
    w.line_start[w.lines++] = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (size_t i = 0; i < size; i++)
        if (data[i] == '\n')
            w.line_start[w.lines++] = i + 1;

    ret = glmux_port_lex((const char *)data, size, on_token, &w);
    GLMUX_FUZZ_CHECK(ret == 0);
    total = w.count;

    /* Again, stopping half-way: the same tokens up to there, then the callback's value. */
    if (total > 0) {
        w.count = 0;
        w.last_line = w.last_column = 0;
        w.stop_at = total / 2 + 1;
        ret = glmux_port_lex((const char *)data, size, on_token, &w);
        GLMUX_FUZZ_CHECK(ret == 7 && w.count == w.stop_at);
    }
    free(w.line_start);
    return 0;
}
