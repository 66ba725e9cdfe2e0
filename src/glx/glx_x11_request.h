/* SPDX-License-Identifier: MIT */
/*
 * glmux: the GLX requests libGLX sends itself (glx_x11.c), for files that need no Xlib
 * internals. Errors these requests cause never reach the application.
 */
#ifndef GLMUX_GLX_X11_REQUEST_H
#define GLMUX_GLX_X11_REQUEST_H

#include <stdbool.h>

#include <X11/Xlib.h>

/* GLXQueryServerString; malloc'd string or NULL. */
char *glmux_glx_x11_query_server_string(Display *dpy, int opcode, int screen, int name);
/* The screen a drawable is on, or -1 when the server does not know it. */
int glmux_glx_x11_drawable_screen(Display *dpy, int opcode, bool libglvnd_ext, XID drawable);
/* The screen of an imported context, or -1 (the context does not exist). */
int glmux_glx_x11_context_screen(Display *dpy, int opcode, XID context);
/* X_GLXQueryVersion: True and the server's version. */
Bool glmux_glx_x11_query_version(Display *dpy, int opcode, int *major, int *minor);

#endif /* GLMUX_GLX_X11_REQUEST_H */
