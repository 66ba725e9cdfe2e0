/* SPDX-License-Identifier: MIT */
/*
 * glmux fuzz target: libGLX's decoding of the X server's replies (src/glx/glx_reply.c), fed
 * through a fake connection. The first input byte picks the request; the next 32 bytes are the
 * reply header, decoded through the protocol's own structs (GL/glxproto.h) as _XReply leaves it;
 * the rest is the reply data that _XRead would return (zeros past the end, as if the server
 * kept sending them). Requests: QueryServerString (GLX_VENDOR_NAMES_EXT and GLX_EXTENSIONS,
 * whose words libGLX splits), GetDrawableAttributes and QueryContext (attribute pairs).
 * Checks: exactly the declared data is consumed, and the splitting of the vendor list agrees
 * with the whole-word search libGLX uses on the extension list (src/winsys/words.c).
 */
#include <string.h>

#include <X11/Xmd.h>
#include <GL/glxproto.h>

#include "fuzz.h"
#include "glx/glx_reply.h"
#include "winsys/winsys.h"

struct fake_conn {
    const uint8_t *data;
    size_t size, pos;
    uint64_t consumed;  /* bytes read or skipped, past the end included */
};

static void fake_read(void *ctx, void *buf, size_t size)
{
    struct fake_conn *f = ctx;
    size_t n = f->pos < f->size ? f->size - f->pos : 0;

    if (n > size)
        n = size;
    memcpy(buf, f->data + f->pos, n);
    memset((uint8_t *)buf + n, 0, size - n);
    f->pos += n;
    f->consumed += size;
}

static void fake_skip(void *ctx, uint32_t words)
{
    struct fake_conn *f = ctx;
    uint64_t bytes = (uint64_t)words * 4;

    f->pos = bytes < f->size - f->pos ? f->pos + (size_t)bytes : f->size;
    f->consumed += bytes;
}

static void check_words(char *str)
{
    static const char *const probes[] = { "GLX_EXT_libglvnd", "mesa", "nvidia", "" };
    size_t len = strlen(str);
    char *copy = malloc(len + 1);
    bool seen[sizeof(probes) / sizeof(probes[0])] = { false };
    char *cursor, *word;

    if (copy == NULL)
        return;
    memcpy(copy, str, len + 1);
    cursor = copy;
    while ((word = glmux_glx_token_next(&cursor)) != NULL) {
        GLMUX_FUZZ_CHECK(word[0] != '\0' && strchr(word, ' ') == NULL);
        GLMUX_FUZZ_CHECK(word >= copy && word + strlen(word) <= copy + len);
        for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
            seen[i] |= strcmp(word, probes[i]) == 0;
    }
    GLMUX_FUZZ_CHECK(glmux_glx_token_next(&cursor) == NULL);
    for (size_t i = 0; i + 1 < sizeof(probes) / sizeof(probes[0]); i++)
        GLMUX_FUZZ_CHECK(glmux_words_has_str(str, probes[i]) == seen[i]);
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t header[32] = { 0 };
    struct fake_conn f = { 0 };
    struct glmux_glx_conn conn = { fake_read, fake_skip, &f };
    uint32_t length;

    if (size < 1)
        return 0;
    memcpy(header, data + 1, size - 1 < sizeof(header) ? size - 1 : sizeof(header));
    f.data = data + 1 + sizeof(header);
    f.size = size > 1 + sizeof(header) ? size - 1 - sizeof(header) : 0;
    if (size <= 1 + sizeof(header))
        f.data = data;

    switch (data[0] % 3) {
    case 0: {
        xGLXQueryServerStringReply reply;
        char *str;

        memcpy(&reply, header, sizeof(reply));
        length = reply.length;
        str = glmux_glx_reply_string(&conn, reply.length, reply.n);
        if (str != NULL) {
            GLMUX_FUZZ_CHECK(strlen(str) <= (size_t)reply.length * 4);
            check_words(str);
            free(str);
        }
        break;
    }
    case 1: {
        xGLXGetDrawableAttributesReply reply;

        memcpy(&reply, header, sizeof(reply));
        length = reply.length;
        GLMUX_FUZZ_CHECK(glmux_glx_reply_screen(&conn, reply.numAttribs, reply.length) >= -1);
        break;
    }
    default: {
        xGLXQueryContextReply reply;

        memcpy(&reply, header, sizeof(reply));
        length = reply.length;
        GLMUX_FUZZ_CHECK(glmux_glx_reply_screen(&conn, reply.n, reply.length) >= -1);
        break;
    }
    }
    GLMUX_FUZZ_CHECK(f.consumed == (uint64_t)length * 4);
    return 0;
}
