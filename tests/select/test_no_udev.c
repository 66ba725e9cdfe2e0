/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: GPU selection without libudev (a minimal container or embedded system may lack
 * it). dlopen is interposed so that
 * libudev.so.1 cannot be loaded, as on a system without it; the beds are built with umockdev
 * (ctest runs the test under umockdev-wrapper). The GPUs still carry what libdrm and sysfs say
 * (driver, boot_vga, class, VRAM, power), the default GPU is found, DRI_PRIME and NVIDIA's
 * variable are honoured, the reason says that udev's rules do not apply, and no device node is
 * opened.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"
#include "select/select.h"
#include "bed.h"

static int refused;

/* The selector's dlopen (it is linked into this program): libudev is "not installed". */
__attribute__((visibility("default"))) void *dlopen(const char *file, int mode)
{
    void *(*real)(const char *, int) = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");

    if (file != NULL && strstr(file, "libudev") != NULL) {
        refused++;
        return NULL;
    }
    return real(file, mode);
}

static const char *var_name, *var_value;

static const char *fake_getenv(const char *name)
{
    return var_name != NULL && strcmp(name, var_name) == 0 ? var_value : NULL;
}

static struct glmux_select *new_sel(const char *name, const char *value)
{
    struct glmux_select_config cfg = { fake_getenv, NULL, true, true };
    struct glmux_select *sel;

    var_name = name;
    var_value = value;
    sel = glmux_select_new(&cfg);
    CHECK(sel != NULL);
    return sel;
}

static bool said(const struct glmux_select *sel, const char *text)
{
    for (size_t i = 0; i < glmux_select_reason_count(sel); i++)
        if (strstr(glmux_select_reason(sel, i), text) != NULL)
            return true;
    return false;
}

static const struct bed_gpu intel = { "0000:00:02.0", "0x8086\n", "0x9a49\n", "0x030000\n",
                                       "i915", 1, -1, "renderD128", "active\n", NULL };
static const struct bed_gpu nvidia = { "0000:01:00.0", "0x10de\n", "0x25a2\n", "0x030200\n",
                                        "nvidia", 0, -1, "renderD129", "suspended\n", NULL };
static const struct bed_gpu amd = { "0000:03:00.0", "0x1002\n", "0x73ef\n", "0x030000\n",
                                     "amdgpu", 0, -1, "renderD130", "active\n", "8589934592\n" };
static const char *const mesa_drivers[] = { "i915", "amdgpu" };
static const struct glmux_select_candidate nv_mesa[2] = {
    { "nvidia", NULL, 0 }, { "mesa", mesa_drivers, 2 } };

static const char *first(struct glmux_select *sel)
{
    size_t order[2];

    CHECK(glmux_select_egl_vendor_order(sel, nv_mesa, 2, order) == 2);
    return nv_mesa[order[0]].name;
}

int main(void)
{
    struct glmux_select *sel;
    const struct glmux_gpu_list *l;

    bed_require();
    bed_new();
    bed_add_gpu(&intel);
    bed_add_gpu(&nvidia);
    bed_add_gpu(&amd);

    sel = new_sel(NULL, NULL);
    CHECK(strcmp(first(sel), "mesa") == 0);
    l = glmux_select_gpus(sel);
    CHECK_MSG(refused > 0, "libudev was not even asked for");
    CHECK(l->no_udev && !l->sysfs_missing && l->count == 3);
    CHECK_MSG(strcmp(l->gpus[0].driver, "i915") == 0 && strcmp(l->gpus[1].driver, "nvidia") == 0 &&
              strcmp(l->gpus[2].driver, "amdgpu") == 0, "drivers %s %s %s", l->gpus[0].driver,
              l->gpus[1].driver, l->gpus[2].driver);
    CHECK(l->gpus[0].boot_vga && l->gpus[0].is_default && strcmp(l->default_rule, "boot_vga") == 0);
    CHECK(l->gpus[0].class_code == 0x030000 && l->gpus[2].vram == 8589934592ull);
    CHECK(strcmp(l->gpus[1].power, "suspended") == 0);
    CHECK(l->gpus[0].udev_tag[0] == '\0');
    CHECK(l->gpus[1].kind == GLMUX_GPU_DISCRETE && l->gpus[2].kind == GLMUX_GPU_DISCRETE);
    CHECK(said(sel, "libudev is missing"));
    glmux_select_free(sel);

    /* DRI_PRIME by tag and by ids: the AMD GPU, which Mesa serves and reaches by itself. */
    sel = new_sel("DRI_PRIME", "pci-0000_03_00_0");
    CHECK(strcmp(first(sel), "mesa") == 0);
    CHECK(!bed_request_unmet(sel));
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:03:00.0") == 0);
    CHECK(strcmp(bed_glx_vendor(sel, NULL, 0, NULL), "mesa") == 0);
    glmux_select_free(sel);
    sel = new_sel("DRI_PRIME", "1002:73ef");
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:03:00.0") == 0);
    glmux_select_free(sel);
    /* DRI_PRIME=1: a GPU other than the default one, in libdrm's order. */
    sel = new_sel("DRI_PRIME", "1");
    {
        struct glmux_select_choice c;

        glmux_select_choose(sel, NULL, nv_mesa, 2, &c);
        CHECK(c.asked != NULL && !c.asked->is_default);
    }
    glmux_select_free(sel);
    /* NVIDIA's variable: the NVIDIA GPU, its vendor first. */
    sel = new_sel("__NV_PRIME_RENDER_OFFLOAD", "1");
    CHECK(strcmp(first(sel), "nvidia") == 0);
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->pci, "0000:01:00.0") == 0);
    glmux_select_free(sel);
    bed_free();
    return 0;
}
