/* SPDX-License-Identifier: MIT */
/*
 * glmux: the one loader of the X client libraries (x11_libs.h), shared by the selector's DRI3
 * question, the pixels vendor and the glmux tool, so that each soname, dlopen mode and
 * lifetime rule is written once. A handle is published with a compare-and-swap; the loser of
 * a race closes its own reference again.
 */
#define _GNU_SOURCE
#include "select/x11_libs.h"

#include <dlfcn.h>

static const char *const names[GLMUX_X11_LIB_COUNT] = {
    [GLMUX_X11_LIB_X11] = "libX11.so.6",
    [GLMUX_X11_LIB_X11_XCB] = "libX11-xcb.so.1",
    [GLMUX_X11_LIB_XCB] = "libxcb.so.1",
    [GLMUX_X11_LIB_XCB_DRI3] = "libxcb-dri3.so.0",
    [GLMUX_X11_LIB_XCB_SHM] = "libxcb-shm.so.0",
    [GLMUX_X11_LIB_XCB_PRESENT] = "libxcb-present.so.0",
};

static void *handles[GLMUX_X11_LIB_COUNT];

const char *glmux_x11_lib_name(enum glmux_x11_lib lib)
{
    return (unsigned)lib < GLMUX_X11_LIB_COUNT ? names[lib] : "?";
}

void *glmux_x11_lib(enum glmux_x11_lib lib, bool only_if_loaded)
{
    void *h, *expected = NULL;

    if ((unsigned)lib >= GLMUX_X11_LIB_COUNT)
        return NULL;
    h = __atomic_load_n(&handles[lib], __ATOMIC_ACQUIRE);
    if (h != NULL)
        return h;
    h = dlopen(names[lib], RTLD_LAZY | RTLD_LOCAL | (only_if_loaded ? RTLD_NOLOAD : 0));
    if (h == NULL)
        return NULL;
    if (!__atomic_compare_exchange_n(&handles[lib], &expected, h, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        dlclose(h);   /* another thread published its handle of the same library first */
        h = expected;
    }
    return h;
}

void *glmux_x11_sym(enum glmux_x11_lib lib, const char *name)
{
    void *h = glmux_x11_lib(lib, false);

    return h != NULL ? dlsym(h, name) : NULL;
}

bool glmux_x11_syms(enum glmux_x11_lib lib, const struct glmux_x11_want *want, size_t n)
{
    void *h = glmux_x11_lib(lib, false);
    bool ok = h != NULL;

    for (size_t i = 0; i < n; i++) {
        *want[i].where = h != NULL ? dlsym(h, want[i].name) : NULL;
        ok = ok && *want[i].where != NULL;
    }
    return ok;
}
