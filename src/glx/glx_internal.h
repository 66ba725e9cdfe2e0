/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX.so.0's internal interface between its files. libGLX routes every GLX call to
 * the vendor library that serves the screen, context, FBConfig or drawable it names, loads
 * vendors through the GLX vendor ABI 1.0 (glvnd/libglxabi.h), and makes their GL dispatch
 * tables current through libGLdispatch.
 *
 * Naming: exported functions keep their Khronos names; everything shared between files is
 * glmux_glx_<verb>. Locking contract: glx_lock.h (and docs/architecture.md, "Locking");
 * *_locked functions and those documented "lock held" assert the lock they name in debug
 * builds.
 */
#ifndef GLMUX_GLX_INTERNAL_H
#define GLMUX_GLX_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include <X11/Xlib.h>
#include <GL/glx.h>

#include "GLdispatch.h"
#include "select/pixels_rule.h"
#include "select/select.h"
#include "glvnd/libglxabi.h"
#include "glmux_constants.h"
#include "glx/glx_core_table.h"
#include "glx/glx_lock.h"
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

/* GLX functions libGLX implements but does not export (reached through glXGetProcAddress). */
GLXContext glXCreateContextAttribsARB(Display *dpy, GLXFBConfig config, GLXContext share,
                                      Bool direct, const int *attribs);
GLXContext glXImportContextEXT(Display *dpy, GLXContextID id);
void glXFreeContextEXT(Display *dpy, GLXContext ctx);

/* ---- entry ---- */

/* Every GLX entry point calls this first: fork recovery and the patch thread hook. */
static inline void glmux_glx_entry(void)
{
    __glDispatchCheckMultithreaded();
}

/* ---- vendors (glx_vendor.c) ---- */

extern const __GLXapiExports glmux_glx_exports;
/*
 * Loads (or finds) the vendor called name; NULL when it cannot be loaded (reported once).
 * override: a libglvnd variable named it (the log says so).
 */
glmux_glx_vendor *glmux_glx_vendor_load(const char *name, bool override);
/* Iterates the loaded vendors (lock held by the caller). */
glmux_glx_vendor *glmux_glx_vendor_first(void);
/* The vendor's function for a dispatch index (exports member fetchDispatchEntry). */
__GLXextFuncPtr glmux_glx_vendor_fetch(glmux_glx_vendor *vendor, int index);
/* Unloads every vendor (library destructor). */
void glmux_glx_vendor_unload_all(void);

/* ---- dispatch indices and glXGetProcAddress (glx_procaddr.c) ---- */

/* Index of name in the dispatch-index list, or -1. Lock held. */
int glmux_glx_index_find(const char *name);
/*
 * Adds name to the dispatch-index list and tells every loaded vendor; -1 on failure. Lock
 * held: only while a vendor is loaded (glx_entry.c); glXGetProcAddress announces with it
 * released.
 */
int glmux_glx_index_add(const char *name);
/* The name of an index (stable until libGLX is unloaded), or NULL. Lock held. */
const char *glmux_glx_index_name(int index);
/* Called under the lock once a new vendor is loaded: indices and generated stubs. */
void glmux_glx_procaddr_vendor_loaded(glmux_glx_vendor *vendor);
void glmux_glx_procaddr_fini(void);

/* ---- generated GLX entry stubs (glx_entry.c + the generated glmux_glx_stubs.S or .c) ---- */

/* GLMUX_GLX_ENTRY_COUNT, GLMUX_GLX_ENTRY_SIZE, GLMUX_HAVE_GLX_STUBS: glmux_constants.h. */
/*
 * Returns the address of a new stub for name, or NULL (none left, or a build without them).
 * Lock held. The caller asks once per name (glx_procaddr.c keeps the answer) and passes a
 * copy of the name that lives until glmux_glx_procaddr_fini.
 */
__GLXextFuncPtr glmux_glx_entry_new(const char *name);
/* Points every stub that has no target yet at what vendor offers for its name. */
void glmux_glx_entry_vendor_loaded(glmux_glx_vendor *vendor);
void glmux_glx_entry_fini(void);

/* ---- displays and screens (glx_display.c) ---- */

struct glmux_glx_display {
    struct glmux_glx_display *next;
    Display *dpy;
    int ext_number;                 /* XAddExtension number, for the close hook */
    bool has_glx;
    int opcode, first_event, first_error;
    bool libglvnd_ext;              /* every screen lists GLX_EXT_libglvnd */
    int screen_count;
    glmux_glx_vendor **screen_vendor;
    bool *screen_resolved;          /* a lookup ran (successful or not): cached */
    struct glmux_ptrmap *drawables; /* XID -> vendor */
    char *client_string[3];         /* merged glXGetClientString answers */
    int server_major, server_minor; /* from X_GLXQueryVersion, 0 until asked */
};

/* The record of dpy, created on first use; NULL on allocation failure. Lock held. */
struct glmux_glx_display *glmux_glx_display_get(Display *dpy);
/*
 * True when the pixels vendor (libGLX_glmux-pixels.so.0) serves dpy's default screen: libGLX
 * then answers glXQueryExtension and glXQueryVersion (GLX 1.4) for a server without GLX.
 */
bool glmux_glx_display_pixels(Display *dpy);
/* The vendor for (dpy, screen); NULL if screen is out of range or no vendor loads. */
glmux_glx_vendor *glmux_glx_vendor_for_screen(Display *dpy, int screen);
/*
 * The steps to find a screen's vendor, the pixels vendor's place included
 * (glmux_select_glx_screen_plan, the plan `glmux explain` shows), with libGLX's selector and
 * vendor list (glx_selector.c). Call it with glmux_glx_lock released: it may ask the X server
 * of dpy for the screen's GPU. has_glx: the server has the GLX extension.
 */
void glmux_glx_selector_plan(Display *dpy, int screen, bool has_glx,
                             struct glmux_glx_screen_plan *out);
/* The GLX library the vendor directory's manifest names for vendor name, or NULL. */
const char *glmux_glx_selector_library(const char *name);
/* Frees the selector and the vendor list (library destructor). */
void glmux_glx_selector_fini(void);
/* Raises an X error on dpy as the GLX ABI describes; does nothing without GLX. */
void glmux_glx_x_error(Display *dpy, unsigned char error, XID resid, unsigned char minor,
                       bool core);
void glmux_glx_display_fini(void);

/* ---- raw GLX protocol (glx_x11.c) ---- */

/* GLXQueryServerString; malloc'd string or NULL (errors never reach the app). */
char *glmux_glx_x11_query_server_string(Display *dpy, int opcode, int screen, int name);
/* The screen a drawable is on, or -1 when the server does not know it. */
int glmux_glx_x11_drawable_screen(Display *dpy, int opcode, bool libglvnd_ext, XID drawable);
/* The screen of an imported context, or -1 (the context does not exist). */
int glmux_glx_x11_context_screen(Display *dpy, int opcode, XID context);
/* X_GLXQueryVersion: True and the server's version. */
Bool glmux_glx_x11_query_version(Display *dpy, int opcode, int *major, int *minor);

/* ---- object maps (glx_mapping.c; winsys pointer maps) ---- */

/* What libGLX records of a context. */
struct glmux_glx_context {
    GLXContext handle;
    glmux_glx_vendor *vendor;
    int current_count;              /* threads on which it is current */
    bool deleted;                   /* freed once no thread has it current */
};

int glmux_glx_context_add(Display *dpy, GLXContext ctx, glmux_glx_vendor *vendor);
void glmux_glx_context_remove(Display *dpy, GLXContext ctx);
glmux_glx_vendor *glmux_glx_vendor_from_context(GLXContext ctx);
/* The record of ctx (lock held), or NULL. */
struct glmux_glx_context *glmux_glx_context_find(GLXContext ctx);
/*
 * How many context records were freed so far (lock held): a record pointer taken while this
 * count had the same value is still alive, which lets a thread reuse the record of the context
 * it left last without looking it up (glx_current.c).
 */
unsigned long glmux_glx_context_generation(void);
/* Drops a current reference; frees a deleted context at zero. Lock held. */
void glmux_glx_context_unref_locked(struct glmux_glx_context *info);
int glmux_glx_fbconfig_add(Display *dpy, GLXFBConfig config, glmux_glx_vendor *vendor);
/* Adds n configs of one vendor under one lock; -1 when one belongs to another vendor. */
int glmux_glx_fbconfig_add_list(Display *dpy, GLXFBConfig *configs, int n,
                                glmux_glx_vendor *vendor);
void glmux_glx_fbconfig_remove(Display *dpy, GLXFBConfig config);
glmux_glx_vendor *glmux_glx_vendor_from_fbconfig(Display *dpy, GLXFBConfig config);
int glmux_glx_drawable_add(Display *dpy, GLXDrawable draw, glmux_glx_vendor *vendor);
void glmux_glx_drawable_remove(Display *dpy, GLXDrawable draw);
glmux_glx_vendor *glmux_glx_vendor_from_drawable(Display *dpy, GLXDrawable draw);
void glmux_glx_mapping_fini(void);

/* ---- current context (glx_current.c) ---- */

struct glmux_glx_thread {
    __GLdispatchThreadState base;   /* first: libGLdispatch sees only this */
    glmux_glx_vendor *vendor;
    struct glmux_glx_context *ctx;
    /* Read and written with glmux_glx_thread_dpy / _set: the close hook of another thread
     * clears it (NULL) when the display closes while the context is current here. */
    Display *dpy;
    GLXDrawable draw, read;
    struct glmux_glx_thread *live_next;     /* the list of live records (glmux_glx_lock) */
    /* The context this thread made current before ctx, its record (no reference held) and
     * glmux_glx_context_generation() when it was known alive: a switch back to it needs no
     * lookup while no record was freed since. */
    GLXContext prev_handle;
    struct glmux_glx_context *prev_info;
    unsigned long prev_gen;
};

/* The calling thread's GLX state, or NULL when no GLX context is current. */
struct glmux_glx_thread *glmux_glx_current(void);
glmux_glx_vendor *glmux_glx_current_vendor(void);
/* Releases this thread's context without calling the vendor (unload). Lock held. */
void glmux_glx_current_drop(void);
/* Drops a record's context reference and frees it (thread exit, forked child). */
void glmux_glx_current_destroyed(__GLdispatchThreadState *base);
/*
 * dpy is being closed (its close hook, lock held): the calling thread's context, if current
 * on dpy, is released without calling its vendor, and other threads' records forget dpy
 * (glXGetCurrentDisplay answers NULL there), as libglvnd does.
 */
void glmux_glx_current_display_closed(Display *dpy);
/* In a forked child (after_fork): the list of live records is the parent's; forget it. */
void glmux_glx_current_after_fork(void);

static inline Display *glmux_glx_thread_dpy(const struct glmux_glx_thread *t)
{
    return __atomic_load_n(&t->dpy, __ATOMIC_RELAXED);
}

static inline void glmux_glx_thread_dpy_set(struct glmux_glx_thread *t, Display *dpy)
{
    __atomic_store_n(&t->dpy, dpy, __ATOMIC_RELAXED);
}

/* ---- client strings (glx_client_string.c) ---- */

const char *glmux_glx_client_string(Display *dpy, int name);

#endif /* GLMUX_GLX_INTERNAL_H */
