/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the commands, shared between main.c (argument parsing, env, run), report.c
 * (gpus, vendors), explain.c (with explain_ask.c, libGLX's and libEGL's answers), watch.c (gpus --watch),
 * manifest.c (check, manifest) and help.c's help texts. Each command returns the process exit
 * status: 0 success, 1 failure, 2 usage error; `run` returns 126 or 127 when the command
 * cannot be started.
 */
#ifndef GLMUX_CLI_CLI_H
#define GLMUX_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "select/pixels_rule.h"

#define GLMUX_EXIT_OK 0
#define GLMUX_EXIT_FAIL 1
#define GLMUX_EXIT_USAGE 2
#define GLMUX_EXIT_CANNOT_RUN 126   /* run: the program was found but cannot be executed */
#define GLMUX_EXIT_NOT_FOUND 127    /* run: no such program */

struct glmux_jw;
struct glmux_gpu;
struct glmux_vendor_list;

/* The name of the first vendor in vl that drives gpu, or NULL (gpu may be NULL). */
const char *glmux_cli_gpu_vendor(const struct glmux_vendor_list *vl, const struct glmux_gpu *gpu);
/* Writes the GPU fields `gpus` and `explain` share (pci ... default) into an open object. */
void glmux_cli_json_gpu_fields(struct glmux_jw *w, const struct glmux_gpu *g, const char *vendor);

/* A GPU's object as `glmux gpus --json` writes it (key NULL inside an array). */
void glmux_cli_json_gpu(struct glmux_jw *w, const char *key, const struct glmux_gpu *g,
                        const struct glmux_vendor_list *vl);

int glmux_cli_gpus(bool json);
/* `gpus --watch`: follows udev's drm events until SIGINT/SIGTERM or stdout closes (watch.c). */
int glmux_cli_gpus_watch(bool json);
int glmux_cli_vendors(bool json, bool load);
int glmux_cli_explain(bool json);
/* manifest.c: `check [FILE...]` and `manifest --vendor NAME ...` (argv after the command). */
int glmux_cli_check(int argc, char **argv);
int glmux_cli_manifest(int argc, char **argv);

/* libmix.c: reports which GL libraries a program started here would load, glmux's or not;
 * returns 1 (and says so on stderr) when they would be a mix of both, else 0. */
int glmux_cli_check_libraries(void);
/* Whether the library file at path carries the mark of glmux's builds (libmix.c). */
bool glmux_cli_is_glmux_library(const char *path);

/* help.c: prints the help of command name (NULL: the list of commands) on stdout; false when
 * there is no such command. */
bool glmux_cli_help(const char *name);
bool glmux_cli_is_command(const char *name);
/* The one of the n known words nearest to word (a typo's fix), or NULL when none is near or
 * two are as near; glmux_cli_nearest_command among the commands. */
const char *glmux_cli_nearest(const char *word, const char *const *known, size_t n);
const char *glmux_cli_nearest_command(const char *word);

#endif
