/* SPDX-License-Identifier: MIT */
/*
 * glmux: the PRIME policy. Turns the user's variables, the GPU list and the vendors' driver
 * lists into decisions: which GPU, which EGL vendor order, which GLX vendor for a screen, and
 * which variables the chosen vendor needs. Every rule considered is recorded as a reason (shown
 * by `glmux explain` and logged under GLMUX_DEBUG=select). Precedence of the variables:
 * GLMUX_GPU (or --gpu), then DRI_PRIME, then __NV_PRIME_RENDER_OFFLOAD; libglvnd's explicit
 * variables win over all of them for what they control.
 */
#define _GNU_SOURCE
#include "select.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/env.h"
#include "util/log.h"

struct glmux_select {
    glmux_select_getenv_fn getenv;
    char *display_tag;
    struct glmux_gpu_request request;
    bool enumerated;
    struct glmux_gpu_list gpus;
    bool chosen_resolved;
    int chosen;                /* index into gpus, -1 for none */
    bool request_unmet;        /* a GPU was asked for and none matched */
    char **reasons;
    size_t n_reasons;
    char glx_name[128];
    bool warned_no_vendor;
    bool keep_reasons;
    bool quiet;
};

static void reason(struct glmux_select *sel, unsigned category, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void reason(struct glmux_select *sel, unsigned category, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    char **r;

    /* Formatting costs more than deciding: skip it unless somebody will read it. */
    if (!sel->keep_reasons && (sel->quiet || !glmux_log_enabled(category)))
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (!sel->quiet)
        glmux_log(category, "%s", buf);
    r = realloc(sel->reasons, (sel->n_reasons + 1) * sizeof(char *));
    if (r == NULL)
        return;
    sel->reasons = r;
    r[sel->n_reasons] = strdup(buf);
    if (r[sel->n_reasons] != NULL)
        sel->n_reasons++;
}

static const char *env(const struct glmux_select *sel, const char *name)
{
    const char *v = sel->getenv(name);

    return (v != NULL && *v != '\0') ? v : NULL;
}

static void read_request(struct glmux_select *sel, const char *spec)
{
    static const struct {
        const char *name;
        bool keywords;
    } sources[] = { { "--gpu", true }, { "GLMUX_GPU", true }, { "DRI_PRIME", false } };
    const char *nv = env(sel, "__NV_PRIME_RENDER_OFFLOAD");
    bool decided = false;

    for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
        const char *value = i == 0 ? spec : env(sel, sources[i].name);
        char err[200];

        if (value == NULL)
            continue;
        if (decided) {
            reason(sel, GLMUX_LOG_SELECT, "%s=%s ignored: %s=%s takes precedence",
                   sources[i].name, value, sel->request.variable, sel->request.value);
            continue;
        }
        decided = true;
        if (!glmux_gpu_request_parse(value, sources[i].keywords, &sel->request, err,
                                     sizeof(err))) {
            reason(sel, GLMUX_LOG_WARN, "ignoring %s=\"%s\": %s; using the default GPU",
                   sources[i].name, value, err);
            sel->request.kind = GLMUX_REQUEST_DEFAULT;
        } else {
            reason(sel, GLMUX_LOG_SELECT, "%s=%s asks for a GPU", sources[i].name, value);
        }
        sel->request.variable = sources[i].name;
    }
    if (nv != NULL && strtol(nv, NULL, 10) != 0) {
        if (decided) {
            reason(sel, GLMUX_LOG_SELECT, "__NV_PRIME_RENDER_OFFLOAD=%s ignored: %s=%s takes "
                   "precedence", nv, sel->request.variable, sel->request.value);
        } else {
            const char *provider = env(sel, "__NV_PRIME_RENDER_OFFLOAD_PROVIDER");
            unsigned n = 0;
            memset(&sel->request, 0, sizeof(sel->request));
            sel->request.kind = GLMUX_REQUEST_NVIDIA;
            sel->request.variable = "__NV_PRIME_RENDER_OFFLOAD";
            snprintf(sel->request.value, sizeof(sel->request.value), "%s", nv);
            if (provider != NULL && sscanf(provider, "NVIDIA-G%u", &n) != 1) {
                reason(sel, GLMUX_LOG_WARN, "ignoring __NV_PRIME_RENDER_OFFLOAD_PROVIDER=\"%s\": "
                       "expected NVIDIA-G<n>", provider);
                n = 0;
            }
            sel->request.index = n;
            reason(sel, GLMUX_LOG_SELECT, "__NV_PRIME_RENDER_OFFLOAD=%s asks for NVIDIA GPU %u",
                   nv, n);
        }
    }
    if (sel->request.kind == GLMUX_REQUEST_NONE)
        reason(sel, GLMUX_LOG_SELECT, "no variable asks for a GPU (GLMUX_GPU, DRI_PRIME, "
               "__NV_PRIME_RENDER_OFFLOAD are unset)");
}

struct glmux_select *glmux_select_new(const struct glmux_select_config *config)
{
    struct glmux_select *sel = calloc(1, sizeof(*sel));

    if (sel == NULL)
        return NULL;
    sel->getenv = (config && config->getenv) ? config->getenv : glmux_env_get;
    sel->chosen = -1;
    sel->keep_reasons = config != NULL && config->keep_reasons;
    sel->quiet = config != NULL && config->quiet;
    if (config != NULL && config->display_tag != NULL)
        sel->display_tag = strdup(config->display_tag);
    read_request(sel, config ? config->gpu_spec : NULL);
    return sel;
}

void glmux_select_free(struct glmux_select *sel)
{
    if (sel == NULL)
        return;
    glmux_gpu_list_clear(&sel->gpus);
    for (size_t i = 0; i < sel->n_reasons; i++)
        free(sel->reasons[i]);
    free(sel->reasons);
    free(sel->display_tag);
    free(sel);
}

const struct glmux_gpu_request *glmux_select_request(struct glmux_select *sel)
{
    return &sel->request;
}

bool glmux_select_request_unmet(struct glmux_select *sel)
{
    glmux_select_chosen_gpu(sel);
    return sel->request_unmet;
}

bool glmux_select_enumerated(const struct glmux_select *sel)
{
    return sel->enumerated;
}

size_t glmux_select_reason_count(const struct glmux_select *sel)
{
    return sel->n_reasons;
}

const char *glmux_select_reason(const struct glmux_select *sel, size_t i)
{
    return i < sel->n_reasons ? sel->reasons[i] : NULL;
}

const struct glmux_gpu_list *glmux_select_gpus(struct glmux_select *sel)
{
    bool asked = sel->request.kind > GLMUX_REQUEST_DEFAULT;

    if (sel->enumerated)
        return &sel->gpus;
    sel->enumerated = true;
    if (!glmux_gpu_list_enumerate(&sel->gpus, sel->display_tag)) {
        reason(sel, GLMUX_LOG_WARN, "out of memory while enumerating GPUs");
        return &sel->gpus;
    }
    if (sel->gpus.sysfs_missing)
        reason(sel, asked ? GLMUX_LOG_WARN : GLMUX_LOG_SELECT, "cannot enumerate GPUs: %s; no "
               "GPU can be chosen, vendors keep their order", sel->gpus.problem);
    else if (sel->gpus.problem[0] != '\0')
        reason(sel, GLMUX_LOG_WARN, "%s", sel->gpus.problem);
    if (sel->gpus.no_udev_record[0] != '\0')
        reason(sel, asked ? GLMUX_LOG_WARN : GLMUX_LOG_SELECT, "udev has no record of %s (no "
               "udev database: /run/udev missing, as in a container?); udev rules (GLMUX_*) "
               "and ID_PATH_TAG do not apply, libdrm and sysfs decide (bind-mount /run/udev "
               "read-only to use them)", sel->gpus.no_udev_record);
    if (!sel->gpus.sysfs_missing && sel->gpus.count == 0)
        reason(sel, GLMUX_LOG_SELECT, "no GPU found (libdrm lists no DRM device)");
    if (sel->gpus.ignored[0] != '\0')
        reason(sel, GLMUX_LOG_SELECT, "hidden by the udev property GLMUX_IGNORE=1: %s",
               sel->gpus.ignored);
    for (size_t i = 0; i < sel->gpus.count; i++) {
        const struct glmux_gpu *g = &sel->gpus.gpus[i];
        reason(sel, GLMUX_LOG_SELECT, "GPU %zu: %s %04x:%04x driver %s, %s%s%s%s%s%s%s", i,
               g->tag, g->vendor_id, g->device_id, g->driver[0] ? g->driver : "(none)",
               glmux_gpu_kind_name(g->kind),
               g->kind_from_udev ? " (udev property GLMUX_GPU_CLASS)" : "",
               g->vendor[0] ? ", vendor " : "", g->vendor,
               g->vendor[0] ? " (udev property GLMUX_VENDOR)" : "",
               g->boot_display ? ", boot_display" : "", g->boot_vga ? ", boot_vga" : "");
    }
    if (sel->gpus.default_index >= 0)
        reason(sel, GLMUX_LOG_SELECT, "default GPU: %s (rule: %s)",
               sel->gpus.gpus[sel->gpus.default_index].tag, sel->gpus.default_rule);
    else if (sel->gpus.count > 0)
        reason(sel, GLMUX_LOG_SELECT, "no default GPU: no GPU has a render node");
    return &sel->gpus;
}

static bool is_nvidia_driver(const char *driver)
{
    return strcmp(driver, "nvidia") == 0 || strcmp(driver, "nvidia-drm") == 0;
}

static bool renders(const struct glmux_gpu *g)
{
    return g->render_node[0] != '\0';
}

/* Picks the GPU for the request; -1 means "the default" (also when there is none). */
static int pick(struct glmux_select *sel, const struct glmux_gpu_list *l)
{
    const struct glmux_gpu_request *r = &sel->request;
    int def = l->default_index;
    unsigned seen = 0;
    int last = -1;

    switch (r->kind) {
    case GLMUX_REQUEST_NONE:
    case GLMUX_REQUEST_DEFAULT:
        return -1;
    case GLMUX_REQUEST_INTEGRATED:
    case GLMUX_REQUEST_DISCRETE: {
        enum glmux_gpu_kind want = r->kind == GLMUX_REQUEST_DISCRETE ? GLMUX_GPU_DISCRETE
                                                                     : GLMUX_GPU_INTEGRATED;
        if (def >= 0 && l->gpus[def].kind == want)
            return def;
        for (size_t i = 0; i < l->count; i++)
            if (renders(&l->gpus[i]) && l->gpus[i].kind == want)
                return (int)i;
        reason(sel, GLMUX_LOG_WARN, "%s=%s: there is no %s GPU; using the default GPU",
               r->variable, r->value, glmux_gpu_kind_name(want));
        return -1;
    }
    case GLMUX_REQUEST_INDEX:
        for (size_t i = 0; i < l->count; i++) {
            if ((int)i == def || l->gpus[i].driver[0] == '\0' || !renders(&l->gpus[i]))
                continue;
            last = (int)i;
            if (++seen == r->index)
                return (int)i;
        }
        if (last < 0) {
            reason(sel, GLMUX_LOG_WARN, "%s=%s: there is no GPU besides the default one; using "
                   "the default GPU", r->variable, r->value);
            return -1;
        }
        reason(sel, GLMUX_LOG_WARN, "%s=%s: only %u non-default GPU(s); using the last one, %s",
               r->variable, r->value, seen, l->gpus[last].tag);
        return last;
    case GLMUX_REQUEST_TAG:
        for (size_t i = 0; i < l->count; i++)
            if (renders(&l->gpus[i]) && glmux_gpu_has_tag(&l->gpus[i], r->tag))
                return (int)i;
        for (size_t i = 0; i < l->count; i++)
            if (glmux_gpu_has_tag(&l->gpus[i], r->tag)) {
                reason(sel, GLMUX_LOG_WARN, "%s=%s: GPU %s is display-only (no render node); "
                       "using the default GPU", r->variable, r->value, r->tag);
                return -1;
            }
        reason(sel, GLMUX_LOG_WARN, "%s=%s: no GPU has the tag %s (see `glmux gpus`); using the "
               "default GPU", r->variable, r->value, r->tag);
        return -1;
    case GLMUX_REQUEST_PCI_ID:
        for (size_t i = 0; i < l->count; i++)
            if (renders(&l->gpus[i]) && l->gpus[i].bus == GLMUX_BUS_PCI &&
                l->gpus[i].vendor_id == r->vendor_id && l->gpus[i].device_id == r->device_id)
                return (int)i;
        for (size_t i = 0; i < l->count; i++)
            if (l->gpus[i].bus == GLMUX_BUS_PCI && l->gpus[i].vendor_id == r->vendor_id &&
                l->gpus[i].device_id == r->device_id) {
                reason(sel, GLMUX_LOG_WARN, "%s=%s: GPU %s is display-only (no render node); "
                       "using the default GPU", r->variable, r->value, l->gpus[i].tag);
                return -1;
            }
        reason(sel, GLMUX_LOG_WARN, "%s=%s: no GPU has the PCI id %04x:%04x (see `glmux gpus`); "
               "using the default GPU", r->variable, r->value, r->vendor_id, r->device_id);
        return -1;
    case GLMUX_REQUEST_NVIDIA:
        for (size_t i = 0; i < l->count; i++) {
            if (!is_nvidia_driver(l->gpus[i].driver) || !renders(&l->gpus[i]))
                continue;
            if (seen++ == r->index)
                return (int)i;
        }
        reason(sel, GLMUX_LOG_WARN, "__NV_PRIME_RENDER_OFFLOAD=%s: no GPU driven by the NVIDIA "
               "driver%s; using the default GPU", r->value, r->index ? " with that provider" : "");
        return -1;
    }
    return -1;
}

const struct glmux_gpu *glmux_select_chosen_gpu(struct glmux_select *sel)
{
    const struct glmux_gpu_list *l;
    int i;

    if (sel->chosen_resolved)
        return sel->chosen >= 0 ? &sel->gpus.gpus[sel->chosen] : NULL;
    sel->chosen_resolved = true;
    l = glmux_select_gpus(sel);
    if (l->default_index < 0) {
        sel->request_unmet = sel->request.kind > GLMUX_REQUEST_DEFAULT;
        if (sel->request.kind > GLMUX_REQUEST_DEFAULT && !l->sysfs_missing)
            reason(sel, GLMUX_LOG_WARN, "%s=%s: no GPU found; using the vendors' own order",
                   sel->request.variable, sel->request.value);
        return NULL;
    }
    i = pick(sel, l);
    if (i < 0 && sel->request.kind > GLMUX_REQUEST_DEFAULT)
        sel->request_unmet = true;
    if (i < 0) {
        i = l->default_index;
        reason(sel, GLMUX_LOG_SELECT, "chosen GPU: %s, the default GPU", l->gpus[i].tag);
    } else {
        reason(sel, GLMUX_LOG_SELECT, "chosen GPU: %s (%s=%s)%s", l->gpus[i].tag,
               sel->request.variable, sel->request.value,
               l->gpus[i].is_default ? ", which is the default GPU" : "");
    }
    sel->chosen = i;
    return &l->gpus[i];
}

static bool driver_match(const char *listed, const char *driver)
{
    if (strcmp(listed, driver) == 0)
        return true;
    return is_nvidia_driver(listed) && is_nvidia_driver(driver);
}

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
            if (driver_match(cand->drivers[i], gpu->driver))
                return true;
        return false;
    }
    v = glmux_driver_default_vendor(gpu->driver, buf);
    return v != NULL && strcmp(v, cand->name) == 0;
}

/* The chosen GPU has no installed vendor: one warning, and the default GPU instead. */
static const struct glmux_gpu *fall_back_to_default(struct glmux_select *sel,
                                                    const struct glmux_gpu *gpu, const char *api)
{
    const struct glmux_gpu *def = &sel->gpus.gpus[sel->gpus.default_index];

    reason(sel, sel->warned_no_vendor ? GLMUX_LOG_SELECT : GLMUX_LOG_WARN,
           "no installed %s vendor serves GPU %s (driver %s); using the default GPU %s", api,
           gpu->tag, gpu->driver[0] ? gpu->driver : "none", def->tag);
    sel->warned_no_vendor = true;
    sel->request_unmet = true;
    sel->chosen = sel->gpus.default_index;
    return def;
}

static const char *egl_override(struct glmux_select *sel)
{
    if (env(sel, "__EGL_VENDOR_LIBRARY_FILENAMES") != NULL)
        return "__EGL_VENDOR_LIBRARY_FILENAMES";
    if (env(sel, "__EGL_VENDOR_LIBRARY_DIRS") != NULL)
        return "__EGL_VENDOR_LIBRARY_DIRS";
    return NULL;
}

/* Appends to order[0..k) every index below n not yet in it, in index order; the new count. */
static size_t append_unplaced(size_t *order, size_t k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bool placed = false;

        for (size_t j = 0; j < k; j++)
            placed |= order[j] == i;
        if (!placed)
            order[k++] = i;
    }
    return k;
}

size_t glmux_select_egl_vendor_order(struct glmux_select *sel,
                                     const struct glmux_select_candidate *cands, size_t n,
                                     size_t *order)
{
    const char *override = egl_override(sel);
    const struct glmux_gpu *gpu;
    char names[400] = "";
    size_t k = 0;

    for (size_t i = 0; i < n; i++)
        order[i] = i;
    if (override != NULL) {
        reason(sel, GLMUX_LOG_SELECT, "EGL vendor order left as given: %s is set (libglvnd's "
               "override wins)", override);
        return n;
    }
    if (n < 2 && sel->request.kind == GLMUX_REQUEST_NONE) {
        reason(sel, GLMUX_LOG_SELECT, "%zu EGL vendor(s) and no GPU asked for: no GPU "
               "enumeration", n);
        return n;
    }
    gpu = glmux_select_chosen_gpu(sel);
    if (gpu == NULL)
        return n;
    for (size_t i = 0; i < n; i++)
        if (glmux_select_candidate_serves(&cands[i], gpu))
            order[k++] = i;
    if (k == 0 && !gpu->is_default && sel->gpus.default_index >= 0) {
        gpu = fall_back_to_default(sel, gpu, "EGL");
        for (size_t i = 0; i < n; i++)
            if (glmux_select_candidate_serves(&cands[i], gpu))
                order[k++] = i;
    }
    if (k == 0) {
        if (!sel->warned_no_vendor)
            reason(sel, sel->request.kind > GLMUX_REQUEST_DEFAULT ? GLMUX_LOG_WARN
                                                                  : GLMUX_LOG_SELECT,
                   "no installed EGL vendor serves GPU %s (driver %s); vendors keep their order",
                   gpu->tag, gpu->driver[0] ? gpu->driver : "none");
        sel->warned_no_vendor = true;
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        return n;
    }
    if (!sel->request.exclusive)
        k = append_unplaced(order, k, n);
    for (size_t i = 0; i < k; i++)
        snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "",
                 cands[order[i]].name);
    reason(sel, GLMUX_LOG_SELECT, "EGL vendor order: %s (%s serves %s, driver %s%s)", names,
           cands[order[0]].name, gpu->tag, gpu->driver,
           sel->request.exclusive ? "; '!' keeps only its vendors" : "");
    return k;
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

/* The selector's own GLX choice for a screen when no libglvnd variable decides it: a vendor
 * name, or NULL for "the X server's list". vendors NULL: the built-in driver table. */
static const char *glx_choice(struct glmux_select *sel, int screen,
                              const struct glmux_vendor_list *vendors)
{
    const struct glmux_gpu *gpu;
    char buf[GLMUX_DRIVER_VENDOR_MAX];
    const char *v;

    if (sel->request.kind <= GLMUX_REQUEST_DEFAULT) {
        reason(sel, GLMUX_LOG_SELECT, "GLX screen %d: the X server's vendor (no GPU asked for)",
               screen);
        return NULL;
    }
    gpu = glmux_select_chosen_gpu(sel);
    if (gpu == NULL || gpu->is_default) {
        reason(sel, GLMUX_LOG_SELECT, "GLX screen %d: the X server's vendor (the chosen GPU is "
               "the default one)", screen);
        return NULL;
    }
    for (size_t i = 0; vendors != NULL && i < vendors->count; i++) {
        struct glmux_select_candidate c = glmux_select_candidate_of(&vendors->vendors[i]);
        if (glmux_select_candidate_serves(&c, gpu)) {
            reason(sel, GLMUX_LOG_SELECT, "GLX screen %d: vendor \"%s\" (it serves %s, driver %s)",
                   screen, c.name, gpu->tag, gpu->driver);
            return vendors->vendors[i].name;
        }
    }
    if (vendors == NULL && (v = gpu->vendor[0] ? gpu->vendor
                                                : glmux_driver_default_vendor(gpu->driver, buf))) {
        snprintf(sel->glx_name, sizeof(sel->glx_name), "%s", v);
        reason(sel, GLMUX_LOG_SELECT, "GLX screen %d: vendor \"%s\" (%s: driver %s)", screen, v,
               gpu->vendor[0] ? "udev property GLMUX_VENDOR" : "built-in table", gpu->driver);
        return sel->glx_name;
    }
    if (vendors != NULL && sel->gpus.default_index >= 0) {
        fall_back_to_default(sel, gpu, "GLX");
        reason(sel, GLMUX_LOG_SELECT, "GLX screen %d: the X server's vendor (the default GPU)",
               screen);
        return NULL;
    }
    reason(sel, GLMUX_LOG_SELECT, "GLX screen %d: no vendor known for GPU %s (driver %s); "
           "using the X server's vendor", screen, gpu->tag, gpu->driver[0] ? gpu->driver : "none");
    return NULL;
}

static const char *sel_env(struct glmux_select *sel, const char *name)
{
    const char *v = sel != NULL ? sel->getenv(name) : glmux_env_get(name);

    return (v != NULL && *v != '\0') ? v : NULL;
}

static void add_step(struct glmux_glx_step *out, size_t *n, enum glmux_glx_step_kind kind,
                     const char *name, const char *why, bool check, bool override)
{
    struct glmux_glx_step step = { kind, name, why, check, override };

    out[(*n)++] = step;
}

size_t glmux_select_glx_plan(struct glmux_select *sel, int screen,
                             const struct glmux_vendor_list *vendors,
                             struct glmux_glx_step out[GLMUX_GLX_PLAN_MAX])
{
    char var[64];
    const char *force, *name, *choice = NULL;
    size_t n = 0;

    snprintf(var, sizeof(var), "__GLX_FORCE_VENDOR_LIBRARY_%d", screen);
    force = sel_env(sel, var);
    name = sel_env(sel, "__GLX_VENDOR_LIBRARY_NAME");
    if (force != NULL)
        add_step(out, &n, GLMUX_GLX_STEP_VENDOR, force, "__GLX_FORCE_VENDOR_LIBRARY_<screen>",
                 false, true);
    if (name != NULL)
        add_step(out, &n, GLMUX_GLX_STEP_VENDOR, name, "__GLX_VENDOR_LIBRARY_NAME", false, true);
    if (sel != NULL && n > 0)
        reason(sel, GLMUX_LOG_SELECT, "GLX screen %d: vendor \"%s\" from %s (libglvnd's "
               "override wins; the GPU selector has no say)", screen, out[0].name,
               force != NULL ? var : "__GLX_VENDOR_LIBRARY_NAME");
    if (sel != NULL && n == 0)
        choice = glx_choice(sel, screen, vendors != NULL && vendors->count > 0 ? vendors : NULL);
    if (choice != NULL)
        add_step(out, &n, GLMUX_GLX_STEP_VENDOR, choice, "GPU selector", true, false);
    add_step(out, &n, GLMUX_GLX_STEP_SERVER, NULL, "named by the X server", true, false);
    add_step(out, &n, GLMUX_GLX_STEP_VENDOR, "indirect", "fallback", false, false);
    add_step(out, &n, GLMUX_GLX_STEP_VENDOR, "system", "fallback", false, false);
    return n;
}

const char *glmux_select_glx_vendor_for_screen(struct glmux_select *sel, int screen,
                                               const struct glmux_vendor_list *vendors)
{
    struct glmux_glx_step plan[GLMUX_GLX_PLAN_MAX];

    glmux_select_glx_plan(sel, screen, vendors, plan);
    return plan[0].kind == GLMUX_GLX_STEP_VENDOR ? plan[0].name : NULL;
}

bool glmux_select_display_order(const struct glmux_select *sel,
                                const struct glmux_select_candidate *cands, size_t n,
                                const char *display_tag, size_t *order, char *why,
                                size_t why_size)
{
    const struct glmux_gpu *gpu = NULL;
    size_t k = 0;
    bool moved = false;

    for (size_t i = 0; i < n; i++)
        order[i] = i;
    snprintf(why, why_size, "the process's vendor order");
    if (display_tag == NULL || n < 2)
        return false;
    if (sel->request.kind > GLMUX_REQUEST_DEFAULT) {
        snprintf(why, why_size, "%s=%s wins over the display's GPU %s", sel->request.variable,
                 sel->request.value, display_tag);
        return false;
    }
    if (egl_override((struct glmux_select *)sel) != NULL || !sel->enumerated) {
        snprintf(why, why_size, "the vendor list is libglvnd's; the display's GPU %s does not "
                 "reorder it", display_tag);
        return false;
    }
    for (size_t i = 0; i < sel->gpus.count && gpu == NULL; i++)
        if (renders(&sel->gpus.gpus[i]) && glmux_gpu_has_tag(&sel->gpus.gpus[i], display_tag))
            gpu = &sel->gpus.gpus[i];
    if (gpu == NULL) {
        snprintf(why, why_size, "the display's GPU %s is no render GPU glmux knows",
                 display_tag);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if (glmux_select_candidate_serves(&cands[i], gpu))
            order[k++] = i;
    if (k == 0) {
        snprintf(why, why_size, "no vendor serves the display's GPU %s (driver %s)", gpu->tag,
                 gpu->driver[0] ? gpu->driver : "none");
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        return false;
    }
    k = append_unplaced(order, k, n);
    for (size_t i = 0; i < n; i++)
        moved |= order[i] != i;
    snprintf(why, why_size, "the display's GPU is %s (driver %s): %s first%s", gpu->tag,
             gpu->driver[0] ? gpu->driver : "none", cands[order[0]].name,
             moved ? "" : ", as for the process");
    return moved;
}

size_t glmux_select_egl_plan(struct glmux_select *sel, const struct glmux_vendor_list *vl,
                             size_t *order)
{
    struct glmux_select_candidate *cands = calloc(vl->count + 1, sizeof(*cands));
    size_t *index = calloc(vl->count + 1, sizeof(*index));
    size_t *o = calloc(vl->count + 1, sizeof(*o));
    size_t n = 0, k = 0;

    for (size_t i = 0; i < vl->count; i++) {
        if (vl->vendors[i].egl_library == NULL)
            continue;
        if (cands != NULL && index != NULL) {
            cands[n] = glmux_select_candidate_of(&vl->vendors[i]);
            index[n] = i;
        }
        order[n++] = i;   /* the base order, kept when out of memory */
    }
    if (cands != NULL && index != NULL && o != NULL) {
        k = glmux_select_egl_vendor_order(sel, cands, n, o);
        for (size_t j = 0; j < k; j++)
            order[j] = index[o[j]];
    } else {
        k = n;
        reason(sel, GLMUX_LOG_WARN, "out of memory ordering the EGL vendors; they keep their "
               "base order");
    }
    free(cands);
    free(index);
    free(o);
    return k;
}

static size_t nvidia_env(struct glmux_select *sel, const struct glmux_gpu *gpu,
                         struct glmux_select_env *out)
{
    const struct glmux_gpu_list *l = &sel->gpus;
    unsigned count = 0, mine = 0;
    size_t k = 0;

    for (size_t i = 0; i < l->count; i++) {
        if (!is_nvidia_driver(l->gpus[i].driver))
            continue;
        if (&l->gpus[i] == gpu)
            mine = count;
        count++;
    }
    out[k].name = "__NV_PRIME_RENDER_OFFLOAD";
    snprintf(out[k++].value, sizeof(out[0].value), "1");
    if (count > 1) {
        out[k].name = "__NV_PRIME_RENDER_OFFLOAD_PROVIDER";
        snprintf(out[k++].value, sizeof(out[0].value), "NVIDIA-G%u", mine);
    }
    return k;
}

size_t glmux_select_vendor_env(struct glmux_select *sel, const struct glmux_select_candidate *cand,
                               struct glmux_select_env *out)
{
    const struct glmux_gpu *gpu;
    size_t k;

    if (sel->request.kind == GLMUX_REQUEST_NONE)
        return 0;
    gpu = glmux_select_chosen_gpu(sel);
    if (gpu == NULL || !glmux_select_candidate_serves(cand, gpu))
        return 0;
    if (gpu->is_default) {
        /* Keep a Mesa-style vendor on the default GPU when DRI_PRIME says otherwise (it was
         * overridden by GLMUX_GPU, malformed, or names no GPU): Mesa would read it itself. */
        const char *prime = env(sel, "DRI_PRIME");
        if (is_nvidia_driver(gpu->driver) || prime == NULL || strcmp(prime, gpu->tag) == 0)
            return 0;
        out[0].name = "DRI_PRIME";
        snprintf(out[0].value, sizeof(out[0].value), "%s", gpu->tag);
        k = 1;
    } else if (is_nvidia_driver(gpu->driver)) {
        k = nvidia_env(sel, gpu, out);
    } else {
        out[0].name = "DRI_PRIME";
        snprintf(out[0].value, sizeof(out[0].value), "%s", gpu->tag);
        k = 1;
    }
    for (size_t i = 0; i < k; i++)
        reason(sel, GLMUX_LOG_SELECT, "vendor \"%s\" gets %s=%s", cand->name, out[i].name,
               out[i].value);
    return k;
}

size_t glmux_select_apply_vendor_env(struct glmux_select *sel,
                                     const struct glmux_select_candidate *cand)
{
    struct glmux_select_env env[GLMUX_SELECT_ENV_MAX];
    size_t n = glmux_select_vendor_env(sel, cand, env), written = 0;

    for (size_t i = 0; i < n; i++) {
        const char *now = glmux_env_get(env[i].name);
        if (now != NULL && strcmp(now, env[i].value) == 0)
            continue;
        if (setenv(env[i].name, env[i].value, 1) == 0) {
            written++;
            glmux_log(GLMUX_LOG_SELECT, "set %s=%s for vendor \"%s\"", env[i].name,
                      env[i].value, cand->name);
        }
    }
    return written;
}

size_t glmux_select_launch_env(struct glmux_select *sel, const struct glmux_gpu *gpu,
                               struct glmux_select_env *out)
{
    size_t k = 0;

    if (gpu == NULL)
        return 0;
    out[k].name = "GLMUX_GPU";
    snprintf(out[k++].value, sizeof(out[0].value), "%s", gpu->tag);
    if (is_nvidia_driver(gpu->driver)) {
        if (gpu->is_default)
            return k;
        k += nvidia_env(sel, gpu, out + k);
        out[k].name = "__GLX_VENDOR_LIBRARY_NAME";
        snprintf(out[k++].value, sizeof(out[0].value), "nvidia");
        out[k].name = "__VK_LAYER_NV_optimus";
        snprintf(out[k++].value, sizeof(out[0].value), "NVIDIA_only");
    } else {
        out[k].name = "DRI_PRIME";
        snprintf(out[k++].value, sizeof(out[0].value), "%s", gpu->tag);
    }
    return k;
}
