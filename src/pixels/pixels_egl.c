/* SPDX-License-Identifier: MIT */
/*
 * glmux: the EGL vendor the pixels GLX vendor renders with, found once per process (a
 * once-gate, util/once.h, outside every lock of the vendor) on the first use of a pixels screen.
 *
 * libGLdispatch holds one current API per thread, and the context this GLX vendor makes current
 * must stay a GLX one: libGLX (glmux's and libglvnd's alike) installs its GLX state before it
 * calls the vendor's glXMakeContextCurrent, and libEGL's eglMakeCurrent refuses to run while
 * another API is current (EGL_BAD_ACCESS). So the vendor never calls libEGL's entry points: it
 * calls an EGL vendor's own functions (what the vendor's __egl_Main put in its imports), and its
 * GL functions come from that vendor's getProcAddress (libEGL's eglGetProcAddress would hand
 * out libGLdispatch stubs, which lead back here). Two ways to an EGL vendor, tried in order:
 *
 *  1. glmux's libEGL.so.1 (from this library's directory first, else by soname) answers
 *     eglGetProcAddress(GLMUX_EGL_VENDORS_PROC) with its loaded vendors (src/egl/egl_shared.h):
 *     each vendor's __egl_Main runs once per process, with libEGL's exports, whether the
 *     application also uses libEGL or not. libEGL stays loaded for the life of the process.
 *  2. Any other libEGL.so.1 (libglvnd's), or none: the vendor directory is read as libEGL reads
 *     it (src/select: __EGL_VENDOR_LIBRARY_FILENAMES / _DIRS, the default directories, the GPU
 *     selector's order) and the vendor library is loaded here, its __egl_Main called with a
 *     table of our own, through the shared vendor loader (select/vendor_load.h: a library that
 *     refuses is closed again, as under libEGL). An EGL vendor keeps the last table it was
 *     given, so a library that is already loaded (libEGL.so.1 loaded it first) is left alone:
 *     its __egl_Main runs once, and the pixels vendor says why it cannot render. A libEGL
 *     that loads the vendor afterwards calls __egl_Main again and takes it over, which is
 *     harmless here: the pixels vendor uses none of the services it handed over (they only
 *     serve the vendor's EGL extension stubs).
 *
 * The first vendor that offers a surfaceless display (EGL_MESA_platform_surfaceless) that
 * initialises and supports desktop GL is used. A fork() while another thread finds it leaves
 * the child the vendors tried so far, and the child's first call goes on from there (the gate
 * and its progress record below). docs/remote.md and docs/architecture.md say more.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egl/egl_shared.h"
#include "glvnd/libeglabi.h"
#include "pixels/pixels_egl.h"
#include "select/select.h"
#include "select/vendor_load.h"
#include "util/lifecycle.h"
#include "util/log.h"
#include "util/once.h"

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

/* Vendors asked at most (as many as libEGL asks for one display). */
#define PIXELS_EGL_VENDORS_MAX 64

static struct glmux_pixels_egl egl;
static struct glmux_pixels_gl gl;
static bool egl_ok;
static char egl_why[512];
static const __EGLapiImports *imports;

/*
 * The search runs once (util/once.h) under glmux_once_run, since it dlopens libEGL or vendor
 * libraries and calls vendors, and resumably: a fork() while another thread searches leaves
 * the child the vendors tried so far, and the child's first call goes on from there. Each
 * step's result is written under the gate's lock (the fork step takes it), so the child's
 * copy is whole: path (1 or 2, with the vendors to try: what glmux's libEGL offered, or the
 * vendor directory read, under the lock since that reads only the environment and manifest
 * files, and its order), next (the vendors tried), trying (order[next] is being tried: a
 * child tries it again; under path 2 its library, mapped by the parent's cut thread, is taken
 * though it is loaded already, and keeps one reference more), finished (before the last
 * message, so that a child never says it again). Whatever the search allocates hangs here
 * before it is filled, so a child that finishes it frees it.
 */
static struct glmux_once egl_gate = GLMUX_ONCE_INIT;
static struct {
    int path;                                  /* 0: not chosen yet */
    struct glmux_egl_shared_vendor *shared;    /* path 1: glmux's libEGL's vendors */
    struct glmux_vendor_list list;             /* path 2: the vendor directory */
    struct glmux_select *sel;
    struct glmux_select_candidate *cands;
    size_t *order;
    bool planned;
    size_t count, next;                        /* vendors to try; [0, next) tried */
    bool trying, finished;
} load;

/* ---- the services our own __egl_Main call hands over (path 2) ---- */

/* Opaque to the EGL vendor: it only hands the pointer back. */
static struct { int unused; } vendor_token;
static __EGLapiImports own_imports;

static void ex_thread_init(void) {}
static EGLenum ex_current_api(void) { return EGL_OPENGL_API; }
static __EGLvendorInfo *ex_current_vendor(void) { return (__EGLvendorInfo *)&vendor_token; }
static EGLContext ex_current_context(void) { return EGL_NO_CONTEXT; }
static EGLDisplay ex_current_display(void) { return EGL_NO_DISPLAY; }
static EGLSurface ex_current_surface(EGLint rd) { (void)rd; return EGL_NO_SURFACE; }
static __eglMustCastToProperFunctionPointerType ex_fetch(__EGLvendorInfo *v, int index)
{
    (void)v;
    (void)index;
    return NULL;
}
static void ex_set_error(EGLint e) { (void)e; }
static EGLBoolean ex_set_last_vendor(__EGLvendorInfo *v) { (void)v; return EGL_TRUE; }
static __EGLvendorInfo *ex_vendor_from_display(EGLDisplay d)
{
    (void)d;
    return (__EGLvendorInfo *)&vendor_token;
}
static __EGLvendorInfo *ex_vendor_from_device(EGLDeviceEXT d)
{
    (void)d;
    return (__EGLvendorInfo *)&vendor_token;
}
static EGLBoolean ex_set_vendor_for_device(EGLDeviceEXT d, __EGLvendorInfo *v)
{
    (void)d;
    (void)v;
    return EGL_TRUE;
}

static const __EGLapiExports own_exports = {
    .threadInit = ex_thread_init,
    .getCurrentApi = ex_current_api,
    .getCurrentVendor = ex_current_vendor,
    .getCurrentContext = ex_current_context,
    .getCurrentDisplay = ex_current_display,
    .getCurrentSurface = ex_current_surface,
    .fetchDispatchEntry = ex_fetch,
    .setEGLError = ex_set_error,
    .setLastVendor = ex_set_last_vendor,
    .getVendorFromDisplay = ex_vendor_from_display,
    .getVendorFromDevice = ex_vendor_from_device,
    .setVendorForDevice = ex_set_vendor_for_device,
};

/* ---- one EGL vendor ---- */

static bool load_functions(void)
{
#define GLMUX_PIXELS_EGL_LOAD(ret, name, params)                                \
    egl.name = (ret(*) params)imports->getProcAddress("egl" #name);             \
    if (egl.name == NULL) {                                                     \
        snprintf(egl_why, sizeof(egl_why), "%s has no egl" #name, egl.library); \
        return false;                                                           \
    }
    GLMUX_PIXELS_EGL_FUNCTIONS(GLMUX_PIXELS_EGL_LOAD)
#undef GLMUX_PIXELS_EGL_LOAD
    egl.get_proc = imports->getProcAddress;
    gl.ReadPixels = (void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *))
        imports->getProcAddress("glReadPixels");
    gl.GetIntegerv = (void (*)(GLenum, GLint *))imports->getProcAddress("glGetIntegerv");
    gl.BindFramebuffer = (void (*)(GLenum, GLuint))imports->getProcAddress("glBindFramebuffer");
    gl.BindBuffer = (void (*)(GLenum, GLuint))imports->getProcAddress("glBindBuffer");
    gl.ReadBuffer = (void (*)(GLenum))imports->getProcAddress("glReadBuffer");
    gl.PixelStorei = (void (*)(GLenum, GLint))imports->getProcAddress("glPixelStorei");
    gl.Finish = (void (*)(void))imports->getProcAddress("glFinish");
    gl.Flush = (void (*)(void))imports->getProcAddress("glFlush");
    if (gl.ReadPixels == NULL || gl.GetIntegerv == NULL || gl.BindFramebuffer == NULL ||
        gl.BindBuffer == NULL || gl.ReadBuffer == NULL || gl.PixelStorei == NULL ||
        gl.Finish == NULL || gl.Flush == NULL) {
        snprintf(egl_why, sizeof(egl_why), "%s lacks a GL function glReadPixels needs",
                 egl.library);
        return false;
    }
    return true;
}

/* Opens an EGL vendor's surfaceless display (imports set); false with egl_why set. */
static bool try_vendor(const char *name, const char *library)
{
    snprintf(egl.vendor_name, sizeof(egl.vendor_name), "%s", name);
    snprintf(egl.library, sizeof(egl.library), "%s", library);
    if (!load_functions())
        return false;
    egl.display = imports->getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
                                              NULL);
    if (egl.display == EGL_NO_DISPLAY) {
        snprintf(egl_why, sizeof(egl_why), "EGL vendor \"%s\" offers no surfaceless display "
                 "(EGL_MESA_platform_surfaceless)", name);
        return false;
    }
    if (!egl.Initialize(egl.display, &egl.major, &egl.minor)) {
        snprintf(egl_why, sizeof(egl_why), "EGL vendor \"%s\": eglInitialize on the "
                 "surfaceless display failed (EGL error 0x%x)", name, egl.GetError());
        return false;
    }
    if (!egl.BindAPI(EGL_OPENGL_API)) {
        snprintf(egl_why, sizeof(egl_why), "EGL vendor \"%s\" does not offer desktop OpenGL",
                 name);
        egl.Terminate(egl.display);
        return false;
    }
    return true;
}

/* ---- path 1: glmux's libEGL ---- */

/* libEGL.so.1 next to this library, else wherever the dynamic linker finds it. */
static void *open_libegl(char *path, size_t size)
{
    Dl_info self;
    const char *slash;
    void *handle = NULL;

    if (dladdr((void *)open_libegl, &self) != 0 && self.dli_fname != NULL &&
        (slash = strrchr(self.dli_fname, '/')) != NULL &&
        snprintf(path, size, "%.*s/libEGL.so.1", (int)(slash - self.dli_fname),
                 self.dli_fname) < (int)size && access(path, F_OK) == 0)
        handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(path, size, "libEGL.so.1");
        handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    }
    return handle;
}

/*
 * The vendors of glmux's libEGL, which stays loaded for the life of the process (what this
 * vendor makes current belongs to libEGL's vendors). False when libEGL.so.1 is not glmux's or
 * cannot be loaded: path 2 then. *n is how many vendors libEGL offered. A child whose parent
 * forked in here opens libEGL again (one reference more), whose own gate resumes its load.
 */
static bool from_libegl(struct glmux_egl_shared_vendor *out, size_t *n)
{
    char path[PATH_MAX];
    void *handle = open_libegl(path, sizeof(path));
    __eglMustCastToProperFunctionPointerType (*gpa)(const char *);
    glmux_egl_vendors_fn vendors = NULL;
    Dl_info where;

    if (handle == NULL) {
        const char *err = dlerror();

        glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: libEGL.so.1 cannot be loaded (%s); "
                  "loading EGL vendors here", err ? err : "dlopen failed");
        return false;
    }
    gpa = (__eglMustCastToProperFunctionPointerType (*)(const char *))dlsym(handle,
                                                                          "eglGetProcAddress");
    if (gpa != NULL)
        vendors = (glmux_egl_vendors_fn)gpa(GLMUX_EGL_VENDORS_PROC);
    if (vendors == NULL) {
        if (dladdr((void *)gpa, &where) != 0 && where.dli_fname != NULL)
            snprintf(path, sizeof(path), "%s", where.dli_fname);
        glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: the libEGL.so.1 loaded (%s) is not "
                  "glmux's (no %s); loading EGL vendors here", path, GLMUX_EGL_VENDORS_PROC);
        dlclose(handle);
        return false;
    }
    if (dladdr((void *)vendors, &where) != 0 && where.dli_fname != NULL)
        snprintf(path, sizeof(path), "%s", where.dli_fname);
    glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: EGL vendors from glmux's libEGL %s", path);
    snprintf(egl_why, sizeof(egl_why), "no EGL vendor is installed (searched the vendor "
             "directory; __EGL_VENDOR_LIBRARY_DIRS and GLMUX_VENDOR_DIRS change where)");
    *n = vendors(EGL_PLATFORM_SURFACELESS_MESA, out, PIXELS_EGL_VENDORS_MAX);
    return true;
}

/* ---- path 2: EGL vendors loaded here ---- */

static bool call_main(void (*entry)(void), uint32_t version, void *arg)
{
    (void)arg;
    memset(&own_imports, 0, sizeof(own_imports));
    return ((__PFNEGLMAINPROC)entry)(version, &own_exports, (__EGLvendorInfo *)&vendor_token,
                                     &own_imports);
}

/* Loads one EGL vendor library and opens its surfaceless display; false with egl_why set.
 * again: the parent forked while it loaded this one, so the library may be mapped already. */
static bool load_vendor(const struct glmux_vendor *v, bool again)
{
    /* Not one loaded already (by another libEGL.so.1): its __egl_Main must not run again. */
    struct glmux_vendor_load req = {
        .file = v->egl_library, .abi = "EGL", .entry = __EGL_MAIN_PROTO_NAME,
        .abi_version = EGL_VENDOR_ABI_VERSION, .flags = again ? 0 : GLMUX_VENDOR_LOAD_NEW_ONLY,
        .call = call_main,
    };
    void *handle;

    switch (glmux_vendor_load(&req, &handle, egl_why, sizeof(egl_why))) {
    case GLMUX_VENDOR_LOADED:
        break;
    case GLMUX_VENDOR_IN_USE:
        snprintf(egl_why, sizeof(egl_why), "EGL vendor \"%s\" (%s) was loaded before by a "
                 "libEGL.so.1 that is not glmux's, and an EGL vendor serves one libEGL per "
                 "process (install glmux's libEGL, or use GLX before EGL)", v->name,
                 v->egl_library);
        return false;
    default:    /* egl_why says why; the loader closed what it opened */
        return false;
    }
    if (own_imports.getPlatformDisplay == NULL || own_imports.getProcAddress == NULL) {
        snprintf(egl_why, sizeof(egl_why), "%s is not an EGL vendor library: its __egl_Main "
                 "left getPlatformDisplay or getProcAddress NULL", v->egl_library);
        glmux_vendor_unload(handle);     /* the loader's policy: what is no vendor is closed */
        return false;
    }
    imports = &own_imports;
    /* Stays loaded for the life of the process, as under libEGL. */
    return try_vendor(v->name, v->egl_library);
}

/* Path 2: the vendor directory read and its vendors with an EGL library listed, with the
 * gate's lock held (the environment and manifest files only: a fork waits for it). */
static void find_vendor_dir(void)
{
    glmux_once_lock(&egl_gate);
    snprintf(egl_why, sizeof(egl_why), "no EGL vendor is installed (searched the vendor "
             "directory; __EGL_VENDOR_LIBRARY_DIRS and GLMUX_VENDOR_DIRS change where)");
    if (!glmux_vendor_list_discover(&load.list)) {
        snprintf(egl_why, sizeof(egl_why), "out of memory reading the vendor directory");
    } else {
        load.cands = calloc(load.list.count + 1, sizeof(*load.cands));
        load.order = calloc(load.list.count + 1, sizeof(*load.order));
        load.sel = glmux_select_new(NULL);
    }
    load.path = 2;
    glmux_once_unlock(&egl_gate);
}

/* Path 2: the order to try them in (the selector's: it may enumerate GPUs, so not under the
 * gate's lock; a child whose parent forked in here plans again). */
static void plan_vendor_dir(void)
{
    size_t n = 0;

    if (load.cands != NULL && load.order != NULL) {
        for (size_t i = 0; i < load.list.count; i++) {
            if (load.list.vendors[i].egl_library != NULL)
                load.cands[n++] = glmux_select_candidate_of(&load.list.vendors[i]);
        }
        if (load.sel != NULL)
            n = glmux_select_egl_vendor_order(load.sel, load.cands, n, load.order);
        else
            for (size_t i = 0; i < n; i++)
                load.order[i] = i;
    }
    glmux_once_lock(&egl_gate);
    load.count = n;
    load.planned = true;
    glmux_once_unlock(&egl_gate);
}

/* Path 1: glmux's libEGL's vendors, in the order a display of the surfaceless platform asks
 * them; false when libEGL.so.1 is not glmux's (path 2 then). */
static bool find_libegl(void)
{
    size_t n = 0;

    glmux_once_lock(&egl_gate);
    if (load.shared == NULL)
        load.shared = calloc(PIXELS_EGL_VENDORS_MAX, sizeof(*load.shared));
    glmux_once_unlock(&egl_gate);
    if (load.shared == NULL) {
        snprintf(egl_why, sizeof(egl_why), "out of memory");
        glmux_once_lock(&egl_gate);
        load.path = 1;      /* nothing to try */
        load.planned = true;
        glmux_once_unlock(&egl_gate);
        return true;
    }
    if (!from_libegl(load.shared, &n))
        return false;
    glmux_once_lock(&egl_gate);
    load.count = n;
    load.path = 1;
    load.planned = true;
    glmux_once_unlock(&egl_gate);
    return true;
}

/* Tries load.next (again: after a fork cut its try); true when it renders. */
static bool try_next(bool again)
{
    size_t k = load.next;
    const struct glmux_vendor *v;

    if (load.path == 1) {
        imports = load.shared[k].imports;
        return try_vendor(load.shared[k].name, load.shared[k].library);
    }
    v = glmux_vendor_list_find(&load.list, load.cands[load.order[k]].name);
    return v != NULL && v->egl_library != NULL && load_vendor(v, again);
}

/* The last step: marked finished (a child never says it again) and what the search allocated
 * detached under the gate's lock, then freed, and the outcome said. */
static void finish(void)
{
    struct glmux_egl_shared_vendor *shared;
    struct glmux_vendor_list list;
    struct glmux_select *sel;
    struct glmux_select_candidate *cands;
    size_t *order;

    glmux_once_lock(&egl_gate);
    shared = load.shared;
    list = load.list;
    sel = load.sel;
    cands = load.cands;
    order = load.order;
    load.shared = NULL;
    memset(&load.list, 0, sizeof(load.list));
    load.sel = NULL;
    load.cands = NULL;
    load.order = NULL;
    load.finished = true;
    glmux_once_unlock(&egl_gate);
    free(shared);
    glmux_vendor_list_clear(&list);
    glmux_select_free(sel);
    free(cands);
    free(order);
    if (egl_ok)
        glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: renders with EGL vendor \"%s\" (%s), "
                  "EGL %d.%d, surfaceless platform", egl.vendor_name, egl.library, egl.major,
                  egl.minor);
    else
        glmux_log(GLMUX_LOG_ERROR, "the X server cannot render GL for this display and glmux "
                  "cannot render it locally either: %s. Install Mesa's EGL vendor "
                  "(libegl-mesa0) or set GLMUX_DEBUG=warn,vendor to see the search", egl_why);
}

static void egl_init(void)
{
    bool again;

    glmux_once_lock(&egl_gate);
    again = load.trying;
    glmux_once_unlock(&egl_gate);
    if (again)
        glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: the parent process forked while it "
                  "tried an EGL vendor: trying it again in this child");
    if (load.path == 0 && !find_libegl()) {
        glmux_once_lock(&egl_gate);
        free(load.shared);
        load.shared = NULL;
        glmux_once_unlock(&egl_gate);
        find_vendor_dir();
    }
    if (!load.planned)
        plan_vendor_dir();
    while (!egl_ok && load.next < load.count) {
        bool ok;

        glmux_once_lock(&egl_gate);
        load.trying = true;
        glmux_once_unlock(&egl_gate);
        ok = try_next(again);
        again = false;
        if (!ok)
            glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: %s", egl_why);
        glmux_once_lock(&egl_gate);
        egl_ok = ok;
        load.trying = false;
        load.next++;
        glmux_once_unlock(&egl_gate);
    }
    if (load.finished)
        return;
    finish();
}

const struct glmux_pixels_egl *glmux_pixels_egl_get(const char **why)
{
    glmux_once_run(&egl_gate, egl_init);
    if (why != NULL)
        *why = egl_ok ? NULL : egl_why;
    return egl_ok ? &egl : NULL;
}

const struct glmux_pixels_gl *glmux_pixels_gl_get(void)
{
    glmux_once_run(&egl_gate, egl_init);
    return egl_ok ? &gl : NULL;
}

/* Around fork: the gate (its lock keeps the search's progress whole in the child; a search
 * another thread was running is resumed by the child's first call) and the selector's
 * enumeration lock of this library's copy of src/select. */
static void egl_fork(enum glmux_fork_step step)
{
    if (step == GLMUX_FORK_PREPARE) {
        glmux_once_fork(&egl_gate, step);
        glmux_select_fork(step);
    } else {
        glmux_select_fork(step);
        glmux_once_fork(&egl_gate, step);
    }
}

GLMUX_LIFECYCLE_STEP(pixels_egl, GLMUX_PIXELS_ORDER_EGL, .fork = egl_fork);
