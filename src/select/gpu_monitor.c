/* SPDX-License-Identifier: MIT */
/*
 * glmux: udev's events on the "drm" subsystem (a GPU's nodes added or removed when a device is
 * plugged in or out or its driver bound or unbound, "change" when its properties change), for
 * `glmux gpus --watch`. libudev's monitor, loaded on demand like the rest of the enumeration
 * (device_libs.c). Built as glmux_select_monitor, which only the tool links: libEGL and libGLX
 * never listen (test abi_tool_only_code). Where udevd does not run (a container or chroot with
 * no /run/udev/control), libudev's monitor opens and never delivers an event (libudev turns it
 * off so that a container does not see the host's events): that is said, not waited on.
 * umockdev's test beds (UMOCKDEV_DIR set) deliver their events without udevd.
 */
#define _GNU_SOURCE
#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select/device_libs.h"
#include "util/env.h"

struct glmux_gpu_monitor {
    const struct glmux_device_libs *L;
    struct udev *udev;
    struct udev_monitor *mon;
};

void glmux_gpu_monitor_close(struct glmux_gpu_monitor *m)
{
    if (m == NULL)
        return;
    if (m->mon != NULL)
        m->L->udev_monitor_unref(m->mon);
    if (m->udev != NULL)
        m->L->udev_unref(m->udev);
    free(m);
}

struct glmux_gpu_monitor *glmux_gpu_monitor_open(char *err, size_t err_size)
{
    struct glmux_gpu_monitor *m = calloc(1, sizeof(*m));
    const char *why = NULL;

    if (m == NULL) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    m->L = glmux_device_libs_get();
    if (access("/run/udev/control", F_OK) != 0 && glmux_env_get("UMOCKDEV_DIR") == NULL)
        why = "udev does not run here (no /run/udev/control: a container or chroot?), so no "
              "GPU hotplug event can be followed; run `glmux gpus --watch` on the host, or "
              "`glmux gpus` for the GPUs now";
    else if (!m->L->have_udev)
        why = m->L->error[0] ? m->L->error : "libudev.so.1 cannot be loaded";
    else if ((m->udev = m->L->udev_new()) == NULL)
        why = "udev_new failed (out of memory?)";
    else if ((m->mon = m->L->udev_monitor_new_from_netlink(m->udev, "udev")) == NULL)
        why = "cannot listen to udev's events (no netlink socket; in a container without "
              "udev? run it on the host)";
    else if (m->L->udev_monitor_filter_add_match_subsystem_devtype(m->mon, "drm", NULL) < 0 ||
             m->L->udev_monitor_enable_receiving(m->mon) < 0)
        why = "cannot listen to udev's events (udev_monitor_enable_receiving failed)";
    if (why != NULL) {
        snprintf(err, err_size, "%s", why);
        glmux_gpu_monitor_close(m);
        return NULL;
    }
    return m;
}

int glmux_gpu_monitor_fd(const struct glmux_gpu_monitor *m)
{
    return m->L->udev_monitor_get_fd(m->mon);
}

size_t glmux_gpu_monitor_drain(struct glmux_gpu_monitor *m, char *events, size_t size)
{
    struct udev_device *dev;
    size_t len = 0, n = 0;

    if (size > 0)
        events[0] = '\0';
    /* The monitor's socket does not block: NULL once nothing is waiting. */
    while ((dev = m->L->udev_monitor_receive_device(m->mon)) != NULL) {
        const char *action = m->L->udev_device_get_action(dev);
        const char *name = m->L->udev_device_get_sysname(dev);
        int k = len < size ? snprintf(events + len, size - len, "%s%s %s", len ? ", " : "",
                                      action ? action : "?", name ? name : "?")
                           : 0;
        if (k > 0)
            len = len + (size_t)k < size ? len + (size_t)k : size;
        m->L->udev_device_unref(dev);
        n++;
    }
    return n;
}
