/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: the manifest reader libEGL uses (glmux_select's), on the inputs that matter
 * to libEGL and that the fixture files cannot easily hold: embedded NULs, escapes, duplicate
 * members, libglvnd's version rule and library_path resolution.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "glmux_test.h"
#include "select/manifest.h"

static char last_error[256];

static void record(void *data, enum glmux_manifest_severity severity, const char *path, int line,
                   const char *message)
{
    (void)data;
    (void)path;
    if (severity == GLMUX_MANIFEST_ERROR)
        snprintf(last_error, sizeof(last_error), "line %d: %s", line, message);
}

static bool parse_at(const char *path, const char *text, size_t len, struct glmux_manifest *m)
{
    last_error[0] = '\0';
    return glmux_manifest_parse(path, text, len, m, record, NULL);
}

static bool parse(const char *text, struct glmux_manifest *m)
{
    return parse_at("/nonexistent/50_x.json", text, strlen(text), m);
}

/* A manifest around one file_format_version value. */
static bool version_ok(const char *version)
{
    char text[256];
    struct glmux_manifest m;
    bool ok;

    snprintf(text, sizeof(text),
             "{\"file_format_version\":\"%s\",\"ICD\":{\"library_path\":\"libEGL_x.so.0\"}}",
             version);
    ok = parse(text, &m);
    glmux_manifest_clear(&m);
    return ok;
}

int main(void)
{
    struct glmux_manifest m;
    static const char nul[] = "{\"file_format_version\":\"1.0.0\",\"ICD\":{\"library_path\":"
                              "\"a\"}}\0garbage";

    CHECK(parse(" {\"file_format_version\":\"1.0.0\",\"ICD\":{\"library_path\":\"libx.so\","
                "\"api_version\":\"1.5\"},\"other\":[1,-2.5e3,true,false,null,{}]} \n", &m));
    CHECK(strcmp(m.egl_library, "libx.so") == 0);
    /* A plain libglvnd file: the name comes from the file name, the priority from its number. */
    CHECK(strcmp(m.name, "x") == 0 && m.name_derived && m.priority == 50 && !m.has_drivers);
    glmux_manifest_clear(&m);

    /* Escapes, including a surrogate pair, are decoded. */
    CHECK(parse("{\"file_format_version\":\"1.0.0\","
                "\"ICD\":{\"library_path\":\"\\/a\\u00e9\\ud83d\\ude00\\n\"}}", &m));
    CHECK(strcmp(m.egl_library, "/a\xc3\xa9\xf0\x9f\x98\x80\n") == 0);
    glmux_manifest_clear(&m);
    /* A duplicate member is an error (libglvnd's cJSON would take the first silently). */
    CHECK(!parse("{\"file_format_version\":\"1.0.0\","
                 "\"ICD\":{\"library_path\":\"a\",\"library_path\":\"b\"}}", &m));
    CHECK_MSG(strstr(last_error, "duplicate key \"library_path\"") != NULL, "%s", last_error);
    CHECK(!parse("{\"file_format_version\":\"1.0.0\",\"ICD\":{\"library_path\":7}}", &m));
    CHECK_MSG(strstr(last_error, "library_path") != NULL, "%s", last_error);
    /* library_path only counts inside ICD. */
    CHECK(!parse("{\"file_format_version\":\"1.0.0\",\"library_path\":\"a\","
                 "\"x\":{\"library_path\":\"b\"}}", &m));
    CHECK_MSG(strstr(last_error, "library_path") != NULL, "%s", last_error);
    /* Relative paths with '/' are resolved against the manifest's directory. */
    CHECK(parse("{\"file_format_version\":\"1.0.0\",\"ICD\":{\"library_path\":\"./d/libEGL_y.so.0\"}}",
                &m));
    CHECK_MSG(strcmp(m.egl_library, "/nonexistent/d/libEGL_y.so.0") == 0, "%s", m.egl_library);
    CHECK(strcmp(m.name, "y") == 0);
    glmux_manifest_clear(&m);

    CHECK(!parse("", &m));
    CHECK(!parse("{", &m));
    CHECK(!parse("{\"a\" 1}", &m));
    CHECK(!parse("{\"a\":1,}", &m));
    CHECK(strstr(last_error, "trailing comma") != NULL);
    CHECK(!parse("{\"a\":01}", &m));
    CHECK(!parse("{\"a\":tru}", &m));
    CHECK(!parse("{\"a\":\"\\x\"}", &m));
    CHECK(!parse("{\"a\":\"\\u0000\"}", &m));
    CHECK(!parse("{\"a\":\"tab\there\"}", &m));
    CHECK(!parse("{} {}", &m));
    CHECK(!parse_at("/nonexistent/nul.json", nul, sizeof(nul) - 1, &m));
    printf("error text: %s\n", last_error);
    CHECK(strstr(last_error, "line 1") != NULL);

    /* libglvnd's version rule: major 1, minor 0; missing parts count as 0. */
    CHECK(version_ok("1.0.0"));
    CHECK(version_ok("1.0"));
    CHECK(version_ok("1"));
    CHECK(version_ok("1.0.7"));
    CHECK(!version_ok("1.1.0"));
    CHECK_MSG(strstr(last_error, "1.0.x") != NULL, "%s", last_error);
    CHECK(!version_ok("0.9.0"));
    CHECK(!version_ok("2.0.0"));
    CHECK(!version_ok(""));
    CHECK(!version_ok("v1"));
    return 0;
}
