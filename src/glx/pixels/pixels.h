/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels GLX vendor, libGLX_glmux-pixels.so.0 (docs/remote.md). libGLX chooses it for
 * a screen on which no installed vendor can render directly (src/select/pixels_rule.c), or a
 * user names it (__GLX_VENDOR_LIBRARY_NAME=glmux-pixels, also under libglvnd). It renders with
 * an EGL vendor on the local machine (surfaceless platform, into EGL pbuffers) and, at
 * glXSwapBuffers (glFinish/glFlush for single-buffered drawables, glXWaitGL for pixmaps), reads
 * the frame back and sends it with XShmPutImage, or XPutImage in pieces that fit the request
 * size. This header is shared by its files: pixels_egl.c (the EGL vendor), pixels_config.c
 * (FBConfigs and visuals), pixels_choose.c (glXChooseFBConfig and the other config functions),
 * pixels_vendor.c (the GLX vendor ABI), pixels_present.c (read back and put), pixels_frame.c
 * (what a drawable and a frame may be: the checks of what the server answers), pixels_resolve.c
 * (multisample resolve) and pixels_texture.c (GLX_EXT_texture_from_pixmap). It uses public GLX
 * vendor ABI, EGL, GL and X11 calls only, and src/util (logging, the environment) and
 * src/select (the EGL vendor directory) linked statically: nothing of libGLX's.
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

/* GLX tokens of the extensions the vendor offers, for headers older than them. */
#ifndef GLX_SAMPLE_BUFFERS
#define GLX_SAMPLE_BUFFERS 100000
#define GLX_SAMPLES 100001
#endif
#ifndef GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB
#define GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB 0x20B2
#endif
#ifndef GLX_BIND_TO_TEXTURE_RGB_EXT
#define GLX_BIND_TO_TEXTURE_RGB_EXT 0x20D0
#define GLX_BIND_TO_TEXTURE_RGBA_EXT 0x20D1
#define GLX_BIND_TO_MIPMAP_TEXTURE_EXT 0x20D2
#define GLX_BIND_TO_TEXTURE_TARGETS_EXT 0x20D3
#define GLX_Y_INVERTED_EXT 0x20D4
#define GLX_TEXTURE_FORMAT_EXT 0x20D5
#define GLX_TEXTURE_TARGET_EXT 0x20D6
#define GLX_MIPMAP_TEXTURE_EXT 0x20D7
#define GLX_TEXTURE_FORMAT_NONE_EXT 0x20D8
#define GLX_TEXTURE_FORMAT_RGB_EXT 0x20D9
#define GLX_TEXTURE_FORMAT_RGBA_EXT 0x20DA
#define GLX_TEXTURE_1D_BIT_EXT 0x00000001
#define GLX_TEXTURE_2D_BIT_EXT 0x00000002
#define GLX_TEXTURE_RECTANGLE_BIT_EXT 0x00000004
#define GLX_TEXTURE_1D_EXT 0x20DB
#define GLX_TEXTURE_2D_EXT 0x20DC
#define GLX_TEXTURE_RECTANGLE_EXT 0x20DD
#define GLX_FRONT_LEFT_EXT 0x20DE
#endif

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

/* ---- FBConfigs and visuals (pixels_config.c, pixels_choose.c) ---- */

/*
 * One FBConfig. Colour is always 8-bit red, green and blue (plus 8 bits of alpha or none),
 * read back as BGRA bytes; what differs is listed here. Configs live as long as their display.
 */
struct glmux_pixels_config {
    int id;                 /* GLX_FBCONFIG_ID, 1-based and unique in the process */
    int screen;
    VisualID visual;        /* GLX_VISUAL_ID: the X visual of its windows and pixmaps */
    int depth;              /* that visual's depth (24 or 32): a drawable of another is BadMatch */
    int alpha, depth_size, stencil;
    int samples;            /* 0, or the multisampled EGL config's samples (GLX_SAMPLES) */
    bool double_buffer;
    bool srgb;              /* GLX_FRAMEBUFFER_SRGB_CAPABLE: surfaces get EGL_GL_COLORSPACE_SRGB */
    int caveat;             /* GLX_NONE, GLX_SLOW_CONFIG or GLX_NON_CONFORMANT_CONFIG */
    int max_pbuffer_width, max_pbuffer_height, max_pbuffer_pixels;
    EGLConfig egl_config;
};

/* The configs of (dpy, screen), made on first use; NULL with *n = 0 when there are none. */
struct glmux_pixels_config *glmux_pixels_configs(Display *dpy, int screen, int *n);
/* Whether config is one of ours. */
bool glmux_pixels_config_valid(Display *dpy, const struct glmux_pixels_config *config);
/*
 * The config a GLX 1.2 visual stands for (glXCreateContext, glXGetConfig, glXCreateGLXPixmap):
 * the one glXChooseVisual or glXGetVisualFromFBConfig returned this XVisualInfo for, else the
 * one glXChooseVisual last chose for its visual, else the visual's default (double-buffered,
 * 24-bit depth, 8-bit stencil, alpha if it has any). Any TrueColor visual of the screen with
 * the same depth and masks as one of ours stands for it. NULL when the visual is not usable.
 */
struct glmux_pixels_config *glmux_pixels_config_of_visual(Display *dpy, const XVisualInfo *vis);
/* The visual of ours that visual stands for (itself when it is none of ours). */
VisualID glmux_pixels_visual_standing_for(Display *dpy, int screen, VisualID visual);
/* The XVisualInfo of config's visual (XFree it), remembered as standing for config; chosen:
 * glXChooseVisual chose it (later lookups of the same visual by id get it too). */
XVisualInfo *glmux_pixels_visual_info(Display *dpy, struct glmux_pixels_config *c, bool chosen);
/* glXGetFBConfigAttrib / glXGetConfig: Success or GLX_BAD_ATTRIBUTE. */
int glmux_pixels_config_attrib(const struct glmux_pixels_config *c, int attrib, int *value);
/* The EGL surface attributes a surface of config c needs (its colour space), written to out
 * (room for GLMUX_PIXELS_SURFACE_ATTRIBS EGLints, not terminated); returns how many. */
#define GLMUX_PIXELS_SURFACE_ATTRIBS 2
int glmux_pixels_config_surface_attribs(const struct glmux_pixels_config *c, EGLint *out);
/* Whether a surface made for config a serves config b too (same EGL config and colour space). */
bool glmux_pixels_config_same_surface(const struct glmux_pixels_config *a,
                                      const struct glmux_pixels_config *b);
/* The GLX functions of configs and visuals (pixels_choose.c): GLX 1.4 matching and order. */
GLXFBConfig *glmux_pixels_ChooseFBConfig(Display *dpy, int screen, const int *attribs, int *n);
GLXFBConfig *glmux_pixels_GetFBConfigs(Display *dpy, int screen, int *n);
int glmux_pixels_GetFBConfigAttrib(Display *dpy, GLXFBConfig config, int attrib, int *value);
XVisualInfo *glmux_pixels_GetVisualFromFBConfig(Display *dpy, GLXFBConfig config);
XVisualInfo *glmux_pixels_ChooseVisual(Display *dpy, int screen, int *attribs);
int glmux_pixels_GetConfig(Display *dpy, XVisualInfo *vis, int attrib, int *value);
void glmux_pixels_config_display_closed(Display *dpy);

/* ---- frames and the drawables that show them (pixels_frame.c) ---- */

/* The largest frame side: larger drawables show their top-left part. */
#define GLMUX_PIXELS_MAX_SIDE 16384

/* A frame in memory: 32-bit pixels in the host's byte order, rows of stride bytes. */
struct glmux_pixels_layout {
    int width, height;
    int stride;             /* width * 4 */
    size_t size;            /* stride * height: every buffer of the frame has this size */
};

enum glmux_pixels_fit {
    GLMUX_PIXELS_FITS,      /* the drawable can show frames of the config */
    GLMUX_PIXELS_BAD_MATCH, /* another screen, depth or pixel format: BadMatch, as GLX */
    GLMUX_PIXELS_GONE,      /* no such window or pixmap */
};

/* The layout of a width x height frame; false unless both are in 1..GLMUX_PIXELS_MAX_SIDE. */
bool glmux_pixels_layout(int width, int height, struct glmux_pixels_layout *out);
/* The bits per pixel the server stores depth in (the connection's pixmap formats); 0: none, or
 * a format with a scanline pad other than 8, 16 or 32. */
int glmux_pixels_format_bpp(Display *dpy, int depth);
/* Whether a drawable with this root and depth (the server's GetGeometry answer) can show frames
 * of config c, whose screen's root window is config_root. */
enum glmux_pixels_fit glmux_pixels_fit(Display *dpy, const struct glmux_pixels_config *c,
                                       Window config_root, Window root, int depth);
/* Whether img is laid out exactly as l (ZPixmap, 32 bits a pixel, l's stride). */
bool glmux_pixels_image_ok(const XImage *img, const struct glmux_pixels_layout *l);
/* An XImage (no data) laid out as l for a drawable of depth; NULL when Xlib would lay it out
 * otherwise (a server whose formats say so). */
XImage *glmux_pixels_image_create(Display *dpy, Visual *visual, int depth,
                                  const struct glmux_pixels_layout *l);
/* LSBFirst or MSBFirst: the byte order of the read-back's 32-bit pixels. */
int glmux_pixels_host_order(void);

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
    const struct glmux_pixels_config *surface_config; /* the config surface was made for */
    int depth;              /* the X drawable's depth, checked against the config's */
    int width, height;
    int current;            /* threads that have it current (draw or read) */
    bool destroyed;         /* glXDestroy* ran while current: freed at release */
    bool gone;              /* the X window or pixmap no longer exists */
    GC gc;
    struct glmux_pixels_shm *shm; /* XShmPutImage buffer of the drawable's size */
    unsigned long event_mask;
    int tex_format, tex_target;   /* GLX_EXT_texture_from_pixmap: pixmaps only (0: none) */
};

/* Bytes and frames sent so far (GLMUX_DEBUG=info prints them at exit; the bench reads them). */
struct glmux_pixels_stats {
    unsigned long long frames, bytes, shm_frames;
};

/* Makes sure drawable has an EGL surface of its current size for config (its EGL config and
 * colour space); false on error. */
bool glmux_pixels_surface_update(struct glmux_pixels_drawable *d,
                                 const struct glmux_pixels_config *config);
/* Reads the current draw surface back and puts it into d's X drawable. */
void glmux_pixels_present(struct glmux_pixels_drawable *d);
/* Frees the X resources of a drawable (GC, shm segment). */
void glmux_pixels_present_release(struct glmux_pixels_drawable *d);
/* The window or pixmap's size; false when it is gone (the error is swallowed). */
bool glmux_pixels_geometry(Display *dpy, XID target, int *w, int *h, int *depth);
/* Asks the server about target (one round trip) and checks it can show config's frames:
 * *depth is its depth when it fits. */
enum glmux_pixels_fit glmux_pixels_probe(Display *dpy, const struct glmux_pixels_config *config,
                                         XID target, int *depth);
/* Reports an X error to the application's error handler, as the server would for a GLX request:
 * the GLX error glx_code (>= 0) when the server has the GLX extension, else the core error code;
 * major code: the server's GLX extension (0 without one), minor code glx_minor. */
void glmux_pixels_x_error(Display *dpy, unsigned char code, int glx_code, XID resource,
                          int glx_minor);
void glmux_pixels_present_display_closed(Display *dpy);
void glmux_pixels_stats_get(struct glmux_pixels_stats *out);

/* ---- what pixels_vendor.c's fork handler and destructor call ---- */

/* libGLX_glmux-pixels.so.0 unloads: the Xlib hooks on every display removed. */
void glmux_pixels_present_fini(void);
/* In a forked child: the locks made anew. */
void glmux_pixels_present_after_fork(void);
void glmux_pixels_config_after_fork(void);

/* ---- multisample resolve before read-back (pixels_resolve.c) ---- */

struct glmux_pixels_resolve {
    GLuint fbo, rb;
};

/* For a multisampled config c: resolves the current draw surface's w x h frame into a
 * framebuffer made for it and binds that as GL_READ_FRAMEBUFFER (the other bindings as found);
 * false, with nothing done, for a single-sampled one. glReadPixels from the multisampled
 * default framebuffer itself reads one sample. */
bool glmux_pixels_resolve_begin(const struct glmux_pixels_config *c, int w, int h,
                                struct glmux_pixels_resolve *r);
/* Deletes what resolve_begin made (call after rebinding the application's read framebuffer). */
void glmux_pixels_resolve_end(struct glmux_pixels_resolve *r);

/* ---- GLX_EXT_texture_from_pixmap (pixels_texture.c) ---- */

/* What glXBindTexImageEXT needs to know of a GLX pixmap (pixels_vendor.c). */
struct glmux_pixels_pixmap_texture {
    XID pixmap;             /* the X pixmap */
    int format, target;     /* GLX_TEXTURE_FORMAT_*_EXT, GLX_TEXTURE_*_EXT */
    bool current_draw;      /* it is the calling thread's draw drawable */
    bool context_current;   /* a context of this vendor is current on the calling thread */
};

/* False unless xid is one of our GLX pixmaps made with a texture format. */
bool glmux_pixels_pixmap_texture(Display *dpy, XID xid, struct glmux_pixels_pixmap_texture *out);
/* The calling thread's current draw drawable, or NULL. */
struct glmux_pixels_drawable *glmux_pixels_current_draw(void);
/* glXCreatePixmap's texture attributes: Success, or the X error GLX would raise. */
int glmux_pixels_texture_attribs(Display *dpy, XID pixmap, const int *attribs, int *format,
                                 int *target);
void glmux_pixels_BindTexImageEXT(Display *dpy, GLXDrawable drawable, int buffer,
                                  const int *attribs);
void glmux_pixels_ReleaseTexImageEXT(Display *dpy, GLXDrawable drawable, int buffer);
/* The vendor ABI: exports kept for the dispatch stubs of the two functions. */
void glmux_pixels_texture_init(const __GLXapiExports *exports);
void *glmux_pixels_texture_dispatch(const GLubyte *name);
void glmux_pixels_texture_set_index(const GLubyte *name, int index);

#endif /* GLMUX_GLX_PIXELS_H */
