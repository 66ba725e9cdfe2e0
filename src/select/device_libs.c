/* SPDX-License-Identifier: MIT */
/*
 * glmux: loading libdrm.so.2 and libudev.so.1 on first use (see device_libs.h for why they are
 * not linked). RTLD_LOCAL keeps their symbols out of the global scope, so a vendor that links
 * its own copy of libdrm sees no difference. The load runs once per process behind a once-gate
 * (util/once.h) and is resumable, one library a step: a fork() while another thread loads
 * them gives the child the libraries loaded so far, and its first call loads the rest (the one
 * whose dlopen was cut is opened again: the same handle, one reference more, no memory lost).
 */
#define _GNU_SOURCE
#include "select/device_libs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "util/lifecycle.h"
#include "util/once.h"

static struct glmux_device_libs libs;
static struct glmux_once libs_gate = GLMUX_ONCE_INIT;
/* The steps done, written under the gate's lock (a child's copy is whole). */
static bool drm_tried, udev_tried;

/* Looks up each name into the matching slot; false (with the name in libs.error) if one lacks. */
static bool resolve(void *handle, const char *const *names, void **slots[], size_t n,
                    const char *soname)
{
    for (size_t i = 0; i < n; i++) {
        *slots[i] = dlsym(handle, names[i]);
        if (*slots[i] == NULL) {
            snprintf(libs.error, sizeof(libs.error), "%s has no %s", soname, names[i]);
            return false;
        }
    }
    return true;
}

#define SLOT(field) (void **)&libs.field

static void device_libs_fork(enum glmux_fork_step step)
{
    glmux_once_fork(&libs_gate, step);
}

static void load_drm(void)
{
    static const char *const names[] = { "drmGetDevices2", "drmFreeDevices", "drmGetDevice2",
                                         "drmGetDeviceFromDevId", "drmFreeDevice" };
    void **slots[] = { SLOT(drmGetDevices2), SLOT(drmFreeDevices), SLOT(drmGetDevice2),
                       SLOT(drmGetDeviceFromDevId), SLOT(drmFreeDevice) };
    void *h = dlopen("libdrm.so.2", RTLD_LAZY | RTLD_LOCAL);

    if (h == NULL) {
        snprintf(libs.error, sizeof(libs.error), "libdrm.so.2 cannot be loaded (install "
                 "libdrm2)");
        return;
    }
    libs.have_drm = resolve(h, names, slots, sizeof(names) / sizeof(names[0]), "libdrm.so.2");
}

static void load_udev(void)
{
    static const char *const names[] = {
        "udev_new", "udev_unref", "udev_device_new_from_subsystem_sysname", "udev_device_unref",
        "udev_device_get_parent", "udev_device_get_subsystem", "udev_device_get_sysname",
        "udev_device_get_syspath", "udev_device_get_driver", "udev_device_get_property_value",
        "udev_device_get_sysattr_value", "udev_monitor_new_from_netlink",
        "udev_monitor_filter_add_match_subsystem_devtype", "udev_monitor_enable_receiving",
        "udev_monitor_get_fd", "udev_monitor_receive_device", "udev_monitor_unref",
        "udev_device_get_action",
    };
    void **slots[] = {
        SLOT(udev_new), SLOT(udev_unref), SLOT(udev_device_new_from_subsystem_sysname),
        SLOT(udev_device_unref), SLOT(udev_device_get_parent), SLOT(udev_device_get_subsystem),
        SLOT(udev_device_get_sysname), SLOT(udev_device_get_syspath),
        SLOT(udev_device_get_driver), SLOT(udev_device_get_property_value),
        SLOT(udev_device_get_sysattr_value), SLOT(udev_monitor_new_from_netlink),
        SLOT(udev_monitor_filter_add_match_subsystem_devtype),
        SLOT(udev_monitor_enable_receiving), SLOT(udev_monitor_get_fd),
        SLOT(udev_monitor_receive_device), SLOT(udev_monitor_unref),
        SLOT(udev_device_get_action),
    };
    void *h = dlopen("libudev.so.1", RTLD_LAZY | RTLD_LOCAL);

    if (h == NULL) {
        snprintf(libs.error, sizeof(libs.error), "libudev.so.1 cannot be loaded (install "
                 "libudev1)");
        return;
    }
    libs.have_udev = resolve(h, names, slots, sizeof(names) / sizeof(names[0]), "libudev.so.1");
}

static void load(void)
{
    if (!drm_tried) {
        load_drm();
        glmux_once_lock(&libs_gate);
        drm_tried = true;
        glmux_once_unlock(&libs_gate);
    }
    if (!udev_tried) {
        load_udev();
        glmux_once_lock(&libs_gate);
        udev_tried = true;
        glmux_once_unlock(&libs_gate);
    }
}

const struct glmux_device_libs *glmux_device_libs_get(void)
{
    glmux_once_run(&libs_gate, load);
    return &libs;
}

/* The gate's lock is held only for a store: its place in the library's lock order does not
 * matter; last. */
GLMUX_LIFECYCLE_STEP(select_device_libs, 95, .fork = device_libs_fork);
