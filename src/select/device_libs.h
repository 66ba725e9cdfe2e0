/* SPDX-License-Identifier: MIT */
/*
 * glmux: libdrm and libudev, loaded with dlopen the first time GPUs are enumerated, never linked.
 * A process that needs no GPU choice (one installed vendor, no selection variable) therefore
 * maps neither library; docs/performance.md has the measurement behind that decision. The
 * libraries stay loaded for the life of the process (they keep no callbacks into glmux). Only
 * the functions glmux calls are looked up; a missing library or function means "no GPU can be
 * enumerated", reported once by the caller.
 */
#ifndef GLMUX_SELECT_DEVICE_LIBS_H
#define GLMUX_SELECT_DEVICE_LIBS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <libudev.h>
#include <xf86drm.h>

struct glmux_device_libs {
    /* libdrm.so.2 */
    int (*drmGetDevices2)(uint32_t flags, drmDevicePtr devices[], int max);
    void (*drmFreeDevices)(drmDevicePtr devices[], int count);
    int (*drmGetDevice2)(int fd, uint32_t flags, drmDevicePtr *device);
    int (*drmGetDeviceFromDevId)(dev_t dev, uint32_t flags, drmDevicePtr *device);
    void (*drmFreeDevice)(drmDevicePtr *device);
    /* libudev.so.1 */
    struct udev *(*udev_new)(void);
    struct udev *(*udev_unref)(struct udev *udev);
    struct udev_device *(*udev_device_new_from_subsystem_sysname)(struct udev *udev,
                                                                   const char *subsystem,
                                                                   const char *sysname);
    struct udev_device *(*udev_device_unref)(struct udev_device *dev);
    struct udev_device *(*udev_device_get_parent)(struct udev_device *dev);
    const char *(*udev_device_get_subsystem)(struct udev_device *dev);
    const char *(*udev_device_get_sysname)(struct udev_device *dev);
    const char *(*udev_device_get_syspath)(struct udev_device *dev);
    const char *(*udev_device_get_driver)(struct udev_device *dev);
    const char *(*udev_device_get_property_value)(struct udev_device *dev, const char *key);
    const char *(*udev_device_get_sysattr_value)(struct udev_device *dev, const char *sysattr);
    /* udev monitor (glmux gpus --watch) */
    struct udev_monitor *(*udev_monitor_new_from_netlink)(struct udev *udev, const char *name);
    int (*udev_monitor_filter_add_match_subsystem_devtype)(struct udev_monitor *mon,
                                                           const char *subsystem,
                                                           const char *devtype);
    int (*udev_monitor_enable_receiving)(struct udev_monitor *mon);
    int (*udev_monitor_get_fd)(struct udev_monitor *mon);
    struct udev_device *(*udev_monitor_receive_device)(struct udev_monitor *mon);
    struct udev_monitor *(*udev_monitor_unref)(struct udev_monitor *mon);
    const char *(*udev_device_get_action)(struct udev_device *dev);
    bool have_drm, have_udev;
    char error[160];    /* why a library is missing, for the one warning */
};

/*
 * Loads both libraries once per process (thread-safe) and returns the table; have_drm and
 * have_udev say what is usable. Never NULL.
 */
const struct glmux_device_libs *glmux_device_libs_get(void);

#endif /* GLMUX_SELECT_DEVICE_LIBS_H */
