/* SPDX-License-Identifier: MIT */
/*
 * glmux: the built-in kernel-driver → vendor table, for the vendors of today that ship only
 * libglvnd's EGL JSON and so declare no driver list. It holds every kernel driver Mesa drives:
 * the drivers of the PCI vendors of Mesa's loader driver map (Intel, AMD, NVIDIA's nouveau,
 * virtio-gpu, VMware), the render drivers of its Gallium pipe loader (Qualcomm, Broadcom,
 * Arm, Apple, Vivante, Tegra, Imagination) and the display-only drivers it serves through
 * kmsro. Names are DRM driver names; udev reports the platform driver's name, which for some is
 * the DRM name plus "-drm" (vc4-drm), matched by glmux_driver_matches. GLMUX_DRIVER_VENDORS
 * ("drv=vendor,...", ignored in secure-execution processes) adds or replaces entries; the
 * entries it skips are named once per process, when it is first read. A manifest that declares
 * "drivers" is never overridden by this table (see select.h, glmux_select_candidate_serves).
 */
#define _GNU_SOURCE
#include "select.h"

#include <stdio.h>
#include <string.h>

#include "util/env.h"
#include "util/log.h"

static const struct {
    const char *driver;
    const char *vendor;
} builtin[] = {
    /* PCI: Mesa's loader driver map (i915/crocus/iris, r300/r600/radeonsi, nouveau,
     * virtio_gpu, vmwgfx) by the kernel drivers that bind those devices. */
    { "i915", "mesa" },        { "xe", "mesa" },          { "amdgpu", "mesa" },
    { "radeon", "mesa" },      { "nouveau", "mesa" },     { "virtio_gpu", "mesa" },
    { "virtio-gpu", "mesa" },  { "vmwgfx", "mesa" },
    /* Platform and host1x render drivers of Mesa's Gallium pipe loader. */
    { "msm", "mesa" },         { "msm_dpu", "mesa" },     { "msm_mdp", "mesa" },
    { "kgsl", "mesa" },        { "v3d", "mesa" },         { "vc4", "mesa" },
    { "panfrost", "mesa" },    { "panthor", "mesa" },     { "lima", "mesa" },
    { "etnaviv", "mesa" },     { "asahi", "mesa" },       { "tegra", "mesa" },
    { "powervr", "mesa" },
    /* Display-only drivers Mesa serves with kmsro (rendering on the SoC's GPU). */
    { "armada-drm", "mesa" },  { "exynos", "mesa" },      { "gm12u320", "mesa" },
    { "gud", "mesa" },         { "hdlcd", "mesa" },       { "hx8357d", "mesa" },
    { "ili9163", "mesa" },     { "ili9225", "mesa" },     { "ili9341", "mesa" },
    { "ili9486", "mesa" },     { "imx-dcss", "mesa" },    { "imx-drm", "mesa" },
    { "imx-lcdif", "mesa" },   { "ingenic-drm", "mesa" }, { "kirin", "mesa" },
    { "komeda", "mesa" },      { "mali-dp", "mesa" },     { "mcde", "mesa" },
    { "mediatek", "mesa" },    { "meson", "mesa" },       { "mi0283qt", "mesa" },
    { "mxsfb-drm", "mesa" },   { "mxsfb", "mesa" },       { "panel-mipi-dbi", "mesa" },
    { "pl111", "mesa" },       { "rcar-du", "mesa" },     { "repaper", "mesa" },
    { "rockchip", "mesa" },    { "rzg2l-du", "mesa" },    { "ssd130x", "mesa" },
    { "st7586", "mesa" },      { "st7735r", "mesa" },     { "sti", "mesa" },
    { "stm", "mesa" },         { "sun4i-drm", "mesa" },   { "udl", "mesa" },
    { "vkms", "mesa" },        { "zynqmp-dpsub", "mesa" },
    /* NVIDIA's own driver. */
    { "nvidia", "nvidia" },    { "nvidia-drm", "nvidia" },
};

static bool is_nvidia(const char *driver)
{
    return strcmp(driver, "nvidia") == 0 || strcmp(driver, "nvidia-drm") == 0;
}

/* The length of driver without a trailing "-drm" / "_drm" (vc4-drm → vc4); its length if none. */
static size_t base_len(const char *driver)
{
    size_t n = strlen(driver);

    if (n > 4 && (strcmp(driver + n - 4, "-drm") == 0 || strcmp(driver + n - 4, "_drm") == 0))
        return n - 4;
    return n;
}

bool glmux_driver_matches(const char *listed, const char *driver)
{
    size_t n = base_len(driver);

    if (strcmp(listed, driver) == 0 || (is_nvidia(listed) && is_nvidia(driver)))
        return true;
    return n != strlen(driver) && strlen(listed) == n && strncmp(listed, driver, n) == 0;
}

/* Whether the len bytes at name (an entry of GLMUX_DRIVER_VENDORS) name driver. */
static bool entry_matches(const char *name, size_t len, const char *driver)
{
    char buf[64];

    if (len == 0 || len >= sizeof(buf))
        return false;
    memcpy(buf, name, len);
    buf[len] = '\0';
    return glmux_driver_matches(buf, driver);
}

/*
 * What is wrong with the len bytes at entry, an entry of GLMUX_DRIVER_VENDORS (glmux_driver_
 * default_vendor skips it), or NULL when nothing is.
 */
static const char *entry_problem(const char *entry, size_t len)
{
    const char *eq = memchr(entry, '=', len);

    if (eq == NULL)
        return "no '='";
    if (eq == entry)
        return "no driver name before '='";
    if ((size_t)(eq - entry) >= 64)
        return "a driver name longer than 63 bytes";
    if (len - (size_t)(eq - entry) - 1 >= GLMUX_DRIVER_VENDOR_MAX)
        return "a vendor name longer than 64 bytes";
    return NULL;
}

/*
 * The entries of GLMUX_DRIVER_VENDORS that are skipped, said once per process (util/log.h,
 * glmux_log_claim) the first time the variable is read: up to four of them, each cut to 40
 * bytes, and how many more.
 */
static void check_spec(const char *spec)
{
    char list[512];
    size_t used = 0;
    int bad = 0;

    list[0] = '\0';
    for (const char *p = spec; *p != '\0';) {
        size_t len = strcspn(p, ", ");
        const char *why = len > 0 ? entry_problem(p, len) : NULL;

        if (why != NULL && bad++ < 4 && used < sizeof(list)) {
            int n = snprintf(list + used, sizeof(list) - used, "%s\"%.*s%s\" (%s)",
                             used ? ", " : "", (int)(len > 40 ? 40 : len), p,
                             len > 40 ? "..." : "", why);
            used += n > 0 ? (size_t)n : 0;
        }
        p += len;
        while (*p == ',' || *p == ' ')
            p++;
    }
    if (bad == 0 || !glmux_log_claim("GLMUX_DRIVER_VENDORS"))
        return;
    if (bad > 4)
        snprintf(list + (used < sizeof(list) ? used : sizeof(list) - 1),
                 sizeof(list) - (used < sizeof(list) ? used : sizeof(list) - 1),
                 " and %d more", bad - 4);
    glmux_log(GLMUX_LOG_WARN | GLMUX_LOG_SELECT, "GLMUX_DRIVER_VENDORS=\"%s\": %d entr%s "
              "ignored: %s; the form is driver=vendor[,driver=vendor...] (driver= drops a "
              "built-in entry), vendor names of at most 64 bytes", GLMUX_LOG_CUT(spec), bad,
              bad == 1 ? "y" : "ies", list);
}

const char *glmux_driver_default_vendor(const char *driver, char found[GLMUX_DRIVER_VENDOR_MAX])
{
    static bool checked;
    const char *spec = glmux_env_get("GLMUX_DRIVER_VENDORS");
    size_t dlen = strlen(driver);

    if (spec != NULL && !__atomic_exchange_n(&checked, true, __ATOMIC_RELAXED))
        check_spec(spec);
    enum { KEEP, SET, REMOVED } state = KEEP;

    if (dlen == 0)
        return NULL;
    /* The override: the last entry for a driver wins; "drv=" removes the built-in entry. */
    for (const char *p = spec; p != NULL && *p != '\0';) {
        size_t len = strcspn(p, ", ");
        const char *eq = memchr(p, '=', len);
        if (eq != NULL && entry_matches(p, (size_t)(eq - p), driver)) {
            size_t vlen = len - (size_t)(eq - p) - 1;
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
        if (glmux_driver_matches(builtin[i].driver, driver))
            return builtin[i].vendor;
    return NULL;
}
