/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: what the files of libEGL.so.1 share. A vendor is a __EGLvendorInfo record
 * (the ABI's opaque type, defined here); displays and devices map to vendors through
 * pointer maps; each thread keeps its error, last vendor, bound API and label in TLS, and
 * its current context in a record that embeds libGLdispatch's thread state.
 *
 * Naming: exported functions keep the Khronos names; functions that cross files here are
 * glmux_egl_<verb>; the 54 functions libEGL implements itself have fixed winsys indices
 * GLMUX_EGL_IDX_<Name> (sorted names, as libglvnd numbers them).
 */
#ifndef GLMUX_EGL_INTERNAL_H
#define GLMUX_EGL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "GLdispatch.h"
#include "egl/egl_shared.h"
#include "glvnd/libeglabi.h"
#include "winsys/winsys.h"

#define GLMUX_EGL_EXPORT __attribute__((visibility("default")))

/* The 54 functions libEGL implements, sorted by name: their winsys indices are 0..53. */
#define GLMUX_EGL_FUNCS(X) \
    X(BindAPI) \
    X(BindTexImage) \
    X(ChooseConfig) \
    X(ClientWaitSync) \
    X(CopyBuffers) \
    X(CreateContext) \
    X(CreateImage) \
    X(CreatePbufferFromClientBuffer) \
    X(CreatePbufferSurface) \
    X(CreatePixmapSurface) \
    X(CreatePlatformPixmapSurface) \
    X(CreatePlatformPixmapSurfaceEXT) \
    X(CreatePlatformWindowSurface) \
    X(CreatePlatformWindowSurfaceEXT) \
    X(CreateSync) \
    X(CreateWindowSurface) \
    X(DebugMessageControlKHR) \
    X(DestroyContext) \
    X(DestroyImage) \
    X(DestroySurface) \
    X(DestroySync) \
    X(GetConfigAttrib) \
    X(GetConfigs) \
    X(GetCurrentContext) \
    X(GetCurrentDisplay) \
    X(GetCurrentSurface) \
    X(GetDisplay) \
    X(GetError) \
    X(GetPlatformDisplay) \
    X(GetPlatformDisplayEXT) \
    X(GetProcAddress) \
    X(GetSyncAttrib) \
    X(Initialize) \
    X(LabelObjectKHR) \
    X(MakeCurrent) \
    X(QueryAPI) \
    X(QueryContext) \
    X(QueryDebugKHR) \
    X(QueryDevicesEXT) \
    X(QueryDisplayAttribEXT) \
    X(QueryDisplayAttribKHR) \
    X(QueryDisplayAttribNV) \
    X(QueryString) \
    X(QuerySurface) \
    X(ReleaseTexImage) \
    X(ReleaseThread) \
    X(SurfaceAttrib) \
    X(SwapBuffers) \
    X(SwapInterval) \
    X(Terminate) \
    X(WaitClient) \
    X(WaitGL) \
    X(WaitNative) \
    X(WaitSync)

enum glmux_egl_idx {
#define GLMUX_EGL_IDX_ENUM(name) GLMUX_EGL_IDX_##name,
    GLMUX_EGL_FUNCS(GLMUX_EGL_IDX_ENUM)
#undef GLMUX_EGL_IDX_ENUM
    GLMUX_EGL_IDX_COUNT
};

/* One loaded vendor library. */
struct __EGLvendorInfoRec {
    struct __EGLvendorInfoRec *next;   /* load order = priority order */
    char *library;                     /* what was passed to dlopen */
    char *manifest;                    /* the JSON file that named it */
    void *handle;
    int vendor_id;                     /* libGLdispatch vendor id */
    size_t select_index;               /* its entry in discovery.c's vendor list */
    __EGLapiImports imports;
    /* The vendor's own implementation of each of libEGL's functions (NULL if none). */
    void (*fn[GLMUX_EGL_IDX_COUNT])(void);
    /* eglQueryDisplayAttrib under its KHR, EXT or NV name, whichever the vendor has. */
    PFNEGLQUERYDISPLAYATTRIBKHRPROC query_display_attrib;
    __GLdispatchTable *gl_table;
    __GLdispatchPatchCallbacks patch_cb;
    bool patch_supported;
    bool supports_gl, supports_gles;
    bool supports_device, supports_platform_device;
    bool supports_gbm, supports_wayland, supports_x11;
    /* Implementations of winsys indices past the static ones, looked up on demand. */
    pthread_mutex_t dyn_lock;
    struct glmux_lookup_cache dyn;     /* indexed by index - GLMUX_EGL_IDX_COUNT */
};

typedef struct __EGLvendorInfoRec glmux_egl_vendor;

/* The thread's current EGL context; the first member is libGLdispatch's record. */
struct glmux_egl_current {
    __GLdispatchThreadState base;
    glmux_egl_vendor *vendor;
    EGLDisplay display;
    EGLSurface draw, read;
    EGLContext context;
};

/* Per-thread API state (a record under a pthread key, state.c). */
struct glmux_egl_tls {
    EGLint error;
    glmux_egl_vendor *last_vendor;
    EGLenum api;
    EGLLabelKHR label;
};

/* ---- state.c: exports table, thread state, entry-point prologue, fork, unload ---- */
extern const __EGLapiExports glmux_egl_exports;
/* The thread's state (NULL only while libEGL is unusable). */
struct glmux_egl_tls *glmux_egl_tls(void);
struct glmux_egl_tls *glmux_egl_tls_peek(void);
/* error := EGL_SUCCESS, last_vendor := NULL (what the entry prologue does). */
void glmux_egl_tls_clear(struct glmux_egl_tls *t);
/* Puts the thread's state back to its defaults (eglReleaseThread). */
void glmux_egl_tls_free(void);
/* Every exported function starts here: fork check, patch thread hook, error := SUCCESS. */
void glmux_egl_entry(void);
/* The prologue without clearing the error (eglGetError; eglMakeCurrent, whose every way out
 * sets the error or the last vendor, or calls glmux_egl_tls_reset). */
void glmux_egl_thread_init(void);
/* The rest of the prologue: error := SUCCESS, last vendor := NULL, if the record holds either. */
void glmux_egl_tls_reset(void);
void glmux_egl_set_error(EGLint error);
bool glmux_egl_set_last_vendor(glmux_egl_vendor *vendor);
/* The calling thread's current EGL context record, or NULL. */
struct glmux_egl_current *glmux_egl_current_get(void);
/* True when libEGL initialised libGLdispatch and may be used. */
bool glmux_egl_usable(void);

/* ---- debug.c: EGL_KHR_debug and the error-report path ---- */
/*
 * Records error (for CRITICAL and ERROR types), calls the application's debug callback if
 * that message type is enabled, and logs the message under GLMUX_DEBUG=info.
 */
void glmux_egl_report(EGLint error, const char *command, EGLint type, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define glmux_egl_error(err, cmd, ...) \
    glmux_egl_report((err), (cmd), EGL_DEBUG_MSG_ERROR_KHR, __VA_ARGS__)
/* The same with the thread's label as the object label (libglvnd's thread-scoped errors). */
void glmux_egl_report_thread(EGLint error, const char *command, EGLint type, const char *fmt,
                             ...) __attribute__((format(printf, 4, 5)));
#define glmux_egl_error_thread(err, cmd, ...) \
    glmux_egl_report_thread((err), (cmd), EGL_DEBUG_MSG_ERROR_KHR, __VA_ARGS__)
/* The same with dpy's label (eglLabelObjectKHR) as the object label: display-scoped errors. */
void glmux_egl_report_display(EGLDisplay dpy, EGLint error, const char *command, EGLint type,
                              const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define glmux_egl_error_display(dpy, err, cmd, ...) \
    glmux_egl_report_display((dpy), (err), (cmd), EGL_DEBUG_MSG_ERROR_KHR, __VA_ARGS__)
/* Forgets the display labels (unload). */
void glmux_egl_debug_teardown(void);

/* ---- discovery.c: the ordered vendor list ---- */
/* Loads every vendor once (thread-safe) and returns the first; NULL when there are none. */
glmux_egl_vendor *glmux_egl_vendors(void);
/*
 * The loaded vendors in the order to ask them for one display, as
 * glmux_select_egl_display_order decides (the display's GPU, asked of an X11 or Wayland server
 * when that can change the order, is the reference); the load order when the display's GPU is
 * unknown or cannot matter, or with fewer than two vendors. out holds max entries; returns the
 * count.
 */
size_t glmux_egl_display_vendors(EGLenum platform, void *native, glmux_egl_vendor **out,
                                 size_t max);
/* The vendors if they are already loaded, without loading them. */
glmux_egl_vendor *glmux_egl_vendors_loaded(void);
/* What libEGL offers the pixels GLX vendor (egl_shared.h), through eglGetProcAddress. */
size_t glmux_egl_shared_vendors(EGLenum platform, struct glmux_egl_shared_vendor *out,
                                size_t max);
/*
 * Frees every vendor (unload). A GL dispatch table still current on another thread is freed
 * by libGLdispatch when that thread lets go of it.
 */
void glmux_egl_vendors_teardown(void);

/* ---- vendor.c: one vendor ---- */
/* dlopens library and runs __egl_Main; NULL (with a GLMUX_DEBUG=vendor reason) on failure. */
glmux_egl_vendor *glmux_egl_vendor_load(const char *library, const char *manifest,
                                        glmux_egl_vendor *loaded);
void glmux_egl_vendor_free(glmux_egl_vendor *vendor);
/* The vendor's implementation for a winsys index (exports.fetchDispatchEntry). */
void (*glmux_egl_vendor_fetch(glmux_egl_vendor *vendor, int index))(void);

/* ---- maps.c: display→vendor and device→vendor, winsys names ---- */
glmux_egl_vendor *glmux_egl_display_vendor(EGLDisplay dpy);
/* Records dpy for vendor; false when it belongs to another vendor or on allocation failure. */
bool glmux_egl_display_add(EGLDisplay dpy, glmux_egl_vendor *vendor);
glmux_egl_vendor *glmux_egl_device_vendor(EGLDeviceEXT dev);
bool glmux_egl_device_set(EGLDeviceEXT dev, glmux_egl_vendor *vendor);
/* Winsys dispatch indices: libEGL's 54 names, then names that vendors' stubs added. */
int glmux_egl_winsys_find(const char *name);
/* The index of name, adding it if new (with stub, the vendor stub handed out); -1 on OOM. */
int glmux_egl_winsys_add(const char *name, void *stub);
/* The vendor stub recorded for an index, or NULL. */
void *glmux_egl_winsys_stub(int index);
/* The name of an index (stable pointer), or NULL. */
const char *glmux_egl_winsys_name(int index);
int glmux_egl_winsys_count(void);
/* The maps' locks and winsys_lock around fork() (util/lock.h's steps). */
void glmux_egl_maps_fork(enum glmux_fork_step step);
void glmux_egl_maps_teardown(void);

/* ---- platform.c: eglGetDisplay and eglGetPlatformDisplay ---- */
EGLDisplay glmux_egl_get_platform_display(EGLenum platform, void *native,
                                          const EGLAttrib *attribs, const char *command);
EGLenum glmux_egl_guess_platform(void *native);
EGLenum glmux_egl_platform_from_env(void);

/* ---- display.c / current.c: functions reached through eglGetProcAddress only ---- */
EGLDisplay glmux_egl_GetPlatformDisplayEXT(EGLenum platform, void *native, const EGLint *attribs);
EGLSurface glmux_egl_CreatePlatformWindowSurfaceEXT(EGLDisplay dpy, EGLConfig config,
                                                    void *win, const EGLint *attribs);
EGLSurface glmux_egl_CreatePlatformPixmapSurfaceEXT(EGLDisplay dpy, EGLConfig config,
                                                    void *pixmap, const EGLint *attribs);
EGLBoolean glmux_egl_QueryDevicesEXT(EGLint max, EGLDeviceEXT *devices, EGLint *num);
EGLBoolean glmux_egl_QueryDisplayAttribKHR(EGLDisplay dpy, EGLint name, EGLAttrib *value);
EGLBoolean glmux_egl_QueryDisplayAttribEXT(EGLDisplay dpy, EGLint name, EGLAttrib *value);
EGLBoolean glmux_egl_QueryDisplayAttribNV(EGLDisplay dpy, EGLint name, EGLAttrib *value);
EGLint glmux_egl_DebugMessageControlKHR(EGLDEBUGPROCKHR callback, const EGLAttrib *attribs);
EGLBoolean glmux_egl_QueryDebugKHR(EGLint attribute, EGLAttrib *value);
EGLint glmux_egl_LabelObjectKHR(EGLDisplay dpy, EGLenum type, EGLObjectKHR obj,
                                EGLLabelKHR label);
/* Releases the thread's current context without asking the vendor (unload). */
void glmux_egl_current_drop(void);
/* Frees a record whose thread exited or that a forked child inherited (record_destroyed). */
void glmux_egl_current_destroyed(__GLdispatchThreadState *state);
/* Frees the cached client extension string (unload). */
void glmux_egl_strings_teardown(void);
/* Each file's lock around fork() (util/lock.h's steps; state.c's fork handlers call them). */
void glmux_egl_strings_fork(enum glmux_fork_step step);
void glmux_egl_debug_fork(enum glmux_fork_step step);

#endif /* GLMUX_EGL_INTERNAL_H */
