/* SPDX-License-Identifier: MIT */
/*
 * glmux: GPU enumeration from sysfs. Only directory listings, symlinks and attribute files are
 * read: no device node is ever opened, because opening a render node wakes a discrete GPU from
 * runtime suspend. Display-class PCI devices come from /sys/bus/pci/devices (with their DRM
 * nodes under <device>/drm, or <device>/virtioN/drm for virtio-gpu); DRM devices on other buses
 * (platform SoCs) come from /sys/class/drm. The list is sorted by PCI address, never left in
 * readdir order.
 */
#define _GNU_SOURCE
#include "select.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Copies src into dst, truncating; sysfs names are short, so truncation means garbage anyway. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);

    memcpy(dst, src, n);
    dst[n] = '\0';
}

struct pci_addr {
    unsigned domain, bus, dev, fn;
};

static bool parse_pci(const char *s, struct pci_addr *a)
{
    char tail;

    return sscanf(s, "%x:%x:%x.%x%c", &a->domain, &a->bus, &a->dev, &a->fn, &tail) == 4;
}

/* Reads a small attribute file into buf with trailing whitespace removed. */
static bool read_attr(const char *dir, const char *name, char *buf, size_t size)
{
    char path[PATH_MAX];
    FILE *f;
    size_t n;

    if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
        return false;
    f = fopen(path, "re");
    if (f == NULL)
        return false;
    n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    while (n > 0 && isspace((unsigned char)buf[n - 1]))
        buf[--n] = '\0';
    return true;
}

static bool read_hex(const char *dir, const char *name, unsigned long *out)
{
    char buf[32], *end;

    if (!read_attr(dir, name, buf, sizeof(buf)) || buf[0] == '\0')
        return false;
    *out = strtoul(buf, &end, 16);
    return *end == '\0';
}

static bool read_flag(const char *dir, const char *name)
{
    char buf[16];

    return read_attr(dir, name, buf, sizeof(buf)) && buf[0] != '\0' && strcmp(buf, "0") != 0;
}

/* The basename of a symlink's target, e.g. <dev>/driver → "i915". */
static bool link_base(const char *dir, const char *name, char *buf, size_t size)
{
    char path[PATH_MAX], target[PATH_MAX];
    ssize_t n;
    const char *base;

    if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
        return false;
    n = readlink(path, target, sizeof(target) - 1);
    if (n <= 0)
        return false;
    target[n] = '\0';
    base = strrchr(target, '/');
    base = base ? base + 1 : target;
    copy_str(buf, size, base);
    return true;
}

/* Records card and render node names found in dir (a device's drm/ folder). */
static void find_nodes(const char *dir, struct glmux_gpu *gpu)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "renderD", 7) == 0) {
            if (gpu->render_node[0] == '\0' || strcmp(e->d_name, gpu->render_node) < 0)
                copy_str(gpu->render_node, sizeof(gpu->render_node), e->d_name);
        } else if (strncmp(e->d_name, "card", 4) == 0 && isdigit((unsigned char)e->d_name[4]) &&
                   strchr(e->d_name, '-') == NULL) {
            if (gpu->card_node[0] == '\0' || strcmp(e->d_name, gpu->card_node) < 0)
                copy_str(gpu->card_node, sizeof(gpu->card_node), e->d_name);
        }
    }
    closedir(d);
}

/* virtio-gpu: the PCI function is bound to virtio-pci; the DRM device hangs off virtioN. */
static void find_virtio_child(const char *dev, struct glmux_gpu *gpu)
{
    DIR *d = opendir(dev);
    struct dirent *e;

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        char child[PATH_MAX], drm[PATH_MAX + 8];
        if (strncmp(e->d_name, "virtio", 6) != 0 || !isdigit((unsigned char)e->d_name[6]))
            continue;
        if (snprintf(child, sizeof(child), "%s/%s", dev, e->d_name) >= (int)sizeof(child))
            continue;
        snprintf(drm, sizeof(drm), "%s/drm", child);
        if (access(drm, F_OK) != 0)
            continue;
        link_base(child, "driver", gpu->driver, sizeof(gpu->driver));
        find_nodes(drm, gpu);
        break;
    }
    closedir(d);
}

static bool is_virtual(const struct glmux_gpu *g)
{
    static const char *const drivers[] = { "virtio_gpu", "virtio-gpu", "virtio-pci", "vmwgfx",
                                           "qxl", "bochs", "bochs-drm", "cirrus", "cirrus-qemu",
                                           "vboxvideo", "hyperv_drm", "simpledrm", "vkms",
                                           "xen-fbfront" };
    static const uint16_t vendors[] = { 0x1af4, 0x15ad, 0x1b36, 0x1234, 0x80ee, 0x1414 };

    for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
        if (strcmp(g->driver, drivers[i]) == 0)
            return true;
    for (size_t i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
        if (g->vendor_id == vendors[i])
            return true;
    return false;
}

static int compare_gpus(const void *a, const void *b)
{
    const struct glmux_gpu *x = a, *y = b;
    struct pci_addr pa, pb;
    bool ha = parse_pci(x->pci, &pa), hb = parse_pci(y->pci, &pb);

    if (ha != hb)
        return ha ? -1 : 1;
    if (!ha)
        return strcmp(x->tag, y->tag);
    if (pa.domain != pb.domain)
        return pa.domain < pb.domain ? -1 : 1;
    if (pa.bus != pb.bus)
        return pa.bus < pb.bus ? -1 : 1;
    if (pa.dev != pb.dev)
        return pa.dev < pb.dev ? -1 : 1;
    if (pa.fn != pb.fn)
        return pa.fn < pb.fn ? -1 : 1;
    return 0;
}

static bool push(struct glmux_gpu_list *list, const struct glmux_gpu *gpu, size_t *cap)
{
    if (list->count == *cap) {
        size_t n = *cap ? *cap * 2 : 4;
        struct glmux_gpu *g = realloc(list->gpus, n * sizeof(*g));
        if (g == NULL)
            return false;
        list->gpus = g;
        *cap = n;
    }
    list->gpus[list->count++] = *gpu;
    return true;
}

static bool scan_pci(struct glmux_gpu_list *list, const char *root, size_t *cap, bool *seen)
{
    char dir[PATH_MAX];
    DIR *d;
    struct dirent *e;
    bool ok = true;

    snprintf(dir, sizeof(dir), "%s/sys/bus/pci/devices", root);
    d = opendir(dir);
    if (d == NULL)
        return true;
    *seen = true;
    while ((e = readdir(d)) != NULL) {
        char dev[PATH_MAX], drm[PATH_MAX + 8];
        struct glmux_gpu gpu;
        struct pci_addr a;
        unsigned long v;

        if (!parse_pci(e->d_name, &a))
            continue;
        if (snprintf(dev, sizeof(dev), "%s/%s", dir, e->d_name) >= (int)sizeof(dev))
            continue;
        if (!read_hex(dev, "class", &v) || (v >> 16) != 0x03)
            continue;
        memset(&gpu, 0, sizeof(gpu));
        gpu.class_code = (uint32_t)v;
        snprintf(gpu.pci, sizeof(gpu.pci), "%04x:%02x:%02x.%x", a.domain, a.bus, a.dev, a.fn);
        snprintf(gpu.tag, sizeof(gpu.tag), "pci-%04x_%02x_%02x_%x", a.domain, a.bus, a.dev,
                 a.fn);
        if (read_hex(dev, "vendor", &v))
            gpu.vendor_id = (uint16_t)v;
        if (read_hex(dev, "device", &v))
            gpu.device_id = (uint16_t)v;
        link_base(dev, "driver", gpu.driver, sizeof(gpu.driver));
        gpu.boot_vga = read_flag(dev, "boot_vga");
        gpu.boot_display = read_flag(dev, "boot_display");
        read_attr(dev, "power/runtime_status", gpu.power, sizeof(gpu.power));
        snprintf(drm, sizeof(drm), "%s/drm", dev);
        find_nodes(drm, &gpu);
        if (gpu.render_node[0] == '\0' && gpu.card_node[0] == '\0')
            find_virtio_child(dev, &gpu);
        if (!push(list, &gpu, cap)) {
            ok = false;
            break;
        }
    }
    closedir(d);
    return ok;
}

/* DRM devices on other buses: platform SoC GPUs (e.g. panfrost, msm, etnaviv). */
static bool scan_platform(struct glmux_gpu_list *list, const char *root, size_t *cap, bool *seen)
{
    char dir[PATH_MAX];
    DIR *d;
    struct dirent *e;
    bool ok = true;

    snprintf(dir, sizeof(dir), "%s/sys/class/drm", root);
    d = opendir(dir);
    if (d == NULL)
        return true;
    *seen = true;
    while ((e = readdir(d)) != NULL) {
        char node[PATH_MAX], bus[32] = "", name[64] = "";
        struct glmux_gpu gpu;
        bool dup = false;

        if (strncmp(e->d_name, "renderD", 7) != 0)
            continue;
        if (snprintf(node, sizeof(node), "%s/%s", dir, e->d_name) >= (int)sizeof(node))
            continue;
        if (!link_base(node, "device/subsystem", bus, sizeof(bus)) || strcmp(bus, "pci") == 0 ||
            strcmp(bus, "virtio") == 0)
            continue;
        if (!link_base(node, "device", name, sizeof(name)))
            continue;
        memset(&gpu, 0, sizeof(gpu));
        if (snprintf(gpu.tag, sizeof(gpu.tag), "%s-%s", bus, name) >= (int)sizeof(gpu.tag))
            continue;   /* a tag that does not fit could not be matched exactly anyway */
        glmux_gpu_tag_normalize(gpu.tag);
        for (size_t i = 0; i < list->count; i++)
            dup |= strcmp(list->gpus[i].tag, gpu.tag) == 0;
        if (dup)
            continue;
        copy_str(gpu.render_node, sizeof(gpu.render_node), e->d_name);
        link_base(node, "device/driver", gpu.driver, sizeof(gpu.driver));
        snprintf(node + strlen(node), sizeof(node) - strlen(node), "/device");
        read_attr(node, "power/runtime_status", gpu.power, sizeof(gpu.power));
        gpu.kind = GLMUX_GPU_INTEGRATED;
        if (!push(list, &gpu, cap)) {
            ok = false;
            break;
        }
    }
    closedir(d);
    return ok;
}

/* Integrated or discrete, from what sysfs tells without asking the driver (docs/hybrid-gpus.md). */
static void classify(struct glmux_gpu_list *list, const char *root)
{
    unsigned long long vram[64] = { 0 };

    for (size_t i = 0; i < list->count; i++) {
        struct glmux_gpu *g = &list->gpus[i];
        struct pci_addr a;
        char dev[PATH_MAX], buf[32];

        if (g->pci[0] == '\0')
            continue;
        parse_pci(g->pci, &a);
        if (is_virtual(g))
            g->kind = GLMUX_GPU_VIRTUAL;
        else if (g->vendor_id == 0x10de)
            g->kind = GLMUX_GPU_DISCRETE;
        else if (g->vendor_id == 0x8086)
            g->kind = (a.domain == 0 && a.bus == 0) ? GLMUX_GPU_INTEGRATED : GLMUX_GPU_DISCRETE;
        else if (g->vendor_id == 0x1002) {
            snprintf(dev, sizeof(dev), "%s/sys/bus/pci/devices/%s", root, g->pci);
            if (i < 64 && read_attr(dev, "mem_info_vram_total", buf, sizeof(buf)))
                vram[i] = strtoull(buf, NULL, 10);
            g->kind = GLMUX_GPU_DISCRETE;
            if (i < 64 && vram[i] != 0 && vram[i] <= (1ull << 30))
                g->kind = GLMUX_GPU_INTEGRATED;
        } else
            g->kind = GLMUX_GPU_DISCRETE;
    }
    /* Two AMD GPUs: the one with less dedicated memory is the APU's. */
    for (size_t i = 0; i < list->count && i < 64; i++) {
        for (size_t j = 0; j < list->count && j < 64; j++) {
            if (i != j && list->gpus[i].vendor_id == 0x1002 && list->gpus[j].vendor_id == 0x1002 &&
                vram[i] != 0 && vram[j] != 0 && vram[i] < vram[j])
                list->gpus[i].kind = GLMUX_GPU_INTEGRATED;
        }
    }
}

static void pick_default(struct glmux_gpu_list *list, const char *display_tag)
{
    int pick = -1;

    list->default_index = -1;
    list->default_rule = "no GPU";
    if (list->count == 0)
        return;
    for (size_t i = 0; display_tag != NULL && pick < 0 && i < list->count; i++)
        if (strcmp(list->gpus[i].tag, display_tag) == 0) {
            pick = (int)i;
            list->default_rule = "the display server's GPU";
        }
    for (size_t i = 0; pick < 0 && i < list->count; i++)
        if (list->gpus[i].boot_display) {
            pick = (int)i;
            list->default_rule = "boot_display";
        }
    for (size_t i = 0; pick < 0 && i < list->count; i++)
        if (list->gpus[i].boot_vga) {
            pick = (int)i;
            list->default_rule = "boot_vga";
        }
    for (size_t i = 0; pick < 0 && i < list->count; i++)
        if (list->gpus[i].kind != GLMUX_GPU_VIRTUAL) {
            pick = (int)i;
            list->default_rule = "the first non-virtual GPU in PCI order";
        }
    if (pick < 0) {
        pick = 0;
        list->default_rule = "the first GPU in PCI order";
    }
    list->default_index = pick;
    list->gpus[pick].is_default = true;
}

bool glmux_gpu_list_enumerate(struct glmux_gpu_list *out, const char *root,
                              const char *display_tag)
{
    size_t cap = 0;
    bool seen = false;

    memset(out, 0, sizeof(*out));
    out->default_index = -1;
    if (root == NULL)
        root = "";
    if (!scan_pci(out, root, &cap, &seen) || !scan_platform(out, root, &cap, &seen)) {
        glmux_gpu_list_clear(out);
        return false;
    }
    out->sysfs_missing = !seen;
    if (out->count > 1)
        qsort(out->gpus, out->count, sizeof(out->gpus[0]), compare_gpus);
    classify(out, root);
    pick_default(out, display_tag);
    return true;
}

void glmux_gpu_list_clear(struct glmux_gpu_list *list)
{
    free(list->gpus);
    memset(list, 0, sizeof(*list));
    list->default_index = -1;
}

void glmux_gpu_tag_normalize(char *tag)
{
    size_t n = 0;

    for (const char *p = tag; *p != '\0'; p++) {
        if (isalnum((unsigned char)*p) || *p == '-')
            tag[n++] = *p;
        else if (n > 0 && tag[n - 1] != '_')
            tag[n++] = '_';
    }
    while (n > 0 && tag[n - 1] == '_')
        n--;
    tag[n] = '\0';
}

const char *glmux_gpu_kind_name(enum glmux_gpu_kind kind)
{
    switch (kind) {
    case GLMUX_GPU_INTEGRATED: return "integrated";
    case GLMUX_GPU_DISCRETE: return "discrete";
    case GLMUX_GPU_VIRTUAL: return "virtual";
    case GLMUX_GPU_UNKNOWN: break;
    }
    return "unknown";
}
