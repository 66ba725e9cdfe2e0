/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: the manifest parser and version rule on their own, including inputs the
 * fixture files cannot easily hold (embedded NULs, escapes, duplicate members).
 */
#define _GNU_SOURCE
#include <string.h>

#include "glmux_test.h"
#include "manifest.h"

static bool parse(const char *text, struct glmux_egl_manifest_fields *f)
{
    return glmux_egl_manifest_parse(text, strlen(text), f);
}

int main(void)
{
    struct glmux_egl_manifest_fields f;
    static const char nul[] = "{\"ICD\":{\"library_path\":\"a\"}}\0garbage";

    CHECK(parse(" {\"file_format_version\":\"1.0.0\",\"ICD\":{\"library_path\":\"libx.so\","
                "\"api_version\":\"1.5\"},\"other\":[1,-2.5e3,true,false,null,{}]} \n", &f));
    CHECK(strcmp(f.file_format_version, "1.0.0") == 0);
    CHECK(strcmp(f.library_path, "libx.so") == 0);
    glmux_egl_manifest_fields_free(&f);

    /* Escapes, including a surrogate pair, are decoded. */
    CHECK(parse("{\"ICD\":{\"library_path\":\"\\/a\\u00e9\\ud83d\\ude00\\n\"}}", &f));
    CHECK(strcmp(f.library_path, "/a\xc3\xa9\xf0\x9f\x98\x80\n") == 0);
    glmux_egl_manifest_fields_free(&f);
    /* A later member wins; a non-string value clears. */
    CHECK(parse("{\"ICD\":{\"library_path\":\"a\",\"library_path\":\"b\"}}", &f));
    CHECK(strcmp(f.library_path, "b") == 0);
    glmux_egl_manifest_fields_free(&f);
    CHECK(parse("{\"ICD\":{\"library_path\":\"a\",\"library_path\":7}}", &f));
    CHECK(f.library_path == NULL);
    /* library_path only counts inside ICD. */
    CHECK(parse("{\"library_path\":\"a\",\"x\":{\"library_path\":\"b\"}}", &f));
    CHECK(f.library_path == NULL);

    CHECK(!parse("", &f));
    CHECK(!parse("{", &f));
    CHECK(!parse("{\"a\" 1}", &f));
    CHECK(!parse("{\"a\":1,}", &f));
    CHECK(!parse("{\"a\":01}", &f));
    CHECK(!parse("{\"a\":tru}", &f));
    CHECK(!parse("{\"a\":\"\\x\"}", &f));
    CHECK(!parse("{\"a\":\"\\u0000\"}", &f));
    CHECK(!parse("{\"a\":\"tab\there\"}", &f));
    CHECK(!parse("{} {}", &f));
    CHECK(!glmux_egl_manifest_parse(nul, sizeof(nul) - 1, &f));
    printf("error text: %s\n", f.error);
    CHECK(strstr(f.error, "at byte") != NULL);

    CHECK(glmux_egl_manifest_version_ok("1.0.0"));
    CHECK(glmux_egl_manifest_version_ok("1.0"));
    CHECK(glmux_egl_manifest_version_ok("1"));
    CHECK(glmux_egl_manifest_version_ok("1.0.7"));
    CHECK(!glmux_egl_manifest_version_ok("1.1.0"));
    CHECK(!glmux_egl_manifest_version_ok("0.9.0"));
    CHECK(!glmux_egl_manifest_version_ok("2.0.0"));
    CHECK(!glmux_egl_manifest_version_ok("1.0.0.0"));
    CHECK(!glmux_egl_manifest_version_ok("1.x"));
    CHECK(!glmux_egl_manifest_version_ok(""));
    CHECK(!glmux_egl_manifest_version_ok("v1"));
    return 0;
}
