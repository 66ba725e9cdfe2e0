/* SPDX-License-Identifier: MIT */
/*
 * glmux: the JSON reader behind the manifest parser (see json.h). A recursive-descent parser
 * over a bounded buffer; recursion depth is capped, so hostile input cannot exhaust the stack.
 */
#include "json.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
    const char *p;
    const char *end;
    int line;
    struct glmux_json_error *err;
    bool failed;
};

static void fail(struct parser *ps, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(struct parser *ps, int line, const char *fmt, ...)
{
    va_list ap;

    if (ps->failed)
        return;
    ps->failed = true;
    ps->err->line = line;
    va_start(ap, fmt);
    vsnprintf(ps->err->message, sizeof(ps->err->message), fmt, ap);
    va_end(ap);
}

void glmux_json_free(struct glmux_json *value)
{
    if (value == NULL)
        return;
    for (size_t i = 0; i < value->count; i++) {
        glmux_json_free(value->items[i]);
        if (value->keys != NULL)
            free(value->keys[i]);
    }
    free(value->items);
    free(value->keys);
    free(value->key_lines);
    free(value->string);
    free(value);
}

const struct glmux_json *glmux_json_get(const struct glmux_json *obj, const char *key)
{
    if (obj == NULL || obj->type != GLMUX_JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->count; i++) {
        if (strcmp(obj->keys[i], key) == 0)
            return obj->items[i];
    }
    return NULL;
}

static void skip_space(struct parser *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n')
            ps->line++;
        else if (c != ' ' && c != '\t' && c != '\r')
            return;
        ps->p++;
    }
}

static struct glmux_json *new_value(struct parser *ps, enum glmux_json_type type)
{
    struct glmux_json *v = calloc(1, sizeof(*v));

    if (v == NULL) {
        fail(ps, 0, "out of memory");
        return NULL;
    }
    v->type = type;
    v->line = ps->line;
    return v;
}

static bool literal(struct parser *ps, const char *word)
{
    size_t n = strlen(word);

    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return false;
    ps->p += n;
    return true;
}

static int hex4(const char *s)
{
    int v = 0;

    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

static size_t put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Parses a string starting at the opening quote; returns a malloc'ed UTF-8 copy. */
static char *parse_string(struct parser *ps)
{
    const char *start = ps->p + 1;
    const char *q = start;
    size_t cap;
    char *out, *w;

    /* Escapes never expand (\uXXXX is 6 bytes for at most 4), so the raw length bounds it. */
    while (q < ps->end && *q != '"') {
        if (*q == '\\')
            q++;
        q++;
    }
    if (q >= ps->end) {
        fail(ps, ps->line, "unterminated string");
        return NULL;
    }
    cap = (size_t)(q - start) + 1;
    out = malloc(cap);
    if (out == NULL) {
        fail(ps, 0, "out of memory");
        return NULL;
    }
    w = out;
    q = start;
    while (*q != '"') {
        unsigned char c = (unsigned char)*q;
        if (c < 0x20) {
            fail(ps, ps->line, "control character in string (write it as an escape)");
            goto error;
        }
        if (c != '\\') {
            *w++ = (char)c;
            q++;
            continue;
        }
        q++;
        switch (*q) {
        case '"': *w++ = '"'; break;
        case '\\': *w++ = '\\'; break;
        case '/': *w++ = '/'; break;
        case 'b': *w++ = '\b'; break;
        case 'f': *w++ = '\f'; break;
        case 'n': *w++ = '\n'; break;
        case 'r': *w++ = '\r'; break;
        case 't': *w++ = '\t'; break;
        case 'u': {
            int hi = (ps->end - q > 4) ? hex4(q + 1) : -1;
            uint32_t cp;
            if (hi < 0) {
                fail(ps, ps->line, "bad \\u escape: four hex digits expected");
                goto error;
            }
            q += 4;
            cp = (uint32_t)hi;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                int lo = (ps->end - q > 6 && q[1] == '\\' && q[2] == 'u') ? hex4(q + 3) : -1;
                if (lo < 0xdc00 || lo > 0xdfff) {
                    fail(ps, ps->line, "unpaired UTF-16 surrogate in \\u escape");
                    goto error;
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
                q += 6;
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                fail(ps, ps->line, "unpaired UTF-16 surrogate in \\u escape");
                goto error;
            }
            if (cp == 0) {
                fail(ps, ps->line, "\\u0000 is not allowed in strings");
                goto error;
            }
            w += put_utf8(w, cp);
            break;
        }
        default:
            fail(ps, ps->line, "unknown escape '\\%c' in string", *q);
            goto error;
        }
        q++;
    }
    *w = '\0';
    ps->p = q + 1;
    return out;
error:
    free(out);
    return NULL;
}

static struct glmux_json *parse_number(struct parser *ps)
{
    const char *s = ps->p;
    const char *q = s;
    char buf[64];
    struct glmux_json *v;
    bool integer = true;

    if (q < ps->end && *q == '-')
        q++;
    if (q >= ps->end || *q < '0' || *q > '9') {
        fail(ps, ps->line, "bad number");
        return NULL;
    }
    if (*q == '0' && q + 1 < ps->end && q[1] >= '0' && q[1] <= '9') {
        fail(ps, ps->line, "bad number: leading zero");
        return NULL;
    }
    while (q < ps->end && *q >= '0' && *q <= '9')
        q++;
    if (q < ps->end && *q == '.') {
        integer = false;
        q++;
        if (q >= ps->end || *q < '0' || *q > '9') {
            fail(ps, ps->line, "bad number: digits expected after '.'");
            return NULL;
        }
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        integer = false;
        q++;
        if (q < ps->end && (*q == '+' || *q == '-'))
            q++;
        if (q >= ps->end || *q < '0' || *q > '9') {
            fail(ps, ps->line, "bad number: digits expected in exponent");
            return NULL;
        }
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    }
    if ((size_t)(q - s) >= sizeof(buf)) {
        fail(ps, ps->line, "number too long");
        return NULL;
    }
    memcpy(buf, s, (size_t)(q - s));
    buf[q - s] = '\0';
    v = new_value(ps, GLMUX_JSON_NUMBER);
    if (v == NULL)
        return NULL;
    v->number = strtod(buf, NULL);
    v->integer = integer;
    ps->p = q;
    return v;
}

static struct glmux_json *parse_value(struct parser *ps, int depth);

/*
 * Appends item (and, in an object, its key) to parent, growing the arrays geometrically:
 * *cap is how many members they have room for.
 */
static bool append(struct parser *ps, struct glmux_json *parent, size_t *cap,
                   struct glmux_json *item, char *key, int key_line)
{
    if (parent->count == *cap) {
        size_t n = *cap ? *cap * 2 : 4;
        struct glmux_json **items = realloc(parent->items, n * sizeof(*items));

        if (items == NULL)
            goto oom;
        parent->items = items;
        if (parent->type == GLMUX_JSON_OBJECT) {
            char **keys = realloc(parent->keys, n * sizeof(*keys));
            int *lines;
            if (keys == NULL)
                goto oom;
            parent->keys = keys;
            lines = realloc(parent->key_lines, n * sizeof(*lines));
            if (lines == NULL)
                goto oom;
            parent->key_lines = lines;
        }
        *cap = n;
    }
    if (parent->type == GLMUX_JSON_OBJECT) {
        parent->keys[parent->count] = key;
        parent->key_lines[parent->count] = key_line;
    }
    parent->items[parent->count] = item;
    parent->count++;
    return true;
oom:
    fail(ps, 0, "out of memory");
    return false;
}

/*
 * The keys of one object being parsed, as an open-addressing hash set of member indexes, so
 * that the duplicate check costs O(1) per key instead of a scan of the earlier ones (a 1 MiB
 * file of 90,000 keys took 20 s of CPU with the scan).
 */
struct key_set {
    size_t *slots;  /* member index + 1; 0 is an empty slot */
    size_t size;    /* a power of two, kept at least twice the member count */
};

static uint32_t key_hash(const char *key)
{
    uint32_t h = 2166136261u;  /* FNV-1a */

    for (; *key != '\0'; key++)
        h = (h ^ (unsigned char)*key) * 16777619u;
    return h;
}

/* The slot that holds key, or the empty slot where it would go. */
static size_t *key_set_slot(const struct key_set *set, const struct glmux_json *obj,
                            const char *key)
{
    size_t mask = set->size - 1;

    for (size_t i = key_hash(key) & mask;; i = (i + 1) & mask) {
        if (set->slots[i] == 0 || strcmp(obj->keys[set->slots[i] - 1], key) == 0)
            return &set->slots[i];
    }
}

/*
 * Looks key up among obj's members. Returns the index of an earlier member of that name, or
 * -1 after recording key as member obj->count (the caller appends it next); -2 when out of
 * memory.
 */
static long key_set_add(struct key_set *set, const struct glmux_json *obj, const char *key)
{
    size_t *slot;

    if ((obj->count + 1) * 2 > set->size) {
        struct key_set bigger = { NULL, set->size ? set->size * 2 : 16 };

        bigger.slots = calloc(bigger.size, sizeof(*bigger.slots));
        if (bigger.slots == NULL)
            return -2;
        for (size_t i = 0; i < obj->count; i++)
            *key_set_slot(&bigger, obj, obj->keys[i]) = i + 1;
        free(set->slots);
        *set = bigger;
    }
    slot = key_set_slot(set, obj, key);
    if (*slot != 0)
        return (long)(*slot - 1);
    *slot = obj->count + 1;
    return -1;
}

static struct glmux_json *parse_container(struct parser *ps, int depth, bool object)
{
    struct glmux_json *v = new_value(ps, object ? GLMUX_JSON_OBJECT : GLMUX_JSON_ARRAY);
    char close = object ? '}' : ']';
    struct key_set keys = { NULL, 0 };
    size_t cap = 0;

    if (v == NULL)
        return NULL;
    if (depth >= GLMUX_JSON_MAX_DEPTH) {
        fail(ps, ps->line, "nesting deeper than %d levels", GLMUX_JSON_MAX_DEPTH);
        goto error;
    }
    ps->p++;
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return v;
    }
    for (;;) {
        long first;
        char *key = NULL;
        int key_line = ps->line;
        struct glmux_json *item;

        skip_space(ps);
        if (object) {
            if (ps->p >= ps->end || *ps->p != '"') {
                fail(ps, ps->line, "object key (a string in double quotes) expected");
                goto error;
            }
            key_line = ps->line;
            key = parse_string(ps);
            if (key == NULL)
                goto error;
            if (v->count >= GLMUX_JSON_MAX_KEYS) {
                fail(ps, key_line, "object with more than %d members", GLMUX_JSON_MAX_KEYS);
                free(key);
                goto error;
            }
            first = key_set_add(&keys, v, key);
            if (first >= 0)
                fail(ps, key_line, "duplicate key \"%s\" (first at line %d)", key,
                     v->key_lines[first]);
            else if (first == -2)
                fail(ps, 0, "out of memory");
            if (first != -1) {
                free(key);
                goto error;
            }
            skip_space(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                fail(ps, ps->line, "':' expected after key \"%s\"", key);
                free(key);
                goto error;
            }
            ps->p++;
        }
        item = parse_value(ps, depth + 1);
        if (item == NULL) {
            free(key);
            goto error;
        }
        if (!append(ps, v, &cap, item, key, key_line)) {
            glmux_json_free(item);
            free(key);
            goto error;
        }
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            int comma_line = ps->line;
            ps->p++;
            skip_space(ps);
            if (ps->p < ps->end && *ps->p == close) {
                fail(ps, comma_line, "trailing comma before '%c'", close);
                goto error;
            }
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            free(keys.slots);
            return v;
        }
        if (ps->p >= ps->end)
            fail(ps, ps->line, "unexpected end of file: '%c' expected", close);
        else
            fail(ps, ps->line, "',' or '%c' expected", close);
        goto error;
    }
error:
    free(keys.slots);
    glmux_json_free(v);
    return NULL;
}

static struct glmux_json *parse_value(struct parser *ps, int depth)
{
    struct glmux_json *v;

    skip_space(ps);
    if (ps->p >= ps->end) {
        fail(ps, ps->line, "unexpected end of file: a value expected");
        return NULL;
    }
    switch (*ps->p) {
    case '{':
        return parse_container(ps, depth, true);
    case '[':
        return parse_container(ps, depth, false);
    case '"':
        v = new_value(ps, GLMUX_JSON_STRING);
        if (v == NULL)
            return NULL;
        v->string = parse_string(ps);
        if (v->string == NULL) {
            glmux_json_free(v);
            return NULL;
        }
        return v;
    case 't':
    case 'f':
    case 'n':
        v = new_value(ps, GLMUX_JSON_NULL);
        if (v == NULL)
            return NULL;
        if (literal(ps, "true")) {
            v->type = GLMUX_JSON_BOOL;
            v->boolean = true;
        } else if (literal(ps, "false")) {
            v->type = GLMUX_JSON_BOOL;
        } else if (!literal(ps, "null")) {
            fail(ps, ps->line, "unknown word (true, false or null expected)");
            glmux_json_free(v);
            return NULL;
        }
        return v;
    default:
        if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
            return parse_number(ps);
        if ((unsigned char)*ps->p >= 0x20 && (unsigned char)*ps->p < 0x7f)
            fail(ps, ps->line, "unexpected character '%c'", *ps->p);
        else
            fail(ps, ps->line, "unexpected byte 0x%02x", (unsigned char)*ps->p);
        return NULL;
    }
}

struct glmux_json *glmux_json_parse(const char *text, size_t len, struct glmux_json_error *err)
{
    struct parser ps = { text, text + len, 1, err, false };
    struct glmux_json *root;

    err->line = 0;
    err->message[0] = '\0';
    if (len > GLMUX_JSON_MAX_SIZE) {
        fail(&ps, 0, "file larger than %u bytes", GLMUX_JSON_MAX_SIZE);
        return NULL;
    }
    if (memchr(text, '\0', len) != NULL) {
        const char *nul = memchr(text, '\0', len);
        int line = 1;
        for (const char *q = text; q < nul; q++)
            line += *q == '\n';
        fail(&ps, line, "NUL byte in file");
        return NULL;
    }
    /* A UTF-8 byte order mark is tolerated. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        ps.p += 3;
    root = parse_value(&ps, 0);
    if (root == NULL)
        return NULL;
    skip_space(&ps);
    if (ps.p < ps.end) {
        fail(&ps, ps.line, "text after the end of the top-level value");
        glmux_json_free(root);
        return NULL;
    }
    return root;
}

const char *glmux_json_type_name(enum glmux_json_type type)
{
    switch (type) {
    case GLMUX_JSON_NULL: return "null";
    case GLMUX_JSON_BOOL: return "a boolean";
    case GLMUX_JSON_NUMBER: return "a number";
    case GLMUX_JSON_STRING: return "a string";
    case GLMUX_JSON_ARRAY: return "an array";
    case GLMUX_JSON_OBJECT: return "an object";
    }
    return "?";
}

bool glmux_json_valid_name(const char *name, size_t max)
{
    size_t n = 0;

    if (name == NULL || *name == '\0')
        return false;
    for (; name[n] != '\0'; n++) {
        unsigned char ch = (unsigned char)name[n];
        if (!isalnum(ch) && ch != '_' && ch != '-' && ch != '.')
            return false;
    }
    return n <= max;
}
