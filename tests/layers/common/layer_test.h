/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layer tests: what the test programs of tests/layers share (glmux_layer_test). Each
 * run keeps its layer manifests in a fresh folder of its own and switches layers on with the
 * environment before the first GL, EGL or GLX call loads them; the test layers (layer_hooks.h)
 * write "layer:what " into a trace that the program reads back and compares.
 */
#ifndef GLMUX_LAYER_TEST_H
#define GLMUX_LAYER_TEST_H

#include <stdbool.h>

/* Makes a fresh folder $TMPDIR/prefix-XXXXXX, removed with what it holds at exit. */
const char *glmux_layer_test_folder(const char *prefix);

/*
 * Writes file.json in that folder: one explicit layer called name, with its library_path, its
 * apis (the items of the JSON array: "\"gl\", \"egl\"") and, when not NULL, its description.
 */
void glmux_layer_test_manifest(const char *file, const char *name, const char *library,
                               const char *apis, const char *description);

/*
 * Layers come from that folder only: GLMUX_LAYER_PATH and XDG_DATA_HOME name it, implicit
 * layers installed on this machine stay off, and GLMUX_LAYERS switches on layers ("a,b"; NULL:
 * none).
 */
void glmux_layer_test_switch_on(const char *layers);

/* Whether a library whose path contains part is mapped (/proc/self/maps). */
bool glmux_layer_test_mapped(const char *part);

/*
 * The trace. The test layers call glmux_layer_test_trace, which the program exports
 * (ENABLE_EXPORTS); a program that links glmux_layer_test and takes the trace gets this one.
 */
__attribute__((visibility("default"))) void glmux_layer_test_trace(const char *layer,
                                                                    const char *what);

/* The trace since the last take (a static copy), and starts a new one. */
const char *glmux_layer_test_trace_take(void);

/* How many times the layers called glmux_layer_test_trace since the last take. */
int glmux_layer_test_trace_calls(void);

#endif
