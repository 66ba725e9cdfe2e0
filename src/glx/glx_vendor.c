/* SPDX-License-Identifier: MIT */
/*
 * glmux: loading GLX vendor libraries (GLX vendor ABI 1.0) and the exports table they call.
 *
 * A vendor called NAME is the GLX library its manifest in the vendor directory names (an
 * absolute path, possibly inside the vendor directory; glx_selector.c), else libGLX_NAME.so.0,
 * found through the dynamic linker's search path. A NAME itself, which may come from the X
 * server or an environment variable, never contains '/'. Nothing is set in the environment for
 * it: the vendor reads its own variables (the GPU selector only chose it). Loading it: the
 * shared vendor loader (select/vendor_load.h) opens it and calls __glx_Main (a refusal closes
 * the library again); then it gets a vendor id and a GL dispatch table, and libGLX checks
 * the four required imports and the 32 required GLX functions, then tells it every dispatch index
 * handed out so far. Vendors are unique by dlopen handle, so one library reached under two names
 * (Debian's libGLX_indirect.so.0 -> libGLX_mesa.so.0, or a manifest path and a soname) is one
 * vendor and __glx_Main runs once. A name that failed to load is remembered and reported
 * once; later lookups fail at once without another dlopen.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glx/glx_api.h"
#include "glx/glx_entry.h"
#include "glx/glx_index.h"
#include "glx/glx_lock.h"
#include "glx/glx_mapping.h"
#include "glx/glx_screen.h"
#include "glx/glx_selector.h"
#include "glx/glx_thread.h"
#include "glx/glx_vendor.h"
#include "select/vendor_load.h"
#include "util/lifecycle.h"
#include "util/log.h"

/* A name a vendor was looked up under: loaded (vendor set) or failed (vendor NULL, and why). */
struct vendor_name {
    struct vendor_name *next;
    glmux_glx_vendor *vendor;
    char *why;                      /* after name, in the same allocation; "" when loaded */
    char name[];
};

static glmux_glx_vendor *vendors;
static struct vendor_name *names;

glmux_glx_vendor *glmux_glx_vendor_first(void)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    return vendors;
}

static void remember(const char *name, glmux_glx_vendor *vendor, const char *why)
{
    size_t len = strlen(name), why_len = strlen(why);
    struct vendor_name *n = malloc(sizeof(*n) + len + 1 + why_len + 1);

    if (n == NULL)
        return;
    memcpy(n->name, name, len + 1);
    n->why = n->name + len + 1;
    memcpy(n->why, why, why_len + 1);
    n->vendor = vendor;
    n->next = names;
    names = n;
}

static void *proc_lookup(const char *name, void *vendor)
{
    glmux_glx_vendor *v = vendor;

    return v->imports.getProcAddress((const GLubyte *)name);
}

static const char *load_functions(glmux_glx_vendor *v)
{
    void *(*gpa)(const GLubyte *) = v->imports.getProcAddress;

#define GLMUX_GLX_FN_LOAD(ret, fname, params, req)                                    \
    v->fns.fname = (ret(*) params)gpa((const GLubyte *)"glX" #fname);                \
    if ((req) && v->fns.fname == NULL)                                                \
        return "glX" #fname;
    GLMUX_GLX_VENDOR_FUNCTIONS(GLMUX_GLX_FN_LOAD)
#undef GLMUX_GLX_FN_LOAD
    return NULL;
}

static void unload(glmux_glx_vendor *v)
{
    if (v->gl_table != NULL)
        __glDispatchDestroyTable(v->gl_table);
    glmux_vendor_unload(v->handle);
    glmux_lookup_clear(&v->dyn);
    free(v->name);
    free(v);
}

/* What the loader's two callbacks need (src/select/vendor_load.h). */
struct load_request {
    glmux_glx_vendor *v;        /* the new vendor's record, handed to __glx_Main */
    glmux_glx_vendor *known;    /* set by is_loaded: the vendor with the same library */
};

static bool is_loaded(void *handle, void *arg)
{
    struct load_request *r = arg;

    for (glmux_glx_vendor *o = vendors; o != NULL; o = o->next) {
        if (o->handle == handle) {
            r->known = o;
            return true;
        }
    }
    return false;
}

static bool call_main(void (*entry)(void), uint32_t version, void *arg)
{
    struct load_request *r = arg;

    return ((__PFNGLXMAINPROC)entry)(version, &glmux_glx_exports, r->v, &r->v->imports);
}

/*
 * Loads the vendor's library through the shared loader, which runs __glx_Main: its manifest's
 * GLX library, else libGLX_<name>.so.0 (also when the manifest's library cannot be opened).
 */
static enum glmux_vendor_load_result open_library(const char *name, const char **file,
                                                  char *soname, size_t soname_size,
                                                  struct load_request *r, char *why,
                                                  size_t why_size)
{
    struct glmux_vendor_load req = {
        .abi = "GLX", .entry = __GLX_MAIN_PROTO_NAME, .abi_version = GLX_VENDOR_ABI_VERSION,
        .known = is_loaded, .call = call_main, .arg = r,
    };
    const char *manifest_lib = glmux_glx_selector_library(name);
    enum glmux_vendor_load_result res;

    snprintf(soname, soname_size, "libGLX_%s.so.0", name);
    if (manifest_lib != NULL) {
        *file = req.file = manifest_lib;
        res = glmux_vendor_load(&req, &r->v->handle, why, why_size);
        if (res != GLMUX_VENDOR_NOT_FOUND)
            return res;
        glmux_log(GLMUX_LOG_WARN, "GLX vendor \"%s\": its manifest's library %s; trying %s "
                  "(check the manifest with `glmux check`)", name, why, soname);
    }
    *file = req.file = soname;
    return glmux_vendor_load(&req, &r->v->handle, why, why_size);
}

/*
 * Opens the vendor called name and runs its __glx_Main: a vendor not yet in the list (*known
 * false) or the loaded one with the same library (*known true); on failure NULL and *why. It
 * calls out of libGLX (glmux_glx_call_out_begin): it only reads libGLX's state and builds the
 * new vendor aside.
 */
static glmux_glx_vendor *open_vendor(const char *name, const char **file, char *soname,
                                     size_t soname_size, bool *known, char *why, size_t why_size)
{
    struct load_request r = { 0 };
    glmux_glx_vendor *v;
    const char *missing;

    v = calloc(1, sizeof(*v));
    if (v == NULL || (v->name = strdup(name)) == NULL) {
        free(v);
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    r.v = v;
    switch (open_library(name, file, soname, soname_size, &r, why, why_size)) {
    case GLMUX_VENDOR_LOADED:
        break;
    case GLMUX_VENDOR_KNOWN:
        glmux_log(GLMUX_LOG_VENDOR, "%s is vendor \"%s\", already loaded", *file, r.known->name);
        unload(v);
        *known = true;
        return r.known;
    default:
        unload(v);
        return NULL;
    }
    v->vendor_id = __glDispatchNewVendorID();
    v->gl_table = __glDispatchCreateTable(proc_lookup, v);
    if (v->gl_table == NULL) {
        snprintf(why, why_size, "cannot create its GL dispatch table");
        unload(v);
        return NULL;
    }
    if (v->imports.isScreenSupported == NULL || v->imports.getProcAddress == NULL ||
        v->imports.getDispatchAddress == NULL || v->imports.setDispatchIndex == NULL) {
        snprintf(why, why_size, "%s did not fill in isScreenSupported, getProcAddress, "
                 "getDispatchAddress and setDispatchIndex", *file);
        unload(v);
        return NULL;
    }
    if ((missing = load_functions(v)) != NULL) {
        snprintf(why, why_size, "%s lacks the required function %s", *file, missing);
        unload(v);
        return NULL;
    }
    v->has_patch = GLMUX_WINSYS_PATCH_SETUP(&v->patch_cb, v->imports);
    return v;
}

/*
 * Loads the vendor called name; on failure sets *why (static or dlerror text). override: a
 * libglvnd variable named it (the log says so).
 */
static glmux_glx_vendor *load(const char *name, bool override, char *why, size_t why_size)
{
    char soname[256];
    const char *file = soname;
    glmux_glx_vendor *v;
    bool known = false;

    if (strchr(name, '/') != NULL || strlen(name) > 200) {
        snprintf(why, why_size, "a vendor name may not contain '/' (or exceed 200 bytes)");
        return NULL;
    }
    glmux_glx_call_out_begin();
    v = open_vendor(name, &file, soname, sizeof(soname), &known, why, why_size);
    glmux_glx_call_out_end();
    if (v == NULL || known)
        return v;
    v->next = vendors;
    vendors = v;
    glmux_log(GLMUX_LOG_VENDOR, "loaded GLX vendor \"%s\" (%s, vendor id %d%s)", name, file,
              v->vendor_id, override ? ", named by a libglvnd variable" : "");
    glmux_glx_index_vendor_loaded(v);
    glmux_glx_entry_vendor_loaded(v);
    return v;
}

glmux_glx_vendor *glmux_glx_vendor_load(const char *name, bool override, char *failed,
                                        size_t failed_size)
{
    glmux_glx_vendor *v = NULL;
    struct vendor_name *n;
    char why[512];

    if (failed_size > 0)
        failed[0] = '\0';
    if (name == NULL || *name == '\0')
        return NULL;
    glmux_glx_lock_acquire();
    for (n = names; n != NULL; n = n->next) {
        if (strcmp(n->name, name) == 0)
            break;
    }
    if (n != NULL) {
        v = n->vendor;
        if (v == NULL && failed_size > 0)
            snprintf(failed, failed_size, "%s", n->why);
    } else {
        why[0] = '\0';
        v = load(name, override, why, sizeof(why));
        remember(name, v, v == NULL ? why : "");
        if (v == NULL && failed_size > 0)
            snprintf(failed, failed_size, "%s", why);
        if (v == NULL)
            glmux_log(strcmp(name, "system") == 0 ? GLMUX_LOG_VENDOR : GLMUX_LOG_WARN,
                      "cannot use GLX vendor \"%s\": %s (reported once; "
                      "GLMUX_DEBUG=warn,vendor shows the whole search)", GLMUX_LOG_CUT(name),
                      why);
    }
    glmux_glx_lock_release();
    return v;
}

__GLXextFuncPtr glmux_glx_vendor_fetch(glmux_glx_vendor *v, int index)
{
    const char *name;

    if (v == NULL || index < 0)
        return NULL;
    name = glmux_glx_index_name(index);     /* no lock; stable until libGLX is unloaded */
    return (__GLXextFuncPtr)glmux_lookup_fetch(&v->dyn, &glmux_glx_dyn_lock, index, name,
                                               proc_lookup, v);
}

/* Teardown: unpatches and unloads every vendor (with its dispatch table). */
static void unload_all(void)
{
    while (vendors != NULL) {
        glmux_glx_vendor *v = vendors;

        vendors = v->next;
        __glDispatchForceUnpatch(v->vendor_id);
        unload(v);
    }
    while (names != NULL) {
        struct vendor_name *n = names;

        names = n->next;
        free(n);
    }
}

GLMUX_LIFECYCLE_STEP(glx_vendors, GLMUX_GLX_ORDER_VENDORS, .teardown = unload_all);

/* ---- the exports table ---- */

static __GLXvendorInfo *export_get_dyn_dispatch(Display *dpy, const int screen)
{
    glmux_glx_entry();
    return glmux_glx_vendor_for_screen(dpy, screen);
}

static __GLXvendorInfo *export_get_current_dyn_dispatch(void)
{
    return glmux_glx_thread_vendor();
}

/* The add, remove and look-up exports of one handle map (glx_mapping.c; drawables:
 * glx_screen.c). */
#define MAP_EXPORTS(Kind, kind)                                                            \
    .addVendor##Kind##Mapping = glmux_glx_##kind##_add,                                    \
    .removeVendor##Kind##Mapping = glmux_glx_##kind##_remove,                              \
    .vendorFrom##Kind = glmux_glx_vendor_from_##kind

const __GLXapiExports glmux_glx_exports = {
    .getDynDispatch = export_get_dyn_dispatch,
    .getCurrentDynDispatch = export_get_current_dyn_dispatch,
    .fetchDispatchEntry = glmux_glx_vendor_fetch,
    .getCurrentContext = glmux_glx_GetCurrentContext,   /* not the export: no layer sees it */
    MAP_EXPORTS(Context, context),
    MAP_EXPORTS(FBConfig, fbconfig),
    MAP_EXPORTS(Drawable, drawable),
};
