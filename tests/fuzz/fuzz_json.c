/* SPDX-License-Identifier: MIT */
/*
 * glmux fuzz target: the JSON reader (src/select/json.c) on any bytes. Beyond memory safety it
 * checks what json.h promises: a tree no deeper than GLMUX_JSON_MAX_DEPTH, line numbers inside
 * the text, no duplicate keys (glmux_json_get finds each member at its own index), NUL-free
 * strings, and an error message for every refusal.
 */
#include <string.h>

#include "fuzz.h"
#include "select/json.h"

static void walk(const struct glmux_json *v, int depth, int lines)
{
    GLMUX_FUZZ_CHECK(depth <= GLMUX_JSON_MAX_DEPTH + 1);
    GLMUX_FUZZ_CHECK(v->line >= 1 && v->line <= lines);
    switch (v->type) {
    case GLMUX_JSON_STRING:
        GLMUX_FUZZ_CHECK(v->string != NULL);
        (void)strlen(v->string);
        break;
    case GLMUX_JSON_ARRAY:
        for (size_t i = 0; i < v->count; i++)
            walk(v->items[i], depth + 1, lines);
        break;
    case GLMUX_JSON_OBJECT:
        for (size_t i = 0; i < v->count; i++) {
            GLMUX_FUZZ_CHECK(v->keys[i] != NULL);
            GLMUX_FUZZ_CHECK(v->key_lines[i] >= 1 && v->key_lines[i] <= lines);
            GLMUX_FUZZ_CHECK(glmux_json_get(v, v->keys[i]) == v->items[i]);
            walk(v->items[i], depth + 1, lines);
        }
        break;
    case GLMUX_JSON_NUMBER:
    case GLMUX_JSON_BOOL:
    case GLMUX_JSON_NULL:
        GLMUX_FUZZ_CHECK(v->count == 0);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct glmux_json_error err;
    struct glmux_json *root;
    int lines = 1;

    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    memset(&err, 0x55, sizeof(err)); /* the parser must write a terminated message itself */
    root = glmux_json_parse((const char *)data, size, &err);
    if (root == NULL) {
        GLMUX_FUZZ_CHECK(memchr(err.message, '\0', sizeof(err.message)) != NULL);
        GLMUX_FUZZ_CHECK(err.message[0] != '\0');
        GLMUX_FUZZ_CHECK(err.line >= 0 && err.line <= lines);
        return 0;
    }
    GLMUX_FUZZ_CHECK(size <= GLMUX_JSON_MAX_SIZE);
    walk(root, 1, lines);
    GLMUX_FUZZ_CHECK(glmux_json_get(root, "") == NULL || root->type == GLMUX_JSON_OBJECT);
    glmux_json_free(root);
    return 0;
}
