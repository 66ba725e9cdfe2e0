/* SPDX-License-Identifier: MIT */
/*
 * glmux: every environment read goes through here. Overrides are ignored in a secure-execution
 * process (setuid, setgid or file capabilities: AT_SECURE), as secure_getenv does, for every
 * library alike.
 */
#ifndef GLMUX_UTIL_ENV_H
#define GLMUX_UTIL_ENV_H

#include <stdbool.h>

/* The variable's value, or NULL when it is unset or the process runs in secure mode. */
const char *glmux_env_get(const char *name);

/*
 * The variable's value even in secure mode: only for variables that can only take something
 * away (GLMUX_LAYERS_DISABLE, a layer's disable_environment), never add code or files.
 */
const char *glmux_env_get_always(const char *name);

/*
 * A variable read as a decimal integer. Unset, empty or secure mode gives def; a malformed
 * value gives def and a warning, once per variable and process (tests/util/test_util.c).
 */
long glmux_env_get_int(const char *name, long def);

/*
 * True when the variable reads as an integer other than 0 by libglvnd's atoi() rule: leading
 * blanks and a sign, then the digits up to the first other character ("1abc" is 1, "yes" 0).
 * A value that is not wholly a number is read that way and warned about, once per variable.
 */
bool glmux_env_get_flag(const char *name);

/* True when this process runs with AT_SECURE set. */
bool glmux_env_is_secure(void);

#endif /* GLMUX_UTIL_ENV_H */
