/* SPDX-License-Identifier: MIT */
/*
 * glmux winsys: space-separated word lists, as extension strings are written, and a growing
 * string to build them in. libEGL merges its client extension string and reads a vendor's
 * capabilities with these; libGLX checks GLX_EXT_libglvnd and merges client strings.
 */
#include <stdlib.h>
#include <string.h>

#include "winsys/winsys.h"

bool glmux_words_has(const char *list, const char *word, size_t n)
{
    if (list == NULL || n == 0)
        return false;
    for (const char *p = list; *p != '\0';) {
        size_t len = strcspn(p, " ");

        if (len == n && memcmp(p, word, n) == 0)
            return true;
        p += len;
        while (*p == ' ')
            p++;
    }
    return false;
}

bool glmux_words_has_str(const char *list, const char *word)
{
    return glmux_words_has(list, word, strlen(word));
}

bool glmux_strbuf_append(struct glmux_strbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *p = realloc(b->s, cap);

        if (p == NULL)
            return false;
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return true;
}

bool glmux_words_append_new(struct glmux_strbuf *b, const char *words)
{
    const char *p = words;

    if (b->s == NULL && !glmux_strbuf_append(b, "", 0))
        return false;
    while (p != NULL && *p != '\0') {
        size_t n;

        while (*p == ' ')
            p++;
        n = strcspn(p, " ");
        if (n > 0 && !glmux_words_has(b->s, p, n) &&
            ((b->len > 0 && !glmux_strbuf_append(b, " ", 1)) || !glmux_strbuf_append(b, p, n)))
            return false;
        p += n;
    }
    return true;
}
