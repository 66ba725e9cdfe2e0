/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layers: one layer manifest, read and judged (docs/layers.md has the format). The
 * JSON reader is the vendor manifests' (select/json.c) and the file is read by util/file.c's
 * rules (regular files only, never blocking on a FIFO, bounded size), so a hostile file in a
 * layer folder is refused exactly as one in a vendor folder. A manifest holds "layer" (one
 * object) or "layers" (an array); each layer is usable or broken on its own, with one sentence
 * that says why and at which line. Unknown keys are ignored, so that later formats stay
 * readable; an implicit layer without "disable_environment" is refused, because a layer that
 * loads into every GL program must be switchable off without root.
 */
#define _GNU_SOURCE
#include "layers/core/layer_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/json.h"
#include "util/file.h"

bool glmux_layer_valid_name(const char *name)
{
    return glmux_json_valid_name(name, GLMUX_LAYER_NAME_MAX);
}

/* An environment variable's name: [A-Za-z_][A-Za-z0-9_]*, bounded. */
static bool valid_var_name(const char *name)
{
    size_t n = 0;

    if (name == NULL || (!isalpha((unsigned char)name[0]) && name[0] != '_'))
        return false;
    for (; name[n] != '\0'; n++) {
        unsigned char ch = (unsigned char)name[n];
        if (!isalnum(ch) && ch != '_')
            return false;
    }
    return n <= 128;
}

void glmux_layer_info_clear(struct glmux_layer_info *info)
{
    free(info->manifest);
    free(info->name);
    free(info->library);
    free(info->library_found);
    free(info->description);
    free(info->abi_version);
    for (size_t i = 0; i < info->n_api_names; i++)
        free(info->api_names[i]);
    free(info->api_names);
    free(info->enable.name);
    free(info->enable.want);
    free(info->disable.name);
    free(info->disable.want);
    memset(info, 0, sizeof(*info));
}

static void broken(struct glmux_layer_info *info, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Marks the layer broken; the first reason given is kept. */
static void broken(struct glmux_layer_info *info, int line, const char *fmt, ...)
{
    char msg[sizeof(info->reason) - 24];
    va_list ap;

    if (info->verdict == GLMUX_LAYER_BROKEN)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    info->verdict = GLMUX_LAYER_BROKEN;
    if (line > 0)
        snprintf(info->reason, sizeof(info->reason), "line %d: %s", line, msg);
    else
        snprintf(info->reason, sizeof(info->reason), "%s", msg);
}

/* The member key of obj when it has the type; NULL (and the layer broken when it is there but
 * of another type, or missing and required). */
static const struct glmux_json *member(struct glmux_layer_info *info,
                                       const struct glmux_json *obj, const char *key,
                                       enum glmux_json_type type, bool required)
{
    const struct glmux_json *v = glmux_json_get(obj, key);

    if (v == NULL) {
        if (required)
            broken(info, obj->line, "the %s has no \"%s\"",
                   strcmp(key, "file_format_version") == 0 ? "manifest" : "layer", key);
        return NULL;
    }
    if (v->type != type) {
        broken(info, v->line, "\"%s\" must be %s, not %s", key, glmux_json_type_name(type),
               glmux_json_type_name(v->type));
        return NULL;
    }
    return v;
}

/* A string member copied; false only when out of memory. */
static bool copy_string(struct glmux_layer_info *info, const struct glmux_json *obj,
                        const char *key, bool required, char **out)
{
    const struct glmux_json *v = member(info, obj, key, GLMUX_JSON_STRING, required);

    if (v == NULL)
        return true;
    *out = strdup(v->string);
    return *out != NULL;
}

/* "library_path": bare names stay bare (the dynamic linker searches them), absolute paths are
 * kept, and a path with a '/' is taken relative to the manifest's folder. */
static bool resolve_library(struct glmux_layer_info *info, const char *lib)
{
    const char *slash = strrchr(info->manifest, '/');

    if (lib[0] == '/' || strchr(lib, '/') == NULL) {
        info->library = strdup(lib);
        return info->library != NULL;
    }
    while (lib[0] == '.' && lib[1] == '/')
        lib += 2;
    if (slash == NULL)
        return asprintf(&info->library, "./%s", lib) >= 0;
    return asprintf(&info->library, "%.*s/%s", (int)(slash - info->manifest), info->manifest,
                    lib) >= 0;
}

/* "enable_environment" / "disable_environment": an object of exactly one string member. */
static bool read_var(struct glmux_layer_info *info, const struct glmux_json *layer,
                     const char *key, struct glmux_layer_var *out)
{
    const struct glmux_json *v = member(info, layer, key, GLMUX_JSON_OBJECT, false);

    if (v == NULL)
        return true;
    if (v->count != 1) {
        broken(info, v->line, "\"%s\" must name exactly one variable, as {\"NAME\": \"1\"}",
               key);
        return true;
    }
    if (!valid_var_name(v->keys[0])) {
        broken(info, v->key_lines[0], "\"%s\": \"%s\" is not a variable name", key, v->keys[0]);
        return true;
    }
    if (v->items[0]->type != GLMUX_JSON_STRING) {
        broken(info, v->items[0]->line, "\"%s\": the value of %s must be a string, not %s", key,
               v->keys[0], glmux_json_type_name(v->items[0]->type));
        return true;
    }
    out->name = strdup(v->keys[0]);
    out->want = strdup(v->items[0]->string);
    return out->name != NULL && out->want != NULL;
}

static bool read_apis(struct glmux_layer_info *info, const struct glmux_json *layer)
{
    static const struct {
        const char *name;
        uint32_t bit;
    } apis[] = {
        { "gl", GLMUX_LAYER_API_GL },   { "gles1", GLMUX_LAYER_API_GL },
        { "gles2", GLMUX_LAYER_API_GL }, { "glx", GLMUX_LAYER_API_GLX },
        { "egl", GLMUX_LAYER_API_EGL },
    };
    const struct glmux_json *v = member(info, layer, "apis", GLMUX_JSON_ARRAY, true);

    if (v == NULL)
        return true;
    info->api_names = calloc(v->count + 1, sizeof(char *));
    if (info->api_names == NULL)
        return false;
    for (size_t i = 0; i < v->count; i++) {
        const struct glmux_json *a = v->items[i];

        if (a->type != GLMUX_JSON_STRING) {
            broken(info, a->line, "\"apis\" lists %s; write names such as \"gl\", \"egl\"",
                   glmux_json_type_name(a->type));
            return true;
        }
        info->api_names[info->n_api_names] = strdup(a->string);
        if (info->api_names[info->n_api_names] == NULL)
            return false;
        info->n_api_names++;
        /* An API this build does not know is skipped: a later glmux may add one. */
        for (size_t k = 0; k < sizeof(apis) / sizeof(apis[0]); k++)
            if (strcmp(a->string, apis[k].name) == 0)
                info->apis |= apis[k].bit;
    }
    if (info->apis == 0)
        broken(info, v->line,
               "\"apis\" names no API this glmux knows (\"gl\", \"gles1\", \"gles2\", \"glx\", "
               "\"egl\")");
    return true;
}

/* "1.0.0", "1.2": a major this build reads. */
static void check_format(struct glmux_layer_info *info, const struct glmux_json *root)
{
    const struct glmux_json *v = member(info, root, "file_format_version", GLMUX_JSON_STRING, true);
    unsigned long major;
    char *end;

    if (v == NULL)
        return;
    errno = 0;
    major = strtoul(v->string, &end, 10);
    if (end == v->string || errno != 0 || (*end != '\0' && *end != '.') ||
        !isdigit((unsigned char)v->string[0])) {
        broken(info, v->line, "file_format_version \"%s\" is not \"major.minor.micro\" "
               "(write \"1.0.0\")", v->string);
        return;
    }
    if (major != GLMUX_LAYER_FORMAT_MAJOR)
        broken(info, v->line, "file_format_version \"%s\": this glmux reads major version %d",
               v->string, GLMUX_LAYER_FORMAT_MAJOR);
}

/* One layer object; false only when out of memory. */
static bool read_layer(struct glmux_layer_info *info, const struct glmux_json *layer)
{
    const struct glmux_json *v;
    char *type = NULL, *library = NULL, *arch = NULL;
    bool ok = true;

    info->manifest_line = layer->line;
    if (layer->type != GLMUX_JSON_OBJECT) {
        broken(info, layer->line, "a layer must be an object, not %s",
               glmux_json_type_name(layer->type));
        return true;
    }
    ok = ok && copy_string(info, layer, "name", true, &info->name);
    if (ok && info->name != NULL && !glmux_layer_valid_name(info->name)) {
        broken(info, glmux_json_get(layer, "name")->line,
               "name \"%s\" is not a layer name ([A-Za-z0-9_.-], at most %d bytes)", info->name,
               GLMUX_LAYER_NAME_MAX);
        free(info->name);
        info->name = NULL;
    }
    ok = ok && copy_string(info, layer, "type", true, &type);
    if (ok && type != NULL) {
        if (strcmp(type, "implicit") == 0)
            info->implicit = true;
        else if (strcmp(type, "explicit") != 0)
            broken(info, glmux_json_get(layer, "type")->line,
                   "type \"%s\" must be \"explicit\" or \"implicit\"", type);
    }
    ok = ok && copy_string(info, layer, "library_path", true, &library);
    if (ok && library != NULL) {
        if (library[0] == '\0')
            broken(info, glmux_json_get(layer, "library_path")->line, "library_path is empty");
        else
            ok = resolve_library(info, library);
    }
    ok = ok && copy_string(info, layer, "library_arch", false, &arch);
    if (ok && arch != NULL) {
        if (strcmp(arch, "32") == 0 || strcmp(arch, "64") == 0)
            info->library_arch = atoi(arch);
        else
            broken(info, glmux_json_get(layer, "library_arch")->line,
                   "library_arch \"%s\" must be \"32\" or \"64\"", arch);
    }
    ok = ok && copy_string(info, layer, "abi_version", false, &info->abi_version);
    if (ok && info->abi_version != NULL && !isdigit((unsigned char)info->abi_version[0]))
        broken(info, glmux_json_get(layer, "abi_version")->line,
               "abi_version \"%s\" is not \"major.minor\" (write \"%d.%d\")", info->abi_version,
               GLMUX_LAYER_ABI_MAJOR, GLMUX_LAYER_ABI_MINOR);
    ok = ok && copy_string(info, layer, "description", false, &info->description);
    ok = ok && read_apis(info, layer);
    ok = ok && read_var(info, layer, "enable_environment", &info->enable);
    ok = ok && read_var(info, layer, "disable_environment", &info->disable);
    v = member(info, layer, "secure_execution", GLMUX_JSON_BOOL, false);
    if (v != NULL)
        info->secure_execution = v->boolean;
    if (ok && info->implicit && info->disable.name == NULL)
        broken(info, layer->line,
               "an implicit layer needs \"disable_environment\" (a variable that switches it "
               "off without root)");
    free(type);
    free(library);
    free(arch);
    return ok;
}

static struct glmux_layer_info *start(struct glmux_layer_info *info, const char *path)
{
    memset(info, 0, sizeof(*info));
    info->chain_position = -1;
    info->verdict = GLMUX_LAYER_WOULD_LOAD;
    info->manifest = strdup(path);
    return info->manifest != NULL ? info : NULL;
}

size_t glmux_layer_manifest_parse(const char *path, const char *text, size_t len,
                                  struct glmux_layer_info *out, size_t max)
{
    struct glmux_json_error err;
    struct glmux_json *root;
    const struct glmux_json *one, *many;
    size_t n = 0;

    if (max == 0 || start(&out[0], path) == NULL)
        return 0;
    root = glmux_json_parse(text, len, &err);
    if (root == NULL) {
        broken(&out[0], err.line, "%s", err.message);
        return 1;
    }
    if (root->type != GLMUX_JSON_OBJECT) {
        broken(&out[0], root->line, "the manifest must be an object, not %s",
               glmux_json_type_name(root->type));
        goto done;
    }
    check_format(&out[0], root);
    if (out[0].verdict == GLMUX_LAYER_BROKEN)
        goto done;
    one = glmux_json_get(root, "layer");
    many = glmux_json_get(root, "layers");
    if (one != NULL && many != NULL) {
        broken(&out[0], many->line, "the manifest has both \"layer\" and \"layers\"; keep one");
        goto done;
    }
    if (one == NULL && many == NULL) {
        broken(&out[0], root->line, "the manifest has no \"layer\" object (nor \"layers\")");
        goto done;
    }
    if (one != NULL) {
        if (!read_layer(&out[0], one))
            goto oom;
        n = 1;
        goto done;
    }
    if (many->type != GLMUX_JSON_ARRAY || many->count == 0) {
        broken(&out[0], many->line, "\"layers\" must be an array of layer objects");
        goto done;
    }
    for (size_t i = 0; i < many->count; i++) {
        if (n == max || n == GLMUX_LAYER_PER_MANIFEST_MAX) {
            /* The last slot says what was cut rather than hiding it. */
            glmux_layer_info_clear(&out[n - 1]);
            if (start(&out[n - 1], path) == NULL)
                goto oom;
            broken(&out[n - 1], many->items[i]->line,
                   "more than %zu layers in one manifest; the rest are ignored", n - 1);
            break;
        }
        if (n > 0 && start(&out[n], path) == NULL)
            goto oom;
        if (!read_layer(&out[n], many->items[i]))
            goto oom_n;
        n++;
    }
done:
    glmux_json_free(root);
    return n > 0 ? n : 1;
oom_n:
    glmux_layer_info_clear(&out[n]);
oom:
    glmux_json_free(root);
    for (size_t i = 0; i < n; i++)
        glmux_layer_info_clear(&out[i]);
    if (n == 0)
        glmux_layer_info_clear(&out[0]);
    return 0;
}

size_t glmux_layer_manifest_read(const char *path, struct glmux_layer_info *out, size_t max)
{
    struct glmux_file_error err;
    size_t len, n;
    char *text;

    if (max == 0)
        return 0;
    text = glmux_file_read(path, GLMUX_LAYER_MANIFEST_MAX, &len, &err);
    if (text == NULL) {
        if (err.code == ENOMEM || start(&out[0], path) == NULL)
            return 0;
        broken(&out[0], 0, "%s", err.message);
        return 1;
    }
    n = glmux_layer_manifest_parse(path, text, len, out, max);
    free(text);
    return n;
}
