/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: GPU enumeration (the real libdrm and libudev, on umockdev test beds the test
 * builds; ctest runs it under umockdev-wrapper) and the PRIME policy, with the environment given
 * through the selector's getenv hook. Proves: PCI-order sorting whatever the creation order, the
 * default-GPU rules, Mesa's tags for PCI and platform devices (vc4-drm is Mesa's vc4), every
 * request form against Mesa's reading of DRI_PRIME, the precedence (a program's own request over
 * the session's GLMUX_GPU), the reference GPU (a display on the NVIDIA GPU turns DRI_PRIME=1
 * around), that a vendor is put first only where its own variable sends it, what glmux run
 * gives, the administrator's udev properties on either node, laziness (no sysfs access for one
 * vendor and no variable), when a display is asked, a display's device number found among the
 * enumerated GPUs without libdrm (libdrm only for others), and that no device node is ever opened
 * (open/fopen/openat are interposed and every path is recorded).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/sysmacros.h>

#include "glmux_test.h"
#include "select/select.h"
#include "select/device_libs.h"
#include "bed.h"

/* ---- interposed file access: every path opened by the selector is recorded ---------------- */

/* Exported (the test is linked with ENABLE_EXPORTS), so that libdrm and libudev, which the
 * selector loads with dlopen, call these too. */
#define INTERPOSE __attribute__((visibility("default")))

static int opened_dev, opened_sysfs;

/* node: an open of a file (a directory listing of /dev/dri is no device access). */
static void note(const char *path, bool node)
{
    if (path == NULL)
        return;
    if (node && strncmp(path, "/dev/dri/", 9) == 0)
        opened_dev++;
    if (strncmp(path, "/sys/", 5) == 0)
        opened_sysfs++;
}

INTERPOSE FILE *fopen(const char *path, const char *mode)
{
    FILE *(*real)(const char *, const char *) = dlsym(RTLD_NEXT, "fopen");
    note(path, true);
    return real(path, mode);
}

INTERPOSE DIR *opendir(const char *path)
{
    DIR *(*real)(const char *) = dlsym(RTLD_NEXT, "opendir");
    note(path, false);
    return real(path);
}

INTERPOSE int open(const char *path, int flags, ...)
{
    int (*real)(const char *, int, ...) = dlsym(RTLD_NEXT, "open");
    va_list ap;
    int mode;

    va_start(ap, flags);
    mode = va_arg(ap, int);
    va_end(ap);
    note(path, true);
    return real(path, flags, mode);
}

INTERPOSE int openat(int dirfd, const char *path, int flags, ...)
{
    int (*real)(int, const char *, int, ...) = dlsym(RTLD_NEXT, "openat");
    va_list ap;
    int mode;

    va_start(ap, flags);
    mode = va_arg(ap, int);
    va_end(ap);
    note(path, true);
    return real(dirfd, path, flags, mode);
}

/* The large-file names, which libdrm and libudev are built to call. */
INTERPOSE FILE *fopen64(const char *path, const char *mode)
{
    FILE *(*real)(const char *, const char *) = dlsym(RTLD_NEXT, "fopen64");
    note(path, true);
    return real(path, mode);
}

INTERPOSE int open64(const char *path, int flags, ...)
{
    int (*real)(const char *, int, ...) = dlsym(RTLD_NEXT, "open64");
    va_list ap;
    int mode;

    va_start(ap, flags);
    mode = va_arg(ap, int);
    va_end(ap);
    note(path, true);
    return real(path, flags, mode);
}

INTERPOSE int openat64(int dirfd, const char *path, int flags, ...)
{
    int (*real)(int, const char *, int, ...) = dlsym(RTLD_NEXT, "openat64");
    va_list ap;
    int mode;

    va_start(ap, flags);
    mode = va_arg(ap, int);
    va_end(ap);
    note(path, true);
    return real(dirfd, path, flags, mode);
}

/* ---- the environment the selector sees ------------------------------------------------------ */

static const char *vars[16][2];

static void set_vars(const char *a, const char *av, const char *b, const char *bv)
{
    memset(vars, 0, sizeof(vars));
    vars[0][0] = a;
    vars[0][1] = av;
    vars[1][0] = b;
    vars[1][1] = bv;
}

static const char *fake_getenv(const char *name)
{
    for (int i = 0; i < 16 && vars[i][0] != NULL; i++)
        if (strcmp(vars[i][0], name) == 0)
            return vars[i][1];
    return NULL;
}

static const struct bed_gpu intel = { "0000:00:02.0", "0x8086\n", "0x9a49\n", "0x030000\n",
                                       "i915", 1, -1, "renderD128", "active\n", NULL };
static const struct bed_gpu nvidia = { "0000:01:00.0", "0x10de\n", "0x25a2\n", "0x030200\n",
                                        "nvidia", -1, -1, "renderD129", "suspended\n", NULL };
static const struct bed_gpu nvidia2 = { "0000:02:00.0", "0x10de\n", "0x2684\n", "0x030000\n",
                                         "nvidia", 0, -1, "renderD130", "active\n", NULL };
static const struct bed_gpu amd = { "0000:03:00.0", "0x1002\n", "0x73ef\n", "0x030000\n",
                                     "amdgpu", 0, -1, "renderD131", NULL, "8589934592\n" };
static const struct bed_gpu usb = { "0000:00:14.0", "0x8086\n", "0xa36d\n", "0x0c0330\n",
                                     "xhci_hcd", -1, -1, NULL, NULL, NULL };

static struct glmux_select *new_sel(void)
{
    struct glmux_select_config cfg = { fake_getenv, NULL, true, false };
    struct glmux_select *sel = glmux_select_new(&cfg);

    CHECK(sel != NULL);
    return sel;
}

static const char *const mesa_drivers[] = { "i915", "amdgpu", "nouveau" };
static const struct glmux_select_candidate nv_mesa[2] = {
    { "nvidia", NULL, 0 },              /* a plain libglvnd JSON: the built-in table applies */
    { "mesa", mesa_drivers, 3 },        /* a glmux manifest with a driver list */
};

static void expect_order(struct glmux_select *sel, const char *first, const char *second)
{
    size_t order[2];
    size_t n = glmux_select_egl_vendor_order(sel, nv_mesa, 2, order);

    CHECK_MSG(n == (second ? 2u : 1u), "%zu vendors", n);
    CHECK_MSG(strcmp(nv_mesa[order[0]].name, first) == 0, "first %s, expected %s",
              nv_mesa[order[0]].name, first);
    if (second != NULL)
        CHECK(strcmp(nv_mesa[order[1]].name, second) == 0);
}

/* Whether one of the recorded reasons contains text. */
static bool said(const struct glmux_select *sel, const char *text)
{
    for (size_t i = 0; i < glmux_select_reason_count(sel); i++)
        if (strstr(glmux_select_reason(sel, i), text) != NULL)
            return true;
    return false;
}

static const char *glx_vendor(struct glmux_select *sel, int screen)
{
    return bed_glx_vendor(sel, NULL, screen, NULL);
}

static const struct glmux_gpu *gpu_at(struct glmux_select *sel, const char *pci)
{
    const struct glmux_gpu_list *l = glmux_select_gpus(sel);

    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->gpus[i].pci, pci) == 0)
            return &l->gpus[i];
    CHECK_MSG(false, "no GPU %s", pci);
    return NULL;
}

static void test_hybrid(void)
{
    struct glmux_select *sel;
    const struct glmux_gpu_list *l;
    struct glmux_select_env env[GLMUX_SELECT_ENV_MAX];
    struct glmux_select_choice c;
    size_t order[2], n;

    bed_new();
    bed_add_gpu(&nvidia);   /* created first: the list must still be in PCI order */
    bed_add_gpu(&usb);
    bed_add_gpu(&intel);

    /* One vendor, no variable: nothing is enumerated, sysfs is not even looked at. */
    set_vars(NULL, NULL, NULL, NULL);
    opened_sysfs = 0;
    sel = new_sel();
    CHECK(glmux_select_egl_vendor_order(sel, nv_mesa, 1, order) == 1 && order[0] == 0);
    CHECK(glx_vendor(sel, 0) == NULL);
    CHECK(!glmux_select_enumerated(sel) && opened_sysfs == 0);
    glmux_select_free(sel);

    /* Two vendors: the default GPU's vendor first, although nvidia sorts first by name. */
    sel = new_sel();
    expect_order(sel, "mesa", "nvidia");
    CHECK(glmux_select_enumerated(sel) && opened_sysfs > 0);
    l = glmux_select_gpus(sel);
    CHECK(l->count == 2 && !l->sysfs_missing && l->drm_count == 2);
    CHECK(strcmp(l->gpus[0].pci, "0000:00:02.0") == 0 && strcmp(l->gpus[1].pci, "0000:01:00.0") == 0);
    CHECK(strcmp(l->gpus[0].tag, "pci-0000_00_02_0") == 0);
    CHECK(l->gpus[0].vendor_id == 0x8086 && l->gpus[0].device_id == 0x9a49);
    CHECK(l->gpus[0].class_code == 0x030000 && strcmp(l->gpus[0].driver, "i915") == 0);
    CHECK(l->gpus[0].kind == GLMUX_GPU_INTEGRATED && l->gpus[1].kind == GLMUX_GPU_DISCRETE);
    CHECK(strcmp(l->gpus[0].served_by, "mesa") == 0 && strcmp(l->gpus[1].served_by, "nvidia") == 0);
    CHECK(l->default_index == 0 && l->gpus[0].is_default && l->gpus[0].boot_vga);
    CHECK(strcmp(l->default_rule, "boot_vga") == 0);
    CHECK(strcmp(l->gpus[1].power, "suspended") == 0);
    CHECK(strcmp(l->gpus[1].render_node, "renderD129") == 0);
    CHECK(glx_vendor(sel, 0) == NULL);
    CHECK(glmux_select_reason_count(sel) > 0);
    /* A display on the NVIDIA GPU (reverse PRIME): its vendor first for that display. */
    glmux_select_choose(sel, &l->gpus[1], nv_mesa, 2, &c);
    CHECK(c.gpu == &l->gpus[1] && c.reference == &l->gpus[1] && !c.unmet);
    CHECK(strcmp(c.vendor, "nvidia") == 0);
    glmux_select_free(sel);

    /* DRI_PRIME=1 names the NVIDIA GPU, but NVIDIA's driver reads only its own variables and a
     * library sets none: one warning pointing at `glmux run`, and the Intel GPU's vendor stays
     * first (Mesa then reads DRI_PRIME itself, as it would with libglvnd). */
    set_vars("DRI_PRIME", "1", NULL, NULL);
    sel = new_sel();
    expect_order(sel, "mesa", "nvidia");
    glmux_select_choose(sel, NULL, nv_mesa, 2, &c);
    CHECK(c.unmet && c.asked != NULL && strcmp(c.asked->pci, "0000:01:00.0") == 0);
    CHECK(c.gpu == gpu_at(sel, "0000:00:02.0"));
    CHECK(said(sel, "glmux run --gpu pci-0000_01_00_0"));
    /* GLX: Mesa, whichever GPU the screen is on (on the Intel one, its own; on the NVIDIA one,
     * DRI_PRIME=1 takes Mesa to the Intel GPU), so the X server need not be asked. */
    CHECK(strcmp(glx_vendor(sel, 0), "mesa") == 0);
    /* glmux run gives the new process what NVIDIA reads, and removes DRI_PRIME. */
    n = glmux_select_launch_env(sel, c.asked, env);
    CHECK(n == 5);
    CHECK(strcmp(env[0].name, "GLMUX_GPU") == 0 && strcmp(env[0].value, "pci-0000_01_00_0") == 0);
    CHECK(strcmp(env[1].name, "DRI_PRIME") == 0 && env[1].unset);
    CHECK(strcmp(env[2].name, "__NV_PRIME_RENDER_OFFLOAD") == 0 && strcmp(env[2].value, "1") == 0);
    CHECK(strcmp(env[3].name, "__GLX_VENDOR_LIBRARY_NAME") == 0 && !env[3].unset);
    /* With a display on the NVIDIA GPU, DRI_PRIME=1 is the Intel GPU, as in Mesa. */
    glmux_select_choose(sel, gpu_at(sel, "0000:01:00.0"), nv_mesa, 2, &c);
    CHECK(!c.unmet && c.gpu == gpu_at(sel, "0000:00:02.0") && strcmp(c.vendor, "mesa") == 0);
    glmux_select_free(sel);

    /* prime-run / switcheroo-control's NVIDIA entry: NVIDIA's own variable, which it reads. */
    set_vars("__NV_PRIME_RENDER_OFFLOAD", "1", NULL, NULL);
    sel = new_sel();
    expect_order(sel, "nvidia", "mesa");
    CHECK(strcmp(glx_vendor(sel, 0), "nvidia") == 0);
    CHECK(!bed_request_unmet(sel));
    CHECK(glmux_select_vendor_env(sel, "nvidia", glmux_select_chosen_gpu(sel),
                                  gpu_at(sel, "0000:00:02.0"), env) == 1);
    CHECK(strcmp(env[0].name, "__NV_PRIME_RENDER_OFFLOAD") == 0);
    glmux_select_free(sel);

    /* A launcher's request wins over the session's GLMUX_GPU, and explain says so. */
    set_vars("GLMUX_GPU", "integrated", "__NV_PRIME_RENDER_OFFLOAD", "1");
    sel = new_sel();
    CHECK(strcmp(glmux_select_request(sel)->variable, "__NV_PRIME_RENDER_OFFLOAD") == 0);
    CHECK(said(sel, "GLMUX_GPU=integrated ignored: __NV_PRIME_RENDER_OFFLOAD=1 takes precedence"));
    expect_order(sel, "nvidia", "mesa");
    CHECK(strcmp(glx_vendor(sel, 0), "nvidia") == 0);
    glmux_select_free(sel);
    set_vars("GLMUX_GPU", "discrete", "DRI_PRIME", "pci-0000_00_02_0");
    sel = new_sel();
    CHECK(strcmp(glmux_select_request(sel)->variable, "DRI_PRIME") == 0);
    CHECK(said(sel, "GLMUX_GPU=discrete ignored: DRI_PRIME=pci-0000_00_02_0 takes precedence"));
    expect_order(sel, "mesa", "nvidia");
    CHECK(!bed_request_unmet(sel));
    glmux_select_free(sel);

    /* GLMUX_GPU alone: the GPU it names is the default one (met), or one its vendor cannot be
     * told about here (unmet, the default GPU's vendors, a warning naming glmux run). */
    set_vars("GLMUX_GPU", "integrated", NULL, NULL);
    sel = new_sel();
    expect_order(sel, "mesa", "nvidia");
    CHECK(!bed_request_unmet(sel));
    glmux_select_free(sel);
    set_vars("GLMUX_GPU", "discrete", NULL, NULL);
    sel = new_sel();
    expect_order(sel, "mesa", "nvidia");
    CHECK(bed_request_unmet(sel) && said(sel, "glmux run --gpu"));
    CHECK(glx_vendor(sel, 0) == NULL);
    glmux_select_free(sel);

    /* libglvnd's variables win over all of it. */
    set_vars("__NV_PRIME_RENDER_OFFLOAD", "1", "__EGL_VENDOR_LIBRARY_FILENAMES", "/x/50_mesa.json");
    sel = new_sel();
    expect_order(sel, "nvidia", "mesa"); /* as given */
    glmux_select_free(sel);
    set_vars("__NV_PRIME_RENDER_OFFLOAD", "1", "__GLX_VENDOR_LIBRARY_NAME", "mesa");
    sel = new_sel();
    CHECK(strcmp(glx_vendor(sel, 0), "mesa") == 0);
    glmux_select_free(sel);
    set_vars("__NV_PRIME_RENDER_OFFLOAD", "1", "__GLX_FORCE_VENDOR_LIBRARY_1", "indirect");
    sel = new_sel();
    CHECK(strcmp(glx_vendor(sel, 1), "indirect") == 0);
    CHECK(strcmp(glx_vendor(sel, 0), "nvidia") == 0);
    glmux_select_free(sel);

    /* Vendor variables follow the vendor, not the driver: with the NVIDIA GPU handed to Mesa
     * (nouveau-like, here through GLMUX_DRIVER_VENDORS), DRI_PRIME reaches it and glmux run
     * gives DRI_PRIME, not NVIDIA's variables. */
    {
        char buf[GLMUX_DRIVER_VENDOR_MAX];
        static const struct glmux_select_candidate plain[2] = { { "nvidia", NULL, 0 },
                                                                { "mesa", NULL, 0 } };
        setenv("GLMUX_DRIVER_VENDORS", "nvidia=mesa", 1);
        set_vars("DRI_PRIME", "1", NULL, NULL);
        sel = new_sel();
        CHECK(glmux_select_egl_vendor_order(sel, plain, 2, order) == 2);
        CHECK(strcmp(plain[order[0]].name, "mesa") == 0);
        CHECK(!bed_request_unmet(sel));
        CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:01:00.0") == 0);
        n = glmux_select_launch_env(sel, glmux_select_chosen_gpu(sel), env);
        CHECK(strcmp(env[1].name, "DRI_PRIME") == 0);
        CHECK(strcmp(env[1].value, "pci-0000_01_00_0") == 0);
        for (size_t i = 0; i < n; i++)
            CHECK(strcmp(env[i].name, "__NV_PRIME_RENDER_OFFLOAD") != 0 || env[i].unset);
        glmux_select_free(sel);
        setenv("GLMUX_DRIVER_VENDORS", "i915=", 1);
        CHECK(glmux_driver_default_vendor("i915", buf) == NULL);
        CHECK(strcmp(glmux_driver_default_vendor("amdgpu", buf), "mesa") == 0);
        unsetenv("GLMUX_DRIVER_VENDORS");
        CHECK(strcmp(glmux_driver_default_vendor("i915", buf), "mesa") == 0);
    }

    /* Two NVIDIA GPUs: the provider variable picks one, and glmux run names the provider. */
    bed_add_gpu(&nvidia2);
    set_vars("__NV_PRIME_RENDER_OFFLOAD", "1", "__NV_PRIME_RENDER_OFFLOAD_PROVIDER", "NVIDIA-G1");
    sel = new_sel();
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:02:00.0") == 0);
    CHECK(glmux_select_vendor_env(sel, "nvidia", glmux_select_chosen_gpu(sel),
                                  gpu_at(sel, "0000:00:02.0"), env) == 2);
    CHECK(strcmp(env[1].name, "__NV_PRIME_RENDER_OFFLOAD_PROVIDER") == 0);
    CHECK(strcmp(env[1].value, "NVIDIA-G1") == 0);
    glmux_select_free(sel);
    /* DRI_PRIME=N counts in libdrm's order, skipping the default GPU, as Mesa's loader does. */
    set_vars("DRI_PRIME", "2", NULL, NULL);
    sel = new_sel();
    {
        const struct glmux_gpu_list *gl = glmux_select_gpus(sel);
        const struct glmux_gpu *second = NULL;
        int seen = 0;

        for (int idx = 0; idx < (int)gl->drm_count && second == NULL; idx++)
            for (size_t i = 0; i < gl->count; i++)
                if (gl->gpus[i].drm_index == idx && !gl->gpus[i].is_default && ++seen == 2)
                    second = &gl->gpus[i];
        glmux_select_choose(sel, NULL, NULL, 0, &c);
        CHECK(second != NULL && c.asked == second);
    }
    glmux_select_free(sel);

    bed_free();
}

/* '!' (exclusive) and a Mesa-served discrete GPU that DRI_PRIME reaches by itself. */
static void test_intel_amd(void)
{
    struct glmux_select *sel;

    bed_new();
    bed_add_gpu(&intel);
    bed_add_gpu(&amd);
    set_vars("DRI_PRIME", "1!", NULL, NULL);
    sel = new_sel();
    expect_order(sel, "mesa", NULL);
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:03:00.0") == 0);
    CHECK(strcmp(glx_vendor(sel, 0), "mesa") == 0);
    glmux_select_free(sel);
    /* Spellings Mesa reads as naming no GPU: glmux agrees, with the reason. */
    static const char *const nothing[] = { "pci-0000_03_00_0!", "PCI-0000_03_00_0",
                                           "0000:03:00.0", "pci-0000_09_00_0", "0" };
    for (size_t i = 0; i < sizeof(nothing) / sizeof(nothing[0]); i++) {
        set_vars("DRI_PRIME", nothing[i], NULL, NULL);
        sel = new_sel();
        CHECK_MSG(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:00:02.0") == 0, "%s",
                  nothing[i]);
        CHECK(said(sel, "DRI_PRIME="));
        glmux_select_free(sel);
    }
    /* And the ones it reads as the first other GPU or that GPU's ids. */
    static const char *const amd_forms[] = { "1", "1abc", " 1", "pci-0000_03_00_0", "1002:73ef",
                                             "1002:73EF", "0x1002:0x73ef" };
    for (size_t i = 0; i < sizeof(amd_forms) / sizeof(amd_forms[0]); i++) {
        set_vars("DRI_PRIME", amd_forms[i], NULL, NULL);
        sel = new_sel();
        CHECK_MSG(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:03:00.0") == 0, "%s",
                  amd_forms[i]);
        glmux_select_free(sel);
    }
    bed_free();
}

static void test_default_rules(void)
{
    struct glmux_gpu_list l;
    struct bed_gpu virt = { "0000:00:01.0", "0x1af4\n", "0x1050\n", "0x030000\n", "virtio-pci",
                             -1, -1, "renderD131", NULL, NULL };
    struct bed_gpu dgpu = { "0000:03:00.0", "0x1002\n", "0x73ef\n", "0x038000\n", "amdgpu", -1,
                            -1, "renderD129", NULL, "8589934592\n" };
    struct bed_gpu apu = { "0000:c4:00.0", "0x1002\n", "0x150e\n", "0x038000\n", "amdgpu", -1,
                            1, "renderD128", NULL, "536870912\n" };

    /* No boot flag anywhere: the first non-virtual GPU, not the virtual one before it. */
    bed_new();
    bed_add_gpu(&virt);
    bed_add_gpu(&dgpu);
    CHECK(glmux_gpu_list_enumerate(&l));
    CHECK(l.count == 2 && l.gpus[0].kind == GLMUX_GPU_VIRTUAL);
    CHECK(l.default_index == 1 && strcmp(l.default_rule, "the first non-virtual GPU in PCI order") == 0);
    CHECK(l.gpus[1].kind == GLMUX_GPU_DISCRETE);
    glmux_gpu_list_clear(&l);
    /* boot_display beats the order; the APU has less VRAM: integrated. */
    bed_add_gpu(&apu);
    CHECK(glmux_gpu_list_enumerate(&l));
    CHECK(l.count == 3 && l.default_index == 2 && strcmp(l.default_rule, "boot_display") == 0);
    CHECK(l.gpus[2].kind == GLMUX_GPU_INTEGRATED && l.gpus[1].kind == GLMUX_GPU_DISCRETE);
    glmux_gpu_list_clear(&l);
    bed_free();

    /* Only virtual GPUs: the first one. */
    bed_new();
    bed_add_gpu(&virt);
    CHECK(glmux_gpu_list_enumerate(&l));
    CHECK(l.default_index == 0 && strcmp(l.default_rule, "the first GPU in PCI order") == 0);
    glmux_gpu_list_clear(&l);
    bed_free();

    /* A platform (SoC) GPU: Mesa's tag comes from the OF name, udev's from the sysfs name. */
    bed_new();
    bed_add("P: /devices/platform/soc/fec00000.v3d\nE: SUBSYSTEM=platform\nE: DRIVER=v3d\n"
            "E: OF_NAME=v3d\nE: OF_FULLNAME=/v3dbus/v3d@7ec04000\n"
            "E: OF_COMPATIBLE_0=brcm,2711-v3d\nE: OF_COMPATIBLE_N=1\n"
            "L: driver=../../../../bus/platform/drivers/v3d\n\n"
            "P: /devices/platform/soc/fec00000.v3d/drm/renderD128\nN: dri/renderD128\n"
            "E: SUBSYSTEM=drm\nE: DEVNAME=/dev/dri/renderD128\nE: DEVTYPE=drm_minor\n"
            "E: ID_PATH_TAG=platform-fec00000_v3d\nA: dev=226:128\n"
            "L: device=../../../fec00000.v3d\n");
    CHECK(glmux_gpu_list_enumerate(&l));
    CHECK_MSG(l.count == 1 && strcmp(l.gpus[0].tag, "platform-7ec04000_v3d") == 0, "%zu %s",
              l.count, l.count ? l.gpus[0].tag : "");
    CHECK(strcmp(l.gpus[0].udev_tag, "platform-fec00000_v3d") == 0);
    CHECK(glmux_gpu_has_tag(&l.gpus[0], "platform-fec00000_v3d"));
    CHECK(l.gpus[0].bus == GLMUX_BUS_PLATFORM && l.gpus[0].pci[0] == '\0');
    CHECK(strcmp(l.gpus[0].driver, "v3d") == 0 && l.gpus[0].kind == GLMUX_GPU_INTEGRATED);
    CHECK(l.default_index == 0);
    glmux_gpu_list_clear(&l);
    bed_free();

    /* A Raspberry Pi 3: vc4 renders and displays; udev names its platform driver "vc4-drm",
     * which is Mesa's vc4. */
    bed_new();
    bed_add("P: /devices/platform/soc/3f400000.hvs\nE: SUBSYSTEM=platform\nE: DRIVER=vc4-drm\n"
            "E: OF_NAME=gpu\nE: OF_FULLNAME=/soc/gpu\nE: OF_COMPATIBLE_0=brcm,bcm2835-vc4\n"
            "E: OF_COMPATIBLE_N=1\nL: driver=../../../../bus/platform/drivers/vc4-drm\n\n"
            "P: /devices/platform/soc/3f400000.hvs/drm/card0\nN: dri/card0\nE: SUBSYSTEM=drm\n"
            "E: DEVNAME=/dev/dri/card0\nE: DEVTYPE=drm_minor\nE: ID_PATH_TAG=platform-soc_gpu\n"
            "A: dev=226:0\nL: device=../../../3f400000.hvs\n\n"
            "P: /devices/platform/soc/3f400000.hvs/drm/renderD128\nN: dri/renderD128\n"
            "E: SUBSYSTEM=drm\nE: DEVNAME=/dev/dri/renderD128\nE: DEVTYPE=drm_minor\n"
            "E: ID_PATH_TAG=platform-soc_gpu\nA: dev=226:128\nL: device=../../../3f400000.hvs\n");
    {
        struct glmux_select *sel;
        static const struct glmux_select_candidate pi[2] = { { "nvidia", NULL, 0 },
                                                             { "mesa", NULL, 0 } };
        size_t order[2];

        set_vars(NULL, NULL, NULL, NULL);
        sel = new_sel();
        CHECK(glmux_select_egl_vendor_order(sel, pi, 2, order) == 2);
        CHECK_MSG(strcmp(pi[order[0]].name, "mesa") == 0, "%s first", pi[order[0]].name);
        CHECK(strcmp(glmux_select_gpus(sel)->gpus[0].served_by, "mesa") == 0);
        glmux_select_free(sel);
    }
    CHECK(glmux_driver_matches("vc4", "vc4-drm"));
    CHECK(glmux_driver_matches("rockchip", "rockchip-drm"));
    CHECK(!glmux_driver_matches("vc4-drm", "vc4") && !glmux_driver_matches("v3d", "vc4-drm"));
    bed_free();
}

/*
 * "Discrete" is not "non-default": on a laptop whose firmware made the NVIDIA GPU the boot
 * display (MUX switch in dGPU mode), DRI_PRIME=1 means the other GPU, the integrated one, while
 * GLMUX_GPU=discrete means the NVIDIA GPU, which is the default and needs no offload.
 */
static void test_discrete_default(void)
{
    static const struct bed_gpu igpu = { "0000:00:02.0", "0x8086\n", "0x9a49\n", "0x030000\n",
                                          "i915", 0, -1, "renderD128", "active\n", NULL };
    static const struct bed_gpu dgpu = { "0000:01:00.0", "0x10de\n", "0x25a2\n", "0x030000\n",
                                          "nvidia", 1, -1, "renderD129", "active\n", NULL };
    struct glmux_select_env env[GLMUX_SELECT_ENV_MAX];
    struct glmux_select *sel;

    bed_new();
    bed_add_gpu(&igpu);
    bed_add_gpu(&dgpu);

    set_vars(NULL, NULL, NULL, NULL);
    sel = new_sel();
    expect_order(sel, "nvidia", "mesa");
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:01:00.0") == 0);
    glmux_select_free(sel);

    /* Mesa reads DRI_PRIME=1 itself: the Intel GPU, Mesa's vendor for EGL and GLX. */
    set_vars("DRI_PRIME", "1", NULL, NULL);
    sel = new_sel();
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:00:02.0") == 0);
    expect_order(sel, "mesa", "nvidia");
    CHECK(strcmp(glx_vendor(sel, 0), "mesa") == 0);
    CHECK(glmux_select_vendor_env(sel, "mesa", glmux_select_chosen_gpu(sel),
                                  gpu_at(sel, "0000:01:00.0"), env) == 1);
    CHECK(strcmp(env[0].name, "DRI_PRIME") == 0 && strcmp(env[0].value, "pci-0000_00_02_0") == 0);
    glmux_select_free(sel);

    set_vars("GLMUX_GPU", "discrete", NULL, NULL);
    sel = new_sel();
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:01:00.0") == 0);
    CHECK(!bed_request_unmet(sel));
    expect_order(sel, "nvidia", "mesa");
    CHECK(glx_vendor(sel, 0) == NULL);  /* the server's: NVIDIA */
    CHECK(glmux_select_vendor_env(sel, "nvidia", glmux_select_chosen_gpu(sel),
                                  glmux_select_chosen_gpu(sel), env) == 0);
    glmux_select_free(sel);

    /* GLMUX_GPU=integrated: Mesa would need DRI_PRIME to leave the NVIDIA GPU. */
    set_vars("GLMUX_GPU", "integrated", NULL, NULL);
    sel = new_sel();
    CHECK(bed_request_unmet(sel));
    expect_order(sel, "nvidia", "mesa");
    CHECK(said(sel, "DRI_PRIME=pci-0000_00_02_0"));
    glmux_select_free(sel);
    bed_free();
}

static void test_missing_sysfs(void)
{
    struct glmux_select *sel;
    size_t order[2];

    bed_new();   /* an empty testbed has no /sys/devices */
    set_vars("DRI_PRIME", "1", NULL, NULL);
    sel = new_sel();
    CHECK(glmux_select_gpus(sel)->sysfs_missing);
    CHECK(glmux_select_chosen_gpu(sel) == NULL && bed_request_unmet(sel));
    CHECK(glmux_select_egl_vendor_order(sel, nv_mesa, 2, order) == 2 && order[0] == 0);
    CHECK(glx_vendor(sel, 0) == NULL);
    glmux_select_free(sel);

    /* Malformed values: the default, no crash. */
    set_vars("GLMUX_GPU", "fastest", NULL, NULL);
    sel = new_sel();
    CHECK(glmux_select_request(sel)->kind == GLMUX_REQUEST_DEFAULT);
    glmux_select_free(sel);
    set_vars("__NV_PRIME_RENDER_OFFLOAD", "1", "__NV_PRIME_RENDER_OFFLOAD_PROVIDER", "bogus");
    sel = new_sel();
    CHECK(glmux_select_request(sel)->kind == GLMUX_REQUEST_NVIDIA);
    CHECK(glmux_select_request(sel)->index == 0);
    glmux_select_free(sel);
    /* __NV_PRIME_RENDER_OFFLOAD=0 asks for nothing, as NVIDIA's driver reads it. */
    set_vars("__NV_PRIME_RENDER_OFFLOAD", "0", NULL, NULL);
    sel = new_sel();
    CHECK(glmux_select_request(sel)->kind == GLMUX_REQUEST_NONE);
    glmux_select_free(sel);
    bed_free();
}

/* The administrator's udev properties: reclassify, name the vendor, hide; odd values warn. */
static void test_udev_overrides(void)
{
    struct glmux_select *sel;
    const struct glmux_gpu_list *l;
    size_t order[2];

    bed_new();
    bed_add_gpu_with(&intel, "E: GLMUX_GPU_CLASS=discrete\n");
    bed_add_gpu_with(&nvidia, "E: GLMUX_VENDOR=mesa\n");
    set_vars("GLMUX_GPU", "discrete", NULL, NULL);
    sel = new_sel();
    l = glmux_select_gpus(sel);
    CHECK(l->count == 2 && l->gpus[0].kind == GLMUX_GPU_DISCRETE && l->gpus[0].kind_from_udev);
    CHECK(!l->gpus[1].kind_from_udev && strcmp(l->gpus[1].vendor, "mesa") == 0);
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:00:02.0") == 0);
    glmux_select_free(sel);
    /* GLMUX_VENDOR=mesa: Mesa, not NVIDIA, serves the NVIDIA GPU (as with nouveau), and Mesa
     * reads DRI_PRIME. */
    set_vars("DRI_PRIME", "1", NULL, NULL);
    sel = new_sel();
    expect_order(sel, "mesa", "nvidia");
    CHECK(!bed_request_unmet(sel));
    CHECK(strcmp(glx_vendor(sel, 0), "mesa") == 0);
    CHECK(said(sel, "udev property GLMUX_VENDOR"));
    glmux_select_free(sel);

    /* GLMUX_IGNORE=1 hides the GPU; an odd GLMUX_GPU_CLASS is reported and ignored. */
    bed_new();
    bed_add_gpu_with(&intel, "E: GLMUX_GPU_CLASS=fastest\n");
    bed_add_gpu_with(&nvidia, "E: GLMUX_IGNORE=1\n");
    sel = new_sel();
    l = glmux_select_gpus(sel);
    CHECK(l->count == 1 && strcmp(l->ignored, "pci-0000_01_00_0") == 0);
    CHECK(strstr(l->problem, "GLMUX_GPU_CLASS=\"fastest\"") != NULL);
    CHECK(l->gpus[0].kind == GLMUX_GPU_INTEGRATED && !l->gpus[0].kind_from_udev);
    CHECK(bed_request_unmet(sel));
    CHECK(glmux_select_egl_vendor_order(sel, nv_mesa, 2, order) == 2);
    CHECK(strcmp(nv_mesa[order[0]].name, "mesa") == 0);
    glmux_select_free(sel);

    /* A property on the card node counts as much as one on the render node (item 5). */
    bed_new();
    bed_add_gpu(&intel);
    bed_add_gpu(&nvidia);
    bed_add("P: /devices/pci0000:00/0000:01:00.0/drm/card1\nN: dri/card1\nE: SUBSYSTEM=drm\n"
            "E: DEVNAME=/dev/dri/card1\nE: DEVTYPE=drm_minor\nE: ID_PATH_TAG=pci-0000_01_00_0\n"
            "E: GLMUX_VENDOR=mesa\nE: GLMUX_GPU_CLASS=integrated\nA: dev=226:1\n"
            "L: device=../../../0000:01:00.0\n");
    set_vars(NULL, NULL, NULL, NULL);
    sel = new_sel();
    l = glmux_select_gpus(sel);
    CHECK(l->count == 2 && strcmp(l->gpus[1].card_node, "card1") == 0);
    CHECK(strcmp(l->gpus[1].vendor, "mesa") == 0 && l->gpus[1].kind_from_udev);
    CHECK(l->gpus[1].kind == GLMUX_GPU_INTEGRATED);
    glmux_select_free(sel);
    bed_free();
}

/*
 * The EGL display order: the display is asked only when its answer can change the order or
 * whether the request is met, with or without a GPU variable, never for GBM, device or
 * surfaceless displays. (The answers of real displays are tested with a display server: egl_wayland,
 * and sel-tests' fake X server.)
 */
static void test_display_order(void)
{
    static const struct glmux_select_candidate load_order[2] = {
        { "mesa", mesa_drivers, 3 }, { "nvidia", NULL, 0 } };
    struct glmux_select_display info;
    struct glmux_select *sel;
    size_t order[2];
    char tag[80];

    bed_new();
    bed_add_gpu(&intel);
    bed_add_gpu(&nvidia);
    CHECK(glmux_gpu_tag_of_devid(makedev(226, 129), tag, sizeof(tag)));
    CHECK_MSG(strcmp(tag, "pci-0000_01_00_0") == 0, "%s", tag);
    CHECK(glmux_gpu_tag_of_devid(makedev(226, 128), tag, sizeof(tag)));
    CHECK(strcmp(tag, "pci-0000_00_02_0") == 0);
    CHECK(!glmux_gpu_tag_of_devid(makedev(226, 200), tag, sizeof(tag)));

    set_vars(NULL, NULL, NULL, NULL);
    sel = new_sel();
    /* Before the process order enumerated GPUs: never asked. */
    CHECK(!glmux_select_egl_display_order(sel, GLMUX_EGL_NONE, NULL, load_order, 2, order, &info));
    CHECK(!info.asked && order[0] == 0);
    expect_order(sel, "mesa", "nvidia");
    /* GBM, device and surfaceless displays are not asked. */
    CHECK(!glmux_select_egl_display_order(sel, GLMUX_EGL_PLATFORM_GBM, (void *)1, load_order, 2,
                                          order, &info));
    CHECK(!info.asked && strstr(info.why, "not asked") != NULL);
    CHECK(!glmux_select_egl_display_order(sel, GLMUX_EGL_PLATFORM_DEVICE, (void *)1, load_order,
                                          2, order, &info));
    CHECK(!info.asked);
    CHECK(!glmux_select_egl_display_order(sel, GLMUX_EGL_PLATFORM_SURFACELESS, NULL, load_order,
                                          2, order, &info));
    CHECK(!info.asked);
    glmux_select_free(sel);

    /* A variable asks for a GPU that its vendor reaches from either GPU: the display's answer
     * changes nothing, and the default display is not asked. */
    set_vars("__NV_PRIME_RENDER_OFFLOAD", "1", NULL, NULL);
    sel = new_sel();
    expect_order(sel, "nvidia", "mesa");
    CHECK(!glmux_select_egl_display_order(sel, GLMUX_EGL_PLATFORM_X11, NULL, load_order, 2,
                                          order, &info));
    CHECK(!info.asked && strstr(info.why, "the vendor order is the same") != NULL);
    glmux_select_free(sel);

    /* GLMUX_GPU=discrete is met only where the display is on the NVIDIA GPU (NVIDIA's vendor is
     * not told otherwise): the default display is asked for its GPU, a variable set or not
     * (the test has no X server with DRI3: the default GPU stays the reference). */
    set_vars("GLMUX_GPU", "discrete", NULL, NULL);
    sel = new_sel();
    expect_order(sel, "mesa", "nvidia");
    CHECK(!glmux_select_egl_display_order(sel, GLMUX_EGL_PLATFORM_X11, NULL, load_order, 2,
                                          order, &info));
    CHECK_MSG(info.asked && order[0] == 0, "%s", info.why);
    glmux_select_free(sel);

    /* Two GPUs served by the same vendors: the display's answer cannot matter. */
    bed_new();
    bed_add_gpu(&intel);
    bed_add_gpu(&amd);
    set_vars(NULL, NULL, NULL, NULL);
    sel = new_sel();
    expect_order(sel, "mesa", "nvidia");
    CHECK(!glmux_select_egl_display_order(sel, GLMUX_EGL_PLATFORM_X11, NULL, load_order, 2,
                                          order, &info));
    CHECK(!info.asked && strstr(info.why, "the vendor order is the same") != NULL);
    glmux_select_free(sel);
    bed_free();
}

/* drmGetDeviceFromDevId, counted: the device_libs table is the selector's only way to libdrm. */
static int devid_calls;
static int (*real_from_devid)(dev_t dev, uint32_t flags, drmDevicePtr *device);

static int counting_from_devid(dev_t dev, uint32_t flags, drmDevicePtr *device)
{
    devid_calls++;
    return real_from_devid(dev, flags, device);
}

/*
 * A display's device number that is an enumerated GPU's node gives that GPU's tag without
 * libdrm's drmGetDeviceFromDevId, and the same tag libdrm gives; a number no enumerated GPU has,
 * or no list at all, still goes to libdrm, with its answer.
 */
static void test_known_devid(void)
{
    const dev_t nodes[2] = { makedev(226, 128), makedev(226, 129) };
    struct glmux_device_libs *libs;
    const struct glmux_gpu_list *l;
    struct glmux_select *sel;
    char tag[80], drm_tag[80];

    bed_new();
    bed_add_gpu(&intel);
    bed_add_gpu(&nvidia);
    set_vars(NULL, NULL, NULL, NULL);
    sel = new_sel();
    l = glmux_select_gpus(sel);
    CHECK(l->count == 2);
    /* The table is the selector's own static object; the test swaps one slot and restores it. */
    libs = (struct glmux_device_libs *)glmux_device_libs_get();
    CHECK(libs->have_drm);
    real_from_devid = libs->drmGetDeviceFromDevId;
    libs->drmGetDeviceFromDevId = counting_from_devid;
    for (size_t i = 0; i < 2; i++) {
        devid_calls = 0;
        CHECK(glmux_gpu_known_tag_of_devid(l, nodes[i], tag, sizeof(tag)));
        CHECK_MSG(devid_calls == 0, "%d libdrm call(s) for an enumerated node", devid_calls);
        CHECK(glmux_gpu_tag_of_devid(nodes[i], drm_tag, sizeof(drm_tag)));
        CHECK(devid_calls == 1);
        CHECK_MSG(strcmp(tag, drm_tag) == 0, "%s, libdrm: %s", tag, drm_tag);
        CHECK(strcmp(tag, i == 0 ? "pci-0000_00_02_0" : "pci-0000_01_00_0") == 0);
    }
    /* A tag that does not fit: false, as libdrm's path answers. */
    CHECK(!glmux_gpu_known_tag_of_devid(l, nodes[0], tag, 4));
    /* A number no enumerated GPU has: libdrm is asked (and knows none). */
    devid_calls = 0;
    CHECK(!glmux_gpu_known_tag_of_devid(l, makedev(226, 200), tag, sizeof(tag)));
    CHECK(devid_calls == 1);
    /* No list: libdrm, with its answer. */
    devid_calls = 0;
    CHECK(glmux_gpu_known_tag_of_devid(NULL, nodes[1], tag, sizeof(tag)));
    CHECK(devid_calls == 1 && strcmp(tag, "pci-0000_01_00_0") == 0);
    libs->drmGetDeviceFromDevId = real_from_devid;
    glmux_select_free(sel);
    bed_free();
}

int main(void)
{
    bed_require();
    test_hybrid();
    test_intel_amd();
    test_default_rules();
    test_discrete_default();
    test_missing_sysfs();
    test_udev_overrides();
    test_display_order();
    test_known_devid();
    CHECK_MSG(opened_dev == 0, "a device node was opened %d time(s)", opened_dev);
    return 0;
}
