/* SPDX-License-Identifier: MIT */
/*
 * glmux: the one loader of the X client libraries (libX11, libX11-xcb, libxcb and the xcb
 * extension libraries) for code that must not link them: the selector's DRI3 question
 * (display_gpu.c), the pixels vendor's frame transport and the glmux tool. Each library is
 * opened with dlopen (RTLD_LAZY | RTLD_LOCAL) the first time it is asked for and stays loaded
 * for the life of the process (the libraries keep no callback into glmux, and a display may use
 * them until it is closed). No lock: two threads that open one library at once both succeed,
 * and the second handle is given back. Nothing is logged: the caller says what it cannot do.
 */
#ifndef GLMUX_SELECT_X11_LIBS_H
#define GLMUX_SELECT_X11_LIBS_H

#include <stdbool.h>
#include <stddef.h>

enum glmux_x11_lib {
    GLMUX_X11_LIB_X11,        /* libX11.so.6 */
    GLMUX_X11_LIB_X11_XCB,    /* libX11-xcb.so.1 */
    GLMUX_X11_LIB_XCB,        /* libxcb.so.1 */
    GLMUX_X11_LIB_XCB_DRI3,   /* libxcb-dri3.so.0 */
    GLMUX_X11_LIB_XCB_SHM,    /* libxcb-shm.so.0 */
    GLMUX_X11_LIB_XCB_PRESENT,/* libxcb-present.so.0 */
    GLMUX_X11_LIB_COUNT
};

/* The library's soname ("libX11.so.6"). */
const char *glmux_x11_lib_name(enum glmux_x11_lib lib);
/*
 * The library's handle, opened on first use; NULL when it cannot be loaded. only_if_loaded:
 * do not load it when the process has not (RTLD_NOLOAD; a handle opened earlier is returned).
 */
void *glmux_x11_lib(enum glmux_x11_lib lib, bool only_if_loaded);
/* A function or variable of the library (loading it first); NULL when either is missing. */
void *glmux_x11_sym(enum glmux_x11_lib lib, const char *name);

/* One symbol to look up: where its address goes, and its name. */
struct glmux_x11_want {
    void **where;
    const char *name;
};
/* Looks up n symbols of lib into their places; true only when the library and every symbol
 * were found (the places of those missing are set to NULL). */
bool glmux_x11_syms(enum glmux_x11_lib lib, const struct glmux_x11_want *want, size_t n);

#endif /* GLMUX_SELECT_X11_LIBS_H */
