/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: loading one vendor library. The shared vendor loader (select/vendor_load.h)
 * opens it, skips a handle that is already loaded and runs __egl_Main with EGL vendor ABI 0.2
 * (a refusal closes the library again); this file then checks what the ABI requires
 * (imports, 27 EGL functions, at least one client API), reads the vendor's capabilities from
 * its client extensions, creates its GL dispatch table and tells it every winsys index.
 * Every rejection says why under GLMUX_DEBUG=vendor.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "maps.h"
#include "select/vendor_load.h"
#include "util/log.h"
#include "vendor.h"

/* Functions a vendor must implement (looked up through its getProcAddress). */
static const int required[] = {
    GLMUX_EGL_IDX_Initialize, GLMUX_EGL_IDX_ChooseConfig, GLMUX_EGL_IDX_CopyBuffers,
    GLMUX_EGL_IDX_CreateContext, GLMUX_EGL_IDX_CreatePbufferSurface,
    GLMUX_EGL_IDX_CreatePixmapSurface, GLMUX_EGL_IDX_CreateWindowSurface,
    GLMUX_EGL_IDX_DestroyContext, GLMUX_EGL_IDX_DestroySurface, GLMUX_EGL_IDX_GetConfigAttrib,
    GLMUX_EGL_IDX_GetConfigs, GLMUX_EGL_IDX_MakeCurrent, GLMUX_EGL_IDX_QueryContext,
    GLMUX_EGL_IDX_QueryString, GLMUX_EGL_IDX_QuerySurface, GLMUX_EGL_IDX_SwapBuffers,
    GLMUX_EGL_IDX_Terminate, GLMUX_EGL_IDX_WaitGL, GLMUX_EGL_IDX_WaitNative,
    GLMUX_EGL_IDX_BindTexImage, GLMUX_EGL_IDX_ReleaseTexImage, GLMUX_EGL_IDX_SurfaceAttrib,
    GLMUX_EGL_IDX_SwapInterval, GLMUX_EGL_IDX_CreatePbufferFromClientBuffer,
    GLMUX_EGL_IDX_ReleaseThread, GLMUX_EGL_IDX_WaitClient, GLMUX_EGL_IDX_GetError,
};

static void *gl_lookup(const char *name, void *param)
{
    glmux_egl_vendor *v = param;

    return v->imports.getProcAddress(name);
}

static void read_capabilities(glmux_egl_vendor *v)
{
    PFNEGLQUERYSTRINGPROC query = (PFNEGLQUERYSTRINGPROC)v->fn[GLMUX_EGL_IDX_QueryString];
    const char *client = query(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    const char *platform = v->imports.getVendorString
        ? v->imports.getVendorString(__EGL_VENDOR_STRING_PLATFORM_EXTENSIONS) : NULL;

#define HAS(e) (glmux_words_has_str(client, e) || glmux_words_has_str(platform, e))
    v->supports_device = (HAS("EGL_EXT_device_base") || HAS("EGL_EXT_device_enumeration")) &&
                         v->fn[GLMUX_EGL_IDX_QueryDevicesEXT] != NULL;
    v->supports_platform_device = v->supports_device && HAS("EGL_EXT_platform_device");
    v->supports_gbm = HAS("EGL_MESA_platform_gbm") || HAS("EGL_KHR_platform_gbm");
    v->supports_wayland = HAS("EGL_EXT_platform_wayland") || HAS("EGL_KHR_platform_wayland");
    v->supports_x11 = HAS("EGL_EXT_platform_x11") || HAS("EGL_KHR_platform_x11");
#undef HAS
}

/* Checks what __egl_Main filled in and looks the vendor's functions up. */
static bool check_vendor(glmux_egl_vendor *v, const char *library)
{
    const __EGLapiImports *im = &v->imports;
    const char *missing = NULL;

    if (im->getPlatformDisplay == NULL)
        missing = "getPlatformDisplay";
    else if (im->getSupportsAPI == NULL)
        missing = "getSupportsAPI";
    else if (im->getProcAddress == NULL)
        missing = "getProcAddress";
    else if (im->getDispatchAddress == NULL)
        missing = "getDispatchAddress";
    else if (im->setDispatchIndex == NULL)
        missing = "setDispatchIndex";
    if (missing != NULL) {
        glmux_log(GLMUX_LOG_VENDOR, "rejecting EGL vendor %s: its __egl_Main left the required "
                  "import %s NULL", library, missing);
        return false;
    }
    for (int i = 0; i < GLMUX_EGL_IDX_COUNT; i++)
        v->fn[i] = (void (*)(void))im->getProcAddress(glmux_egl_winsys_name(i));
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
        if (v->fn[required[i]] == NULL) {
            glmux_log(GLMUX_LOG_VENDOR, "rejecting EGL vendor %s: it does not implement the "
                      "required function %s", library, glmux_egl_winsys_name(required[i]));
            return false;
        }
    }
    v->query_display_attrib = (PFNEGLQUERYDISPLAYATTRIBKHRPROC)
        (v->fn[GLMUX_EGL_IDX_QueryDisplayAttribKHR] ? v->fn[GLMUX_EGL_IDX_QueryDisplayAttribKHR]
         : v->fn[GLMUX_EGL_IDX_QueryDisplayAttribEXT] ? v->fn[GLMUX_EGL_IDX_QueryDisplayAttribEXT]
         : v->fn[GLMUX_EGL_IDX_QueryDisplayAttribNV]);
    v->supports_gl = im->getSupportsAPI(EGL_OPENGL_API) != EGL_FALSE;
    v->supports_gles = im->getSupportsAPI(EGL_OPENGL_ES_API) != EGL_FALSE;
    if (!v->supports_gl && !v->supports_gles) {
        glmux_log(GLMUX_LOG_VENDOR, "rejecting EGL vendor %s: it supports neither "
                  "EGL_OPENGL_API nor EGL_OPENGL_ES_API", library);
        return false;
    }
    return true;
}

/*
 * The category of "a manifest names a library that is no EGL vendor": a warning at the default
 * level, since a vendor the administrator installed is missing (libglvnd says nothing), for the
 * first 8 such libraries of the process; the others under "vendor" only.
 */
static unsigned unusable_library(void)
{
    static unsigned said;

    return __atomic_fetch_add(&said, 1, __ATOMIC_RELAXED) < 8 ? GLMUX_LOG_WARN | GLMUX_LOG_VENDOR
                                                              : GLMUX_LOG_VENDOR;
}

/* What the loader's two callbacks need (src/select/vendor_load.h). */
struct load_request {
    glmux_egl_vendor *loaded;   /* the vendors loaded so far */
    glmux_egl_vendor *v;        /* the new vendor's record, handed to __egl_Main */
    const char *library;
};

static bool is_loaded(void *handle, void *arg)
{
    struct load_request *r = arg;

    for (glmux_egl_vendor *o = r->loaded; o != NULL; o = o->next) {
        if (o->handle == handle) {
            glmux_log(GLMUX_LOG_VENDOR, "skipping %s: it is the library %s already loaded "
                      "from %s", r->library, o->library, o->manifest);
            return true;
        }
    }
    return false;
}

static bool call_main(void (*entry)(void), uint32_t version, void *arg)
{
    struct load_request *r = arg;

    return ((__PFNEGLMAINPROC)entry)(version, &glmux_egl_exports, r->v, &r->v->imports);
}

/* A record that is not kept: no longer the caller's, then freed (a child forked in between
 * keeps it, which is the smaller harm than freeing it twice). */
static glmux_egl_vendor *drop(glmux_egl_vendor *v, glmux_egl_vendor **record)
{
    __atomic_store_n(record, NULL, __ATOMIC_RELEASE);
    glmux_egl_vendor_free(v);
    return NULL;
}

glmux_egl_vendor *glmux_egl_vendor_load(const char *library, const char *manifest,
                                        glmux_egl_vendor *loaded, glmux_egl_vendor **record)
{
    struct load_request r = { .loaded = loaded, .library = library };
    struct glmux_vendor_load req = {
        .file = library, .abi = "EGL", .entry = __EGL_MAIN_PROTO_NAME,
        .abi_version = EGL_VENDOR_ABI_VERSION, .known = is_loaded, .call = call_main, .arg = &r,
    };
    glmux_egl_vendor *v;
    char why[512];

    glmux_log(GLMUX_LOG_VENDOR, "trying EGL vendor library %s (from %s)", library, manifest);
    v = calloc(1, sizeof(*v));
    if (v == NULL || (v->library = strdup(library)) == NULL ||
        (v->manifest = strdup(manifest)) == NULL) {
        glmux_log(GLMUX_LOG_ERROR, "out of memory loading EGL vendor %s", library);
        if (v != NULL) {
            free(v->library);
            free(v);
        }
        return NULL;
    }
    pthread_mutex_init(&v->dyn_lock, NULL);
    __atomic_store_n(record, v, __ATOMIC_RELEASE);
    r.v = v;
    switch (glmux_vendor_load(&req, &v->handle, why, sizeof(why))) {
    case GLMUX_VENDOR_LOADED:
        break;
    case GLMUX_VENDOR_REFUSED:
        glmux_log(GLMUX_LOG_VENDOR, "rejecting EGL vendor %s", why);
        return drop(v, record);
    case GLMUX_VENDOR_NOT_FOUND:
    case GLMUX_VENDOR_NO_ENTRY:
        glmux_log(unusable_library(), "EGL vendor library %s; vendor skipped (glmux check %s)",
                  why, manifest);
        return drop(v, record);
    default:    /* known: is_loaded said so */
        return drop(v, record);
    }
    if (!check_vendor(v, library)) {
        return drop(v, record);
    }
    read_capabilities(v);
    v->patch_supported = GLMUX_WINSYS_PATCH_SETUP(&v->patch_cb, v->imports);
    v->vendor_id = __glDispatchNewVendorID();
    v->gl_table = __glDispatchCreateTable(gl_lookup, v);
    if (v->gl_table == NULL) {
        glmux_log(GLMUX_LOG_VENDOR, "rejecting EGL vendor %s: cannot create its GL dispatch "
                  "table", library);
        return drop(v, record);
    }
    for (int i = 0, n = glmux_egl_winsys_count(); i < n; i++)
        v->imports.setDispatchIndex(glmux_egl_winsys_name(i), i);
    glmux_log(GLMUX_LOG_VENDOR, "loaded EGL vendor %s: GL %s, GLES %s, devices %s, "
              "platforms:%s%s%s%s", library, v->supports_gl ? "yes" : "no",
              v->supports_gles ? "yes" : "no", v->supports_device ? "yes" : "no",
              v->supports_platform_device ? " device" : "", v->supports_gbm ? " gbm" : "",
              v->supports_wayland ? " wayland" : "", v->supports_x11 ? " x11" : "");
    return v;
}

void glmux_egl_vendor_free(glmux_egl_vendor *v)
{
    if (v == NULL)
        return;
    if (v->patch_supported)
        __glDispatchForceUnpatch(v->vendor_id);
    if (v->gl_table != NULL)
        __glDispatchDestroyTable(v->gl_table);
    if (v->handle != NULL)
        glmux_vendor_unload(v->handle);
    pthread_mutex_destroy(&v->dyn_lock);
    glmux_lookup_clear(&v->dyn);
    free(v->library);
    free(v->manifest);
    free(v);
}

void (*glmux_egl_vendor_fetch(glmux_egl_vendor *v, int index))(void)
{
    if (v == NULL || index < 0)
        return NULL;
    if (index < GLMUX_EGL_IDX_COUNT)
        return v->fn[index];
    if (index >= glmux_egl_winsys_count())
        return NULL;   /* never handed out: a vendor bug, not a reason to allocate */
    return (void (*)(void))glmux_lookup_fetch(&v->dyn, &v->dyn_lock, index - GLMUX_EGL_IDX_COUNT,
                                              glmux_egl_winsys_name(index), gl_lookup, v);
}
