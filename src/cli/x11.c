/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the X display `glmux explain` asks about (the screen count, GLX, the kind of
 * connection). libX11 is loaded with dlopen on first use and stays loaded for the rest of the
 * run (the selector asks the default display's GPU through it next), so the tool does not
 * depend on it; DISPLAY is read through the environment helper.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <stddef.h>

#include "util/env.h"

static void *libx11;

void *glmux_cli_x11_sym(const char *name)
{
    return libx11 != NULL ? dlsym(libx11, name) : NULL;
}

void *glmux_cli_x11_open(void)
{
    typedef void *(*open_fn)(const char *);
    const char *display = glmux_env_get("DISPLAY");
    open_fn xopen;

    if (display == NULL || *display == '\0')
        return NULL;
    if (libx11 == NULL)
        libx11 = dlopen("libX11.so.6", RTLD_LAZY | RTLD_LOCAL);
    xopen = (open_fn)glmux_cli_x11_sym("XOpenDisplay");
    /* The name as read here: XOpenDisplay(NULL) would read DISPLAY itself, even when setuid. */
    return xopen != NULL ? xopen(display) : NULL;
}

void glmux_cli_x11_close(void *dpy)
{
    typedef int (*close_fn)(void *);
    close_fn xclose = (close_fn)glmux_cli_x11_sym("XCloseDisplay");

    if (dpy != NULL && xclose != NULL)
        xclose(dpy);
}
