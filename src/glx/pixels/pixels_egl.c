/* SPDX-License-Identifier: MIT */
/*
 * glmux: the EGL vendor the built-in pixels GLX vendor renders with. The vendor directory is
 * read as libEGL reads it (glmux_vendor_list_discover: __EGL_VENDOR_LIBRARY_FILENAMES and _DIRS,
 * GLMUX_VENDOR_DIRS, the default directories) and ordered by the GPU selector
 * (glmux_select_egl_vendor_order: GLMUX_GPU, DRI_PRIME). The first vendor whose library loads
 * through the EGL vendor ABI and offers a surfaceless display (EGL_MESA_platform_surfaceless)
 * that initialises and supports desktop GL is used. libGLX calls the vendor's functions
 * directly, not through libEGL.so.1: libGLdispatch holds one current API per thread, and the
 * GLX context this vendor makes current must be a GLX one (docs/remote.md says more). Nothing
 * here runs unless a screen uses the pixels vendor.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glvnd/libeglabi.h"
#include "glx/pixels/pixels.h"
#include "select/select.h"
#include "util/log.h"

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static pthread_once_t egl_once = PTHREAD_ONCE_INIT;
static struct glmux_pixels_egl egl;
static struct glmux_pixels_gl gl;
static bool egl_ok;
static char egl_why[512];
static __EGLapiImports imports;
/* Opaque to the vendor: it only hands the pointer back. */
static struct { int unused; } vendor_token;

/* ---- the services an EGL vendor may call (its dispatch stubs only; we never use them) ---- */

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

static const __EGLapiExports exports = {
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

static bool load_functions(void)
{
#define GLMUX_PIXELS_EGL_LOAD(ret, name, params)                                   \
    egl.name = (ret(*) params)imports.getProcAddress("egl" #name);                 \
    if (egl.name == NULL) {                                                        \
        snprintf(egl_why, sizeof(egl_why), "%s has no egl" #name, egl.library);    \
        return false;                                                              \
    }
    GLMUX_PIXELS_EGL_FUNCTIONS(GLMUX_PIXELS_EGL_LOAD)
#undef GLMUX_PIXELS_EGL_LOAD
    egl.get_proc = imports.getProcAddress;
    gl.ReadPixels = (void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *))
        imports.getProcAddress("glReadPixels");
    gl.GetIntegerv = (void (*)(GLenum, GLint *))imports.getProcAddress("glGetIntegerv");
    gl.BindFramebuffer = (void (*)(GLenum, GLuint))imports.getProcAddress("glBindFramebuffer");
    gl.BindBuffer = (void (*)(GLenum, GLuint))imports.getProcAddress("glBindBuffer");
    gl.ReadBuffer = (void (*)(GLenum))imports.getProcAddress("glReadBuffer");
    gl.PixelStorei = (void (*)(GLenum, GLint))imports.getProcAddress("glPixelStorei");
    gl.Finish = (void (*)(void))imports.getProcAddress("glFinish");
    gl.Flush = (void (*)(void))imports.getProcAddress("glFlush");
    if (gl.ReadPixels == NULL || gl.GetIntegerv == NULL || gl.BindFramebuffer == NULL ||
        gl.BindBuffer == NULL || gl.ReadBuffer == NULL || gl.PixelStorei == NULL ||
        gl.Finish == NULL || gl.Flush == NULL) {
        snprintf(egl_why, sizeof(egl_why), "%s lacks a GL function glReadPixels needs",
                 egl.library);
        return false;
    }
    return true;
}

/* Loads one EGL vendor library and opens its surfaceless display; false with egl_why set. */
static bool try_vendor(const struct glmux_vendor *v)
{
    void *handle;
    __PFNEGLMAINPROC main_fn;
    const char *err;

    snprintf(egl.vendor_name, sizeof(egl.vendor_name), "%s", v->name);
    snprintf(egl.library, sizeof(egl.library), "%s", v->egl_library);
    handle = dlopen(v->egl_library, RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        err = dlerror();
        snprintf(egl_why, sizeof(egl_why), "%s: %s", v->egl_library, err ? err : "dlopen failed");
        return false;
    }
    main_fn = (__PFNEGLMAINPROC)dlsym(handle, __EGL_MAIN_PROTO_NAME);
    memset(&imports, 0, sizeof(imports));
    if (main_fn == NULL ||
        !main_fn(EGL_VENDOR_ABI_VERSION, &exports, (__EGLvendorInfo *)&vendor_token, &imports) ||
        imports.getPlatformDisplay == NULL || imports.getProcAddress == NULL) {
        snprintf(egl_why, sizeof(egl_why), "%s is not an EGL vendor library (EGL vendor ABI "
                 "0.2)", v->egl_library);
        return false; /* stays loaded: a vendor may not survive dlclose after __egl_Main */
    }
    if (!load_functions())
        return false;
    egl.display = imports.getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
                                             NULL);
    if (egl.display == EGL_NO_DISPLAY) {
        snprintf(egl_why, sizeof(egl_why), "EGL vendor \"%s\" offers no surfaceless display "
                 "(EGL_MESA_platform_surfaceless)", v->name);
        return false;
    }
    if (!egl.Initialize(egl.display, &egl.major, &egl.minor)) {
        snprintf(egl_why, sizeof(egl_why), "EGL vendor \"%s\": eglInitialize on the "
                 "surfaceless display failed (EGL error 0x%x)", v->name, egl.GetError());
        return false;
    }
    if (!egl.BindAPI(EGL_OPENGL_API)) {
        snprintf(egl_why, sizeof(egl_why), "EGL vendor \"%s\" does not offer desktop OpenGL",
                 v->name);
        egl.Terminate(egl.display);
        return false;
    }
    return true;
}

static void egl_init(void)
{
    struct glmux_vendor_list list;
    struct glmux_select *sel;
    struct glmux_select_candidate *cands;
    size_t *order, n = 0;

    snprintf(egl_why, sizeof(egl_why), "no EGL vendor is installed (searched the vendor "
             "directory; __EGL_VENDOR_LIBRARY_DIRS and GLMUX_VENDOR_DIRS change where)");
    if (!glmux_vendor_list_discover(&list)) {
        snprintf(egl_why, sizeof(egl_why), "out of memory reading the vendor directory");
        return;
    }
    cands = calloc(list.count + 1, sizeof(*cands));
    order = calloc(list.count + 1, sizeof(*order));
    sel = glmux_select_new(NULL);
    if (cands != NULL && order != NULL) {
        for (size_t i = 0; i < list.count; i++) {
            if (list.vendors[i].egl_library != NULL)
                cands[n++] = glmux_select_candidate_of(&list.vendors[i]);
        }
        if (sel != NULL)
            n = glmux_select_egl_vendor_order(sel, cands, n, order);
        else
            for (size_t i = 0; i < n; i++)
                order[i] = i;
        for (size_t i = 0; i < n && !egl_ok; i++) {
            const struct glmux_vendor *v = glmux_vendor_list_find(&list, cands[order[i]].name);

            if (v == NULL || v->egl_library == NULL)
                continue;
            egl_ok = try_vendor(v);
            if (!egl_ok)
                glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: %s", egl_why);
        }
    }
    if (egl_ok)
        glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: renders with EGL vendor \"%s\" (%s), "
                  "EGL %d.%d, surfaceless platform", egl.vendor_name, egl.library, egl.major,
                  egl.minor);
    else
        glmux_log(GLMUX_LOG_ERROR, "the X server cannot render GL for this display and glmux "
                  "cannot render it locally either: %s. Install Mesa's EGL vendor "
                  "(libegl-mesa0) or set GLMUX_DEBUG=vendor to see the search", egl_why);
    glmux_select_free(sel);
    free(cands);
    free(order);
    glmux_vendor_list_clear(&list);
}

const struct glmux_pixels_egl *glmux_pixels_egl_get(const char **why)
{
    pthread_once(&egl_once, egl_init);
    if (why != NULL)
        *why = egl_ok ? NULL : egl_why;
    return egl_ok ? &egl : NULL;
}

const struct glmux_pixels_gl *glmux_pixels_gl_get(void)
{
    pthread_once(&egl_once, egl_init);
    return egl_ok ? &gl : NULL;
}
