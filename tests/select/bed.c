/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: umockdev test beds from C (see bed.h). Records are written in umockdev's text
 * format and added with umockdev_testbed_add_from_string, the parser umockdev-run uses for the
 * .umockdev files of tests/cli/beds. Failures end the test through CHECK.
 */
#define _GNU_SOURCE
#include "bed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <umockdev.h>

#include "glmux_test.h"
#include "select/select.h"

static UMockdevTestbed *bed;

void bed_require(void)
{
    const char *preload = getenv("LD_PRELOAD");

    if (preload == NULL || strstr(preload, "libumockdev-preload") == NULL) {
        printf("skipped: not running under umockdev-wrapper\n");
        exit(77);
    }
}

/* A test that ends through a failed CHECK or a skip still removes its bed (a directory in
 * $TMPDIR); a forked child that exits leaves the parent's alone. */
static pid_t bed_owner;

static void bed_free_at_exit(void)
{
    if (getpid() == bed_owner)
        bed_free();
}

void bed_new(void)
{
    bed_free();
    if (bed_owner == 0)
        CHECK(atexit(bed_free_at_exit) == 0);
    bed_owner = getpid();
    bed = umockdev_testbed_new();
    CHECK(bed != NULL);
}

void bed_add(const char *text)
{
    GError *error = NULL;

    CHECK(bed != NULL);
    CHECK_MSG(umockdev_testbed_add_from_string(bed, text, &error), "umockdev: %s",
              error ? error->message : "?");
}

/* Appends "A: name=value" with value's trailing newline dropped. */
static void attr(char *buf, size_t size, const char *name, const char *value)
{
    size_t len = strlen(buf), n = strcspn(value, "\n");

    snprintf(buf + len, size - len, "A: %s=%.*s\n", name, (int)n, value);
}

void bed_add_gpu_with(const struct bed_gpu *g, const char *extra)
{
    size_t size = 4096 + (extra ? strlen(extra) : 0);
    char *text = malloc(size);
    unsigned bus, dev, fn, dom;

    CHECK(text != NULL);
    CHECK(sscanf(g->slot, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4);
    snprintf(text, size, "P: /devices/pci0000:00/%s\nE: SUBSYSTEM=pci\n"
             "E: PCI_SLOT_NAME=%s\n", g->slot, g->slot);
    if (g->driver != NULL)
        snprintf(text + strlen(text), size - strlen(text), "E: DRIVER=%s\n", g->driver);
    attr(text, size, "vendor", g->vendor);
    attr(text, size, "device", g->device);
    attr(text, size, "subsystem_vendor", "0x0000");
    attr(text, size, "subsystem_device", "0x0000");
    attr(text, size, "class", g->class_code);
    if (g->boot_vga >= 0)
        attr(text, size, "boot_vga", g->boot_vga ? "1" : "0");
    if (g->boot_display >= 0)
        attr(text, size, "boot_display", g->boot_display ? "1" : "0");
    if (g->power != NULL)
        attr(text, size, "power/runtime_status", g->power);
    if (g->vram != NULL)
        attr(text, size, "mem_info_vram_total", g->vram);
    if (g->driver != NULL)
        snprintf(text + strlen(text), size - strlen(text),
                 "L: driver=../../../bus/pci/drivers/%s\n", g->driver);
    if (g->render != NULL) {
        unsigned minor = 0;
        CHECK(sscanf(g->render, "renderD%u", &minor) == 1);
        snprintf(text + strlen(text), size - strlen(text),
                 "\nP: /devices/pci0000:00/%s/drm/%s\nN: dri/%s\nE: SUBSYSTEM=drm\n"
                 "E: DEVNAME=/dev/dri/%s\nE: DEVTYPE=drm_minor\n"
                 "E: ID_PATH_TAG=pci-%04x_%02x_%02x_%x\n%sA: dev=226:%u\n"
                 "L: device=../../../%s\n", g->slot, g->render, g->render, g->render, dom, bus,
                 dev, fn, extra ? extra : "", minor, g->slot);
    }
    bed_add(text);
    free(text);
}

void bed_add_gpu(const struct bed_gpu *g)
{
    bed_add_gpu_with(g, NULL);
}

void bed_remove(const char *syspath)
{
    CHECK(bed != NULL);
    umockdev_testbed_remove_device(bed, syspath);
}

void bed_set_attr(const char *syspath, const char *name, const char *value)
{
    CHECK(bed != NULL);
    umockdev_testbed_set_attribute(bed, syspath, name, value);
}

void bed_set_prop(const char *syspath, const char *name, const char *value)
{
    CHECK(bed != NULL);
    umockdev_testbed_set_property(bed, syspath, name, value);
}

const char *bed_root(void)
{
    static char root[4096];
    gchar *dir;

    CHECK(bed != NULL);
    dir = umockdev_testbed_get_root_dir(bed);
    snprintf(root, sizeof(root), "%s", dir);
    g_free(dir);
    return root;
}

void bed_free(void)
{
    if (bed != NULL)
        g_object_unref(bed);
    bed = NULL;
}

const char *bed_glx_vendor(struct glmux_select *sel, void *dpy, int screen,
                           const struct glmux_vendor_list *vendors)
{
    struct glmux_glx_step plan[GLMUX_GLX_PLAN_MAX];

    glmux_select_glx_plan(sel, dpy, screen, vendors, plan);
    return plan[0].kind == GLMUX_GLX_STEP_VENDOR ? plan[0].name : NULL;
}

bool bed_request_unmet(struct glmux_select *sel)
{
    struct glmux_select_choice c;

    glmux_select_choose(sel, NULL, NULL, 0, &c);
    return c.unmet;
}
