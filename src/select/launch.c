/* SPDX-License-Identifier: MIT */
/*
 * glmux: what a vendor must be told to render on a GPU, and what `glmux run` and `glmux env`
 * give a new process. The variables follow the vendor that serves the GPU (its served_by: the
 * udev property GLMUX_VENDOR, else the driver table), not the kernel driver: "nvidia" reads
 * __NV_PRIME_RENDER_OFFLOAD (and _PROVIDER), every other vendor DRI_PRIME, as Mesa does. Only a
 * new process can be given them: libEGL and libGLX never write the environment (select.h).
 */
#define _GNU_SOURCE
#include "select/policy.h"

#include <stdio.h>
#include <string.h>

static void put(struct glmux_select_env *out, size_t *k, const char *name, const char *value)
{
    out[*k].name = name;
    out[*k].unset = value == NULL;
    snprintf(out[*k].value, sizeof(out[0].value), "%s", value ? value : "");
    (*k)++;
}

/* __NV_PRIME_RENDER_OFFLOAD=1, and the provider when NVIDIA serves several GPUs (NVIDIA-G<n>,
 * n its rank among them in PCI order, as glmux_select_choose counts the provider). */
static size_t nvidia_env(struct glmux_select *sel, const struct glmux_gpu *gpu,
                         struct glmux_select_env *out)
{
    const struct glmux_gpu_list *l = glmux_select_gpus(sel);
    unsigned count = 0, mine = 0;
    char provider[32];
    size_t k = 0;

    for (size_t i = 0; i < l->count; i++) {
        if (!glmux_gpu_served_by_nvidia(&l->gpus[i]) || !glmux_gpu_renders(&l->gpus[i]))
            continue;
        if (&l->gpus[i] == gpu)
            mine = count;
        count++;
    }
    put(out, &k, "__NV_PRIME_RENDER_OFFLOAD", "1");
    if (count > 1) {
        snprintf(provider, sizeof(provider), "NVIDIA-G%u", mine);
        put(out, &k, "__NV_PRIME_RENDER_OFFLOAD_PROVIDER", provider);
    }
    return k;
}

size_t glmux_select_vendor_env(struct glmux_select *sel, const char *vendor,
                               const struct glmux_gpu *gpu, const struct glmux_gpu *reference,
                               struct glmux_select_env *out)
{
    size_t k = 0;

    if (gpu == NULL || gpu == reference || vendor == NULL)
        return 0;
    if (glmux_select_vendor_is_nvidia(vendor))
        return nvidia_env(sel, gpu, out);
    put(out, &k, "DRI_PRIME", gpu->tag);
    return k;
}

size_t glmux_select_launch_env(struct glmux_select *sel, const struct glmux_gpu *gpu,
                               struct glmux_select_env *out)
{
    const struct glmux_gpu_list *l = glmux_select_gpus(sel);
    const struct glmux_gpu *def = l->default_index >= 0 ? &l->gpus[l->default_index] : NULL;
    const char *glx = glmux_select_env_value(sel, "__GLX_VENDOR_LIBRARY_NAME");
    size_t k = 0;

    if (gpu == NULL)
        return 0;
    put(out, &k, "GLMUX_GPU", gpu->tag);
    if (glmux_gpu_served_by_nvidia(gpu)) {
        put(out, &k, "DRI_PRIME", NULL);
        if (gpu == def)
            return k;
        k += nvidia_env(sel, gpu, out + k);
        put(out, &k, "__GLX_VENDOR_LIBRARY_NAME", "nvidia");
        put(out, &k, "__VK_LAYER_NV_optimus", "NVIDIA_only");
        return k;
    }
    /* Mesa (any vendor but NVIDIA's) reads DRI_PRIME; the session's NVIDIA request must not
     * win over it in the new process. */
    put(out, &k, "DRI_PRIME", gpu->tag);
    put(out, &k, "__NV_PRIME_RENDER_OFFLOAD", NULL);
    put(out, &k, "__NV_PRIME_RENDER_OFFLOAD_PROVIDER", NULL);
    put(out, &k, "__VK_LAYER_NV_optimus", NULL);
    if (glmux_select_vendor_is_nvidia(glx))
        put(out, &k, "__GLX_VENDOR_LIBRARY_NAME", NULL);
    return k;
}
