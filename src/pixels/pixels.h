/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels GLX vendor, libGLX_glmux-pixels.so.0 (docs/remote.md). libGLX chooses it for
 * a screen on which no installed vendor can render directly (src/select/pixels_rule.c), or a
 * user names it (__GLX_VENDOR_LIBRARY_NAME=glmux-pixels, also under libglvnd). It renders with
 * an EGL vendor on the local machine (surfaceless platform, into EGL pbuffers) and, at
 * glXSwapBuffers (glFinish/glFlush for single-buffered drawables, glXWaitGL for pixmaps), reads
 * the frame back and sends it with ShmPutImage, or PutImage in pieces that fit the request
 * size. This header is shared by its files: pixels_egl.c (the EGL vendor), pixels_config.c
 * (FBConfigs and visuals), pixels_choose.c (glXChooseFBConfig and the other config functions),
 * pixels_vendor.c (the GLX vendor ABI: contexts, drawables, make-current), pixels_records.c (the
 * context and drawable records, their lock and claims), pixels_display.c (one record per X
 * display, holding the modules' parts), pixels_attribs.c (the
 * GLX extensions offered, context attributes in EGL's terms), pixels_swap.c
 * (glXSwapBuffers, glFinish and glFlush, swap intervals), pixels_present.c (a drawable's frame
 * transport), pixels_server.c (the transport's part of each display), pixels_resolve.c (the GL
 * side: read-back, resolve, pixmap upload), pixels_frame.c (what a drawable and a frame may be:
 * the checks of what the server answers), pixels_xlibs.c (libX11-xcb, libxcb-shm and
 * libxcb-present, dlopened) and pixels_texture.c (GLX_EXT_texture_from_pixmap). It uses public GLX
 * vendor ABI, EGL, GL and X11 calls only, and src/util (logging, the environment) and src/select
 * (the EGL vendor directory) linked statically: nothing of libGLX's.
 */
#ifndef GLMUX_GLX_PIXELS_H
#define GLMUX_GLX_PIXELS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/Xlib-xcb.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>
/* Present's requests and events are declared by <xcb/present.h> (Debian: libxcb-present-dev).
 * Whether the build has it is one CMake result (src/pixels/CMakeLists.txt), passed as
 * GLMUX_PIXELS_PRESENT=0/1 and looked for again at each build while it is 0, so that a tree
 * built before the header was installed gets Present at its next build. 0 (scripts/demo.sh's
 * short package list) leaves Present out, with the behaviour of a process where
 * libxcb-present.so.0 cannot be loaded (pixels_xlibs.c). */
#ifndef GLMUX_PIXELS_PRESENT
#error "GLMUX_PIXELS_PRESENT is set by src/pixels/CMakeLists.txt (0 or 1)"
#endif
#if GLMUX_PIXELS_PRESENT
#include <xcb/present.h>
#endif
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
 * read back as BGRA bytes; what differs is listed here. Configs live as long as their display
 * (a context and a drawable keep copies of their own).
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

/* Whether name is one of the space-separated words of list (an extension string). */
static inline bool glmux_pixels_has_word(const char *list, const char *name)
{
    size_t len = strlen(name);

    for (const char *p = list; p != NULL && (p = strstr(p, name)) != NULL; p += len) {
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return true;
    }
    return false;
}
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

/* ---- frames and the drawables that show them (pixels_frame.c) ---- */

/* The largest frame side (see also GLMUX_PIXELS_MAX_PIXELS): no frame is made for a larger
 * drawable (BadAlloc, glmux_pixels_xfer_size). */
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

/* The layout of a width x height frame; false unless glmux_pixels_size_allowed. */
bool glmux_pixels_layout(int width, int height, struct glmux_pixels_layout *out);
/* The bits per pixel the server stores depth in (the connection's pixmap formats); 0: none, or
 * a format with a scanline pad other than 8, 16 or 32. */
int glmux_pixels_format_bpp(Display *dpy, int depth);
/* Whether a drawable with this root and depth (the server's GetGeometry answer) can show frames
 * of config c, whose screen's root window is config_root. */
enum glmux_pixels_fit glmux_pixels_fit(Display *dpy, const struct glmux_pixels_config *c,
                                       Window config_root, Window root, int depth);
/* The rows of one PutImage request for frames of layout l when a request may have
 * max_request_words 4-byte words (the server's maximum, BIG-REQUESTS included); 0 when not
 * even one row fits. */
int glmux_pixels_band_rows(uint32_t max_request_words, const struct glmux_pixels_layout *l);
/* LSBFirst or MSBFirst: the byte order of this machine's 32-bit words. */
int glmux_pixels_host_order(void);

/* The most pixels a drawable's frame may have (256 MiB a buffer): two 8K screens side by side
 * fit; a server that answers more gets BadAlloc, not gigabytes (glmux_pixels_size_allowed). */
#define GLMUX_PIXELS_MAX_PIXELS (1u << 26)
/* Whether frames of a width x height drawable are made: both sides in 1..GLMUX_PIXELS_MAX_SIDE
 * and at most GLMUX_PIXELS_MAX_PIXELS pixels. */
bool glmux_pixels_size_allowed(int width, int height);

/* What a transport has heard of its drawable from the server (pixels_frame.c, apart from any
 * X call so that the fuzz target feeds it events, replies and errors). */
struct glmux_pixels_heard {
    uint32_t eid;           /* Present's event id of the window's events (0: none) */
    uint32_t window;        /* the window (or pixmap) */
    int width, height;      /* its size as last heard */
    bool sized_by_events;   /* Present's ConfigureNotify tells the size, not replies */
    bool gone;              /* an error named the drawable */
    bool shm_failed;        /* an MIT-SHM request failed: frames go out with PutImage */
    bool awaiting;          /* the PresentNotifyMSC tagged serial is not answered yet */
    uint32_t serial;        /* the last PresentNotifyMSC's tag (never 0 once one was sent) */
    uint64_t msc;           /* the retrace its CompleteNotify reported */
};

/* The checked requests a transport sends, by what their error means. */
enum glmux_pixels_request {
    GLMUX_PIXELS_REQ_PUT,        /* PutImage */
    GLMUX_PIXELS_REQ_SHM_PUT,    /* ShmPutImage */
    GLMUX_PIXELS_REQ_SHM_ATTACH, /* ShmAttach */
    GLMUX_PIXELS_REQ_DRAWABLE,   /* CreateGC, Present's SelectInput and NotifyMSC */
    GLMUX_PIXELS_REQ_SHM_DETACH, /* ShmDetach */
    GLMUX_PIXELS_REQ_KINDS
};

/* One of Present's events as libxcb hands it (xcb_poll_for_special_event: 32 bytes, the 4-byte
 * full sequence, then the 4 * length bytes past the first 32): ConfigureNotify sets the size,
 * the CompleteNotify of the PresentNotifyMSC awaited its retrace. One too short for its type,
 * about another window or event id, or unsolicited changes nothing. Returns whether it did. */
bool glmux_pixels_heard_event(struct glmux_pixels_heard *h, const void *ev);
/* A GetGeometry reply (NULL: an error or a connection that died, so the drawable is gone). */
void glmux_pixels_heard_geometry(struct glmux_pixels_heard *h, const xcb_get_geometry_reply_t *r);
/* The error of a checked request of kind req; true when it changed what the transport does
 * (the drawable is gone, or MIT-SHM is given up). MIT-SHM is given up only for an error that
 * says the server cannot use this process's segments: a failed ShmAttach (each segment stays
 * mapped here until the server has answered it, so no race of ours makes one fail) or a failed
 * ShmPutImage of a drawable that exists; a failed ShmDetach (a segment whose attach failed),
 * and any error once the drawable is gone, change nothing. */
bool glmux_pixels_heard_error(struct glmux_pixels_heard *h, enum glmux_pixels_request req,
                              const xcb_generic_error_t *e);

/* ---- drawables and presentation (pixels_present.c) ---- */

enum glmux_pixels_kind { GLMUX_PIXELS_WINDOW, GLMUX_PIXELS_PIXMAP, GLMUX_PIXELS_PBUFFER };

struct glmux_pixels_xfer;

struct glmux_pixels_drawable {
    struct glmux_pixels_drawable *next;
    Display *dpy;
    XID xid;                /* the GLX drawable (an X window used directly, or our own XID) */
    XID target;             /* the X window or pixmap we put pixels into; None for pbuffers */
    enum glmux_pixels_kind kind;
    /* config points at own_config, surface_config at own_surface_config: copies the drawable
     * owns, so that no pointer outlives the context or display it was taken from (a window
     * used directly takes its config from the context that first made it current, and its
     * surface's from the context current with it; both may be destroyed before it). */
    struct glmux_pixels_config *config;
    struct glmux_pixels_config own_config;
    EGLSurface surface;
    const struct glmux_pixels_config *surface_config; /* the config surface was made for */
    struct glmux_pixels_config own_surface_config;
    int width, height;      /* the surface's */
    int current;            /* references (the vendor's lock): threads that have it current
                               (draw or read), are making it current, or present it */
    bool destroyed;         /* glXDestroy* ran while current: freed at release */
    pthread_t owner;        /* the thread that claimed it (glmux_pixels_drawable_claim) */
    int claims;             /* its claims: the surface and transport fields, and the X and EGL
                               calls that change or show them, belong to the claiming thread */
    bool swap_pending;      /* glXSwapBuffers from another thread: the owner presents it */
    bool filled;            /* a pixmap's surface holds the X pixmap's contents */
    int swap_interval;      /* GLX_EXT_swap_control (0: frames are not paced) */
    struct glmux_pixels_xfer *xfer; /* its frame transport (windows and pixmaps) */
    unsigned long event_mask;
    int tex_format, tex_target;   /* GLX_EXT_texture_from_pixmap: pixmaps only (0: none) */
};

/* Frames sent so far (GLMUX_DEBUG=info prints them at XCloseDisplay; the bench reads them). */
struct glmux_pixels_stats {
    unsigned long long frames, bytes, shm_frames, paced_frames;
};

/* The functions below that change or show a drawable (its surface, its transport) are called
 * with the drawable claimed (glmux_pixels_drawable_claim), or before it is linked, or while it
 * is disposed of. */
/* Makes sure drawable has an EGL surface of its current size for config (its EGL config and
 * colour space); false on error. */
bool glmux_pixels_surface_update(struct glmux_pixels_drawable *d,
                                 const struct glmux_pixels_config *config);
/*
 * The transport of an X window or pixmap (target) for frames of config: asks the server once
 * (GetGeometry) whether it fits (glmux_pixels_fit) and selects Present's events of a window.
 * NULL with *fit saying why (GLMUX_PIXELS_GONE also when out of memory) and why[why_size]
 * saying it in words (what the server answered, or the depths and screens that differ).
 */
struct glmux_pixels_xfer *glmux_pixels_xfer_new(Display *dpy,
                                                const struct glmux_pixels_config *config,
                                                XID target, bool window,
                                                enum glmux_pixels_fit *fit, char *why,
                                                size_t why_size);
/* Frees a transport: its buffers, GC, Present selection and the replies still awaited. */
void glmux_pixels_xfer_free(struct glmux_pixels_xfer *x);
/* Links x (NULL: nothing) in front of *list, to be freed by glmux_pixels_xfer_free_chain once
 * a lock is dropped. */
void glmux_pixels_xfer_chain(struct glmux_pixels_xfer *x, struct glmux_pixels_xfer **list);
void glmux_pixels_xfer_free_chain(struct glmux_pixels_xfer *list);
/* The drawable's size as last heard (events and replies taken in without waiting). A size
 * above glmux_pixels_size_allowed is reported once (BadAlloc, and logged) and not used: the
 * last allowed size (1 x 1 before any) is returned instead. */
void glmux_pixels_xfer_size(struct glmux_pixels_xfer *x, int *width, int *height);
/* A frame of the window begins (the first glClear since it was last shown): true the first time
 * since then. Its size is brought up to date first: from Present's events, or, without Present,
 * a GetGeometry waited for (one round trip a frame, which is also the frame's fence), so that
 * the frame after a resize is drawn at the new size. */
bool glmux_pixels_xfer_frame_start(struct glmux_pixels_xfer *x);
/* Whether the X drawable is gone (an error named it). */
bool glmux_pixels_xfer_gone(const struct glmux_pixels_xfer *x);
/* Whether frames of this drawable can be paced (a window on a server with Present). */
bool glmux_pixels_xfer_paced(const struct glmux_pixels_xfer *x);
/* Reads the current draw surface (d's) back and puts it into d's X drawable, paced to every
 * interval-th retrace when interval > 0 and Present can; false when nothing was sent. */
bool glmux_pixels_present(struct glmux_pixels_drawable *d, int interval);
void glmux_pixels_stats_get(struct glmux_pixels_stats *out);

/* ---- the X libraries beyond libX11 (pixels_xlibs.c) ---- */

/* Each group is usable when its flag is set (every function found). */
struct glmux_pixels_xlibs {
    bool xcb;               /* libX11-xcb and libxcb */
    __typeof__(&XGetXCBConnection) GetXCBConnection;
    __typeof__(&xcb_generate_id) generate_id;
    __typeof__(&xcb_flush) flush;
    __typeof__(&xcb_connection_has_error) connection_has_error;
    __typeof__(&xcb_get_file_descriptor) get_file_descriptor;
    __typeof__(&xcb_get_maximum_request_length) get_maximum_request_length;
    __typeof__(&xcb_poll_for_reply) poll_for_reply;
    __typeof__(&xcb_discard_reply) discard_reply;
    __typeof__(&xcb_get_extension_data) get_extension_data;
    __typeof__(&xcb_register_for_special_xge) register_for_special_xge;
    __typeof__(&xcb_unregister_for_special_event) unregister_for_special_event;
    __typeof__(&xcb_poll_for_special_event) poll_for_special_event;
    __typeof__(&xcb_get_geometry) get_geometry;
    __typeof__(&xcb_get_image) get_image;
    __typeof__(&xcb_create_gc_checked) create_gc_checked;
    __typeof__(&xcb_free_gc_checked) free_gc_checked;
    __typeof__(&xcb_put_image_checked) put_image_checked;
    bool shm;               /* libxcb-shm (and xcb) */
    xcb_extension_t *shm_id;
    __typeof__(&xcb_shm_query_version) shm_query_version;
    __typeof__(&xcb_shm_attach_checked) shm_attach_checked;
    __typeof__(&xcb_shm_detach_checked) shm_detach_checked;
    __typeof__(&xcb_shm_put_image_checked) shm_put_image_checked;
    bool present;           /* libxcb-present (and xcb); never in a build without Present */
#if GLMUX_PIXELS_PRESENT
    xcb_extension_t *present_id;
    __typeof__(&xcb_present_query_version) present_query_version;
    __typeof__(&xcb_present_select_input_checked) present_select_input_checked;
    __typeof__(&xcb_present_notify_msc_checked) present_notify_msc_checked;
#endif
};

/* Loaded on first use (dlopen, pthread_once); never NULL. */
const struct glmux_pixels_xlibs *glmux_pixels_xlibs(void);

/* ---- the display's side of the frame transport (pixels_server.c) ---- */

/* What we know of one X display (its record's present part, pixels_display.c and
 * pixels_server.c). Written before the record is listed, then read only: all but the MIT-SHM
 * state (shm_lock). */
struct present_display {
    Display *dpy;
    xcb_connection_t *xcb;
    int glx_opcode;         /* 0: no GLX extension (the major code of the errors we report) */
    int glx_error;          /* the GLX extension's first error code */
    bool present;           /* Present 1.0 or later, and libxcb-present */
    int order;              /* the server's image byte order */
    int shm_state;          /* 0 untested, 1 works, -1 does not (shm_lock) */
    bool shm_testing;       /* a thread is testing it; the others put meanwhile (shm_lock) */
};

/* A frame buffer of a transport: an MIT-SHM segment, or plain memory. */
struct glmux_pixels_buffer {
    char *data;             /* the frame's pixels (l.size bytes); NULL: none */
    int shmid;
    xcb_shm_seg_t seg;      /* 0: plain memory */
    unsigned int attach;    /* the sequence number of its ShmAttach (checked) */
    unsigned int fence;     /* the GetGeometry sent after its last put (0: none pending) */
};

/* The window or pixmap's size (one round trip); false when it is gone (the error is ours). */
bool glmux_pixels_geometry(Display *dpy, XID target, int *w, int *h, int *depth);
/* The X pixmap's w x h contents (its depth must be 24 or 32, in 32 bits a pixel) as an XImage of
 * 32-bit B, G, R, A bytes, opaque where it has no alpha (XDestroyImage it); NULL when it cannot
 * be read (the error is ours). One round trip. */
XImage *glmux_pixels_pixmap_bgra(Display *dpy, Pixmap pixmap, int w, int h);
/* Reports an X error to the application's error handler, as the server would for a GLX request:
 * the GLX error glx_code (>= 0) when the server has the GLX extension, else the core error code;
 * major code the server's GLX extension, minor code glx_minor (on any server, so a handler can
 * tell the GLX call). On a server without GLX no request of the vendor's failed: the major code
 * is core_request, the core request whose answer told the vendor (X_GetGeometry: whether the
 * drawable exists, its root, depth and size), or X_NoOperation when none did (a GLX drawable
 * the vendor does not know, a bad value), so that Xlib's default handler names a request that
 * exists. What happened (fmt...) is logged: at level info for a drawable that does not exist
 * (BadWindow, BadPixmap, BadDrawable), else at level warn (the first 16 of a process). */
void glmux_pixels_x_error(Display *dpy, unsigned char code, int glx_code, XID resource,
                          int glx_minor, int core_request, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* The name of a core X error code ("BadWindow"), or "an extension's error". */
const char *glmux_pixels_error_name(int code);
/* The transport's part of dpy's record (made on first use: X requests, no lock held); NULL
 * without libX11-xcb, or when out of memory. */
struct present_display *glmux_pixels_present_of(Display *dpy);
/* The reply (or error, *err when err is not NULL) to request seq on c, waited for without
 * entering xcb's queue of waiting readers (pixels_server.c); NULL when there is none. */
void *glmux_pixels_reply_wait(const struct glmux_pixels_xlibs *xl, xcb_connection_t *c,
                              unsigned int seq, xcb_generic_error_t **err);
/* GetGeometry of target, answered now; NULL when it is gone (the error is ours), with the X
 * error code in *error (when error is not NULL; 0: no answer, the connection died). */
xcb_get_geometry_reply_t *glmux_pixels_geometry_now(struct present_display *pd, XID target,
                                                    int *error);
/* A private MIT-SHM segment of size bytes attached here, into *b, and ShmAttach sent (checked:
 * its sequence in *attach, for the caller to hear); false (nothing kept) when it cannot be
 * made. It is marked for removal before the server has it where the system allows (Linux), so
 * that no process killed meanwhile leaves it behind. */
bool glmux_pixels_shm_segment(const struct glmux_pixels_xlibs *xl, xcb_connection_t *c,
                              size_t size, struct glmux_pixels_buffer *b, unsigned int *attach);
/* Whether the server can attach our shared memory (tested once per display). */
bool glmux_pixels_shm_works(struct present_display *pd);
/* An MIT-SHM request of the display failed in a way that says MIT-SHM cannot work here:
 * transports made from now on use PutImage. Whether the display had not given it up before. */
bool glmux_pixels_shm_failed(struct present_display *pd);

/* ---- the vendor (pixels_vendor.c) ---- */

struct glmux_pixels_context {
    struct glmux_pixels_context *next;
    EGLContext egl;
    /* own_config, a copy of its FBConfig: the display's configs go when it closes, and a
     * context may outlive it (made current on another connection, queried, destroyed). NULL
     * for a context made without one (GLX_EXT_no_config_context): a drawable's own config
     * makes its surface. */
    struct glmux_pixels_config *config;
    struct glmux_pixels_config own_config;
    int screen;
    EGLenum api;            /* EGL_OPENGL_API, or EGL_OPENGL_ES_API (an ES profile) */
    bool release_none;      /* GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB: no flush when released */
    int current;            /* threads that have it current */
    bool destroyed;
};

/* ---- what contexts can be asked for (pixels_attribs.c) ---- */

/* The GLX extension string the vendor offers: a fixed list, and those the EGL vendor backs. */
const char *glmux_pixels_extensions(void);
/* Which of those the EGL vendor backs: */
enum {
    GLMUX_PIXELS_HAS_FLUSH_CONTROL = 1u << 0, /* GLX_ARB_context_flush_control */
    GLMUX_PIXELS_HAS_NO_ERROR = 1u << 1,      /* GLX_ARB_create_context_no_error */
    GLMUX_PIXELS_HAS_ES = 1u << 2,            /* GLX_EXT_create_context_es(2)_profile */
    GLMUX_PIXELS_HAS_NO_CONFIG = 1u << 3,     /* GLX_EXT_no_config_context */
};
unsigned glmux_pixels_extensions_backed(void);

/* glXCreateContextAttribsARB's attributes in eglCreateContext's terms. */
struct glmux_pixels_context_request {
    EGLint attribs[16];     /* EGL_NONE-terminated */
    EGLenum api;            /* bound with eglBindAPI around the context's EGL calls */
    bool release_none;      /* GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB */
    int screen;             /* GLX_SCREEN (GLX_EXT_no_config_context), or -1 */
};
/* False (logged) for an attribute, value or profile the vendor cannot honour. */
bool glmux_pixels_context_request(const int *attribs, struct glmux_pixels_context_request *out);

/* A thread's current context and drawables (NULL: none). */
struct glmux_pixels_current {
    struct glmux_pixels_context *ctx;
    struct glmux_pixels_drawable *draw, *read;
};

/* ---- the context and drawable records (pixels_records.c) ---- */

/* The lock over the vendor's context and drawable lists, their counts and the drawables'
 * claims; never held across an X, EGL or GL call. */
void glmux_pixels_lock(void);
void glmux_pixels_unlock(void);
/* The context with handle ctx (lock held), or NULL; also when it was destroyed. */
struct glmux_pixels_context *glmux_pixels_context_find(GLXContext ctx);
/* Lists a context made with no lock held (lock held). */
void glmux_pixels_context_link(struct glmux_pixels_context *c);
/* Takes c off the list, to be freed by glmux_pixels_free_released (lock held). */
void glmux_pixels_context_queue_free(struct glmux_pixels_context *c);
/* Drops a reference on c (NULL is fine; lock held); a context destroyed meanwhile goes with the
 * last one. */
void glmux_pixels_context_release(struct glmux_pixels_context *c);
/* Whether no context of the vendor is current, or being made current, anywhere. */
bool glmux_pixels_contexts_idle(void);
/* The drawable of dpy with GLX XID xid (lock held), or NULL. */
struct glmux_pixels_drawable *glmux_pixels_drawable_find(Display *dpy, XID xid);
/* Before the first record of dpy's drawables is made (no lock held): dpy's close will forget
 * them (the records part of its record, pixels_display.c); false when out of memory. */
bool glmux_pixels_drawables_watch(Display *dpy);
/* A record not yet listed (no lock needed): its creator fills it in, then lists it with
 * glmux_pixels_drawable_link. NULL when out of memory. */
struct glmux_pixels_drawable *glmux_pixels_drawable_new(Display *dpy, XID xid, XID target,
                                                        enum glmux_pixels_kind kind,
                                                        const struct glmux_pixels_config *config);
/* Lists d (lock held). */
void glmux_pixels_drawable_link(struct glmux_pixels_drawable *d);
/* Takes d off the list, to be freed by glmux_pixels_free_released (lock held). */
void glmux_pixels_drawable_queue_free(struct glmux_pixels_drawable *d);
/* Drops a reference (d->current) taken under the lock; a drawable destroyed meanwhile and now
 * unused is set aside (lock held), to be freed by glmux_pixels_free_released (no lock held),
 * which frees contexts set aside too. */
void glmux_pixels_drawable_release(struct glmux_pixels_drawable *d);
void glmux_pixels_free_released(void);
/* Frees the records of dpy's windows and pixmaps that are current nowhere and whose X drawable
 * is gone (XDestroyWindow, XFreePixmap: asked with one GetGeometry each, one round trip in
 * all), and of X windows used directly and current nowhere beyond the few used last. No lock
 * held; called when a record is made and when a context is destroyed. */
void glmux_pixels_drawables_sweep(Display *dpy);
/*
 * Claims referenced drawables for the calling thread (NULL or the same one twice is fine): their
 * surface and transport fields, and the X and EGL calls that change or show them, are then this
 * thread's until glmux_pixels_drawable_unclaim. Waits while another thread holds one (it makes
 * no call back into this vendor meanwhile); re-entrant in one thread; two are claimed in address
 * order, so two threads claiming the same pair never wait for each other. No lock held.
 */
void glmux_pixels_drawable_claim(struct glmux_pixels_drawable *a, struct glmux_pixels_drawable *b);
void glmux_pixels_drawable_unclaim(struct glmux_pixels_drawable *a,
                                   struct glmux_pixels_drawable *b);
/* The same for one drawable, the lock held (it is released while waiting). */
void glmux_pixels_drawable_claim_locked(struct glmux_pixels_drawable *d);
/* The calling thread's current context and drawables. */
void glmux_pixels_current_get(struct glmux_pixels_current *out);

/* ---- swaps and swap intervals (pixels_swap.c) ---- */

/* glXSwapBuffers, glXWaitGL, glXWaitX, glFinish, glFlush and the swap-control functions by
 * name, NULL for the others. */
void *glmux_pixels_swap_proc(const char *name);
/* The dispatch stubs of the swap-control functions (the vendor ABI's getDispatchAddress and
 * setDispatchIndex). */
void *glmux_pixels_swap_dispatch(const GLubyte *name);
void glmux_pixels_swap_set_index(const GLubyte *name, int index);
/* glXQueryDrawable's GLX_SWAP_INTERVAL_EXT and GLX_MAX_SWAP_INTERVAL_EXT; false for others. */
bool glmux_pixels_swap_query(const struct glmux_pixels_drawable *d, int attrib,
                             unsigned int *value);
/* GLX's implicit flush (glFinish, glFlush, glXMakeCurrent away): shows a single-buffered window
 * or a pixmap current on this thread, and a swap another thread asked for. */
void glmux_pixels_flush_current(void);

/* ---- one record per X display (pixels_display.c) ---- */

/* The modules' parts of a display's record, in the order they are closed and freed. */
enum glmux_pixels_part {
    GLMUX_PIXELS_PART_RECORDS,  /* pixels_records.c: the display's drawables (closed first) */
    GLMUX_PIXELS_PART_CONFIGS,  /* pixels_config.c: FB configs and visuals (configs_lock) */
    GLMUX_PIXELS_PART_SERVER,   /* pixels_server.c: struct present_display */
    GLMUX_PIXELS_PARTS
};

/* What a part's module gives with it. */
struct glmux_pixels_part_ops {
    /* Makes the part: no lock held, X requests allowed; NULL when there can be none. */
    void *(*make)(Display *dpy);
    /* XCloseDisplay (the connection still open), before any part is freed; NULL: nothing. */
    void (*closed)(Display *dpy, void *part);
    /* Frees the part, with no Xlib call (display closed, or the vendor unloaded); NULL: nothing.
     * Also a part made by a thread that was not the first. */
    void (*free)(void *part);
};

/* dpy's part which, made by ops->make on first use (and the display's record with it: X
 * requests; the caller holds none of the vendor's locks); NULL when there is none. It lives
 * until the display is closed. */
void *glmux_pixels_display_part(Display *dpy, enum glmux_pixels_part which,
                                const struct glmux_pixels_part_ops *ops);
/* dpy's part which if it was made; makes nothing. */
void *glmux_pixels_display_part_find(Display *dpy, enum glmux_pixels_part which);

/* ---- what pixels_vendor.c's destructor calls, and the fork steps ---- */

/* libGLX_glmux-pixels.so.0 unloads (or the process exits): the close hook on every display
 * removed; the records freed too when free_records (no context of the vendor is current). */
void glmux_pixels_display_fini(bool free_records);
/* Each module with a lock declares its own fork step in its own file (util/lifecycle.h), run by
 * pixels_vendor.c's pthread_atfork handlers: before fork() its lock is taken on the forking
 * thread, released after in the parent and the child. The order, which is the order the locks
 * are taken in (each is a leaf: never held while another is taken): */
enum {
    GLMUX_PIXELS_ORDER_RECORDS = 10,  /* pixels_records.c: lock, claim_done */
    GLMUX_PIXELS_ORDER_DISPLAYS = 20, /* pixels_display.c: displays_lock */
    GLMUX_PIXELS_ORDER_CONFIGS = 30,  /* pixels_config.c: configs_lock */
    GLMUX_PIXELS_ORDER_SERVER = 40,   /* pixels_server.c: shm_lock */
    GLMUX_PIXELS_ORDER_SWAP = 50,     /* pixels_swap.c: swap_lock, own_free */
};

/* ---- the GL side of frames (pixels_resolve.c) ---- */

struct glmux_pixels_resolve {
    GLuint fbo[2], rb[2];   /* the resolved frame, the flipped frame */
};

/* Reads the current draw surface's frame (l's size, a surface of config c) into dst (l->size
 * bytes): 32-bit 0xAARRGGBB pixels in byte order (LSBFirst, MSBFirst: the X server's image byte
 * order), top row first. GL state left as found. */
void glmux_pixels_read_back(const struct glmux_pixels_config *c,
                            const struct glmux_pixels_layout *l, int order, char *dst);
/* For a multisampled config c, resolves the current draw surface's w x h frame into a
 * renderbuffer made for it; with flip, copies it (or the unresolved frame) with its rows
 * swapped into another; binds the last as GL_READ_FRAMEBUFFER (the other bindings as found).
 * False, with nothing done, when there is neither to do or no framebuffer objects. */
bool glmux_pixels_resolve_begin(const struct glmux_pixels_config *c, int w, int h, bool flip,
                                struct glmux_pixels_resolve *r);
/* Deletes what resolve_begin made (call after rebinding the application's read framebuffer). */
void glmux_pixels_resolve_end(struct glmux_pixels_resolve *r);
/* Draws img (32-bit B, G, R, A bytes, row 0 the top) into the current draw surface's default
 * framebuffer: a GLX pixmap's X contents. GL state left as found. */
void glmux_pixels_upload(const XImage *img);

/* The unpack state an upload sets (alignment 4, row_length pixels a row, no skips, no byte
 * swapping, no unpack buffer) and puts back. */
struct glmux_pixels_unpack {
    GLint alignment, row_length, skip_rows, skip_pixels, swap_bytes, buffer;
};
void glmux_pixels_unpack_set(const struct glmux_pixels_gl *gl, struct glmux_pixels_unpack *saved,
                             int row_length);
void glmux_pixels_unpack_restore(const struct glmux_pixels_gl *gl,
                                 const struct glmux_pixels_unpack *saved);

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
/* The function at dispatch index *index of the vendor libGLX has for drawable (for the calling
 * thread's current context when drawable is None); NULL when there is none yet. */
void *glmux_pixels_dispatch_fetch(Display *dpy, GLXDrawable drawable, const int *index);
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
