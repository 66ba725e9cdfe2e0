/* SPDX-License-Identifier: MIT */
/*
 * glmux fuzz target: the vendor manifest reader (src/select/manifest.c) on any text, for both
 * schemas it reads: libglvnd's EGL vendor JSON ("ICD") and glmux's vendor manifest ("vendor").
 * The manifest's path comes from the input's length (libglvnd file names with and without a
 * priority number, a vendor directory entry, a relative name), so the file-name rules run too.
 * An accepted manifest must hold what manifest.h promises; every report must be a message.
 */
#include <string.h>

#include "fuzz.h"
#include "select/manifest.h"

static const char *const paths[] = {
    "/usr/share/glvnd/egl_vendor.d/50_mesa.json",
    "/etc/glvnd/egl_vendor.d/10_nvidia.json",
    "/usr/lib/x86_64-linux-gnu/glvnd/vendors/50_fuzz.json",
    "relative/99999999999_x.json",
    "plain.json",
};

static void report(void *data, enum glmux_manifest_severity severity, const char *path, int line,
                   const char *message)
{
    (void)data;
    GLMUX_FUZZ_CHECK(severity == GLMUX_MANIFEST_ERROR || severity == GLMUX_MANIFEST_WARNING);
    GLMUX_FUZZ_CHECK(path != NULL && line >= 0);
    GLMUX_FUZZ_CHECK(message != NULL && message[0] != '\0' && strlen(message) < 256);
}

static void check(const char *path, const char *text, size_t size)
{
    struct glmux_manifest m;

    if (!glmux_manifest_parse(path, text, size, &m, report, NULL)) {
        /* A refused manifest owns nothing. */
        GLMUX_FUZZ_CHECK(m.path == NULL && m.name == NULL && m.drivers == NULL);
        return;
    }
    GLMUX_FUZZ_CHECK(m.path != NULL && strcmp(m.path, path) == 0);
    GLMUX_FUZZ_CHECK(glmux_manifest_valid_name(m.name));
    GLMUX_FUZZ_CHECK(m.egl_library != NULL || m.glx_library != NULL);
    GLMUX_FUZZ_CHECK(m.priority >= 0 && m.priority <= GLMUX_MANIFEST_PRIORITY_MAX);
    GLMUX_FUZZ_CHECK(m.n_drivers <= GLMUX_MANIFEST_DRIVERS_MAX);
    GLMUX_FUZZ_CHECK(m.n_drivers == 0 || m.has_drivers);
    for (size_t i = 0; i < m.n_drivers; i++)
        GLMUX_FUZZ_CHECK(glmux_manifest_valid_name(m.drivers[i]));
    glmux_manifest_clear(&m);
    /* The same text with no reporter at all. */
    if (glmux_manifest_parse(path, text, size, &m, NULL, NULL))
        glmux_manifest_clear(&m);
}

GLMUX_FUZZ_FILE_TARGET(paths, check)
