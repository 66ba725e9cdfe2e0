/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: output that is safe to show on a terminal. The tool prints strings it does not
 * control (sysfs names, driver symlinks, manifest fields, environment values, source text);
 * a byte such as ESC could move the cursor, retitle the window or hide text. Every byte that
 * leaves through stdout or stderr passes one filter, and the JSON writer escapes the same
 * characters inside strings so that --json stays valid UTF-8.
 */
#ifndef GLMUX_CLI_SAFE_OUT_H
#define GLMUX_CLI_SAFE_OUT_H

/*
 * Replaces stdout and stderr by streams that write through the filter: C0 control characters
 * other than newline and tab, DEL, the C1 controls U+0080-U+009F and bytes that are not valid
 * UTF-8 are written as "\xNN" (one per byte). Call once, first thing in main().
 */
void glmux_cli_safe_streams(void);

/*
 * A value for the middle of a line of text output (an environment value, a udev or sysfs
 * field, a name from a manifest or the X server): every control character, newline and tab
 * included, written as "\xNN", so that a value cannot start a line of its own (a forged
 * "GPU:" line). The result lives in one of 16 buffers used in turn (the tool is one thread):
 * enough for the arguments of one printf. NULL stays NULL.
 */
const char *glmux_cli_esc(const char *s);

#endif
