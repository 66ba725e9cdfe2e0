/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: GPU enumeration and the PRIME policy over fake sysfs trees built by the test
 * (the GLMUX_SYSFS_ROOT-style root of struct glmux_select_config), with the environment given
 * through the selector's getenv hook. Proves: PCI-order sorting whatever the creation order, the
 * default-GPU rules, every request form, the EGL order, GLX and vendor-environment decisions,
 * laziness (no sysfs access for one vendor and no variable), and that no device node is ever
 * opened (open/fopen/opendir are interposed and every path is recorded).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

#include "glmux_test.h"
#include "select/select.h"
#include "tree.h"

/* ---- interposed file access: every path opened by the selector is recorded ---------------- */

static int opened_dev, opened_sysfs;

static void note(const char *path)
{
    if (path == NULL)
        return;
    if (strstr(path, "/dev/") != NULL || strncmp(path, "/dev", 4) == 0)
        opened_dev++;
    if (strstr(path, "/sys/") != NULL)
        opened_sysfs++;
}

FILE *fopen(const char *path, const char *mode)
{
    FILE *(*real)(const char *, const char *) = dlsym(RTLD_NEXT, "fopen");
    note(path);
    return real(path, mode);
}

DIR *opendir(const char *path)
{
    DIR *(*real)(const char *) = dlsym(RTLD_NEXT, "opendir");
    note(path);
    return real(path);
}

int open(const char *path, int flags, ...)
{
    int (*real)(const char *, int, ...) = dlsym(RTLD_NEXT, "open");
    va_list ap;
    int mode;

    va_start(ap, flags);
    mode = va_arg(ap, int);
    va_end(ap);
    note(path);
    return real(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    int (*real)(int, const char *, int, ...) = dlsym(RTLD_NEXT, "openat");
    va_list ap;
    int mode;

    va_start(ap, flags);
    mode = va_arg(ap, int);
    va_end(ap);
    note(path);
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

static const struct tree_gpu intel = { "0000:00:02.0", "0x8086\n", "0x9a49\n", "0x030000\n",
                                       "i915", 1, -1, "renderD128", "active\n", NULL };
static const struct tree_gpu nvidia = { "0000:01:00.0", "0x10de\n", "0x25a2\n", "0x030200\n",
                                        "nvidia", -1, -1, "renderD129", "suspended\n", NULL };
static const struct tree_gpu nvidia2 = { "0000:02:00.0", "0x10de\n", "0x2684\n", "0x030000\n",
                                         "nvidia", 0, -1, "renderD130", "active\n", NULL };
static const struct tree_gpu usb = { "0000:00:14.0", "0x8086\n", "0xa36d\n", "0x0c0330\n",
                                     "xhci_hcd", -1, -1, NULL, NULL, NULL };

static struct glmux_select *new_sel(const char *root, const char *display_tag)
{
    struct glmux_select_config cfg = { fake_getenv, root, display_tag, NULL, true };
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

static void test_hybrid(void)
{
    char root[256];
    struct glmux_select *sel;
    const struct glmux_gpu_list *l;
    struct glmux_select_env env[GLMUX_SELECT_ENV_MAX + 2];
    size_t order[2];

    snprintf(root, sizeof(root), "%s", tree_new("select-hybrid"));
    tree_add_gpu(root, &nvidia);   /* created first: the list must still be in PCI order */
    tree_add_gpu(root, &usb);
    tree_add_gpu(root, &intel);

    /* One vendor, no variable: nothing is enumerated, sysfs is not even looked at. */
    set_vars(NULL, NULL, NULL, NULL);
    opened_sysfs = 0;
    sel = new_sel(root, NULL);
    CHECK(glmux_select_egl_vendor_order(sel, nv_mesa, 1, order) == 1 && order[0] == 0);
    CHECK(!glmux_select_enumerated(sel) && opened_sysfs == 0);
    CHECK(glmux_select_vendor_env(sel, &nv_mesa[0], env) == 0);
    glmux_select_free(sel);

    /* Two vendors: the default GPU's vendor first, although nvidia sorts first by name. */
    sel = new_sel(root, NULL);
    expect_order(sel, "mesa", "nvidia");
    CHECK(glmux_select_enumerated(sel) && opened_sysfs > 0);
    l = glmux_select_gpus(sel);
    CHECK(l->count == 2 && !l->sysfs_missing);
    CHECK(strcmp(l->gpus[0].pci, "0000:00:02.0") == 0 && strcmp(l->gpus[1].pci, "0000:01:00.0") == 0);
    CHECK(strcmp(l->gpus[0].tag, "pci-0000_00_02_0") == 0);
    CHECK(l->gpus[0].vendor_id == 0x8086 && l->gpus[0].device_id == 0x9a49);
    CHECK(l->gpus[0].class_code == 0x030000 && strcmp(l->gpus[0].driver, "i915") == 0);
    CHECK(l->gpus[0].kind == GLMUX_GPU_INTEGRATED && l->gpus[1].kind == GLMUX_GPU_DISCRETE);
    CHECK(l->default_index == 0 && l->gpus[0].is_default && l->gpus[0].boot_vga);
    CHECK(strcmp(l->default_rule, "boot_vga") == 0);
    CHECK(strcmp(l->gpus[1].power, "suspended") == 0);
    CHECK(strcmp(l->gpus[1].render_node, "renderD129") == 0);
    CHECK(glmux_select_glx_vendor_for_screen(sel, 0, NULL) == NULL);
    CHECK(glmux_select_vendor_env(sel, &nv_mesa[1], env) == 0);
    CHECK(glmux_select_reason_count(sel) > 0);
    glmux_select_free(sel);

    /* DRI_PRIME=1 moves EGL and GLX to NVIDIA, with what offload needs. */
    set_vars("DRI_PRIME", "1", NULL, NULL);
    sel = new_sel(root, NULL);
    expect_order(sel, "nvidia", "mesa");
    CHECK(strcmp(glmux_select_glx_vendor_for_screen(sel, 0, NULL), "nvidia") == 0);
    CHECK(glmux_select_vendor_env(sel, &nv_mesa[0], env) == 1);
    CHECK(strcmp(env[0].name, "__NV_PRIME_RENDER_OFFLOAD") == 0 && strcmp(env[0].value, "1") == 0);
    CHECK(glmux_select_vendor_env(sel, &nv_mesa[1], env) == 0);
    CHECK(glmux_select_launch_env(sel, glmux_select_chosen_gpu(sel), env) == 4);
    CHECK(strcmp(env[0].name, "GLMUX_GPU") == 0 && strcmp(env[0].value, "pci-0000_01_00_0") == 0);
    CHECK(strcmp(env[2].name, "__GLX_VENDOR_LIBRARY_NAME") == 0);
    glmux_select_free(sel);

    /* '!' keeps only the chosen GPU's vendors. */
    set_vars("DRI_PRIME", "pci-0000_01_00_0!", NULL, NULL);
    sel = new_sel(root, NULL);
    expect_order(sel, "nvidia", NULL);
    glmux_select_free(sel);

    /* GLMUX_GPU wins over DRI_PRIME; libglvnd's variables win over both. */
    set_vars("GLMUX_GPU", "integrated", "DRI_PRIME", "1");
    sel = new_sel(root, NULL);
    CHECK(strcmp(glmux_select_request(sel)->variable, "GLMUX_GPU") == 0);
    expect_order(sel, "mesa", "nvidia");
    glmux_select_free(sel);
    /* ...and Mesa, which reads DRI_PRIME itself, is kept on the chosen (default) GPU. */
    set_vars("GLMUX_GPU", "default", "DRI_PRIME", "1");
    sel = new_sel(root, NULL);
    expect_order(sel, "mesa", "nvidia");
    CHECK(glmux_select_vendor_env(sel, &nv_mesa[1], env) == 1);
    CHECK(strcmp(env[0].name, "DRI_PRIME") == 0 && strcmp(env[0].value, "pci-0000_00_02_0") == 0);
    CHECK(glmux_select_vendor_env(sel, &nv_mesa[0], env) == 0);
    glmux_select_free(sel);
    set_vars("DRI_PRIME", "1", "__EGL_VENDOR_LIBRARY_FILENAMES", "/x/50_mesa.json");
    sel = new_sel(root, NULL);
    expect_order(sel, "nvidia", "mesa"); /* as given */
    glmux_select_free(sel);
    set_vars("DRI_PRIME", "1", "__GLX_VENDOR_LIBRARY_NAME", "mesa");
    sel = new_sel(root, NULL);
    CHECK(strcmp(glmux_select_glx_vendor_for_screen(sel, 0, NULL), "mesa") == 0);
    glmux_select_free(sel);
    set_vars("DRI_PRIME", "1", "__GLX_FORCE_VENDOR_LIBRARY_1", "indirect");
    sel = new_sel(root, NULL);
    CHECK(strcmp(glmux_select_glx_vendor_for_screen(sel, 1, NULL), "indirect") == 0);
    CHECK(strcmp(glmux_select_glx_vendor_for_screen(sel, 0, NULL), "nvidia") == 0);
    glmux_select_free(sel);

    /* The display server's GPU, when the caller knows it, is the default. */
    set_vars(NULL, NULL, NULL, NULL);
    sel = new_sel(root, "pci-0000_01_00_0");
    expect_order(sel, "nvidia", "mesa");
    CHECK(strcmp(glmux_select_gpus(sel)->default_rule, "the display server's GPU") == 0);
    glmux_select_free(sel);

    /* The built-in table can be overridden: here nvidia's GPU is declared Mesa's (nouveau-like). */
    {
        static const struct glmux_select_candidate plain[2] = { { "nvidia", NULL, 0 },
                                                                { "mesa", NULL, 0 } };
        setenv("GLMUX_DRIVER_VENDORS", "nvidia=mesa", 1);
        set_vars("DRI_PRIME", "1", NULL, NULL);
        sel = new_sel(root, NULL);
        CHECK(glmux_select_egl_vendor_order(sel, plain, 2, order) == 2);
        CHECK(strcmp(plain[order[0]].name, "mesa") == 0);
        glmux_select_free(sel);
        setenv("GLMUX_DRIVER_VENDORS", "i915=", 1);
        CHECK(glmux_driver_default_vendor("i915") == NULL);
        CHECK(strcmp(glmux_driver_default_vendor("amdgpu"), "mesa") == 0);
        unsetenv("GLMUX_DRIVER_VENDORS");
        CHECK(strcmp(glmux_driver_default_vendor("i915"), "mesa") == 0);
    }

    /* Two NVIDIA GPUs: the provider variable picks one, and the vendor is told which. */
    tree_add_gpu(root, &nvidia2);
    set_vars("__NV_PRIME_RENDER_OFFLOAD", "1", "__NV_PRIME_RENDER_OFFLOAD_PROVIDER", "NVIDIA-G1");
    sel = new_sel(root, NULL);
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:02:00.0") == 0);
    CHECK(glmux_select_vendor_env(sel, &nv_mesa[0], env) == 2);
    CHECK(strcmp(env[1].name, "__NV_PRIME_RENDER_OFFLOAD_PROVIDER") == 0);
    CHECK(strcmp(env[1].value, "NVIDIA-G1") == 0);
    glmux_select_free(sel);
    set_vars("DRI_PRIME", "2", NULL, NULL);
    sel = new_sel(root, NULL);
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:02:00.0") == 0);
    CHECK(!glmux_select_request_unmet(sel));
    glmux_select_free(sel);

    tree_remove(root);
}

static void test_default_rules(void)
{
    char root[256];
    struct glmux_gpu_list l;
    struct tree_gpu virt = { "0000:00:01.0", "0x1af4\n", "0x1050\n", "0x030000\n", "virtio-pci",
                             -1, -1, NULL, NULL, NULL };
    struct tree_gpu amd = { "0000:03:00.0", "0x1002\n", "0x73ef\n", "0x038000\n", "amdgpu", -1,
                            -1, "renderD129", NULL, "8589934592\n" };
    struct tree_gpu apu = { "0000:c4:00.0", "0x1002\n", "0x150e\n", "0x038000\n", "amdgpu", -1,
                            1, "renderD128", NULL, "536870912\n" };

    /* No boot flag anywhere: the first non-virtual GPU, not the virtual one before it. */
    snprintf(root, sizeof(root), "%s", tree_new("select-rules"));
    tree_add_gpu(root, &virt);
    tree_add_gpu(root, &amd);
    CHECK(glmux_gpu_list_enumerate(&l, root, NULL));
    CHECK(l.count == 2 && l.gpus[0].kind == GLMUX_GPU_VIRTUAL);
    CHECK(l.default_index == 1 && strcmp(l.default_rule, "the first non-virtual GPU in PCI order") == 0);
    CHECK(l.gpus[1].kind == GLMUX_GPU_DISCRETE);
    glmux_gpu_list_clear(&l);
    /* boot_display beats the order; the APU has less VRAM: integrated. */
    tree_add_gpu(root, &apu);
    CHECK(glmux_gpu_list_enumerate(&l, root, NULL));
    CHECK(l.count == 3 && l.default_index == 2 && strcmp(l.default_rule, "boot_display") == 0);
    CHECK(l.gpus[2].kind == GLMUX_GPU_INTEGRATED && l.gpus[1].kind == GLMUX_GPU_DISCRETE);
    glmux_gpu_list_clear(&l);
    tree_remove(root);

    /* Only virtual GPUs: the first one. */
    snprintf(root, sizeof(root), "%s", tree_new("select-virt"));
    tree_add_gpu(root, &virt);
    CHECK(glmux_gpu_list_enumerate(&l, root, NULL));
    CHECK(l.default_index == 0 && strcmp(l.default_rule, "the first GPU in PCI order") == 0);
    glmux_gpu_list_clear(&l);
    tree_remove(root);

    /* A platform (SoC) GPU found through /sys/class/drm. */
    snprintf(root, sizeof(root), "%s", tree_new("select-soc"));
    tree_dir(root, "sys/devices/platform/fd00000.gpu/drm/renderD128");
    tree_link(root, "sys/devices/platform/fd00000.gpu/subsystem", "../../../bus/platform");
    tree_link(root, "sys/devices/platform/fd00000.gpu/driver",
              "../../../bus/platform/drivers/panfrost");
    tree_link(root, "sys/devices/platform/fd00000.gpu/drm/renderD128/device", "../../../fd00000.gpu");
    tree_link(root, "sys/class/drm/renderD128", "../../devices/platform/fd00000.gpu/drm/renderD128");
    CHECK(glmux_gpu_list_enumerate(&l, root, NULL));
    /* udev's ID_PATH_TAG and Mesa's DRI_PRIME tag: '.' becomes '_'. */
    CHECK(l.count == 1 && strcmp(l.gpus[0].tag, "platform-fd00000_gpu") == 0);
    CHECK(strcmp(l.gpus[0].driver, "panfrost") == 0 && l.gpus[0].kind == GLMUX_GPU_INTEGRATED);
    CHECK(l.default_index == 0);
    glmux_gpu_list_clear(&l);
    tree_remove(root);
}

/*
 * "Discrete" is not "non-default": on a laptop whose firmware made the NVIDIA GPU the boot
 * display (MUX switch in dGPU mode), DRI_PRIME=1 means the other GPU, the integrated one, while
 * GLMUX_GPU=discrete means the NVIDIA GPU, which is the default and needs no offload.
 */
static void test_discrete_default(void)
{
    static const struct tree_gpu igpu = { "0000:00:02.0", "0x8086\n", "0x9a49\n", "0x030000\n",
                                          "i915", 0, -1, "renderD128", "active\n", NULL };
    static const struct tree_gpu dgpu = { "0000:01:00.0", "0x10de\n", "0x25a2\n", "0x030000\n",
                                          "nvidia", 1, -1, "renderD129", "active\n", NULL };
    struct glmux_select_env env[GLMUX_SELECT_ENV_MAX];
    struct glmux_select *sel;
    char root[256];

    snprintf(root, sizeof(root), "%s", tree_new("select-mux"));
    tree_add_gpu(root, &igpu);
    tree_add_gpu(root, &dgpu);

    set_vars(NULL, NULL, NULL, NULL);
    sel = new_sel(root, NULL);
    expect_order(sel, "nvidia", "mesa");
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:01:00.0") == 0);
    glmux_select_free(sel);

    set_vars("DRI_PRIME", "1", NULL, NULL);
    sel = new_sel(root, NULL);
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:00:02.0") == 0);
    expect_order(sel, "mesa", "nvidia");
    CHECK(strcmp(glmux_select_glx_vendor_for_screen(sel, 0, NULL), "mesa") == 0);
    CHECK(glmux_select_vendor_env(sel, &nv_mesa[1], env) == 1);
    CHECK(strcmp(env[0].name, "DRI_PRIME") == 0 && strcmp(env[0].value, "pci-0000_00_02_0") == 0);
    glmux_select_free(sel);

    set_vars("GLMUX_GPU", "discrete", NULL, NULL);
    sel = new_sel(root, NULL);
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:01:00.0") == 0);
    CHECK(!glmux_select_request_unmet(sel));
    expect_order(sel, "nvidia", "mesa");
    CHECK(glmux_select_glx_vendor_for_screen(sel, 0, NULL) == NULL);  /* the server's: NVIDIA */
    CHECK(glmux_select_vendor_env(sel, &nv_mesa[0], env) == 0);        /* no offload needed */
    glmux_select_free(sel);

    set_vars("GLMUX_GPU", "integrated", NULL, NULL);
    sel = new_sel(root, NULL);
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:00:02.0") == 0);
    expect_order(sel, "mesa", "nvidia");
    glmux_select_free(sel);
    tree_remove(root);
}

static void test_missing_sysfs(void)
{
    struct glmux_select *sel;
    size_t order[2];

    set_vars("DRI_PRIME", "1", NULL, NULL);
    sel = new_sel("/nonexistent-glmux-root", NULL);
    CHECK(glmux_select_gpus(sel)->sysfs_missing);
    CHECK(glmux_select_chosen_gpu(sel) == NULL && glmux_select_request_unmet(sel));
    CHECK(glmux_select_egl_vendor_order(sel, nv_mesa, 2, order) == 2 && order[0] == 0);
    CHECK(glmux_select_glx_vendor_for_screen(sel, 0, NULL) == NULL);
    glmux_select_free(sel);

    /* Malformed values: the default, no crash. */
    set_vars("GLMUX_GPU", "fastest", NULL, NULL);
    sel = new_sel("/nonexistent-glmux-root", NULL);
    CHECK(glmux_select_request(sel)->kind == GLMUX_REQUEST_DEFAULT);
    glmux_select_free(sel);
    set_vars("__NV_PRIME_RENDER_OFFLOAD", "1", "__NV_PRIME_RENDER_OFFLOAD_PROVIDER", "bogus");
    sel = new_sel("/nonexistent-glmux-root", NULL);
    CHECK(glmux_select_request(sel)->kind == GLMUX_REQUEST_NVIDIA);
    CHECK(glmux_select_request(sel)->index == 0);
    glmux_select_free(sel);
}

int main(void)
{
    test_hybrid();
    test_default_rules();
    test_discrete_default();
    test_missing_sysfs();
    CHECK_MSG(opened_dev == 0, "a device node was opened %d time(s)", opened_dev);
    return 0;
}
