/* SPDX-License-Identifier: MIT */
/*
 * glmux: one vendor manifest, read from a file. The format is libglvnd's EGL vendor JSON
 * ("file_format_version" and "ICD"."library_path") plus an optional "vendor" object carrying the
 * vendor's name, GLX library, kernel DRM drivers and priority (docs/vendors.md has the schema).
 * Every problem found is reported with its line, as errors (the file is unusable) or warnings.
 */
#ifndef GLMUX_SELECT_MANIFEST_H
#define GLMUX_SELECT_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

/* The "vendor" object's format version this build reads fully. Higher ones are read leniently. */
#define GLMUX_MANIFEST_VENDOR_FORMAT 1
/* Default and bounds of "priority" (lower numbers come first). */
#define GLMUX_MANIFEST_PRIORITY_DEFAULT 50
#define GLMUX_MANIFEST_PRIORITY_MAX 999
/* Longest vendor or driver name. */
#define GLMUX_MANIFEST_NAME_MAX 64
/* Most drivers one manifest may list. */
#define GLMUX_MANIFEST_DRIVERS_MAX 64

struct glmux_manifest {
    char *path;               /* the file as named */
    char *name;               /* vendor name: declared, or derived (see name_derived) */
    bool name_derived;        /* no "vendor"."name": derived from the EGL library or file name */
    char *egl_library;        /* resolved as libglvnd does (dir-relative paths made absolute) */
    char *glx_library;        /* NULL when the manifest names none */
    char **drivers;           /* kernel DRM driver names; NULL when the manifest lists none */
    size_t n_drivers;
    bool has_drivers;         /* "drivers" present (an empty list claims no GPU) */
    int priority;
    bool has_priority;        /* declared; otherwise taken from the file name's number or 50 */
    bool has_vendor_object;   /* a glmux manifest rather than a plain libglvnd JSON file */
};

enum glmux_manifest_severity { GLMUX_MANIFEST_ERROR, GLMUX_MANIFEST_WARNING };

/* Receives each problem found; line is 0 when it concerns the whole file. */
typedef void (*glmux_manifest_report_fn)(void *data, enum glmux_manifest_severity severity,
                                         const char *path, int line, const char *message);

/*
 * Reads and validates the manifest at path. Returns true and fills *out (free it with
 * glmux_manifest_clear) when the file is usable; returns false when it has errors. report may be
 * NULL; every error and warning goes to it.
 */
bool glmux_manifest_load(const char *path, struct glmux_manifest *out,
                         glmux_manifest_report_fn report, void *data);

/* The same, from text already in memory; path is used for messages and relative libraries. */
bool glmux_manifest_parse(const char *path, const char *text, size_t len,
                          struct glmux_manifest *out, glmux_manifest_report_fn report, void *data);

/* Frees what a manifest owns and zeroes it. */
void glmux_manifest_clear(struct glmux_manifest *m);
/* Frees n strings and the array that holds them (a manifest's drivers, a vendor list's
 * drivers, manifests and directories, vendor_dir.c). */
void glmux_strings_free(char **arr, size_t n);

/* True when name is a valid vendor or driver name: [A-Za-z0-9_.-]+, at most 64 bytes. */
bool glmux_manifest_valid_name(const char *name);

/*
 * Derives a vendor name from a library path the way packagers name them: "libEGL_<name>.so.0"
 * or "libGLX_<name>.so.0" gives <name>. Writes it to buf and returns true, or false.
 */
bool glmux_manifest_name_from_library(const char *library, char *buf, size_t size);

#endif /* GLMUX_SELECT_MANIFEST_H */
