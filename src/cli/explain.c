/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: `glmux explain`. Runs the selector exactly as libEGL and libGLX do under the
 * current environment (same discovery, same calls, same order) and prints the decisions with
 * every rule considered. When DISPLAY names a reachable X server, each screen is listed too; the
 * X library is loaded only then, with dlopen, so the tool does not depend on it.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "select/select.h"

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
    typedef void *(*open_fn)(const char *);
    typedef int (*close_fn)(void *);
    typedef int (*count_fn)(void *);
    const char *display = getenv("DISPLAY");
    void *lib, *dpy;
    int n = -1;

    if (display == NULL || *display == '\0')
        return -1;
    lib = dlopen("libX11.so.6", RTLD_LAZY | RTLD_LOCAL);
    if (lib == NULL)
        return -1;
    {
        open_fn xopen = (open_fn)dlsym(lib, "XOpenDisplay");
        close_fn xclose = (close_fn)dlsym(lib, "XCloseDisplay");
        count_fn xcount = (count_fn)dlsym(lib, "XScreenCount");
        if (xopen && xclose && xcount && (dpy = xopen(NULL)) != NULL) {
            n = xcount(dpy);
            xclose(dpy);
        }
    }
    dlclose(lib);
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

int glmux_cli_explain(bool json)
{
    struct glmux_select_config cfg = { .keep_reasons = true };
    struct glmux_select *sel = glmux_select_new(&cfg);
    struct glmux_vendor_list vl, glx_vl;
    struct glmux_select_candidate *cands = NULL;
    size_t *order = NULL, n = 0, k;
    bool enumerated_for_egl;
    const struct glmux_gpu *gpu;
    const struct glmux_gpu_list *gl;
    const struct glmux_gpu_request *req;
    const char *glx, *glx_extra = NULL;
    struct glmux_select_candidate glx_cand = { NULL, NULL, 0 };
    int screens;

    if (sel == NULL || !glmux_vendor_list_discover(&vl)) {
        fprintf(stderr, "glmux: out of memory\n");
        glmux_select_free(sel);
        return GLMUX_EXIT_FAIL;
    }
    if (!glmux_vendor_list_discover_glx(&glx_vl)) {
        fprintf(stderr, "glmux: out of memory\n");
        glmux_vendor_list_clear(&vl);
        glmux_select_free(sel);
        return GLMUX_EXIT_FAIL;
    }
    cands = calloc(vl.count + 1, sizeof(*cands));
    order = calloc(vl.count + 1, sizeof(*order));
    if (cands == NULL || order == NULL) {
        fprintf(stderr, "glmux: out of memory\n");
        free(cands);
        free(order);
        glmux_vendor_list_clear(&vl);
        glmux_select_free(sel);
        return GLMUX_EXIT_FAIL;
    }
    for (size_t i = 0; i < vl.count; i++)
        if (vl.vendors[i].egl_library != NULL)
            cands[n++] = glmux_select_candidate_of(&vl.vendors[i]);
    /* The same calls, in the same order, as libEGL and libGLX make. */
    k = glmux_select_egl_vendor_order(sel, cands, n, order);
    enumerated_for_egl = glmux_select_enumerated(sel);
    glx = glmux_select_glx_vendor_for_screen(sel, 0, &glx_vl);
    screens = x_screens();
    gpu = glmux_select_chosen_gpu(sel);
    gl = glmux_select_gpus(sel);
    req = glmux_select_request(sel);
    /* The GLX vendor, when it is not an EGL vendor too, also gets its variables listed. */
    if (glx != NULL) {
        const struct glmux_vendor *gv = glmux_vendor_list_find(&glx_vl, glx);
        glx_extra = glx;
        for (size_t i = 0; i < k; i++)
            if (strcmp(cands[order[i]].name, glx) == 0)
                glx_extra = NULL;
        if (gv != NULL)
            glx_cand = glmux_select_candidate_of(gv);
        else
            glx_cand.name = glx;
    }

    if (json) {
        struct glmux_jw w;
        glmux_jw_init(&w, stdout);
        glmux_jw_object(&w, NULL);
        if (req->kind == GLMUX_REQUEST_NONE) {
            glmux_jw_string(&w, "request", NULL);
        } else {
            glmux_jw_object(&w, "request");
            glmux_jw_string(&w, "variable", req->variable);
            glmux_jw_string(&w, "value", req->value);
            glmux_jw_string(&w, "kind", request_kind(req->kind));
            glmux_jw_bool(&w, "exclusive", req->exclusive);
            glmux_jw_bool(&w, "matched", !glmux_select_request_unmet(sel));
            glmux_jw_end(&w, '}');
        }
        json_gpu_brief(&w, "gpu", gpu, glmux_cli_gpu_vendor(&vl, gpu));
        json_gpu_brief(&w, "default_gpu",
                       gl->default_index >= 0 ? &gl->gpus[gl->default_index] : NULL,
                       gl->default_index >= 0
                           ? glmux_cli_gpu_vendor(&vl, &gl->gpus[gl->default_index]) : NULL);
        glmux_jw_int(&w, "gpu_count", (long)gl->count);
        glmux_jw_bool(&w, "enumerated_for_egl", enumerated_for_egl);
        glmux_jw_string(&w, "egl_override", vl.override_variable);
        glmux_jw_array(&w, "egl_vendors");
        for (size_t i = 0; i < k; i++)
            glmux_jw_string(&w, NULL, cands[order[i]].name);
        glmux_jw_end(&w, ']');
        glmux_jw_object(&w, "vendor_env");
        for (size_t i = 0; i < k; i++) {
            struct glmux_select_env env[GLMUX_SELECT_ENV_MAX];
            size_t m = glmux_select_vendor_env(sel, &cands[order[i]], env);
            glmux_jw_object(&w, cands[order[i]].name);
            for (size_t j = 0; j < m; j++)
                glmux_jw_string(&w, env[j].name, env[j].value);
            glmux_jw_end(&w, '}');
        }
        if (glx_extra != NULL) {
            struct glmux_select_env env[GLMUX_SELECT_ENV_MAX];
            size_t m = glmux_select_vendor_env(sel, &glx_cand, env);
            glmux_jw_object(&w, glx_extra);
            for (size_t j = 0; j < m; j++)
                glmux_jw_string(&w, env[j].name, env[j].value);
            glmux_jw_end(&w, '}');
        }
        glmux_jw_end(&w, '}');
        glmux_jw_object(&w, "glx");
        glmux_jw_string(&w, "vendor", glx);
        glmux_jw_array(&w, "screens");
        for (int s = 0; s < screens; s++) {
            const char *v = glmux_select_glx_vendor_for_screen(sel, s, &glx_vl);
            glmux_jw_object(&w, NULL);
            glmux_jw_int(&w, "screen", s);
            glmux_jw_string(&w, "vendor", v ? v : "(X server's choice)");
            glmux_jw_end(&w, '}');
        }
        glmux_jw_end(&w, ']');
        glmux_jw_end(&w, '}');
        glmux_jw_array(&w, "reasons");
        for (size_t i = 0; i < glmux_select_reason_count(sel); i++)
            glmux_jw_string(&w, NULL, glmux_select_reason(sel, i));
        glmux_jw_end(&w, ']');
        glmux_jw_end(&w, '}');
        glmux_jw_finish(&w);
    } else {
        if (req->kind == GLMUX_REQUEST_NONE)
            printf("asked for:   nothing (the default GPU)\n");
        else
            printf("asked for:   %s=%s\n", req->variable, req->value);
        if (gpu != NULL)
            printf("GPU:         %s %04x:%04x driver %s%s\n", gpu->tag, gpu->vendor_id,
                   gpu->device_id, gpu->driver[0] ? gpu->driver : "(none)",
                   gpu->is_default ? " (the default GPU)" : "");
        else
            printf("GPU:         none found\n");
        printf("EGL vendors:");
        for (size_t i = 0; i < k; i++)
            printf(" %s", cands[order[i]].name);
        printf("%s\n", k ? "" : " (none installed)");
        for (size_t i = 0; i < k; i++) {
            struct glmux_select_env env[GLMUX_SELECT_ENV_MAX];
            size_t m = glmux_select_vendor_env(sel, &cands[order[i]], env);
            for (size_t j = 0; j < m; j++)
                printf("             %s is given %s=%s\n", cands[order[i]].name, env[j].name,
                       env[j].value);
        }
        printf("GLX vendor:  %s\n", glx ? glx : "the X server's choice, for every screen");
        if (glx_extra != NULL) {
            struct glmux_select_env env[GLMUX_SELECT_ENV_MAX];
            size_t m = glmux_select_vendor_env(sel, &glx_cand, env);
            for (size_t j = 0; j < m; j++)
                printf("             %s is given %s=%s\n", glx, env[j].name, env[j].value);
        }
        if (screens < 0)
            printf("X screens:   DISPLAY not reachable; not listed\n");
        for (int s = 0; s < screens; s++) {
            const char *v = glmux_select_glx_vendor_for_screen(sel, s, &glx_vl);
            printf("X screen %d:  %s\n", s, v ? v : "the X server's choice");
        }
        printf("why:\n");
        for (size_t i = 0; i < glmux_select_reason_count(sel); i++)
            printf("  - %s\n", glmux_select_reason(sel, i));
    }
    free(cands);
    free(order);
    glmux_vendor_list_clear(&vl);
    glmux_vendor_list_clear(&glx_vl);
    glmux_select_free(sel);
    return GLMUX_EXIT_OK;
}
