/* SPDX-License-Identifier: MIT */
/*
 * glmux: what every GLX entry point of libGLX has in common: the call it makes first, and the
 * GLX functions libGLX implements without exporting them (reached through glXGetProcAddress).
 * GLMUX_GLX_OWN_EXTRA lists those, and glXGetCurrentDisplay, after the 40 functions of
 * glx_core_table.h: together, in that order, libGLX's own dispatch indices (glx_index.c) and
 * its own glXGetProcAddress answers (glx_procaddr.c).
 */
#ifndef GLMUX_GLX_API_H
#define GLMUX_GLX_API_H

#include <X11/Xlib.h>
#include <GL/glx.h>

#include "GLdispatch.h"
#include "glx/glx_core_table.h"   /* the exports, with default visibility */

#define GLMUX_GLX_OWN_EXTRA(X)                                                              \
    X(GetCurrentDisplay) X(CreateContextAttribsARB) X(ImportContextEXT) X(FreeContextEXT)

GLXContext glXCreateContextAttribsARB(Display *dpy, GLXFBConfig config, GLXContext share,
                                      Bool direct, const int *attribs);
GLXContext glXImportContextEXT(Display *dpy, GLXContextID id);
void glXFreeContextEXT(Display *dpy, GLXContext ctx);

/* Every GLX entry point calls this first: fork recovery and the patch thread hook. */
static inline void glmux_glx_entry(void)
{
    __glDispatchCheckMultithreaded();
}

#endif /* GLMUX_GLX_API_H */
