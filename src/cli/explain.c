/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: `glmux explain`. Decides through the very functions libEGL and libGLX call
 * (glmux_select_egl_plan, glmux_select_glx_plan, glmux_select_vendor_env) under the current
 * environment, then prints the decisions with every rule considered, as text or JSON. When
 * DISPLAY names a reachable X server, each screen is listed too (x11.c: libX11 is loaded only
 * then, with dlopen, so the tool does not depend on it).
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

/* Number of X screens when DISPLAY is reachable, else -1. */
static int x_screens(void)
{
    typedef int (*count_fn)(void *);
    void *dpy = glmux_cli_x11_open();
    count_fn xcount = (count_fn)glmux_cli_x11_sym("XScreenCount");
    int n = -1;

    if (dpy != NULL && xcount != NULL)
        n = xcount(dpy);
    glmux_cli_x11_close(dpy);
    return n;
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

/* The variables one vendor is given (glmux_select_vendor_env). */
struct vendor_env {
    const char *vendor;
    struct glmux_select_env env[GLMUX_SELECT_ENV_MAX];
    size_t n;
};

/*
 * Everything `glmux explain` decides, through the same calls libEGL and libGLX make. Each library
 * has a selector of its own (a GPU libEGL falls back from is still libGLX's choice), so explain
 * has two as well.
 */
struct decision {
    struct glmux_select *sel;        /* libEGL's */
    struct glmux_select *glx_sel;    /* libGLX's */
    struct glmux_vendor_list vl, glx_vl;
    size_t *egl;                 /* indexes into vl.vendors, in load order */
    size_t n_egl;
    bool enumerated_for_egl;     /* enumeration happened for the EGL order alone */
    const char *glx;             /* screen 0's vendor from the GLX plan, NULL: the server's */
    bool glx_override;           /* a libglvnd variable named it */
    struct vendor_env *glx_envs; /* what libGLX gives each GLX vendor it may load */
    size_t n_glx_envs;
    int screens;                 /* X screens, -1 when DISPLAY is not reachable */
    const char **screen_vendor;  /* per screen, NULL: the server's */
    struct vendor_env *envs;     /* the EGL vendors in order, then the GLX vendor if another */
    size_t n_envs;
    const struct glmux_gpu *gpu;
    const struct glmux_gpu_list *gpus;
    const struct glmux_gpu_request *req;
    bool pixels;                 /* libGLX would render here and ship pixels (docs/remote.md) */
    const char *pixels_why;
    /* The default EGL display when DISPLAY or WAYLAND_DISPLAY is set (libEGL's
     * glmux_egl_display_vendors). */
    bool display_asked;          /* there was a choice, so the display server was asked */
    const char *display_how;     /* how: which server, over which connection */
    char display_tag[80];        /* its GPU, "" when unknown */
    char display_why[256];
    size_t *display_egl;         /* indexes into vl.vendors, in the display's order */
};

static void decision_free(struct decision *d)
{
    free(d->egl);
    free(d->screen_vendor);
    free(d->envs);
    free(d->glx_envs);
    free(d->display_egl);
    glmux_vendor_list_clear(&d->vl);
    glmux_vendor_list_clear(&d->glx_vl);
    glmux_select_free(d->sel);
    glmux_select_free(d->glx_sel);
}

/* libGLX's side: the plan for each screen and the variables each GLX vendor would be given. */
static bool decide_glx(struct decision *d)
{
    struct glmux_glx_step plan[GLMUX_GLX_PLAN_MAX];

    d->glx_envs = calloc(d->glx_vl.count + 1, sizeof(*d->glx_envs));
    if (d->glx_envs == NULL)
        return false;
    glmux_select_glx_plan(d->glx_sel, 0, &d->glx_vl, plan);
    d->glx = plan[0].kind == GLMUX_GLX_STEP_VENDOR ? plan[0].name : NULL;
    d->glx_override = plan[0].override;
    if (d->screens > 0) {
        d->screen_vendor = calloc((size_t)d->screens, sizeof(*d->screen_vendor));
        if (d->screen_vendor == NULL)
            return false;
        for (int s = 0; s < d->screens; s++)
            d->screen_vendor[s] = glmux_select_glx_vendor_for_screen(d->glx_sel, s, &d->glx_vl);
    }
    /* libGLX sets nothing for a vendor a libglvnd variable names (glx_vendor.c). */
    for (size_t i = 0; i < d->glx_vl.count; i++) {
        struct glmux_select_candidate c = glmux_select_candidate_of(&d->glx_vl.vendors[i]);
        struct vendor_env *e = &d->glx_envs[d->n_glx_envs++];
        e->vendor = c.name;
        if (!(d->glx_override && strcmp(c.name, d->glx) == 0))
            e->n = glmux_select_vendor_env(d->glx_sel, &c, e->env);
    }
    if (d->glx != NULL && glmux_vendor_list_find(&d->glx_vl, d->glx) == NULL) {
        struct glmux_select_candidate c = { d->glx, NULL, 0 };
        struct vendor_env *e = &d->glx_envs[d->n_glx_envs++];
        e->vendor = d->glx;
        if (!d->glx_override)
            e->n = glmux_select_vendor_env(d->glx_sel, &c, e->env);
    }
    return true;
}

/* libEGL's default display on the server glmux_display_default_server names (EGL_PLATFORM,
 * else DISPLAY, else WAYLAND_DISPLAY): asked only when there is a choice, as libEGL does. */
static bool decide_default_display(struct decision *d)
{
    struct glmux_select_candidate *cands;
    size_t *order;
    enum glmux_display_server server;
    bool ok;

    if (d->n_egl < 2 || !glmux_select_enumerated(d->sel) || d->gpus->count < 2)
        return true;
    server = glmux_display_default_server(d->display_why, sizeof(d->display_why));
    if (server == GLMUX_DISPLAY_SERVER_NONE)
        return true;
    d->display_asked = true;
    if (server == GLMUX_DISPLAY_SERVER_X11) {
        d->display_how = GLMUX_DISPLAY_HOW_X11_OWN;
        ok = glmux_display_x11_gpu(d->gpus, NULL, -1, d->display_tag, sizeof(d->display_tag),
                                   d->display_why, sizeof(d->display_why));
    } else {
        d->display_how = GLMUX_DISPLAY_HOW_WAYLAND_OWN;
        ok = glmux_display_wayland_gpu(d->gpus, NULL, d->display_tag, sizeof(d->display_tag),
                                       d->display_why, sizeof(d->display_why));
    }
    if (!ok) {
        d->display_tag[0] = '\0';
        return true;
    }
    cands = calloc(d->n_egl, sizeof(*cands));
    order = calloc(d->n_egl, sizeof(*order));
    d->display_egl = calloc(d->n_egl, sizeof(*d->display_egl));
    if (cands == NULL || order == NULL || d->display_egl == NULL) {
        free(cands);
        free(order);
        return false;
    }
    for (size_t i = 0; i < d->n_egl; i++)
        cands[i] = glmux_select_candidate_of(&d->vl.vendors[d->egl[i]]);
    glmux_select_display_order(d->sel, cands, d->n_egl, d->display_tag, order, d->display_why,
                               sizeof(d->display_why));
    for (size_t i = 0; i < d->n_egl; i++)
        d->display_egl[i] = d->egl[order[i]];
    free(cands);
    free(order);
    return true;
}

static bool decide(struct decision *d)
{
    struct glmux_select_config cfg = { .keep_reasons = true };

    memset(d, 0, sizeof(*d));
    d->sel = glmux_select_new(&cfg);
    cfg.quiet = true;   /* libEGL's selector already printed the warnings */
    d->glx_sel = glmux_select_new(&cfg);
    if (d->sel == NULL || d->glx_sel == NULL || !glmux_vendor_list_discover(&d->vl) ||
        !glmux_vendor_list_discover_glx(&d->glx_vl))
        return false;
    d->egl = calloc(d->vl.count + 1, sizeof(*d->egl));
    d->envs = calloc(d->vl.count + 2, sizeof(*d->envs));
    if (d->egl == NULL || d->envs == NULL)
        return false;
    /* The same calls, in the same order, as libEGL and libGLX make. */
    d->n_egl = glmux_select_egl_plan(d->sel, &d->vl, d->egl);
    d->enumerated_for_egl = glmux_select_enumerated(d->sel);
    d->screens = x_screens();
    d->pixels_why = glmux_cli_explain_remote(&d->pixels);
    if (!decide_glx(d))
        return false;
    d->gpu = glmux_select_chosen_gpu(d->sel);
    d->gpus = glmux_select_gpus(d->sel);
    d->req = glmux_select_request(d->sel);
    if (!decide_default_display(d))
        return false;
    for (size_t i = 0; i < d->n_egl; i++) {
        struct glmux_select_candidate c = glmux_select_candidate_of(&d->vl.vendors[d->egl[i]]);
        struct vendor_env *e = &d->envs[d->n_envs++];
        e->vendor = c.name;
        e->n = glmux_select_vendor_env(d->sel, &c, e->env);
    }
    /* The GLX vendor, when it is not an EGL vendor too, also gets its variables listed. */
    if (d->glx != NULL) {
        bool listed = false;

        for (size_t i = 0; i < d->n_envs; i++)
            listed |= strcmp(d->envs[i].vendor, d->glx) == 0;
        for (size_t i = 0; !listed && i < d->n_glx_envs; i++)
            if (strcmp(d->glx_envs[i].vendor, d->glx) == 0) {
                d->envs[d->n_envs++] = d->glx_envs[i];
                listed = true;
            }
    }
    return true;
}

/* Whether libGLX's selector said the i-th of its reasons already on libEGL's side. */
static bool glx_reason_repeats(const struct decision *d, size_t i)
{
    const char *r = glmux_select_reason(d->glx_sel, i);

    for (size_t j = 0; j < glmux_select_reason_count(d->sel); j++)
        if (strcmp(r, glmux_select_reason(d->sel, j)) == 0)
            return true;
    return false;
}

/* The reasons: libEGL's selector's, then those of libGLX's it did not give. */
static size_t reason_count(const struct decision *d)
{
    size_t n = glmux_select_reason_count(d->sel);

    for (size_t i = 0; i < glmux_select_reason_count(d->glx_sel); i++)
        n += !glx_reason_repeats(d, i);
    return n;
}

static const char *reason_at(const struct decision *d, size_t k)
{
    size_t n = glmux_select_reason_count(d->sel);

    if (k < n)
        return glmux_select_reason(d->sel, k);
    for (size_t i = 0; i < glmux_select_reason_count(d->glx_sel); i++) {
        if (glx_reason_repeats(d, i))
            continue;
        if (n++ == k)
            return glmux_select_reason(d->glx_sel, i);
    }
    return NULL;
}

static void print_json(const struct decision *d)
{
    const struct glmux_gpu_list *gl = d->gpus;
    const struct glmux_gpu *def = gl->default_index >= 0 ? &gl->gpus[gl->default_index] : NULL;
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
        glmux_jw_bool(&w, "matched", !glmux_select_request_unmet(d->sel));
        glmux_jw_end(&w, '}');
    }
    json_gpu_brief(&w, "gpu", d->gpu, glmux_cli_gpu_vendor(&d->vl, d->gpu));
    json_gpu_brief(&w, "default_gpu", def, glmux_cli_gpu_vendor(&d->vl, def));
    glmux_jw_int(&w, "gpu_count", (long)gl->count);
    glmux_jw_bool(&w, "enumerated_for_egl", d->enumerated_for_egl);
    glmux_jw_string(&w, "egl_override", d->vl.override_variable);
    glmux_jw_array(&w, "egl_vendors");
    for (size_t i = 0; i < d->n_egl; i++)
        glmux_jw_string(&w, NULL, d->vl.vendors[d->egl[i]].name);
    glmux_jw_end(&w, ']');
    if (!d->display_asked) {
        glmux_jw_string(&w, "default_display", NULL);
    } else {
        glmux_jw_object(&w, "default_display");
        glmux_jw_string(&w, "how", d->display_how);
        glmux_jw_string(&w, "gpu", d->display_tag[0] ? d->display_tag : NULL);
        glmux_jw_string(&w, "why", d->display_why);
        glmux_jw_array(&w, "egl_vendors");
        for (size_t i = 0; d->display_egl != NULL && i < d->n_egl; i++)
            glmux_jw_string(&w, NULL, d->vl.vendors[d->display_egl[i]].name);
        glmux_jw_end(&w, ']');
        glmux_jw_end(&w, '}');
    }
    glmux_jw_object(&w, "vendor_env");
    for (size_t i = 0; i < d->n_envs; i++) {
        glmux_jw_object(&w, d->envs[i].vendor);
        for (size_t j = 0; j < d->envs[i].n; j++)
            glmux_jw_string(&w, d->envs[i].env[j].name, d->envs[i].env[j].value);
        glmux_jw_end(&w, '}');
    }
    glmux_jw_end(&w, '}');
    glmux_jw_object(&w, "glx");
    glmux_jw_string(&w, "vendor", d->glx);
    glmux_jw_bool(&w, "override", d->glx_override);
    glmux_jw_bool(&w, "pixels", d->pixels);
    glmux_jw_string(&w, "pixels_reason", d->pixels_why);
    glmux_jw_object(&w, "env");
    for (size_t i = 0; i < d->n_glx_envs; i++) {
        glmux_jw_object(&w, d->glx_envs[i].vendor);
        for (size_t j = 0; j < d->glx_envs[i].n; j++)
            glmux_jw_string(&w, d->glx_envs[i].env[j].name, d->glx_envs[i].env[j].value);
        glmux_jw_end(&w, '}');
    }
    glmux_jw_end(&w, '}');
    glmux_jw_array(&w, "screens");
    for (int s = 0; s < d->screens; s++) {
        glmux_jw_object(&w, NULL);
        glmux_jw_int(&w, "screen", s);
        glmux_jw_string(&w, "vendor", d->screen_vendor[s] ? d->screen_vendor[s]
                                                           : "(X server's choice)");
        glmux_jw_end(&w, '}');
    }
    glmux_jw_end(&w, ']');
    glmux_jw_end(&w, '}');
    glmux_jw_array(&w, "reasons");
    for (size_t i = 0; i < reason_count(d); i++)
        glmux_jw_string(&w, NULL, reason_at(d, i));
    glmux_jw_end(&w, ']');
    glmux_jw_end(&w, '}');
    glmux_jw_finish(&w);
}

static void print_env(const struct vendor_env *e)
{
    for (size_t j = 0; j < e->n; j++)
        printf("             %s is given %s=%s\n", e->vendor, e->env[j].name, e->env[j].value);
}

static void print_text(const struct decision *d)
{
    const struct glmux_gpu *gpu = d->gpu;

    if (d->req->kind == GLMUX_REQUEST_NONE)
        printf("asked for:   nothing (the default GPU)\n");
    else
        printf("asked for:   %s=%s\n", d->req->variable, d->req->value);
    if (gpu != NULL)
        printf("GPU:         %s %04x:%04x driver %s%s\n", gpu->tag, gpu->vendor_id,
               gpu->device_id, gpu->driver[0] ? gpu->driver : "(none)",
               gpu->is_default ? " (the default GPU)" : "");
    else
        printf("GPU:         none found\n");
    printf("EGL vendors:");
    for (size_t i = 0; i < d->n_egl; i++)
        printf(" %s", d->vl.vendors[d->egl[i]].name);
    printf("%s\n", d->n_egl ? "" : " (none installed)");
    for (size_t i = 0; i < d->n_egl; i++)
        print_env(&d->envs[i]);
    if (d->display_asked && d->display_egl != NULL) {
        printf("EGL default display: GPU %s (%s): %s\n             vendors:", d->display_tag,
               d->display_how, d->display_why);
        for (size_t i = 0; i < d->n_egl; i++)
            printf(" %s", d->vl.vendors[d->display_egl[i]].name);
        printf("\n");
    } else if (d->display_asked) {
        printf("EGL default display: GPU unknown (%s; %s); the vendor order above\n",
               d->display_how, d->display_why);
    }
    printf("GLX vendor:  %s\n", d->glx ? d->glx : "the X server's choice, for every screen");
    if (d->n_envs > d->n_egl)
        print_env(&d->envs[d->n_egl]);
    if (d->screens < 0)
        printf("X screens:   DISPLAY not reachable; not listed\n");
    for (int s = 0; s < d->screens; s++)
        printf("X screen %d:  %s\n", s, d->screen_vendor[s] ? d->screen_vendor[s]
                                                            : "the X server's choice");
    printf("GLX pixels:  %s (%s; docs/remote.md)\n",
           d->pixels ? "libGLX renders here with EGL and sends the frames as images"
                     : "not used", d->pixels_why);
    printf("why:\n");
    for (size_t i = 0; i < reason_count(d); i++)
        printf("  - %s\n", reason_at(d, i));
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
