/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: file-tree helpers (see tree.h). Failures end the test through CHECK.
 */
#define _GNU_SOURCE
#include "tree.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "glmux_test.h"


const char *tree_new(const char *tag)
{
    static char path[PATH_MAX];

    snprintf(path, sizeof(path), "%s/glmux-%s-XXXXXX", glmux_test_tmpdir(), tag);
    CHECK(mkdtemp(path) != NULL);
    return path;
}

static void mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        CHECK_MSG(mkdir(path, 0755) == 0 || errno == EEXIST, "mkdir %s", path);
        *p = '/';
    }
}

void tree_dir(const char *root, const char *rel)
{
    char path[PATH_MAX];

    snprintf(path, sizeof(path), "%s/%s/", root, rel);
    mkdirs(path);
}

void tree_file(const char *root, const char *rel, const char *text)
{
    char path[PATH_MAX];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    mkdirs(path);
    f = fopen(path, "w");
    CHECK_MSG(f != NULL, "create %s", path);
    fputs(text, f);
    fclose(f);
}

void tree_link(const char *root, const char *rel, const char *target)
{
    char path[PATH_MAX];

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    mkdirs(path);
    CHECK_MSG(symlink(target, path) == 0, "symlink %s", path);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

void tree_remove(const char *root)
{
    nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

