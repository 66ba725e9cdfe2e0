/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: how the chosen vendor is given its variables (glmux_select_apply_vendor_env).
 * setenv is interposed to count writes: nothing is written when nothing was asked for, the
 * right variable is written once for the vendor of the chosen GPU, never for another vendor,
 * and never again when the value is already there (a second loader, or `glmux run`).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"
#include "select/select.h"
#include "bed.h"

static int writes;

int setenv(const char *name, const char *value, int overwrite)
{
    int (*real)(const char *, const char *, int) = dlsym(RTLD_NEXT, "setenv");

    writes++;
    return real(name, value, overwrite);
}

static const struct bed_gpu intel = { "0000:00:02.0", "0x8086\n", "0x9a49\n", "0x030000\n",
                                       "i915", 1, -1, "renderD128", NULL, NULL };
static const struct bed_gpu nvidia = { "0000:01:00.0", "0x10de\n", "0x25a2\n", "0x030200\n",
                                        "nvidia", -1, -1, "renderD129", NULL, NULL };
static const struct bed_gpu amd = { "0000:03:00.0", "0x1002\n", "0x73ef\n", "0x030000\n",
                                     "amdgpu", 0, -1, "renderD130", NULL, "8589934592\n" };
static const struct glmux_select_candidate nv = { "nvidia", NULL, 0 };
static const struct glmux_select_candidate mesa = { "mesa", NULL, 0 };

static struct glmux_select *new_sel(void)
{
    struct glmux_select *sel = glmux_select_new(NULL);

    CHECK(sel != NULL);
    return sel;
}

int main(void)
{
    static const char *const clear[] = { "DRI_PRIME", "GLMUX_GPU", "__NV_PRIME_RENDER_OFFLOAD",
                                         "__NV_PRIME_RENDER_OFFLOAD_PROVIDER",
                                         "__EGL_VENDOR_LIBRARY_FILENAMES",
                                         "__EGL_VENDOR_LIBRARY_DIRS", "GLMUX_DRIVER_VENDORS" };
    struct glmux_select *sel;

    bed_require();
    for (size_t i = 0; i < sizeof(clear) / sizeof(clear[0]); i++)
        unsetenv(clear[i]);
    bed_new();
    bed_add_gpu(&intel);
    bed_add_gpu(&nvidia);

    /* Nothing asked: the environment is not touched. */
    writes = 0;
    sel = new_sel();
    CHECK(glmux_select_apply_vendor_env(sel, &nv) == 0);
    CHECK(glmux_select_apply_vendor_env(sel, &mesa) == 0);
    CHECK(writes == 0);
    glmux_select_free(sel);

    /* DRI_PRIME=1 on Intel + NVIDIA: NVIDIA gets render offload, once; Mesa gets nothing. */
    setenv("DRI_PRIME", "1", 1);
    writes = 0;
    sel = new_sel();
    CHECK(glmux_select_apply_vendor_env(sel, &mesa) == 0);
    CHECK(glmux_select_apply_vendor_env(sel, &nv) == 1);
    CHECK(writes == 1);
    CHECK(getenv("__NV_PRIME_RENDER_OFFLOAD") && strcmp(getenv("__NV_PRIME_RENDER_OFFLOAD"), "1") == 0);
    CHECK(glmux_select_apply_vendor_env(sel, &nv) == 0 && writes == 1);
    glmux_select_free(sel);
    /* A second library (libGLX after libEGL) finds the value there and writes nothing. */
    sel = new_sel();
    CHECK(glmux_select_apply_vendor_env(sel, &nv) == 0 && writes == 1);
    glmux_select_free(sel);
    unsetenv("__NV_PRIME_RENDER_OFFLOAD");

    /* Intel + AMD: Mesa is handed the exact PCI tag instead of the readdir-order number. */
    bed_free();
    bed_new();
    bed_add_gpu(&intel);
    bed_add_gpu(&amd);
    writes = 0;
    sel = new_sel();
    CHECK(glmux_select_apply_vendor_env(sel, &mesa) == 1);
    CHECK(strcmp(getenv("DRI_PRIME"), "pci-0000_03_00_0") == 0);
    CHECK(glmux_select_apply_vendor_env(sel, &nv) == 0 && writes == 1);
    glmux_select_free(sel);
    /* `glmux run --gpu 1` set it already: nothing to write. */
    writes = 0;
    sel = new_sel();
    CHECK(glmux_select_apply_vendor_env(sel, &mesa) == 0 && writes == 0);
    glmux_select_free(sel);

    bed_free();
    return 0;
}
