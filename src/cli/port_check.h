/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: `glmux port-check [--json] PATH...`, which names the EGL counterpart of every GLX
 * identifier used in C and C++ sources (see docs/porting-glx-to-egl.md and glmux(1)).
 */
#ifndef GLMUX_CLI_PORT_CHECK_H
#define GLMUX_CLI_PORT_CHECK_H

/* Exit status: 0 no GLX use found, 1 GLX uses found, 2 usage error or a path that could not
 * be read (the others are still scanned and reported). argv holds the arguments after the
 * command name. */
int glmux_cli_port_check(int argc, char **argv);

#endif
