/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: `glmux explain`. Decides through the very functions libEGL and libGLX call, with one
 * selector (so GPUs are enumerated once): glmux_select_egl_plan for the order libEGL loads its
 * vendors in, glmux_select_egl_display_order for the default display, glmux_select_glx_plan for
 * each X screen, glmux_select_vendor_lands for where each vendor would render. It then prints
 * the decisions with every rule considered, as text or JSON. When DISPLAY names a reachable X
 * server, each screen is listed with the vendor libGLX loads for it, the X server's own choice
 * included (x11.c: libX11 and libxcb-glx are loaded only then, with dlopen).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "select/select.h"
#include "util/env.h"

static const char *request_kind(enum glmux_gpu_request_kind k)
{
    switch (k) {
    case GLMUX_REQUEST_NONE: return "none";
    case GLMUX_REQUEST_DEFAULT: return "default";
    case GLMUX_REQUEST_INTEGRATED: return "integrated";
    case GLMUX_REQUEST_DISCRETE: return "discrete";
    case GLMUX_REQUEST_INDEX: return "index";
    case GLMUX_REQUEST_TAG: return "tag";
    case GLMUX_REQUEST_PCI_ID: return "pci-id";
    case GLMUX_REQUEST_NVIDIA: return "nvidia-offload";
    }
    return "?";
}

/* Where one EGL vendor would render, and what it would need to render on the GPU asked for. */
struct vendor_view {
    const char *name;
    const struct glmux_gpu *lands;   /* NULL: nowhere */
    bool serves_lands;               /* it serves the GPU it would render on */
    const char *by;                  /* the variable that sends it there, NULL: none */
    struct glmux_select_env need[GLMUX_SELECT_ENV_MAX];
    size_t n_need;
};

/* The vendor libGLX loads for one X screen. */
struct screen_view {
    const char *vendor;              /* NULL: none */
    const char *from;                /* which step named it */
    char names[256];                 /* the X server's GLX_VENDOR_NAMES_EXT */
};

/* Everything `glmux explain` decides, through the same calls libEGL and libGLX make. */
struct decision {
    struct glmux_select *sel;
    struct glmux_vendor_list vl, glx_vl;
    size_t *egl;                 /* indexes into vl.vendors, in load order */
    size_t n_egl;
    struct glmux_select_candidate *cands;   /* the EGL vendors in load order */
    bool enumerated_for_egl;     /* libEGL itself enumerates GPUs */
    struct glmux_select_choice choice;      /* the process's (the default GPU the reference) */
    const struct glmux_gpu_list *gpus;
    const struct glmux_gpu_request *req;
    struct vendor_view *views;
    struct glmux_select_display display;    /* the default EGL display */
    size_t *display_egl;         /* indexes into vl.vendors, in the display's order */
    const char *glx;             /* the GLX plan's first vendor with no display, NULL: server */
    bool glx_override;
    int screens;                 /* X screens, -1 when DISPLAY is not reachable */
    struct screen_view *screen;
    enum glmux_pixels_when pixels; /* when libGLX tries the pixels vendor (docs/remote.md) */
    char pixels_why[320];
};

static void decision_free(struct decision *d)
{
    free(d->egl);
    free(d->cands);
    free(d->views);
    free(d->screen);
    free(d->display_egl);
    glmux_vendor_list_clear(&d->vl);
    glmux_vendor_list_clear(&d->glx_vl);
    glmux_select_free(d->sel);
}

static void decide_views(struct decision *d)
{
    const struct glmux_gpu *ref = d->choice.reference;

    for (size_t i = 0; i < d->n_egl; i++) {
        struct vendor_view *v = &d->views[i];
        bool nvidia = strcmp(d->cands[i].name, "nvidia") == 0;

        v->lands = glmux_select_vendor_lands(d->sel, v->name, ref);
        v->serves_lands = glmux_select_candidate_serves(&d->cands[i], v->lands);
        v->by = nvidia ? (glmux_env_get_flag("__NV_PRIME_RENDER_OFFLOAD")
                          ? "__NV_PRIME_RENDER_OFFLOAD" : NULL)
                       : (glmux_env_get("DRI_PRIME") && *glmux_env_get("DRI_PRIME")
                          ? "DRI_PRIME" : NULL);
        if (d->choice.asked != NULL && glmux_select_candidate_serves(&d->cands[i], d->choice.asked))
            v->n_need = glmux_select_vendor_env(d->sel, v->name, d->choice.asked, ref, v->need);
    }
}

/* libGLX's side: the plan for each screen, over one connection of the tool's own. */
static bool decide_glx(struct decision *d)
{
    struct glmux_glx_step plan[GLMUX_GLX_PLAN_MAX];
    void *dpy = glmux_cli_x11_open();
    int (*count)(void *) = NULL;

    *(void **)&count = glmux_cli_x11_sym("XScreenCount");
    d->screens = dpy != NULL && count != NULL ? count(dpy) : -1;
    if (d->screens < 0) {
        glmux_select_glx_plan(d->sel, NULL, 0, &d->glx_vl, plan);
        d->glx = plan[0].kind == GLMUX_GLX_STEP_VENDOR ? plan[0].name : NULL;
        d->glx_override = plan[0].override;
        glmux_cli_x11_close(dpy);
        return true;
    }
    d->screen = calloc((size_t)d->screens + 1, sizeof(*d->screen));
    if (d->screen == NULL) {
        glmux_cli_x11_close(dpy);
        return false;
    }
    for (int s = 0; s < d->screens; s++) {
        struct screen_view *v = &d->screen[s];
        const char *none;

        glmux_select_glx_plan(d->sel, dpy, s, &d->glx_vl, plan);
        if (s == 0)
            d->glx_override = plan[0].override;
        /* The pixels vendor, when its rule puts it first, is the screen's vendor like any
         * other (the rule's facts are the connection's: the same for every screen). */
        if (d->pixels == GLMUX_PIXELS_FIRST) {
            v->vendor = GLMUX_PIXELS_VENDOR_NAME;
            v->from = d->pixels_why;
            continue;
        }
        if (plan[0].kind == GLMUX_GLX_STEP_VENDOR) {
            v->vendor = plan[0].name;
            v->from = plan[0].why;
            continue;
        }
        /* The X server's choice: the first name it gives (libGLX then checks that it loads
         * and accepts the screen), else the fallbacks. */
        none = glmux_cli_x11_glx_vendors(dpy, d->screens, s, v->names, sizeof(v->names));
        if (none == NULL) {
            size_t n = strcspn(v->names, " ");
            v->names[n] = '\0';
            v->vendor = v->names;
            v->from = "named by the X server (GLX_VENDOR_NAMES_EXT)";
        } else {
            v->vendor = "indirect";
            v->from = none;
        }
    }
    glmux_cli_x11_close(dpy);
    return true;
}

static bool decide_default_display(struct decision *d)
{
    size_t *order = calloc(d->n_egl + 1, sizeof(*order));

    d->display_egl = calloc(d->n_egl + 1, sizeof(*d->display_egl));
    if (order == NULL || d->display_egl == NULL) {
        free(order);
        return false;
    }
    /* As libEGL does for eglGetDisplay(EGL_DEFAULT_DISPLAY) (platform.c). */
    glmux_select_egl_display_order(d->sel, GLMUX_EGL_NONE, NULL, d->cands, d->n_egl, order,
                                   &d->display);
    for (size_t i = 0; i < d->n_egl; i++)
        d->display_egl[i] = d->egl[order[i]];
    free(order);
    return true;
}

static bool decide(struct decision *d)
{
    struct glmux_select_config cfg = { .keep_reasons = true };

    memset(d, 0, sizeof(*d));
    d->sel = glmux_select_new(&cfg);
    if (d->sel == NULL || !glmux_vendor_list_discover(&d->vl) ||
        !glmux_vendor_list_discover_glx(&d->glx_vl))
        return false;
    d->egl = calloc(d->vl.count + 1, sizeof(*d->egl));
    d->cands = calloc(d->vl.count + 1, sizeof(*d->cands));
    d->views = calloc(d->vl.count + 1, sizeof(*d->views));
    if (d->egl == NULL || d->cands == NULL || d->views == NULL)
        return false;
    /* The same calls, in the same order, as libEGL and libGLX make. */
    d->n_egl = glmux_select_egl_plan(d->sel, &d->vl, d->egl);
    d->enumerated_for_egl = glmux_select_enumerated(d->sel);
    for (size_t i = 0; i < d->n_egl; i++) {
        d->cands[i] = glmux_select_candidate_of(&d->vl.vendors[d->egl[i]]);
        d->views[i].name = d->cands[i].name;
    }
    d->pixels = glmux_cli_explain_remote(d->sel, &d->glx_vl, d->pixels_why,
                                         sizeof(d->pixels_why));
    if (!decide_default_display(d) || !decide_glx(d))
        return false;
    d->req = glmux_select_request(d->sel);
    /* Where the libraries do not look at the GPUs, neither does explain (`glmux gpus` does). */
    if (!glmux_select_enumerated(d->sel))
        return true;
    d->gpus = glmux_select_gpus(d->sel);
    /* The default display's choice: its own GPU the reference when it was asked and known. */
    glmux_select_choose(d->sel, d->display.known ? glmux_gpu_list_find(d->gpus, d->display.tag)
                                                 : NULL, d->cands, d->n_egl, &d->choice);
    decide_views(d);
    return true;
}

static void json_gpu_brief(struct glmux_jw *w, const char *key, const struct glmux_gpu *g,
                           const char *vendor)
{
    if (g == NULL) {
        glmux_jw_string(w, key, NULL);
        return;
    }
    glmux_jw_object(w, key);
    glmux_cli_json_gpu_fields(w, g, vendor);
    glmux_jw_end(w, '}');
}

static void print_json(const struct decision *d)
{
    const struct glmux_gpu_list *gl = d->gpus;
    const struct glmux_gpu *def = gl && gl->default_index >= 0 ? &gl->gpus[gl->default_index]
                                                               : NULL;
    struct glmux_jw w;

    glmux_jw_init(&w, stdout);
    glmux_jw_object(&w, NULL);
    if (d->req->kind == GLMUX_REQUEST_NONE) {
        glmux_jw_string(&w, "request", NULL);
    } else {
        glmux_jw_object(&w, "request");
        glmux_jw_string(&w, "variable", d->req->variable);
        glmux_jw_string(&w, "value", d->req->value);
        glmux_jw_string(&w, "kind", request_kind(d->req->kind));
        glmux_jw_bool(&w, "exclusive", d->req->exclusive);
        if (gl != NULL)
            glmux_jw_bool(&w, "matched", !d->choice.unmet);
        else
            glmux_jw_string(&w, "matched", NULL);   /* the GPUs were not looked at */
        glmux_jw_string(&w, "unmet_reason", d->choice.unmet ? d->choice.why : NULL);
        glmux_jw_end(&w, '}');
    }
    json_gpu_brief(&w, "gpu", d->choice.gpu, d->choice.vendor);
    json_gpu_brief(&w, "asked_gpu", d->choice.asked, glmux_cli_gpu_vendor(&d->vl, d->choice.asked));
    json_gpu_brief(&w, "default_gpu", def, glmux_cli_gpu_vendor(&d->vl, def));
    glmux_jw_bool(&w, "gpus_looked_at", gl != NULL);
    glmux_jw_int(&w, "gpu_count", gl != NULL ? (long)gl->count : 0);
    glmux_jw_bool(&w, "enumerated_for_egl", d->enumerated_for_egl);
    glmux_jw_string(&w, "egl_override", d->vl.override_variable);
    glmux_jw_array(&w, "egl_vendors");
    for (size_t i = 0; i < d->n_egl; i++)
        glmux_jw_string(&w, NULL, d->vl.vendors[d->egl[i]].name);
    glmux_jw_end(&w, ']');
    glmux_jw_object(&w, "vendors");
    for (size_t i = 0; i < d->n_egl; i++) {
        const struct vendor_view *v = &d->views[i];

        glmux_jw_object(&w, v->name);
        glmux_jw_string(&w, "renders_on", v->lands && v->serves_lands ? v->lands->tag : NULL);
        glmux_jw_string(&w, "by", v->by);
        glmux_jw_object(&w, "needs");
        for (size_t j = 0; j < v->n_need; j++)
            glmux_jw_string(&w, v->need[j].name, v->need[j].value);
        glmux_jw_end(&w, '}');
        glmux_jw_end(&w, '}');
    }
    glmux_jw_end(&w, '}');
    if (!d->display.asked) {
        glmux_jw_string(&w, "default_display", NULL);
    } else {
        glmux_jw_object(&w, "default_display");
        glmux_jw_string(&w, "how", d->display.how);
        glmux_jw_string(&w, "gpu", d->display.known ? d->display.tag : NULL);
        glmux_jw_string(&w, "why", d->display.why);
        glmux_jw_array(&w, "egl_vendors");
        for (size_t i = 0; i < d->n_egl; i++)
            glmux_jw_string(&w, NULL, d->vl.vendors[d->display_egl[i]].name);
        glmux_jw_end(&w, ']');
        glmux_jw_end(&w, '}');
    }
    glmux_jw_object(&w, "glx");
    glmux_jw_string(&w, "vendor", d->screens >= 0 ? (d->screens > 0 ? d->screen[0].vendor : NULL)
                                                  : d->glx);
    glmux_jw_bool(&w, "override", d->glx_override);
    glmux_jw_bool(&w, "pixels", d->pixels == GLMUX_PIXELS_FIRST);
    glmux_jw_string(&w, "pixels_when", d->pixels == GLMUX_PIXELS_FIRST ? "first"
                                       : d->pixels == GLMUX_PIXELS_FALLBACK ? "fallback"
                                                                             : "never");
    glmux_jw_string(&w, "pixels_reason", d->pixels_why);
    glmux_jw_array(&w, "screens");
    for (int s = 0; s < d->screens; s++) {
        glmux_jw_object(&w, NULL);
        glmux_jw_int(&w, "screen", s);
        glmux_jw_string(&w, "vendor", d->screen[s].vendor);
        glmux_jw_string(&w, "from", d->screen[s].from);
        glmux_jw_end(&w, '}');
    }
    glmux_jw_end(&w, ']');
    glmux_jw_end(&w, '}');
    glmux_jw_array(&w, "reasons");
    for (size_t i = 0; i < glmux_select_reason_count(d->sel); i++)
        glmux_jw_string(&w, NULL, glmux_select_reason(d->sel, i));
    glmux_jw_end(&w, ']');
    glmux_jw_end(&w, '}');
    glmux_jw_finish(&w);
}

static void print_gpu_line(const char *label, const struct glmux_gpu *g, const char *note)
{
    printf("%s%s %04x:%04x driver %s%s\n", label, g->tag, g->vendor_id, g->device_id,
           g->driver[0] ? g->driver : "(none)", note);
}

static void print_views(const struct decision *d)
{
    for (size_t i = 0; i < d->n_egl; i++) {
        const struct vendor_view *v = &d->views[i];

        if (v->lands == NULL)
            printf("             %s renders nowhere here (%s names no GPU it serves)\n", v->name,
                   v->by ? v->by : "nothing");
        else if (!v->serves_lands)
            printf("             %s cannot render on %s, the GPU it would use (%s)\n", v->name,
                   v->lands->tag, v->by ? v->by : "no variable sends it elsewhere");
        else
            printf("             %s renders on %s (%s)\n", v->name, v->lands->tag,
                   v->by ? v->by : "no variable sends it elsewhere");
        for (size_t j = 0; j < v->n_need; j++)
            printf("             %s needs %s=%s for %s: `glmux run --gpu %s` sets it\n", v->name,
                   v->need[j].name, v->need[j].value, d->choice.asked->tag,
                   d->choice.asked->tag);
    }
}

static void print_text(const struct decision *d)
{
    const struct glmux_select_choice *c = &d->choice;

    if (d->req->kind == GLMUX_REQUEST_NONE)
        printf("asked for:   nothing (the default GPU)\n");
    else
        printf("asked for:   %s=%s\n", d->req->variable, d->req->value);
    if (d->gpus == NULL)
        printf("GPU:         not looked at: neither libEGL nor libGLX needs to (one EGL vendor, "
               "no variable asks for a GPU); `glmux gpus` lists them\n");
    else if (c->gpu != NULL)
        print_gpu_line("GPU:         ", c->gpu, c->gpu->is_default ? " (the default GPU)" : "");
    else if (d->gpus->sysfs_missing)
        printf("GPU:         none: GPUs cannot be enumerated here (%s)\n", d->gpus->problem);
    else
        printf("GPU:         none found (libdrm lists %s)\n",
               d->gpus->count ? "no GPU that renders" : "no DRM device");
    if (c->unmet && c->asked != NULL)
        printf("             not %s, the GPU asked for: %s\n", c->asked->tag, c->why);
    else if (c->unmet)
        printf("             the request is not met: %s\n", c->why);
    printf("EGL vendors:");
    for (size_t i = 0; i < d->n_egl; i++)
        printf(" %s", d->vl.vendors[d->egl[i]].name);
    printf("%s\n", d->n_egl ? "" : " (none installed)");
    if (d->gpus != NULL)
        print_views(d);
    if (d->display.asked && d->display.known) {
        printf("EGL default display: GPU %s (%s): %s\n             vendors:", d->display.tag,
               d->display.how, d->display.why);
        for (size_t i = 0; i < d->n_egl; i++)
            printf(" %s", d->vl.vendors[d->display_egl[i]].name);
        printf("\n");
    } else if (d->display.asked) {
        printf("EGL default display: GPU unknown (%s; %s); the vendor order above\n",
               d->display.how, d->display.why);
    }
    if (d->screens < 0) {
        printf("GLX vendor:  %s\n", d->glx ? d->glx : "the X server's choice, for every screen");
        printf("X screens:   DISPLAY not reachable; not listed\n");
    }
    for (int s = 0; s < d->screens; s++)
        printf("X screen %d:  vendor \"%s\" (%s)\n", s, d->screen[s].vendor, d->screen[s].from);
    printf("GLX pixels:  %s (%s; docs/remote.md)\n",
           d->pixels == GLMUX_PIXELS_FIRST
               ? "vendor \"" GLMUX_PIXELS_VENDOR_NAME "\" renders here with EGL and sends the "
                 "frames as images"
           : d->pixels == GLMUX_PIXELS_FALLBACK
               ? "vendor \"" GLMUX_PIXELS_VENDOR_NAME "\" only if the X server's vendors fail"
               : "not used", d->pixels_why);
    printf("why:\n");
    for (size_t i = 0; i < glmux_select_reason_count(d->sel); i++)
        printf("  - %s\n", glmux_select_reason(d->sel, i));
}

int glmux_cli_explain(bool json)
{
    struct decision d;

    if (!decide(&d)) {
        fprintf(stderr, "glmux: out of memory\n");
        decision_free(&d);
        return GLMUX_EXIT_FAIL;
    }
    if (json)
        print_json(&d);
    else
        print_text(&d);
    decision_free(&d);
    return GLMUX_EXIT_OK;
}
