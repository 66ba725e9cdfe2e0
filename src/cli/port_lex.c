/* SPDX-License-Identifier: MIT */
/*
 * glmux port-check: the C and C++ tokenizer (see port_lex.h). One pass over the buffer with a
 * cursor that splices backslash-newlines as translation phase 2 does, so that an identifier or
 * a comment delimiter split over two lines is still seen whole; positions stay physical. It
 * knows just enough of the language to skip what is not code: comments, quotes, raw strings,
 * numbers, and the header name of an #include.
 */
#include "port_lex.h"

#include <string.h>

struct lexer {
    const unsigned char *b;
    size_t n;
    size_t i;
    unsigned long line;
    size_t line_start;
    bool line_begin; /* only blanks and comments since the last newline */
    bool directive;  /* inside a preprocessor line */
    int dir_state;   /* in a directive: 0 before its name, 1 after include, 2 after that */
    char text[GLMUX_PORT_LEX_MAX + 1];
    size_t len;
    bool too_long;
};

static void newline(struct lexer *l, size_t next)
{
    l->line++;
    l->line_start = next;
}

/* The length of a backslash-newline at j, or 0. */
static size_t splice_at(const struct lexer *l, size_t j)
{
    if (j + 1 < l->n && l->b[j] == '\\') {
        if (l->b[j + 1] == '\n')
            return 2;
        if (j + 2 < l->n && l->b[j + 1] == '\r' && l->b[j + 2] == '\n')
            return 3;
    }
    return 0;
}

/* The current logical character (after any splices), or -1 at the end. */
static int cur(struct lexer *l)
{
    size_t s;

    while ((s = splice_at(l, l->i)) != 0) {
        l->i += s;
        newline(l, l->i);
    }
    return l->i < l->n ? l->b[l->i] : -1;
}

/* The logical character after the current one, without moving. Call after cur(). */
static int peek(const struct lexer *l)
{
    size_t j = l->i + 1, s;

    while ((s = splice_at(l, j)) != 0)
        j += s;
    return j < l->n ? l->b[j] : -1;
}

/* Moves past the current character. Call after cur() returned >= 0. */
static void adv(struct lexer *l)
{
    if (l->b[l->i] == '\n')
        newline(l, l->i + 1);
    l->i++;
}

static bool is_ident(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c >= 0x80;
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static void text_reset(struct lexer *l)
{
    l->len = 0;
    l->too_long = false;
}

static void text_add(struct lexer *l, int c)
{
    if (l->len < GLMUX_PORT_LEX_MAX)
        l->text[l->len++] = (char)c;
    else
        l->too_long = true;
}

static void skip_block_comment(struct lexer *l)
{
    int c;

    adv(l); /* '/' */
    cur(l);
    adv(l); /* '*' */
    while ((c = cur(l)) >= 0) {
        if (c == '*' && peek(l) == '/') {
            adv(l);
            cur(l);
            adv(l);
            return;
        }
        adv(l);
    }
}

static void skip_line_comment(struct lexer *l)
{
    int c;

    while ((c = cur(l)) >= 0 && c != '\n')
        adv(l);
}

/* A quoted literal from its opening quote to the closing one or the end of the line. */
static void skip_quoted(struct lexer *l, int quote)
{
    int c;

    adv(l);
    while ((c = cur(l)) >= 0 && c != '\n') {
        adv(l);
        if (c == quote)
            return;
        if (c == '\\') {
            c = cur(l);
            if (c >= 0 && c != '\n')
                adv(l);
        }
    }
}

/* R"delim( ... )delim" from the opening quote; the body is raw (no splicing). Returns false,
 * having moved nothing, when the delimiter is malformed (then it is an ordinary string). */
static bool skip_raw_string(struct lexer *l)
{
    size_t j = l->i + 1, dstart = j, dlen;

    while (j < l->n && j - dstart <= 16 && l->b[j] != '(') {
        unsigned char c = l->b[j];
        if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\n' || c == '\v' ||
            c == '\f' || c == '\r' || c == '"')
            return false;
        j++;
    }
    if (j >= l->n || l->b[j] != '(' || j - dstart > 16)
        return false;
    dlen = j - dstart;
    l->i = j + 1;
    while (l->i < l->n) {
        if (l->b[l->i] == ')' && l->i + 1 + dlen < l->n &&
            memcmp(l->b + l->i + 1, l->b + dstart, dlen) == 0 && l->b[l->i + 1 + dlen] == '"') {
            l->i += dlen + 2;
            return true;
        }
        adv(l);
    }
    return true;
}

static void skip_number(struct lexer *l)
{
    int c;

    adv(l);
    while ((c = cur(l)) >= 0) {
        if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (peek(l) == '+' || peek(l) == '-')) {
            adv(l);
            cur(l);
            adv(l);
        } else if (is_ident(c) || c == '.') {
            adv(l);
        } else if (c == '\'' && peek(l) >= 0 && is_ident(peek(l)) && peek(l) < 0x80) {
            adv(l); /* digit separator */
        } else {
            break;
        }
    }
}

static bool is_prefix(const char *s, size_t len, bool raw)
{
    static const char *const plain[] = { "L", "u", "U", "u8" };
    static const char *const rawp[] = { "R", "LR", "uR", "UR", "u8R" };
    const char *const *list = raw ? rawp : plain;
    size_t count = raw ? 5 : 4;

    for (size_t k = 0; k < count; k++)
        if (strlen(list[k]) == len && memcmp(list[k], s, len) == 0)
            return true;
    return false;
}

static int emit(struct lexer *l, enum glmux_port_token_kind kind, unsigned long line,
                unsigned long column, glmux_port_lex_fn fn, void *ctx)
{
    struct glmux_port_token t;

    if (l->too_long || l->len == 0)
        return 0;
    l->text[l->len] = '\0';
    t.kind = kind;
    t.text = l->text;
    t.len = l->len;
    t.line = line;
    t.column = column;
    t.in_directive = l->directive;
    return fn(ctx, &t);
}

/* The header name of #include <...> or "...", from its opening delimiter. A name holding a NUL
 * byte names no file (and would read as a shorter one): it is consumed, not reported. */
static int header_name(struct lexer *l, int close, unsigned long line, unsigned long column,
                       glmux_port_lex_fn fn, void *ctx)
{
    bool nul = false;
    int c;

    adv(l);
    text_reset(l);
    while ((c = cur(l)) >= 0 && c != '\n') {
        adv(l);
        if (c == close)
            return nul ? 0 : emit(l, GLMUX_PORT_HEADER, line, column + 1, fn, ctx);
        nul |= c == '\0';
        text_add(l, c);
    }
    return 0;
}

int glmux_port_lex(const char *buf, size_t len, glmux_port_lex_fn fn, void *ctx)
{
    struct lexer l;
    int c, rc;

    memset(&l, 0, sizeof(l));
    l.b = (const unsigned char *)buf;
    l.n = buf != NULL ? len : 0;
    l.line = 1;
    l.line_begin = true;
    if (l.n >= 3 && memcmp(l.b, "\xEF\xBB\xBF", 3) == 0) /* UTF-8 byte order mark */
        l.i = l.line_start = 3;
    while ((c = cur(&l)) >= 0) {
        unsigned long line = l.line, column = (unsigned long)(l.i - l.line_start + 1);

        if (c == '\n') {
            adv(&l);
            l.directive = false;
            l.line_begin = true;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            adv(&l);
            continue;
        }
        if (c == '/' && peek(&l) == '*') {
            skip_block_comment(&l);
            continue;
        }
        if (c == '/' && peek(&l) == '/') {
            skip_line_comment(&l);
            continue;
        }
        if (c == '#' && l.line_begin) {
            adv(&l);
            l.line_begin = false;
            l.directive = true;
            l.dir_state = 0;
            continue;
        }
        l.line_begin = false;
        if (is_ident(c) && !is_digit(c)) {
            text_reset(&l);
            while ((c = cur(&l)) >= 0 && is_ident(c)) {
                text_add(&l, c);
                adv(&l);
            }
            if ((c == '"' || c == '\'') && !l.too_long) {
                if (c == '"' && is_prefix(l.text, l.len, true) && skip_raw_string(&l))
                    continue;
                if (is_prefix(l.text, l.len, false) || (c == '"' && is_prefix(l.text, l.len, true))) {
                    skip_quoted(&l, c);
                    continue;
                }
            }
            if (l.directive && l.dir_state == 0) {
                l.text[l.len] = '\0';
                l.dir_state = (!l.too_long && (strcmp(l.text, "include") == 0 ||
                                                strcmp(l.text, "include_next") == 0 ||
                                                strcmp(l.text, "import") == 0)) ? 1 : 2;
            } else if (l.directive) {
                l.dir_state = 2;
            }
            rc = emit(&l, GLMUX_PORT_IDENT, line, column, fn, ctx);
            if (rc != 0)
                return rc;
            continue;
        }
        if (is_digit(c) || (c == '.' && peek(&l) >= 0 && is_digit(peek(&l)))) {
            skip_number(&l);
            continue;
        }
        if (l.directive && l.dir_state == 1 && (c == '<' || c == '"')) {
            l.dir_state = 2;
            rc = header_name(&l, c == '<' ? '>' : '"', line, column, fn, ctx);
            if (rc != 0)
                return rc;
            continue;
        }
        if (c == '"' || c == '\'') {
            skip_quoted(&l, c);
            continue;
        }
        if (l.directive && l.dir_state == 1)
            l.dir_state = 2;
        adv(&l);
    }
    return 0;
}
