/* SPDX-License-Identifier: MIT */
/*
 * glmux: the built-in "pixels" GLX vendor of libGLX (docs/remote.md). It serves a screen on
 * which no installed vendor can render directly (no GLX extension, a vendor the server names
 * is missing or refuses the screen, a connection that is not local), or when
 * GLMUX_GLX_REMOTE=pixels asks for it. It renders with an EGL vendor on the local machine
 * (surfaceless platform, into EGL pbuffers) and, at glXSwapBuffers (glFinish/glFlush for
 * single-buffered drawables, glXWaitGL for pixmaps), reads the frame back and sends it with
 * XShmPutImage, or XPutImage in pieces that fit the request size. This header is shared by its
 * files: pixels_egl.c (the EGL vendor), pixels_config.c (FBConfigs and visuals),
 * pixels_vendor.c (the GLX vendor ABI), pixels_present.c (read back and put) and
 * pixels_policy.c (when libGLX uses it).
 */
#ifndef GLMUX_GLX_PIXELS_H
#define GLMUX_GLX_PIXELS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <X11/Xlib.h>
#include <GL/glx.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "glvnd/libglxabi.h"

/* The vendor name libGLX knows the built-in vendor by (never a library on disk). */
#define GLMUX_GLX_PIXELS_NAME "glmux-pixels"

/* ---- the EGL vendor (pixels_egl.c) ---- */

#define GLMUX_PIXELS_EGL_FUNCTIONS(X)                                                       \
    X(EGLBoolean, Initialize, (EGLDisplay, EGLint *, EGLint *))                             \
    X(EGLBoolean, Terminate, (EGLDisplay))                                                  \
    X(EGLBoolean, ChooseConfig, (EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *)) \
    X(EGLBoolean, GetConfigAttrib, (EGLDisplay, EGLConfig, EGLint, EGLint *))               \
    X(EGLBoolean, BindAPI, (EGLenum))                                                       \
    X(EGLContext, CreateContext, (EGLDisplay, EGLConfig, EGLContext, const EGLint *))       \
    X(EGLBoolean, DestroyContext, (EGLDisplay, EGLContext))                                 \
    X(EGLBoolean, MakeCurrent, (EGLDisplay, EGLSurface, EGLSurface, EGLContext))            \
    X(EGLSurface, CreatePbufferSurface, (EGLDisplay, EGLConfig, const EGLint *))            \
    X(EGLBoolean, DestroySurface, (EGLDisplay, EGLSurface))                                 \
    X(const char *, QueryString, (EGLDisplay, EGLint))                                      \
    X(EGLint, GetError, (void))                                                             \
    X(EGLBoolean, ReleaseThread, (void))

struct glmux_pixels_egl {
#define GLMUX_PIXELS_EGL_MEMBER(ret, name, params) ret(*name) params;
    GLMUX_PIXELS_EGL_FUNCTIONS(GLMUX_PIXELS_EGL_MEMBER)
#undef GLMUX_PIXELS_EGL_MEMBER
    void *(*get_proc)(const char *name);   /* the vendor's real GL/EGL functions */
    EGLDisplay display;                    /* surfaceless, initialised */
    int major, minor;
    char vendor_name[64];                  /* the EGL vendor's name in the vendor directory */
    char library[256];
};

/* GL functions the vendor itself calls. */
struct glmux_pixels_gl {
    void (*ReadPixels)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
    void (*GetIntegerv)(GLenum, GLint *);
    void (*BindFramebuffer)(GLenum, GLuint);
    void (*BindBuffer)(GLenum, GLuint);
    void (*ReadBuffer)(GLenum);
    void (*PixelStorei)(GLenum, GLint);
    void (*Finish)(void);
    void (*Flush)(void);
};

/*
 * The EGL vendor, loaded and initialised once per process (pthread_once); NULL when there is
 * none, with the reason logged once and copied to why (when non-NULL).
 */
const struct glmux_pixels_egl *glmux_pixels_egl_get(const char **why);
const struct glmux_pixels_gl *glmux_pixels_gl_get(void);

/* ---- FBConfigs and visuals (pixels_config.c) ---- */

struct glmux_pixels_config {
    int id;                 /* GLX_FBCONFIG_ID, 1-based and unique in the process */
    int screen;
    VisualID visual;
    int depth;              /* the visual's depth (24 or 32) */
    int alpha, depth_size, stencil;
    bool double_buffer;
    EGLConfig egl_config;
};

struct glmux_pixels_screen {
    struct glmux_pixels_config *configs;
    int count;
};

/* The configs of (dpy, screen), made on first use; NULL with *n = 0 when there are none. */
struct glmux_pixels_config *glmux_pixels_configs(Display *dpy, int screen, int *n);
/* Whether config is one of ours. */
bool glmux_pixels_config_valid(Display *dpy, const struct glmux_pixels_config *config);
/* The config of a visual (the double-buffered one). */
struct glmux_pixels_config *glmux_pixels_config_of_visual(Display *dpy, int screen,
                                                          VisualID visual);
int glmux_pixels_config_attrib(const struct glmux_pixels_config *c, int attrib, int *value);
/* glXChooseFBConfig / glXChooseVisual matching; a malloc'd array the app frees with XFree. */
GLXFBConfig *glmux_pixels_choose(Display *dpy, int screen, const int *attribs, bool visual_style,
                                 int *n);
XVisualInfo *glmux_pixels_visual_info(Display *dpy, const struct glmux_pixels_config *c);
void glmux_pixels_config_display_closed(Display *dpy);

/* ---- drawables and presentation (pixels_present.c) ---- */

enum glmux_pixels_kind { GLMUX_PIXELS_WINDOW, GLMUX_PIXELS_PIXMAP, GLMUX_PIXELS_PBUFFER };

struct glmux_pixels_drawable {
    struct glmux_pixels_drawable *next;
    Display *dpy;
    XID xid;                /* the GLX drawable (an X window used directly, or our own XID) */
    XID target;             /* the X window or pixmap we put pixels into; None for pbuffers */
    enum glmux_pixels_kind kind;
    struct glmux_pixels_config *config;
    EGLSurface surface;
    EGLConfig surface_config;
    int width, height;
    int current;            /* threads that have it current (draw or read) */
    bool destroyed;         /* glXDestroy* ran while current: freed at release */
    bool gone;              /* the X window or pixmap no longer exists */
    GC gc;
    struct glmux_pixels_shm *shm; /* XShmPutImage buffer of the drawable's size */
    unsigned long event_mask;
};

/* Bytes and frames sent so far (GLMUX_DEBUG=info prints them at exit; the bench reads them). */
struct glmux_pixels_stats {
    unsigned long long frames, bytes, shm_frames;
};

/* Makes sure drawable has an EGL surface of its current size for egl_config; false on error. */
bool glmux_pixels_surface_update(struct glmux_pixels_drawable *d, EGLConfig egl_config);
/* Reads the current draw surface back and puts it into d's X drawable. */
void glmux_pixels_present(struct glmux_pixels_drawable *d);
/* Frees the X resources of a drawable (GC, shm segment). */
void glmux_pixels_present_release(struct glmux_pixels_drawable *d);
/* The window or pixmap's size; false when it is gone (the error is swallowed). */
bool glmux_pixels_geometry(Display *dpy, XID target, int *w, int *h, int *depth);
void glmux_pixels_present_display_closed(Display *dpy);
void glmux_pixels_stats_get(struct glmux_pixels_stats *out);

/* ---- the vendor (pixels_vendor.c) ---- */

Bool glmux_glx_pixels_main(uint32_t version, const __GLXapiExports *exports,
                           __GLXvendorInfo *vendor, __GLXapiImports *imports);

/* In a forked child: every lock of the pixels vendor made anew (glx_init.c's after_fork). */
void glmux_glx_pixels_after_fork(void);
/* libGLX unloads: the Xlib hooks on every display removed (no callback into unloaded code). */
void glmux_glx_pixels_fini(void);
void glmux_pixels_present_after_fork(void);
void glmux_pixels_present_fini(void);
void glmux_pixels_config_after_fork(void);

/* ---- when libGLX uses it (pixels_policy.c) ---- */

enum glmux_pixels_mode { GLMUX_PIXELS_AUTO, GLMUX_PIXELS_FORCE, GLMUX_PIXELS_OFF };

/* GLMUX_GLX_REMOTE: auto (unset), pixels (force), off (never). Bad values warn once: auto. */
enum glmux_pixels_mode glmux_glx_pixels_mode(void);
/* True when dpy's connection is not a local (Unix-domain) socket; *how says what it is. */
bool glmux_glx_pixels_remote_connection(Display *dpy, const char **how);

#endif /* GLMUX_GLX_PIXELS_H */
