/* SPDX-License-Identifier: MIT */
/*
 * glmux: the one rule for a GPU. A request names a GPU against a reference, the GPU Mesa's
 * loader calls the default device: the display's GPU when it is known, else the default GPU
 * (boot_display, boot_vga, ...). DRI_PRIME is matched as Mesa's loader does (N counts the render
 * GPUs other than the reference in libdrm's order, vendor:device takes the first in that order,
 * a tag must be Mesa's exactly), GLMUX_GPU in PCI order with udev's tags too,
 * __NV_PRIME_RENDER_OFFLOAD as NVIDIA's driver does (the provider-th GPU NVIDIA serves). The
 * GPU is then kept only when an installed vendor serves it and that vendor will render there:
 * a library writes no environment, so a vendor lands on a GPU other than the reference only
 * when its own variable already says so (glmux_select_vendor_lands). Otherwise the reference's
 * vendors stay first and the reason is warned once.
 */
#define _GNU_SOURCE
#include "select/policy.h"

#include <stdio.h>
#include <string.h>

#include "util/log.h"

bool glmux_select_candidate_serves(const struct glmux_select_candidate *cand,
                                   const struct glmux_gpu *gpu)
{
    char buf[GLMUX_DRIVER_VENDOR_MAX];
    const char *v;

    if (gpu == NULL)
        return false;
    if (gpu->vendor[0] != '\0')    /* the administrator's udev property GLMUX_VENDOR */
        return strcmp(gpu->vendor, cand->name) == 0;
    if (gpu->driver[0] == '\0')
        return false;
    if (cand->drivers != NULL) {
        for (size_t i = 0; i < cand->n_drivers; i++)
            if (glmux_driver_matches(cand->drivers[i], gpu->driver))
                return true;
        return false;
    }
    v = glmux_driver_default_vendor(gpu->driver, buf);
    return v != NULL && strcmp(v, cand->name) == 0;
}

struct glmux_select_candidate glmux_select_candidate_of(const struct glmux_vendor *v)
{
    static const char *const none[] = { NULL };
    struct glmux_select_candidate c = { v->name, NULL, 0 };

    if (v->has_drivers) {
        c.drivers = v->drivers ? (const char *const *)v->drivers : none;
        c.n_drivers = v->n_drivers;
    }
    return c;
}

const char *glmux_select_vendor_of(const struct glmux_select_vendors *v,
                                   const struct glmux_gpu *gpu)
{
    if (gpu == NULL)
        return NULL;
    if (v == NULL || v->cands == NULL)
        return gpu->served_by[0] ? gpu->served_by : NULL;
    for (size_t i = 0; i < v->n; i++)
        if (glmux_select_candidate_serves(&v->cands[i], gpu))
            return v->cands[i].name;
    return NULL;
}

/* The one test of which vendor is NVIDIA's, whose driver reads __NV_PRIME_RENDER_OFFLOAD (and
 * _PROVIDER) where every other vendor reads DRI_PRIME, as Mesa does: glmux_select_vendor_told_by
 * below reads those variables for a vendor, launch.c writes them for a new process. */
bool glmux_select_vendor_is_nvidia(const char *vendor)
{
    return vendor != NULL && strcmp(vendor, "nvidia") == 0;
}

bool glmux_gpu_served_by_nvidia(const struct glmux_gpu *gpu)
{
    return gpu != NULL && glmux_select_vendor_is_nvidia(gpu->served_by);
}

const char *glmux_select_vendor_told_by(const struct glmux_select *sel, const char *vendor)
{
    if (glmux_select_vendor_is_nvidia(vendor))
        return sel->nv_offload ? "__NV_PRIME_RENDER_OFFLOAD" : NULL;
    return sel->dri_prime.kind != GLMUX_REQUEST_NONE ? "DRI_PRIME" : NULL;
}

/* The GPUs in libdrm's order (Mesa's), in out; returns how many. */
static size_t drm_order(const struct glmux_gpu_list *l, const struct glmux_gpu **out, size_t max)
{
    size_t n = 0;

    for (size_t i = 0; i < l->count && n < max; i++) {
        size_t k = n++;

        while (k > 0 && out[k - 1]->drm_index > l->gpus[i].drm_index) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = &l->gpus[i];
    }
    return n;
}

/* The GPU request r names against reference ref; NULL with the reason in why when none. */
static const struct glmux_gpu *pick(const struct glmux_gpu_request *r,
                                    const struct glmux_gpu_list *l, const struct glmux_gpu *ref,
                                    char *why, size_t why_size)
{
    const struct glmux_gpu *order[64], *last = NULL;
    size_t n = r->mesa_rules ? drm_order(l, order, 64) : 0;
    unsigned seen = 0;

    if (!r->mesa_rules)
        for (size_t i = 0; i < l->count && n < 64; i++)
            order[n++] = &l->gpus[i];
    switch (r->kind) {
    case GLMUX_REQUEST_NONE:
        return NULL;
    case GLMUX_REQUEST_DEFAULT:
        return ref;
    case GLMUX_REQUEST_INTEGRATED:
    case GLMUX_REQUEST_DISCRETE: {
        enum glmux_gpu_kind want = r->kind == GLMUX_REQUEST_DISCRETE ? GLMUX_GPU_DISCRETE
                                                                     : GLMUX_GPU_INTEGRATED;
        if (ref != NULL && ref->kind == want)
            return ref;
        for (size_t i = 0; i < n; i++)
            if (glmux_gpu_renders(order[i]) && order[i]->kind == want)
                return order[i];
        snprintf(why, why_size, "there is no %s GPU", glmux_gpu_kind_name(want));
        return NULL;
    }
    case GLMUX_REQUEST_INDEX: {
        /* Mesa: a number at or past the device count is the count less one. */
        long left = r->index;

        if (r->mesa_rules && (size_t)left >= l->drm_count)
            left = (long)l->drm_count - 1;
        for (size_t i = 0; i < n && left > 0; i++) {
            if (order[i] == ref || !glmux_gpu_renders(order[i]))
                continue;
            last = order[i];
            seen++;
            if (--left == 0)
                return order[i];
        }
        if (last == NULL) {
            snprintf(why, why_size, "there is no GPU besides %s", ref ? ref->tag : "none");
            return NULL;
        }
        if (r->mesa_rules) {
            snprintf(why, why_size, "Mesa finds only %u GPU(s) besides %s and stays on it", seen,
                     ref ? ref->tag : "the default");
            return NULL;
        }
        snprintf(why, why_size, "only %u GPU(s) besides %s; using the last one, %s", seen,
                 ref ? ref->tag : "the default", last->tag);
        return last;
    }
    case GLMUX_REQUEST_TAG:
        for (size_t i = 0; i < n; i++) {
            const struct glmux_gpu *g = order[i];
            bool match = r->mesa_rules ? g->bus != GLMUX_BUS_USB && strcmp(g->tag, r->tag) == 0
                                       : glmux_gpu_has_tag(g, r->tag);
            if (!match)
                continue;
            if (glmux_gpu_renders(g))
                return g;
            snprintf(why, why_size, "GPU %s is display-only (no render node)", g->tag);
            return NULL;
        }
        snprintf(why, why_size, "no GPU has the tag %s (see `glmux gpus`)", r->tag);
        return NULL;
    case GLMUX_REQUEST_PCI_ID:
        for (size_t i = 0; i < n; i++)
            if (glmux_gpu_renders(order[i]) && order[i]->bus == GLMUX_BUS_PCI &&
                order[i]->vendor_id == r->vendor_id && order[i]->device_id == r->device_id)
                return order[i];
        snprintf(why, why_size, "no GPU that renders has the PCI id %04x:%04x (see `glmux gpus`)",
                 r->vendor_id, r->device_id);
        return NULL;
    case GLMUX_REQUEST_NVIDIA:
        for (size_t i = 0; i < n; i++) {
            if (!glmux_gpu_served_by_nvidia(order[i]) || !glmux_gpu_renders(order[i]))
                continue;
            if (seen++ == r->index)
                return order[i];
        }
        snprintf(why, why_size, "no GPU driven by NVIDIA's driver%s", r->index ? " with that "
                 "provider" : "");
        return NULL;
    }
    return NULL;
}

const struct glmux_gpu *glmux_select_vendor_lands(struct glmux_select *sel, const char *vendor,
                                                  const struct glmux_gpu *reference)
{
    const struct glmux_gpu_list *l = glmux_select_gpus(sel);
    const struct glmux_gpu *g;
    char why[360];

    if (glmux_select_vendor_is_nvidia(vendor))
        return sel->nv_offload ? pick(&sel->nv, l, reference, why, sizeof(why)) : reference;
    if (sel->dri_prime.kind == GLMUX_REQUEST_NONE)
        return reference;
    /* Mesa's loader: a value that names nothing leaves it on the default device. */
    g = pick(&sel->dri_prime, l, reference, why, sizeof(why));
    return g != NULL ? g : reference;
}

/* What a vendor needs to hear to render on gpu, for the warning. */
static const char *told_by(const char *vendor, const struct glmux_gpu *gpu, char *buf,
                           size_t size)
{
    if (glmux_select_vendor_is_nvidia(vendor))
        return "__NV_PRIME_RENDER_OFFLOAD=1";
    snprintf(buf, size, "DRI_PRIME=%s", gpu->tag);
    return buf;
}

void glmux_select_decide(struct glmux_select *sel, const struct glmux_gpu *reference,
                         const struct glmux_select_vendors *v, enum glmux_select_record record,
                         struct glmux_select_choice *out)
{
    const struct glmux_gpu_list *l = glmux_select_gpus(sel);
    const struct glmux_gpu_request *r = &sel->request;
    const struct glmux_gpu *asked, *lands;
    const char *vendor;
    char why[360] = "", told[100];
    unsigned warn = record == GLMUX_RECORD_WARN ? GLMUX_LOG_WARN : GLMUX_LOG_SELECT;
    /* A note (not a warning) says so, and differs from the warning a display may give later. */
    const char *until = record == GLMUX_RECORD_NOTE ? " (with the default GPU as the "
                        "reference; the display's own GPU decides once it is known)" : "";

    memset(out, 0, sizeof(*out));
    if (reference == NULL && l->default_index >= 0)
        reference = &l->gpus[l->default_index];
    out->reference = out->gpu = reference;
    if (reference == NULL) {
        /* No GPU renders here (none found, or no sysfs): the vendors keep their order. */
        out->unmet = r->kind > GLMUX_REQUEST_DEFAULT;
        if (out->unmet)
            snprintf(out->why, sizeof(out->why), "%.199s", l->sysfs_missing ? l->problem
                                                                           : "no GPU found");
        if (out->unmet && record && !l->sysfs_missing)
            glmux_select_note(sel, warn, "%s=%s: no GPU found; using the vendors' own order",
                              r->variable, r->value);
        return;
    }
    if (r->kind == GLMUX_REQUEST_NONE) {
        out->vendor = glmux_select_vendor_of(v, reference);
        return;
    }
    asked = out->asked = pick(r, l, reference, why, sizeof(why));
    /* A value whose reading the note explained was warned about already. */
    if (record && why[0] != '\0')
        glmux_select_note(sel, asked != NULL || r->note[0] ? GLMUX_LOG_SELECT : warn,
                          "%s=%s: %s%s%s", r->variable, r->value, why, asked != NULL ? ""
                          : "; using the GPU of the display (or the default GPU)", until);
    if (asked == NULL) {
        out->unmet = r->kind > GLMUX_REQUEST_DEFAULT;
        snprintf(out->why, sizeof(out->why), "%.199s", why);
        out->vendor = glmux_select_vendor_of(v, reference);
        return;
    }
    vendor = glmux_select_vendor_of(v, asked);
    lands = vendor != NULL ? glmux_select_vendor_lands(sel, vendor, reference) : NULL;
    if (vendor == NULL) {
        snprintf(out->why, sizeof(out->why), "no installed vendor serves GPU %s", asked->tag);
        if (record)
            glmux_select_note(sel, warn, "no installed vendor serves GPU %s (driver %s); using "
                              "%s%s", asked->tag, asked->driver[0] ? asked->driver : "none",
                              reference->tag, until);
    } else if (lands != asked) {
        snprintf(out->why, sizeof(out->why), "vendor \"%.31s\" renders on %.79s only when told "
                 "by %.79s", vendor, asked->tag, told_by(vendor, asked, told, sizeof(told)));
        if (record)
            glmux_select_note(sel, warn, "%s=%s names GPU %s, served by vendor \"%s\", which "
                              "renders there only when told by %s, and a library does not write "
                              "the environment: start the program with `glmux run --gpu %s` "
                              "(or set that variable); staying on %s%s", r->variable, r->value,
                              asked->tag, vendor, told_by(vendor, asked, told, sizeof(told)),
                              asked->tag, reference->tag, until);
    } else {
        out->gpu = asked;
        out->vendor = vendor;
        out->exclusive = r->exclusive;
        if (record)
            glmux_select_note(sel, GLMUX_LOG_SELECT, "chosen GPU: %s (%s=%s, vendor \"%s\")%s",
                              asked->tag, r->variable, r->value, vendor,
                              asked == reference ? ", which is the display's or default GPU"
                                                 : "");
        return;
    }
    out->unmet = true;
    out->vendor = glmux_select_vendor_of(v, reference);
}

void glmux_select_choose(struct glmux_select *sel, const struct glmux_gpu *reference,
                         const struct glmux_select_candidate *cands, size_t n,
                         struct glmux_select_choice *out)
{
    struct glmux_select_vendors v = { cands, n };

    glmux_select_decide(sel, reference, &v, GLMUX_RECORD_WARN, out);
}

const struct glmux_gpu *glmux_select_chosen_gpu(struct glmux_select *sel)
{
    struct glmux_select_choice c;

    glmux_select_choose(sel, NULL, NULL, 0, &c);
    return c.gpu;
}
