/* SPDX-License-Identifier: MIT */
/*
 * glmux: the EGL vendor the built-in pixels GLX vendor renders with. It is one of the vendors
 * glmux's libEGL.so.1 loaded (libEGL's vendor directory, GPU selector order and variables;
 * each vendor's __egl_Main runs once per process, with libEGL's exports): libGLX dlopens
 * libEGL.so.1 and asks it through the interface libEGL leaves with libGLdispatch
 * (src/egl/egl_shared.h). The first vendor that offers a surfaceless display
 * (EGL_MESA_platform_surfaceless) that initialises and supports desktop GL is used. libGLX
 * calls that vendor's functions directly, not libEGL's entry points: libGLdispatch holds one
 * current API per thread, and the GLX context this vendor makes current must be a GLX one
 * (docs/remote.md says more). Nothing here runs unless a screen uses the pixels vendor.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "egl/egl_shared.h"
#include "glx/pixels/pixels.h"
#include "util/log.h"
#include "winsys/winsys.h"

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

/* libEGL's vendors asked at most (as many as libEGL asks for one display). */
#define PIXELS_EGL_VENDORS_MAX 64

static pthread_once_t egl_once = PTHREAD_ONCE_INIT;
static struct glmux_pixels_egl egl;
static struct glmux_pixels_gl gl;
static bool egl_ok;
static char egl_why[512];
static const __EGLapiImports *imports;

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

/* Opens one of libEGL's vendors' surfaceless display; false with egl_why set. */
static bool try_vendor(const struct glmux_egl_shared_vendor *v)
{
    snprintf(egl.vendor_name, sizeof(egl.vendor_name), "%s", v->name);
    snprintf(egl.library, sizeof(egl.library), "%s", v->library);
    imports = v->imports;
    if (!load_functions())
        return false;
    egl.display = imports->getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
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

/* libEGL.so.1 next to this libGLX, else wherever the dynamic linker finds it. */
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
 * glmux's libEGL, loaded and kept loaded for the life of the process: what this vendor makes
 * current belongs to libEGL's vendors, which may still be current on a thread when libGLX is
 * unloaded. NULL with egl_why set when there is no glmux libEGL.
 */
static const struct glmux_egl_shared *libegl(void)
{
    const struct glmux_egl_shared *shared;
    char path[PATH_MAX];
    void *handle = open_libegl(path, sizeof(path));
    Dl_info where;
    void *pin;

    if (handle == NULL) {
        const char *err = dlerror();

        snprintf(egl_why, sizeof(egl_why), "libEGL.so.1 cannot be loaded (%s)",
                 err ? err : "dlopen failed");
        return NULL;
    }
    shared = glmux_winsys_peer(GLDISPATCH_API_EGL);
    if (shared == NULL || shared->version != GLMUX_EGL_SHARED_VERSION) {
        snprintf(egl_why, sizeof(egl_why), "the libEGL.so.1 loaded (%.400s) is not glmux's, "
                 "or not of this glmux release", path);
        dlclose(handle);
        return NULL;
    }
    /* Keep loaded the very libEGL whose interface this is (normally the one just opened). */
    if (dladdr(shared, &where) != 0 && where.dli_fname != NULL &&
        (pin = dlopen(where.dli_fname, RTLD_LAZY | RTLD_NOLOAD)) != NULL) {
        dlclose(handle);
        snprintf(path, sizeof(path), "%s", where.dli_fname);
    }
    glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: EGL vendors from glmux's libEGL %s", path);
    return shared;
}

static void egl_init(void)
{
    const struct glmux_egl_shared *shared = libegl();
    struct glmux_egl_shared_vendor vendors[PIXELS_EGL_VENDORS_MAX];
    size_t n = 0;

    if (shared != NULL) {
        snprintf(egl_why, sizeof(egl_why), "no EGL vendor is installed (searched the vendor "
                 "directory; __EGL_VENDOR_LIBRARY_DIRS and GLMUX_VENDOR_DIRS change where)");
        n = shared->vendors(EGL_PLATFORM_SURFACELESS_MESA, vendors, PIXELS_EGL_VENDORS_MAX);
    }
    for (size_t i = 0; i < n && !egl_ok; i++) {
        egl_ok = try_vendor(&vendors[i]);
        if (!egl_ok)
            glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: %s", egl_why);
    }
    if (egl_ok)
        glmux_log(GLMUX_LOG_VENDOR, "pixels GLX vendor: renders with EGL vendor \"%s\" (%s), "
                  "EGL %d.%d, surfaceless platform", egl.vendor_name, egl.library, egl.major,
                  egl.minor);
    else
        glmux_log(GLMUX_LOG_ERROR, "the X server cannot render GL for this display and glmux "
                  "cannot render it locally either: %s. Install Mesa's EGL vendor "
                  "(libegl-mesa0) or set GLMUX_DEBUG=warn,vendor to see the search", egl_why);
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
