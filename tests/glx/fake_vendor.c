/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: a fake GLX vendor, built several times under different names (FAKE_NAME:
 * libGLX_fakea.so.0, libGLX_fakeb.so.0; FAKE_NO_MAIN builds libGLX_nomain.so.0 without
 * __glx_Main). It renders nothing: contexts, FBConfigs and drawables are its own records, and
 * every answer names the vendor, so tests can see which vendor served each call. glGetString
 * answers GL_VENDOR with the vendor name and GL_RENDERER with "<name> ctx <id>".
 *
 * Extension functions (vendor-neutral dispatch through the exports table):
 *   const char *glXFakeWhichVendorGLMUX(Display *dpy, int screen)  the serving vendor's name
 *   int glXFakeClaimContextGLMUX(Display *dpy, int screen, GLXContext ctx)
 *       the result of addVendorContextMapping(ctx) for the vendor of screen
 *   int glXFakeClaimGLMUX(Display *dpy, int screen, int kind, void *handle)
 *       the same for an FBConfig (kind 1) or a drawable (kind 2, the XID in handle)
 *   int glXFakeCountGLMUX(Display *dpy, int screen, int what)  counters (FAKE_COUNT_*)
 * and glXAllocateMemoryNV as a GL function (reached through GL dispatch): the vendor's name.
 * Environment: FAKE_GLX_REJECT=<name> makes __glx_Main fail; FAKE_GLX_HIDE=<name>:<glX name>
 * hides one GLX function of vendor <name> from getProcAddress; FAKE_GLX_UNSUPPORTED_SCREEN=<n>
 * makes isScreenSupported refuse screen n; FAKE_GLX_PATCH=<name> makes vendor <name> offer
 * entry-point patching (it looks its stubs up, counts them and those in libGL.so.1, and
 * writes nothing). Built as
 * "mesa" too, to stand in for the vendor the X server names, and as "mesa" and "nvidia" in a
 * test-local vendor directory for the GPU selection tests: with FAKE_GLX_RECORD=FILE it appends
 * to FILE, in __glx_Main, the GPU-selection variables it saw ("main NAME VAR=value ...") and,
 * when glXMakeCurrent or glXMakeContextCurrent makes one of its contexts current,
 * "makecurrent NAME".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <GL/gl.h>
#include <GL/glx.h>

#include "glvnd/libglxabi.h"
#include "fake_vendor.h"
#include "fake_record.h"
#include "glmux_constants.h"

#define PUBLIC __attribute__((visibility("default")))

#ifndef FAKE_NO_MAIN
#define MAGIC_CONFIG 0x46434647
#define MAGIC_CONTEXT 0x46435458

struct fake_config {
    int magic;
    int screen;
    int id;
};

struct fake_context {
    int magic;
    int screen;
    int id;
    int owner;              /* 0 or the thread slot that has it current */
};

static const __GLXapiExports *exports;
static struct fake_config configs[8][2];
static int next_context_id = 1;
static int counts[FAKE_COUNT_MAX];
static int index_which = -1, index_claim = -1, index_count = -1, index_claim_any = -1;
static bool init_done;
static __thread struct fake_context *current;
static __thread char renderer[64];

static bool hidden(const char *name)
{
    const char *h = getenv("FAKE_GLX_HIDE");
    size_t n = strlen(FAKE_NAME);

    return h != NULL && strncmp(h, FAKE_NAME, n) == 0 && h[n] == ':' &&
           strcmp(h + n + 1, name) == 0;
}

/* Appends "what NAME[ VAR=value...]" to $FAKE_GLX_RECORD (test_glx_select.py reads it). */
static void record(const char *what, bool with_env)
{
    static const char *const vars[] = {
        "DRI_PRIME", "__NV_PRIME_RENDER_OFFLOAD", "__NV_PRIME_RENDER_OFFLOAD_PROVIDER",
        "__GLX_VENDOR_LIBRARY_NAME", "__VK_LAYER_NV_optimus", "GLMUX_GPU", NULL,
    };

    glmux_fake_record("FAKE_GLX_RECORD", FAKE_NAME, what, with_env ? vars : NULL);
}

static void bump(int what)
{
    __atomic_add_fetch(&counts[what], 1, __ATOMIC_RELAXED);
}

static XVisualInfo *fake_choose_visual(Display *dpy, int screen, int *attribs)
{
    XVisualInfo tmpl;
    int n = 0;

    (void)attribs;
    if (screen < 0 || screen >= ScreenCount(dpy))
        return NULL;
    memset(&tmpl, 0, sizeof(tmpl));
    tmpl.visualid = XVisualIDFromVisual(DefaultVisual(dpy, screen));
    tmpl.screen = screen;
    return XGetVisualInfo(dpy, VisualIDMask | VisualScreenMask, &tmpl, &n);
}

static struct fake_context *new_context(int screen)
{
    struct fake_context *c = calloc(1, sizeof(*c));

    if (c == NULL)
        return NULL;
    c->magic = MAGIC_CONTEXT;
    c->screen = screen;
    c->id = __atomic_fetch_add(&next_context_id, 1, __ATOMIC_RELAXED);
    bump(FAKE_COUNT_CONTEXTS);
    return c;
}

static bool valid_config(GLXFBConfig config)
{
    const struct fake_config *c = (const struct fake_config *)config;

    return c != NULL && c->magic == MAGIC_CONFIG;
}

static GLXContext fake_create_context(Display *dpy, XVisualInfo *vis, GLXContext share, Bool direct)
{
    (void)dpy, (void)share, (void)direct;
    return (GLXContext)new_context(vis->screen);
}

static GLXContext fake_create_new_context(Display *dpy, GLXFBConfig config, int type,
                                          GLXContext share, Bool direct)
{
    (void)dpy, (void)type, (void)share, (void)direct;
    if (!valid_config(config))
        return NULL;
    return (GLXContext)new_context(((struct fake_config *)config)->screen);
}

static GLXContext fake_create_context_attribs(Display *dpy, GLXFBConfig config, GLXContext share,
                                              Bool direct, const int *attribs)
{
    (void)dpy, (void)share, (void)direct;
    for (const int *a = attribs; a != NULL && a[0] != None; a += 2) {
        if (a[0] == GLX_SCREEN)
            return (GLXContext)new_context(a[1]);
    }
    if (!valid_config(config))
        return NULL;
    return (GLXContext)new_context(((struct fake_config *)config)->screen);
}

static void fake_destroy_context(Display *dpy, GLXContext ctx)
{
    struct fake_context *c = (struct fake_context *)ctx;

    (void)dpy;
    if (c != NULL && c->magic == MAGIC_CONTEXT && c->owner == 0) {
        c->magic = 0;
        free(c);
    }
}

static void fake_copy_context(Display *dpy, GLXContext src, GLXContext dst, unsigned long mask)
{
    (void)dpy, (void)src, (void)dst, (void)mask;
}

static Bool fake_is_direct(Display *dpy, GLXContext ctx)
{
    (void)dpy, (void)ctx;
    return True;
}

static int thread_slot(void)
{
    static __thread int slot;
    static int next = 1;

    if (slot == 0)
        slot = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED);
    return slot;
}

static Bool make_current(GLXContext ctx)
{
    struct fake_context *c = (struct fake_context *)ctx;
    int expected = 0;

    bump(FAKE_COUNT_MAKE_CURRENT);
    if (c == NULL) {
        if (current != NULL)
            __atomic_store_n(&current->owner, 0, __ATOMIC_RELEASE);
        current = NULL;
        return True;
    }
    if (c->magic != MAGIC_CONTEXT)
        return False;
    if (c != current &&
        !__atomic_compare_exchange_n(&c->owner, &expected, thread_slot(), false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return False;           /* current on another thread */
    if (current != NULL && current != c)
        __atomic_store_n(&current->owner, 0, __ATOMIC_RELEASE);
    current = c;
    record("makecurrent", false);
    return True;
}

static Bool fake_make_current(Display *dpy, GLXDrawable draw, GLXContext ctx)
{
    (void)dpy, (void)draw;
    return make_current(ctx);
}

static Bool fake_make_context_current(Display *dpy, GLXDrawable draw, GLXDrawable read,
                                      GLXContext ctx)
{
    (void)dpy, (void)draw, (void)read;
    return make_current(ctx);
}

static void fake_swap_buffers(Display *dpy, GLXDrawable draw)
{
    (void)dpy, (void)draw;
    bump(FAKE_COUNT_SWAPS);
}

static void fake_use_x_font(Font font, int first, int count, int list)
{
    (void)font, (void)first, (void)count, (void)list;
}

static void fake_wait_gl(void)
{
    bump(FAKE_COUNT_WAITS);
}

static void fake_wait_x(void)
{
    bump(FAKE_COUNT_WAITS);
}

static const char *string_for(int name)
{
    switch (name) {
    case GLX_VENDOR:
        return FAKE_NAME;
    case GLX_VERSION:
        return "1.4 " FAKE_NAME " 0.1";
    case GLX_EXTENSIONS:
        return "GLX_fake_common GLX_" FAKE_NAME "_only";
    default:
        return NULL;
    }
}

static const char *fake_query_server_string(Display *dpy, int screen, int name)
{
    (void)dpy, (void)screen;
    return string_for(name);
}

static const char *fake_get_client_string(Display *dpy, int name)
{
    (void)dpy;
    return string_for(name);
}

static const char *fake_query_extensions_string(Display *dpy, int screen)
{
    (void)dpy, (void)screen;
    return string_for(GLX_EXTENSIONS);
}

/* The configs of every screen, filled once (threads may ask for them at the same time). */
static void init_configs(void)
{
    for (int screen = 0; screen < 8; screen++) {
        for (int i = 0; i < 2; i++) {
            configs[screen][i].magic = MAGIC_CONFIG;
            configs[screen][i].screen = screen;
            configs[screen][i].id = i + 1;
        }
    }
}

static GLXFBConfig *fake_get_fb_configs(Display *dpy, int screen, int *n)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    GLXFBConfig *list;

    if (screen < 0 || screen >= 8 || screen >= ScreenCount(dpy) ||
        (list = malloc(2 * sizeof(*list))) == NULL) {
        *n = 0;
        return NULL;
    }
    pthread_once(&once, init_configs);
    for (int i = 0; i < 2; i++)
        list[i] = (GLXFBConfig)&configs[screen][i];
    *n = 2;
    return list;
}

static GLXFBConfig *fake_choose_fb_config(Display *dpy, int screen, const int *attribs, int *n)
{
    (void)attribs;
    return fake_get_fb_configs(dpy, screen, n);
}

static int fake_get_fb_config_attrib(Display *dpy, GLXFBConfig config, int attrib, int *value)
{
    const struct fake_config *c = (const struct fake_config *)config;

    (void)dpy;
    if (!valid_config(config))
        return GLX_BAD_ATTRIBUTE;
    switch (attrib) {
    case GLX_FBCONFIG_ID:
        *value = c->id;
        return Success;
    case GLX_SCREEN:
        *value = c->screen;
        return Success;
    case FAKE_ATTRIB_VENDOR:
        *value = FAKE_LETTER;
        return Success;
    default:
        return GLX_BAD_ATTRIBUTE;
    }
}

static int fake_get_config(Display *dpy, XVisualInfo *vis, int attrib, int *value)
{
    (void)dpy, (void)vis;
    if (attrib == FAKE_ATTRIB_VENDOR) {
        *value = FAKE_LETTER;
        return Success;
    }
    *value = attrib == GLX_USE_GL;
    return Success;
}

static XVisualInfo *fake_get_visual_from_fb_config(Display *dpy, GLXFBConfig config)
{
    return valid_config(config)
               ? fake_choose_visual(dpy, ((struct fake_config *)config)->screen, NULL)
               : NULL;
}

/* A fresh XID for a GLX drawable: a 1x1 pixmap (XAllocID alone may not be called twice in
 * a row without a request in between). */
static XID new_xid(Display *dpy)
{
    return XCreatePixmap(dpy, DefaultRootWindow(dpy), 1, 1, DefaultDepth(dpy, DefaultScreen(dpy)));
}

static GLXPbuffer fake_create_pbuffer(Display *dpy, GLXFBConfig config, const int *attribs)
{
    (void)config, (void)attribs;
    return new_xid(dpy);
}

static GLXPixmap fake_create_pixmap(Display *dpy, GLXFBConfig config, Pixmap pixmap,
                                    const int *attribs)
{
    (void)config, (void)pixmap, (void)attribs;
    return new_xid(dpy);
}

static GLXPixmap fake_create_glx_pixmap(Display *dpy, XVisualInfo *vis, Pixmap pixmap)
{
    (void)vis, (void)pixmap;
    return new_xid(dpy);
}

static GLXWindow fake_create_window(Display *dpy, GLXFBConfig config, Window win,
                                    const int *attribs)
{
    (void)config, (void)win, (void)attribs;
    return new_xid(dpy);
}

static void fake_destroy_drawable(Display *dpy, XID draw)
{
    (void)dpy, (void)draw;
    bump(FAKE_COUNT_DESTROYED_DRAWABLES);
}

static void fake_get_selected_event(Display *dpy, GLXDrawable draw, unsigned long *mask)
{
    (void)dpy, (void)draw;
    *mask = (unsigned long)FAKE_LETTER;
}

static void fake_select_event(Display *dpy, GLXDrawable draw, unsigned long mask)
{
    (void)dpy, (void)draw, (void)mask;
}

static void fake_query_drawable(Display *dpy, GLXDrawable draw, int attrib, unsigned int *value)
{
    (void)dpy, (void)draw;
    *value = attrib == FAKE_ATTRIB_VENDOR ? (unsigned)FAKE_LETTER : 0;
}

static int fake_query_context(Display *dpy, GLXContext ctx, int attrib, int *value)
{
    const struct fake_context *c = (const struct fake_context *)ctx;

    (void)dpy;
    if (c == NULL || c->magic != MAGIC_CONTEXT)
        return GLX_BAD_CONTEXT;
    switch (attrib) {
    case GLX_SCREEN:
        *value = c->screen;
        return Success;
    case FAKE_ATTRIB_VENDOR:
        *value = FAKE_LETTER;
        return Success;
    case FAKE_ATTRIB_ID:
        *value = c->id;
        return Success;
    default:
        return GLX_BAD_ATTRIBUTE;
    }
}

/* ---- GL ---- */

static const GLubyte *fake_gl_get_string(GLenum name)
{
    if (name == GL_VENDOR)
        return (const GLubyte *)FAKE_NAME;
    if (name == GL_RENDERER) {
        snprintf(renderer, sizeof(renderer), "%s ctx %d", FAKE_NAME, current ? current->id : 0);
        return (const GLubyte *)renderer;
    }
    return NULL;
}

static void fake_gl_clear(GLbitfield mask)
{
    (void)mask;
    bump(FAKE_COUNT_CLEARS);
}

/* A GL function whose name starts with "glX" (libglvnd's libGLX allows for such names):
 * getProcAddress knows it, getDispatchAddress does not, so libGLX hands out a GL dispatch stub
 * for it. Answers the vendor's name. */
static void *fake_gl_allocate_memory(GLsizei size, GLfloat readfreq, GLfloat writefreq,
                                     GLfloat priority)
{
    (void)size, (void)readfreq, (void)writefreq, (void)priority;
    return (void *)FAKE_NAME;
}

/* ---- extension functions: implementations and vendor-neutral dispatch stubs ---- */

static const char *which_impl(Display *dpy, int screen)
{
    (void)dpy, (void)screen;
    return FAKE_NAME;
}

static int claim_impl(Display *dpy, int screen, GLXContext ctx)
{
    return exports->addVendorContextMapping(dpy, ctx, exports->getDynDispatch(dpy, screen));
}

static int claim_any_impl(Display *dpy, int screen, int kind, void *handle)
{
    __GLXvendorInfo *v = exports->getDynDispatch(dpy, screen);

    if (kind == 1)
        return exports->addVendorFBConfigMapping(dpy, (GLXFBConfig)handle, v);
    return exports->addVendorDrawableMapping(dpy, (GLXDrawable)(uintptr_t)handle, v);
}

static int count_impl(Display *dpy, int screen, int what)
{
    (void)dpy, (void)screen;
    return what >= 0 && what < FAKE_COUNT_MAX ? __atomic_load_n(&counts[what], __ATOMIC_RELAXED)
                                              : -1;
}

static const char *which_dispatch(Display *dpy, int screen)
{
    __GLXvendorInfo *v = exports->getDynDispatch(dpy, screen);
    const char *(*fn)(Display *, int) =
        v ? (const char *(*)(Display *, int))exports->fetchDispatchEntry(v, index_which) : NULL;

    return fn ? fn(dpy, screen) : NULL;
}

static int claim_dispatch(Display *dpy, int screen, GLXContext ctx)
{
    __GLXvendorInfo *v = exports->getDynDispatch(dpy, screen);
    int (*fn)(Display *, int, GLXContext) =
        v ? (int (*)(Display *, int, GLXContext))exports->fetchDispatchEntry(v, index_claim)
          : NULL;

    return fn ? fn(dpy, screen, ctx) : -2;
}

static int claim_any_dispatch(Display *dpy, int screen, int kind, void *handle)
{
    __GLXvendorInfo *v = exports->getDynDispatch(dpy, screen);
    int (*fn)(Display *, int, int, void *) =
        v ? (int (*)(Display *, int, int, void *))exports->fetchDispatchEntry(v, index_claim_any)
          : NULL;

    return fn ? fn(dpy, screen, kind, handle) : -2;
}

static int count_dispatch(Display *dpy, int screen, int what)
{
    __GLXvendorInfo *v = exports->getDynDispatch(dpy, screen);
    int (*fn)(Display *, int, int) =
        v ? (int (*)(Display *, int, int))exports->fetchDispatchEntry(v, index_count) : NULL;

    return fn ? fn(dpy, screen, what) : -1;
}

static const struct {
    const char *name;
    void *fn;
} procs[] = {
    {"glXChooseVisual", (void *)fake_choose_visual},
    {"glXCopyContext", (void *)fake_copy_context},
    {"glXCreateContext", (void *)fake_create_context},
    {"glXCreateGLXPixmap", (void *)fake_create_glx_pixmap},
    {"glXDestroyContext", (void *)fake_destroy_context},
    {"glXDestroyGLXPixmap", (void *)fake_destroy_drawable},
    {"glXGetConfig", (void *)fake_get_config},
    {"glXIsDirect", (void *)fake_is_direct},
    {"glXMakeCurrent", (void *)fake_make_current},
    {"glXSwapBuffers", (void *)fake_swap_buffers},
    {"glXUseXFont", (void *)fake_use_x_font},
    {"glXWaitGL", (void *)fake_wait_gl},
    {"glXWaitX", (void *)fake_wait_x},
    {"glXQueryServerString", (void *)fake_query_server_string},
    {"glXGetClientString", (void *)fake_get_client_string},
    {"glXQueryExtensionsString", (void *)fake_query_extensions_string},
    {"glXChooseFBConfig", (void *)fake_choose_fb_config},
    {"glXCreateNewContext", (void *)fake_create_new_context},
    {"glXCreatePbuffer", (void *)fake_create_pbuffer},
    {"glXCreatePixmap", (void *)fake_create_pixmap},
    {"glXCreateWindow", (void *)fake_create_window},
    {"glXDestroyPbuffer", (void *)fake_destroy_drawable},
    {"glXDestroyPixmap", (void *)fake_destroy_drawable},
    {"glXDestroyWindow", (void *)fake_destroy_drawable},
    {"glXGetFBConfigAttrib", (void *)fake_get_fb_config_attrib},
    {"glXGetFBConfigs", (void *)fake_get_fb_configs},
    {"glXGetSelectedEvent", (void *)fake_get_selected_event},
    {"glXGetVisualFromFBConfig", (void *)fake_get_visual_from_fb_config},
    {"glXMakeContextCurrent", (void *)fake_make_context_current},
    {"glXQueryContext", (void *)fake_query_context},
    {"glXQueryDrawable", (void *)fake_query_drawable},
    {"glXSelectEvent", (void *)fake_select_event},
    {"glXCreateContextAttribsARB", (void *)fake_create_context_attribs},
    {"glXFakeWhichVendorGLMUX", (void *)which_impl},
    {"glXFakeClaimContextGLMUX", (void *)claim_impl},
    {"glXFakeClaimGLMUX", (void *)claim_any_impl},
    {"glXFakeCountGLMUX", (void *)count_impl},
    {"glGetString", (void *)fake_gl_get_string},
    {"glClear", (void *)fake_gl_clear},
    {"glXAllocateMemoryNV", (void *)fake_gl_allocate_memory},
};

static void *fake_get_proc_address(const GLubyte *name)
{
    if (hidden((const char *)name))
        return NULL;
    for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
        if (strcmp(procs[i].name, (const char *)name) == 0)
            return procs[i].fn;
    }
    return NULL;
}

static void *fake_get_dispatch_address(const GLubyte *name)
{
    if (strcmp((const char *)name, "glXFakeWhichVendorGLMUX") == 0)
        return (void *)which_dispatch;
    if (strcmp((const char *)name, "glXFakeClaimContextGLMUX") == 0)
        return (void *)claim_dispatch;
    if (strcmp((const char *)name, "glXFakeClaimGLMUX") == 0)
        return (void *)claim_any_dispatch;
    if (strcmp((const char *)name, "glXFakeCountGLMUX") == 0)
        return (void *)count_dispatch;
    return NULL;
}

static void fake_set_dispatch_index(const GLubyte *name, int index)
{
    if (strcmp((const char *)name, "glXFakeWhichVendorGLMUX") == 0)
        index_which = index;
    else if (strcmp((const char *)name, "glXFakeClaimContextGLMUX") == 0)
        index_claim = index;
    else if (strcmp((const char *)name, "glXFakeCountGLMUX") == 0)
        index_count = index;
    else if (strcmp((const char *)name, "glXFakeClaimGLMUX") == 0)
        index_claim_any = index;
}

static GLboolean fake_is_patch_supported(int type, int size)
{
    bump(FAKE_COUNT_PATCH_QUERIES);
    return GLMUX_HAVE_ASM_ENTRY && type == GLMUX_STUB_TYPE && size == GLMUX_STUB_SIZE;
}

static GLboolean fake_initiate_patch(int type, int size, DispatchPatchLookupStubOffset lookup)
{
    void *write_ptr = NULL;
    const void *exec_ptr = NULL;

    (void)type, (void)size;
    if (lookup("glClear", &write_ptr, &exec_ptr) && write_ptr != NULL && exec_ptr != NULL) {
        Dl_info info;
        const char *base;

        bump(FAKE_COUNT_PATCHED);
        if (dladdr(exec_ptr, &info) && info.dli_fname != NULL) {
            base = strrchr(info.dli_fname, '/');
            if (strcmp(base ? base + 1 : info.dli_fname, "libGL.so.1") == 0)
                bump(FAKE_COUNT_PATCHED_LIBGL);
        }
    }
    return GL_TRUE;
}

static void fake_release_patch(void)
{
}

static Bool fake_is_screen_supported(Display *dpy, int screen)
{
    const char *no = getenv("FAKE_GLX_UNSUPPORTED_SCREEN");

    (void)dpy;
    return no == NULL || atoi(no) != screen;
}

PUBLIC Bool __glx_Main(uint32_t version, const __GLXapiExports *exp, __GLXvendorInfo *vendor,
                       __GLXapiImports *imports)
{
    const char *reject = getenv("FAKE_GLX_REJECT");

    (void)vendor;
    if (reject != NULL && strcmp(reject, FAKE_NAME) == 0)
        return False;
    if (GLX_VENDOR_ABI_GET_MAJOR_VERSION(version) != 1)
        return False;
    bump(FAKE_COUNT_MAIN_CALLS);
    record("main", true);
    /* Like Mesa: the imports are filled in only by the first call. */
    if (!init_done) {
        exports = exp;
        imports->isScreenSupported = fake_is_screen_supported;
        imports->getProcAddress = fake_get_proc_address;
        imports->getDispatchAddress = fake_get_dispatch_address;
        imports->setDispatchIndex = fake_set_dispatch_index;
        if (getenv("FAKE_GLX_PATCH") != NULL && strcmp(getenv("FAKE_GLX_PATCH"), FAKE_NAME) == 0) {
            imports->isPatchSupported = fake_is_patch_supported;
            imports->initiatePatch = fake_initiate_patch;
            imports->releasePatch = fake_release_patch;
        }
        init_done = true;
    }
    return True;
}

#else /* FAKE_NO_MAIN: a library that is not a GLX vendor */

PUBLIC int fake_not_a_vendor(void)
{
    return 0;
}

#endif
