/* SPDX-License-Identifier: MIT */
/*
 * glmux: the built-in kernel-driver → vendor table, for the vendors of today that ship only
 * libglvnd's EGL JSON and so declare no driver list. GLMUX_DRIVER_VENDORS ("drv=vendor,...",
 * ignored in secure-execution processes) adds or replaces entries; a manifest that declares
 * "drivers" is never overridden by this table (see select.h, glmux_select_candidate_serves).
 */
#define _GNU_SOURCE
#include "select.h"

#include <stdio.h>
#include <string.h>

#include "util/env.h"

static const struct {
    const char *driver;
    const char *vendor;
} builtin[] = {
    { "i915", "mesa" },      { "xe", "mesa" },         { "amdgpu", "mesa" },
    { "radeon", "mesa" },    { "nouveau", "mesa" },    { "virtio_gpu", "mesa" },
    { "vmwgfx", "mesa" },    { "msm", "mesa" },        { "panfrost", "mesa" },
    { "panthor", "mesa" },   { "lima", "mesa" },       { "etnaviv", "mesa" },
    { "v3d", "mesa" },       { "vc4", "mesa" },        { "asahi", "mesa" },
    { "tegra", "mesa" },     { "powervr", "mesa" },    { "nvidia", "nvidia" },
    { "nvidia-drm", "nvidia" },
};

const char *glmux_driver_default_vendor(const char *driver, char found[GLMUX_DRIVER_VENDOR_MAX])
{
    const char *spec = glmux_env_get("GLMUX_DRIVER_VENDORS");
    size_t dlen = strlen(driver);
    enum { KEEP, SET, REMOVED } state = KEEP;

    if (dlen == 0)
        return NULL;
    /* The override: the last entry for a driver wins; "drv=" removes the built-in entry. */
    for (const char *p = spec; p != NULL && *p != '\0';) {
        size_t len = strcspn(p, ", ");
        const char *eq = memchr(p, '=', len);
        if (eq != NULL && (size_t)(eq - p) == dlen && strncmp(p, driver, dlen) == 0) {
            size_t vlen = len - dlen - 1;
            if (vlen == 0) {
                state = REMOVED;
            } else if (vlen < GLMUX_DRIVER_VENDOR_MAX) {
                memcpy(found, eq + 1, vlen);
                found[vlen] = '\0';
                state = SET;
            }
        }
        p += len;
        while (*p == ',' || *p == ' ')
            p++;
    }
    if (state == SET)
        return found;
    if (state == REMOVED)
        return NULL;
    for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
        if (strcmp(builtin[i].driver, driver) == 0)
            return builtin[i].vendor;
    return NULL;
}
