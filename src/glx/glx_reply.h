/* SPDX-License-Identifier: MIT */
/*
 * glmux: decoding the data of the X replies libGLX reads itself (GLXQueryServerString strings,
 * GetDrawableAttributes and QueryContext attribute pairs) and splitting the server's
 * GLX_VENDOR_NAMES_EXT list, apart from Xlib. Reading goes through struct glmux_glx_conn, which
 * glx_x11.c implements with _XRead/_XEatDataWords and the fuzz target tests/fuzz/fuzz_glx_reply.c
 * with a byte buffer: a reply from a broken or hostile server can only make these functions
 * return NULL or -1.
 */
#ifndef GLMUX_GLX_REPLY_H
#define GLMUX_GLX_REPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The reply data that follows a 32-byte X reply header, read in order. */
struct glmux_glx_conn {
    void (*read)(void *ctx, void *buf, size_t size);  /* the next size bytes (_XRead) */
    void (*skip)(void *ctx, uint32_t words);          /* discards words * 4 bytes (_XEatDataWords) */
    void *ctx;
};

/* Longest server string accepted (extension and vendor lists are a few KiB). */
#define GLMUX_GLX_REPLY_STRING_MAX (1u << 20)

/*
 * A GLXQueryServerString reply's string: length words of data, of which the first n bytes are
 * the string. Returns it malloc'd and NUL-terminated, or NULL (longer than
 * GLMUX_GLX_REPLY_STRING_MAX: the data is skipped; out of memory). Consumes exactly the data.
 */
char *glmux_glx_reply_string(const struct glmux_glx_conn *c, uint32_t length, uint32_t n);

/* Most attribute pairs read from one reply (a server sends a few dozen). */
#define GLMUX_GLX_REPLY_ATTRIBS_MAX 4096

/*
 * The value of GLX_SCREEN among n (attribute, value) pairs of a GetDrawableAttributes or
 * QueryContext reply with length words of data, or -1 (absent, negative, n does not match
 * length, or n is over GLMUX_GLX_REPLY_ATTRIBS_MAX). Consumes exactly the data.
 */
int glmux_glx_reply_screen(const struct glmux_glx_conn *c, uint32_t n, uint32_t length);

/*
 * The next word of a space-separated list, NUL-terminated in place, or NULL at the end; *cursor
 * starts at the list and is advanced (strtok_r on " ", without its hidden state).
 */
char *glmux_glx_token_next(char **cursor);

#endif /* GLMUX_GLX_REPLY_H */
