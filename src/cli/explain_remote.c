/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the part of `glmux explain` that says whether libGLX would serve $DISPLAY with its
 * built-in pixels vendor (docs/remote.md) and why, by the rules of src/glx/glx_display.c:
 * libglvnd's vendor variables naming another vendor and GLMUX_GLX_REMOTE=off forbid it,
 * GLMUX_GLX_REMOTE=pixels forces it, otherwise a server without GLX or a connection that is not
 * a Unix-domain socket chooses it. The display is opened through x11.c (libX11 is loaded with
 * dlopen, only when DISPLAY is set).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <string.h>
#include <sys/socket.h>

#include "util/env.h"

static bool names_other(const char *var)
{
    const char *v = glmux_env_get(var);

    return v != NULL && *v != '\0' && strcmp(v, "glmux-pixels") != 0;
}

/* What the X server says: 1 pixels (with *why), 0 not, -1 not reachable. */
static int ask_server(const char **why)
{
    typedef int (*query_fn)(void *, const char *, int *, int *, int *);
    typedef int (*fd_fn)(void *);
    void *dpy = glmux_cli_x11_open();
    query_fn xquery = (query_fn)glmux_cli_x11_sym("XQueryExtension");
    fd_fn xfd = (fd_fn)glmux_cli_x11_sym("XConnectionNumber");
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);
    int rc = -1, op, ev, er;

    if (dpy != NULL && xquery != NULL && xfd != NULL) {
        rc = 0;
        if (!xquery(dpy, "GLX", &op, &ev, &er)) {
            rc = 1;
            *why = "the X server has no GLX extension";
        } else if (getsockname(xfd(dpy), (struct sockaddr *)&addr, &len) == 0 &&
                   addr.ss_family != AF_UNIX) {
            rc = 1;
            *why = "the X connection is not local (TCP)";
        }
    }
    glmux_cli_x11_close(dpy);
    return rc;
}

const char *glmux_cli_explain_remote(bool *used)
{
    const char *mode = glmux_env_get("GLMUX_GLX_REMOTE"), *why = NULL;
    int server;

    *used = false;
    if (names_other("__GLX_VENDOR_LIBRARY_NAME") || names_other("__GLX_FORCE_VENDOR_LIBRARY_0"))
        return "a libglvnd variable names another GLX vendor";
    if (mode != NULL && (strcmp(mode, "off") == 0 || strcmp(mode, "0") == 0 ||
                         strcmp(mode, "never") == 0))
        return "GLMUX_GLX_REMOTE forbids it";
    if (mode != NULL && strcmp(mode, "pixels") == 0) {
        *used = true;
        return "GLMUX_GLX_REMOTE=pixels";
    }
    server = ask_server(&why);
    if (server < 0)
        return "DISPLAY not reachable";
    if (server > 0) {
        *used = true;
        return why;
    }
    return "the X server's vendors render directly (used only if none of them loads)";
}
