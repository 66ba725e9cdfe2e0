/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: vendor manifests. The fixtures in tests/select/manifests: a full glmux manifest,
 * a plain libglvnd file (name and priority derived), a GLX-only vendor, and bad files whose
 * errors must name the right line. Also library-path resolution as libglvnd does it.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"
#include "select/manifest.h"

#ifndef MANIFEST_DIR
#error MANIFEST_DIR must be defined
#endif

struct seen {
    int errors, warnings, first_line;
    char first[256];
};

static void collect(void *data, enum glmux_manifest_severity sev, const char *path, int line,
                    const char *message)
{
    struct seen *s = data;

    (void)path;
    if (sev == GLMUX_MANIFEST_ERROR && s->errors++ == 0) {
        s->first_line = line;
        snprintf(s->first, sizeof(s->first), "%s", message);
    }
    if (sev == GLMUX_MANIFEST_WARNING)
        s->warnings++;
}

static bool load(const char *name, struct glmux_manifest *m, struct seen *s)
{
    char path[PATH_MAX];

    memset(s, 0, sizeof(*s));
    snprintf(path, sizeof(path), "%s/%s", MANIFEST_DIR, name);
    return glmux_manifest_load(path, m, collect, s);
}

static void expect_bad(const char *name, int line, const char *fragment)
{
    struct glmux_manifest m;
    struct seen s;

    CHECK_MSG(!load(name, &m, &s), "%s accepted", name);
    CHECK_MSG(s.first_line == line && strstr(s.first, fragment) != NULL,
              "%s: line %d \"%s\"; expected line %d \"%s\"", name, s.first_line, s.first, line,
              fragment);
    CHECK(m.name == NULL && m.path == NULL);
}

int main(void)
{
    struct glmux_manifest m;
    struct seen s;
    char buf[80], real[PATH_MAX], expect[PATH_MAX + 32];

    CHECK(load("good-full.json", &m, &s));
    CHECK(s.errors == 0 && s.warnings == 0);
    CHECK(strcmp(m.name, "acme") == 0 && !m.name_derived && m.has_vendor_object);
    CHECK(strcmp(m.egl_library, "libEGL_acme.so.0") == 0);
    CHECK(realpath(MANIFEST_DIR, real) != NULL);
    snprintf(expect, sizeof(expect), "%s/libGLX_acme.so.0", real);
    CHECK_MSG(strcmp(m.glx_library, expect) == 0, "%s", m.glx_library);
    CHECK(m.has_drivers && m.n_drivers == 2 && strcmp(m.drivers[1], "nvidia-drm") == 0);
    CHECK(m.priority == 30 && m.has_priority);
    glmux_manifest_clear(&m);

    CHECK(load("20_legacy.json", &m, &s));
    CHECK(strcmp(m.name, "legacy") == 0 && m.name_derived && !m.has_vendor_object);
    CHECK(m.priority == 20 && !m.has_priority && !m.has_drivers && m.glx_library == NULL);
    glmux_manifest_clear(&m);

    CHECK(load("glx-only.json", &m, &s));
    CHECK(m.egl_library == NULL && strcmp(m.glx_library, "libGLX_glxonly.so.0") == 0);
    CHECK(m.has_drivers && m.n_drivers == 0 && m.priority == 50);
    glmux_manifest_clear(&m);

    CHECK(load("warn-unknown.json", &m, &s));
    CHECK(s.warnings == 2 && m.n_drivers == 1);
    glmux_manifest_clear(&m);

    expect_bad("bad-syntax.json", 4, "trailing comma");
    expect_bad("bad-types.json", 6, "\"drivers\" must be an array");
    expect_bad("bad-version.json", 2, "only major version 1");
    expect_bad("bad-nolib.json", 1, "names no library");
    expect_bad("bad-duplicate.json", 4, "duplicate key");
    expect_bad("bad-name.json", 4, "vendor name");
    expect_bad("bad-truncated.json", 4, "unexpected end of file");
    expect_bad("no-such-file.json", 0, "cannot open");

    /* In-memory checks of what fixtures do not cover. */
    CHECK(!glmux_manifest_parse("x.json", "[]", 2, &m, NULL, NULL));
    CHECK(!glmux_manifest_parse("x.json", "{\"file_format_version\": \"one\", \"ICD\": "
                                "{\"library_path\": \"libEGL_x.so.0\"}}", 74, &m, NULL, NULL));
    {
        const char *t = "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
                        "\"/opt/x/libfoo.so\"}}";
        CHECK(glmux_manifest_parse("/etc/x/99_foo-bar.json", t, strlen(t), &m, NULL, NULL));
        CHECK(strcmp(m.name, "foo-bar") == 0 && m.priority == 99);
        CHECK(strcmp(m.egl_library, "/opt/x/libfoo.so") == 0);
        glmux_manifest_clear(&m);
    }
    {
        const char *t = "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
                        "\"libEGL_x.so.0\"}, \"vendor\": {\"name\": \"x\", \"priority\": 1000}}";
        CHECK(!glmux_manifest_parse("x.json", t, strlen(t), &m, NULL, NULL));
    }
    {
        const char *t = "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
                        "\"libEGL_x.so.0\"}, \"vendor\": {\"format_version\": 2, \"name\": \"x\", "
                        "\"future\": 1}}";
        memset(&s, 0, sizeof(s));
        CHECK(glmux_manifest_parse("x.json", t, strlen(t), &m, collect, &s));
        CHECK(s.warnings == 1); /* the newer format is noted; unknown keys are then silent */
        glmux_manifest_clear(&m);
    }
    CHECK(glmux_manifest_name_from_library("/usr/lib/libEGL_mesa.so.0", buf, sizeof(buf)) &&
          strcmp(buf, "mesa") == 0);
    CHECK(glmux_manifest_name_from_library("libGLX_nvidia.so.0", buf, sizeof(buf)) &&
          strcmp(buf, "nvidia") == 0);
    CHECK(!glmux_manifest_name_from_library("libfoo.so.0", buf, sizeof(buf)));
    CHECK(glmux_manifest_valid_name("nvidia-drm") && !glmux_manifest_valid_name("a b") &&
          !glmux_manifest_valid_name(""));
    return 0;
}
