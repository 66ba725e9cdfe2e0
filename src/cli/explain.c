/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: `glmux explain`. The EGL side decides through the very functions libEGL calls,
 * with one selector (so GPUs are enumerated once): glmux_select_egl_plan for the order libEGL
 * loads its vendors in, glmux_select_egl_display_order for the default display; which vendor
 * of that order owns the default display is libEGL's own answer (explain_ask.c asks it in a
 * child process). The GLX side is libGLX's own decision: explain_ask.c has libGLX decide each
 * screen of DISPLAY in a child process and hands back its record (the plan, every vendor tried
 * and why it did or did not serve, the step not taken where loading a vendor would wake a
 * sleeping GPU). Without an X
 * display, the plan libGLX would follow for a screen of any display (glmux_select_glx_plan).
 * Where each EGL vendor renders comes from glmux_select_vendor_lands, and what it reads from
 * glmux_select_vendor_told_by: the one rule of which variable a vendor reads lives in the
 * selector (choose.c). Every variable is read through the selector (its getenv), every value
 * printed inside a line is escaped (safe_out.h). Text or JSON.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_ask.h"
#include "cli/layers.h"
#include "json_writer.h"
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
    struct glmux_cli_glx_answer glx;                 /* libGLX's own decision, each screen */
    struct glmux_cli_egl_answer egl_asked;           /* libEGL's own default display */
    struct glmux_glx_step any[GLMUX_GLX_PLAN_MAX];   /* no X display: the plan of any screen */
};

static void decision_free(struct decision *d)
{
    free(d->egl);
    free(d->cands);
    free(d->views);
    glmux_cli_glx_answer_free(&d->glx);
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

/* libGLX's side: its own decision for each screen of DISPLAY (explain_ask.c). */
static bool decide_glx(struct decision *d)
{
    if (!glmux_cli_glx_ask(d->sel, &d->glx_vl, &d->glx))
        return false;
    /* No X display: what libGLX would decide for a screen whose GPU it does not know. */
    if (d->glx.screens < 0)
        glmux_select_glx_plan(d->sel, NULL, 0, &d->glx_vl, d->any);
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
    if (!decide_default_display(d) || !decide_glx(d) ||
        !glmux_cli_egl_ask(d->sel, &d->vl, &d->egl_asked))
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

/* The EGL vendor whose library libEGL loaded as lib (its manifest's), or lib itself. */
static const char *egl_vendor_of(const struct decision *d, const char *lib)
{
    for (size_t i = 0; i < d->vl.count; i++)
        if (d->vl.vendors[i].egl_library != NULL && strcmp(d->vl.vendors[i].egl_library, lib) == 0)
            return d->vl.vendors[i].name;
    return lib;
}

static void json_egl_asked(struct glmux_jw *w, const struct decision *d)
{
    const struct glmux_cli_egl_answer *a = &d->egl_asked;

    glmux_jw_object(w, "egl_default_display");
    glmux_jw_string(w, "library", a->library[0] ? a->library : NULL);
    glmux_jw_string(w, "not_asked", a->asked ? NULL : a->why);
    glmux_jw_string(w, "vendor", a->asked && a->display.library[0]
                                     ? egl_vendor_of(d, a->display.library) : NULL);
    glmux_jw_array(w, "tries");
    for (uint32_t i = 0; a->asked && i < a->display.n_tries && i < GLMUX_EGL_EXPLAIN_TRIES; i++) {
        const struct glmux_egl_explain_try *t = &a->display.tries[i];

        glmux_jw_object(w, NULL);
        glmux_jw_string(w, "vendor", egl_vendor_of(d, t->library));
        glmux_jw_string(w, "result", t->result == GLMUX_EGL_EXPLAIN_OWNS ? "owns"
                                     : t->result == GLMUX_EGL_EXPLAIN_TAKEN ? "another's display"
                                     : "no display");
        glmux_jw_int(w, "error", t->error);
        glmux_jw_end(w, '}');
    }
    glmux_jw_end(w, ']');
    glmux_jw_end(w, '}');
}

static void print_egl_asked(const struct decision *d)
{
    const struct glmux_cli_egl_answer *a = &d->egl_asked;

    if (!a->asked) {
        printf("EGL default display's vendor: not asked of libEGL: %s\n", E(a->why));
        return;
    }
    if (a->display.library[0] != '\0')
        printf("EGL default display's vendor: \"%s\" (libEGL's own answer: the first of its "
               "order to return a display)\n", E(egl_vendor_of(d, a->display.library)));
    else
        printf("EGL default display's vendor: none: %s\n", a->display.has_vendors
               ? "libEGL asked every vendor of its order and none returned a display"
               : "libEGL loaded no vendor");
    for (uint32_t i = 0; i < a->display.n_tries && i < GLMUX_EGL_EXPLAIN_TRIES; i++) {
        const struct glmux_egl_explain_try *t = &a->display.tries[i];

        if (t->result == GLMUX_EGL_EXPLAIN_NO_DISPLAY)
            printf("             passed over: \"%s\" returned no display (error 0x%04x)\n",
                   E(egl_vendor_of(d, t->library)), (unsigned)t->error);
        else if (t->result == GLMUX_EGL_EXPLAIN_TAKEN)
            printf("             passed over: \"%s\" returned a display another vendor owns\n",
                   E(egl_vendor_of(d, t->library)));
    }
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

static const char *result_name(int32_t r)
{
    switch (r) {
    case GLMUX_GLX_EXPLAIN_SERVES: return "serves";
    case GLMUX_GLX_EXPLAIN_NOT_LOADED: return "not loaded";
    case GLMUX_GLX_EXPLAIN_DECLINED: return "declined the screen";
    case GLMUX_GLX_EXPLAIN_NOT_TAKEN: return "not taken";
    }
    return "?";
}

/* The vendors libGLX tried for a screen and that did not serve it, comma-separated. */
static void passed_over(const struct glmux_glx_explain_screen *v, char *buf, size_t size)
{
    size_t n = 0;

    buf[0] = '\0';
    for (uint32_t i = 0; i < v->n_tries && i < GLMUX_GLX_EXPLAIN_TRIES; i++)
        if (v->tries[i].result == GLMUX_GLX_EXPLAIN_NOT_LOADED ||
            v->tries[i].result == GLMUX_GLX_EXPLAIN_DECLINED)
            n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s", n ? ", " : "",
                                  v->tries[i].vendor);
}

static void json_glx(struct glmux_jw *w, const struct decision *d)
{
    const struct glmux_glx_explain_screen *s0 = d->glx.screens > 0 ? &d->glx.screen[0] : NULL;
    bool none = d->glx.screens < 0;

    glmux_jw_object(w, "glx");
    glmux_jw_string(w, "asked", d->glx.state == GLMUX_CLI_GLX_ASKED ? "libGLX" : NULL);
    glmux_jw_string(w, "library", d->glx.library[0] ? d->glx.library : NULL);
    glmux_jw_string(w, "not_asked", d->glx.state != GLMUX_CLI_GLX_ASKED ? d->glx.why : NULL);
    glmux_jw_string(w, "vendor", s0 != NULL ? (s0->vendor[0] ? s0->vendor : NULL)
                                 : none && d->any[0].kind == GLMUX_GLX_STEP_VENDOR
                                     ? d->any[0].name : NULL);
    glmux_jw_bool(w, "override", s0 != NULL ? s0->override : none && d->any[0].override);
    glmux_jw_bool(w, "pixels", s0 != NULL && s0->pixels_when == GLMUX_PIXELS_FIRST);
    glmux_jw_string(w, "pixels_when", s0 != NULL ? pixels_when_name(s0->pixels_when) : NULL);
    glmux_jw_string(w, "pixels_reason", s0 != NULL ? s0->pixels_why : NULL);
    glmux_jw_array(w, "screens");
    for (int s = 0; s < d->glx.screens; s++) {
        const struct glmux_glx_explain_screen *v = &d->glx.screen[s];
        char passed[512];

        passed_over(v, passed, sizeof(passed));
        glmux_jw_object(w, NULL);
        glmux_jw_int(w, "screen", s);
        glmux_jw_bool(w, "decided", v->decided);
        glmux_jw_string(w, "vendor", v->vendor[0] ? v->vendor : NULL);
        glmux_jw_string(w, "from", v->vendor[0] ? v->from : NULL);
        glmux_jw_string(w, "pixels_when", pixels_when_name(v->pixels_when));
        glmux_jw_string(w, "pixels_reason", v->pixels_why);
        glmux_jw_string(w, "passed_over", passed[0] ? passed : NULL);
        glmux_jw_bool(w, "server_asked", v->server_asked);
        glmux_jw_bool(w, "server_skipped", v->server_skipped);
        glmux_jw_string(w, "server_names", v->server_asked ? v->server_names : NULL);
        glmux_jw_array(w, "plan");
        for (uint32_t i = 0; i < v->n_plan && i < GLMUX_GLX_EXPLAIN_PLAN; i++)
            glmux_jw_string(w, NULL, v->plan[i][0] ? v->plan[i] : "(X server's list)");
        glmux_jw_end(w, ']');
        glmux_jw_array(w, "tries");
        for (uint32_t i = 0; i < v->n_tries && i < GLMUX_GLX_EXPLAIN_TRIES; i++) {
            glmux_jw_object(w, NULL);
            glmux_jw_string(w, "vendor", v->tries[i].vendor);
            glmux_jw_string(w, "step", v->tries[i].step);
            glmux_jw_string(w, "result", result_name(v->tries[i].result));
            glmux_jw_string(w, "why", v->tries[i].detail[0] ? v->tries[i].detail : NULL);
            glmux_jw_end(w, '}');
        }
        glmux_jw_end(w, ']');
        glmux_jw_end(w, '}');
    }
    glmux_jw_end(w, ']');
    glmux_jw_end(w, '}');
}

/* Whether the tool's own selector gave reason text already (libGLX's selector gives the GPU
 * list and the request again). */
static bool said(const struct decision *d, const char *text)
{
    for (size_t i = 0; i < glmux_select_reason_count(d->sel); i++)
        if (strcmp(glmux_select_reason(d->sel, i), text) == 0)
            return true;
    return false;
}

/* Each reason libGLX's selector gave for the screens (one per line in the record) that the
 * tool's selector did not give. */
static void each_glx_reason(const struct decision *d, void (*fn)(const char *, void *), void *arg)
{
    for (int s = 0; s < d->glx.screens; s++) {
        char copy[sizeof(d->glx.screen[s].reasons)], *cursor = copy, *line;

        memcpy(copy, d->glx.screen[s].reasons, sizeof(copy));
        copy[sizeof(copy) - 1] = '\0';
        while ((line = strsep(&cursor, "\n")) != NULL)
            if (*line != '\0' && !said(d, line))
                fn(line, arg);
    }
}

static void json_reason(const char *text, void *arg)
{
    glmux_jw_string(arg, NULL, text);
}

static void text_reason(const char *text, void *arg)
{
    (void)arg;
    printf("  - %s\n", E(text));
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
    json_egl_asked(&w, d);
    json_glx(&w, d);
    glmux_jw_array(&w, "reasons");
    for (size_t i = 0; i < glmux_select_reason_count(d->sel); i++)
        glmux_jw_string(&w, NULL, glmux_select_reason(d->sel, i));
    each_glx_reason(d, json_reason, &w);
    glmux_jw_end(&w, ']');
    glmux_cli_explain_layers(&w); /* GL layers: the chain (layers.c) */
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

static void print_screen(int s, const struct glmux_glx_explain_screen *v)
{
    if (v->vendor[0] != '\0')
        printf("X screen %d:  vendor \"%s\" (%s)\n", s, E(v->vendor), E(v->from));
    else if (v->decided)
        printf("X screen %d:  no vendor: libGLX tried every step of its plan; GLX calls for "
               "this screen fail\n", s);
    else
        printf("X screen %d:  undecided: explain did not take a step libGLX would take "
               "(below)\n", s);
    if (v->server_skipped)
        printf("             the X server's vendor names were not asked: not every screen "
               "advertises GLX_EXT_libglvnd\n");
    for (uint32_t i = 0; i < v->n_tries && i < GLMUX_GLX_EXPLAIN_TRIES; i++) {
        const struct glmux_glx_explain_try *t = &v->tries[i];

        if (t->result == GLMUX_GLX_EXPLAIN_NOT_TAKEN)
            printf("             not loaded by explain: \"%s\" (%s): %s\n", E(t->vendor),
                   E(t->step), E(t->detail));
        else if (t->result != GLMUX_GLX_EXPLAIN_SERVES)
            printf("             passed over: \"%s\" (%s): %s\n", E(t->vendor), E(t->step),
                   E(t->detail));
    }
    printf("GLX pixels%s%.0d:  %s (%s; docs/remote.md)\n", s ? " " : "", s,
           v->pixels_when == GLMUX_PIXELS_FIRST
               ? "vendor \"" GLMUX_PIXELS_VENDOR_NAME "\" renders here with EGL and sends the "
                 "frames as images"
           : v->pixels_when == GLMUX_PIXELS_FALLBACK
               ? "vendor \"" GLMUX_PIXELS_VENDOR_NAME "\" only if the X server's vendors fail"
               : "not used", E(v->pixels_why));
}

static void print_glx(const struct decision *d)
{
    if (d->glx.screens < 0) {
        if (d->glx.state == GLMUX_CLI_GLX_NO_DISPLAY)
            printf("X screens:   none: %s\n", E(d->glx.why));
        else
            printf("X screens:   not asked: %s\n", E(d->glx.why));
        if (d->any[0].kind == GLMUX_GLX_STEP_VENDOR)
            printf("GLX vendor:  \"%s\" for a screen of any X display (%s)\n",
                   E(d->any[0].name), d->any[0].why);
        else
            printf("GLX vendor:  the X server's choice, for a screen of any X display\n");
        return;
    }
    for (int s = 0; s < d->glx.screens; s++)
        print_screen(s, &d->glx.screen[s]);
}

static void print_text(const struct decision *d)
{
    if (d->req->kind == GLMUX_REQUEST_NONE)
        printf("asked for:   nothing (the default GPU)\n");
    else
        printf("asked for:   %s=%s\n", d->req->variable, E(d->req->value));
    print_gpu(d);
    print_egl(d);
    print_egl_asked(d);
    print_glx(d);
    glmux_cli_explain_layers(NULL); /* GL layers: the chain (layers.c) */
    printf("why:\n");
    for (size_t i = 0; i < glmux_select_reason_count(d->sel); i++)
        printf("  - %s\n", E(glmux_select_reason(d->sel, i)));
    each_glx_reason(d, text_reason, NULL);
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
