/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: reading one EGL vendor manifest. A small strict JSON parser checks the whole
 * document (objects, arrays, strings with escapes, numbers, literals; nesting limited) and
 * keeps the two strings libEGL uses, "file_format_version" and "ICD"."library_path", then
 * the version is checked and library_path is resolved the way libglvnd does it.
 */
#define _GNU_SOURCE
#include "manifest.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

#define MAX_DEPTH 64
#define MAX_FILE_SIZE (1 << 20)

struct parser {
    const char *start, *p, *end;
    int depth;
    struct glmux_egl_manifest_fields *out;
};

static bool fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(struct parser *ps, const char *fmt, ...)
{
    va_list ap;

    if (ps->out->error[0] != '\0')
        return false;
    snprintf(ps->out->error, sizeof(ps->out->error), "at byte %ld: ", (long)(ps->p - ps->start));
    va_start(ap, fmt);
    vsnprintf(ps->out->error + strlen(ps->out->error),
              sizeof(ps->out->error) - strlen(ps->out->error), fmt, ap);
    va_end(ap);
    return false;
}

static void skip_ws(struct parser *ps)
{
    while (ps->p < ps->end &&
           (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static bool parse_value(struct parser *ps, int role);

/* Roles tell a value what the caller wants from it. */
enum { ROLE_NONE, ROLE_ROOT, ROLE_ICD };

static void put_utf8(char *buf, size_t *len, unsigned cp)
{
    if (cp < 0x80) {
        buf[(*len)++] = (char)cp;
    } else if (cp < 0x800) {
        buf[(*len)++] = (char)(0xC0 | (cp >> 6));
        buf[(*len)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        buf[(*len)++] = (char)(0xE0 | (cp >> 12));
        buf[(*len)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[(*len)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        buf[(*len)++] = (char)(0xF0 | (cp >> 18));
        buf[(*len)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        buf[(*len)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[(*len)++] = (char)(0x80 | (cp & 0x3F));
    }
}

static bool parse_hex4(struct parser *ps, unsigned *cp)
{
    *cp = 0;
    if (ps->end - ps->p < 4)
        return fail(ps, "truncated \\u escape");
    for (int i = 0; i < 4; i++) {
        char c = *ps->p++;

        *cp <<= 4;
        if (c >= '0' && c <= '9')
            *cp |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            *cp |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            *cp |= (unsigned)(c - 'A' + 10);
        else
            return fail(ps, "bad \\u escape");
    }
    return true;
}

/* Parses a string at ps->p (which is '"'); *result gets a malloc'ed copy when non-NULL. */
static bool parse_string(struct parser *ps, char **result)
{
    size_t cap = (size_t)(ps->end - ps->p) + 1, len = 0;
    char *buf = result ? malloc(cap) : NULL;

    if (result != NULL && buf == NULL)
        return fail(ps, "out of memory");
    ps->p++;
    while (ps->p < ps->end && *ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p++;
        unsigned cp;

        if (c < 0x20) {
            free(buf);
            return fail(ps, "control character in a string");
        }
        if (c != '\\') {
            if (buf)
                buf[len++] = (char)c;
            continue;
        }
        if (ps->p >= ps->end)
            break;
        c = (unsigned char)*ps->p++;
        switch (c) {
        case '"': case '\\': case '/': cp = c; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u':
            if (!parse_hex4(ps, &cp)) {
                free(buf);
                return false;
            }
            if (cp >= 0xD800 && cp < 0xDC00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' &&
                ps->p[1] == 'u') {
                unsigned lo;

                ps->p += 2;
                if (!parse_hex4(ps, &lo)) {
                    free(buf);
                    return false;
                }
                if (lo >= 0xDC00 && lo < 0xE000)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            if (cp == 0) {
                free(buf);
                return fail(ps, "NUL character in a string");
            }
            break;
        default:
            free(buf);
            return fail(ps, "unknown escape \\%c", c);
        }
        if (buf)
            put_utf8(buf, &len, cp);
    }
    if (ps->p >= ps->end) {
        free(buf);
        return fail(ps, "unterminated string");
    }
    ps->p++;
    if (buf) {
        buf[len] = '\0';
        *result = buf;
    }
    return true;
}

static bool parse_object(struct parser *ps, int role)
{
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        return true;
    }
    for (;;) {
        char *key = NULL;
        int child = ROLE_NONE;
        char **slot = NULL;
        bool ok;

        skip_ws(ps);
        if (ps->p >= ps->end || *ps->p != '"')
            return fail(ps, "expected a member name in quotes");
        if (!parse_string(ps, &key))
            return false;
        skip_ws(ps);
        if (ps->p >= ps->end || *ps->p != ':') {
            free(key);
            return fail(ps, "expected ':' after a member name");
        }
        ps->p++;
        skip_ws(ps);
        if (role == ROLE_ROOT && strcmp(key, "ICD") == 0)
            child = ROLE_ICD;
        if (role == ROLE_ROOT && strcmp(key, "file_format_version") == 0)
            slot = &ps->out->file_format_version;
        if (role == ROLE_ICD && strcmp(key, "library_path") == 0)
            slot = &ps->out->library_path;
        free(key);
        if (slot != NULL && ps->p < ps->end && *ps->p == '"') {
            char *value = NULL;

            ok = parse_string(ps, &value);
            if (ok) {
                free(*slot);
                *slot = value;
            }
        } else {
            if (slot != NULL) {
                /* A later non-string value replaces an earlier string. */
                free(*slot);
                *slot = NULL;
            }
            ok = parse_value(ps, child);
        }
        if (!ok)
            return false;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == '}') {
            ps->p++;
            return true;
        }
        return fail(ps, "expected ',' or '}' in an object");
    }
}

static bool parse_array(struct parser *ps)
{
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
        return true;
    }
    for (;;) {
        skip_ws(ps);
        if (!parse_value(ps, ROLE_NONE))
            return false;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
            return true;
        }
        return fail(ps, "expected ',' or ']' in an array");
    }
}

static bool parse_number(struct parser *ps)
{
    const char *s = ps->p;

    if (ps->p < ps->end && *ps->p == '-')
        ps->p++;
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
        return fail(ps, "unexpected character '%c'", s < ps->end ? *s : '?');
    if (*ps->p == '0')
        ps->p++;
    else
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            ps->p++;
    if (ps->p < ps->end && *ps->p == '.') {
        ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
            return fail(ps, "bad number");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
            ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
            return fail(ps, "bad number");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            ps->p++;
    }
    return true;
}

static bool parse_literal(struct parser *ps, const char *word)
{
    size_t n = strlen(word);

    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return fail(ps, "unexpected character '%c'", *ps->p);
    ps->p += n;
    return true;
}

static bool parse_value(struct parser *ps, int role)
{
    bool ok;

    skip_ws(ps);
    if (ps->p >= ps->end)
        return fail(ps, "unexpected end of input");
    if (++ps->depth > MAX_DEPTH)
        return fail(ps, "nested deeper than %d levels", MAX_DEPTH);
    switch (*ps->p) {
    case '{': ok = parse_object(ps, role); break;
    case '[': ok = parse_array(ps); break;
    case '"': ok = parse_string(ps, NULL); break;
    case 't': ok = parse_literal(ps, "true"); break;
    case 'f': ok = parse_literal(ps, "false"); break;
    case 'n': ok = parse_literal(ps, "null"); break;
    default: ok = parse_number(ps); break;
    }
    ps->depth--;
    return ok;
}

bool glmux_egl_manifest_parse(const char *text, size_t len,
                              struct glmux_egl_manifest_fields *out)
{
    struct parser ps = { .start = text, .p = text, .end = text + len, .out = out };

    memset(out, 0, sizeof(*out));
    skip_ws(&ps);
    if (ps.p >= ps.end || *ps.p != '{') {
        snprintf(out->error, sizeof(out->error), "the top level is not a JSON object");
        return false;
    }
    if (parse_value(&ps, ROLE_ROOT)) {
        skip_ws(&ps);
        if (ps.p == ps.end)
            return true;
        fail(&ps, "trailing characters after the object");
    }
    glmux_egl_manifest_fields_free(out);
    return false;
}

void glmux_egl_manifest_fields_free(struct glmux_egl_manifest_fields *f)
{
    free(f->file_format_version);
    free(f->library_path);
    f->file_format_version = f->library_path = NULL;
}

static bool read_part(const char **s, long *value)
{
    char *end;

    if (**s < '0' || **s > '9')
        return false;
    errno = 0;
    *value = strtol(*s, &end, 10);
    if (errno != 0)
        return false;
    *s = end;
    return true;
}

bool glmux_egl_manifest_version_ok(const char *version)
{
    long part[3] = { 0, 0, 0 };
    const char *s = version;

    for (int i = 0; i < 3; i++) {
        if (!read_part(&s, &part[i]))
            return false;
        if (*s == '\0')
            break;
        if (*s != '.' || i == 2)
            return false;
        s++;
    }
    return part[0] == 1 && part[1] <= 0;
}

static char *read_file(const char *path, size_t *len, char *why, size_t why_size)
{
    FILE *f = fopen(path, "rbe");
    char *buf;
    size_t n;

    if (f == NULL) {
        snprintf(why, why_size, "cannot open it: %s", strerror(errno));
        return NULL;
    }
    buf = malloc(MAX_FILE_SIZE + 1);
    if (buf == NULL) {
        fclose(f);
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    n = fread(buf, 1, MAX_FILE_SIZE + 1, f);
    if (ferror(f) || n > MAX_FILE_SIZE) {
        snprintf(why, why_size, ferror(f) ? "read error" : "larger than 1 MiB");
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* library_path relative with a '/': resolved against the manifest's real directory. */
static char *resolve_library(const char *manifest, const char *library)
{
    char real[PATH_MAX];
    char *slash, *result;

    if (library[0] == '/' || strchr(library, '/') == NULL)
        return strdup(library);
    if (realpath(manifest, real) == NULL)
        return NULL;
    slash = strrchr(real, '/');
    if (slash != NULL)
        *slash = '\0';
    if (asprintf(&result, "%s/%s", real, library) < 0)
        return NULL;
    return result;
}

bool glmux_egl_manifest_read(const char *path, char **library)
{
    struct glmux_egl_manifest_fields f;
    char why[128];
    size_t len = 0;
    char *text = read_file(path, &len, why, sizeof(why));

    *library = NULL;
    if (text == NULL) {
        glmux_log(GLMUX_LOG_VENDOR, "skipping manifest %s: %s", path, why);
        return false;
    }
    if (!glmux_egl_manifest_parse(text, len, &f)) {
        glmux_log(GLMUX_LOG_VENDOR, "skipping manifest %s: malformed JSON %s", path, f.error);
        free(text);
        return false;
    }
    free(text);
    if (f.file_format_version == NULL) {
        glmux_log(GLMUX_LOG_VENDOR, "skipping manifest %s: no \"file_format_version\" string",
                  path);
    } else if (!glmux_egl_manifest_version_ok(f.file_format_version)) {
        glmux_log(GLMUX_LOG_VENDOR, "skipping manifest %s: file_format_version \"%s\" is not "
                  "supported (this libEGL reads 1.0.x)", path, f.file_format_version);
    } else if (f.library_path == NULL || f.library_path[0] == '\0') {
        glmux_log(GLMUX_LOG_VENDOR, "skipping manifest %s: no \"ICD\": {\"library_path\": ...} "
                  "string", path);
    } else {
        *library = resolve_library(path, f.library_path);
        if (*library == NULL)
            glmux_log(GLMUX_LOG_VENDOR, "skipping manifest %s: cannot resolve library_path "
                      "\"%s\"", path, f.library_path);
    }
    glmux_egl_manifest_fields_free(&f);
    return *library != NULL;
}
