/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: `glmux explain`. Decides through the very functions libEGL and libGLX call, with one
 * selector (so GPUs are enumerated once): glmux_select_egl_plan for the order libEGL loads its
 * vendors in, glmux_select_egl_display_order for the default display, and for each X screen
 * glmux_select_glx_screen_plan, the plan libGLX follows (libglvnd's variables for that screen,
 * the selector's vendor, the pixels vendor's place, the X server's list, the fallbacks). Each
 * screen's plan is walked as libGLX walks it, a vendor counting as loaded when its library is
 * found where the dynamic loader would look (libcheck.c; the vendor's own isScreenSupported
 * cannot be asked without loading it). Where each EGL vendor renders comes from
 * glmux_select_vendor_lands, and what it reads from glmux_select_vendor_told_by: the one rule
 * of which variable a vendor reads lives in the selector. Every variable is read through the
 * selector (its getenv), every value printed inside a line is escaped (safe_out.h). Text or
 * JSON. The X display is opened through x11.c (libX11 and libxcb-glx loaded with dlopen, only
 * when DISPLAY is set).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "libcheck.h"
#include "safe_out.h"
#include "select/pixels_rule.h"
#include "select/select.h"

#define E(s) glmux_cli_esc(s)

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
    const struct glmux_gpu *lands;   /* NULL: on no GPU */
    bool serves_lands;               /* it serves the GPU it would render on */
    const char *by;                  /* the variable that sends it there, NULL: none */
    struct glmux_select_env need[GLMUX_SELECT_ENV_MAX];   /* not set yet */
    size_t n_need;
};

/* What libGLX loads for one X screen: its plan, walked. */
struct screen_view {
    struct glmux_glx_screen_plan plan;
    const char *vendor;              /* NULL: none */
    const char *from;                /* which step named it */
    char chosen[256];                /* the X server's names, cut into words */
    char names[256];                 /* the X server's GLX_VENDOR_NAMES_EXT */
    char passed[256];                /* vendors of the plan passed over (not installed) */
};

/* Everything `glmux explain` decides, through the same calls libEGL and libGLX make. */
struct decision {
    struct glmux_select *sel;
    struct glmux_vendor_list vl, glx_vl;
    size_t *egl;                 /* indexes into vl.vendors, in load order */
    size_t n_egl;
    struct glmux_select_candidate *cands;   /* the EGL vendors in load order */
    bool enumerated_for_egl;     /* libEGL itself enumerates GPUs */
    struct glmux_select_choice choice;      /* the default display's (its GPU the reference
                                               when known, else the default GPU) */
    const struct glmux_gpu_list *gpus;
    const struct glmux_gpu_request *req;
    bool any_render_gpu;         /* some GPU has a render node */
    struct vendor_view *views;
    struct glmux_select_display display;    /* the default EGL display */
    size_t *display_egl;         /* indexes into vl.vendors, in the display's order */
    const char *display_name;    /* DISPLAY, NULL when unset */
    int screens;                 /* X screens, -1 when there is no X display */
    struct glmux_glx_step any[GLMUX_GLX_PLAN_MAX];   /* no X display: the plan of any screen */
    struct screen_view *screen;
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

/* Whether the variable is set to exactly value (a need already met). */
static bool already_set(const struct decision *d, const struct glmux_select_env *e)
{
    const char *v = glmux_select_getenv(d->sel, e->name);

    return e->unset ? v == NULL : v != NULL && strcmp(v, e->value) == 0;
}

static void decide_views(struct decision *d)
{
    const struct glmux_gpu *ref = d->choice.reference;

    for (size_t i = 0; i < d->gpus->count; i++)
        d->any_render_gpu |= d->gpus->gpus[i].render_node[0] != '\0';
    for (size_t i = 0; i < d->n_egl; i++) {
        struct vendor_view *v = &d->views[i];
        struct glmux_select_env need[GLMUX_SELECT_ENV_MAX];
        size_t n = 0;

        v->lands = glmux_select_vendor_lands(d->sel, v->name, ref);
        v->serves_lands = glmux_select_candidate_serves(&d->cands[i], v->lands);
        v->by = glmux_select_vendor_told_by(d->sel, v->name);
        /* A vendor that lands on the GPU asked for already (its own variable says so, in
         * whatever form) needs nothing. */
        if (d->choice.asked != NULL && v->lands != d->choice.asked &&
            glmux_select_candidate_serves(&d->cands[i], d->choice.asked))
            n = glmux_select_vendor_env(d->sel, v->name, d->choice.asked, ref, need);
        /* Only what is not set yet is needed. */
        for (size_t j = 0; j < n; j++)
            if (!already_set(d, &need[j]))
                v->need[v->n_need++] = need[j];
    }
}

/* Whether libGLX would find vendor name's library (the manifest's, else libGLX_<name>.so.0). */
static bool glx_installed(const struct decision *d, const char *name)
{
    const struct glmux_vendor *v = glmux_vendor_list_find(&d->glx_vl, name);
    char lib[160], found[512], why[256];

    if (v != NULL && v->glx_library != NULL)
        snprintf(lib, sizeof(lib), "%s", v->glx_library);
    else
        snprintf(lib, sizeof(lib), "libGLX_%s.so.0", name);
    return glmux_cli_libcheck(lib, found, sizeof(found), why, sizeof(why)) == GLMUX_LIBCHECK_OK;
}

static void pass_over(struct screen_view *v, const char *name)
{
    size_t n = strlen(v->passed);

    snprintf(v->passed + n, sizeof(v->passed) - n, "%s%s", n ? ", " : "", name);
}

/* Walks one screen's plan as libGLX does (glx_display.c): the first vendor found serves. */
static void walk_plan(struct decision *d, void *dpy, int s, struct screen_view *v)
{
    for (size_t i = 0; i < v->plan.n; i++) {
        const struct glmux_glx_step *st = &v->plan.steps[i];
        const char *none;
        char *cursor, *tok;
        bool asked;

        if (st->kind == GLMUX_GLX_STEP_VENDOR) {
            if (glx_installed(d, st->name)) {
                v->vendor = st->name;
                v->from = st->why;
                return;
            }
            pass_over(v, st->name);
            continue;
        }
        none = glmux_cli_x11_glx_vendors(dpy, d->screens, s, v->names, sizeof(v->names), &asked);
        if (!asked)
            continue;
        snprintf(v->chosen, sizeof(v->chosen), "%s", v->names);
        cursor = v->chosen;
        while (none == NULL && (tok = strsep(&cursor, " ")) != NULL) {
            if (*tok == '\0')
                continue;
            if (glx_installed(d, tok)) {
                v->vendor = tok;
                v->from = "named by the X server (GLX_VENDOR_NAMES_EXT)";
                return;
            }
            pass_over(v, tok);
        }
        if (st->fallback != NULL && glx_installed(d, st->fallback)) {
            v->vendor = st->fallback;
            v->from = "no vendor the X server names is installed here";
            return;
        }
    }
    v->vendor = NULL;
    v->from = "no vendor of the plan is installed here";
}

/* libGLX's side: each screen's plan, over one connection of the tool's own. */
static bool decide_glx(struct decision *d)
{
    typedef int (*query_fn)(void *, const char *, int *, int *, int *);
    void *dpy = glmux_cli_x11_open();
    int (*count)(void *) = NULL, (*fd)(void *) = NULL;
    query_fn xquery;
    bool has_glx;
    int op, ev, er;

    d->display_name = glmux_select_getenv(d->sel, "DISPLAY");
    *(void **)&count = glmux_cli_x11_sym("XScreenCount");
    *(void **)&fd = glmux_cli_x11_sym("XConnectionNumber");
    xquery = (query_fn)glmux_cli_x11_sym("XQueryExtension");
    d->screens = dpy != NULL && count != NULL && fd != NULL && xquery != NULL ? count(dpy) : -1;
    if (d->screens < 0) {
        /* No X display: what libGLX would decide for a screen whose GPU it does not know. */
        glmux_select_glx_plan(d->sel, NULL, 0, &d->glx_vl, d->any);
        return true;
    }
    has_glx = xquery(dpy, "GLX", &op, &ev, &er) != 0;
    d->screen = calloc((size_t)d->screens + 1, sizeof(*d->screen));
    if (d->screen == NULL)
        return false;
    for (int s = 0; s < d->screens; s++) {
        struct screen_view *v = &d->screen[s];

        glmux_select_glx_screen_plan(d->sel, dpy, s, &d->glx_vl, has_glx, fd(dpy), &v->plan);
        walk_plan(d, dpy, s, v);
    }
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

static const char *pixels_when_name(enum glmux_pixels_when w)
{
    return w == GLMUX_PIXELS_FIRST ? "first" : w == GLMUX_PIXELS_FALLBACK ? "fallback" : "never";
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

static void json_glx(struct glmux_jw *w, const struct decision *d)
{
    const struct screen_view *s0 = d->screens > 0 ? &d->screen[0] : NULL;

    glmux_jw_object(w, "glx");
    glmux_jw_string(w, "vendor", s0 != NULL ? s0->vendor
                                 : d->screens < 0 && d->any[0].kind == GLMUX_GLX_STEP_VENDOR
                                     ? d->any[0].name : NULL);
    glmux_jw_bool(w, "override", s0 != NULL ? s0->plan.n > 0 && s0->plan.steps[0].override
                                            : d->screens < 0 && d->any[0].override);
    glmux_jw_bool(w, "pixels", s0 != NULL && s0->plan.pixels == GLMUX_PIXELS_FIRST);
    glmux_jw_string(w, "pixels_when", s0 != NULL ? pixels_when_name(s0->plan.pixels) : NULL);
    glmux_jw_string(w, "pixels_reason", s0 != NULL ? s0->plan.pixels_why : NULL);
    glmux_jw_array(w, "screens");
    for (int s = 0; s < d->screens; s++) {
        const struct screen_view *v = &d->screen[s];

        glmux_jw_object(w, NULL);
        glmux_jw_int(w, "screen", s);
        glmux_jw_string(w, "vendor", v->vendor);
        glmux_jw_string(w, "from", v->from);
        glmux_jw_string(w, "pixels_when", pixels_when_name(v->plan.pixels));
        glmux_jw_string(w, "pixels_reason", v->plan.pixels_why);
        glmux_jw_string(w, "passed_over", v->passed[0] ? v->passed : NULL);
        glmux_jw_array(w, "plan");
        for (size_t i = 0; i < v->plan.n; i++)
            glmux_jw_string(w, NULL, v->plan.steps[i].kind == GLMUX_GLX_STEP_VENDOR
                                         ? v->plan.steps[i].name : "(X server's list)");
        glmux_jw_end(w, ']');
        glmux_jw_end(w, '}');
    }
    glmux_jw_end(w, ']');
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
    for (size_t i = 0; gl != NULL && i < d->n_egl; i++) {
        const struct vendor_view *v = &d->views[i];

        glmux_jw_object(&w, v->name);
        glmux_jw_string(&w, "renders_on", v->lands && v->serves_lands ? v->lands->tag : NULL);
        glmux_jw_string(&w, "by", v->by);
        glmux_jw_object(&w, "needs");
        for (size_t j = 0; j < v->n_need; j++)
            glmux_jw_string(&w, v->need[j].name, v->need[j].unset ? NULL : v->need[j].value);
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
    json_glx(&w, d);
    glmux_jw_array(&w, "reasons");
    for (size_t i = 0; i < glmux_select_reason_count(d->sel); i++)
        glmux_jw_string(&w, NULL, glmux_select_reason(d->sel, i));
    glmux_jw_end(&w, ']');
    glmux_jw_end(&w, '}');
    glmux_jw_finish(&w);
}

static void print_gpu_line(const char *label, const struct glmux_gpu *g, const char *note)
{
    printf("%s%s %04x:%04x driver %s%s\n", label, E(g->tag), g->vendor_id, g->device_id,
           g->driver[0] ? E(g->driver) : "(none)", note);
}

/* Where each EGL vendor renders (for the display whose vendor order was just printed). */
static void print_views(const struct decision *d)
{
    for (size_t i = 0; i < d->n_egl; i++) {
        const struct vendor_view *v = &d->views[i];

        if (v->lands == NULL && !d->any_render_gpu)
            printf("             %s renders on no GPU: none renders here%s\n", E(v->name),
                   glmux_select_vendor_is_nvidia(v->name) ? ""
                   : " (Mesa renders with the CPU, llvmpipe)");
        else if (v->lands == NULL)
            printf("             %s renders on no GPU: %s names none it serves\n", E(v->name),
                   v->by != NULL ? v->by : "the request");
        else if (!v->serves_lands)
            printf("             %s cannot render on %s, the GPU it would use (%s)\n", E(v->name),
                   E(v->lands->tag), v->by ? v->by : "no variable sends it elsewhere");
        else
            printf("             %s renders on %s (%s)\n", E(v->name), E(v->lands->tag),
                   v->by ? v->by : "no variable sends it elsewhere");
        for (size_t j = 0; j < v->n_need; j++) {
            const char *tag = d->choice.asked->tag;

            if (v->need[j].unset)
                printf("             %s needs %s unset for %s: `glmux run --gpu %s` does it\n",
                       E(v->name), v->need[j].name, E(tag), E(tag));
            else
                printf("             %s needs %s=%s for %s: `glmux run --gpu %s` sets it\n",
                       E(v->name), v->need[j].name, E(v->need[j].value), E(tag), E(tag));
        }
    }
}

static void print_gpu(const struct decision *d)
{
    const struct glmux_select_choice *c = &d->choice;

    if (d->gpus == NULL)
        printf("GPU:         not looked at: neither libEGL nor libGLX needs to (one EGL vendor, "
               "no variable asks for a GPU); `glmux gpus` lists them\n");
    else if (c->gpu != NULL)
        print_gpu_line("GPU:         ", c->gpu, d->display.known ? " (the display's GPU, or the "
                       "one asked for)" : c->gpu->is_default ? " (the default GPU)" : "");
    else if (d->gpus->sysfs_missing)
        printf("GPU:         none: GPUs cannot be enumerated here (%s)\n", E(d->gpus->problem));
    else
        printf("GPU:         none found (libdrm lists %s); Mesa renders with the CPU (llvmpipe)\n",
               d->gpus->count ? "no GPU that renders" : "no DRM device");
    if (c->unmet && c->asked != NULL)
        printf("             not %s, the GPU asked for: %s\n", E(c->asked->tag), E(c->why));
    else if (c->unmet && c->gpu != NULL)
        printf("             the request is not met: %s\n", E(c->why));
    else if (c->unmet)
        printf("             the request names no GPU: %s\n", E(c->why));
}

static void print_egl(const struct decision *d)
{
    bool on_display = d->display.asked && d->display.known;

    printf("EGL vendors:");
    for (size_t i = 0; i < d->n_egl; i++)
        printf(" %s", E(d->vl.vendors[d->egl[i]].name));
    printf("%s\n", d->n_egl ? "" : " (none installed)");
    /* Where each vendor renders is said for the default display, under its own order. */
    if (d->gpus != NULL && !on_display)
        print_views(d);
    if (on_display) {
        printf("EGL default display: GPU %s (%s): %s\n             vendors:", E(d->display.tag),
               d->display.how, E(d->display.why));
        for (size_t i = 0; i < d->n_egl; i++)
            printf(" %s", E(d->vl.vendors[d->display_egl[i]].name));
        printf("\n");
        if (d->gpus != NULL)
            print_views(d);
    } else if (d->display.asked) {
        printf("EGL default display: GPU unknown (%s; %s); the vendor order above\n",
               d->display.how, E(d->display.why));
    }
}

static void print_glx(const struct decision *d)
{
    if (d->screens < 0) {
        if (d->display_name == NULL)
            printf("X screens:   none: DISPLAY is not set\n");
        else
            printf("X screens:   none: DISPLAY=%s cannot be opened\n", E(d->display_name));
        if (d->any[0].kind == GLMUX_GLX_STEP_VENDOR)
            printf("GLX vendor:  \"%s\" for a screen of any X display (%s)\n",
                   E(d->any[0].name), d->any[0].why);
        else
            printf("GLX vendor:  the X server's choice, for a screen of any X display\n");
        return;
    }
    for (int s = 0; s < d->screens; s++) {
        const struct screen_view *v = &d->screen[s];
        const struct glmux_glx_screen_plan *p = &v->plan;

        if (v->vendor != NULL)
            printf("X screen %d:  vendor \"%s\" (%s)\n", s, E(v->vendor), E(v->from));
        else
            printf("X screen %d:  no vendor (%s)\n", s, v->from);
        if (v->passed[0] != '\0')
            printf("             passed over (no library found): %s\n", E(v->passed));
        printf("GLX pixels%s%.0d:  %s (%s; docs/remote.md)\n", s ? " " : "", s,
               p->pixels == GLMUX_PIXELS_FIRST
                   ? "vendor \"" GLMUX_PIXELS_VENDOR_NAME "\" renders here with EGL and sends the "
                     "frames as images"
               : p->pixels == GLMUX_PIXELS_FALLBACK
                   ? "vendor \"" GLMUX_PIXELS_VENDOR_NAME "\" only if the X server's vendors fail"
                   : "not used", E(p->pixels_why));
    }
}

static void print_text(const struct decision *d)
{
    if (d->req->kind == GLMUX_REQUEST_NONE)
        printf("asked for:   nothing (the default GPU)\n");
    else
        printf("asked for:   %s=%s\n", d->req->variable, E(d->req->value));
    print_gpu(d);
    print_egl(d);
    print_glx(d);
    printf("why:\n");
    for (size_t i = 0; i < glmux_select_reason_count(d->sel); i++)
        printf("  - %s\n", E(glmux_select_reason(d->sel, i)));
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
