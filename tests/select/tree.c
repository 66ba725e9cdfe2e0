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

    snprintf(path, sizeof(path), "/tmp/glmux-%s-XXXXXX", tag);
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

void tree_add_gpu(const char *root, const struct tree_gpu *g)
{
    char dev[256], rel[512], target[256];

    snprintf(dev, sizeof(dev), "sys/devices/pci0000:00/%s", g->slot);
    snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s", g->slot);
    snprintf(target, sizeof(target), "../../../devices/pci0000:00/%s", g->slot);
    tree_dir(root, dev);
    tree_link(root, rel, target);
#define ATTR(name, value)                                                                  \
    do {                                                                                   \
        snprintf(rel, sizeof(rel), "%s/%s", dev, name);                                    \
        tree_file(root, rel, value);                                                       \
    } while (0)
    ATTR("vendor", g->vendor);
    ATTR("device", g->device);
    ATTR("class", g->class_code);
    if (g->boot_vga >= 0)
        ATTR("boot_vga", g->boot_vga ? "1\n" : "0\n");
    if (g->boot_display >= 0)
        ATTR("boot_display", g->boot_display ? "1\n" : "0\n");
    if (g->power != NULL)
        ATTR("power/runtime_status", g->power);
    if (g->vram != NULL)
        ATTR("mem_info_vram_total", g->vram);
#undef ATTR
    if (g->driver != NULL) {
        snprintf(rel, sizeof(rel), "%s/driver", dev);
        snprintf(target, sizeof(target), "../../../bus/pci/drivers/%s", g->driver);
        tree_link(root, rel, target);
    }
    if (g->render != NULL) {
        snprintf(rel, sizeof(rel), "%s/drm/%s/dev", dev, g->render);
        tree_file(root, rel, "226:128\n");
    }
}
