/* SPDX-License-Identifier: MIT */
/*
 * glmux: reading and validating one vendor manifest (see manifest.h). libglvnd's rules are kept
 * for what libglvnd defines: "file_format_version" major 1 and minor 0, "ICD"."library_path" as
 * a soname, an absolute path, or a path relative to the directory of the file's realpath().
 * Everything glmux adds lives in the "vendor" object, which libglvnd ignores. libEGL reads its
 * manifests with this reader too.
 */
#define _GNU_SOURCE
#include "manifest.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util/file.h"

struct ctx {
    const char *path;
    glmux_manifest_report_fn report;
    void *data;
    int errors;
};

static void say(struct ctx *c, enum glmux_manifest_severity sev, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void say(struct ctx *c, enum glmux_manifest_severity sev, int line, const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    if (sev == GLMUX_MANIFEST_ERROR)
        c->errors++;
    if (c->report == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    c->report(c->data, sev, c->path, line, msg);
}

void glmux_strings_free(char **arr, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(arr[i]);
    free(arr);
}

void glmux_manifest_clear(struct glmux_manifest *m)
{
    free(m->path);
    free(m->name);
    free(m->egl_library);
    free(m->glx_library);
    glmux_strings_free(m->drivers, m->n_drivers);
    memset(m, 0, sizeof(*m));
}

bool glmux_manifest_valid_name(const char *name)
{
    return glmux_json_valid_name(name, GLMUX_MANIFEST_NAME_MAX);
}

bool glmux_manifest_name_from_library(const char *library, char *buf, size_t size)
{
    const char *base = strrchr(library, '/');
    const char *start, *end;

    base = base ? base + 1 : library;
    if (strncmp(base, "libEGL_", 7) == 0 || strncmp(base, "libGLX_", 7) == 0)
        start = base + 7;
    else
        return false;
    end = strstr(start, ".so");
    if (end == NULL || end == start || (size_t)(end - start) >= size)
        return false;
    memcpy(buf, start, (size_t)(end - start));
    buf[end - start] = '\0';
    return glmux_manifest_valid_name(buf);
}

/* "10_nvidia.json" gives 10 and "nvidia"; a name without a number gives -1. */
static int split_file_name(const char *path, char *stem, size_t size)
{
    const char *base = strrchr(path, '/');
    const char *p;
    int number = -1;
    size_t n;

    base = base ? base + 1 : path;
    p = base;
    if (isdigit((unsigned char)*p)) {
        long v = 0;
        while (isdigit((unsigned char)*p) && v < 100000)
            v = v * 10 + (*p++ - '0');
        number = (int)v;
        while (*p == '_' || *p == '-')
            p++;
    }
    n = strcspn(p, ".");
    if (n >= size)
        n = size - 1;
    memcpy(stem, p, n);
    stem[n] = '\0';
    return number;
}

/* Resolves a library path as libglvnd does; returns a malloc'ed string. */
static char *resolve_library(const char *manifest_path, const char *lib)
{
    char real[PATH_MAX];
    char *slash, *out;

    if (lib[0] == '/' || strchr(lib, '/') == NULL)
        return strdup(lib);
    if (realpath(manifest_path, real) == NULL)
        snprintf(real, sizeof(real), "%s", manifest_path);
    slash = strrchr(real, '/');
    if (slash == NULL)
        return strdup(lib);
    *slash = '\0';
    while (lib[0] == '.' && lib[1] == '/')
        lib += 2;
    if (asprintf(&out, "%s/%s", real, lib) < 0)
        return NULL;
    return out;
}

static const struct glmux_json *get_typed(struct ctx *c, const struct glmux_json *obj,
                                          const char *key, const char *where,
                                          enum glmux_json_type type, bool required)
{
    const struct glmux_json *v = glmux_json_get(obj, key);

    if (v == NULL) {
        if (required)
            say(c, GLMUX_MANIFEST_ERROR, obj->line, "%s has no \"%s\"", where, key);
        return NULL;
    }
    if (v->type != type) {
        say(c, GLMUX_MANIFEST_ERROR, v->line, "\"%s\" must be %s, not %s", key,
            glmux_json_type_name(type), glmux_json_type_name(v->type));
        return NULL;
    }
    return v;
}

static void check_version(struct ctx *c, const struct glmux_json *root)
{
    const struct glmux_json *v =
        get_typed(c, root, "file_format_version", "the manifest", GLMUX_JSON_STRING, true);
    unsigned long major = 0;
    char *end;

    if (v == NULL)
        return;
    errno = 0;
    major = strtoul(v->string, &end, 10);
    if (end == v->string || errno != 0 || (*end != '\0' && *end != '.')) {
        say(c, GLMUX_MANIFEST_ERROR, v->line,
            "file_format_version \"%s\" is not \"major.minor.micro\" (write \"1.0.0\")",
            v->string);
        return;
    }
    if (major != 1) {
        say(c, GLMUX_MANIFEST_ERROR, v->line,
            "file_format_version \"%s\": only major version 1 is understood", v->string);
        return;
    }
    /* libglvnd's rule: a minor version above 0 is refused (a missing part counts as 0). */
    if (*end == '.' && strtoul(end + 1, NULL, 10) > 0)
        say(c, GLMUX_MANIFEST_ERROR, v->line,
            "file_format_version \"%s\": libEGL reads only 1.0.x, as libglvnd does; glmux keys "
            "go in the \"vendor\" object, so keep \"1.0.0\"",
            v->string);
}

static char *library_of(struct ctx *c, const struct glmux_json *obj, const char *key,
                        const char *where)
{
    const struct glmux_json *v = get_typed(c, obj, key, where, GLMUX_JSON_STRING, true);
    char *out;

    if (v == NULL)
        return NULL;
    if (v->string[0] == '\0') {
        say(c, GLMUX_MANIFEST_ERROR, v->line, "%s \"%s\" is empty", where, key);
        return NULL;
    }
    out = resolve_library(c->path, v->string);
    if (out == NULL)
        say(c, GLMUX_MANIFEST_ERROR, 0, "out of memory");
    return out;
}

static void read_drivers(struct ctx *c, const struct glmux_json *arr, struct glmux_manifest *m)
{
    m->has_drivers = true;
    if (arr->count > GLMUX_MANIFEST_DRIVERS_MAX) {
        say(c, GLMUX_MANIFEST_ERROR, arr->line, "\"drivers\" lists %zu drivers; at most %d",
            arr->count, GLMUX_MANIFEST_DRIVERS_MAX);
        return;
    }
    m->drivers = calloc(arr->count + 1, sizeof(char *));
    if (m->drivers == NULL) {
        say(c, GLMUX_MANIFEST_ERROR, 0, "out of memory");
        return;
    }
    for (size_t i = 0; i < arr->count; i++) {
        const struct glmux_json *d = arr->items[i];
        bool dup = false;

        if (d->type != GLMUX_JSON_STRING || !glmux_manifest_valid_name(d->string)) {
            say(c, GLMUX_MANIFEST_ERROR, d->line,
                "\"drivers\" entries must be kernel driver names such as \"i915\" or "
                "\"amdgpu\"");
            continue;
        }
        for (size_t j = 0; j < m->n_drivers; j++)
            dup |= strcmp(m->drivers[j], d->string) == 0;
        if (dup) {
            say(c, GLMUX_MANIFEST_WARNING, d->line, "driver \"%s\" listed twice", d->string);
            continue;
        }
        m->drivers[m->n_drivers] = strdup(d->string);
        if (m->drivers[m->n_drivers] == NULL) {
            say(c, GLMUX_MANIFEST_ERROR, 0, "out of memory");
            return;
        }
        m->n_drivers++;
    }
}

static void read_vendor(struct ctx *c, const struct glmux_json *vo, struct glmux_manifest *m)
{
    static const char *const known[] = { "format_version", "name", "glx_library_path",
                                         "drivers", "priority", "description" };
    const struct glmux_json *v;
    int format = GLMUX_MANIFEST_VENDOR_FORMAT;

    m->has_vendor_object = true;
    v = get_typed(c, vo, "format_version", "\"vendor\"", GLMUX_JSON_NUMBER, false);
    if (v != NULL) {
        if (!v->integer || v->number < 1 || v->number > 1000) {
            say(c, GLMUX_MANIFEST_ERROR, v->line, "\"format_version\" must be an integer >= 1");
        } else {
            format = (int)v->number;
            if (format > GLMUX_MANIFEST_VENDOR_FORMAT)
                say(c, GLMUX_MANIFEST_WARNING, v->line,
                    "\"vendor\" format_version %d is newer than %d; keys this glmux does not "
                    "know are ignored",
                    format, GLMUX_MANIFEST_VENDOR_FORMAT);
        }
    }
    v = get_typed(c, vo, "name", "\"vendor\"", GLMUX_JSON_STRING, true);
    if (v != NULL) {
        if (!glmux_manifest_valid_name(v->string))
            say(c, GLMUX_MANIFEST_ERROR, v->line,
                "vendor name \"%s\" must be 1-64 characters of A-Z a-z 0-9 _ . -", v->string);
        else if ((m->name = strdup(v->string)) == NULL)
            say(c, GLMUX_MANIFEST_ERROR, 0, "out of memory");
    }
    if (glmux_json_get(vo, "glx_library_path") != NULL)
        m->glx_library = library_of(c, vo, "glx_library_path", "\"vendor\"");
    v = get_typed(c, vo, "drivers", "\"vendor\"", GLMUX_JSON_ARRAY, false);
    if (v != NULL)
        read_drivers(c, v, m);
    v = get_typed(c, vo, "priority", "\"vendor\"", GLMUX_JSON_NUMBER, false);
    if (v != NULL) {
        if (!v->integer || v->number < 0 || v->number > GLMUX_MANIFEST_PRIORITY_MAX) {
            say(c, GLMUX_MANIFEST_ERROR, v->line, "\"priority\" must be an integer from 0 to %d",
                GLMUX_MANIFEST_PRIORITY_MAX);
        } else {
            m->priority = (int)v->number;
            m->has_priority = true;
        }
    }
    v = glmux_json_get(vo, "description");
    if (v != NULL && v->type != GLMUX_JSON_STRING)
        say(c, GLMUX_MANIFEST_ERROR, v->line, "\"description\" must be a string");
    if (format <= GLMUX_MANIFEST_VENDOR_FORMAT) {
        for (size_t i = 0; i < vo->count; i++) {
            bool ok = false;
            for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
                ok |= strcmp(vo->keys[i], known[k]) == 0;
            if (!ok)
                say(c, GLMUX_MANIFEST_WARNING, vo->key_lines[i],
                    "unknown key \"%s\" in \"vendor\" (ignored)", vo->keys[i]);
        }
    }
}

static void derive_name(struct ctx *c, const struct glmux_json *root, struct glmux_manifest *m)
{
    char buf[GLMUX_MANIFEST_NAME_MAX + 1];

    if (m->egl_library != NULL && glmux_manifest_name_from_library(m->egl_library, buf, sizeof(buf)))
        ;
    else if (m->glx_library != NULL &&
             glmux_manifest_name_from_library(m->glx_library, buf, sizeof(buf)))
        ;
    else {
        split_file_name(c->path, buf, sizeof(buf));
        if (!glmux_manifest_valid_name(buf)) {
            say(c, GLMUX_MANIFEST_ERROR, root->line,
                "cannot derive a vendor name from the library or file name; add "
                "\"vendor\": { \"name\": ... }");
            return;
        }
    }
    m->name = strdup(buf);
    m->name_derived = true;
    if (m->name == NULL)
        say(c, GLMUX_MANIFEST_ERROR, 0, "out of memory");
}

bool glmux_manifest_parse(const char *path, const char *text, size_t len,
                          struct glmux_manifest *out, glmux_manifest_report_fn report, void *data)
{
    struct ctx c = { path, report, data, 0 };
    struct glmux_json_error jerr;
    struct glmux_json *root;
    const struct glmux_json *icd, *vo;
    char stem[GLMUX_MANIFEST_NAME_MAX + 1];
    int number;

    memset(out, 0, sizeof(*out));
    root = glmux_json_parse(text, len, &jerr);
    if (root == NULL) {
        say(&c, GLMUX_MANIFEST_ERROR, jerr.line, "%s", jerr.message);
        return false;
    }
    if (root->type != GLMUX_JSON_OBJECT) {
        say(&c, GLMUX_MANIFEST_ERROR, root->line, "the manifest must be a JSON object, not %s",
            glmux_json_type_name(root->type));
        glmux_json_free(root);
        return false;
    }
    out->path = strdup(path);
    check_version(&c, root);
    icd = glmux_json_get(root, "ICD");
    vo = glmux_json_get(root, "vendor");
    if (icd != NULL) {
        if (icd->type != GLMUX_JSON_OBJECT)
            say(&c, GLMUX_MANIFEST_ERROR, icd->line, "\"ICD\" must be an object");
        else
            out->egl_library = library_of(&c, icd, "library_path", "\"ICD\"");
    }
    if (vo != NULL) {
        if (vo->type != GLMUX_JSON_OBJECT)
            say(&c, GLMUX_MANIFEST_ERROR, vo->line, "\"vendor\" must be an object");
        else
            read_vendor(&c, vo, out);
    }
    if (icd == NULL && out->glx_library == NULL)
        say(&c, GLMUX_MANIFEST_ERROR, root->line,
            "the manifest names no library: add \"ICD\": { \"library_path\": ... } for EGL "
            "and/or \"vendor\": { \"glx_library_path\": ... } for GLX");
    if (out->name == NULL && c.errors == 0)
        derive_name(&c, root, out);
    number = split_file_name(path, stem, sizeof(stem));
    if (!out->has_priority)
        out->priority = (number >= 0 && number <= GLMUX_MANIFEST_PRIORITY_MAX)
                            ? number
                            : GLMUX_MANIFEST_PRIORITY_DEFAULT;
    glmux_json_free(root);
    if (out->path == NULL && c.errors == 0)
        say(&c, GLMUX_MANIFEST_ERROR, 0, "out of memory");
    if (c.errors > 0) {
        glmux_manifest_clear(out);
        return false;
    }
    return true;
}

bool glmux_manifest_load(const char *path, struct glmux_manifest *out,
                         glmux_manifest_report_fn report, void *data)
{
    struct ctx c = { path, report, data, 0 };
    struct glmux_file_error err;
    size_t len = 0;
    char *text;
    bool ok;

    memset(out, 0, sizeof(*out));
    /* Non-blocking, regular files only, bounded: a FIFO or a huge file cannot stall discovery. */
    text = glmux_file_read(path, GLMUX_JSON_MAX_SIZE, &len, &err);
    if (text == NULL) {
        say(&c, GLMUX_MANIFEST_ERROR, 0, "%s", err.message);
        return false;
    }
    ok = glmux_manifest_parse(path, text, len, out, report, data);
    free(text);
    return ok;
}
