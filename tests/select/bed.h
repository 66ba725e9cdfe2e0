/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: umockdev test beds built by a C test, for the selector's real libdrm and libudev
 * code path. The test runs under umockdev-wrapper (its ctest command); bed_new() starts a fresh,
 * empty testbed (no /sys/devices: "sysfs missing"), bed_add_gpu() adds a PCI GPU with its DRM
 * render node, bed_add() any device in umockdev's text format.
 */
#ifndef GLMUX_TESTS_SELECT_BED_H
#define GLMUX_TESTS_SELECT_BED_H

#include <stdbool.h>

/* A PCI display device: attribute texts as sysfs has them, e.g. "0x8086\n". */
struct bed_gpu {
    const char *slot, *vendor, *device, *class_code, *driver;
    int boot_vga, boot_display;  /* -1: attribute absent */
    const char *render, *power, *vram;  /* NULL: absent */
};

/* Exits 77 (skip) when the process does not run under umockdev's preload. */
void bed_require(void);
void bed_new(void);
void bed_add_gpu(const struct bed_gpu *g);
/* extra: more "E:"/"A:" lines for the render node's record (NULL for none). */
void bed_add_gpu_with(const struct bed_gpu *g, const char *extra);
void bed_add(const char *text);
/* Removes a device (a /sys/devices/... path) and its children, as an unplug does. */
void bed_remove(const char *syspath);
/* Sets a sysfs attribute / a udev property of a device already added (a /sys/devices/... path). */
void bed_set_attr(const char *syspath, const char *name, const char *value);
void bed_set_prop(const char *syspath, const char *name, const char *value);
/* The testbed's root directory (its sys/ and dev/ are what the process sees as /sys, /dev). */
const char *bed_root(void);
void bed_free(void);

/* What the selector answers, as the tests read it. */
struct glmux_select;
struct glmux_vendor_list;
/* The first vendor of glmux_select_glx_plan, or NULL when the X server's list comes first. */
const char *bed_glx_vendor(struct glmux_select *sel, void *dpy, int screen,
                           const struct glmux_vendor_list *vendors);
/* True when a GPU was asked for and is not what glmux_select_chosen_gpu gives. */
bool bed_request_unmet(struct glmux_select *sel);

#endif
