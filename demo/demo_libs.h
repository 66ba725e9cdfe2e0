/* SPDX-License-Identifier: MIT */
/*
 * glmux demos: printing which GL libraries a process really loaded (ours or Debian's).
 */
#ifndef GLMUX_DEMO_LIBS_H
#define GLMUX_DEMO_LIBS_H

/* Prints "  loaded PATH" for every loaded object whose path contains one of the NULL-terminated
 * names ("libEGL", "libGLdispatch", ...). */
void demo_print_loaded(const char *const *names);

#endif
