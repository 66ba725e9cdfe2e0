/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: vendor discovery in two steps that can be extended separately. First an
 * ordered list of candidate manifests is built (environment overrides, then the JSON
 * directories; later also the glmux vendor directory and a GPU-aware order), then each
 * manifest is read into the library it names. Loading the libraries is vendor.c's job.
 */
#ifndef GLMUX_EGL_MANIFEST_H
#define GLMUX_EGL_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

/* Where a candidate came from (for GLMUX_DEBUG=vendor and for later ordering policies). */
enum glmux_egl_source {
    GLMUX_EGL_SOURCE_FILENAMES,   /* __EGL_VENDOR_LIBRARY_FILENAMES */
    GLMUX_EGL_SOURCE_ENV_DIRS,    /* __EGL_VENDOR_LIBRARY_DIRS */
    GLMUX_EGL_SOURCE_DEFAULT_DIRS /* the built-in JSON directories */
};

struct glmux_egl_candidate {
    char *manifest;               /* path of the JSON file */
    enum glmux_egl_source source;
};

/* An ordered list of manifests: list order is load order is priority order. */
struct glmux_egl_candidates {
    struct glmux_egl_candidate *items;
    size_t count, capacity;
};

/* Appends one manifest path; false on allocation failure. */
bool glmux_egl_candidates_add(struct glmux_egl_candidates *list, const char *manifest,
                              enum glmux_egl_source source);
/* Appends every *.json file of dir in strcmp order; a missing directory adds nothing. */
void glmux_egl_candidates_add_dir(struct glmux_egl_candidates *list, const char *dir,
                                  enum glmux_egl_source source);
/*
 * Builds the list libglvnd would: __EGL_VENDOR_LIBRARY_FILENAMES alone if set, else each
 * directory of __EGL_VENDOR_LIBRARY_DIRS or of the built-in list (both variables ignored
 * in secure-execution processes).
 */
void glmux_egl_candidates_build(struct glmux_egl_candidates *list);
void glmux_egl_candidates_free(struct glmux_egl_candidates *list);

/*
 * Reads an EGL vendor manifest. On success *library is the string to dlopen (a bare soname,
 * an absolute path, or a relative path resolved against the manifest's real directory),
 * malloc'ed. On failure logs why under GLMUX_DEBUG=vendor and returns false.
 */
bool glmux_egl_manifest_read(const char *path, char **library);

/* Parses JSON text: the two strings libEGL reads. Exposed for tests and tools. */
struct glmux_egl_manifest_fields {
    char *file_format_version;    /* NULL if absent or not a string */
    char *library_path;           /* ICD.library_path, NULL if absent or not a string */
    char error[160];              /* why parsing failed */
};
bool glmux_egl_manifest_parse(const char *text, size_t len,
                              struct glmux_egl_manifest_fields *out);
void glmux_egl_manifest_fields_free(struct glmux_egl_manifest_fields *f);
/* Accepts "1.0.0" style versions with major 1 and minor 0 (missing parts count as 0). */
bool glmux_egl_manifest_version_ok(const char *version);

#endif /* GLMUX_EGL_MANIFEST_H */
