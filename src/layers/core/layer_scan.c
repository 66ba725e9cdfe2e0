/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layers: discovery and judgement (docs/layers.md, "Folders", "Variables", "Security").
 * The folders are read in their documented order (GLMUX_LAYER_PATH; the user's, the
 * administrators' and the packages' implicit_layer.d; the same three explicit_layer.d), each
 * folder's *.json in byte order; the first layer of a name wins. As Vulkan's, a folder says the
 * kind of its layers (a manifest whose "type" disagrees is skipped; GLMUX_LAYER_PATH's folders
 * hold both kinds), so that the explicit folders are read only when something can switch an
 * explicit layer on: installed explicit layers cost a program nothing until asked for. Then
 * each layer gets one verdict: broken, wrong folder, duplicate, ignored in secure execution,
 * off (and by what), wrong architecture, library missing, or would load; and the layers that
 * would load are put in chain order, top first: GLMUX_LAYERS's names in their order, then the
 * others in discovery order. A disable filter that covers every layer (and nothing named or
 * enabled) ends it before any folder is read. The same code serves the loader (which checks
 * the library files of the layers it will load only) and `glmux layers` (all of them, and the
 * explicit folders always).
 */
#define _GNU_SOURCE
#include "layers/core/layer_internal.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/env.h"
#include "util/file.h"
#include "util/log.h"

/* The administrators' and the packages' bases; each holds implicit_layer.d and
 * explicit_layer.d. */
#ifndef GLMUX_LAYER_SYSTEM_BASE
#define GLMUX_LAYER_SYSTEM_BASE "/etc/glmux"
#endif
#ifndef GLMUX_LAYER_PACKAGE_BASE
#define GLMUX_LAYER_PACKAGE_BASE "/usr/lib/glvnd"
#endif
#ifndef GLMUX_LIBDIR
#define GLMUX_LIBDIR "/usr/lib"
#endif
#ifndef GLMUX_LIB_ARCH
#define GLMUX_LIB_ARCH ""
#endif

static const char *default_get(const char *name)
{
    return glmux_env_get(name);
}

static const char *default_get_always(const char *name)
{
    return glmux_env_get_always(name);
}

const struct glmux_layers_env *glmux_layers_env_default(void)
{
    static const struct glmux_layers_env plain = { default_get, default_get_always, false, 0,
                                                   NULL, NULL };
    static const struct glmux_layers_env secure = { default_get, default_get_always, true, 0,
                                                    NULL, NULL };

    return glmux_env_is_secure() ? &secure : &plain;
}

const char *glmux_layer_verdict_name(enum glmux_layer_verdict verdict)
{
    switch (verdict) {
    case GLMUX_LAYER_WOULD_LOAD: return "would load";
    case GLMUX_LAYER_OFF: return "off";
    case GLMUX_LAYER_WRONG_ARCH: return "wrong architecture";
    case GLMUX_LAYER_NO_LIBRARY: return "library missing";
    case GLMUX_LAYER_SECURE_IGNORED: return "ignored in secure execution";
    case GLMUX_LAYER_DUPLICATE: return "duplicate";
    case GLMUX_LAYER_WRONG_FOLDER: return "wrong folder";
    case GLMUX_LAYER_BROKEN: return "broken manifest";
    }
    return "?";
}

static void set_verdict(struct glmux_layer_info *info, enum glmux_layer_verdict verdict,
                        const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void set_verdict(struct glmux_layer_info *info, enum glmux_layer_verdict verdict,
                        const char *fmt, ...)
{
    va_list ap;

    info->verdict = verdict;
    va_start(ap, fmt);
    vsnprintf(info->reason, sizeof(info->reason), fmt, ap);
    va_end(ap);
}

/* ---- folders ---- */

static bool add_folder(struct glmux_layer_scan *s, const char *path, size_t len,
                       const char *source, enum glmux_layer_folder_kind kind, bool ignored)
{
    struct glmux_layer_folder *grown;
    char *copy = strndup(path, len);

    if (copy == NULL)
        return false;
    for (size_t i = 0; i < s->n_folders; i++) {
        if (strcmp(s->folders[i].path, copy) == 0) { /* one folder is read once */
            free(copy);
            return true;
        }
    }
    grown = realloc(s->folders, (s->n_folders + 1) * sizeof(*grown));
    if (grown == NULL) {
        free(copy);
        return false;
    }
    s->folders = grown;
    grown[s->n_folders++] = (struct glmux_layer_folder){ copy, source, kind, ignored, false,
                                                         false };
    return true;
}

static const char *kind_folder(enum glmux_layer_folder_kind kind)
{
    return kind == GLMUX_LAYER_FOLDER_IMPLICIT ? GLMUX_LAYER_IMPLICIT_FOLDER
                                               : GLMUX_LAYER_EXPLICIT_FOLDER;
}

/* base/implicit_layer.d or base/explicit_layer.d. */
static bool add_kind_folder(struct glmux_layer_scan *s, const char *base, const char *source,
                            enum glmux_layer_folder_kind kind, bool ignored)
{
    char *path;
    bool ok;

    if (asprintf(&path, "%s/%s", base, kind_folder(kind)) < 0)
        return false;
    ok = add_folder(s, path, strlen(path), source, kind, ignored);
    free(path);
    return ok;
}

/*
 * GLMUX_LAYER_PATH's folders, then the implicit folders of the user, the administrators and the
 * packages, then their explicit folders. All implicit folders come before any explicit one, so
 * that whether the explicit folders are read never changes which implicit layer of a name wins.
 */
static bool add_folders(const struct glmux_layers_env *env, struct glmux_layer_scan *s)
{
    static const enum glmux_layer_folder_kind kinds[] = { GLMUX_LAYER_FOLDER_IMPLICIT,
                                                          GLMUX_LAYER_FOLDER_EXPLICIT };
    static const char *const sources[] = { "user", "system", "package" };
    const char *path = env->secure ? env->get_always(GLMUX_LAYER_PATH_VAR) : s->path_var;
    const char *data, *home, *bases[3];
    char *user = NULL;
    bool ok = true;

    for (const char *p = path; ok && p != NULL && *p != '\0';) {
        size_t len = strcspn(p, ":");
        if (len > 0)
            ok = add_folder(s, p, len, GLMUX_LAYER_PATH_VAR, GLMUX_LAYER_FOLDER_ANY, env->secure);
        p += len;
        if (*p == ':')
            p++;
    }
    /* The XDG rule: $XDG_DATA_HOME when it is an absolute path, else ~/.local/share. */
    data = env->secure ? env->get_always("XDG_DATA_HOME") : env->get("XDG_DATA_HOME");
    home = env->secure ? env->get_always("HOME") : env->get("HOME");
    if (data != NULL && data[0] == '/') {
        if (asprintf(&user, "%s/glmux", data) < 0)
            return false;
    } else if (home != NULL && home[0] == '/') {
        if (asprintf(&user, "%s/.local/share/glmux", home) < 0)
            return false;
    }
    bases[0] = user;
    bases[1] = env->system_base != NULL ? env->system_base : GLMUX_LAYER_SYSTEM_BASE;
    bases[2] = env->package_base != NULL ? env->package_base : GLMUX_LAYER_PACKAGE_BASE;
    for (size_t k = 0; ok && k < 2; k++)
        for (size_t i = 0; ok && i < 3; i++)
            if (bases[i] != NULL)
                ok = add_kind_folder(s, bases[i], sources[i], kinds[k], i == 0 && env->secure);
    free(user);
    return ok;
}

/* A folder of one kind holds layers of that kind only: one whose "type" says the other is
 * skipped, with where it belongs. */
static void check_kind(const struct glmux_layer_folder *f, struct glmux_layer_info *info)
{
    bool implicit_folder = f->kind == GLMUX_LAYER_FOLDER_IMPLICIT;
    const char *slash = strrchr(f->path, '/');
    int base_len = slash != NULL ? (int)(slash - f->path) : 0;

    if (f->kind == GLMUX_LAYER_FOLDER_ANY || info->verdict == GLMUX_LAYER_BROKEN ||
        info->implicit == implicit_folder)
        return;
    set_verdict(info, GLMUX_LAYER_WRONG_FOLDER,
                "its \"type\" is \"%s\", but %s is a folder of %s layers; move the manifest to "
                "%.*s/%s or correct its \"type\"",
                info->implicit ? "implicit" : "explicit", f->path,
                implicit_folder ? "implicit" : "explicit", base_len, f->path,
                info->implicit ? GLMUX_LAYER_IMPLICIT_FOLDER : GLMUX_LAYER_EXPLICIT_FOLDER);
}

static bool read_folder(struct glmux_layer_scan *s, size_t *cap, struct glmux_layer_folder *f)
{
    static bool said_full;
    char **names;
    size_t n;
    int code = glmux_file_list_dir(f->path, ".json", &names, &n);

    if (code == ENOMEM)
        return false;
    if (code != 0) {
        f->missing = code == ENOENT || code == ENOTDIR;
        glmux_log(GLMUX_LOG_LAYER, "layer folder %s: %s, skipped", f->path,
                  f->missing ? "missing" : strerror(code));
        return true;
    }
    for (size_t i = 0; i < n; i++) {
        struct glmux_layer_info got[GLMUX_LAYER_PER_MANIFEST_MAX];
        size_t count;
        char *path;

        if (s->count >= GLMUX_LAYERS_MAX) {
            if (!__atomic_exchange_n(&said_full, true, __ATOMIC_RELAXED))
                glmux_log(GLMUX_LOG_WARN, "more than %d GL layers found; the manifests from %s/%s "
                          "on are not read", GLMUX_LAYERS_MAX, f->path, names[i]);
            break;
        }
        if (asprintf(&path, "%s/%s", f->path, names[i]) < 0) {
            glmux_file_list_free(names, n);
            return false;
        }
        count = glmux_layer_manifest_read(path, got, GLMUX_LAYER_PER_MANIFEST_MAX);
        free(path);
        if (count == 0) {
            glmux_file_list_free(names, n);
            return false;
        }
        for (size_t k = 0; k < count; k++)
            check_kind(f, &got[k]);
        if (s->count + count > *cap) {
            size_t more = *cap * 2 + count + 8;
            struct glmux_layer_info *grown = realloc(s->layers, more * sizeof(*grown));
            if (grown == NULL) {
                for (size_t k = 0; k < count; k++)
                    glmux_layer_info_clear(&got[k]);
                glmux_file_list_free(names, n);
                return false;
            }
            s->layers = grown;
            *cap = more;
        }
        memcpy(&s->layers[s->count], got, count * sizeof(got[0]));
        s->count += count;
    }
    glmux_file_list_free(names, n);
    return true;
}

/* ---- libraries ---- */

/* Whether a file may be trusted in secure execution: owned by the trusted user (root), not
 * writable by group or others. */
static bool trusted_file(const struct glmux_layers_env *env, const char *path, char *why,
                         size_t size)
{
    struct stat st;

    if (stat(path, &st) != 0) {
        snprintf(why, size, "%s: %s", path, strerror(errno));
        return false;
    }
    if (st.st_uid != env->trusted_uid) {
        snprintf(why, size, "%s is owned by uid %u, not by root", path, (unsigned)st.st_uid);
        return false;
    }
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        snprintf(why, size, "%s is writable by its group or others", path);
        return false;
    }
    return true;
}

/* One candidate file for a bare name: returned when it is of this process's architecture;
 * kept in *foreign (with what it is) when it is the first of another; else freed. */
static char *try_candidate(char *path, char **foreign, char *foreign_what, size_t what_size)
{
    char what[64];
    enum glmux_elf_result r = glmux_elf_check(path, what, sizeof(what));

    if (r == GLMUX_ELF_OURS)
        return path;
    if (r == GLMUX_ELF_FOREIGN && *foreign == NULL) {
        *foreign = path;
        snprintf(foreign_what, what_size, "%s", what);
    } else {
        free(path);
    }
    return NULL;
}

/* Finds a bare library name where the dynamic linker would usually find it: LD_LIBRARY_PATH
 * (not in secure execution, as ld.so), glmux's libdir and the system folders. The first file of
 * this process's architecture wins; *foreign gets the first of another (ld.so skips those). */
static char *search_library(const struct glmux_layers_env *env, const char *name, char **foreign,
                            char *foreign_what, size_t what_size)
{
    const char *ld = env->secure ? NULL : env->get("LD_LIBRARY_PATH");
    const char *fixed[] = {
        GLMUX_LIBDIR,
        GLMUX_LIB_ARCH[0] != '\0' ? "/lib/" GLMUX_LIB_ARCH : NULL,
        GLMUX_LIB_ARCH[0] != '\0' ? "/usr/lib/" GLMUX_LIB_ARCH : NULL,
        sizeof(void *) == 8 ? "/lib64" : "/lib32",
        sizeof(void *) == 8 ? "/usr/lib64" : "/usr/lib32",
        "/lib",
        "/usr/lib",
    };
    char *path, *found;

    *foreign = NULL;
    for (const char *p = ld; p != NULL && *p != '\0';) {
        size_t len = strcspn(p, ":;");

        if (len > 0 && asprintf(&path, "%.*s/%s", (int)len, p, name) >= 0 &&
            (found = try_candidate(path, foreign, foreign_what, what_size)) != NULL)
            return found;
        p += len;
        if (*p != '\0')
            p++;
    }
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        if (fixed[i] != NULL && asprintf(&path, "%s/%s", fixed[i], name) >= 0 &&
            (found = try_candidate(path, foreign, foreign_what, what_size)) != NULL)
            return found;
    }
    return NULL;
}

/* Checks the library without loading it; true when the verdict still stands. */
static bool check_library(const struct glmux_layers_env *env, struct glmux_layer_info *info)
{
    char what[sizeof(info->arch)];
    enum glmux_elf_result r;

    if (info->library_arch != 0 && info->library_arch != glmux_elf_own_bits()) {
        snprintf(info->arch, sizeof(info->arch), "%d-bit (library_arch)", info->library_arch);
        set_verdict(info, GLMUX_LAYER_WRONG_ARCH,
                    "its manifest says library_arch \"%d\"; this process is %s",
                    info->library_arch, glmux_elf_own());
        return false;
    }
    if (strchr(info->library, '/') == NULL) {
        char *foreign = NULL;
        char foreign_what[sizeof(info->arch)] = "";

        info->library_found =
            search_library(env, info->library, &foreign, foreign_what, sizeof(foreign_what));
        if (info->library_found != NULL) {
            snprintf(info->arch, sizeof(info->arch), "%s", glmux_elf_own());
        } else if (foreign != NULL) {
            /* ld.so passes over a file of another class and searches on: not a verdict. */
            snprintf(info->arch, sizeof(info->arch), "%s", foreign_what);
            info->library_found = foreign;
            foreign = NULL;
        }
        free(foreign);
        return true;
    }
    info->library_found = strdup(info->library);
    r = glmux_elf_check(info->library, what, sizeof(what));
    if (r == GLMUX_ELF_UNREADABLE) {
        set_verdict(info, GLMUX_LAYER_NO_LIBRARY, "library %s: %s", info->library, what);
        return false;
    }
    snprintf(info->arch, sizeof(info->arch), "%s", what);
    if (r == GLMUX_ELF_FOREIGN) {
        set_verdict(info, GLMUX_LAYER_WRONG_ARCH, "%s is %s; this process is %s", info->library,
                    what, glmux_elf_own());
        return false;
    }
    return true;
}

/* ---- judgement ---- */

static int named_at(const struct glmux_layer_scan *s, char **names, size_t n_names,
                    const char *name)
{
    (void)s;
    for (size_t i = 0; i < n_names; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

/* In secure execution: only implicit layers that say they may, with root's files. */
static bool judge_secure(const struct glmux_layers_env *env, struct glmux_layer_info *info)
{
    char why[256];

    if (!info->implicit) {
        set_verdict(info, GLMUX_LAYER_SECURE_IGNORED,
                    "an explicit layer; GLMUX_LAYERS and GLMUX_LAYERS_ENABLE are ignored in "
                    "secure execution");
        return false;
    }
    if (!info->secure_execution) {
        set_verdict(info, GLMUX_LAYER_SECURE_IGNORED,
                    "its manifest does not say \"secure_execution\": true");
        return false;
    }
    if (!trusted_file(env, info->manifest, why, sizeof(why))) {
        set_verdict(info, GLMUX_LAYER_SECURE_IGNORED, "%s", why);
        return false;
    }
    return true;
}

static bool judge_secure_library(const struct glmux_layers_env *env,
                                 struct glmux_layer_info *info)
{
    char why[256];

    if (info->library_found == NULL) {
        set_verdict(info, GLMUX_LAYER_SECURE_IGNORED,
                    "library %s is not in the system library folders, so its owner cannot be "
                    "checked; give an absolute library_path", info->library);
        return false;
    }
    if (!trusted_file(env, info->library_found, why, sizeof(why))) {
        set_verdict(info, GLMUX_LAYER_SECURE_IGNORED, "%s", why);
        return false;
    }
    return true;
}

/* The switches, in their precedence (docs/layers.md, "Variables"). */
static bool judge_switches(struct glmux_layer_info *info, int named,
                           const struct glmux_layer_filter *enable,
                           const struct glmux_layer_filter *disable, const char *disable_var)
{
    if (info->disable.name != NULL && info->disable.value != NULL) {
        set_verdict(info, GLMUX_LAYER_OFF, "its disable_environment %s is set (\"%s\")",
                    info->disable.name, info->disable.value);
        return false;
    }
    if (named >= 0 || glmux_layer_filter_match(enable, info->name, info->implicit))
        return true;
    if (glmux_layer_filter_match(disable, info->name, info->implicit)) {
        set_verdict(info, GLMUX_LAYER_OFF, "GLMUX_LAYERS_DISABLE=\"%s\" switches it off",
                    disable_var);
        return false;
    }
    if (!info->implicit) {
        set_verdict(info, GLMUX_LAYER_OFF,
                    "an explicit layer, and neither GLMUX_LAYERS nor GLMUX_LAYERS_ENABLE names it");
        return false;
    }
    if (info->enable.name != NULL && !info->enable.matches) {
        if (info->enable.value == NULL)
            set_verdict(info, GLMUX_LAYER_OFF, "its enable_environment %s=%s is unset",
                        info->enable.name, info->enable.want);
        else
            set_verdict(info, GLMUX_LAYER_OFF,
                        "its enable_environment asks %s=%s, and it is \"%s\"",
                        info->enable.name, info->enable.want, info->enable.value);
        return false;
    }
    return true;
}

static bool judge_abi(struct glmux_layer_info *info)
{
    unsigned long major;

    if (info->abi_version == NULL)
        return true;
    major = strtoul(info->abi_version, NULL, 10);
    if (major != GLMUX_LAYER_ABI_MAJOR) {
        set_verdict(info, GLMUX_LAYER_OFF, "built for layer ABI %s; this glmux speaks %d.%d",
                    info->abi_version, GLMUX_LAYER_ABI_MAJOR, GLMUX_LAYER_ABI_MINOR);
        return false;
    }
    return true;
}

static bool judge(const struct glmux_layers_env *env, struct glmux_layer_scan *s, char **names,
                  size_t n_names, const struct glmux_layer_filter *enable,
                  const struct glmux_layer_filter *disable, bool all_libraries)
{
    for (size_t i = 0; i < s->count; i++) {
        struct glmux_layer_info *info = &s->layers[i];
        int named;
        bool on;

        if (info->verdict == GLMUX_LAYER_BROKEN || info->verdict == GLMUX_LAYER_WRONG_FOLDER)
            continue;
        for (size_t j = 0; j < i; j++) {
            const struct glmux_layer_info *first = &s->layers[j];
            if (first->verdict != GLMUX_LAYER_BROKEN && first->verdict != GLMUX_LAYER_DUPLICATE &&
                first->verdict != GLMUX_LAYER_WRONG_FOLDER &&
                strcmp(first->name, info->name) == 0) {
                set_verdict(info, GLMUX_LAYER_DUPLICATE, "duplicate of %s from %s (the first "
                            "found wins)", first->name, first->manifest);
                break;
            }
        }
        if (info->verdict == GLMUX_LAYER_DUPLICATE)
            continue;
        if (info->enable.name != NULL) {
            info->enable.value = env->get(info->enable.name);
            info->enable.matches = info->enable.value != NULL &&
                                   strcmp(info->enable.value, info->enable.want) == 0;
        }
        if (info->disable.name != NULL) {
            info->disable.value = env->get_always(info->disable.name);
            info->disable.matches = info->disable.value != NULL &&
                                    strcmp(info->disable.value, info->disable.want) == 0;
        }
        named = named_at(s, names, n_names, info->name);
        if (env->secure && !judge_secure(env, info))
            continue;
        on = judge_switches(info, named, enable, disable, s->disable_var) && judge_abi(info);
        if (!on) {
            /* The tool shows an off layer's library and architecture too; its verdict stays
             * what switched it off. */
            enum glmux_layer_verdict verdict = info->verdict;
            char reason[sizeof(info->reason)];

            if (!all_libraries)
                continue;
            memcpy(reason, info->reason, sizeof(reason));
            check_library(env, info);
            info->verdict = verdict;
            memcpy(info->reason, reason, sizeof(reason));
            continue;
        }
        if (!check_library(env, info))
            continue;
        if (env->secure && !judge_secure_library(env, info))
            continue;
    }
    return true;
}

static bool chain_add(struct glmux_layer_scan *s, size_t index)
{
    s->layers[index].chain_position = (int)s->chain_count;
    s->chain[s->chain_count++] = index;
    return true;
}

static bool make_chain(struct glmux_layer_scan *s, char **names, size_t n_names)
{
    s->chain = calloc(s->count + 1, sizeof(size_t));
    if (s->chain == NULL)
        return false;
    for (size_t k = 0; k < n_names; k++) {
        bool declared = false;

        for (size_t i = 0; i < s->count; i++) {
            const struct glmux_layer_info *info = &s->layers[i];
            if (info->name == NULL || strcmp(info->name, names[k]) != 0)
                continue;
            declared = true;
            if (info->verdict == GLMUX_LAYER_WOULD_LOAD && info->chain_position < 0)
                chain_add(s, i);
        }
        if (!declared) {
            char **grown = realloc(s->unknown_names, (s->n_unknown + 1) * sizeof(char *));
            if (grown == NULL)
                return false;
            s->unknown_names = grown;
            grown[s->n_unknown] = strdup(names[k]);
            if (grown[s->n_unknown] == NULL)
                return false;
            s->n_unknown++;
        }
    }
    for (size_t i = 0; i < s->count; i++)
        if (s->layers[i].verdict == GLMUX_LAYER_WOULD_LOAD && s->layers[i].chain_position < 0)
            chain_add(s, i);
    return true;
}

void glmux_layers_scan_free(struct glmux_layer_scan *scan)
{
    for (size_t i = 0; i < scan->n_folders; i++)
        free(scan->folders[i].path);
    free(scan->folders);
    for (size_t i = 0; i < scan->count; i++)
        glmux_layer_info_clear(&scan->layers[i]);
    free(scan->layers);
    free(scan->chain);
    for (size_t i = 0; i < scan->n_unknown; i++)
        free(scan->unknown_names[i]);
    free(scan->unknown_names);
    memset(scan, 0, sizeof(*scan));
}

/* ---- the loader's quick answer ---- */

/* Whether path is a folder that holds a *.json (what read_folder would read). A folder that
 * cannot be listed is skipped by the scan as well. Nothing is allocated. */
static bool folder_has_manifest(const char *path)
{
    struct dirent *e;
    bool found = false;
    DIR *d = opendir(path);

    if (d == NULL)
        return false;
    while (!found && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);

        found = n > 5 && memcmp(e->d_name + n - 5, ".json", 5) == 0;
    }
    closedir(d);
    return found;
}

/* The same for the len bytes at path (one folder of GLMUX_LAYER_PATH); true too when it is
 * too long to be checked here (the scan will say). */
static bool folder_has_manifest_n(const char *path, size_t len)
{
    char buf[PATH_MAX];

    if (path[len] == '\0')
        return folder_has_manifest(path);
    if (len >= sizeof(buf))
        return true;
    memcpy(buf, path, len);
    buf[len] = '\0';
    return folder_has_manifest(buf);
}

/* A variable as env->get reads it; env NULL: the process's own, glmux_env_get (nothing in
 * secure execution), without a call through the table. */
static const char *quick_get(const struct glmux_layers_env *env, const char *name)
{
    return env != NULL ? env->get(name) : glmux_env_get(name);
}

/* base/implicit_layer.d; true too when it is too long to be checked here. */
static bool implicit_folder_has_manifest(const char *base, const char *tail)
{
    char buf[PATH_MAX];
    int n = snprintf(buf, sizeof(buf), "%s%s/" GLMUX_LAYER_IMPLICIT_FOLDER, base, tail);

    return n < 0 || (size_t)n >= sizeof(buf) || folder_has_manifest(buf);
}

/* The user's implicit folder, by the XDG rule of add_folders. */
static bool user_folder_has_manifest(const struct glmux_layers_env *env)
{
    const char *base = quick_get(env, "XDG_DATA_HOME"), *tail = "/glmux";

    if (base == NULL || base[0] != '/') {
        base = quick_get(env, "HOME");
        if (base == NULL || base[0] != '/')
            return false;
        tail = "/.local/share/glmux";
    }
    return implicit_folder_has_manifest(base, tail);
}

/*
 * The loader's answer, without a scan, when it can tell that no layer can load: nothing names
 * or enables a layer, and GLMUX_LAYERS_DISABLE is "~all~" or neither GLMUX_LAYER_PATH's folders
 * nor the three implicit folders hold a manifest (an open each, and a read of those that
 * exist; nothing allocated, no message formatted). The explicit folders are never looked at:
 * with nothing named or enabled the scan does not read them either. False means "scan":
 * whenever a variable names or enables a layer, a manifest is found (a broken one is warned
 * about by the scan), or the layer messages are on (the scan says what it read). Where it
 * answers true, the scan would find no layer and say nothing at the levels that are on
 * (docs/performance.md, "GL layers"). In secure execution env->get answers NULL
 * (glmux_env_get), so only the administrators' and the packages' implicit folders are looked
 * at, the only ones the scan reads there.
 */
bool glmux_layers_none_quick(const struct glmux_layers_env *env)
{
    const char *v;

    if (glmux_log_enabled(GLMUX_LOG_LAYER))
        return false;
    v = quick_get(env, GLMUX_LAYERS_VAR);
    if (v != NULL && *v != '\0')
        return false;
    v = quick_get(env, GLMUX_LAYERS_ENABLE_VAR);
    if (v != NULL && *v != '\0')
        return false;
    v = env != NULL ? env->get_always(GLMUX_LAYERS_DISABLE_VAR)
                    : glmux_env_get_always(GLMUX_LAYERS_DISABLE_VAR);
    if (v != NULL && strcmp(v, "~all~") == 0)
        return true;
    for (const char *p = quick_get(env, GLMUX_LAYER_PATH_VAR); p != NULL && *p != '\0';) {
        size_t len = strcspn(p, ":");

        if (len > 0 && folder_has_manifest_n(p, len))
            return false;
        p += len;
        if (*p == ':')
            p++;
    }
    if (user_folder_has_manifest(env))
        return false;
    if (env != NULL && env->system_base != NULL) {
        if (implicit_folder_has_manifest(env->system_base, ""))
            return false;
    } else if (folder_has_manifest(GLMUX_LAYER_SYSTEM_BASE "/" GLMUX_LAYER_IMPLICIT_FOLDER)) {
        return false;
    }
    if (env != NULL && env->package_base != NULL)
        return !implicit_folder_has_manifest(env->package_base, "");
    return !folder_has_manifest(GLMUX_LAYER_PACKAGE_BASE "/" GLMUX_LAYER_IMPLICIT_FOLDER);
}

bool glmux_layers_scan_mode(const struct glmux_layers_env *env, struct glmux_layer_scan *out,
                            bool tool)
{
    struct glmux_layer_filter enable = { 0 }, disable = { 0 };
    char **names = NULL;
    size_t n_names = 0, cap = 0;
    bool ok;

    if (env == NULL)
        env = glmux_layers_env_default();
    memset(out, 0, sizeof(*out));
    out->secure = env->secure;
    out->layers_var = env->get(GLMUX_LAYERS_VAR);
    out->enable_var = env->get(GLMUX_LAYERS_ENABLE_VAR);
    out->disable_var = env->get_always(GLMUX_LAYERS_DISABLE_VAR);
    out->path_var = env->get(GLMUX_LAYER_PATH_VAR);
    if (env->secure) {
        static const char *const ignored[] = { GLMUX_LAYERS_VAR, GLMUX_LAYERS_ENABLE_VAR,
                                               GLMUX_LAYER_PATH_VAR };
        for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
            if (env->get_always(ignored[i]) != NULL)
                glmux_log(GLMUX_LOG_LAYER, "secure execution: %s=\"%s\" ignored", ignored[i],
                          env->get_always(ignored[i]));
        glmux_log(GLMUX_LOG_LAYER, "secure execution: the user's layer folder is not read; only "
                  "implicit layers with \"secure_execution\": true and root's files load");
    }
    ok = glmux_layer_names_parse(out->layers_var, &names, &n_names) &&
         glmux_layer_filter_parse(out->enable_var, &enable) &&
         glmux_layer_filter_parse(out->disable_var, &disable);
    if (ok && n_names == 0 && glmux_layer_filter_empty(&enable) &&
        glmux_layer_filter_covers_all(&disable)) {
        out->skipped = true;
        glmux_log(GLMUX_LOG_LAYER, "GLMUX_LAYERS_DISABLE=\"%s\" switches every layer off: no "
                  "layer folder read", out->disable_var);
        goto done;
    }
    /* In secure execution both are unset (env->get), so the explicit folders stay unread. */
    out->explicit_asked = ok && (n_names > 0 || glmux_layer_filter_may_match_explicit(&enable));
    ok = ok && add_folders(env, out);
    if (ok && !out->explicit_asked && !tool)
        glmux_log(GLMUX_LOG_LAYER, "explicit layer folders not read: GLMUX_LAYERS names no "
                  "layer and GLMUX_LAYERS_ENABLE none that could be explicit");
    for (size_t i = 0; ok && i < out->n_folders; i++) {
        struct glmux_layer_folder *f = &out->folders[i];

        if (f->ignored_secure)
            glmux_log(GLMUX_LOG_LAYER, "secure execution: layer folder %s (%s) ignored",
                      f->path, f->source);
        else if (f->kind == GLMUX_LAYER_FOLDER_EXPLICIT && !out->explicit_asked && !tool)
            f->unasked = true;
        else
            ok = read_folder(out, &cap, f);
    }
    ok = ok && judge(env, out, names, n_names, &enable, &disable, tool) &&
         make_chain(out, names, n_names);
done:
    for (size_t i = 0; i < n_names; i++)
        free(names[i]);
    free(names);
    glmux_layer_filter_clear(&enable);
    glmux_layer_filter_clear(&disable);
    if (!ok)
        glmux_layers_scan_free(out);
    return ok;
}

bool glmux_layers_scan(const struct glmux_layers_env *env, struct glmux_layer_scan *out)
{
    return glmux_layers_scan_mode(env, out, true);
}
