/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: GL layers (layers.c): `glmux layers`, the chain `glmux explain` shows, and
 * `glmux manifest --layer`, which prints a layer manifest.
 */
#ifndef GLMUX_CLI_LAYERS_H
#define GLMUX_CLI_LAYERS_H

#include <stdbool.h>

struct glmux_jw;

/* `glmux layers [--json]` (argv after the command). */
int glmux_cli_layers(int argc, char **argv);
/* The layer chain of this environment, for `glmux explain`: a few lines on stdout, or (w not
 * NULL) a "layers" member of the object w has open. */
void glmux_cli_explain_layers(struct glmux_jw *w);
/* True when `glmux manifest`'s arguments ask for a layer manifest (--layer). */
bool glmux_cli_is_layer_manifest(int argc, char **argv);
/* `glmux manifest --layer NAME --library LIB ...` (argv after the command). */
int glmux_cli_layer_manifest(int argc, char **argv);

/* `run --layer A --layer B` / `env --layer ...`: the GLMUX_LAYERS value for the program, the
 * names asked for first (on top), then what GLMUX_LAYERS says now; NULL when out of memory. */
char *glmux_cli_layers_value(const char *const *names, int n);
bool glmux_cli_layer_name_ok(const char *name);

#endif
