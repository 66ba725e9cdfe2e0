/* SPDX-License-Identifier: MIT */
/*
 * glmux: when the pixels GLX vendor's drawables show their frames. An EGL surface follows its X
 * drawable's size as the transport heard it (pixels_present.c), brought up to date at a frame's
 * first glClear, so that the frame after a resize is drawn at the new size, and after each
 * swap. glXSwapBuffers presents a double-buffered drawable, as GLX says, wherever it is
 * current:
 * - current on the calling thread: read back with the thread's context, then the surface
 *   follows the window's size;
 * - current nowhere: the calling thread binds it for the moment to a context of the vendor's
 *   own (one per EGL config, kept for the process) and puts its own binding back after;
 * - current on another thread (its surface cannot be bound here): that thread presents it at
 *   its next glFlush, glFinish, glXSwapBuffers or glXMakeCurrent.
 * glFinish, glFlush and glXWaitGL show a single-buffered window or a pixmap, and so does
 * glXMakeCurrent away from one (GLX's implicit flush). Swap intervals (GLX_EXT_swap_control per
 * drawable, GLX_MESA_swap_control and GLX_SGI_swap_control for the current one; 0 unless set)
 * pace frames with Present (pixels_present.c). libGLX dispatches the extension functions with
 * the stubs below, by drawable or by the current context, as for any vendor's.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlibint.h>
#include <GL/glxproto.h>

#include "pixels/pixels_config.h"
#include "pixels/pixels_dispatch.h"
#include "pixels/pixels_egl.h"
#include "pixels/pixels_frame.h"
#include "pixels/pixels_present.h"
#include "pixels/pixels_records.h"
#include "pixels/pixels_server.h"
#include "pixels/pixels_swap.h"
#include "util/lifecycle.h"
#include "util/log.h"

#ifndef GLX_SWAP_INTERVAL_EXT
#define GLX_SWAP_INTERVAL_EXT 0x20F1
#define GLX_MAX_SWAP_INTERVAL_EXT 0x20F2
#endif

/* The vendor's own contexts, one per EGL config, each used by one thread at a time (an EGL
 * context is current on one thread at most): swap_lock guards the list and each one's busy;
 * own_free is signalled when one is given back, made, or could not be made. */
struct own_context {
    struct own_context *next;
    EGLConfig config;
    EGLContext egl;         /* EGL_NO_CONTEXT while the thread that listed it makes it */
    bool busy;              /* a thread is making it or has it current */
};

static pthread_mutex_t swap_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t own_free = PTHREAD_COND_INITIALIZER;
static struct own_context *own_contexts;

/* ---- surfaces that follow their X drawable ---- */

bool glmux_pixels_surface_update(struct glmux_pixels_drawable *d,
                                 const struct glmux_pixels_config *config)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    int w = d->width, h = d->height;
    EGLSurface s;

    if (egl == NULL)
        return false;
    if (d->xfer != NULL)
        glmux_pixels_xfer_size(d->xfer, &w, &h);
    w = w < 1 ? 1 : w > GLMUX_PIXELS_MAX_SIDE ? GLMUX_PIXELS_MAX_SIDE : w;
    h = h < 1 ? 1 : h > GLMUX_PIXELS_MAX_SIDE ? GLMUX_PIXELS_MAX_SIDE : h;
    if (d->surface != EGL_NO_SURFACE && w == d->width && h == d->height &&
        glmux_pixels_config_same_surface(d->surface_config, config))
        return true;
    EGLint attribs[5 + GLMUX_PIXELS_SURFACE_ATTRIBS] = { EGL_WIDTH, w, EGL_HEIGHT, h };
    attribs[4 + glmux_pixels_config_surface_attribs(config, attribs + 4)] = EGL_NONE;
    s = egl->CreatePbufferSurface(egl->display, config->egl_config, attribs);
    if (s == EGL_NO_SURFACE) {
        glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: cannot make a %dx%d EGL pbuffer for "
                  "drawable 0x%lx (EGL error 0x%x)", w, h, (unsigned long)d->xid,
                  egl->GetError());
        return d->surface != EGL_NO_SURFACE;
    }
    if (d->surface != EGL_NO_SURFACE)
        egl->DestroySurface(egl->display, d->surface); /* freed once no longer current */
    d->surface = s;
    /* A copy: config may be a context's, and the context may go before the drawable. */
    if (config != &d->own_surface_config)
        d->own_surface_config = *config;
    d->surface_config = &d->own_surface_config;
    /* Read by glXQueryDrawable without the claim. */
    __atomic_store_n(&d->width, w, __ATOMIC_RELAXED);
    __atomic_store_n(&d->height, h, __ATOMIC_RELAXED);
    return true;
}

/* After a frame of d, bound on this thread to ctx (with read surface read): follows the X
 * drawable's size, rebinding when the surface changed. */
static void follow_size(struct glmux_pixels_drawable *d, struct glmux_pixels_drawable *read,
                        EGLContext ctx)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    EGLSurface before = d->surface;

    if (d->kind != GLMUX_PIXELS_WINDOW || glmux_pixels_xfer_gone(d->xfer) ||
        !glmux_pixels_surface_update(d, d->surface_config) || d->surface == before)
        return;
    egl->MakeCurrent(egl->display, d->surface, read == NULL || read == d ? d->surface
                                                                          : read->surface, ctx);
}

/* ---- presenting ---- */

static int interval_of(const struct glmux_pixels_drawable *d)
{
    return __atomic_load_n(&d->swap_interval, __ATOMIC_RELAXED);
}

/* Presents this thread's current draw drawable (a swap: then it follows its size), claimed
 * with its read drawable while it does. The frame is read back from the default read
 * framebuffer: with a read drawable of its own (glXMakeContextCurrent), the draw surface is
 * bound for reading too for the moment. */
static void present_unbound(struct glmux_pixels_drawable *d,
                            const struct glmux_pixels_current *cur);

static void present_current(const struct glmux_pixels_current *cur, bool swap)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    bool split = cur->read != NULL && cur->read != cur->draw && egl != NULL;

    glmux_pixels_drawable_claim(cur->draw, cur->read);
    __atomic_store_n(&cur->draw->swap_pending, false, __ATOMIC_RELAXED);
    if (cur->ctx->api != EGL_OPENGL_API) {
        /* An ES context: the frame is read back with desktop GL, by the vendor's own context
         * (which then follows the window's size), and this thread's binding is put back. */
        present_unbound(cur->draw, cur);
        glmux_pixels_drawable_unclaim(cur->draw, cur->read);
        return;
    }
    if (split)
        egl->MakeCurrent(egl->display, cur->draw->surface, cur->draw->surface, cur->ctx->egl);
    glmux_pixels_present(cur->draw, interval_of(cur->draw));
    if (split)
        egl->MakeCurrent(egl->display, cur->draw->surface, cur->read->surface, cur->ctx->egl);
    if (swap)
        follow_size(cur->draw, cur->read, cur->ctx->egl);
    glmux_pixels_drawable_unclaim(cur->draw, cur->read);
}

/*
 * Takes the vendor's own context for surfaces of config c, for this thread alone until
 * own_context_put; NULL when it cannot be made. One creation path: the thread that finds none
 * lists it as busy before it makes it (no lock held), so a thread that comes meanwhile waits
 * for it (as for a thread that has it current) and never makes a second one.
 */
static struct own_context *own_context_take(const struct glmux_pixels_egl *egl,
                                            const struct glmux_pixels_config *c)
{
    struct own_context *o;
    EGLContext made;

    pthread_mutex_lock(&swap_lock);
    for (;;) {
        for (o = own_contexts; o != NULL && o->config != c->egl_config; o = o->next)
            ;
        if (o == NULL || !o->busy)
            break;
        pthread_cond_wait(&own_free, &swap_lock);
    }
    if (o != NULL) {
        o->busy = true;
        pthread_mutex_unlock(&swap_lock);
        return o;
    }
    if ((o = calloc(1, sizeof(*o))) != NULL) {
        o->config = c->egl_config;
        o->busy = true;
        o->next = own_contexts;
        own_contexts = o;
    }
    pthread_mutex_unlock(&swap_lock);
    if (o == NULL)
        return NULL;
    egl->BindAPI(EGL_OPENGL_API);
    made = egl->CreateContext(egl->display, c->egl_config, EGL_NO_CONTEXT, NULL);
    pthread_mutex_lock(&swap_lock);
    if (made == EGL_NO_CONTEXT) {
        /* Unlisted again: a thread waiting for it tries in its turn. */
        for (struct own_context **p = &own_contexts; *p != NULL; p = &(*p)->next) {
            if (*p == o) {
                *p = o->next;
                break;
            }
        }
        free(o);
        o = NULL;
        pthread_cond_broadcast(&own_free);
    } else {
        o->egl = made;
    }
    pthread_mutex_unlock(&swap_lock);
    return o;
}

/* Gives an own context back (no longer current on this thread). */
static void own_context_put(struct own_context *o)
{
    pthread_mutex_lock(&swap_lock);
    o->busy = false;
    pthread_cond_broadcast(&own_free);
    pthread_mutex_unlock(&swap_lock);
}

/* Presents d, current nowhere or current here with an ES context (this thread has claimed it),
 * with a context of our own bound for the moment; this thread's binding (cur) is put back
 * after. */
static void present_unbound(struct glmux_pixels_drawable *d, const struct glmux_pixels_current *cur)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    struct own_context *o = egl != NULL ? own_context_take(egl, d->surface_config) : NULL;

    if (o != NULL)
        egl->BindAPI(EGL_OPENGL_API);
    if (o == NULL || !egl->MakeCurrent(egl->display, d->surface, d->surface, o->egl)) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: frame of drawable 0x%lx: no context "
                  "of the vendor's own to read it back with", (unsigned long)d->xid);
        if (o != NULL)
            own_context_put(o);
        return;
    }
    glmux_pixels_present(d, interval_of(d));
    follow_size(d, d, o->egl);
    /* The own context is let go here before another thread may take it. */
    egl->BindAPI(cur->ctx != NULL ? cur->ctx->api : EGL_OPENGL_API);
    if (!egl->MakeCurrent(egl->display, cur->draw != NULL ? cur->draw->surface : EGL_NO_SURFACE,
                          cur->read != NULL ? cur->read->surface : EGL_NO_SURFACE,
                          cur->ctx != NULL ? cur->ctx->egl : EGL_NO_CONTEXT))
        egl->MakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    own_context_put(o);
}

static void pixels_SwapBuffers(Display *dpy, GLXDrawable draw)
{
    struct glmux_pixels_current cur;
    struct glmux_pixels_drawable *d;
    bool mine = false;

    glmux_pixels_current_get(&cur);
    if (cur.ctx != NULL && cur.draw != NULL && cur.draw->dpy == dpy && cur.draw->xid == draw) {
        /* No transport: a pbuffer, or a drawable of a display closed since (its config too). */
        if (cur.draw->xfer != NULL && cur.draw->config->double_buffer)
            present_current(&cur, true);
        return;
    }
    glmux_pixels_lock();
    d = glmux_pixels_drawable_find(dpy, draw);
    if (d != NULL && d->kind != GLMUX_PIXELS_PBUFFER && d->config->double_buffer) {
        if (d->current > 0) {
            __atomic_store_n(&d->swap_pending, true, __ATOMIC_RELAXED);
        } else {
            /* A reference and the claim: a thread making it current meanwhile waits. */
            d->current++;
            glmux_pixels_drawable_claim_locked(d);
            mine = true;
        }
    }
    glmux_pixels_unlock();
    if (d == NULL) {
        glmux_pixels_x_error(dpy, BadDrawable, GLXBadDrawable, draw, X_GLXSwapBuffers,
                             X_NoOperation, "glXSwapBuffers: 0x%lx is no GLX drawable of "
                             "display %s", (unsigned long)draw, DisplayString(dpy));
        return;
    }
    if (mine) {
        present_unbound(d, &cur);
        glmux_pixels_drawable_unclaim(d, NULL);
        glmux_pixels_lock();
        glmux_pixels_drawable_release(d);
        glmux_pixels_unlock();
        glmux_pixels_free_released();
    }
}

/* glFinish, glFlush, glXWaitGL and GLX's implicit flush at glXMakeCurrent: a single-buffered
 * window or a pixmap shows what was drawn, and a swap another thread asked for is done. */
void glmux_pixels_flush_current(void)
{
    struct glmux_pixels_current cur;

    glmux_pixels_current_get(&cur);
    if (cur.ctx == NULL || cur.draw == NULL || cur.draw->xfer == NULL)
        return; /* a pbuffer, or a drawable of a display closed since */
    if (cur.draw->kind == GLMUX_PIXELS_PIXMAP || !cur.draw->config->double_buffer ||
        __atomic_load_n(&cur.draw->swap_pending, __ATOMIC_RELAXED))
        present_current(&cur, false);
}

static void pixels_glFinish(void)
{
    const struct glmux_pixels_gl *gl = glmux_pixels_gl_get();

    if (gl != NULL)
        gl->Finish();
    glmux_pixels_flush_current();
}

static void pixels_glFlush(void)
{
    const struct glmux_pixels_gl *gl = glmux_pixels_gl_get();

    if (gl != NULL)
        gl->Flush();
    glmux_pixels_flush_current();
}

/* glClear: the first of a frame of a window current here (the first since it was last shown)
 * first brings the window's size up to date (glmux_pixels_xfer_frame_start) and the surface
 * with it, so that the frame after a resize is drawn at the new size, as Mesa's own drivers
 * look at the size at a frame's first draw. */
static void pixels_glClear(GLbitfield mask)
{
    static void (*clear)(GLbitfield);
    void (*fn)(GLbitfield) = __atomic_load_n(&clear, __ATOMIC_ACQUIRE);
    const struct glmux_pixels_egl *egl;
    struct glmux_pixels_current cur;

    if (fn == NULL) {
        if ((egl = glmux_pixels_egl_get(NULL)) == NULL ||
            (fn = (void (*)(GLbitfield))egl->get_proc("glClear")) == NULL)
            return;
        __atomic_store_n(&clear, fn, __ATOMIC_RELEASE);
    }
    glmux_pixels_current_get(&cur);
    if (cur.ctx != NULL && cur.draw != NULL && cur.draw->kind == GLMUX_PIXELS_WINDOW &&
        cur.draw->xfer != NULL) {
        glmux_pixels_drawable_claim(cur.draw, cur.read);
        if (glmux_pixels_xfer_frame_start(cur.draw->xfer))
            follow_size(cur.draw, cur.read, cur.ctx->egl);
        glmux_pixels_drawable_unclaim(cur.draw, cur.read);
    }
    fn(mask);
}

static void pixels_WaitGL(void)
{
    pixels_glFinish();
}

static void pixels_WaitX(void)
{
    struct glmux_pixels_current cur;

    glmux_pixels_current_get(&cur);
    if (cur.draw != NULL)
        XSync(cur.draw->dpy, False);
}

/* ---- swap intervals ---- */

static void pixels_SwapIntervalEXT(Display *dpy, GLXDrawable draw, int interval)
{
    struct glmux_pixels_drawable *d;

    if (interval < 0) {
        glmux_pixels_x_error(dpy, BadValue, -1, (XID)interval, X_GLXVendorPrivate,
                             X_NoOperation, "glXSwapIntervalEXT: the interval %d is negative",
                             interval);
        return;
    }
    glmux_pixels_lock();
    if ((d = glmux_pixels_drawable_find(dpy, draw)) != NULL)
        __atomic_store_n(&d->swap_interval, interval, __ATOMIC_RELAXED);
    glmux_pixels_unlock();
    if (d == NULL)
        glmux_pixels_x_error(dpy, BadDrawable, GLXBadDrawable, draw, X_GLXVendorPrivate,
                             X_NoOperation, "glXSwapIntervalEXT: 0x%lx is no GLX drawable of "
                             "display %s", (unsigned long)draw, DisplayString(dpy));
}

/* The current draw drawable's interval: GLX_BAD_CONTEXT without a current context. */
static int set_current_interval(long long interval)
{
    struct glmux_pixels_current cur;

    glmux_pixels_current_get(&cur);
    if (cur.ctx == NULL)
        return GLX_BAD_CONTEXT;
    if (interval < 0 || interval > INT_MAX)
        return GLX_BAD_VALUE;
    if (cur.draw != NULL)
        __atomic_store_n(&cur.draw->swap_interval, (int)interval, __ATOMIC_RELAXED);
    return 0;
}

static int pixels_SwapIntervalMESA(unsigned int interval)
{
    return set_current_interval(interval);
}

static int pixels_GetSwapIntervalMESA(void)
{
    struct glmux_pixels_current cur;

    glmux_pixels_current_get(&cur);
    return cur.ctx != NULL && cur.draw != NULL ? interval_of(cur.draw) : 0;
}

static int pixels_SwapIntervalSGI(int interval)
{
    return interval <= 0 ? GLX_BAD_VALUE : set_current_interval(interval);
}

bool glmux_pixels_swap_query(const struct glmux_pixels_drawable *d, int attrib,
                             unsigned int *value)
{
    if (attrib == GLX_SWAP_INTERVAL_EXT)
        *value = (unsigned)interval_of(d);
    else if (attrib == GLX_MAX_SWAP_INTERVAL_EXT)
        *value = glmux_pixels_xfer_paced(d->xfer) ? 1000 : 0;
    else
        return false;
    return true;
}

/* ---- dispatch stubs (libGLX asks every vendor for them) ---- */

enum { EXT, MESA, GET_MESA, SGI, N_SWAP_FUNCTIONS };
static const char *const swap_names[N_SWAP_FUNCTIONS] = {
    "glXSwapIntervalEXT", "glXSwapIntervalMESA", "glXGetSwapIntervalMESA", "glXSwapIntervalSGI",
};
static int swap_index[N_SWAP_FUNCTIONS] = { -1, -1, -1, -1 };

static void dispatch_SwapIntervalEXT(Display *dpy, GLXDrawable draw, int interval)
{
    void (*fn)(Display *, GLXDrawable, int) =
        (void (*)(Display *, GLXDrawable, int))glmux_pixels_dispatch_fetch(dpy, draw,
                                                                            &swap_index[EXT]);

    if (fn != NULL)
        fn(dpy, draw, interval);
}

static int dispatch_SwapIntervalMESA(unsigned int interval)
{
    int (*fn)(unsigned int) =
        (int (*)(unsigned int))glmux_pixels_dispatch_fetch(NULL, None, &swap_index[MESA]);

    return fn != NULL ? fn(interval) : GLX_BAD_CONTEXT;
}

static int dispatch_GetSwapIntervalMESA(void)
{
    int (*fn)(void) = (int (*)(void))glmux_pixels_dispatch_fetch(NULL, None,
                                                                 &swap_index[GET_MESA]);

    return fn != NULL ? fn() : 0;
}

static int dispatch_SwapIntervalSGI(int interval)
{
    int (*fn)(int) = (int (*)(int))glmux_pixels_dispatch_fetch(NULL, None, &swap_index[SGI]);

    return fn != NULL ? fn(interval) : GLX_BAD_CONTEXT;
}

static void *const swap_stubs[N_SWAP_FUNCTIONS] = {
    (void *)dispatch_SwapIntervalEXT, (void *)dispatch_SwapIntervalMESA,
    (void *)dispatch_GetSwapIntervalMESA, (void *)dispatch_SwapIntervalSGI,
};
static void *const swap_functions[N_SWAP_FUNCTIONS] = {
    (void *)pixels_SwapIntervalEXT, (void *)pixels_SwapIntervalMESA,
    (void *)pixels_GetSwapIntervalMESA, (void *)pixels_SwapIntervalSGI,
};

void *glmux_pixels_swap_dispatch(const GLubyte *name)
{
    for (int i = 0; i < N_SWAP_FUNCTIONS; i++) {
        if (strcmp((const char *)name, swap_names[i]) == 0)
            return swap_stubs[i];
    }
    return NULL;
}

void glmux_pixels_swap_set_index(const GLubyte *name, int index)
{
    for (int i = 0; i < N_SWAP_FUNCTIONS; i++) {
        if (strcmp((const char *)name, swap_names[i]) == 0)
            __atomic_store_n(&swap_index[i], index, __ATOMIC_RELEASE);
    }
}

void *glmux_pixels_swap_proc(const char *name)
{
    static const struct {
        const char *name;
        void *fn;
    } gl_functions[] = {
        { "glXSwapBuffers", (void *)pixels_SwapBuffers }, { "glXWaitGL", (void *)pixels_WaitGL },
        { "glXWaitX", (void *)pixels_WaitX }, { "glFinish", (void *)pixels_glFinish },
        { "glFlush", (void *)pixels_glFlush }, { "glClear", (void *)pixels_glClear },
    };

    for (int i = 0; i < N_SWAP_FUNCTIONS; i++) {
        if (strcmp(name, swap_names[i]) == 0)
            return swap_functions[i];
    }
    for (size_t i = 0; i < sizeof(gl_functions) / sizeof(gl_functions[0]); i++) {
        if (strcmp(name, gl_functions[i].name) == 0)
            return gl_functions[i].fn;
    }
    return NULL;
}

/* Before fork the lock is taken on the forking thread, so that the child finds it free. */
static void swap_fork(enum glmux_fork_step step)
{
    glmux_fork_mutex(&swap_lock, step);
    if (step == GLMUX_FORK_CHILD || step == GLMUX_FORK_CHILD_ANEW)
        pthread_cond_init(&own_free, NULL);
}

/* In the child: own contexts the parent's other threads were making or had current are
 * forgotten (an EGL context current on a thread that is gone cannot be bound again). */
static void swap_child(void)
{
    pthread_mutex_lock(&swap_lock);
    for (struct own_context **p = &own_contexts, *o; (o = *p) != NULL;) {
        if (o->busy) {
            *p = o->next;
            free(o);
        } else {
            p = &o->next;
        }
    }
    pthread_mutex_unlock(&swap_lock);
}

GLMUX_LIFECYCLE_STEP(pixels_swap, GLMUX_PIXELS_ORDER_SWAP, .fork = swap_fork,
                     .child = swap_child);
