/* SPDX-License-Identifier: MIT */
/*
 * glmux: the UTF-8 decoder behind every escape of untrusted text: log messages (src/util/log.c)
 * and the glmux tool's terminal and JSON output (src/cli/safe_out.c, json_writer.c). Strings
 * from sysfs, manifests and the environment are arbitrary bytes; a control character among
 * them (ESC, CSI, BEL, CR) could drive the terminal that shows them.
 */
#ifndef GLMUX_UTIL_UTF8_H
#define GLMUX_UTIL_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Decodes one UTF-8 character from the n > 0 bytes at s (shortest form, no surrogates, at most
 * U+10FFFF). Returns its length (1-4) and stores it in *cp; 0 when the bytes are not valid
 * UTF-8; -1 when they are the valid start of a character cut short by n.
 */
int glmux_utf8_next(const unsigned char *s, size_t n, uint32_t *cp);

/* The characters escaped on output: C0 controls other than newline and tab, DEL, C1. */
bool glmux_utf8_is_control(uint32_t cp);

#endif /* GLMUX_UTIL_UTF8_H */
