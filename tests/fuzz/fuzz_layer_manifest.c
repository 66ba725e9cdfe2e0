/* SPDX-License-Identifier: MIT */
/*
 * glmux fuzz target: the GL layer manifest reader (src/layers/core/layer_manifest.c) on any
 * text. The manifest's path comes from the input's length (a package folder, a relative
 * GLMUX_LAYER_PATH folder, a bare file name), so relative library paths are resolved against
 * each kind. Every layer it returns must be either broken with a reason or usable as
 * layer_internal.h promises: a valid name, a library, at least one API, and a disable variable
 * when implicit.
 */
#include <string.h>

#include "fuzz.h"
#include "layers/core/layer_internal.h"

static const char *const paths[] = {
    "/usr/lib/x86_64-linux-gnu/glvnd/explicit_layer.d/fuzz.json",
    "/etc/glmux/implicit_layer.d/10_fuzz.json",
    "relative/explicit_layer.d/x.json",
    "plain.json",
};

static void check(const char *path, const char *text, size_t size)
{
    struct glmux_layer_info out[GLMUX_LAYER_PER_MANIFEST_MAX];
    size_t n = glmux_layer_manifest_parse(path, text, size, out, GLMUX_LAYER_PER_MANIFEST_MAX);

    GLMUX_FUZZ_CHECK(n <= GLMUX_LAYER_PER_MANIFEST_MAX);
    for (size_t i = 0; i < n; i++) {
        const struct glmux_layer_info *l = &out[i];

        GLMUX_FUZZ_CHECK(l->manifest != NULL && strcmp(l->manifest, path) == 0);
        GLMUX_FUZZ_CHECK(memchr(l->reason, '\0', sizeof(l->reason)) != NULL);
        if (l->verdict == GLMUX_LAYER_BROKEN) {
            GLMUX_FUZZ_CHECK(l->reason[0] != '\0');
            continue;
        }
        GLMUX_FUZZ_CHECK(l->verdict == GLMUX_LAYER_WOULD_LOAD && l->reason[0] == '\0');
        GLMUX_FUZZ_CHECK(glmux_layer_valid_name(l->name));
        GLMUX_FUZZ_CHECK(l->library != NULL && l->library[0] != '\0');
        GLMUX_FUZZ_CHECK(l->apis != 0 && l->n_api_names > 0);
        GLMUX_FUZZ_CHECK(!l->implicit || (l->disable.name != NULL && l->disable.want != NULL));
        GLMUX_FUZZ_CHECK(l->library_arch == 0 || l->library_arch == 32 || l->library_arch == 64);
        GLMUX_FUZZ_CHECK(l->chain_position == -1);
    }
    for (size_t i = 0; i < n; i++)
        glmux_layer_info_clear(&out[i]);
}

GLMUX_FUZZ_FILE_TARGET(paths, check)
