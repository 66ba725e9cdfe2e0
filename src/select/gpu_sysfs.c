/* SPDX-License-Identifier: MIT */
/*
 * glmux: a GPU's facts when libudev is missing (a minimal container, a system without udev):
 * libdrm gave the nodes, the bus, the ids and Mesa's tag; this reads what udev would have
 * handed over from sysfs itself: the kernel driver (the device's "driver" link), and boot_vga,
 * boot_display, class, mem_info_vram_total and power/runtime_status of the PCI function (for
 * virtio-gpu the parent of the DRM device's virtioN). udev's own knowledge is lost: ID_PATH_TAG
 * and the administrator's GLMUX_* properties; the selector says so once. Every read goes through
 * util/file.c (regular files only, bounded, never blocking).
 */
#define _GNU_SOURCE
#include "select/gpu_enum.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file.h"

/* The last component of the target of the link at path; false when it is no link. */
static bool link_base(const char *path, char *out, size_t size)
{
    char target[PATH_MAX];
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    const char *base;

    if (n <= 0)
        return false;
    target[n] = '\0';
    base = strrchr(target, '/');
    base = base != NULL ? base + 1 : target;
    if (strlen(base) >= size)
        return false;
    memcpy(out, base, strlen(base) + 1);
    return true;
}

static const char *file_attr(void *ctx, const char *name, char *buf, size_t size)
{
    char path[PATH_MAX];

    if (snprintf(path, sizeof(path), "%s/%s", (const char *)ctx, name) >= (int)sizeof(path))
        return NULL;
    return glmux_file_read_small(path, buf, size) == 0 ? buf : NULL;
}

/* Whether the device directory dir belongs to the pci subsystem. */
static bool is_pci_dir(const char *dir)
{
    char path[PATH_MAX], sub[32];

    return snprintf(path, sizeof(path), "%s/subsystem", dir) < (int)sizeof(path) &&
           link_base(path, sub, sizeof(sub)) && strcmp(sub, "pci") == 0;
}

void glmux_gpu_from_sysfs(struct glmux_gpu *g, struct glmux_gpu_list *list)
{
    const char *node = g->render_node[0] ? g->render_node : g->card_node;
    char dir[PATH_MAX], link[PATH_MAX], *real;
    bool pci = false;

    if (snprintf(dir, sizeof(dir), "/sys/class/drm/%s/device", node) >= (int)sizeof(dir))
        return;
    if (snprintf(link, sizeof(link), "%s/driver", dir) < (int)sizeof(link))
        link_base(link, g->driver, sizeof(g->driver));
    real = realpath(dir, NULL);
    if (real == NULL) {
        glmux_gpu_read_attrs(g, list, file_attr, dir, false);
        return;
    }
    /* virtio-gpu: the DRM device hangs off virtioN, whose parent is the PCI function. */
    for (int up = 0; up < 2 && g->bus == GLMUX_BUS_PCI; up++) {
        char *slash;

        if ((pci = is_pci_dir(real)))
            break;
        if ((slash = strrchr(real, '/')) == NULL || slash == real)
            break;
        *slash = '\0';
    }
    glmux_gpu_read_attrs(g, list, file_attr, pci ? real : dir, pci);
    free(real);
}
