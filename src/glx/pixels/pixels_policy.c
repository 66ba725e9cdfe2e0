/* SPDX-License-Identifier: MIT */
/*
 * glmux: when libGLX uses the pixels vendor (docs/remote.md). GLMUX_GLX_REMOTE chooses: unset
 * or "auto" lets libGLX use it for a screen no installed vendor can render on directly, "pixels"
 * asks for it on every screen, "off" forbids it. A connection counts as remote when its socket
 * is not a Unix-domain one (TCP, also on the loopback address: the server may be another
 * machine's, as with ssh -X forwarding, and a direct-rendering vendor cannot share buffers
 * with it).
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/socket.h>

#include "glx/pixels/pixels.h"
#include "util/env.h"
#include "util/log.h"

enum glmux_pixels_mode glmux_glx_pixels_mode(void)
{
    static int warned;
    const char *v = glmux_env_get("GLMUX_GLX_REMOTE");

    if (v == NULL || *v == '\0' || strcmp(v, "auto") == 0)
        return GLMUX_PIXELS_AUTO;
    if (strcmp(v, "pixels") == 0)
        return GLMUX_PIXELS_FORCE;
    if (strcmp(v, "off") == 0 || strcmp(v, "0") == 0 || strcmp(v, "never") == 0)
        return GLMUX_PIXELS_OFF;
    if (__atomic_fetch_add(&warned, 1, __ATOMIC_RELAXED) == 0)
        glmux_log(GLMUX_LOG_WARN, "GLMUX_GLX_REMOTE=%s is not one of auto, pixels, off; "
                  "using auto", v);
    return GLMUX_PIXELS_AUTO;
}

bool glmux_glx_pixels_remote_connection(Display *dpy, const char **how)
{
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);

    *how = "a local (Unix-domain) connection";
    if (getsockname(ConnectionNumber(dpy), (struct sockaddr *)&addr, &len) != 0)
        return false;
    if (addr.ss_family == AF_UNIX)
        return false;
    *how = addr.ss_family == AF_INET6 ? "a TCP (IPv6) connection" : "a TCP connection";
    return true;
}
