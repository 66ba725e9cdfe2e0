/* SPDX-License-Identifier: MIT */
/*
 * glmux: the vendor orders, each the one rule libEGL, libGLX and `glmux explain` all follow. The
 * EGL order of the process (the default GPU's choice: glmux_select_choose), the EGL order of one
 * display (the same rule with the display's GPU as the reference, the display asked only when
 * its answer can change the order), and the GLX steps of one X screen. A display is asked only
 * when two GPUs taken as the reference would give different orders; a connection of glmux's own
 * is opened only when no variable asks for a GPU, so a variable never costs an X connection.
 */
#define _GNU_SOURCE
#include "select/policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/env.h"
#include "util/log.h"

#define MAX_CANDS 64

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

/* The vendors that serve the choice's GPU first, the others after (unless exclusive), each
 * group in the given order; the identity when none serves it. Returns how many are valid;
 * *served gets how many serve it. */
static size_t order_for(const struct glmux_select_choice *c,
                        const struct glmux_select_candidate *cands, size_t n, bool exclusive,
                        size_t *order, size_t *served)
{
    size_t k = 0;

    for (size_t i = 0; c->gpu != NULL && i < n; i++)
        if (glmux_select_candidate_serves(&cands[i], c->gpu))
            order[k++] = i;
    *served = k;
    if (k == 0) {
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        return n;
    }
    return exclusive && c->exclusive ? k : append_unplaced(order, k, n);
}

static void join_names(const struct glmux_select_candidate *cands, const size_t *order, size_t k,
                       char *names, size_t size)
{
    names[0] = '\0';
    for (size_t i = 0; i < k; i++)
        snprintf(names + strlen(names), size - strlen(names), "%s%s", i ? ", " : "",
                 cands[order[i]].name);
}

size_t glmux_select_egl_vendor_order(struct glmux_select *sel,
                                     const struct glmux_select_candidate *cands, size_t n,
                                     size_t *order)
{
    const char *override = glmux_select_egl_override(sel);
    struct glmux_select_vendors v = { cands, n };
    struct glmux_select_survey s;
    struct glmux_select_choice c;
    char names[400];
    size_t k, served;

    for (size_t i = 0; i < n; i++)
        order[i] = i;
    if (override != NULL) {
        glmux_select_note(sel, GLMUX_LOG_SELECT, "EGL vendor order left as given: %s is set "
                          "(libglvnd's override wins)", override);
        return n;
    }
    if (n < 2 && sel->request.kind == GLMUX_REQUEST_NONE) {
        glmux_select_note(sel, GLMUX_LOG_SELECT, "libEGL does not look at the GPUs: %zu EGL "
                          "vendor(s) and no variable asks for a GPU", n);
        return n;
    }
    /* The process's order has no display: the default GPU is the reference. Where the
     * display's GPU would meet a request the default GPU does not, the warning waits for the
     * display (glmux_select_egl_display_order), which is asked then. */
    glmux_select_survey(sel, &v, &s);
    glmux_select_decide(sel, NULL, &v, glmux_select_survey_asks(&s) && s.unmet_differs
                                           ? GLMUX_RECORD_NOTE : GLMUX_RECORD_WARN, &c);
    if (c.gpu == NULL)
        return n;
    /* '!' drops the other vendors only where no display's GPU can change the choice: a display
     * asked later needs them all to order. */
    k = order_for(&c, cands, n, !glmux_select_survey_asks(&s), order, &served);
    if (served == 0) {
        glmux_select_note(sel, c.unmet || sel->request.kind > GLMUX_REQUEST_DEFAULT
                                   ? GLMUX_LOG_WARN : GLMUX_LOG_SELECT,
                          "no installed EGL vendor serves GPU %s (driver %s); vendors keep their "
                          "order", c.gpu->tag, c.gpu->driver[0] ? c.gpu->driver : "none");
        return n;
    }
    join_names(cands, order, k, names, sizeof(names));
    glmux_select_note(sel, GLMUX_LOG_SELECT, "EGL vendor order: %s (%s serves %s, driver %s%s)",
                      names, cands[order[0]].name, c.gpu->tag, c.gpu->driver,
                      k < n ? "; '!' keeps only its vendors" : "");
    return k;
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
        glmux_select_note(sel, GLMUX_LOG_WARN, "out of memory ordering the EGL vendors; they keep "
                          "their base order");
    }
    free(cands);
    free(index);
    free(o);
    return k;
}

void glmux_select_survey(struct glmux_select *sel, const struct glmux_select_vendors *v,
                         struct glmux_select_survey *out)
{
    const struct glmux_gpu_list *l = glmux_select_gpus(sel);
    size_t first[MAX_CANDS], now[MAX_CANDS], served;
    bool have = false, first_unmet = false;
    const char *vendor0 = NULL;

    memset(out, 0, sizeof(*out));
    out->one_vendor = true;
    for (size_t i = 0; i < l->count; i++) {
        struct glmux_select_choice c;
        const char *vendor;

        if (!glmux_gpu_renders(&l->gpus[i]))
            continue;
        vendor = glmux_select_vendor_of(v, &l->gpus[i]);
        if (have && (vendor == NULL || vendor0 == NULL ? vendor != vendor0
                                                       : strcmp(vendor, vendor0) != 0))
            out->one_vendor = false;
        vendor0 = have ? vendor0 : vendor;
        glmux_select_decide(sel, &l->gpus[i], v, GLMUX_RECORD_NONE, &c);
        if (v->cands != NULL && v->n <= MAX_CANDS) {
            order_for(&c, v->cands, v->n, false, have ? now : first, &served);
            if (have && memcmp(now, first, v->n * sizeof(now[0])) != 0)
                out->order_differs = true;
        }
        if (have && c.unmet != first_unmet)
            out->unmet_differs = true;
        if (!have)
            first_unmet = out->all_unmet = c.unmet;
        out->all_unmet &= c.unmet;
        have = true;
    }
}

/*
 * Whether the display's GPU can change the EGL order, or whether the request is met (and so
 * whether a warning is true): two render GPUs, each taken as the reference, differ in either.
 */
static bool display_matters(struct glmux_select *sel, const struct glmux_select_vendors *v)
{
    struct glmux_select_survey s;

    if (v->cands == NULL || v->n > MAX_CANDS)
        return false;
    glmux_select_survey(sel, v, &s);
    return glmux_select_survey_asks(&s);
}

/*
 * The vendor that serves an X screen whichever render GPU the screen is on, when that is one
 * vendor: the selector's vendor where the request reaches a GPU other than the screen's, the
 * vendor of the screen's own GPU (what its X server names) elsewhere; NULL when no GPU renders
 * or no vendor serves them. *differ: the answers differ (NULL returned), so the X server must be
 * asked which GPU the screen is on. *step: whether, for some screen GPU, the answer is a vendor
 * the X server would not name (a step of the selector). *unmet_differs: the request is met on
 * one screen GPU and not on another (the display decides whether a warning is true).
 */
static const char *glx_whatever_gpu(struct glmux_select *sel,
                                    const struct glmux_select_vendors *v, bool *differ,
                                    bool *step, bool *unmet_differs)
{
    const struct glmux_gpu_list *l = glmux_select_gpus(sel);
    const char *agreed = NULL;
    bool have = false, first_unmet = false;

    *differ = *step = *unmet_differs = false;
    for (size_t i = 0; i < l->count; i++) {
        const struct glmux_gpu *r = &l->gpus[i];
        struct glmux_select_choice c;
        const char *vendor;

        if (!glmux_gpu_renders(r))
            continue;
        glmux_select_decide(sel, r, v, false, &c);
        vendor = glmux_select_vendor_of(v, c.gpu != NULL ? c.gpu : r);
        *step |= c.gpu != NULL && c.gpu != r;
        *unmet_differs |= have && c.unmet != first_unmet;
        first_unmet = have ? first_unmet : c.unmet;
        if (have && (vendor == NULL || agreed == NULL ? vendor != agreed
                                                      : strcmp(vendor, agreed) != 0)) {
            *differ = true;
            return NULL;
        }
        agreed = vendor;
        have = true;
    }
    return agreed;
}

/* How a display of platform with native handle native is asked, or NULL (why says why not). */
static const char *how_to_ask(unsigned int platform, void *native,
                              enum glmux_display_server *server, char *why, size_t why_size)
{
    *server = GLMUX_DISPLAY_SERVER_NONE;
    if (native != NULL && platform == GLMUX_EGL_PLATFORM_X11) {
        *server = GLMUX_DISPLAY_SERVER_X11;
        return "the X server's DRI3 device, asked over the application's connection";
    }
    if (native != NULL && platform == GLMUX_EGL_PLATFORM_WAYLAND) {
        *server = GLMUX_DISPLAY_SERVER_WAYLAND;
        return GLMUX_DISPLAY_HOW_WAYLAND_APP;
    }
    if (native != NULL || (platform != GLMUX_EGL_NONE && platform != GLMUX_EGL_PLATFORM_X11 &&
                           platform != GLMUX_EGL_PLATFORM_WAYLAND)) {
        snprintf(why, why_size, "platform 0x%04x: the display is not asked for its GPU (a GBM "
                 "device or EGLDevice belongs to one vendor; surfaceless has no server)",
                 platform);
        return NULL;
    }
    /* The default display: the server EGL_PLATFORM chose, else DISPLAY's, else
     * WAYLAND_DISPLAY's (glmux_display_default_server). */
    *server = platform == GLMUX_EGL_PLATFORM_X11       ? GLMUX_DISPLAY_SERVER_X11
              : platform == GLMUX_EGL_PLATFORM_WAYLAND ? GLMUX_DISPLAY_SERVER_WAYLAND
                                                       : glmux_display_default_server(why,
                                                                                      why_size);
    if (*server == GLMUX_DISPLAY_SERVER_NONE)
        return NULL;
return *server == GLMUX_DISPLAY_SERVER_X11 ? GLMUX_DISPLAY_HOW_X11_OWN
                                               : GLMUX_DISPLAY_HOW_WAYLAND_OWN;
}

/*
 * The display's GPU stays unknown: the default GPU is the reference, and a request it leaves
 * unmet is warned about now (the process's order only noted it when another display GPU would
 * have met it).
 */
static void settle_on_default(struct glmux_select *sel, const struct glmux_select_vendors *v)
{
    struct glmux_select_choice c;

    if (sel->request.kind != GLMUX_REQUEST_NONE)
        glmux_select_decide(sel, NULL, v, GLMUX_RECORD_WARN, &c);
}

bool glmux_select_egl_display_order(struct glmux_select *sel, unsigned int platform,
                                    void *native, const struct glmux_select_candidate *cands,
                                    size_t n, size_t *order, struct glmux_select_display *info)
{
    struct glmux_select_vendors v = { cands, n };
    const struct glmux_gpu_list *l = glmux_select_gpus_if_enumerated(sel);
    const struct glmux_gpu *ref;
    struct glmux_select_choice c;
    enum glmux_display_server server;
    size_t served;
    bool moved = false;

    memset(info, 0, sizeof(*info));
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    snprintf(info->why, sizeof(info->why), "the process's vendor order");
    if (n > MAX_CANDS)
        return false;
    if (glmux_select_egl_override(sel) != NULL || l == NULL) {
        snprintf(info->why, sizeof(info->why), "the vendor list is %s; the display does not "
                 "reorder it", l == NULL ? "not ordered by GPU" : "libglvnd's");
        return false;
    }
    if (n < 2) {
        settle_on_default(sel, &v);
        return false;
    }
    info->how = how_to_ask(platform, native, &server, info->why, sizeof(info->why));
    if (info->how == NULL) {
        settle_on_default(sel, &v);
        return false;
    }
    if (!display_matters(sel, &v)) {
        info->how = NULL;
        snprintf(info->why, sizeof(info->why), "the display is not asked: whichever GPU it is "
                 "on, the vendor order is the same, and so is whether the request is met");
        return false;
    }
    info->asked = true;
    info->known = server == GLMUX_DISPLAY_SERVER_X11
                      ? glmux_display_x11_gpu(l, native, -1, info->tag, sizeof(info->tag),
                                              info->why, sizeof(info->why))
                      : glmux_display_wayland_gpu(l, native, info->tag, sizeof(info->tag),
                                                  info->why, sizeof(info->why));
    if (!info->known) {
        info->tag[0] = '\0';
        settle_on_default(sel, &v);
        return false;
    }
    ref = glmux_gpu_list_find(l, info->tag);
    if (!glmux_gpu_renders(ref)) {
        snprintf(info->why, sizeof(info->why), "the display's GPU %s is no render GPU glmux "
                 "knows; the process's vendor order", info->tag);
        settle_on_default(sel, &v);
        return false;
    }
    glmux_select_choose(sel, ref, cands, n, &c);
    order_for(&c, cands, n, false, order, &served);
    for (size_t i = 0; i < n; i++)
        moved |= order[i] != i;
    if (served == 0)
        snprintf(info->why, sizeof(info->why), "no vendor serves GPU %s (driver %s); the "
                 "process's vendor order", c.gpu->tag, c.gpu->driver[0] ? c.gpu->driver : "none");
    else
        snprintf(info->why, sizeof(info->why), "the display's GPU is %s; %s serves %s: %s first%s",
                 ref->tag, cands[order[0]].name, c.gpu->tag, cands[order[0]].name,
                 moved ? "" : ", as for the process");
    return moved;
}

static void add_step(struct glmux_glx_step *out, size_t *n, enum glmux_glx_step_kind kind,
                     const char *name, const char *why, bool check, bool override)
{
    struct glmux_glx_step step = { kind, name, why, check, override, NULL };

    out[(*n)++] = step;
}

static const char *sel_env(const struct glmux_select *sel, const char *name)
{
    const char *v;

    if (sel != NULL)
        return glmux_select_env_value(sel, name);
    v = glmux_env_get(name);
    return (v != NULL && *v != '\0') ? v : NULL;
}

/* How the notes name a screen: by number, or, with no X display (the tool without DISPLAY), as
 * any screen. */
static const char *glx_who(void *dpy, int screen, char *buf, size_t size)
{
    if (dpy != NULL)
        snprintf(buf, size, "GLX screen %d", screen);
    else
        snprintf(buf, size, "GLX (no X display open; any screen)");
    return buf;
}

/* The selector's vendor for an X screen when a variable asks for a GPU: a vendor name, or NULL
 * for "the X server's list". */
static const char *glx_choice(struct glmux_select *sel, void *dpy, int screen,
                              const struct glmux_vendor_list *vendors)
{
    struct glmux_select_candidate *cands = NULL;
    struct glmux_select_vendors v = { NULL, 0 };
    const struct glmux_gpu_list *l;
    const struct glmux_gpu *ref = NULL;
    struct glmux_select_choice c;
    const char *name = NULL, *agreed;
    char tag[80], why[256], who[80];
    bool differ, step, unmet_differs;

    glx_who(dpy, screen, who, sizeof(who));
    if (sel->request.kind == GLMUX_REQUEST_NONE) {
        glmux_select_note(sel, GLMUX_LOG_SELECT, "%s: the GPU selector names no vendor (no "
                          "variable asks for a GPU); the X server's list follows", who);
        return NULL;
    }
    if (vendors != NULL && vendors->count > 0 &&
        (cands = calloc(vendors->count, sizeof(*cands))) != NULL) {
        for (size_t i = 0; i < vendors->count; i++)
            cands[i] = glmux_select_candidate_of(&vendors->vendors[i]);
        v.cands = cands;
        v.n = vendors->count;
    }
    l = glmux_select_gpus(sel);
    agreed = glx_whatever_gpu(sel, &v, &differ, &step, &unmet_differs);
    if (unmet_differs) {
        struct glmux_select_survey s;

        /* Whether the request is met matters only where the GPUs' vendors differ. */
        glmux_select_survey(sel, &v, &s);
        unmet_differs = !s.one_vendor;
    }
    /* The screen's own GPU is the reference when it can change the vendor, or whether the
     * request is met (asked over the application's connection: no connection of glmux's own). */
    if (dpy != NULL && (differ || unmet_differs)) {
        if (glmux_display_x11_gpu(l, dpy, screen, tag, sizeof(tag), why, sizeof(why)))
            ref = glmux_gpu_list_find(l, tag);
        if (!glmux_gpu_renders(ref)) {
            ref = NULL;
            glmux_select_note(sel, GLMUX_LOG_SELECT, "%s: its GPU is unknown (%s); the "
                              "default GPU is the reference", who, why);
        }
    }
    /* One vendor whichever GPU the screen is on, and the screen's GPU unknown: named outright,
     * for the screen's GPU may be another than the default one (the X server then names
     * another vendor). The reasons (and the one warning) as for the default GPU, the
     * reference when the screen's is unknown. */
    if (agreed != NULL && step && ref == NULL) {
        glmux_select_decide(sel, NULL, &v, GLMUX_RECORD_WARN, &c);
        glmux_select_note(sel, GLMUX_LOG_SELECT, "%s: the GPU selector names vendor \"%s\" "
                          "(whichever GPU the screen is on, under %s=%s this vendor renders "
                          "for it)", who, agreed, sel->request.variable, sel->request.value);
        free(cands);
        return agreed;
    }
    glmux_select_decide(sel, ref, &v, GLMUX_RECORD_WARN, &c);
    if (c.gpu != NULL && c.gpu != c.reference && c.vendor != NULL) {
        /* The vendor list's name, or the GPU's served_by: both outlive cands. */
        name = c.vendor;
        glmux_select_note(sel, GLMUX_LOG_SELECT, "%s: the GPU selector names vendor \"%s\" "
                          "(it serves %s, driver %s; the screen's GPU is %s)", who, name,
                          c.gpu->tag, c.gpu->driver, c.reference->tag);
    } else {
        glmux_select_note(sel, GLMUX_LOG_SELECT, "%s: the GPU selector names no vendor (%s); "
                          "the X server's list follows",
                          who, c.gpu == NULL ? "no GPU known"
                          : c.unmet ? "the GPU asked for cannot be used; see above"
                                    : "the GPU asked for is the screen's own");
    }
    free(cands);
    return name;
}

size_t glmux_select_glx_plan(struct glmux_select *sel, void *dpy, int screen,
                             const struct glmux_vendor_list *vendors,
                             struct glmux_glx_step out[GLMUX_GLX_PLAN_MAX])
{
    char var[64], who[80];
    const char *force, *name, *choice = NULL;
    size_t n = 0;

    glx_who(dpy, screen, who, sizeof(who));
    snprintf(var, sizeof(var), "__GLX_FORCE_VENDOR_LIBRARY_%d", screen);
    force = sel_env(sel, var);
    name = sel_env(sel, "__GLX_VENDOR_LIBRARY_NAME");
    if (force != NULL)
        add_step(out, &n, GLMUX_GLX_STEP_VENDOR, force, "__GLX_FORCE_VENDOR_LIBRARY_<screen>",
                 false, true);
    if (name != NULL)
        add_step(out, &n, GLMUX_GLX_STEP_VENDOR, name, "__GLX_VENDOR_LIBRARY_NAME", false, true);
    if (sel != NULL && n > 0)
        glmux_select_note(sel, GLMUX_LOG_SELECT, "%s: vendor \"%s\" from %s (libglvnd's "
                          "override wins; the GPU selector has no say)", who, out[0].name,
                          force != NULL ? var : "__GLX_VENDOR_LIBRARY_NAME");
    if (sel != NULL && n == 0)
        choice = glx_choice(sel, dpy, screen, vendors);
    if (choice != NULL)
        add_step(out, &n, GLMUX_GLX_STEP_VENDOR, choice, "GPU selector", true, false);
    add_step(out, &n, GLMUX_GLX_STEP_SERVER, NULL, "named by the X server", true, false);
    add_step(out, &n, GLMUX_GLX_STEP_VENDOR, "indirect", "fallback", false, false);
    add_step(out, &n, GLMUX_GLX_STEP_VENDOR, "system", "fallback", false, false);
    return n;
}
