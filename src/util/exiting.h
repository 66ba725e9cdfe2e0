/* SPDX-License-Identifier: MIT */
/*
 * glmux: whether the process is ending (exit, or a return from main) rather than this library
 * being unloaded by dlclose, as seen from the library's destructor. glmux_exit_watch registers
 * an atexit handler against the library. exit runs the handlers registered after the dynamic
 * linker's own (which runs every library destructor) first, so a handler registered once main
 * has started has run when a destructor asks during exit; dlclose runs the library's
 * destructors first and its handlers after them (glibc: __cxa_finalize from the library's own
 * fini), so it has not run when a destructor asks during dlclose. A handler registered before
 * main (a library's constructor) would run after the destructors: a library watches from its
 * first real use (a display hooked, a context made current), which is after main has started
 * in every program but one that renders from a constructor (there, destructors behave as at
 * dlclose).
 *
 * At exit other threads may still be rendering, or be stopped inside Xlib's I/O error path
 * holding a display's lock forever (several connections dying at once, docs/reliability.md):
 * a destructor then frees nothing, unloads no vendor and makes no Xlib call; the process is
 * going away and its memory with it.
 */
#ifndef GLMUX_UTIL_EXITING_H
#define GLMUX_UTIL_EXITING_H

#include <stdbool.h>

/* Registers the library's atexit handler (once; cheap after the first call). */
void glmux_exit_watch(void);

/* True once the process has started to exit (the library's handler has run). */
bool glmux_process_exiting(void);

#endif /* GLMUX_UTIL_EXITING_H */
