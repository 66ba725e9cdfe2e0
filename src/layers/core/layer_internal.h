/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layers, the core's pieces as its own files and tests see them: the layer manifest
 * parser (layer_manifest.c), the filters and name lists of the variables (layer_filter.c) and
 * the ELF header check (elf_arch.c). layers.h is the interface the rest of glmux uses.
 */
#ifndef GLMUX_LAYERS_CORE_LAYER_INTERNAL_H
#define GLMUX_LAYERS_CORE_LAYER_INTERNAL_H

#include "layers/core/layers.h"

/* The manifest format version this build reads ("1.x.y"; a higher minor is read too). */
#define GLMUX_LAYER_FORMAT_MAJOR 1
/* Most layers one manifest's "layers" array may hold. */
#define GLMUX_LAYER_PER_MANIFEST_MAX 16

/*
 * Parses one manifest's text into up to max layers at out (zeroed first). Each gets its
 * manifest (path), and either a usable description or verdict GLMUX_LAYER_BROKEN with the
 * reason (a broken file gives one such entry). Returns how many were filled (at least 1 when
 * max > 0), or 0 when out of memory. Nothing is read from the environment.
 */
size_t glmux_layer_manifest_parse(const char *path, const char *text, size_t len,
                                  struct glmux_layer_info *out, size_t max);
/* Reads the file (the hostile-file rules of util/file.h) and parses it. */
size_t glmux_layer_manifest_read(const char *path, struct glmux_layer_info *out, size_t max);
/* Frees what one layer description owns (not the struct). */
void glmux_layer_info_clear(struct glmux_layer_info *info);
/* True for a valid layer name: [A-Za-z0-9_.-]+, at most GLMUX_LAYER_NAME_MAX bytes. */
bool glmux_layer_valid_name(const char *name);

/* True when the loader may skip the scan: no layer can load (layer_scan.c says when); env NULL:
 * the process's own. */
bool glmux_layers_none_quick(const struct glmux_layers_env *env);
/*
 * glmux_layers_scan, with tool false for the loader: only the libraries of layers that are
 * switched on are looked at, and the explicit folders are read only when something can switch
 * an explicit layer on (out->explicit_asked).
 */
bool glmux_layers_scan_mode(const struct glmux_layers_env *env, struct glmux_layer_scan *out,
                            bool tool);

/* A GLMUX_LAYERS_ENABLE / GLMUX_LAYERS_DISABLE value, parsed. */
struct glmux_layer_filter {
    char **globs;               /* fnmatch patterns, compared case-insensitively */
    size_t n_globs;
    bool all, implicit, explicit_; /* ~all~, ~implicit~, ~explicit~ */
};
/* Parses a comma-separated value (NULL or "" gives an empty filter); false: out of memory. */
bool glmux_layer_filter_parse(const char *value, struct glmux_layer_filter *out);
void glmux_layer_filter_clear(struct glmux_layer_filter *filter);
/* True when the filter names this layer. */
bool glmux_layer_filter_match(const struct glmux_layer_filter *filter, const char *name,
                              bool implicit);
/* True when the filter names every layer there could be (~all~, both words, or a glob "*"). */
bool glmux_layer_filter_covers_all(const struct glmux_layer_filter *filter);
bool glmux_layer_filter_empty(const struct glmux_layer_filter *filter);
/* True when the filter may name an explicit layer (~all~, ~explicit~ or any glob): not when
 * it is empty or only ~implicit~. */
bool glmux_layer_filter_may_match_explicit(const struct glmux_layer_filter *filter);

/* Splits GLMUX_LAYERS ("a,b" or "a:b"; blanks around names dropped, repeats dropped). */
bool glmux_layer_names_parse(const char *value, char ***names, size_t *count);

/* What glmux_elf_check found. */
enum glmux_elf_result {
    GLMUX_ELF_OURS,             /* this process's class, byte order and machine */
    GLMUX_ELF_FOREIGN,          /* an ELF file for another architecture */
    GLMUX_ELF_UNREADABLE,       /* missing, unreadable, or no ELF header */
};
/*
 * Reads path's ELF header without loading it. what gets "64-bit x86-64" (OURS, FOREIGN) or why
 * it could not be read (UNREADABLE).
 */
enum glmux_elf_result glmux_elf_check(const char *path, char *what, size_t size);
/* This process's architecture in the same words ("64-bit x86-64"). */
const char *glmux_elf_own(void);
/* 32 or 64: this process's pointer width, as a manifest's library_arch says it. */
int glmux_elf_own_bits(void);

#endif /* GLMUX_LAYERS_CORE_LAYER_INTERNAL_H */
