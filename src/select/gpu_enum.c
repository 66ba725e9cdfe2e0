/* SPDX-License-Identifier: MIT */
/*
 * glmux: GPU enumeration through libdrm and libudev. libdrm's drmGetDevices2 lists the DRM
 * devices exactly as Mesa's loader sees them (bus type, PCI address and ids, platform/host1x
 * OF names, card and render nodes) without opening any device node; with flags 0 it reads the
 * separate PCI id attributes, never the config space. libudev then gives what libdrm does not:
 * the kernel driver, boot_vga/boot_display, power/runtime_status, the VRAM size, udev's
 * ID_PATH_TAG, and the administrator's properties (GLMUX_IGNORE, GLMUX_GPU_CLASS, GLMUX_VENDOR,
 * on either DRM node of the GPU or on its parent device, merged: the render node, the card
 * node, the parent, the PCI device, the first that has a property gives it, a different value
 * further on is warned about; filesystem-layout/ has an example rules file). Without libudev the
 * same facts but udev's own come from sysfs (gpu_sysfs.c). A device that vanishes between the
 * two is kept with what libdrm said; a GPU udev has no record of (no /run/udev) is noted. Odd
 * values (an unknown GLMUX_GPU_CLASS, a boot_vga that is not 0 or 1, a number that is not one,
 * a string too long) are ignored and the first is kept for the one warning. The one thing read
 * directly is whether /sys/devices exists, to tell a container without /sys from a machine
 * without GPUs.
 */
#define _GNU_SOURCE
#include "select.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "select/device_libs.h"
#include "select/gpu_enum.h"
#include "select/manifest.h"

/* The list's one warning (gpu_enum.h). */
#define note_problem glmux_gpu_note_problem

static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = src ? strnlen(src, size - 1) : 0;

    if (n > 0)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

static const char *node_base(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

void glmux_gpu_note_problem(struct glmux_gpu_list *list, const char *fmt, ...)
{
    va_list ap;

    if (list->problem[0] != '\0')
        return;
    va_start(ap, fmt);
    vsnprintf(list->problem, sizeof(list->problem), fmt, ap);
    va_end(ap);
}

/* Records a GPU udev has no record of (its database is missing: no /run/udev). */
static void note_no_udev_record(struct glmux_gpu_list *list, const char *tag)
{
    size_t len = strlen(list->no_udev_record);

    if (len + strlen(tag) + 3 < sizeof(list->no_udev_record))
        snprintf(list->no_udev_record + len, sizeof(list->no_udev_record) - len, "%s%s",
                 len ? ", " : "", tag);
}

/* What libdrm knows: bus, address, ids, nodes, Mesa's tag. False for a device to skip. */
bool glmux_gpu_from_drm(const drmDevice *d, struct glmux_gpu *g)
{
    if (d->available_nodes & (1 << DRM_NODE_RENDER))
        copy_str(g->render_node, sizeof(g->render_node), node_base(d->nodes[DRM_NODE_RENDER]));
    if (d->available_nodes & (1 << DRM_NODE_PRIMARY))
        copy_str(g->card_node, sizeof(g->card_node), node_base(d->nodes[DRM_NODE_PRIMARY]));
    if (g->render_node[0] == '\0' && g->card_node[0] == '\0')
        return false;
    switch (d->bustype) {
    case DRM_BUS_PCI: {
        const drmPciBusInfo *b = d->businfo.pci;
        g->bus = GLMUX_BUS_PCI;
        snprintf(g->pci, sizeof(g->pci), "%04x:%02x:%02x.%u", b->domain, b->bus, b->dev,
                 b->func);
        /* Mesa's loader: "pci-%04x_%02x_%02x_%1u". */
        snprintf(g->tag, sizeof(g->tag), "pci-%04x_%02x_%02x_%1u", b->domain, b->bus, b->dev,
                 b->func);
        if (d->deviceinfo.pci != NULL) {
            g->vendor_id = d->deviceinfo.pci->vendor_id;
            g->device_id = d->deviceinfo.pci->device_id;
        }
        return true;
    }
    case DRM_BUS_PLATFORM:
    case DRM_BUS_HOST1X: {
        const char *full = d->bustype == DRM_BUS_PLATFORM ? d->businfo.platform->fullname
                                                          : d->businfo.host1x->fullname;
        g->bus = d->bustype == DRM_BUS_PLATFORM ? GLMUX_BUS_PLATFORM : GLMUX_BUS_HOST1X;
        return glmux_gpu_platform_tag(full, g->tag, sizeof(g->tag));
    }
    case DRM_BUS_USB:
        g->bus = GLMUX_BUS_USB;
        /* Mesa builds no tag for USB; udev's ID_PATH_TAG (below) names it, else this. */
        snprintf(g->tag, sizeof(g->tag), "usb-%03u_%03u", d->businfo.usb->bus,
                 d->businfo.usb->dev);
        return true;
    default:
        g->bus = GLMUX_BUS_OTHER;
        snprintf(g->tag, sizeof(g->tag), "%s", g->render_node[0] ? g->render_node : g->card_node);
        return true;
    }
}

/* A value without the blanks sysfs and udev leave around it; "" for NULL. */
static const char *trimmed(const char *v, char *buf, size_t size)
{
    size_t n;

    if (v == NULL)
        return "";
    while (*v == ' ' || *v == '\t' || *v == '\n')
        v++;
    n = strnlen(v, size - 1);
    memcpy(buf, v, n);
    while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\n'))
        n--;
    buf[n] = '\0';
    return buf;
}

/* A 0/1 sysfs attribute (boot_vga, boot_display). Absent is 0; anything but 0 or 1 is 0 too,
 * with the one warning: a bogus value must not make a GPU the default. */
static bool flag_value(const char *v, const char *name, const struct glmux_gpu *g,
                       struct glmux_gpu_list *list)
{
    char buf[16];
    const char *t = trimmed(v, buf, sizeof(buf));

    if (v == NULL || strcmp(t, "0") == 0)
        return false;
    if (strcmp(t, "1") == 0 && strlen(v) < sizeof(buf))
        return true;
    note_problem(list, "sysfs attribute %s=\"%.40s\" of %s is not 0 or 1; taken as 0", name, v,
                 g->tag);
    return false;
}

/* A number in sysfs (base 10 or 16) up to max; false, with the one warning, for anything
 * else. */
static bool number_value(const char *v, int base, unsigned long long max, const char *name,
                         const struct glmux_gpu *g, struct glmux_gpu_list *list,
                         unsigned long long *out)
{
    char buf[32], *end;
    const char *t = trimmed(v, buf, sizeof(buf));
    unsigned long long n;

    errno = 0;
    n = strtoull(t, &end, base);
    if (t[0] != '\0' && t[0] != '-' && *end == '\0' && errno == 0 && strlen(v) < sizeof(buf) &&
        n <= max) {
        *out = n;
        return true;
    }
    note_problem(list, "sysfs attribute %s=\"%.40s\" of %s is not a number (or too large); "
                 "ignored", name, v, g->tag);
    return false;
}

/* A property of the GPU: the first of devs that has it; a different value further on is noted. */
static const char *merged_property(const struct glmux_device_libs *L,
                                   struct udev_device *const *devs, size_t n, const char *name,
                                   const struct glmux_gpu *g, struct glmux_gpu_list *list)
{
    const char *first = NULL;

    for (size_t i = 0; i < n; i++) {
        const char *v = devs[i] != NULL ? L->udev_device_get_property_value(devs[i], name) : NULL;

        if (v == NULL)
            continue;
        if (first == NULL)
            first = v;
        else if (strcmp(first, v) != 0)
            note_problem(list, "udev property %s of %s is \"%.40s\" on one device and \"%.40s\" "
                         "on another; \"%.40s\" is used (the render node, the card node, the "
                         "parent device, the PCI device: the first that has it)", name, g->tag,
                         first, v, first);
    }
    return first;
}

/* The administrator's udev properties; false when GLMUX_IGNORE hides the GPU. */
static bool udev_overrides(const struct glmux_device_libs *L, struct udev_device *const *devs,
                           size_t n, struct glmux_gpu *g, struct glmux_gpu_list *list)
{
    const char *ignore = merged_property(L, devs, n, "GLMUX_IGNORE", g, list);
    const char *cls = merged_property(L, devs, n, "GLMUX_GPU_CLASS", g, list);
    const char *vendor = merged_property(L, devs, n, "GLMUX_VENDOR", g, list);

    if (ignore != NULL && strcmp(ignore, "1") == 0)
        return false;
    if (ignore != NULL && strcmp(ignore, "0") != 0 && ignore[0] != '\0')
        note_problem(list, "udev property GLMUX_IGNORE=\"%.40s\" on %s is not 0 or 1; ignored "
                     "(docs/hybrid-gpus.md, \"udev rules\")", ignore, g->tag);
    if (cls != NULL && cls[0] != '\0') {
        static const struct {
            const char *name;
            enum glmux_gpu_kind kind;
        } kinds[] = { { "discrete", GLMUX_GPU_DISCRETE }, { "integrated", GLMUX_GPU_INTEGRATED },
                      { "virtual", GLMUX_GPU_VIRTUAL } };
        bool known = false;
        for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
            if (strcasecmp(cls, kinds[i].name) == 0 && g->render_node[0] != '\0') {
                g->kind = kinds[i].kind;
                g->kind_from_udev = true;
            }
            known |= strcasecmp(cls, kinds[i].name) == 0;
        }
        if (!known)
            note_problem(list, "udev property GLMUX_GPU_CLASS=\"%.40s\" on %s is not discrete, "
                         "integrated or virtual; ignored (docs/hybrid-gpus.md, \"udev rules\")",
                         cls, g->tag);
    }
    if (vendor != NULL && vendor[0] != '\0') {
        if (strlen(vendor) < sizeof(g->vendor) && glmux_manifest_valid_name(vendor))
            copy_str(g->vendor, sizeof(g->vendor), vendor);
        else
            note_problem(list, "udev property GLMUX_VENDOR=\"%.60s\" on %s is not a vendor "
                         "name; ignored (docs/hybrid-gpus.md, \"udev rules\")", vendor, g->tag);
    }
    return true;
}

/* A device's sysfs attributes through libudev, for glmux_gpu_read_attrs. */
struct udev_attrs {
    const struct glmux_device_libs *L;
    struct udev_device *dev;
};

static const char *udev_attr(void *ctx, const char *name, char *buf, size_t size)
{
    const struct udev_attrs *a = ctx;

    (void)buf;
    (void)size;
    return a->L->udev_device_get_sysattr_value(a->dev, name);
}

void glmux_gpu_read_attrs(struct glmux_gpu *g, struct glmux_gpu_list *list,
                          glmux_gpu_attr_fn attr, void *ctx, bool pci)
{
    char buf[64];
    const char *v;
    unsigned long long n;

    if (attr == NULL)
        return;
    if (pci) {
        g->boot_vga = flag_value(attr(ctx, "boot_vga", buf, sizeof(buf)), "boot_vga", g, list);
        g->boot_display = flag_value(attr(ctx, "boot_display", buf, sizeof(buf)),
                                     "boot_display", g, list);
        if ((v = attr(ctx, "class", buf, sizeof(buf))) != NULL &&
            number_value(v, 16, 0xffffff, "class", g, list, &n))
            g->class_code = (uint32_t)n;
        if ((v = attr(ctx, "mem_info_vram_total", buf, sizeof(buf))) != NULL &&
            number_value(v, 10, ~0ull, "mem_info_vram_total", g, list, &n))
            g->vram = n;
    }
    if ((v = attr(ctx, "power/runtime_status", buf, sizeof(buf))) != NULL)
        copy_str(g->power, sizeof(g->power), v);
}

/* What udev knows; false when an administrator's rule hides the GPU. */
static bool from_udev(const struct glmux_device_libs *L, struct udev *udev, struct glmux_gpu *g,
                      struct glmux_gpu_list *list)
{
    struct udev_device *render = NULL, *card = NULL, *node, *parent, *pci = NULL;
    const char *v;
    bool keep;

    if (g->render_node[0] != '\0')
        render = L->udev_device_new_from_subsystem_sysname(udev, "drm", g->render_node);
    if (g->card_node[0] != '\0')
        card = L->udev_device_new_from_subsystem_sysname(udev, "drm", g->card_node);
    node = render != NULL ? render : card;
    if (node == NULL) {
        /* Gone since libdrm listed it (unplugged, or its driver unbound, a moment ago): keep
         * what libdrm said. */
        note_problem(list, "%s vanished while GPUs were enumerated (libdrm listed it, udev "
                     "no longer finds it); its driver and udev properties are unknown", g->tag);
        return true;
    }
    v = L->udev_device_get_property_value(node, "ID_PATH_TAG");
    if (v == NULL && card != NULL)
        v = L->udev_device_get_property_value(card, "ID_PATH_TAG");
    if (v != NULL && strlen(v) < sizeof(g->udev_tag))
        copy_str(g->udev_tag, sizeof(g->udev_tag), v);
    else if (v != NULL)
        note_problem(list, "udev property ID_PATH_TAG=\"%.40s...\" of %s is too long; ignored",
                     v, g->tag);
    /* udev's rules give every DRM node it processed ID_PATH_TAG (60-drm.rules) and its database
     * USEC_INITIALIZED; neither means that udev has no record of it (no /run/udev). */
    if (v == NULL && L->udev_device_get_property_value(node, "USEC_INITIALIZED") == NULL &&
        (card == NULL || L->udev_device_get_property_value(card, "USEC_INITIALIZED") == NULL))
        note_no_udev_record(list, g->tag);
    if (g->bus == GLMUX_BUS_USB && g->udev_tag[0] != '\0')
        copy_str(g->tag, sizeof(g->tag), g->udev_tag);
    parent = L->udev_device_get_parent(node);
    copy_str(g->driver, sizeof(g->driver), parent ? L->udev_device_get_driver(parent) : NULL);
    /* virtio-gpu: the DRM device hangs off virtioN, whose parent is the PCI function. */
    for (struct udev_device *p = parent; p != NULL && pci == NULL;
         p = L->udev_device_get_parent(p)) {
        const char *sub = L->udev_device_get_subsystem(p);
        if (sub != NULL && strcmp(sub, "pci") == 0)
            pci = p;
        if (g->bus != GLMUX_BUS_PCI)
            break;
    }
    {
        struct udev_attrs a = { L, pci ? pci : parent };
        glmux_gpu_read_attrs(g, list, a.dev != NULL ? udev_attr : NULL, &a, pci != NULL);
    }
    {
        struct udev_device *devs[4] = { render, card, parent, pci != parent ? pci : NULL };
        keep = udev_overrides(L, devs, 4, g, list);
    }
    if (render != NULL)
        L->udev_device_unref(render);
    if (card != NULL)
        L->udev_device_unref(card);
    return keep;
}

static void note_ignored(struct glmux_gpu_list *list, const char *tag)
{
    size_t len = strlen(list->ignored);

    snprintf(list->ignored + len, sizeof(list->ignored) - len, "%s%s", len ? ", " : "", tag);
}

static pthread_mutex_t enum_lock = PTHREAD_MUTEX_INITIALIZER;

void glmux_gpu_enum_lock(void)
{
    pthread_mutex_lock(&enum_lock);
}

void glmux_gpu_enum_unlock(void)
{
    pthread_mutex_unlock(&enum_lock);
}

void glmux_select_fork(enum glmux_fork_step step)
{
    glmux_fork_mutex(&enum_lock, step);
}

bool glmux_gpu_list_enumerate(struct glmux_gpu_list *out)
{
    const struct glmux_device_libs *L = glmux_device_libs_get();
    drmDevicePtr *devs = NULL;
    struct udev *udev = NULL;
    int n;
    bool ok = true;

    memset(out, 0, sizeof(*out));
    out->default_index = -1;
    if (!L->have_drm || access("/sys/devices", F_OK) != 0) {
        out->sysfs_missing = true;
        snprintf(out->problem, sizeof(out->problem), "%s",
                 !L->have_drm ? L->error : "/sys is not mounted (a container?)");
        glmux_gpu_list_finish(out);
        return true;
    }
    n = L->drmGetDevices2(0, NULL, 0);
    if (n > 0) {
        devs = calloc((size_t)n, sizeof(*devs));
        out->gpus = calloc((size_t)n, sizeof(*out->gpus));
        if (devs == NULL || out->gpus == NULL) {
            free(devs);
            glmux_gpu_list_clear(out);
            return false;
        }
        /* A device may come or go in between: take what the second call filled (it returns
         * how many it found, which may be more than it was given room for). */
        int filled = L->drmGetDevices2(0, devs, n);
        n = filled < n ? filled : n;
    }
    if (n > 0 && L->have_udev)
        udev = L->udev_new();
    out->no_udev = n > 0 && udev == NULL;
    out->drm_count = n > 0 ? (size_t)n : 0;
    for (int i = 0; i < n; i++) {
        struct glmux_gpu *g = &out->gpus[out->count];

        memset(g, 0, sizeof(*g));
        if (!glmux_gpu_from_drm(devs[i], g)) {
            /* A platform GPU whose device-tree name gives no tag ("/", or too long): Mesa
             * cannot name it either; it is left out, and said so. */
            if (g->bus == GLMUX_BUS_PLATFORM || g->bus == GLMUX_BUS_HOST1X)
                note_problem(out, "the %s GPU %s (device-tree name \"%.80s\") is left out: "
                             "that name gives no DRI_PRIME tag (it is \"/\" or too long)",
                             glmux_gpu_bus_name(g->bus), g->render_node[0] ? g->render_node
                             : g->card_node, devs[i]->bustype == DRM_BUS_PLATFORM
                             ? devs[i]->businfo.platform->fullname
                             : devs[i]->businfo.host1x->fullname);
            continue;
        }
        g->drm_index = i;
        if (udev != NULL && !from_udev(L, udev, g, out)) {
            note_ignored(out, g->tag);
            continue;
        }
        if (udev == NULL)
            glmux_gpu_from_sysfs(g, out);
        out->count++;
    }
    if (n > 0)
        L->drmFreeDevices(devs, n);
    free(devs);
    if (udev != NULL)
        L->udev_unref(udev);
    glmux_gpu_list_finish(out);
    return ok;
}
