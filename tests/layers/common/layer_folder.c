/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layer tests: a test program's own folder of layer manifests, the environment that
 * makes glmux read layers from it alone, and which layer libraries the process has mapped (see
 * layer_test.h).
 */
#define _GNU_SOURCE
#include "layer_test.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"

static char folder[512];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void remove_folder(void)
{
    if (folder[0] != '\0')
        nftw(folder, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

const char *glmux_layer_test_folder(const char *prefix)
{
    snprintf(folder, sizeof(folder), "%s/%s-XXXXXX", glmux_test_tmpdir(), prefix);
    CHECK(mkdtemp(folder) != NULL);
    atexit(remove_folder);
    return folder;
}

void glmux_layer_test_manifest(const char *file, const char *name, const char *library,
                               const char *apis, const char *description)
{
    char path[600];
    FILE *f;

    CHECK(folder[0] != '\0');
    snprintf(path, sizeof(path), "%s/%s.json", folder, file);
    f = fopen(path, "we");
    CHECK(f != NULL);
    fprintf(f, "{\n  \"file_format_version\": \"1.0.0\",\n  \"layer\": {\n"
               "    \"name\": \"%s\",\n    \"type\": \"explicit\",\n"
               "    \"library_path\": \"%s\",\n    \"apis\": [%s]", name, library, apis);
    if (description != NULL)
        fprintf(f, ",\n    \"description\": \"%s\"", description);
    fprintf(f, "\n  }\n}\n");
    CHECK(fclose(f) == 0);
}

void glmux_layer_test_switch_on(const char *layers)
{
    CHECK(folder[0] != '\0');
    setenv("GLMUX_LAYER_PATH", folder, 1);
    setenv("XDG_DATA_HOME", folder, 1);
    setenv("GLMUX_LAYERS_DISABLE", "~implicit~", 1);
    if (layers != NULL)
        setenv("GLMUX_LAYERS", layers, 1);
    else
        unsetenv("GLMUX_LAYERS");
}

bool glmux_layer_test_mapped(const char *part)
{
    char line[1024];
    FILE *f = fopen("/proc/self/maps", "re");
    bool found = false;

    CHECK(f != NULL);
    while (!found && fgets(line, sizeof(line), f) != NULL)
        found = strstr(line, part) != NULL;
    fclose(f);
    return found;
}
