/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the calling thread's current context and API. eglMakeCurrent keeps
 * libGLdispatch and the vendors in step: a switch within one vendor only calls the vendor, a
 * switch between vendors releases the old one first (libGLdispatch then installs the new
 * vendor's table), and a thread with a GLX context current gets EGL_BAD_ACCESS. Also
 * eglReleaseThread, eglBindAPI/eglQueryAPI, eglGetCurrent*, eglWait* and eglGetError.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "current.h"
#include "debug.h"
#include "discovery.h"
#include "glmux_egl_impl.h"
#include "maps.h"
#include "state.h"
#include "vendor.h"
#include "util/log.h"

void glmux_egl_current_destroyed(__GLdispatchThreadState *state)
{
    /* The thread exited (or this is a forked child); libGLdispatch already dropped it. */
    free(state);
}

void glmux_egl_current_drop(void)
{
    struct glmux_egl_current *cur = glmux_egl_current_get();

    if (cur == NULL)
        return;
    __glDispatchLoseCurrent();
    free(cur);
}

static void set_current(struct glmux_egl_current *cur, EGLDisplay dpy, EGLSurface draw,
                        EGLSurface read, EGLContext ctx)
{
    cur->display = dpy;
    cur->draw = draw;
    cur->read = read;
    cur->context = ctx;
}

static EGLBoolean vendor_make_current(glmux_egl_vendor *v, EGLDisplay dpy, EGLSurface draw,
                                      EGLSurface read, EGLContext ctx)
{
    glmux_egl_set_last_vendor(v);
    return ((PFNEGLMAKECURRENTPROC)v->fn[GLMUX_EGL_IDX_MakeCurrent])(dpy, draw, read, ctx);
}

/* Releases the current context in its vendor and in libGLdispatch. */
static EGLBoolean lose_current(struct glmux_egl_current *cur)
{
    if (!vendor_make_current(cur->vendor, cur->display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                             EGL_NO_CONTEXT))
        return EGL_FALSE;
    __glDispatchLoseCurrent();
    free(cur);
    return EGL_TRUE;
}

/* Makes ctx of vendor v current on a thread that has no current context. */
static EGLBoolean make_current_new(glmux_egl_vendor *v, EGLDisplay dpy, EGLSurface draw,
                                   EGLSurface read, EGLContext ctx)
{
    struct glmux_egl_current *cur =
        (struct glmux_egl_current *)glmux_winsys_record_new(sizeof(*cur));

    if (cur == NULL) {
        glmux_egl_report(EGL_BAD_ALLOC, "eglMakeCurrent", EGL_DEBUG_MSG_CRITICAL_KHR,
                         "out of memory");
        return EGL_FALSE;
    }
    cur->vendor = v;
    if (!__glDispatchMakeCurrent(&cur->base, v->gl_table, v->vendor_id,
                                 v->patch_supported ? &v->patch_cb : NULL)) {
        free(cur);
        glmux_egl_error(EGL_BAD_ACCESS, "eglMakeCurrent", "libGLdispatch refused to switch "
                        "to vendor %s (another vendor owns patched entry points; try "
                        "__GLVND_DISALLOW_PATCHING=1)", v->library);
        return EGL_FALSE;
    }
    if (!vendor_make_current(v, dpy, draw, read, ctx)) {
        __glDispatchLoseCurrent();
        free(cur);
        return EGL_FALSE;
    }
    set_current(cur, dpy, draw, read, ctx);
    return EGL_TRUE;
}

/*
 * The hot path of a context switch (docs/performance.md): the thread record is looked up once,
 * when the vendor is told it answers (vendor_make_current), instead of being cleared by the
 * prologue and set again; and the current display's vendor comes from the current record, not
 * the display map (a display keeps its vendor until libEGL is unloaded).
 */
EGLBoolean EGLAPIENTRY glmux_egl_MakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read,
                                             EGLContext ctx)
{
    __GLdispatchThreadState *state;
    struct glmux_egl_current *cur = NULL;
    glmux_egl_vendor *v, *old_vendor = NULL, *new_vendor;

    /* glmux_egl_thread_init, inlined; every way out below sets the thread's error or last
     * vendor, or resets them (the rest of glmux_egl_entry). */
    __glDispatchCheckMultithreaded();
    state = __glDispatchGetCurrentThreadState();
    if (state != NULL && state->tag == GLDISPATCH_API_EGL)
        cur = (struct glmux_egl_current *)state;
    v = cur != NULL && cur->display == dpy ? cur->vendor : glmux_egl_display_vendor(dpy);
    if (v == NULL) {
        glmux_egl_error(EGL_BAD_DISPLAY, "eglMakeCurrent", "invalid display %p", dpy);
        return EGL_FALSE;
    }
    if (ctx == EGL_NO_CONTEXT && (draw != EGL_NO_SURFACE || read != EGL_NO_SURFACE)) {
        glmux_egl_error(EGL_BAD_MATCH, "eglMakeCurrent", "a surface without a context");
        return EGL_FALSE;
    }
    if (state != NULL && cur == NULL) {
        glmux_egl_error(EGL_BAD_ACCESS, "eglMakeCurrent", "this thread has a current "
                        "context of another window-system API (GLX); release it first");
        return EGL_FALSE;
    }
    if (cur != NULL) {
        old_vendor = cur->vendor;
        if (cur->display == dpy && cur->context == ctx && cur->draw == draw &&
            cur->read == read) {
            glmux_egl_tls_reset();
            return EGL_TRUE;
        }
    } else if (ctx == EGL_NO_CONTEXT) {
        glmux_egl_tls_reset();
        return EGL_TRUE;
    }
    new_vendor = ctx != EGL_NO_CONTEXT ? v : NULL;

    if (old_vendor == new_vendor) {
        /* Same vendor, same dispatch table: only the vendor needs to know. */
        if (!vendor_make_current(v, dpy, draw, read, ctx))
            return EGL_FALSE;
        set_current(cur, dpy, draw, read, ctx);
        return EGL_TRUE;
    }
    if (new_vendor == NULL)
        return lose_current(cur);
    if (old_vendor != NULL && !lose_current(cur))
        return EGL_FALSE;
    /* The old context is not restored if the new one fails, as in libglvnd. */
    return make_current_new(new_vendor, dpy, draw, read, ctx);
}

EGLBoolean EGLAPIENTRY glmux_egl_ReleaseThread(void)
{
    struct glmux_egl_current *cur;
    glmux_egl_vendor *current_vendor = NULL;

    glmux_egl_thread_init();
    cur = glmux_egl_current_get();
    if (cur != NULL) {
        current_vendor = cur->vendor;
        if (!((PFNEGLRELEASETHREADPROC)current_vendor->fn[GLMUX_EGL_IDX_ReleaseThread])()) {
            glmux_egl_set_last_vendor(current_vendor);
            return EGL_FALSE;
        }
        __glDispatchLoseCurrent();
        free(cur);
    }
    for (glmux_egl_vendor *v = glmux_egl_vendors_loaded(); v != NULL; v = v->next) {
        if (v != current_vendor)
            ((PFNEGLRELEASETHREADPROC)v->fn[GLMUX_EGL_IDX_ReleaseThread])();
    }
    glmux_egl_tls_free();
    return EGL_TRUE;
}

EGLBoolean EGLAPIENTRY glmux_egl_BindAPI(EGLenum api)
{
    struct glmux_egl_tls *t;
    bool supported = false;

    glmux_egl_entry();
    if (api != EGL_OPENGL_API && api != EGL_OPENGL_ES_API) {
        glmux_egl_error_thread(EGL_BAD_PARAMETER, "eglBindAPI", "unsupported client API 0x%04x",
                        (unsigned)api);
        return EGL_FALSE;
    }
    if (api == glmux_egl_QueryAPI())
        return EGL_TRUE;
    for (glmux_egl_vendor *v = glmux_egl_vendors(); v != NULL; v = v->next)
        supported |= api == EGL_OPENGL_API ? v->supports_gl : v->supports_gles;
    if (!supported) {
        glmux_egl_error_thread(EGL_BAD_PARAMETER, "eglBindAPI", "no EGL vendor supports client API "
                        "0x%04x", (unsigned)api);
        return EGL_FALSE;
    }
    t = glmux_egl_tls();
    if (t == NULL) {
        glmux_egl_report(EGL_BAD_ALLOC, "eglBindAPI", EGL_DEBUG_MSG_CRITICAL_KHR,
                         "out of memory");
        return EGL_FALSE;
    }
    t->api = api;
    for (glmux_egl_vendor *v = glmux_egl_vendors(); v != NULL; v = v->next) {
        if (v->fn[GLMUX_EGL_IDX_BindAPI] != NULL)
            ((PFNEGLBINDAPIPROC)v->fn[GLMUX_EGL_IDX_BindAPI])(api);
    }
    return EGL_TRUE;
}

EGLenum EGLAPIENTRY glmux_egl_QueryAPI(void)
{
    struct glmux_egl_tls *t;

    glmux_egl_entry();
    t = glmux_egl_tls_peek();
    return t ? t->api : EGL_OPENGL_ES_API;
}

EGLContext EGLAPIENTRY glmux_egl_GetCurrentContext(void)
{
    struct glmux_egl_current *cur;

    glmux_egl_entry();
    cur = glmux_egl_current_get();
    return cur ? cur->context : EGL_NO_CONTEXT;
}

EGLDisplay EGLAPIENTRY glmux_egl_GetCurrentDisplay(void)
{
    struct glmux_egl_current *cur;

    glmux_egl_entry();
    cur = glmux_egl_current_get();
    return cur ? cur->display : EGL_NO_DISPLAY;
}

EGLSurface EGLAPIENTRY glmux_egl_GetCurrentSurface(EGLint readdraw)
{
    struct glmux_egl_current *cur;

    glmux_egl_entry();
    if (readdraw != EGL_DRAW && readdraw != EGL_READ) {
        glmux_egl_error_thread(EGL_BAD_PARAMETER, "eglGetCurrentSurface", "invalid enum 0x%04x",
                        (unsigned)readdraw);
        return EGL_NO_SURFACE;
    }
    cur = glmux_egl_current_get();
    if (cur == NULL)
        return EGL_NO_SURFACE;
    return readdraw == EGL_DRAW ? cur->draw : cur->read;
}

/* eglWaitGL, eglWaitNative, eglWaitClient: the current vendor's, or EGL_TRUE. */
static EGLBoolean wait_current(int index, bool with_engine, EGLint engine)
{
    struct glmux_egl_current *cur;

    glmux_egl_entry();
    cur = glmux_egl_current_get();
    if (cur == NULL)
        return EGL_TRUE;
    glmux_egl_set_last_vendor(cur->vendor);
    if (with_engine)
        return ((PFNEGLWAITNATIVEPROC)cur->vendor->fn[index])(engine);
    return ((PFNEGLWAITGLPROC)cur->vendor->fn[index])();
}

EGLBoolean EGLAPIENTRY glmux_egl_WaitGL(void)
{
    return wait_current(GLMUX_EGL_IDX_WaitGL, false, 0);
}

EGLBoolean EGLAPIENTRY glmux_egl_WaitNative(EGLint engine)
{
    return wait_current(GLMUX_EGL_IDX_WaitNative, true, engine);
}

EGLBoolean EGLAPIENTRY glmux_egl_WaitClient(void)
{
    return wait_current(GLMUX_EGL_IDX_WaitClient, false, 0);
}

EGLint EGLAPIENTRY glmux_egl_GetError(void)
{
    struct glmux_egl_tls *t = glmux_egl_tls_peek();
    EGLint error;

    glmux_egl_thread_init();
    if (t == NULL)
        return EGL_SUCCESS;
    if (t->last_vendor != NULL)
        error = ((PFNEGLGETERRORPROC)t->last_vendor->fn[GLMUX_EGL_IDX_GetError])();
    else
        error = t->error;
    glmux_egl_tls_clear(t);
    return error;
}
