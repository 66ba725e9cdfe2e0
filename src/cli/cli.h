/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the commands, shared between main.c (argument parsing, check, env, run) and
 * report.c (gpus, vendors, explain). Each returns the process exit status: 0 success,
 * 1 failure, 2 usage error.
 */
#ifndef GLMUX_CLI_CLI_H
#define GLMUX_CLI_CLI_H

#include <stdbool.h>

#define GLMUX_EXIT_OK 0
#define GLMUX_EXIT_FAIL 1
#define GLMUX_EXIT_USAGE 2

int glmux_cli_gpus(bool json);
int glmux_cli_vendors(bool json, bool load);
int glmux_cli_explain(bool json);

#endif
