/* SPDX-License-Identifier: MIT */
/*
 * glmux: the interface between libGL.so.1 and libGLX.so.0. libGLX exports the data object
 * __GLXGL_CORE_FUNCTIONS, 39 pointers to its GLX 1.4 functions in byte order of their names
 * (every export except glXGetCurrentDisplay), and __glXGLLoadGLXFunction, which libGL's lazy
 * wrappers call to resolve any other glX name once. Layout and names match libglvnd 1.6, so
 * either project's libGL.so.1 works with either libGLX.so.0.
 */
#ifndef GLMUX_GLX_CORE_TABLE_H
#define GLMUX_GLX_CORE_TABLE_H

#include <pthread.h>

#include <GL/glx.h>

/* X(return type, name without "glX", (parameters), (argument names)), in table order. */
#define GLMUX_GLX_CORE_FUNCTIONS(X)                                                              \
    X(GLXFBConfig *, ChooseFBConfig, (Display * dpy, int screen, const int *attribs, int *n),   \
      (dpy, screen, attribs, n))                                                                 \
    X(XVisualInfo *, ChooseVisual, (Display * dpy, int screen, int *attribs),                   \
      (dpy, screen, attribs))                                                                    \
    X(void, CopyContext, (Display * dpy, GLXContext src, GLXContext dst, unsigned long mask),   \
      (dpy, src, dst, mask))                                                                     \
    X(GLXContext, CreateContext,                                                                 \
      (Display * dpy, XVisualInfo *vis, GLXContext share, Bool direct),                          \
      (dpy, vis, share, direct))                                                                 \
    X(GLXPixmap, CreateGLXPixmap, (Display * dpy, XVisualInfo *vis, Pixmap pixmap),             \
      (dpy, vis, pixmap))                                                                        \
    X(GLXContext, CreateNewContext,                                                              \
      (Display * dpy, GLXFBConfig config, int type, GLXContext share, Bool direct),              \
      (dpy, config, type, share, direct))                                                        \
    X(GLXPbuffer, CreatePbuffer, (Display * dpy, GLXFBConfig config, const int *attribs),       \
      (dpy, config, attribs))                                                                    \
    X(GLXPixmap, CreatePixmap,                                                                   \
      (Display * dpy, GLXFBConfig config, Pixmap pixmap, const int *attribs),                    \
      (dpy, config, pixmap, attribs))                                                            \
    X(GLXWindow, CreateWindow, (Display * dpy, GLXFBConfig config, Window win, const int *attribs), \
      (dpy, config, win, attribs))                                                               \
    X(void, DestroyContext, (Display * dpy, GLXContext ctx), (dpy, ctx))                        \
    X(void, DestroyGLXPixmap, (Display * dpy, GLXPixmap pixmap), (dpy, pixmap))                 \
    X(void, DestroyPbuffer, (Display * dpy, GLXPbuffer pbuf), (dpy, pbuf))                      \
    X(void, DestroyPixmap, (Display * dpy, GLXPixmap pixmap), (dpy, pixmap))                    \
    X(void, DestroyWindow, (Display * dpy, GLXWindow win), (dpy, win))                          \
    X(const char *, GetClientString, (Display * dpy, int name), (dpy, name))                    \
    X(int, GetConfig, (Display * dpy, XVisualInfo *vis, int attrib, int *value),                \
      (dpy, vis, attrib, value))                                                                 \
    X(GLXContext, GetCurrentContext, (void), ())                                                 \
    X(GLXDrawable, GetCurrentDrawable, (void), ())                                               \
    X(GLXDrawable, GetCurrentReadDrawable, (void), ())                                           \
    X(int, GetFBConfigAttrib, (Display * dpy, GLXFBConfig config, int attrib, int *value),      \
      (dpy, config, attrib, value))                                                              \
    X(GLXFBConfig *, GetFBConfigs, (Display * dpy, int screen, int *n), (dpy, screen, n))       \
    X(__GLXextFuncPtr, GetProcAddress, (const GLubyte *name), (name))                           \
    X(__GLXextFuncPtr, GetProcAddressARB, (const GLubyte *name), (name))                        \
    X(void, GetSelectedEvent, (Display * dpy, GLXDrawable draw, unsigned long *mask),           \
      (dpy, draw, mask))                                                                         \
    X(XVisualInfo *, GetVisualFromFBConfig, (Display * dpy, GLXFBConfig config), (dpy, config)) \
    X(Bool, IsDirect, (Display * dpy, GLXContext ctx), (dpy, ctx))                              \
    X(Bool, MakeContextCurrent,                                                                  \
      (Display * dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx),                       \
      (dpy, draw, read, ctx))                                                                    \
    X(Bool, MakeCurrent, (Display * dpy, GLXDrawable draw, GLXContext ctx), (dpy, draw, ctx))   \
    X(int, QueryContext, (Display * dpy, GLXContext ctx, int attrib, int *value),               \
      (dpy, ctx, attrib, value))                                                                 \
    X(void, QueryDrawable, (Display * dpy, GLXDrawable draw, int attrib, unsigned int *value),  \
      (dpy, draw, attrib, value))                                                                \
    X(Bool, QueryExtension, (Display * dpy, int *error_base, int *event_base),                  \
      (dpy, error_base, event_base))                                                             \
    X(const char *, QueryExtensionsString, (Display * dpy, int screen), (dpy, screen))          \
    X(const char *, QueryServerString, (Display * dpy, int screen, int name),                   \
      (dpy, screen, name))                                                                       \
    X(Bool, QueryVersion, (Display * dpy, int *major, int *minor), (dpy, major, minor))         \
    X(void, SelectEvent, (Display * dpy, GLXDrawable draw, unsigned long mask),                 \
      (dpy, draw, mask))                                                                         \
    X(void, SwapBuffers, (Display * dpy, GLXDrawable draw), (dpy, draw))                        \
    X(void, UseXFont, (Font font, int first, int count, int list), (font, first, count, list))  \
    X(void, WaitGL, (void), ())                                                                  \
    X(void, WaitX, (void), ())

struct glmux_glx_core_functions {
#define GLMUX_GLX_CORE_MEMBER(ret, name, params, args) ret(*name) params;
    GLMUX_GLX_CORE_FUNCTIONS(GLMUX_GLX_CORE_MEMBER)
#undef GLMUX_GLX_CORE_MEMBER
};

#define GLMUX_GLX_CORE_COUNT 39

#define GLMUX_GLX_PUBLIC __attribute__((visibility("default")))

/* libGLX's exports, declared with default visibility (the build hides everything else). */
#define GLMUX_GLX_CORE_DECLARE(ret, name, params, args) GLMUX_GLX_PUBLIC ret glX##name params;
GLMUX_GLX_CORE_FUNCTIONS(GLMUX_GLX_CORE_DECLARE)
#undef GLMUX_GLX_CORE_DECLARE
GLMUX_GLX_PUBLIC Display *glXGetCurrentDisplay(void);

GLMUX_GLX_PUBLIC extern const struct glmux_glx_core_functions __GLXGL_CORE_FUNCTIONS;

/* Resolves name through glXGetProcAddress once; *ptr caches it; mutex may be NULL. */
GLMUX_GLX_PUBLIC __GLXextFuncPtr __glXGLLoadGLXFunction(const char *name, __GLXextFuncPtr *ptr,
                                       pthread_mutex_t *mutex);

#endif /* GLMUX_GLX_CORE_TABLE_H */
