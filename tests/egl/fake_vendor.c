/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: a fake EGL vendor library, built several times from this one source
 * (FAKE_NAME gives its name, FAKE_VARIANT a deliberate defect for the bad-input tests). It
 * implements just enough of EGL to be dispatched to: displays (default, FAKE_PLATFORM and
 * device displays), devices, contexts, make-current, errors, EGL_KHR_debug, four vendor
 * dispatch stubs and glGetString, whose answer names the vendor that served the call.
 * With FAKE_EGL_RECORD=FILE it appends to FILE, in __egl_Main, the GPU-selection variables it
 * saw ("main NAME VAR=value ...") and, when it returns the default display, "default NAME"
 * (the GPU-selection tests, test_egl_select.py). With FAKE_EGL_ANY_WAYLAND set it serves any
 * Wayland display and records "wayland NAME" (test_egl_wayland). The slow variant's
 * __egl_Main writes a byte to the descriptor FAKE_EGL_SLOW_FD names, then sleeps 0.8 s: a
 * load that a fork() can cut (test_egl_fork_load, test_glx_pixels_fork). The vendors that
 * FAKE_EGL_SURFACELESS names (separated by spaces) offer a surfaceless display
 * (EGL_MESA_platform_surfaceless) and the GL functions the pixels GLX vendor reads frames back
 * with (no-ops), so that the pixels vendor takes them (test_glx_pixels_fork).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egl_fake.h"
#include "fake_record.h"
#include "glvnd/libeglabi.h"

#include <GL/gl.h>

#ifndef FAKE_NAME
#error FAKE_NAME must be defined
#endif
#ifndef FAKE_VARIANT
#define FAKE_VARIANT 0
#endif
#define VARIANT_OK 0
#define VARIANT_REJECT_ABI 1
#define VARIANT_MISSING_FUNCTION 2
#define VARIANT_NO_API 3
#define VARIANT_NO_MAIN 4
#define VARIANT_MISSING_IMPORT 5
#define VARIANT_GLES_ONLY 6
#define VARIANT_SLOW 7

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

#define EXPORT __attribute__((visibility("default")))
#define MAX_DEVICES 3

struct fake_device {
    int index;
};

struct fake_display {
    int device;        /* -1: the default display */
    bool initialized;
};

struct fake_context {
    struct fake_display *display;
    bool fail_make_current;
};

static const __EGLapiExports *exports;
static __EGLvendorInfo *self;
static struct fake_device devices[MAX_DEVICES] = { { 0 }, { 1 }, { 2 } };
static int device_count = 2;
static struct fake_display displays[1 + MAX_DEVICES] = {
    { -1, false }, { 0, false }, { 1, false }, { 2, false }
};
static __thread EGLint fake_error = EGL_SUCCESS;
static __thread struct fake_context *current_context;
static __thread EGLLabelKHR thread_label;
static __thread EGLenum bound_api;
static int counters[4];
static int idx_display = -1, idx_device = -1, idx_current = -1, idx_return_device = -1;

static EGLBoolean set_error(EGLint error)
{
    fake_error = error;
    return EGL_FALSE;
}

static struct fake_display *lookup_display(EGLDisplay dpy)
{
    for (int i = 0; i < 1 + MAX_DEVICES; i++) {
        if (dpy == (EGLDisplay)&displays[i])
            return &displays[i];
    }
    return NULL;
}

/* eglGetDisplay(fake_find_token) is recognised by this vendor's findNativeDisplayPlatform. */
EXPORT const char fake_find_token[] = FAKE_NAME;

EXPORT void fake_set_device_count(int count)
{
    device_count = count < 1 ? 1 : count > MAX_DEVICES ? MAX_DEVICES : count;
}

/* exports->fetchDispatchEntry for this vendor, for tests of bogus indices. */
EXPORT void *fake_fetch(int index)
{
    return (void *)exports->fetchDispatchEntry(self, index);
}

EXPORT int fake_counter(const char *what)
{
    if (strcmp(what, "eglReleaseThread") == 0)
        return counters[0];
    if (strcmp(what, "eglDebugMessageControlKHR") == 0)
        return counters[1];
    if (strcmp(what, "setDispatchIndex") == 0)
        return counters[2];
    if (strcmp(what, "eglLabelObjectKHR") == 0)   /* object labels, not thread labels */
        return counters[3];
    return -1;
}

/* The client API libEGL last passed to this vendor's eglBindAPI on this thread (0: none). */
EXPORT EGLenum fake_bound_api(void)
{
    return bound_api;
}

/* The label this thread was given with eglLabelObjectKHR(EGL_OBJECT_THREAD_KHR). */
EXPORT void *fake_thread_label(void)
{
    return thread_label;
}

/* The winsys dispatch index libEGL gave a vendor extension function (-1: none yet). */
EXPORT int fake_dispatch_index(const char *name)
{
    if (strcmp(name, "eglFakeDisplayFAKE") == 0)
        return idx_display;
    if (strcmp(name, "eglFakeDeviceFAKE") == 0)
        return idx_device;
    if (strcmp(name, "eglFakeCurrentFAKE") == 0)
        return idx_current;
    if (strcmp(name, "eglFakeReturnDeviceFAKE") == 0)
        return idx_return_device;
    return -1;
}

/* ---- core EGL ---- */

static EGLint fake_GetError(void)
{
    EGLint e = fake_error;

    fake_error = EGL_SUCCESS;
    return e;
}

static EGLBoolean fake_Initialize(EGLDisplay dpy, EGLint *major, EGLint *minor)
{
    struct fake_display *d = lookup_display(dpy);

    if (d == NULL)
        return set_error(EGL_BAD_DISPLAY);
    __atomic_store_n(&d->initialized, true, __ATOMIC_RELAXED);
    if (major)
        *major = 1;
    if (minor)
        *minor = 5;
    return EGL_TRUE;
}

static EGLBoolean fake_Terminate(EGLDisplay dpy)
{
    struct fake_display *d = lookup_display(dpy);

    if (d == NULL)
        return set_error(EGL_BAD_DISPLAY);
    __atomic_store_n(&d->initialized, false, __ATOMIC_RELAXED);
    return EGL_TRUE;
}

static const char *fake_QueryString(EGLDisplay dpy, EGLint name)
{
    if (dpy == EGL_NO_DISPLAY) {
        if (name == EGL_EXTENSIONS)
            return "EGL_EXT_platform_base EGL_EXT_device_base EGL_EXT_device_enumeration "
                   "EGL_EXT_platform_device EGL_KHR_debug EGL_MESA_platform_gbm "
                   "EGL_EXT_platform_wayland EGL_FAKE_client_" FAKE_NAME;
        set_error(EGL_BAD_DISPLAY);
        return NULL;
    }
    if (lookup_display(dpy) == NULL) {
        set_error(EGL_BAD_DISPLAY);
        return NULL;
    }
    switch (name) {
    case EGL_VENDOR: return FAKE_NAME;
    case EGL_VERSION: return "1.5 " FAKE_NAME;
    case EGL_EXTENSIONS: return "EGL_KHR_surfaceless_context";
    case EGL_CLIENT_APIS: return "OpenGL OpenGL_ES";
    default:
        set_error(EGL_BAD_PARAMETER);
        return NULL;
    }
}

static EGLBoolean fake_ChooseConfig(EGLDisplay dpy, const EGLint *attribs, EGLConfig *configs,
                                    EGLint size, EGLint *num)
{
    (void)attribs;
    if (lookup_display(dpy) == NULL)
        return set_error(EGL_BAD_DISPLAY);
    if (num == NULL)
        return set_error(EGL_BAD_PARAMETER);
    *num = 1;
    if (configs != NULL && size > 0)
        configs[0] = (EGLConfig)(uintptr_t)1;
    return EGL_TRUE;
}

static EGLBoolean fake_GetConfigs(EGLDisplay dpy, EGLConfig *configs, EGLint size, EGLint *num)
{
    return fake_ChooseConfig(dpy, NULL, configs, size, num);
}

static EGLContext fake_CreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share,
                                     const EGLint *attribs)
{
    struct fake_display *d = lookup_display(dpy);
    struct fake_context *c;

    (void)config;
    (void)share;
    if (d == NULL) {
        set_error(EGL_BAD_DISPLAY);
        return EGL_NO_CONTEXT;
    }
    c = calloc(1, sizeof(*c));
    if (c == NULL) {
        set_error(EGL_BAD_ALLOC);
        return EGL_NO_CONTEXT;
    }
    c->display = d;
    for (const EGLint *a = attribs; a != NULL && a[0] != EGL_NONE; a += 2) {
        if (a[0] == FAKE_CREATE_CONTEXT_FAIL && a[1]) {
            free(c);
            set_error(EGL_BAD_MATCH);
            return EGL_NO_CONTEXT;
        }
        if (a[0] == FAKE_MAKE_CURRENT_FAIL)
            c->fail_make_current = a[1] != 0;
    }
    return (EGLContext)c;
}

static EGLBoolean fake_DestroyContext(EGLDisplay dpy, EGLContext ctx)
{
    if (lookup_display(dpy) == NULL)
        return set_error(EGL_BAD_DISPLAY);
    if (ctx == EGL_NO_CONTEXT)
        return set_error(EGL_BAD_CONTEXT);
    if (current_context == ctx)
        current_context = NULL;
    free(ctx);
    return EGL_TRUE;
}

static EGLBoolean fake_MakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read,
                                   EGLContext ctx)
{
    struct fake_context *c = ctx;

    (void)draw;
    (void)read;
    if (lookup_display(dpy) == NULL)
        return set_error(EGL_BAD_DISPLAY);
    if (c != NULL && c->fail_make_current)
        return set_error(EGL_BAD_ACCESS);
    current_context = c;
    return EGL_TRUE;
}

static EGLBoolean fake_ReleaseThread(void)
{
    __atomic_add_fetch(&counters[0], 1, __ATOMIC_RELAXED);
    current_context = NULL;
    return EGL_TRUE;
}

static EGLBoolean fake_true(void)
{
    return EGL_TRUE;
}

static EGLBoolean fake_QueryDevicesEXT(EGLint max, EGLDeviceEXT *out, EGLint *num)
{
    if (num == NULL)
        return set_error(EGL_BAD_PARAMETER);
    if (out == NULL) {
        *num = device_count;
        return EGL_TRUE;
    }
    *num = 0;
    for (int i = 0; i < device_count && i < max; i++)
        out[(*num)++] = (EGLDeviceEXT)&devices[i];
    return EGL_TRUE;
}

static EGLBoolean fake_QueryDisplayAttribEXT(EGLDisplay dpy, EGLint name, EGLAttrib *value)
{
    struct fake_display *d = lookup_display(dpy);

    if (d == NULL)
        return set_error(EGL_BAD_DISPLAY);
    if (name != EGL_DEVICE_EXT)
        return set_error(EGL_BAD_ATTRIBUTE);
    /* The default display sits on the last device, which enumeration lists only on request. */
    *value = (EGLAttrib)&devices[d->device < 0 ? MAX_DEVICES - 1 : d->device];
    return EGL_TRUE;
}

/* libEGL tells every vendor each eglBindAPI; the vendor keeps it per thread. */
static EGLBoolean fake_BindAPI(EGLenum api)
{
    bound_api = api;
    return EGL_TRUE;
}

static EGLint fake_DebugMessageControlKHR(EGLDEBUGPROCKHR callback, const EGLAttrib *attribs)
{
    (void)callback;
    (void)attribs;
    __atomic_add_fetch(&counters[1], 1, __ATOMIC_RELAXED);
    return EGL_SUCCESS;
}

static EGLint fake_LabelObjectKHR(EGLDisplay dpy, EGLenum type, EGLObjectKHR obj,
                                  EGLLabelKHR label)
{
    if (type == EGL_OBJECT_THREAD_KHR && dpy == EGL_NO_DISPLAY && obj == NULL)
        thread_label = label;
    else
        __atomic_add_fetch(&counters[3], 1, __ATOMIC_RELAXED);
    return EGL_SUCCESS;
}

/* ---- GL ---- */

static const GLubyte *fake_glGetString(GLenum name)
{
    if (current_context == NULL)
        return NULL;
    return (const GLubyte *)(name == GL_VENDOR ? FAKE_NAME : "fake renderer");
}

/* ---- vendor dispatch stubs and their implementations ---- */

static const char *impl_display(EGLDisplay dpy)
{
    return lookup_display(dpy) ? FAKE_NAME : NULL;
}

static const char *impl_device(EGLDeviceEXT dev)
{
    (void)dev;
    return FAKE_NAME;
}

static const char *impl_current(void)
{
    return FAKE_NAME;
}

static EGLDeviceEXT impl_return_device(EGLDisplay dpy, EGLint index)
{
    (void)dpy;
    if (index < 0 || index >= MAX_DEVICES) {
        set_error(EGL_BAD_PARAMETER);
        return EGL_NO_DEVICE_EXT;
    }
    return (EGLDeviceEXT)&devices[index];
}

static const char *stub_display(EGLDisplay dpy)
{
    __EGLvendorInfo *v;
    PFN_FAKE_DISPLAY fn;

    exports->threadInit();
    v = exports->getVendorFromDisplay(dpy);
    if (v == NULL) {
        exports->setEGLError(EGL_BAD_DISPLAY);
        return NULL;
    }
    fn = (PFN_FAKE_DISPLAY)exports->fetchDispatchEntry(v, idx_display);
    if (fn == NULL) {
        exports->setEGLError(EGL_BAD_DISPLAY);
        return NULL;
    }
    exports->setLastVendor(v);
    return fn(dpy);
}

static const char *stub_device(EGLDeviceEXT dev)
{
    __EGLvendorInfo *v;
    PFN_FAKE_DEVICE fn;

    exports->threadInit();
    v = exports->getVendorFromDevice(dev);
    fn = v ? (PFN_FAKE_DEVICE)exports->fetchDispatchEntry(v, idx_device) : NULL;
    if (fn == NULL) {
        exports->setEGLError(EGL_BAD_DEVICE_EXT);
        return NULL;
    }
    exports->setLastVendor(v);
    return fn(dev);
}

static const char *stub_current(void)
{
    __EGLvendorInfo *v;
    PFN_FAKE_CURRENT fn;

    exports->threadInit();
    v = exports->getCurrentVendor();
    fn = v ? (PFN_FAKE_CURRENT)exports->fetchDispatchEntry(v, idx_current) : NULL;
    if (fn == NULL) {
        exports->setEGLError(EGL_BAD_CONTEXT);
        return NULL;
    }
    exports->setLastVendor(v);
    return fn();
}

static EGLDeviceEXT stub_return_device(EGLDisplay dpy, EGLint index)
{
    __EGLvendorInfo *v;
    PFN_FAKE_RETURN_DEVICE fn;
    EGLDeviceEXT dev;

    exports->threadInit();
    v = exports->getVendorFromDisplay(dpy);
    fn = v ? (PFN_FAKE_RETURN_DEVICE)exports->fetchDispatchEntry(v, idx_return_device) : NULL;
    if (fn == NULL) {
        exports->setEGLError(EGL_BAD_DISPLAY);
        return EGL_NO_DEVICE_EXT;
    }
    exports->setLastVendor(v);
    dev = fn(dpy, index);
    exports->setVendorForDevice(dev, v);
    return dev;
}

/* ---- the vendor ABI ---- */

static const struct {
    const char *name;
    void *impl;
    void *stub;
} procs[] = {
    { "eglInitialize", (void *)fake_Initialize, NULL },
    { "eglTerminate", (void *)fake_Terminate, NULL },
    { "eglGetError", (void *)fake_GetError, NULL },
    { "eglQueryString", (void *)fake_QueryString, NULL },
    { "eglChooseConfig", (void *)fake_ChooseConfig, NULL },
    { "eglGetConfigs", (void *)fake_GetConfigs, NULL },
    { "eglCreateContext", (void *)fake_CreateContext, NULL },
    { "eglDestroyContext", (void *)fake_DestroyContext, NULL },
    { "eglMakeCurrent", (void *)fake_MakeCurrent, NULL },
    { "eglReleaseThread", (void *)fake_ReleaseThread, NULL },
    { "eglBindAPI", (void *)fake_BindAPI, NULL },
    { "eglQueryDevicesEXT", (void *)fake_QueryDevicesEXT, NULL },
    { "eglQueryDisplayAttribEXT", (void *)fake_QueryDisplayAttribEXT, NULL },
    { "eglDebugMessageControlKHR", (void *)fake_DebugMessageControlKHR, NULL },
    { "eglLabelObjectKHR", (void *)fake_LabelObjectKHR, NULL },
    { "glGetString", (void *)fake_glGetString, NULL },
    { "eglFakeDisplayFAKE", (void *)impl_display, (void *)stub_display },
    { "eglFakeDeviceFAKE", (void *)impl_device, (void *)stub_device },
    { "eglFakeCurrentFAKE", (void *)impl_current, (void *)stub_current },
    { "eglFakeReturnDeviceFAKE", (void *)impl_return_device, (void *)stub_return_device },
};

/* Required functions the fake does not really implement: all succeed. */
static const char *const trivial[] = {
    "eglCopyBuffers", "eglCreatePbufferSurface", "eglCreatePixmapSurface",
    "eglCreateWindowSurface", "eglDestroySurface", "eglGetConfigAttrib", "eglQueryContext",
    "eglQuerySurface", "eglSwapBuffers", "eglWaitGL", "eglWaitNative", "eglBindTexImage",
    "eglReleaseTexImage", "eglSurfaceAttrib", "eglSwapInterval",
    "eglCreatePbufferFromClientBuffer", "eglWaitClient",
};

/* Whether FAKE_EGL_SURFACELESS names this vendor. */
static bool surfaceless(void)
{
    const char *s = getenv("FAKE_EGL_SURFACELESS");
    size_t len;

    while (s != NULL && *(s += strspn(s, " ")) != '\0') {
        len = strcspn(s, " ");
        if (len == strlen(FAKE_NAME) && strncmp(s, FAKE_NAME, len) == 0)
            return true;
        s += len;
    }
    return false;
}

/* What the pixels vendor reads a frame back with (pixels_egl.c). */
static const char *const pixels_gl[] = {
    "glReadPixels", "glGetIntegerv", "glBindFramebuffer", "glBindBuffer", "glReadBuffer",
    "glPixelStorei", "glFinish", "glFlush",
};

static void *fake_getProcAddress(const char *name)
{
    if (FAKE_VARIANT == VARIANT_MISSING_FUNCTION && strcmp(name, "eglSwapBuffers") == 0)
        return NULL;
    for (size_t i = 0; i < sizeof(pixels_gl) / sizeof(pixels_gl[0]) && surfaceless(); i++) {
        if (strcmp(name, pixels_gl[i]) == 0)
            return (void *)fake_true;
    }
    for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
        if (strcmp(name, procs[i].name) == 0)
            return procs[i].impl;
    }
    for (size_t i = 0; i < sizeof(trivial) / sizeof(trivial[0]); i++) {
        if (strcmp(name, trivial[i]) == 0)
            return (void *)fake_true;
    }
    return NULL;
}

static void *fake_getDispatchAddress(const char *name)
{
    for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
        if (strcmp(name, procs[i].name) == 0)
            return procs[i].stub;
    }
    return NULL;
}

static void fake_setDispatchIndex(const char *name, int index)
{
    __atomic_add_fetch(&counters[2], 1, __ATOMIC_RELAXED);
    if (strcmp(name, "eglFakeDisplayFAKE") == 0)
        idx_display = index;
    else if (strcmp(name, "eglFakeDeviceFAKE") == 0)
        idx_device = index;
    else if (strcmp(name, "eglFakeCurrentFAKE") == 0)
        idx_current = index;
    else if (strcmp(name, "eglFakeReturnDeviceFAKE") == 0)
        idx_return_device = index;
}

/* Appends one line to $FAKE_EGL_RECORD; what follows the vendor's name is up to the caller. */
static void record(const char *what, bool with_env)
{
    static const char *const vars[] = {
        "DRI_PRIME", "__NV_PRIME_RENDER_OFFLOAD", "__NV_PRIME_RENDER_OFFLOAD_PROVIDER",
        "__GLX_VENDOR_LIBRARY_NAME", "__VK_LAYER_NV_optimus", "GLMUX_GPU", NULL,
    };

    glmux_fake_record("FAKE_EGL_RECORD", FAKE_NAME, what, with_env ? vars : NULL);
}

static EGLDisplay fake_getPlatformDisplay(EGLenum platform, void *native,
                                          const EGLAttrib *attribs)
{
    if (platform == EGL_NONE) {
        record("default", false);
        return (EGLDisplay)&displays[0];
    }
    if (platform == FAKE_PLATFORM) {
        if (native != NULL && strcmp((const char *)native, FAKE_NAME) == 0) {
            /* FAKE_DEVICE_INDEX i: the display of device i instead of the default one. */
            for (const EGLAttrib *a = attribs; a != NULL && a[0] != EGL_NONE; a += 2) {
                if (a[0] == FAKE_DEVICE_INDEX && a[1] >= 0 && a[1] < device_count)
                    return (EGLDisplay)&displays[1 + a[1]];
                if (a[0] == FAKE_RETURN_DISPLAY)
                    return (EGLDisplay)a[1];
            }
            return (EGLDisplay)&displays[0];
        }
        /* Not ours: no error, so that libEGL reports EGL_SUCCESS if nobody claims it. */
        return EGL_NO_DISPLAY;
    }
    if (platform == EGL_PLATFORM_SURFACELESS_MESA && surfaceless())
        return (EGLDisplay)&displays[0];
    if (platform == EGL_PLATFORM_WAYLAND_KHR && getenv("FAKE_EGL_ANY_WAYLAND") != NULL) {
        /* test_egl_wayland: a real wl_display (never dereferenced); the first vendor asked
         * serves it, so the order libEGL asks in is what the test sees. */
        record("wayland", false);
        return (EGLDisplay)&displays[0];
    }
    if (platform == EGL_PLATFORM_GBM_KHR || platform == EGL_PLATFORM_WAYLAND_KHR) {
        /* A test's stand-in for a gbm_device / wl_display: { first word, vendor name }. */
        const struct fake_native *n = native;

        if (n != NULL && strcmp(n->vendor, FAKE_NAME) == 0)
            return (EGLDisplay)&displays[0];
        if (n != NULL)
            return EGL_NO_DISPLAY;
    }
    if (platform == EGL_PLATFORM_DEVICE_EXT) {
        for (int i = 0; i < device_count; i++) {
            if (native == (void *)&devices[i])
                return (EGLDisplay)&displays[1 + i];
        }
        set_error(EGL_BAD_PARAMETER);
        return EGL_NO_DISPLAY;
    }
    set_error(EGL_BAD_PARAMETER);
    return EGL_NO_DISPLAY;
}

static EGLenum fake_findNativeDisplayPlatform(void *native)
{
    /* Never dereference: only our own token is recognised. */
    return native == (void *)fake_find_token ? FAKE_PLATFORM : EGL_NONE;
}

static EGLBoolean fake_getSupportsAPI(EGLenum api)
{
    if (FAKE_VARIANT == VARIANT_NO_API)
        return EGL_FALSE;
    if (FAKE_VARIANT == VARIANT_GLES_ONLY)
        return api == EGL_OPENGL_ES_API;
    return api == EGL_OPENGL_API || api == EGL_OPENGL_ES_API;
}

static const char *fake_getVendorString(int name)
{
    return name == __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS ? "EGL_FAKE_platform_" FAKE_NAME
                                                            : NULL;
}

#if FAKE_VARIANT == VARIANT_NO_MAIN
#define MAIN_NAME fake_not_main
#else
#define MAIN_NAME __egl_Main
#endif

EXPORT EGLBoolean MAIN_NAME(uint32_t version, const __EGLapiExports *ex,
                            __EGLvendorInfo *vendor, __EGLapiImports *imports)
{
    if (EGL_VENDOR_ABI_GET_MAJOR_VERSION(version) != 0 || FAKE_VARIANT == VARIANT_REJECT_ABI)
        return EGL_FALSE;
    exports = ex;
    self = vendor;
    record("main", true);
    if (FAKE_VARIANT == VARIANT_SLOW) {
        const char *fd = getenv("FAKE_EGL_SLOW_FD");

        if (fd != NULL)
            (void)!write(atoi(fd), "m", 1);
        usleep(800 * 1000);
    }
    imports->getPlatformDisplay = fake_getPlatformDisplay;
    imports->getSupportsAPI = fake_getSupportsAPI;
    imports->getVendorString = fake_getVendorString;
    imports->getProcAddress = fake_getProcAddress;
    imports->getDispatchAddress =
        FAKE_VARIANT == VARIANT_MISSING_IMPORT ? NULL : fake_getDispatchAddress;
    imports->setDispatchIndex = fake_setDispatchIndex;
    imports->findNativeDisplayPlatform = fake_findNativeDisplayPlatform;
    return EGL_TRUE;
}
