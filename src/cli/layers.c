/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: GL layers. `glmux layers` prints what the core (layers/core/layers.h) finds and
 * decides for a program started in this environment, loading nothing: the folders in the order
 * read (the explicit ones always, which a program reads only when GLMUX_LAYERS or
 * GLMUX_LAYERS_ENABLE may switch an explicit layer on, and says which), each layer with its
 * kind, manifest, library and the library's architecture read from its
 * ELF header, the variables its manifest names and their values now, and one verdict; then the
 * chain, `program -> layer -> ... -> glmux -> vendor`. `glmux explain` prints the same chain in
 * a few lines. `glmux manifest --layer` prints a layer manifest, checked with the loader's own
 * parser before a byte is printed.
 */
#define _GNU_SOURCE
#include "cli/layers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli/json_writer.h"
#include "cli/safe_out.h"
#include "layers/core/layer_internal.h"

static const char *verdict_key(enum glmux_layer_verdict v)
{
    switch (v) {
    case GLMUX_LAYER_WOULD_LOAD: return "would_load";
    case GLMUX_LAYER_OFF: return "off";
    case GLMUX_LAYER_WRONG_ARCH: return "wrong_architecture";
    case GLMUX_LAYER_NO_LIBRARY: return "library_missing";
    case GLMUX_LAYER_SECURE_IGNORED: return "secure_ignored";
    case GLMUX_LAYER_DUPLICATE: return "duplicate";
    case GLMUX_LAYER_WRONG_FOLDER: return "wrong_folder";
    case GLMUX_LAYER_BROKEN: return "broken";
    }
    return "?";
}

/* The verdict as one phrase: "would load", "off because ...", "broken manifest: ...". */
static void print_verdict(const struct glmux_layer_info *l, size_t chain_count)
{
    switch (l->verdict) {
    case GLMUX_LAYER_WOULD_LOAD:
        printf("would load (%d of %zu in the chain, counted from the top)\n",
               l->chain_position + 1, chain_count);
        break;
    case GLMUX_LAYER_OFF:
        printf("off because %s\n", glmux_cli_esc(l->reason));
        break;
    case GLMUX_LAYER_DUPLICATE:
        printf("%s\n", glmux_cli_esc(l->reason));
        break;
    default:
        printf("%s: %s\n", glmux_layer_verdict_name(l->verdict), glmux_cli_esc(l->reason));
        break;
    }
}

static const char *folder_state(const struct glmux_layer_folder *f)
{
    if (f->ignored_secure)
        return "ignored in secure execution";
    if (f->unasked)
        return "not read";
    return f->missing ? "missing" : "read";
}

static const char *folder_kind(const struct glmux_layer_folder *f)
{
    switch (f->kind) {
    case GLMUX_LAYER_FOLDER_IMPLICIT: return "implicit";
    case GLMUX_LAYER_FOLDER_EXPLICIT: return "explicit";
    case GLMUX_LAYER_FOLDER_ANY: break;
    }
    return "any";
}

static void print_var(const char *key, const struct glmux_layer_var *v)
{
    if (v->name == NULL)
        return;
    printf("  %-21s%s=%s (now: ", key, glmux_cli_esc(v->name), glmux_cli_esc(v->want));
    if (v->value == NULL)
        printf("unset)\n");
    else
        printf("\"%s\")\n", glmux_cli_esc(v->value));
}

/* "program -> a -> b -> glmux -> vendor" */
static void print_chain(const struct glmux_layer_scan *s)
{
    printf("program");
    for (size_t i = 0; i < s->chain_count; i++)
        printf(" -> %s", glmux_cli_esc(s->layers[s->chain[i]].name));
    printf(" -> glmux -> vendor\n");
}

static void print_text(const struct glmux_layer_scan *s)
{
    static const char *const vars[] = { GLMUX_LAYERS_VAR, GLMUX_LAYERS_ENABLE_VAR,
                                         GLMUX_LAYERS_DISABLE_VAR, GLMUX_LAYER_PATH_VAR };
    const char *values[] = { s->layers_var, s->enable_var, s->disable_var, s->path_var };

    if (s->secure)
        printf("Secure execution: GLMUX_LAYERS, GLMUX_LAYERS_ENABLE, GLMUX_LAYER_PATH and the "
               "user's folder are ignored;\nonly implicit layers with \"secure_execution\": true "
               "and root's files load.\n\n");
    printf("Variables:\n");
    for (size_t i = 0; i < 4; i++)
        printf("  %-21s%s\n", vars[i], values[i] != NULL ? glmux_cli_esc(values[i]) : "(unset)");
    if (s->skipped) {
        printf("\nGLMUX_LAYERS_DISABLE switches every layer off: no layer folder is read.\n\n"
               "Chain: ");
        print_chain(s);
        return;
    }
    printf("\nLayer folders, in the order read (the first layer of a name wins):\n");
    for (size_t i = 0; i < s->n_folders; i++) {
        const struct glmux_layer_folder *f = &s->folders[i];

        if (f->kind == GLMUX_LAYER_FOLDER_ANY)
            printf("  %zu. %s (%s): %s\n", i + 1, glmux_cli_esc(f->path), f->source,
                   folder_state(f));
        else
            printf("  %zu. %s (%s, %s): %s\n", i + 1, glmux_cli_esc(f->path), f->source,
                   folder_kind(f), folder_state(f));
    }
    if (!s->secure && s->explicit_asked)
        printf("A program started now reads the explicit folders: GLMUX_LAYERS or "
               "GLMUX_LAYERS_ENABLE may switch an explicit layer on.\n");
    else if (!s->secure)
        printf("A program started now does not read the explicit folders (shown here all the "
               "same):\nGLMUX_LAYERS names no layer and GLMUX_LAYERS_ENABLE none that could be "
               "explicit.\n");
    else
        printf("A program in secure execution never reads the explicit folders (shown here all "
               "the same).\n");
    if (s->count == 0)
        printf("\nNo layer found.\n");
    for (size_t i = 0; i < s->count; i++) {
        const struct glmux_layer_info *l = &s->layers[i];

        if (l->name != NULL)
            printf("\nLayer %s: ", glmux_cli_esc(l->name));
        else
            printf("\nManifest %s: ", glmux_cli_esc(l->manifest));
        print_verdict(l, s->chain_count);
        if (l->verdict != GLMUX_LAYER_BROKEN)
            printf("  %-21s%s\n", "kind:", l->implicit ? "implicit" : "explicit");
        printf("  %-21s%s", "manifest:", glmux_cli_esc(l->manifest));
        if (l->manifest_line > 0)
            printf(" (line %d)", l->manifest_line);
        printf("\n");
        if (l->library != NULL) {
            printf("  %-21s%s", "library:", glmux_cli_esc(l->library));
            if (l->library_found != NULL && strcmp(l->library_found, l->library) != 0)
                printf(" (found: %s)", glmux_cli_esc(l->library_found));
            printf("\n  %-21s", "architecture:");
            if (l->arch[0] != '\0')
                printf("%s%s\n", glmux_cli_esc(l->arch),
                       l->verdict == GLMUX_LAYER_WRONG_ARCH ||
                               (strcmp(l->arch, glmux_elf_own()) != 0)
                           ? " (not this process's)" : "");
            else if (l->verdict == GLMUX_LAYER_NO_LIBRARY)
                printf("not checked: no library\n");
            else if (l->verdict == GLMUX_LAYER_BROKEN || l->verdict == GLMUX_LAYER_DUPLICATE ||
                     l->verdict == GLMUX_LAYER_WRONG_FOLDER)
                printf("not checked\n");
            else
                printf("not checked: a bare name not found in LD_LIBRARY_PATH or the system "
                       "library folders (the dynamic linker may still find it)\n");
        }
        if (l->n_api_names > 0) {
            printf("  %-21s", "apis:");
            for (size_t k = 0; k < l->n_api_names; k++)
                printf("%s%s", k > 0 ? ", " : "", glmux_cli_esc(l->api_names[k]));
            printf("\n");
        }
        if (l->description != NULL)
            printf("  %-21s%s\n", "description:", glmux_cli_esc(l->description));
        if (l->abi_version != NULL)
            printf("  %-21s%s\n", "abi_version:", glmux_cli_esc(l->abi_version));
        print_var("enable_environment:", &l->enable);
        print_var("disable_environment:", &l->disable);
        if (l->implicit && l->verdict != GLMUX_LAYER_BROKEN)
            printf("  %-21s%s\n", "secure_execution:", l->secure_execution ? "true" : "false");
    }
    for (size_t i = 0; i < s->n_unknown; i++)
        printf("\nGLMUX_LAYERS names \"%s\": no layer manifest declares it.\n",
               glmux_cli_esc(s->unknown_names[i]));
    printf("\nChain: ");
    print_chain(s);
}

static void json_var(struct glmux_jw *w, const char *key, const struct glmux_layer_var *v)
{
    if (v->name == NULL) {
        glmux_jw_string(w, key, NULL);
        return;
    }
    glmux_jw_object(w, key);
    glmux_jw_string(w, "name", v->name);
    glmux_jw_string(w, "value", v->want);
    glmux_jw_string(w, "current", v->value);
    glmux_jw_end(w, '}');
}

static void json_chain(struct glmux_jw *w, const struct glmux_layer_scan *s)
{
    glmux_jw_array(w, "chain");
    glmux_jw_string(w, NULL, "program");
    for (size_t i = 0; i < s->chain_count; i++)
        glmux_jw_string(w, NULL, s->layers[s->chain[i]].name);
    glmux_jw_string(w, NULL, "glmux");
    glmux_jw_string(w, NULL, "vendor");
    glmux_jw_end(w, ']');
}

static void print_json(const struct glmux_layer_scan *s)
{
    struct glmux_jw w;

    glmux_jw_init(&w, stdout);
    glmux_jw_object(&w, NULL);
    glmux_jw_bool(&w, "secure_execution", s->secure);
    glmux_jw_bool(&w, "scan_skipped", s->skipped);
    glmux_jw_bool(&w, "explicit_folders_read_by_programs", s->explicit_asked);
    glmux_jw_object(&w, "variables");
    glmux_jw_string(&w, GLMUX_LAYERS_VAR, s->layers_var);
    glmux_jw_string(&w, GLMUX_LAYERS_ENABLE_VAR, s->enable_var);
    glmux_jw_string(&w, GLMUX_LAYERS_DISABLE_VAR, s->disable_var);
    glmux_jw_string(&w, GLMUX_LAYER_PATH_VAR, s->path_var);
    glmux_jw_end(&w, '}');
    glmux_jw_array(&w, "folders");
    for (size_t i = 0; i < s->n_folders; i++) {
        glmux_jw_object(&w, NULL);
        glmux_jw_string(&w, "path", s->folders[i].path);
        glmux_jw_string(&w, "source", s->folders[i].source);
        glmux_jw_string(&w, "kind", folder_kind(&s->folders[i]));
        glmux_jw_string(&w, "state", folder_state(&s->folders[i]));
        glmux_jw_end(&w, '}');
    }
    glmux_jw_end(&w, ']');
    glmux_jw_array(&w, "layers");
    for (size_t i = 0; i < s->count; i++) {
        const struct glmux_layer_info *l = &s->layers[i];

        glmux_jw_object(&w, NULL);
        glmux_jw_string(&w, "name", l->name);
        glmux_jw_string(&w, "kind", l->verdict == GLMUX_LAYER_BROKEN ? NULL
                                    : l->implicit                    ? "implicit"
                                                                     : "explicit");
        glmux_jw_string(&w, "manifest", l->manifest);
        glmux_jw_int(&w, "line", l->manifest_line);
        glmux_jw_string(&w, "library", l->library);
        glmux_jw_string(&w, "library_file", l->library_found);
        glmux_jw_string(&w, "architecture", l->arch[0] != '\0' ? l->arch : NULL);
        glmux_jw_array(&w, "apis");
        for (size_t k = 0; k < l->n_api_names; k++)
            glmux_jw_string(&w, NULL, l->api_names[k]);
        glmux_jw_end(&w, ']');
        glmux_jw_string(&w, "description", l->description);
        glmux_jw_string(&w, "abi_version", l->abi_version);
        glmux_jw_bool(&w, "secure_execution", l->secure_execution);
        json_var(&w, "enable_environment", &l->enable);
        json_var(&w, "disable_environment", &l->disable);
        glmux_jw_string(&w, "verdict", verdict_key(l->verdict));
        glmux_jw_string(&w, "reason", l->reason[0] != '\0' ? l->reason : NULL);
        glmux_jw_int(&w, "chain_position", l->chain_position);
        glmux_jw_end(&w, '}');
    }
    glmux_jw_end(&w, ']');
    glmux_jw_array(&w, "unknown_names");
    for (size_t i = 0; i < s->n_unknown; i++)
        glmux_jw_string(&w, NULL, s->unknown_names[i]);
    glmux_jw_end(&w, ']');
    json_chain(&w, s);
    glmux_jw_end(&w, '}');
    glmux_jw_finish(&w);
}

int glmux_cli_layers(int argc, char **argv)
{
    struct glmux_layer_scan scan;
    bool json = false;

    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else {
            const char *known[] = { "--json" };
            const char *near = glmux_cli_nearest(argv[i], known, 1);
            fprintf(stderr, "glmux: layers: unknown option '%s'%s%s%s\nTry 'glmux layers "
                    "--help'.\n", glmux_cli_esc(argv[i]), near ? "; did you mean '" : "",
                    near ? near : "", near ? "'?" : "");
            return GLMUX_EXIT_USAGE;
        }
    }
    if (!glmux_layers_scan(NULL, &scan)) {
        fprintf(stderr, "glmux: layers: out of memory\n");
        return GLMUX_EXIT_FAIL;
    }
    if (json)
        print_json(&scan);
    else
        print_text(&scan);
    glmux_layers_scan_free(&scan);
    return GLMUX_EXIT_OK;
}

/* Whether the layer's manifest lies in an explicit_layer.d a program would not read now. */
static bool unread_by_programs(const struct glmux_layer_scan *s, const struct glmux_layer_info *l)
{
    if (s->explicit_asked)
        return false;
    for (size_t i = 0; i < s->n_folders; i++) {
        const struct glmux_layer_folder *f = &s->folders[i];
        size_t n = strlen(f->path);

        if (f->kind == GLMUX_LAYER_FOLDER_EXPLICIT && strncmp(l->manifest, f->path, n) == 0 &&
            l->manifest[n] == '/' && strchr(l->manifest + n + 1, '/') == NULL)
            return true;
    }
    return false;
}

void glmux_cli_explain_layers(struct glmux_jw *w)
{
    struct glmux_layer_scan scan;
    size_t off = 0, unread = 0;

    if (!glmux_layers_scan(NULL, &scan))
        return;
    for (size_t i = 0; i < scan.count; i++) {
        off += scan.layers[i].verdict != GLMUX_LAYER_WOULD_LOAD;
        unread += unread_by_programs(&scan, &scan.layers[i]);
    }
    if (w != NULL) {
        glmux_jw_object(w, "layers");
        json_chain(w, &scan);
        glmux_jw_int(w, "found", (long)scan.count);
        glmux_jw_int(w, "not_loaded", (long)off);
        glmux_jw_int(w, "in_unread_explicit_folders", (long)unread);
        glmux_jw_end(w, '}');
    } else {
        printf("GL layers:   ");
        print_chain(&scan);
        if (scan.skipped)
            printf("             every layer is off (GLMUX_LAYERS_DISABLE): no layer folder "
                   "read\n");
        else if (scan.count > 0 && unread > 0)
            printf("             %zu layer(s) found, %zu not loaded (%zu in explicit_layer.d "
                   "folders,\n             which a program reads only when a layer is asked "
                   "for); 'glmux layers' says why\n", scan.count, off, unread);
        else if (scan.count > 0)
            printf("             %zu layer(s) found, %zu not loaded; 'glmux layers' says why\n",
                   scan.count, off);
    }
    glmux_layers_scan_free(&scan);
}

/* ---- glmux manifest --layer ---- */

static int layer_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "glmux: manifest: ");
    fprintf(stderr, fmt, glmux_cli_esc(arg));
    fprintf(stderr, "\nTry 'glmux manifest --help'.\n");
    return GLMUX_EXIT_USAGE;
}

bool glmux_cli_is_layer_manifest(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--layer") == 0)
            return true;
    return false;
}

/* VAR=VALUE into an environment object member. */
static bool write_env(struct glmux_jw *w, const char *key, const char *arg)
{
    const char *eq = arg != NULL ? strchr(arg, '=') : NULL;
    char name[130];

    if (arg == NULL)
        return true;
    if (eq == NULL || eq == arg || (size_t)(eq - arg) >= sizeof(name))
        return false;
    snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
    glmux_jw_object(w, key);
    glmux_jw_string(w, name, eq + 1);
    glmux_jw_end(w, '}');
    return true;
}

int glmux_cli_layer_manifest(int argc, char **argv)
{
    const char *name = NULL, *library = NULL, *type = "explicit", *apis = NULL, *arch = NULL;
    const char *description = NULL, *enable = NULL, *disable = NULL;
    bool secure = false;
    char abi[16], *text = NULL;
    size_t len = 0, n;
    struct glmux_layer_info info[GLMUX_LAYER_PER_MANIFEST_MAX];
    struct glmux_jw w;
    FILE *mem;

    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = strcmp(opt, "--layer") == 0         ? &name
                            : strcmp(opt, "--library") == 0     ? &library
                            : strcmp(opt, "--type") == 0        ? &type
                            : strcmp(opt, "--apis") == 0        ? &apis
                            : strcmp(opt, "--arch") == 0        ? &arch
                            : strcmp(opt, "--description") == 0 ? &description
                            : strcmp(opt, "--enable-env") == 0  ? &enable
                            : strcmp(opt, "--disable-env") == 0 ? &disable
                                                                : NULL;
        if (strcmp(opt, "--secure-execution") == 0) {
            secure = true;
            continue;
        }
        if (slot == NULL)
            return layer_usage("unknown option '%s'", opt);
        if (val == NULL)
            return layer_usage("%s needs a value", opt);
        *slot = val;
        i++;
    }
    if (name == NULL || !glmux_layer_valid_name(name))
        return layer_usage("--layer '%s': a layer name is 1-64 characters of A-Z a-z 0-9 _ . -",
                           name != NULL ? name : "");
    if (library == NULL)
        return layer_usage("%s", "--library LIB is required");
    if (apis == NULL)
        return layer_usage("%s", "--apis is required (a comma-separated list of gl, gles1, "
                           "gles2, glx, egl)");
    if (strcmp(type, "explicit") != 0 && strcmp(type, "implicit") != 0)
        return layer_usage("--type '%s' must be explicit or implicit", type);
    if (arch != NULL && strcmp(arch, "32") != 0 && strcmp(arch, "64") != 0)
        return layer_usage("--arch '%s' must be 32 or 64", arch);
    if (strcmp(type, "implicit") == 0 && disable == NULL)
        return layer_usage("%s", "an implicit layer needs --disable-env VAR=VALUE (a variable "
                           "that switches it off)");
    snprintf(abi, sizeof(abi), "%d.%d", GLMUX_LAYER_ABI_MAJOR, GLMUX_LAYER_ABI_MINOR);

    mem = open_memstream(&text, &len);
    if (mem == NULL) {
        fprintf(stderr, "glmux: manifest: out of memory\n");
        return GLMUX_EXIT_FAIL;
    }
    glmux_jw_init(&w, mem);
    glmux_jw_object(&w, NULL);
    glmux_jw_string(&w, "file_format_version", "1.0.0");
    glmux_jw_object(&w, "layer");
    glmux_jw_string(&w, "name", name);
    glmux_jw_string(&w, "type", type);
    glmux_jw_string(&w, "library_path", library);
    if (arch != NULL)
        glmux_jw_string(&w, "library_arch", arch);
    glmux_jw_string(&w, "abi_version", abi);
    glmux_jw_array(&w, "apis");
    for (const char *p = apis; *p != '\0';) {
        size_t k = strcspn(p, ",");
        char one[32];
        if (k > 0 && k < sizeof(one)) {
            snprintf(one, sizeof(one), "%.*s", (int)k, p);
            glmux_jw_string(&w, NULL, one);
        }
        p += k;
        if (*p == ',')
            p++;
    }
    glmux_jw_end(&w, ']');
    if (description != NULL)
        glmux_jw_string(&w, "description", description);
    if (!write_env(&w, "enable_environment", enable) ||
        !write_env(&w, "disable_environment", disable)) {
        fclose(mem);
        free(text);
        return layer_usage("'%s' must be VAR=VALUE", enable != NULL && strchr(enable, '=') ==
                           NULL ? enable : disable);
    }
    if (secure)
        glmux_jw_bool(&w, "secure_execution", true);
    glmux_jw_end(&w, '}');
    glmux_jw_end(&w, '}');
    glmux_jw_finish(&w);
    fclose(mem);

    /* Parsed back by the loader's own parser: only a manifest glmux would read is printed. */
    n = glmux_layer_manifest_parse("<manifest>", text, len, info, GLMUX_LAYER_PER_MANIFEST_MAX);
    if (n == 0 || info[0].verdict == GLMUX_LAYER_BROKEN) {
        fprintf(stderr, "glmux: manifest: %s\n",
                n == 0 ? "out of memory" : glmux_cli_esc(info[0].reason));
        for (size_t i = 0; i < n; i++)
            glmux_layer_info_clear(&info[i]);
        free(text);
        return n == 0 ? GLMUX_EXIT_FAIL : GLMUX_EXIT_USAGE;
    }
    for (size_t i = 0; i < n; i++)
        glmux_layer_info_clear(&info[i]);
    fputs(text, stdout);
    free(text);
    return GLMUX_EXIT_OK;
}

/* ---- glmux run --layer / glmux env --layer ---- */

char *glmux_cli_layers_value(const char *const *names, int n)
{
    const char *old = getenv(GLMUX_LAYERS_VAR);
    char *value = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&value, &size);

    if (mem == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        fprintf(mem, "%s%s", i > 0 ? "," : "", names[i]);
    /* The layers the caller's environment names already stay, below the ones asked for. */
    if (old != NULL && old[0] != '\0')
        fprintf(mem, ",%s", old);
    if (fclose(mem) != 0) {
        free(value);
        return NULL;
    }
    return value;
}

bool glmux_cli_layer_name_ok(const char *name)
{
    return glmux_layer_valid_name(name);
}
