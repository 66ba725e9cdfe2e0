/* SPDX-License-Identifier: MIT */
/*
 * glmux: the rules applied to an enumerated GPU list, with no I/O: the order (PCI devices by
 * domain:bus:device.function, then the others by tag; never readdir or libdrm order), the kind
 * of each GPU (integrated, discrete, virtual, display-only) from the facts udev gave, unless
 * the administrator's udev property GLMUX_GPU_CLASS says otherwise, the vendor that serves each
 * (GLMUX_VENDOR, else the driver table), and the default GPU. Also the tag helpers: Mesa's
 * platform tag and udev's ID_PATH_TAG form.
 */
#define _GNU_SOURCE
#include "select.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pci_addr {
    unsigned domain, bus, dev, fn;
};

static bool parse_pci(const char *s, struct pci_addr *a)
{
    char tail;

    return sscanf(s, "%x:%x:%x.%x%c", &a->domain, &a->bus, &a->dev, &a->fn, &tail) == 4;
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
    for (size_t i = 0; g->bus == GLMUX_BUS_PCI && i < sizeof(vendors) / sizeof(vendors[0]); i++)
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

/* Integrated or discrete, from what udev tells without asking the driver (docs/hybrid-gpus.md). */
static void classify(struct glmux_gpu_list *list)
{
    for (size_t i = 0; i < list->count; i++) {
        struct glmux_gpu *g = &list->gpus[i];
        struct pci_addr a;

        if (g->kind_from_udev)
            continue;
        if (g->render_node[0] == '\0')
            g->kind = GLMUX_GPU_DISPLAY_ONLY;
        else if (is_virtual(g))
            g->kind = GLMUX_GPU_VIRTUAL;
        else if (g->bus != GLMUX_BUS_PCI)
            g->kind = GLMUX_GPU_INTEGRATED;   /* a SoC's GPU */
        else if (g->vendor_id == 0x10de)
            g->kind = GLMUX_GPU_DISCRETE;
        else if (g->vendor_id == 0x8086)
            g->kind = parse_pci(g->pci, &a) && a.domain == 0 && a.bus == 0
                          ? GLMUX_GPU_INTEGRATED : GLMUX_GPU_DISCRETE;
        else if (g->vendor_id == 0x1002)
            g->kind = g->vram != 0 && g->vram <= (1ull << 30) ? GLMUX_GPU_INTEGRATED
                                                             : GLMUX_GPU_DISCRETE;
        else
            g->kind = GLMUX_GPU_DISCRETE;
    }
    /* Two AMD GPUs: the one with less dedicated memory is the APU's. */
    for (size_t i = 0; i < list->count; i++) {
        struct glmux_gpu *g = &list->gpus[i];

        for (size_t j = 0; j < list->count && !g->kind_from_udev; j++) {
            const struct glmux_gpu *o = &list->gpus[j];
            if (i != j && g->vendor_id == 0x1002 && o->vendor_id == 0x1002 &&
                g->kind == GLMUX_GPU_DISCRETE && g->vram != 0 && o->vram != 0 &&
                g->vram < o->vram)
                g->kind = GLMUX_GPU_INTEGRATED;
        }
    }
}

static bool renders(const struct glmux_gpu *g)
{
    return g->render_node[0] != '\0';
}

static void pick_default(struct glmux_gpu_list *list)
{
    int pick = -1;

    list->default_index = -1;
    list->default_rule = list->count == 0 ? "no GPU" : "no render-capable GPU";
    for (size_t i = 0; pick < 0 && i < list->count; i++)
        if (renders(&list->gpus[i]) && list->gpus[i].boot_display) {
            pick = (int)i;
            list->default_rule = "boot_display";
        }
    for (size_t i = 0; pick < 0 && i < list->count; i++)
        if (renders(&list->gpus[i]) && list->gpus[i].boot_vga) {
            pick = (int)i;
            list->default_rule = "boot_vga";
        }
    for (size_t i = 0; pick < 0 && i < list->count; i++)
        if (renders(&list->gpus[i]) && list->gpus[i].kind != GLMUX_GPU_VIRTUAL) {
            pick = (int)i;
            list->default_rule = "the first non-virtual GPU in PCI order";
        }
    for (size_t i = 0; pick < 0 && i < list->count; i++)
        if (renders(&list->gpus[i])) {
            pick = (int)i;
            list->default_rule = "the first GPU in PCI order";
        }
    if (pick < 0)
        return;
    list->default_index = pick;
    list->gpus[pick].is_default = true;
}

/* The vendor that serves each GPU by the administrator's word or the driver table. */
static void name_vendors(struct glmux_gpu_list *list)
{
    for (size_t i = 0; i < list->count; i++) {
        struct glmux_gpu *g = &list->gpus[i];
        char buf[GLMUX_DRIVER_VENDOR_MAX];
        const char *v = g->vendor[0] ? g->vendor : glmux_driver_default_vendor(g->driver, buf);

        snprintf(g->served_by, sizeof(g->served_by), "%s", v ? v : "");
        if (v != NULL && strlen(v) >= sizeof(g->served_by))
            g->served_by[0] = '\0';
    }
}

void glmux_gpu_list_finish(struct glmux_gpu_list *list)
{
    if (list->count > 1)
        qsort(list->gpus, list->count, sizeof(list->gpus[0]), compare_gpus);
    classify(list);
    name_vendors(list);
    for (size_t i = 0; i < list->count; i++)
        list->gpus[i].is_default = false;
    pick_default(list);
}

const struct glmux_gpu *glmux_gpu_list_find(const struct glmux_gpu_list *list, const char *tag)
{
    for (size_t i = 0; tag != NULL && list != NULL && i < list->count; i++)
        if (glmux_gpu_has_tag(&list->gpus[i], tag))
            return &list->gpus[i];
    return NULL;
}

void glmux_gpu_list_clear(struct glmux_gpu_list *list)
{
    free(list->gpus);
    memset(list, 0, sizeof(*list));
    list->default_index = -1;
}

bool glmux_gpu_has_tag(const struct glmux_gpu *gpu, const char *tag)
{
    return strcmp(gpu->tag, tag) == 0 || (gpu->udev_tag[0] != '\0' &&
                                          strcmp(gpu->udev_tag, tag) == 0);
}

bool glmux_gpu_platform_tag(const char *fullname, char *tag, size_t size)
{
    const char *slash = strrchr(fullname, '/');
    const char *name = slash ? slash + 1 : fullname;
    const char *at = strchr(name, '@');
    int n;

    if (*name == '\0')
        return false;
    if (at != NULL)
        n = snprintf(tag, size, "platform-%s_%.*s", at + 1, (int)(at - name), name);
    else
        n = snprintf(tag, size, "platform-%s", name);
    return n > 0 && (size_t)n < size;
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
    case GLMUX_GPU_DISPLAY_ONLY: return "display-only";
    case GLMUX_GPU_UNKNOWN: break;
    }
    return "unknown";
}

const char *glmux_gpu_bus_name(enum glmux_gpu_bus bus)
{
    switch (bus) {
    case GLMUX_BUS_PCI: return "pci";
    case GLMUX_BUS_USB: return "usb";
    case GLMUX_BUS_PLATFORM: return "platform";
    case GLMUX_BUS_HOST1X: return "host1x";
    case GLMUX_BUS_OTHER: break;
    }
    return "other";
}
