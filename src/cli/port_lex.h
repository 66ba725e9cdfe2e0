/* SPDX-License-Identifier: MIT */
/*
 * glmux port-check: a C and C++ tokenizer that reports identifiers outside comments, string
 * and character literals, with their line and column. Pure: no I/O, no allocation, no global
 * state; any byte sequence is valid input (the fuzz target of tests/fuzz feeds it).
 */
#ifndef GLMUX_CLI_PORT_LEX_H
#define GLMUX_CLI_PORT_LEX_H

#include <stdbool.h>
#include <stddef.h>

/* Identifiers and header names longer than this are consumed but not reported (no GLX name
 * comes close). */
#define GLMUX_PORT_LEX_MAX 255

enum glmux_port_token_kind {
    GLMUX_PORT_IDENT,  /* an identifier, keyword or macro name (line continuations removed) */
    GLMUX_PORT_HEADER, /* the name in #include <...> or #include "...", without delimiters */
};

struct glmux_port_token {
    enum glmux_port_token_kind kind;
    const char *text; /* NUL-terminated, no NUL inside; valid only during the callback */
    size_t len;       /* strlen(text) */
    unsigned long line;   /* 1-based physical line of the first character */
    unsigned long column; /* 1-based byte column of the first character */
    bool in_directive;    /* inside a preprocessor line (#define, #ifdef, ...) */
};

/* Returns 0 to go on, anything else to stop (glmux_port_lex then returns that value). */
typedef int (*glmux_port_lex_fn)(void *ctx, const struct glmux_port_token *token);

/*
 * Calls fn for every identifier and header name in buf[0..len) in order. Skips // and block
 * comments, string and character literals (with L, u, U, u8 prefixes), C++ raw strings
 * R"delim(...)delim" and numbers (1'000 digit separators, 0x1p-3); splices backslash-newline
 * (also before \r\n) everywhere except inside raw strings. Unterminated comments and raw strings
 * end at the end of the buffer, unterminated quotes at the end of the line. A NUL byte ends an
 * identifier; a header name holding one is not reported.
 * Returns 0, or the first nonzero value fn returned.
 */
int glmux_port_lex(const char *buf, size_t len, glmux_port_lex_fn fn, void *ctx);

#endif
