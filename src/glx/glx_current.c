/* SPDX-License-Identifier: MIT */
/*
 * glmux: the current GLX context of each thread: glXMakeCurrent, glXMakeContextCurrent and
 * the glXGetCurrent* queries.
 *
 * Rules (GLX vendor ABI): switching between two contexts of one vendor only calls that vendor;
 * switching vendors releases the old context (vendor, then libGLdispatch), makes the new one
 * current (libGLdispatch, then vendor) and, if that fails, puts the old one back. A thread
 * with a current EGL context gets BadAccess. The per-thread record is glx_thread.c's; a
 * display a context is made current on gets libGLX's record, and so its close hook, first.
 * Only glmux_glx_map_lock is taken, never across a vendor call.
 */
#include <stdlib.h>

#include <X11/Xproto.h>
#include <GL/glxproto.h>

#include "glx/glx_api.h"
#include "glx/glx_display.h"
#include "glx/glx_lock.h"
#include "glx/glx_mapping.h"
#include "glx/glx_thread.h"
#include "util/log.h"

static void unref(struct glmux_glx_context *info)
{
    glmux_glx_map_acquire();
    glmux_glx_context_unref_locked(info);
    glmux_glx_map_release();
}

/*
 * The display a context is made current on gets libGLX's record (and so its close hook) if it
 * has none: a context may be made current on another connection than its own.
 */
static void track_display(Display *dpy)
{
    glmux_glx_display_get(dpy);
}

/* Raises an error of libGLX's own, after asking the previously current vendor. */
static void report(Display *dpy, struct glmux_glx_thread *old, unsigned char error, XID resid,
                   unsigned char minor, bool core)
{
    if (old != NULL && old->vendor->imports.notifyError != NULL &&
        !old->vendor->imports.notifyError(dpy, error, resid, (unsigned char)minor, core))
        return;
    glmux_glx_x_error(dpy, error, resid, minor, core);
}

static Bool vendor_make_current(glmux_glx_vendor *v, bool mcc, Display *dpy, GLXDrawable draw,
                                GLXDrawable read, GLXContext ctx)
{
    if (mcc)
        return v->fns.MakeContextCurrent(dpy, draw, read, ctx);
    return v->fns.MakeCurrent(dpy, draw, ctx);
}

static bool dispatch_make_current(struct glmux_glx_thread *t)
{
    glmux_glx_vendor *v = t->vendor;

    return __glDispatchMakeCurrent(&t->base, v->gl_table, v->vendor_id,
                                   v->has_patch ? &v->patch_cb : NULL);
}

/* Releases the thread's context: vendor first, then libGLdispatch. */
static Bool release(struct glmux_glx_thread *old)
{
    if (!old->vendor->fns.MakeCurrent(glmux_glx_thread_dpy(old), None, NULL))
        return False;
    __glDispatchLoseCurrent();
    glmux_glx_thread_retire(old);
    return True;
}

/* After a failed switch: makes the old context current again, or drops it. */
static void restore(struct glmux_glx_thread *old)
{
    if (dispatch_make_current(old)) {
        if (vendor_make_current(old->vendor, true, glmux_glx_thread_dpy(old), old->draw,
                                old->read, old->ctx->handle))
            return;
        __glDispatchLoseCurrent();
    }
    glmux_log(GLMUX_LOG_WARN, "could not restore the previous GLX context after a failed "
              "make-current; the thread has no current context now");
    glmux_glx_thread_retire(old);
}

/* Remembers in t the context it leaves, left (its record, alive at generation gen). */
static void remember_prev(struct glmux_glx_thread *t, struct glmux_glx_context *left,
                          unsigned long gen)
{
    t->prev_handle = left != NULL ? left->handle : NULL;
    t->prev_info = left;
    t->prev_gen = gen;
}

/* Makes ctx current in place of old (NULL or another context): the general case. */
static __attribute__((noinline)) Bool make_current_switch(Display *dpy, GLXDrawable draw,
                                                          GLXDrawable read, GLXContext ctx,
                                                          bool mcc,
                                                          struct glmux_glx_thread *old)
{
    struct glmux_glx_thread *t;
    struct glmux_glx_context *info;
    glmux_glx_vendor *v;
    unsigned long gen;

    glmux_glx_map_acquire();
    gen = glmux_glx_context_generation();
    /* Back to the context this thread left last: its record needs no lookup if no record was
     * freed since (a switch between two contexts, the common case). */
    if (old != NULL && old->prev_handle == ctx && old->prev_gen == gen)
        info = old->prev_info;
    else
        info = glmux_glx_context_find(ctx);
    if (info != NULL)
        info->current_count++;      /* held while we switch */
    glmux_glx_map_release();
    if (info == NULL) {
        report(dpy, old, GLXBadContext, 0, mcc ? X_GLXMakeContextCurrent : X_GLXMakeCurrent,
               false);
        return False;
    }
    v = info->vendor;

    if (old != NULL && old->vendor == v) {
        if (!vendor_make_current(v, mcc, dpy, draw, read, ctx)) {
            unref(info);
            return False;
        }
        remember_prev(old, old->ctx, gen);  /* before the unref, which may free it */
        unref(old->ctx);
        old->ctx = info;
        glmux_glx_thread_dpy_set(old, dpy);
        old->draw = draw;
        old->read = mcc ? read : draw;
        return True;
    }

    if (old != NULL) {
        if (!old->vendor->fns.MakeCurrent(glmux_glx_thread_dpy(old), None, NULL)) {
            unref(info);
            return False;
        }
        __glDispatchLoseCurrent();
    }
    t = (struct glmux_glx_thread *)glmux_winsys_record_new(sizeof(*t));
    if (t != NULL) {
        t->vendor = v;
        t->ctx = info;
        glmux_glx_thread_dpy_set(t, dpy);
        t->draw = draw;
        t->read = mcc ? read : draw;
        remember_prev(t, old != NULL ? old->ctx : NULL, gen);
        if (dispatch_make_current(t)) {
            if (vendor_make_current(v, mcc, dpy, draw, read, ctx)) {
                glmux_glx_map_acquire();
                glmux_glx_thread_link_locked(t);
                if (old != NULL) {
                    glmux_glx_context_unref_locked(old->ctx);
                    glmux_glx_thread_unlink_locked(old);
                }
                glmux_glx_map_release();
                free(old);
                return True;
            }
            __glDispatchLoseCurrent();
        } else {
            glmux_log(GLMUX_LOG_WARN, "libGLdispatch refused to make vendor \"%s\" current "
                      "(another vendor owns patched entry points? set "
                      "__GLVND_DISALLOW_PATCHING=1)", v->name);
        }
        free(t);
    }
    unref(info);
    if (old != NULL)
        restore(old);
    return False;
}

/* Inlined into both entry points: for glXMakeCurrent, read is draw and mcc false. */
static inline __attribute__((always_inline)) Bool make_current(Display *dpy, GLXDrawable draw,
                                                               GLXDrawable read, GLXContext ctx,
                                                               bool mcc)
{
    __GLdispatchThreadState *s;
    struct glmux_glx_thread *old;

    glmux_glx_entry();
    s = __glDispatchGetCurrentThreadState();
    if (s != NULL && s->tag != GLDISPATCH_API_GLX) {
        glmux_log(GLMUX_LOG_WARN, "glXMakeCurrent while an EGL context is current: BadAccess");
        glmux_glx_x_error(dpy, BadAccess, 0, mcc ? X_GLXMakeContextCurrent : X_GLXMakeCurrent,
                          true);
        return False;
    }
    old = (struct glmux_glx_thread *)s;
    if (ctx == NULL) {
        if (draw != None || read != None) {
            report(dpy, old, BadMatch, draw, mcc ? X_GLXMakeContextCurrent : X_GLXMakeCurrent,
                   true);
            return False;
        }
        return old == NULL ? True : release(old);
    }
    if (old != NULL && old->ctx->handle == ctx) {
        /* The thread's own context again (perhaps with other drawables): this thread's
         * reference keeps the record, so neither the lock nor the map is needed. */
        if (dpy != glmux_glx_thread_dpy(old))
            track_display(dpy);
        if (!vendor_make_current(old->vendor, mcc, dpy, draw, read, ctx))
            return False;
        glmux_glx_thread_dpy_set(old, dpy);
        old->draw = draw;
        old->read = mcc ? read : draw;
        return True;
    }
    if (old == NULL || dpy != glmux_glx_thread_dpy(old))
        track_display(dpy);
    return make_current_switch(dpy, draw, read, ctx, mcc, old);
}

Bool glmux_glx_MakeCurrent(Display *dpy, GLXDrawable drawable, GLXContext ctx)
{
    return make_current(dpy, drawable, drawable, ctx, false);
}

Bool glmux_glx_MakeContextCurrent(Display *dpy, GLXDrawable draw, GLXDrawable read,
                                  GLXContext ctx)
{
    return make_current(dpy, draw, read, ctx, true);
}

GLXContext glmux_glx_GetCurrentContext(void)
{
    struct glmux_glx_thread *t;

    glmux_glx_entry();
    t = glmux_glx_thread_current();
    return t ? t->ctx->handle : NULL;
}

Display *glmux_glx_GetCurrentDisplay(void)
{
    struct glmux_glx_thread *t;

    glmux_glx_entry();
    t = glmux_glx_thread_current();
    return t ? glmux_glx_thread_dpy(t) : NULL;
}

GLXDrawable glmux_glx_GetCurrentDrawable(void)
{
    struct glmux_glx_thread *t;

    glmux_glx_entry();
    t = glmux_glx_thread_current();
    return t ? t->draw : None;
}

GLXDrawable glmux_glx_GetCurrentReadDrawable(void)
{
    struct glmux_glx_thread *t;

    glmux_glx_entry();
    t = glmux_glx_thread_current();
    return t ? t->read : None;
}
