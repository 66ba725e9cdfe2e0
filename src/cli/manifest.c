/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the commands for vendor packagers. `manifest` prints a vendor manifest built from
 * its options (what a Mesa, NVIDIA or AMD package installs as
 * ${vendordir}/NN_<vendor>.json), checked with the same parser libEGL uses before it is
 * printed. `check` validates manifest files named on the command line, or, with none, every
 * *.json file in the vendor directories this system searches (the list `glmux vendors` reads),
 * or the files __EGL_VENDOR_LIBRARY_FILENAMES names. It also finds each library a manifest names
 * and reads its ELF header (libcheck.c; nothing is loaded). Output of check is compiler-style:
 * file:line: error: message.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/json_writer.h"
#include "cli/libcheck.h"
#include "select/manifest.h"
#include "select/select.h"
#include "util/env.h"

static int manifest_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "glmux: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'glmux manifest --help'.\n");
    return GLMUX_EXIT_USAGE;
}

struct check_state {
    int errors;
    int warnings;
    bool installed; /* the system's vendor files, not files named on the command line */
};

static void check_report(void *data, enum glmux_manifest_severity severity, const char *path,
                         int line, const char *message)
{
    struct check_state *st = data;
    const char *what = severity == GLMUX_MANIFEST_ERROR ? "error" : "warning";

    if (severity == GLMUX_MANIFEST_ERROR)
        st->errors++;
    else
        st->warnings++;
    if (line > 0)
        fprintf(stderr, "%s:%d: %s: %s\n", path, line, what, message);
    else
        fprintf(stderr, "%s: %s: %s\n", path, what, message);
}

/*
 * Finds the library as dlopen would and reads its ELF header: one that is not a shared object
 * of this machine is an error; one that is missing is an error among the installed files (the
 * vendor cannot load) and a warning for a file named on the command line (it may be checked
 * before its package installs the library). Returns " (not found here)" or "".
 */
static const char *check_library(const char *path, const char *api, const char *library,
                                 struct check_state *st)
{
    char found[4096], why[4352], message[8192];
    enum glmux_libcheck r = glmux_cli_libcheck(library, found, sizeof(found), why, sizeof(why));

    if (r == GLMUX_LIBCHECK_OK)
        return "";
    snprintf(message, sizeof(message), "%s library %s %s: %s", api, library,
             r == GLMUX_LIBCHECK_MISSING ? "is missing" : "cannot be loaded", why);
    check_report(st, r == GLMUX_LIBCHECK_BAD || st->installed ? GLMUX_MANIFEST_ERROR
                                                               : GLMUX_MANIFEST_WARNING,
                 path, 0, message);
    return " (not found here)";
}

static void check_one(const char *path, struct check_state *st)
{
    struct glmux_manifest m;
    const char *egl_note = "", *glx_note = "";
    int errors = st->errors;

    if (!glmux_manifest_load(path, &m, check_report, st))
        return;
    if (m.egl_library != NULL)
        egl_note = check_library(path, "EGL", m.egl_library, st);
    if (m.glx_library != NULL)
        glx_note = check_library(path, "GLX", m.glx_library, st);
    if (st->errors > errors) {
        glmux_manifest_clear(&m);
        return;
    }
    printf("%s: ok: vendor \"%s\"%s, EGL %s%s, GLX %s%s, drivers", path, m.name,
           m.name_derived ? " (derived from the library name)" : "",
           m.egl_library ? m.egl_library : "(none)", egl_note,
           m.glx_library ? m.glx_library : "(by name)", glx_note);
    if (!m.has_drivers)
        printf(" (built-in table)");
    for (size_t j = 0; j < m.n_drivers; j++)
        printf(" %s", m.drivers[j]);
    printf(", priority %d\n", m.priority);
    glmux_manifest_clear(&m);
}

static int json_file(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return e->d_name[0] != '.' && n > 5 && strcmp(e->d_name + n - 5, ".json") == 0;
}

/* Each file of __EGL_VENDOR_LIBRARY_FILENAMES (a ':'-separated list), in its order. */
static int check_named(const char *files, struct check_state *st)
{
    int n = 0;

    for (const char *p = files; *p != '\0';) {
        size_t len = strcspn(p, ":");
        if (len > 0) {
            char *path = strndup(p, len);
            if (path == NULL) {
                fprintf(stderr, "glmux: check: out of memory\n");
                return -1;
            }
            check_one(path, st);
            free(path);
            n++;
        }
        p += len;
        p += *p == ':';
    }
    return n;
}

/* Every *.json of each directory the vendor list is read from, in strcmp order, or the files
 * libglvnd's __EGL_VENDOR_LIBRARY_FILENAMES names when it is set. */
static int check_installed(struct check_state *st)
{
    struct glmux_vendor_list list;
    int files = 0;

    if (!glmux_vendor_list_where(&list)) {
        fprintf(stderr, "glmux: check: out of memory\n");
        return GLMUX_EXIT_FAIL;
    }
    if (list.override_variable != NULL &&
        strcmp(list.override_variable, "__EGL_VENDOR_LIBRARY_FILENAMES") == 0) {
        files = check_named(glmux_env_get("__EGL_VENDOR_LIBRARY_FILENAMES"), st);
        glmux_vendor_list_clear(&list);
        if (files < 0)
            return GLMUX_EXIT_FAIL;
        if (files == 0)
            fprintf(stderr, "glmux: check: __EGL_VENDOR_LIBRARY_FILENAMES names no file\n");
        return GLMUX_EXIT_OK;
    }
    for (size_t d = 0; d < list.n_dirs; d++) {
        struct dirent **names;
        int n = scandir(list.dirs[d], &names, json_file, alphasort);
        if (n < 0) {
            if (errno != ENOENT)
                fprintf(stderr, "%s: warning: cannot read the directory: %s\n", list.dirs[d],
                        strerror(errno));
            continue;
        }
        for (int i = 0; i < n; i++) {
            char *path;
            if (asprintf(&path, "%s/%s", list.dirs[d], names[i]->d_name) >= 0) {
                check_one(path, st);
                free(path);
                files++;
            }
            free(names[i]);
        }
        free(names);
    }
    if (files == 0) {
        fprintf(stderr, "glmux: check: no manifest found in");
        for (size_t d = 0; d < list.n_dirs; d++)
            fprintf(stderr, "%s%s", d ? ":" : " ", list.dirs[d]);
        fprintf(stderr, "%s\n", list.n_dirs ? "" : " (no directory: a libglvnd variable "
                                                 "names the files)");
    }
    glmux_vendor_list_clear(&list);
    return GLMUX_EXIT_OK;
}

int glmux_cli_check(int argc, char **argv)
{
    struct check_state st = { 0, 0, false };
    int files = 0;

    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0 && files == 0)
            continue;
        files++;
        check_one(argv[i], &st);
    }
    if (files == 0) {
        int rc;
        st.installed = true;
        rc = check_installed(&st);
        if (rc != GLMUX_EXIT_OK)
            return rc;
        st.errors += glmux_cli_check_libraries();   /* libmix.c */
    }
    return st.errors > 0 ? GLMUX_EXIT_FAIL : GLMUX_EXIT_OK;
}

/* Splits "i915,xe" into names; each must be a valid driver name. Returns the count or -1. */
static int split_drivers(char *list, char **out, int max)
{
    int n = 0;

    if (*list == '\0')
        return 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (n == max || !glmux_manifest_valid_name(tok))
            return -1;
        out[n++] = tok;
    }
    return n;
}

int glmux_cli_manifest(int argc, char **argv)
{
    const char *vendor = NULL, *egl = NULL, *glx = NULL, *description = NULL;
    char *drivers_arg = NULL, *drivers[GLMUX_MANIFEST_DRIVERS_MAX];
    long priority = GLMUX_MANIFEST_PRIORITY_DEFAULT;
    int n_drivers = -1;

    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(opt, "--vendor") && strcmp(opt, "--egl") && strcmp(opt, "--glx") &&
            strcmp(opt, "--drivers") && strcmp(opt, "--priority") && strcmp(opt, "--description"))
            return manifest_usage("manifest: unknown option '%s'", opt);
        if (val == NULL)
            return manifest_usage("manifest: %s needs a value", opt);
        i++;
        if (strcmp(opt, "--vendor") == 0) {
            vendor = val;
        } else if (strcmp(opt, "--egl") == 0) {
            egl = val;
        } else if (strcmp(opt, "--glx") == 0) {
            glx = val;
        } else if (strcmp(opt, "--description") == 0) {
            description = val;
        } else if (strcmp(opt, "--drivers") == 0) {
            drivers_arg = argv[i];
        } else {
            char *end;
            errno = 0;
            priority = strtol(val, &end, 10);
            if (errno || *end || end == val || priority < 0 ||
                priority > GLMUX_MANIFEST_PRIORITY_MAX)
                return manifest_usage("manifest: --priority '%s' is not a number from 0 to 999",
                                      val);
        }
    }
    if (vendor == NULL)
        return manifest_usage("%s", "manifest: --vendor NAME is required");
    if (!glmux_manifest_valid_name(vendor))
        return manifest_usage("manifest: vendor name '%s' must be 1-64 characters of "
                              "A-Z a-z 0-9 _ . -", vendor);
    if (egl == NULL && glx == NULL)
        return manifest_usage("%s", "manifest: give --egl LIB, --glx LIB or both");
    if (drivers_arg != NULL) {
        n_drivers = split_drivers(drivers_arg, drivers, GLMUX_MANIFEST_DRIVERS_MAX);
        if (n_drivers < 0)
            return manifest_usage("manifest: --drivers '%s' must be a comma-separated list of "
                                  "kernel driver names (i915,xe)", drivers_arg);
    }

    /* Write to memory, parse it back as libEGL would, and print only a valid manifest. */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem == NULL) {
        fprintf(stderr, "glmux: manifest: out of memory\n");
        return GLMUX_EXIT_FAIL;
    }
    struct glmux_jw w;
    glmux_jw_init(&w, mem);
    glmux_jw_object(&w, NULL);
    glmux_jw_string(&w, "file_format_version", "1.0.0");
    if (egl != NULL) {
        glmux_jw_object(&w, "ICD");
        glmux_jw_string(&w, "library_path", egl);
        glmux_jw_end(&w, '}');
    }
    glmux_jw_object(&w, "vendor");
    glmux_jw_int(&w, "format_version", GLMUX_MANIFEST_VENDOR_FORMAT);
    glmux_jw_string(&w, "name", vendor);
    if (description != NULL)
        glmux_jw_string(&w, "description", description);
    if (glx != NULL)
        glmux_jw_string(&w, "glx_library_path", glx);
    if (n_drivers >= 0) {
        glmux_jw_array(&w, "drivers");
        for (int j = 0; j < n_drivers; j++)
            glmux_jw_string(&w, NULL, drivers[j]);
        glmux_jw_end(&w, ']');
    }
    glmux_jw_int(&w, "priority", priority);
    glmux_jw_end(&w, '}');
    glmux_jw_end(&w, '}');
    glmux_jw_finish(&w);
    fclose(mem);

    struct check_state st = { 0, 0, false };
    struct glmux_manifest m;
    char name[GLMUX_MANIFEST_NAME_MAX + 16];
    snprintf(name, sizeof(name), "%02ld_%s.json", priority, vendor);
    bool ok = glmux_manifest_parse(name, text, len, &m, check_report, &st);
    if (ok)
        glmux_manifest_clear(&m);
    if (!ok || st.errors > 0) {
        fprintf(stderr, "glmux: manifest: the options do not make a valid manifest\n");
        free(text);
        return GLMUX_EXIT_FAIL;
    }
    fwrite(text, 1, len, stdout);
    free(text);
    return GLMUX_EXIT_OK;
}
