/* SPDX-License-Identifier: MIT */
/*
 * glmux layer tests: what the discovery tests' two files share. test_discovery.c holds the
 * fake environment (variables, secure execution, the administrators' and the packages' bases
 * in a work folder), the file helpers, the scan and its checks; test_split.c the tests of the
 * implicit_layer.d / explicit_layer.d split.
 */
#ifndef GLMUX_TESTS_LAYERS_DISCOVERY_H
#define GLMUX_TESTS_LAYERS_DISCOVERY_H

#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/types.h>

#include "layers/core/layer_internal.h"

/* The fake environment: secure_getenv answers nothing while fake_secure is set. */
extern bool fake_secure;
extern struct glmux_layers_env fenv;
void setvar(const char *name, const char *value);   /* NULL unsets */
void reset_env(void);                               /* no variable but HOME, not secure */

/* The work folder, the bases and their kind folders (made before the tests run). */
extern char work[PATH_MAX], sysdir[PATH_MAX + 16], pkgdir[PATH_MAX + 16];
extern char sys_im[PATH_MAX + 40], sys_ex[PATH_MAX + 40], pkg_im[PATH_MAX + 40],
    pkg_ex[PATH_MAX + 40];

char *path_in(const char *dir, const char *name);   /* the caller frees it */
void write_file(const char *path, const char *text, mode_t mode);
char *make_dir(const char *name);                   /* in work; the caller frees the path */
/* A manifest file for one layer; extra is more members ("" for none). */
void manifest(const char *dir, const char *file, const char *name, const char *type,
              const char *library, const char *extra);
char *read_all(const char *path);                   /* "" when missing; the caller frees it */

/* The last scan, the tool's (do_scan) or another. */
extern struct glmux_layer_scan scan;
void do_scan(void);
const struct glmux_layer_info *find(const char *name);
const struct glmux_layer_info *must_find(const char *name);
const char *chain(void);                            /* "a,b,c" */
/* A get_next over the loaded layers, ending in a sentinel. */
void *test_get_next(void *layer_id, const char *name);

#define CHECK_CHAIN(want) CHECK_MSG(strcmp(chain(), want) == 0, "chain \"%s\", want \"%s\"", \
                                    chain(), want)
#define CHECK_VERDICT(name, v, text)                                                         \
    do {                                                                                     \
        const struct glmux_layer_info *l_ = must_find(name);                                 \
        CHECK_MSG(l_->verdict == (v) && strstr(l_->reason, text) != NULL,                    \
                  "%s: verdict %s (%s), want %s with \"%s\"", name,                          \
                  glmux_layer_verdict_name(l_->verdict), l_->reason,                         \
                  glmux_layer_verdict_name(v), text);                                        \
    } while (0)

/* test_split.c: with GLMUX_DEBUG=warn,layer into log_path, and with GLMUX_DEBUG unset. */
void test_split(const char *good, const char *log_path);
void test_quick_explicit(void);

#endif /* GLMUX_TESTS_LAYERS_DISCOVERY_H */
