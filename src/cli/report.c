/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the read-only reports `gpus` and `vendors`. `gpus` lists what libdrm and udev
 * show (`gpus --watch`, in watch.c, follows the changes), `vendors` what the vendor directories
 * hold and, with --load, whether each library is a vendor library, probed through the one
 * vendor loader (select/vendor_load.h). `explain` is explain.c's, with explain_ask.c. Text for
 * people, --json for scripts and tests.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "safe_out.h"
#include "select/select.h"
#include "select/vendor_load.h"

/* The first vendor (base order) that serves gpu, or NULL. */
const char *glmux_cli_gpu_vendor(const struct glmux_vendor_list *vl, const struct glmux_gpu *gpu)
{
    for (size_t i = 0; gpu != NULL && i < vl->count; i++) {
        struct glmux_select_candidate c = glmux_select_candidate_of(&vl->vendors[i]);
        if (glmux_select_candidate_serves(&c, gpu))
            return vl->vendors[i].name;
    }
    return NULL;
}

void glmux_cli_json_gpu_fields(struct glmux_jw *w, const struct glmux_gpu *g, const char *vendor)
{
    char id[8];

    glmux_jw_string(w, "pci", g->pci[0] ? g->pci : NULL);
    glmux_jw_string(w, "tag", g->tag);
    snprintf(id, sizeof(id), "%04x", g->vendor_id);
    glmux_jw_string(w, "vendor_id", id);
    snprintf(id, sizeof(id), "%04x", g->device_id);
    glmux_jw_string(w, "device_id", id);
    if (g->class_code != 0) {
        snprintf(id, sizeof(id), "%06x", (unsigned)(g->class_code & 0xffffff));
        glmux_jw_string(w, "class", id);
    } else {
        glmux_jw_string(w, "class", NULL);
    }
    glmux_jw_string(w, "driver", g->driver[0] ? g->driver : NULL);
    glmux_jw_string(w, "vendor", vendor);
    glmux_jw_string(w, "kind", glmux_gpu_kind_name(g->kind));
    glmux_jw_string(w, "kind_from", g->kind_from_udev ? "udev property GLMUX_GPU_CLASS" : "rules");
    glmux_jw_string(w, "vendor_from", g->vendor[0] ? "udev property GLMUX_VENDOR" : NULL);
    glmux_jw_bool(w, "default", g->is_default);
}

void glmux_cli_json_gpu(struct glmux_jw *w, const char *key, const struct glmux_gpu *g,
                        const struct glmux_vendor_list *vl)
{
    if (g == NULL) {
        glmux_jw_string(w, key, NULL);
        return;
    }
    glmux_jw_object(w, key);
    glmux_cli_json_gpu_fields(w, g, glmux_cli_gpu_vendor(vl, g));
    glmux_jw_bool(w, "discrete", g->kind == GLMUX_GPU_DISCRETE);
    glmux_jw_bool(w, "boot_vga", g->boot_vga);
    glmux_jw_bool(w, "boot_display", g->boot_display);
    glmux_jw_string(w, "power", g->power[0] ? g->power : NULL);
    glmux_jw_string(w, "render_node", g->render_node[0] ? g->render_node : NULL);
    glmux_jw_string(w, "udev_tag", g->udev_tag[0] ? g->udev_tag : NULL);
    glmux_jw_string(w, "bus", glmux_gpu_bus_name(g->bus));
    glmux_jw_string(w, "card_node", g->card_node[0] ? g->card_node : NULL);
    glmux_jw_end(w, '}');
}

static void text_gpu(const struct glmux_gpu *g, size_t i, const struct glmux_vendor_list *vl)
{
    const char *v = glmux_cli_gpu_vendor(vl, g);

    printf("GPU %zu: %s  %04x:%04x  driver %s  %s%s%s\n", i, glmux_cli_esc(g->tag), g->vendor_id,
           g->device_id, g->driver[0] ? glmux_cli_esc(g->driver) : "(none)",
           glmux_gpu_kind_name(g->kind),
           g->kind_from_udev ? " (udev property GLMUX_GPU_CLASS)" : "",
           g->is_default ? "  [default]" : "");
    if (g->vendor[0] != '\0')
        printf("    served by vendor %s (udev property GLMUX_VENDOR)\n", glmux_cli_esc(g->vendor));
    printf("    vendor %s, power %s, nodes %s %s%s%s\n", v ? glmux_cli_esc(v) : "(none installed)",
           g->power[0] ? glmux_cli_esc(g->power) : "unknown",
           g->card_node[0] ? glmux_cli_esc(g->card_node) : "-",
           g->render_node[0] ? glmux_cli_esc(g->render_node) : "-",
           g->boot_display ? ", boot_display" : "",
           g->boot_vga ? ", boot_vga" : "");
}

int glmux_cli_gpus(bool json)
{
    struct glmux_select_config cfg = { .keep_reasons = true };
    struct glmux_select *sel = glmux_select_new(&cfg);
    struct glmux_vendor_list vl;
    const struct glmux_gpu_list *l;

    if (sel == NULL || !glmux_vendor_list_discover(&vl)) {
        fprintf(stderr, "glmux: out of memory\n");
        glmux_select_free(sel);
        return GLMUX_EXIT_FAIL;
    }
    l = glmux_select_gpus(sel);
    if (json) {
        struct glmux_jw w;
        glmux_jw_init(&w, stdout);
        glmux_jw_object(&w, NULL);
        glmux_jw_bool(&w, "sysfs_missing", l->sysfs_missing);
        glmux_jw_string(&w, "problem", l->problem[0] ? l->problem : NULL);
        glmux_jw_string(&w, "ignored", l->ignored[0] ? l->ignored : NULL);
        glmux_jw_string(&w, "default_rule", l->default_rule);
        glmux_jw_array(&w, "gpus");
        for (size_t i = 0; i < l->count; i++)
            glmux_cli_json_gpu(&w, NULL, &l->gpus[i], &vl);
        glmux_jw_end(&w, ']');
        glmux_jw_end(&w, '}');
        glmux_jw_finish(&w);
    } else {
        if (l->sysfs_missing)
            printf("GPUs cannot be enumerated here: %s\n", glmux_cli_esc(l->problem));
        else if (l->count == 0)
            printf("no GPU found\n");
        for (size_t i = 0; i < l->count; i++)
            text_gpu(&l->gpus[i], i, &vl);
        if (l->ignored[0] != '\0')
            printf("hidden by the udev property GLMUX_IGNORE=1: %s\n", glmux_cli_esc(l->ignored));
        if (l->default_index >= 0)
            printf("default GPU: %s (%s)\n", glmux_cli_esc(l->gpus[l->default_index].tag),
                   l->default_rule);
    }
    glmux_vendor_list_clear(&vl);
    glmux_select_free(sel);
    return GLMUX_EXIT_OK;
}

/* Whether lib loads and exports entry, through the one vendor loader (select/vendor_load.h)
 * as a probe: the entry is not called. why gets "loads" or the loader's reason. */
static bool try_load(const char *lib, const char *abi, const char *entry, char *why,
                     size_t size)
{
    struct glmux_vendor_load req = { .file = lib, .abi = abi, .entry = entry };
    void *handle;

    if (glmux_vendor_load(&req, &handle, why, size) != GLMUX_VENDOR_LOADED)
        return false;
    snprintf(why, size, "loads");
    return true;
}

static const char *source_name(enum glmux_vendor_source s)
{
    switch (s) {
    case GLMUX_VENDOR_FROM_VENDOR_DIR: return "vendor-dir";
    case GLMUX_VENDOR_FROM_EGL_DIR: return "egl-dir";
    case GLMUX_VENDOR_FROM_EGL_FILENAMES: return "egl-filenames";
    }
    return "?";
}

int glmux_cli_vendors(bool json, bool load)
{
    struct glmux_vendor_list vl;
    struct glmux_jw w;
    int status = GLMUX_EXIT_OK;

    if (!glmux_vendor_list_discover(&vl)) {
        fprintf(stderr, "glmux: out of memory\n");
        return GLMUX_EXIT_FAIL;
    }
    glmux_jw_init(&w, stdout);
    if (json) {
        glmux_jw_object(&w, NULL);
        glmux_jw_string(&w, "override", vl.override_variable);
        glmux_jw_array(&w, "dirs");
        for (size_t i = 0; i < vl.n_dirs; i++)
            glmux_jw_string(&w, NULL, vl.dirs[i]);
        glmux_jw_end(&w, ']');
        glmux_jw_int(&w, "rejected", (long)vl.n_rejected);
        glmux_jw_array(&w, "vendors");
    } else {
        if (vl.override_variable != NULL)
            printf("%s is set: libglvnd's rule decides the EGL vendor list\n",
                   vl.override_variable);
        printf("searched:");
        for (size_t i = 0; i < vl.n_dirs; i++)
            printf(" %s", vl.dirs[i]);
        printf("%s\n", vl.n_dirs ? "" : " (only the files named)");
        if (vl.count == 0)
            printf("no vendor found\n");
    }
    for (size_t i = 0; i < vl.count; i++) {
        const struct glmux_vendor *v = &vl.vendors[i];
        char glx_default[128];
        const char *glx = v->glx_library;
        char egl_buf[512], glx_buf[512];
        const char *egl_why = NULL, *glx_why = NULL;
        bool egl_ok = false, glx_ok = false;

        snprintf(glx_default, sizeof(glx_default), "libGLX_%s.so.0", v->name);
        if (glx == NULL)
            glx = glx_default;
        if (load) {
            if (v->egl_library != NULL) {
                egl_ok = try_load(v->egl_library, "EGL", "__egl_Main", egl_buf,
                                  sizeof(egl_buf));
                egl_why = egl_buf;
            }
            glx_ok = try_load(glx, "GLX", "__glx_Main", glx_buf, sizeof(glx_buf));
            glx_why = glx_buf;
        }
        if (json) {
            glmux_jw_object(&w, NULL);
            glmux_jw_string(&w, "name", v->name);
            glmux_jw_string(&w, "source", source_name(v->source));
            glmux_jw_int(&w, "priority", v->priority);
            glmux_jw_string(&w, "egl_library", v->egl_library);
            glmux_jw_string(&w, "glx_library", glx);
            glmux_jw_bool(&w, "glx_library_declared", v->glx_library != NULL);
            if (v->has_drivers) {
                glmux_jw_array(&w, "drivers");
                for (size_t j = 0; j < v->n_drivers; j++)
                    glmux_jw_string(&w, NULL, v->drivers[j]);
                glmux_jw_end(&w, ']');
            } else {
                glmux_jw_string(&w, "drivers", NULL);
            }
            glmux_jw_array(&w, "manifests");
            for (size_t j = 0; j < v->n_manifests; j++)
                glmux_jw_string(&w, NULL, v->manifests[j]);
            glmux_jw_end(&w, ']');
            if (load) {
                glmux_jw_object(&w, "loads");
                if (v->egl_library != NULL)
                    glmux_jw_bool(&w, "egl", egl_ok);
                glmux_jw_bool(&w, "glx", glx_ok);
                glmux_jw_end(&w, '}');
            }
            glmux_jw_end(&w, '}');
            continue;
        }
        printf("vendor %s (priority %d, %s)\n", v->name, v->priority, source_name(v->source));
        for (size_t j = 0; j < v->n_manifests; j++)
            printf("    manifest %s%s\n", v->manifests[j], j ? " (merged)" : "");
        printf("    EGL %s%s%s\n", v->egl_library ? v->egl_library : "(none)",
               egl_why ? ": " : "", egl_why ? egl_why : "");
        printf("    GLX %s%s%s%s\n", glx, v->glx_library ? "" : " (by name)",
               glx_why ? ": " : "", glx_why ? glx_why : "");
        if (v->has_drivers) {
            printf("    drivers");
            for (size_t j = 0; j < v->n_drivers; j++)
                printf(" %s", v->drivers[j]);
            printf("%s\n", v->n_drivers ? "" : " (none: serves no GPU)");
        } else {
            printf("    drivers: none declared; the built-in table applies\n");
        }
    }
    if (json) {
        glmux_jw_end(&w, ']');
        glmux_jw_end(&w, '}');
        glmux_jw_finish(&w);
    }
    glmux_vendor_list_clear(&vl);
    return status;
}
