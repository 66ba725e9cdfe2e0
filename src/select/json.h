/* SPDX-License-Identifier: MIT */
/*
 * glmux: a small, strict JSON reader for vendor manifests. It builds a tree whose every value
 * remembers the line it started on, so that `glmux check` can print `file:line: error: ...`.
 * It has no dependency, bounds nesting depth and input size, rejects duplicate object keys and
 * NUL characters, and never aborts: every failure is a message and a line number.
 */
#ifndef GLMUX_SELECT_JSON_H
#define GLMUX_SELECT_JSON_H

#include <stdbool.h>
#include <stddef.h>

/* Largest document the reader accepts (manifests are a few hundred bytes). */
#define GLMUX_JSON_MAX_SIZE (1u << 20)
/* Deepest nesting of arrays and objects. */
#define GLMUX_JSON_MAX_DEPTH 32
/* Most members of one object (manifests have a handful). */
#define GLMUX_JSON_MAX_KEYS 1024

enum glmux_json_type {
    GLMUX_JSON_NULL,
    GLMUX_JSON_BOOL,
    GLMUX_JSON_NUMBER,
    GLMUX_JSON_STRING,
    GLMUX_JSON_ARRAY,
    GLMUX_JSON_OBJECT,
};

struct glmux_json {
    enum glmux_json_type type;
    int line;             /* 1-based line where the value starts */
    bool boolean;         /* GLMUX_JSON_BOOL */
    double number;        /* GLMUX_JSON_NUMBER */
    bool integer;         /* GLMUX_JSON_NUMBER written without fraction or exponent */
    char *string;         /* GLMUX_JSON_STRING, UTF-8, NUL-terminated */
    size_t count;         /* members of an array or object */
    struct glmux_json **items;
    char **keys;          /* GLMUX_JSON_OBJECT: keys[i] names items[i] */
    int *key_lines;       /* GLMUX_JSON_OBJECT: line of keys[i] */
};

struct glmux_json_error {
    int line;             /* 0 when the error has no position (e.g. out of memory) */
    char message[160];
};

/*
 * Parses len bytes of text. Returns the tree, or NULL with *err filled. The text need not be
 * NUL-terminated.
 */
struct glmux_json *glmux_json_parse(const char *text, size_t len, struct glmux_json_error *err);

/* Frees a tree from glmux_json_parse; NULL is fine. */
void glmux_json_free(struct glmux_json *value);

/* The member named key of an object, or NULL (also when obj is not an object). */
const struct glmux_json *glmux_json_get(const struct glmux_json *obj, const char *key);

/* A type as a manifest's error message names it: "a string", "an object", "null". */
const char *glmux_json_type_name(enum glmux_json_type type);

/* True for a name a manifest may give (a vendor's, a layer's): [A-Za-z0-9_.-]+, at most max
 * bytes. Such a name is safe in a file name, an environment variable's value and a log line. */
bool glmux_json_valid_name(const char *name, size_t max);

#endif /* GLMUX_SELECT_JSON_H */
