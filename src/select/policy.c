/* SPDX-License-Identifier: MIT */
/*
 * glmux: the selector object. Reads every GPU variable once, in glmux_select_new, into one
 * request by one precedence: the tool's --gpu, then a program's own request in the variables
 * launchers set (__NV_PRIME_RENDER_OFFLOAD=1 as prime-run, Steam and switcheroo-control's NVIDIA
 * entry set it, then DRI_PRIME, switcheroo-control's entry for other GPUs), then glmux's
 * session-wide GLMUX_GPU; every variable it overrules is recorded with what overruled it.
 * Enumerates the GPUs on first need, from any thread (one at a time, under the enumeration
 * lock), and publishes the list once; records the reasons (shown by `glmux explain`, logged under
 * GLMUX_DEBUG=select) in a lock-free list, each text once.
 */
#define _GNU_SOURCE
#include "select/policy.h"
#include "select/gpu_enum.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/env.h"
#include "util/log.h"

struct glmux_select_reason {
    struct glmux_select_reason *next;
    char text[];
};

/* What glmux_select_gpus gives when a list cannot even be allocated. */
static const struct glmux_gpu_list no_memory = {
    .default_index = -1,
    .default_rule = "no GPU",
    .sysfs_missing = true,
    .problem = "out of memory",
};

/* Whether the list from r on holds text. */
static bool recorded(const struct glmux_select_reason *r, const char *text)
{
    for (; r != NULL; r = r->next)
        if (strcmp(r->text, text) == 0)
            return true;
    return false;
}

void glmux_select_note(struct glmux_select *sel, unsigned category, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    struct glmux_select_reason *r, *head;
    size_t len;

    /* Formatting costs more than deciding: skip it unless somebody will read it. */
    if (!sel->keep_reasons && (sel->quiet || !glmux_log_enabled(category)))
        return;
    va_start(ap, fmt);
    glmux_log_mark_cut(buf, sizeof(buf), vsnprintf(buf, sizeof(buf), fmt, ap));
    va_end(ap);
    head = __atomic_load_n(&sel->reasons, __ATOMIC_ACQUIRE);
    if (recorded(head, buf))
        return;
    len = strlen(buf) + 1;
    r = malloc(sizeof(*r) + len);
    if (r == NULL)
        return;
    memcpy(r->text, buf, len);
    /* Pushed only onto the list it was checked against: a text is recorded (and logged) once,
     * whichever threads give it at the same moment. */
    for (;;) {
        r->next = head;
        if (__atomic_compare_exchange_n(&sel->reasons, &head, r, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            break;
        if (recorded(head, buf)) {
            free(r);
            return;
        }
    }
    if (!sel->quiet)
        glmux_log(category, "%s", buf);
}

const char *glmux_select_env_value(const struct glmux_select *sel, const char *name)
{
    const char *v = sel->getenv(name);

    return (v != NULL && *v != '\0') ? v : NULL;
}

const char *glmux_select_getenv(const struct glmux_select *sel, const char *name)
{
    return glmux_select_env_value(sel, name);
}

const char *glmux_select_egl_override(const struct glmux_select *sel)
{
    if (glmux_select_env_value(sel, "__EGL_VENDOR_LIBRARY_FILENAMES") != NULL)
        return "__EGL_VENDOR_LIBRARY_FILENAMES";
    if (glmux_select_env_value(sel, "__EGL_VENDOR_LIBRARY_DIRS") != NULL)
        return "__EGL_VENDOR_LIBRARY_DIRS";
    return NULL;
}

/* The NVIDIA pair: __NV_PRIME_RENDER_OFFLOAD (a number other than 0, as NVIDIA's driver reads
 * it) and the provider NVIDIA-G<n>. */
static void read_nvidia(struct glmux_select *sel, const char *nv)
{
    const char *provider = glmux_select_env_value(sel, "__NV_PRIME_RENDER_OFFLOAD_PROVIDER");
    unsigned n = 0;

    sel->nv_offload = nv != NULL && strtol(nv, NULL, 10) != 0;
    if (!sel->nv_offload)
        return;
    if (provider != NULL && sscanf(provider, "NVIDIA-G%u", &n) != 1) {
        glmux_select_note(sel, GLMUX_LOG_WARN, "ignoring __NV_PRIME_RENDER_OFFLOAD_PROVIDER="
                          "\"%s\": expected NVIDIA-G<n>", provider);
        n = 0;
    }
    sel->nv.kind = GLMUX_REQUEST_NVIDIA;
    sel->nv.index = n;
    sel->nv.variable = "__NV_PRIME_RENDER_OFFLOAD";
    snprintf(sel->nv.value, sizeof(sel->nv.value), "%s", nv);
}

static void read_request(struct glmux_select *sel, const char *spec)
{
    struct source {
        const char *name;     /* NULL: the tool's --gpu */
        const char *value;
        const char *kind;     /* for the "overruled" reason */
    } sources[] = {
        { "--gpu", spec, "the command line" },
        { "__NV_PRIME_RENDER_OFFLOAD", NULL, "a program's own request" },
        { "DRI_PRIME", glmux_select_env_value(sel, "DRI_PRIME"), "a program's own request" },
        { "GLMUX_GPU", glmux_select_env_value(sel, "GLMUX_GPU"), "the session's default" },
    };
    const char *nv = glmux_select_env_value(sel, "__NV_PRIME_RENDER_OFFLOAD");
    const struct source *decided = NULL;

    read_nvidia(sel, nv);
    if (sel->nv_offload)
        sources[1].value = nv;
    if (sources[2].value != NULL) {
        glmux_gpu_request_parse_dri_prime(sources[2].value, &sel->dri_prime);
        sel->dri_prime.variable = "DRI_PRIME";
        if (sel->dri_prime.note[0] != '\0')
            glmux_select_note(sel, GLMUX_LOG_WARN, "DRI_PRIME=%s: %s", sources[2].value,
                              sel->dri_prime.note);
    }
    for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
        const struct source *s = &sources[i];
        char err[200];

        if (s->value == NULL)
            continue;
        if (decided != NULL) {
            if (strcmp(decided->kind, s->kind) == 0)
                glmux_select_note(sel, GLMUX_LOG_SELECT, "%s=%s ignored: %s=%s takes precedence "
                                  "(both are %s; %s comes first)", s->name, s->value,
                                  decided->name, decided->value, s->kind, decided->name);
            else
                glmux_select_note(sel, GLMUX_LOG_SELECT, "%s=%s ignored: %s=%s takes precedence "
                                  "(%s wins over %s)", s->name, s->value, decided->name,
                                  decided->value, decided->kind, s->kind);
            continue;
        }
        decided = s;
        if (i == 1) {
            sel->request = sel->nv;
        } else if (i == 2) {
            sel->request = sel->dri_prime;
        } else if (!glmux_gpu_request_parse(s->value, &sel->request, err, sizeof(err))) {
            glmux_select_note(sel, GLMUX_LOG_WARN, "ignoring %s=\"%s\": %s; using the default "
                              "GPU", s->name, s->value, err);
            sel->request.kind = GLMUX_REQUEST_DEFAULT;
        }
        sel->request.variable = s->name;
        glmux_select_note(sel, GLMUX_LOG_SELECT, "%s=%s asks for %s", s->name, s->value,
                          i == 1 ? "an NVIDIA GPU with render offload" : "a GPU");
    }
    if (decided == NULL)
        glmux_select_note(sel, GLMUX_LOG_SELECT, "no variable asks for a GPU "
                          "(__NV_PRIME_RENDER_OFFLOAD, DRI_PRIME, GLMUX_GPU are unset)");
}

struct glmux_select *glmux_select_new(const struct glmux_select_config *config)
{
    struct glmux_select *sel = calloc(1, sizeof(*sel));

    if (sel == NULL)
        return NULL;
    sel->getenv = (config && config->getenv) ? config->getenv : glmux_env_get;
    sel->keep_reasons = config != NULL && config->keep_reasons;
    sel->quiet = config != NULL && config->quiet;
    read_request(sel, config ? config->gpu_spec : NULL);
    return sel;
}

void glmux_select_free(struct glmux_select *sel)
{
    struct glmux_select_reason *r;

    if (sel == NULL)
        return;
    if (sel->gpus != NULL) {
        glmux_gpu_list_clear(sel->gpus);
        free(sel->gpus);
    }
    r = sel->reasons;
    while (r != NULL) {
        struct glmux_select_reason *next = r->next;

        free(r);
        r = next;
    }
    free(sel);
}

const struct glmux_gpu_request *glmux_select_request(const struct glmux_select *sel)
{
    return &sel->request;
}

bool glmux_select_enumerated(const struct glmux_select *sel)
{
    return __atomic_load_n(&sel->gpus, __ATOMIC_ACQUIRE) != NULL;
}

const struct glmux_gpu_list *glmux_select_gpus_if_enumerated(const struct glmux_select *sel)
{
    return __atomic_load_n(&sel->gpus, __ATOMIC_ACQUIRE);
}

void glmux_select_keep_reasons(struct glmux_select *sel)
{
    if (sel != NULL)
        sel->keep_reasons = true;
}

size_t glmux_select_reason_count(const struct glmux_select *sel)
{
    size_t n = 0;

    for (const struct glmux_select_reason *r = __atomic_load_n(&sel->reasons, __ATOMIC_ACQUIRE);
         r != NULL; r = r->next)
        n++;
    return n;
}

const char *glmux_select_reason(const struct glmux_select *sel, size_t i)
{
    size_t n = glmux_select_reason_count(sel);
    const struct glmux_select_reason *r = __atomic_load_n(&sel->reasons, __ATOMIC_ACQUIRE);

    if (i >= n)
        return NULL;
    for (size_t k = n - 1; k > i; k--)   /* newest first */
        r = r->next;
    return r->text;
}

/* The reasons that describe a freshly enumerated list (given once, by the thread that
 * published it). */
static void describe(struct glmux_select *sel, const struct glmux_gpu_list *l)
{
    bool asked = sel->request.kind > GLMUX_REQUEST_DEFAULT;

    if (l->sysfs_missing)
        glmux_select_note(sel, asked ? GLMUX_LOG_WARN : GLMUX_LOG_SELECT, "cannot enumerate "
                          "GPUs: %s; no GPU can be chosen, vendors keep their order", l->problem);
    else if (l->problem[0] != '\0')
        glmux_select_note(sel, GLMUX_LOG_WARN, "%s", l->problem);
    if (l->no_udev)
        glmux_select_note(sel, asked ? GLMUX_LOG_WARN : GLMUX_LOG_SELECT, "libudev is missing: "
                          "the GPUs' driver and boot flags come from sysfs; udev rules (GLMUX_*) "
                          "and ID_PATH_TAG do not apply (install libudev1 to use them)");
    if (l->no_udev_record[0] != '\0')
        glmux_select_note(sel, asked ? GLMUX_LOG_WARN : GLMUX_LOG_SELECT, "udev has no record "
                          "of %s (no udev database: /run/udev missing, as in a container?); udev "
                          "rules (GLMUX_*) and ID_PATH_TAG do not apply, libdrm and sysfs decide "
                          "(bind-mount /run/udev read-only to use them)", l->no_udev_record);
    if (!l->sysfs_missing && l->count == 0)
        glmux_select_note(sel, GLMUX_LOG_SELECT, "no GPU found (libdrm lists no DRM device)");
    if (l->ignored[0] != '\0')
        glmux_select_note(sel, GLMUX_LOG_SELECT, "hidden by the udev property GLMUX_IGNORE=1: %s",
                          l->ignored);
    for (size_t i = 0; i < l->count; i++) {
        const struct glmux_gpu *g = &l->gpus[i];
        glmux_select_note(sel, GLMUX_LOG_SELECT, "GPU %zu: %s %04x:%04x driver %s, %s%s%s%s%s%s%s",
                          i, g->tag, g->vendor_id, g->device_id,
                          g->driver[0] ? g->driver : "(none)", glmux_gpu_kind_name(g->kind),
                          g->kind_from_udev ? " (udev property GLMUX_GPU_CLASS)" : "",
                          g->vendor[0] ? ", vendor " : "", g->vendor,
                          g->vendor[0] ? " (udev property GLMUX_VENDOR)" : "",
                          g->boot_display ? ", boot_display" : "", g->boot_vga ? ", boot_vga" : "");
    }
    if (l->default_index >= 0)
        glmux_select_note(sel, GLMUX_LOG_SELECT, "default GPU: %s (rule: %s)",
                          l->gpus[l->default_index].tag, l->default_rule);
    else if (l->count > 0)
        glmux_select_note(sel, GLMUX_LOG_SELECT, "no default GPU: no GPU has a render node");
}

const struct glmux_gpu_list *glmux_select_gpus(struct glmux_select *sel)
{
    struct glmux_gpu_list *l = __atomic_load_n(&sel->gpus, __ATOMIC_ACQUIRE), *mine = NULL;

    if (l != NULL)
        return l;
    /* One thread enumerates (libudev and libdrm are asked by one thread at a time, under the
     * enumeration lock, which is held across nothing but them); the others wait for it and
     * take its list. */
    glmux_gpu_enum_lock();
    l = __atomic_load_n(&sel->gpus, __ATOMIC_ACQUIRE);
    if (l == NULL && (mine = calloc(1, sizeof(*mine))) != NULL) {
        if (glmux_gpu_list_enumerate(mine))
            __atomic_store_n(&sel->gpus, mine, __ATOMIC_RELEASE);
        else
            free(mine), mine = NULL;
    }
    glmux_gpu_enum_unlock();
    if (l != NULL)
        return l;
    if (mine == NULL) {
        glmux_select_note(sel, GLMUX_LOG_WARN, "out of memory while enumerating GPUs");
        return &no_memory;
    }
    describe(sel, mine);
    return mine;
}
