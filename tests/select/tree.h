/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: building small file trees (fake sysfs roots, vendor directories) in a fresh
 * temporary directory of the test's own, and removing them afterwards.
 */
#ifndef GLMUX_TESTS_SELECT_TREE_H
#define GLMUX_TESTS_SELECT_TREE_H

/* Creates a fresh directory /tmp/glmux-<tag>-XXXXXX and returns its path (static storage). */
const char *tree_new(const char *tag);
/* Writes root/rel (creating parent directories) with the given text. */
void tree_file(const char *root, const char *rel, const char *text);
/* Creates the symlink root/rel → target (creating parent directories). */
void tree_link(const char *root, const char *rel, const char *target);
/* Creates the directory root/rel and its parents. */
void tree_dir(const char *root, const char *rel);
/* Removes root recursively. */
void tree_remove(const char *root);

/* A PCI display device for a fake sysfs root (root/sys/bus/pci/devices/<slot>). */
struct tree_gpu {
    const char *slot, *vendor, *device, *class_code, *driver; /* attribute texts, e.g. "0x8086\n" */
    int boot_vga, boot_display;  /* -1: attribute absent */
    const char *render, *power, *vram;  /* NULL: absent */
};
void tree_add_gpu(const char *root, const struct tree_gpu *g);

#endif
