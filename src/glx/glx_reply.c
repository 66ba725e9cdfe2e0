/* SPDX-License-Identifier: MIT */
/*
 * glmux: the reply decoding of libGLX's own GLX requests, free of Xlib so that it can be fed
 * from a buffer (see glx_reply.h). Every count in a reply is checked against the data length
 * the reply declares before anything is allocated or indexed.
 */
#include "glx/glx_reply.h"

#include <stdlib.h>
#include <string.h>

#include <GL/glx.h>

char *glmux_glx_reply_string(const struct glmux_glx_conn *c, uint32_t length, uint32_t n)
{
    size_t bytes = (size_t)length * 4;
    char *str;

    if (length > GLMUX_GLX_REPLY_STRING_MAX / 4 || (str = malloc(bytes + 1)) == NULL) {
        c->skip(c->ctx, length);
        return NULL;
    }
    c->read(c->ctx, str, bytes);
    str[bytes] = '\0';
    if (n < bytes)
        str[n] = '\0';
    return str;
}

int glmux_glx_reply_screen(const struct glmux_glx_conn *c, uint32_t n, uint32_t length)
{
    int screen = -1;

    if ((uint64_t)n * 2 != length || n > GLMUX_GLX_REPLY_ATTRIBS_MAX) {
        c->skip(c->ctx, length);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t pair[2];

        c->read(c->ctx, pair, sizeof(pair));
        if (pair[0] == GLX_SCREEN)
            screen = pair[1] <= INT32_MAX ? (int)pair[1] : -1;
    }
    return screen;
}

char *glmux_glx_token_next(char **cursor)
{
    char *p = *cursor, *tok;

    if (p == NULL)
        return NULL;
    while (*p == ' ')
        p++;
    if (*p == '\0') {
        *cursor = p;
        return NULL;
    }
    tok = p;
    while (*p != '\0' && *p != ' ')
        p++;
    if (*p == ' ')
        *p++ = '\0';
    *cursor = p;
    return tok;
}
