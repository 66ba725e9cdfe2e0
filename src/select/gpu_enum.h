/* SPDX-License-Identifier: MIT */
/*
 * glmux: what the GPU enumerators share inside glmux_select (gpu_enum.c with libdrm and libudev,
 * gpu_sysfs.c for a system without libudev, display_gpu.c for one device): libdrm's facts of a
 * device, the checked reading of its sysfs attributes whoever hands them over, and the one
 * problem a list keeps for its warning.
 */
#ifndef GLMUX_SELECT_GPU_ENUM_H
#define GLMUX_SELECT_GPU_ENUM_H

#include <stdbool.h>
#include <stddef.h>

#include <xf86drm.h>

#include "select/select.h"

/* Fills what libdrm knows of a device (bus, address, ids, nodes, Mesa's tag) into g; false for
 * a device without nodes or whose tag cannot be built. */
bool glmux_gpu_from_drm(const drmDevice *d, struct glmux_gpu *g);

/* Records the first odd value seen in list->problem, for the one warning the selector prints. */
void glmux_gpu_note_problem(struct glmux_gpu_list *list, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* One sysfs attribute of a device (name relative to its directory), NULL when absent; buf is
 * room the function may use for the value. */
typedef const char *(*glmux_gpu_attr_fn)(void *ctx, const char *name, char *buf, size_t size);

/*
 * Reads the attributes the selector uses through attr (NULL: none): boot_vga, boot_display,
 * class and mem_info_vram_total when pci (the device is the GPU's PCI function), and
 * power/runtime_status. Odd values are ignored, the first one noted.
 */
void glmux_gpu_read_attrs(struct glmux_gpu *g, struct glmux_gpu_list *list,
                          glmux_gpu_attr_fn attr, void *ctx, bool pci);

/*
 * The enumeration lock: libudev and libdrm are asked by one thread at a time (libudev keeps
 * process-wide state that two threads must not initialise at once). Held across nothing but
 * them. glmux_select_fork (select.h) takes it before fork().
 */
void glmux_gpu_enum_lock(void);
void glmux_gpu_enum_unlock(void);

/* Without libudev: the driver and the attributes of glmux_gpu_read_attrs, from sysfs
 * (/sys/class/drm/<node>/device and the PCI function above it). gpu_sysfs.c. */
void glmux_gpu_from_sysfs(struct glmux_gpu *g, struct glmux_gpu_list *list);

#endif /* GLMUX_SELECT_GPU_ENUM_H */
