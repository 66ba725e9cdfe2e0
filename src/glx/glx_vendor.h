/* SPDX-License-Identifier: MIT */
/*
 * glmux: a loaded GLX vendor (glx_vendor.c): what libGLX keeps of it, loading one by name, and
 * the exports table vendors call (GLX vendor ABI 1.0, glvnd/libglxabi.h).
 */
#ifndef GLMUX_GLX_VENDOR_H
#define GLMUX_GLX_VENDOR_H

#include <stdbool.h>

#include <X11/Xlib.h>
#include <GL/glx.h>

#include "GLdispatch.h"
#include "glvnd/libglxabi.h"
#include "winsys/winsys.h"

/* ---- the GLX functions libGLX takes from every vendor (glx_vendor.c) ---- */

/* X(return type, name without "glX", (parameters), required) */
#define GLMUX_GLX_VENDOR_FUNCTIONS(X)                                                       \
    X(XVisualInfo *, ChooseVisual, (Display *, int, int *), true)                          \
    X(void, CopyContext, (Display *, GLXContext, GLXContext, unsigned long), true)         \
    X(GLXContext, CreateContext, (Display *, XVisualInfo *, GLXContext, Bool), true)       \
    X(GLXPixmap, CreateGLXPixmap, (Display *, XVisualInfo *, Pixmap), true)                \
    X(void, DestroyContext, (Display *, GLXContext), true)                                 \
    X(void, DestroyGLXPixmap, (Display *, GLXPixmap), true)                                \
    X(int, GetConfig, (Display *, XVisualInfo *, int, int *), true)                        \
    X(Bool, IsDirect, (Display *, GLXContext), true)                                       \
    X(Bool, MakeCurrent, (Display *, GLXDrawable, GLXContext), true)                       \
    X(void, SwapBuffers, (Display *, GLXDrawable), true)                                   \
    X(void, UseXFont, (Font, int, int, int), true)                                         \
    X(void, WaitGL, (void), true)                                                          \
    X(void, WaitX, (void), true)                                                           \
    X(const char *, QueryServerString, (Display *, int, int), true)                        \
    X(const char *, GetClientString, (Display *, int), true)                               \
    X(const char *, QueryExtensionsString, (Display *, int), true)                         \
    X(GLXFBConfig *, ChooseFBConfig, (Display *, int, const int *, int *), true)           \
    X(GLXContext, CreateNewContext, (Display *, GLXFBConfig, int, GLXContext, Bool), true) \
    X(GLXPbuffer, CreatePbuffer, (Display *, GLXFBConfig, const int *), true)              \
    X(GLXPixmap, CreatePixmap, (Display *, GLXFBConfig, Pixmap, const int *), true)        \
    X(GLXWindow, CreateWindow, (Display *, GLXFBConfig, Window, const int *), true)        \
    X(void, DestroyPbuffer, (Display *, GLXPbuffer), true)                                 \
    X(void, DestroyPixmap, (Display *, GLXPixmap), true)                                   \
    X(void, DestroyWindow, (Display *, GLXWindow), true)                                   \
    X(int, GetFBConfigAttrib, (Display *, GLXFBConfig, int, int *), true)                  \
    X(GLXFBConfig *, GetFBConfigs, (Display *, int, int *), true)                          \
    X(void, GetSelectedEvent, (Display *, GLXDrawable, unsigned long *), true)             \
    X(XVisualInfo *, GetVisualFromFBConfig, (Display *, GLXFBConfig), true)                \
    X(Bool, MakeContextCurrent, (Display *, GLXDrawable, GLXDrawable, GLXContext), true)   \
    X(int, QueryContext, (Display *, GLXContext, int, int *), true)                        \
    X(void, QueryDrawable, (Display *, GLXDrawable, int, unsigned int *), true)            \
    X(void, SelectEvent, (Display *, GLXDrawable, unsigned long), true)                    \
    X(GLXContext, ImportContextEXT, (Display *, GLXContextID), false)                      \
    X(void, FreeContextEXT, (Display *, GLXContext), false)                                \
    X(GLXContext, CreateContextAttribsARB,                                                 \
      (Display *, GLXFBConfig, GLXContext, Bool, const int *), false)

struct glmux_glx_vendor_fns {
#define GLMUX_GLX_FN_MEMBER(ret, name, params, req) ret(*name) params;
    GLMUX_GLX_VENDOR_FUNCTIONS(GLMUX_GLX_FN_MEMBER)
#undef GLMUX_GLX_FN_MEMBER
};

/* One loaded vendor; __GLXvendorInfo to the vendor ABI. */
struct __GLXvendorInfoRec {
    struct __GLXvendorInfoRec *next;
    char *name;                     /* the name it was first loaded under */
    void *handle;                   /* dlopen handle: vendors are unique by handle */
    int vendor_id;                  /* libGLdispatch vendor id */
    __GLdispatchTable *gl_table;    /* the vendor's GL dispatch table */
    __GLXapiImports imports;
    __GLdispatchPatchCallbacks patch_cb;
    bool has_patch;
    struct glmux_glx_vendor_fns fns;
    struct glmux_lookup_cache dyn;  /* fetchDispatchEntry answers, by dispatch index */
};
typedef struct __GLXvendorInfoRec glmux_glx_vendor;

extern const __GLXapiExports glmux_glx_exports;
/*
 * Loads (or finds) the vendor called name; NULL when it cannot be loaded (reported once, and
 * why written to failed, the same reason every time it is asked; failed_size 0: not wanted).
 * override: a libglvnd variable named it (the log says so). Takes glmux_glx_lock, and holds it
 * across the load (glx_lock.h).
 */
glmux_glx_vendor *glmux_glx_vendor_load(const char *name, bool override, char *failed,
                                        size_t failed_size);
/* The loaded vendors, newest first (glmux_glx_lock held; vendors are only ever added at the
 * head and stay until libGLX is unloaded, so the list may be walked after releasing it). */
glmux_glx_vendor *glmux_glx_vendor_first(void);
/* The vendor's function for a dispatch index (exports member fetchDispatchEntry). */
__GLXextFuncPtr glmux_glx_vendor_fetch(glmux_glx_vendor *vendor, int index);

#endif /* GLMUX_GLX_VENDOR_H */
