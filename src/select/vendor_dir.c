/* SPDX-License-Identifier: MIT */
/*
 * glmux: vendor discovery. Reads the glmux vendor directory and libglvnd's EGL JSON directories
 * (or exactly what libglvnd's override variables name), merges manifests that describe the same
 * vendor into one, and puts the vendors in base order. The rules are those of docs/vendors.md:
 *   - a directory's *.json files are read in strcmp order; directories in list order;
 *   - one vendor name is one vendor: each field comes from the first manifest that declares it
 *     (the administrator's directory first), so /etc/glvnd/egl_vendor.d can override a library
 *     path while the driver list still comes from the vendor directory;
 *   - base order: administrator's vendors first (libglvnd puts /etc before /usr/share), then by
 *     priority, then by first appearance.
 */
#define _GNU_SOURCE
#include "select.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "util/env.h"
#include "util/file.h"
#include "util/log.h"

#ifndef GLMUX_VENDOR_DIR
#define GLMUX_VENDOR_DIR "/usr/lib/glvnd/vendors"
#endif
#ifndef GLMUX_SYSCONFDIR
#define GLMUX_SYSCONFDIR "/etc"
#endif
#ifndef GLMUX_DATADIR
#define GLMUX_DATADIR "/usr/share"
#endif
#ifndef GLMUX_EGL_VENDOR_DIRS
#define GLMUX_EGL_VENDOR_DIRS GLMUX_SYSCONFDIR "/glvnd/egl_vendor.d:" GLMUX_DATADIR "/glvnd/egl_vendor.d"
#endif

/* Bad files named at the default level per discovery; past it, a count and GLMUX_DEBUG=vendor. */
#define BAD_FILES_NAMED 8

/* The problems of one discovery's manifests. */
struct report {
    unsigned bad_files;  /* files refused so far */
    bool said;           /* the current file's first error has been reported */
};

/*
 * One warning per bad file at the default level (its first error: a FIFO, a device, a syntax
 * error, a missing key...), at most BAD_FILES_NAMED per discovery; its other errors and every
 * warning go to the "vendor" category.
 */
static void warn_manifest(void *data, enum glmux_manifest_severity severity, const char *path,
                          int line, const char *message)
{
    struct report *r = data;
    unsigned category = GLMUX_LOG_VENDOR;

    if (severity != GLMUX_MANIFEST_ERROR) {
        glmux_log(GLMUX_LOG_VENDOR, "%s:%d: warning: %s", path, line, message);
        return;
    }
    if (!r->said) {
        r->said = true;
        if (++r->bad_files <= BAD_FILES_NAMED)
            category |= GLMUX_LOG_WARN;
    }
    glmux_log(category, "%s:%d: error: %s; vendor manifest skipped (glmux check %s)", path, line,
              message, path);
}

/* Loads one manifest, reporting through r. */
static bool load_manifest(const char *path, struct glmux_manifest *m, struct report *r)
{
    r->said = false;
    return glmux_manifest_load(path, m, warn_manifest, r);
}

static bool add_string(char ***arr, size_t *n, const char *s)
{
    char **a = realloc(*arr, (*n + 1) * sizeof(char *));

    if (a == NULL)
        return false;
    *arr = a;
    a[*n] = strdup(s);
    if (a[*n] == NULL)
        return false;
    (*n)++;
    return true;
}

/* A copy of s into *out when want; false only when the copy needs memory there is not. */
static bool copy_if(bool want, const char *s, char **out)
{
    *out = want ? strdup(s) : NULL;
    return !want || *out != NULL;
}

/*
 * Merges manifest m (from a directory of the given kind) into the list. Under libglvnd's
 * override variables every file is its own entry, as libglvnd loads it (by_name false): two
 * files naming one library are then one vendor only through libEGL's dlopen-handle rule.
 * Everything the merge adds is allocated before the list is touched: out of memory leaves the
 * list as it was (only arrays grown), never a vendor without a name or a manifest.
 */
static bool merge(struct glmux_vendor_list *list, struct glmux_manifest *m,
                  enum glmux_vendor_source source, bool admin, bool by_name)
{
    struct glmux_vendor fresh, *v = NULL;
    char *egl = NULL, *glx = NULL, *path = NULL, **drivers = NULL, **grown;
    size_t n_drivers = 0;
    bool take_drivers, ok;

    for (size_t i = 0; by_name && i < list->count; i++)
        if (strcmp(list->vendors[i].name, m->name) == 0)
            v = &list->vendors[i];
    if (v == NULL) {
        memset(&fresh, 0, sizeof(fresh));
        fresh.source = source;
        fresh.admin = admin;
        fresh.priority = m->priority;
        if ((fresh.name = strdup(m->name)) == NULL)
            return false;
        v = &fresh;
    } else {
        glmux_log(GLMUX_LOG_VENDOR, "vendor \"%s\": %s merged into %s", m->name, m->path,
                  v->manifests[0]);
    }
    take_drivers = !v->has_drivers && m->has_drivers;
    ok = copy_if(v->egl_library == NULL && m->egl_library != NULL, m->egl_library, &egl) &&
         copy_if(v->glx_library == NULL && m->glx_library != NULL, m->glx_library, &glx) &&
         (path = strdup(m->path)) != NULL;
    for (size_t i = 0; ok && take_drivers && i < m->n_drivers; i++)
        ok = add_string(&drivers, &n_drivers, m->drivers[i]);
    if (ok && (grown = realloc(v->manifests, (v->n_manifests + 1) * sizeof(char *))) != NULL)
        v->manifests = grown;
    else
        ok = false;
    if (ok && v == &fresh) {
        struct glmux_vendor *arr = realloc(list->vendors, (list->count + 1) * sizeof(*arr));
        if (arr != NULL)
            list->vendors = arr;
        ok = arr != NULL;
    }
    if (!ok) {
        free(egl);
        free(glx);
        free(path);
        glmux_strings_free(drivers, n_drivers);
        if (v == &fresh) {
            free(fresh.name);
            free(fresh.manifests);
        }
        return false;
    }
    /* Each field from the first manifest that declares it. */
    if (egl != NULL)
        v->egl_library = egl;
    if (glx != NULL)
        v->glx_library = glx;
    if (take_drivers) {
        v->has_drivers = true;
        v->drivers = drivers;
        v->n_drivers = n_drivers;
    }
    /* A declared priority beats one taken from a file name; the first declared one stays. */
    if (m->has_priority && !v->priority_declared) {
        v->priority = m->priority;
        v->priority_declared = true;
    }
    v->manifests[v->n_manifests++] = path;
    if (v == &fresh)
        list->vendors[list->count++] = fresh;
    return true;
}

/* Reads every *.json in dir, in strcmp order (util/file.c's listing, the one every manifest
 * folder is read with). One that is not a regular file (a FIFO, a device node, a directory) is
 * refused by the manifest reader, with a warning, without being opened. */
static bool scan_dir(struct glmux_vendor_list *list, const char *dir,
                     enum glmux_vendor_source source, bool admin, bool by_name,
                     struct report *r)
{
    char **names = NULL;
    size_t n = 0;
    bool ok = true;
    int code;

    if (r == NULL) /* glmux_vendor_list_where: the directories only */
        return true;
    code = glmux_file_list_dir(dir, ".json", &names, &n);
    if (code == ENOMEM)
        return false;
    if (code != 0) {
        /* Most directories of the search list are missing on most machines: say so plainly. */
        if (code == ENOENT)
            glmux_log(GLMUX_LOG_VENDOR, "vendor directory %s: missing, skipped", dir);
        else
            glmux_log(GLMUX_LOG_VENDOR, "vendor directory %s: cannot read it (%s), skipped", dir,
                      strerror(code));
        return true;
    }
    for (size_t i = 0; ok && i < n; i++) {
        struct glmux_manifest m;
        char *path;

        if (asprintf(&path, "%s/%s", dir, names[i]) < 0) {
            ok = false;
            break;
        }
        if (load_manifest(path, &m, r)) {
            glmux_log(GLMUX_LOG_VENDOR, "vendor \"%s\" from %s", m.name, path);
            ok = merge(list, &m, source, admin, by_name);
            glmux_manifest_clear(&m);
        } else {
            list->n_rejected++;
        }
        free(path);
    }
    glmux_file_list_free(names, n);
    return ok;
}

static bool split_list(const char *value, char ***out, size_t *n)
{
    const char *p = value;

    while (*p != '\0') {
        size_t len = strcspn(p, ":");
        if (len > 0) {
            char *s = strndup(p, len);
            bool ok = s != NULL && add_string(out, n, s);
            free(s);
            if (!ok)
                return false;
        }
        p += len;
        if (*p == ':')
            p++;
    }
    return true;
}

static int compare_vendors(const void *a, const void *b)
{
    const struct glmux_vendor *x = a, *y = b;

    if (x->admin != y->admin)
        return x->admin ? -1 : 1;
    if (x->priority != y->priority)
        return x->priority < y->priority ? -1 : 1;
    return 0;
}

/* Stable sort (insertion): vendor lists are short, and first appearance breaks ties. */
static void sort_vendors(struct glmux_vendor_list *list)
{
    for (size_t i = 1; i < list->count; i++) {
        struct glmux_vendor v = list->vendors[i];
        size_t j = i;
        while (j > 0 && compare_vendors(&list->vendors[j - 1], &v) > 0) {
            list->vendors[j] = list->vendors[j - 1];
            j--;
        }
        list->vendors[j] = v;
    }
}

/* An administrator's directory: under ${sysconfdir} or /etc. */
static bool is_admin_dir(const char *dir)
{
    size_t n = strlen(GLMUX_SYSCONFDIR);

    return (strncmp(dir, GLMUX_SYSCONFDIR, n) == 0 && dir[n] == '/') ||
           strncmp(dir, "/etc/", 5) == 0;
}

/*
 * The default list: the administrator's JSON directories, the vendor directory, then the other
 * JSON directories. The JSON directories are GLMUX_EGL_VENDOR_DIRS as configured (libglvnd's
 * ${sysconfdir} and ${datadir} pair, plus Debian's system pair when the prefix is not /usr).
 */
static bool default_dirs(struct glmux_vendor_list *out)
{
    char **json = NULL;
    size_t n = 0;
    bool ok = split_list(GLMUX_EGL_VENDOR_DIRS, &json, &n);

    for (size_t i = 0; ok && i < n; i++)
        if (is_admin_dir(json[i]))
            ok = add_string(&out->dirs, &out->n_dirs, json[i]);
    ok = ok && add_string(&out->dirs, &out->n_dirs, GLMUX_VENDOR_DIR);
    for (size_t i = 0; ok && i < n; i++)
        if (!is_admin_dir(json[i]))
            ok = add_string(&out->dirs, &out->n_dirs, json[i]);
    for (size_t i = 0; i < n; i++)
        free(json[i]);
    free(json);
    return ok;
}

/* Discovery, reporting the manifests' problems through r; with r NULL, where it would look. */
static bool discover_into(struct glmux_vendor_list *out, bool for_glx, struct report *r)
{
    const char *files = for_glx ? NULL : glmux_env_get("__EGL_VENDOR_LIBRARY_FILENAMES");
    const char *egl_dirs = for_glx ? NULL : glmux_env_get("__EGL_VENDOR_LIBRARY_DIRS");
    const char *glmux_dirs = glmux_env_get("GLMUX_VENDOR_DIRS");
    bool ok = true;

    memset(out, 0, sizeof(*out));
    if (files != NULL && *files != '\0') {
        char **list = NULL;
        size_t n = 0;
        out->libglvnd_override = true;
        out->override_variable = "__EGL_VENDOR_LIBRARY_FILENAMES";
        ok = split_list(files, &list, &n);
        for (size_t i = 0; ok && r != NULL && i < n; i++) {
            struct glmux_manifest m;
            if (load_manifest(list[i], &m, r)) {
                ok = merge(out, &m, GLMUX_VENDOR_FROM_EGL_FILENAMES, false, false);
                glmux_manifest_clear(&m);
            } else {
                out->n_rejected++;
            }
        }
        for (size_t i = 0; i < n; i++)
            free(list[i]);
        free(list);
        /* The list order is the user's: no sorting. */
        return ok;
    }
    if (egl_dirs != NULL && *egl_dirs != '\0') {
        out->libglvnd_override = true;
        out->override_variable = "__EGL_VENDOR_LIBRARY_DIRS";
        ok = split_list(egl_dirs, &out->dirs, &out->n_dirs);
        for (size_t i = 0; ok && i < out->n_dirs; i++)
            ok = scan_dir(out, out->dirs[i], GLMUX_VENDOR_FROM_EGL_DIR, false, false, r);
        return ok;
    }
    if (glmux_dirs != NULL && *glmux_dirs != '\0') {
        ok = split_list(glmux_dirs, &out->dirs, &out->n_dirs);
        for (size_t i = 0; ok && i < out->n_dirs; i++)
            ok = scan_dir(out, out->dirs[i], GLMUX_VENDOR_FROM_VENDOR_DIR, false, true, r);
    } else {
        ok = default_dirs(out);
        for (size_t i = 0; ok && i < out->n_dirs; i++) {
            bool vendor_dir = strcmp(out->dirs[i], GLMUX_VENDOR_DIR) == 0;
            ok = scan_dir(out, out->dirs[i],
                          vendor_dir ? GLMUX_VENDOR_FROM_VENDOR_DIR : GLMUX_VENDOR_FROM_EGL_DIR,
                          !vendor_dir && is_admin_dir(out->dirs[i]), true, r);
        }
    }
    sort_vendors(out);
    return ok;
}

static bool discover(struct glmux_vendor_list *out, bool for_glx)
{
    struct report r = { 0, false };
    bool ok = discover_into(out, for_glx, &r);

    if (r.bad_files > BAD_FILES_NAMED)
        glmux_log(GLMUX_LOG_WARN | GLMUX_LOG_VENDOR, "%u more vendor manifests skipped "
                  "(GLMUX_DEBUG=vendor names them; glmux check checks them all)",
                  r.bad_files - BAD_FILES_NAMED);
    return ok;
}

bool glmux_vendor_list_where(struct glmux_vendor_list *out)
{
    return discover_into(out, false, NULL);
}

bool glmux_vendor_list_discover(struct glmux_vendor_list *out)
{
    return discover(out, false);
}

bool glmux_vendor_list_discover_glx(struct glmux_vendor_list *out)
{
    return discover(out, true);
}

void glmux_vendor_list_clear(struct glmux_vendor_list *list)
{
    for (size_t i = 0; i < list->count; i++) {
        struct glmux_vendor *v = &list->vendors[i];
        free(v->name);
        free(v->egl_library);
        free(v->glx_library);
        glmux_strings_free(v->drivers, v->n_drivers);
        glmux_strings_free(v->manifests, v->n_manifests);
    }
    free(list->vendors);
    glmux_strings_free(list->dirs, list->n_dirs);
    memset(list, 0, sizeof(*list));
}

const struct glmux_vendor *glmux_vendor_list_find(const struct glmux_vendor_list *list,
                                                  const char *name)
{
    for (size_t i = 0; list != NULL && i < list->count; i++)
        if (strcmp(list->vendors[i].name, name) == 0)
            return &list->vendors[i];
    return NULL;
}
