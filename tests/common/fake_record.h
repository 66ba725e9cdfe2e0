/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: how the fake EGL and GLX vendors tell a test script what they saw.
 */
#ifndef GLMUX_FAKE_RECORD_H
#define GLMUX_FAKE_RECORD_H

/*
 * Appends the line "what vendor[ VAR=value...]" to the file named by the environment variable
 * record_env, listing each variable of the NULL-terminated vars (NULL: none) that is set. Does
 * nothing when record_env is unset or the file cannot be opened.
 */
void glmux_fake_record(const char *record_env, const char *vendor, const char *what,
                       const char *const *vars);

#endif
