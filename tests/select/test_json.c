/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the manifest JSON reader. Valid documents of every value type, escapes and
 * surrogate pairs, and each kind of malformed input with the line it is reported on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"
#include "select/json.h"
#include "select/manifest.h"

static struct glmux_json *parse(const char *text, struct glmux_json_error *err)
{
    return glmux_json_parse(text, strlen(text), err);
}

static void expect_error(const char *text, int line, const char *fragment)
{
    struct glmux_json_error err;
    struct glmux_json *v = parse(text, &err);

    CHECK_MSG(v == NULL, "accepted: %s", text);
    CHECK_MSG(err.line == line, "%s: line %d, expected %d (%s)", text, err.line, line,
              err.message);
    CHECK_MSG(strstr(err.message, fragment) != NULL, "%s: message \"%s\" lacks \"%s\"", text,
              err.message, fragment);
}

int main(void)
{
    struct glmux_json_error err;
    struct glmux_json *v;
    const struct glmux_json *m;
    char deep[200];

    v = parse("\xef\xbb\xbf{\n \"a\": [1, -2.5e3, true, false, null],\n \"b\": {\"c\": \"x\\n\\u00e9"
              "\\ud83d\\ude00\\\"\"}, \"e\": {}, \"f\": []\n}\n", &err);
    CHECK_MSG(v != NULL, "%d: %s", err.line, err.message);
    CHECK(v->type == GLMUX_JSON_OBJECT && v->count == 4 && v->line == 1);
    m = glmux_json_get(v, "a");
    CHECK(m != NULL && m->type == GLMUX_JSON_ARRAY && m->count == 5 && m->line == 2);
    CHECK(m->items[0]->integer && m->items[0]->number == 1);
    CHECK(!m->items[1]->integer && m->items[1]->number == -2500);
    CHECK(m->items[2]->type == GLMUX_JSON_BOOL && m->items[2]->boolean);
    CHECK(m->items[3]->type == GLMUX_JSON_BOOL && !m->items[3]->boolean);
    CHECK(m->items[4]->type == GLMUX_JSON_NULL);
    m = glmux_json_get(glmux_json_get(v, "b"), "c");
    CHECK(m != NULL && m->line == 3);
    CHECK(strcmp(m->string, "x\n\xc3\xa9\xf0\x9f\x98\x80\"") == 0);
    CHECK(glmux_json_get(v, "e")->count == 0 && glmux_json_get(v, "f")->count == 0);
    CHECK(glmux_json_get(v, "zz") == NULL && glmux_json_get(m, "a") == NULL);
    glmux_json_free(v);

    expect_error("", 1, "unexpected end of file");
    expect_error("{\n\"a\": 1,\n}", 2, "trailing comma");
    expect_error("[1,\n2\n", 3, "unexpected end of file");
    expect_error("{\"a\": 1,\n \"a\": 2}", 2, "duplicate key \"a\" (first at line 1)");
    expect_error("{\"a\" 1}", 1, "':' expected");
    expect_error("{a: 1}", 1, "object key");
    expect_error("[01]", 1, "leading zero");
    expect_error("[1.]", 1, "digits expected after '.'");
    expect_error("[1e]", 1, "exponent");
    expect_error("[tru]", 1, "unknown word");
    expect_error("\n\n\"abc", 3, "unterminated string");
    expect_error("\"a\tb\"", 1, "control character");
    expect_error("\"\\x\"", 1, "unknown escape");
    expect_error("\"\\u12g4\"", 1, "four hex digits");
    expect_error("\"\\ud800x\"", 1, "surrogate");
    expect_error("\"\\udc00\"", 1, "surrogate");
    expect_error("\"\\u0000\"", 1, "\\u0000");
    expect_error("{} {}", 1, "text after");
    expect_error("[1] x", 1, "text after");
    expect_error("\n@", 2, "unexpected character '@'");
    expect_error("[1 2]", 1, "',' or ']' expected");
    memset(deep, '[', sizeof(deep));
    expect_error((deep[sizeof(deep) - 1] = '\0', deep), 1, "nesting deeper");

    /*
     * Keys per object: 1024 distinct keys are fine and a duplicate of any
     * one of them is still found, with the line of the first; a 1 MiB object of 90,000 keys
     * (20 s of CPU with the old pairwise check) is refused at key 1025.
     */
    {
        size_t size = GLMUX_JSON_MAX_SIZE, len = 0;
        char *big = malloc(size + 64);
        CHECK(big != NULL);
        len += (size_t)sprintf(big + len, "{");
        for (int i = 0; i < GLMUX_JSON_MAX_KEYS - 1; i++)
            len += (size_t)sprintf(big + len, "%s\n\"k%d\":%d", i ? "," : "", i, i);
        sprintf(big + len, ",\n\"k%d\":0}", GLMUX_JSON_MAX_KEYS - 1);
        v = glmux_json_parse(big, strlen(big), &err);
        CHECK_MSG(v != NULL, "%d: %s", err.line, err.message);
        CHECK(v->count == GLMUX_JSON_MAX_KEYS);
        CHECK(glmux_json_get(v, "k777") != NULL && glmux_json_get(v, "k777")->number == 777);
        glmux_json_free(v);
        sprintf(big + len, ",\n\"k700\":0}");
        v = glmux_json_parse(big, strlen(big), &err);
        CHECK(v == NULL && err.line == GLMUX_JSON_MAX_KEYS + 1);
        CHECK_MSG(strstr(err.message, "duplicate key \"k700\" (first at line 702)") != NULL,
                  "%s", err.message);
        len = 1;
        for (int i = 0; len + 16 < size; i++)
            len += (size_t)sprintf(big + len, "%s\"%d\":0", i ? "," : "", i);
        strcpy(big + len, "}");
        v = glmux_json_parse(big, len + 1, &err);
        CHECK(v == NULL && err.line == 1);
        CHECK_MSG(strstr(err.message, "more than 1024 members") != NULL, "%s", err.message);
        free(big);
    }
    v = glmux_json_parse("[1]\0[2]", 7, &err);
    CHECK(v == NULL && strstr(err.message, "NUL") != NULL);

    /* Mutations of a real manifest: every outcome is a tree or an error, never a crash
     * (run under ASan/valgrind in CI). Deterministic: a fixed linear congruential sequence. */
    {
        static const char good[] =
            "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
            "\"libEGL_x.so.0\"}, \"vendor\": {\"name\": \"x\", \"drivers\": [\"i915\", "
            "\"amdgpu\"], \"priority\": 5, \"glx_library_path\": \"./a/\\u00e9.so\"}}";
        static const char alphabet[] = "{}[]\":,\\u0123456789abcdefeE+-. \n\tnulltruefalse\x80\xff";
        unsigned seed = 12345;
        char buf[sizeof(good)];

        for (int round = 0; round < 20000; round++) {
            size_t len = sizeof(good) - 1;
            struct glmux_manifest m;
            memcpy(buf, good, sizeof(good));
            for (int k = 0; k < 1 + round % 4; k++) {
                seed = seed * 1103515245u + 12345u;
                size_t at = (seed >> 8) % len;
                seed = seed * 1103515245u + 12345u;
                buf[at] = alphabet[(seed >> 8) % (sizeof(alphabet) - 1)];
            }
            if (round % 7 == 0)
                len = (seed >> 4) % len;
            v = glmux_json_parse(buf, len, &err);
            CHECK(v != NULL || err.message[0] != '\0');
            glmux_json_free(v);
            if (glmux_manifest_parse("/tmp/fuzz.json", buf, len, &m, NULL, NULL))
                glmux_manifest_clear(&m);
        }
    }
    return 0;
}
