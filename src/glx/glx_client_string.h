/* SPDX-License-Identifier: MIT */
/* glmux: glXGetClientString's answer, merged over the vendors of a display's screens
 * (glx_client_string.c). */
#ifndef GLMUX_GLX_CLIENT_STRING_H
#define GLMUX_GLX_CLIENT_STRING_H

#include <X11/Xlib.h>

const char *glmux_glx_client_string(Display *dpy, int name);

#endif /* GLMUX_GLX_CLIENT_STRING_H */
