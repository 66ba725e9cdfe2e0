/* SPDX-License-Identifier: MIT */
/*
 * glmux: how the pixels GLX vendor gets a frame onto the X server. Each window, pixmap or
 * pbuffer is an EGL pbuffer of the drawable's size (XGetGeometry, asked again at every swap so
 * that a resize is followed from the next frame on). Presenting reads the current draw surface
 * back with glReadPixels (BGRA, the pack state saved and restored), turns it top-down, and sends
 * it with XShmPutImage when MIT-SHM works on this connection (XShmQueryExtension, then a test
 * XShmAttach once per display; GLMUX_GLX_REMOTE_SHM=0 forbids it), otherwise with XPutImage in
 * row bands that fit the server's maximum request size. X errors caused by these requests on a
 * drawable that went away (a window destroyed while current) are swallowed by an error hook on
 * our own XAddExtension record and mark the drawable gone; the application's handler never
 * sees them. A connection that dies goes to Xlib's I/O error handler, as for any Xlib call.
 * libXext (MIT-SHM) is loaded with dlopen the first time a frame goes out, so that libGLX
 * itself links libX11 only, as libglvnd's does.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include <X11/Xlibint.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>

#include "glx/pixels/pixels.h"
#include "util/env.h"
#include "util/log.h"

#ifndef GL_READ_FRAMEBUFFER_BINDING
#define GL_READ_FRAMEBUFFER_BINDING 0x8CAA
#define GL_READ_FRAMEBUFFER 0x8CA8
#endif
#ifndef GL_PIXEL_PACK_BUFFER
#define GL_PIXEL_PACK_BUFFER 0x88EB
#define GL_PIXEL_PACK_BUFFER_BINDING 0x88ED
#endif
#ifndef GL_BGRA
#define GL_BGRA 0x80E1
#endif
#ifndef GL_UNSIGNED_INT_8_8_8_8_REV
#define GL_UNSIGNED_INT_8_8_8_8_REV 0x8367
#endif

/* What we know of one X display (present_lock); XIDs we swallow errors for (quiet_lock). */
struct present_display {
    struct present_display *next;
    Display *dpy;
    int ext_number;
    int shm_opcode;         /* 0: no MIT-SHM */
    int glx_opcode;         /* 0: no GLX extension (the major code of the errors we report) */
    int glx_error;          /* the GLX extension's first error code */
    int shm_state;          /* 0 untested, 1 works, -1 does not */
    bool shm_error;         /* an MIT-SHM request failed (set by the error hook) */
};

/* A drawable's shared-memory image, kept while its size stays. */
struct glmux_pixels_shm {
    XShmSegmentInfo info;
    XImage *image;
};

static pthread_mutex_t present_lock = PTHREAD_MUTEX_INITIALIZER;
static struct present_display *displays;

#define QUIET_MAX 256
static pthread_mutex_t quiet_lock = PTHREAD_MUTEX_INITIALIZER;
static XID quiet_ids[QUIET_MAX];
static Display *quiet_dpys[QUIET_MAX];
static bool quiet_gone[QUIET_MAX];

static struct glmux_pixels_stats stats;

/* libXext's MIT-SHM functions, loaded on first use (pthread_once); QueryVersion NULL without. */
static struct {
    Bool (*QueryVersion)(Display *, int *, int *, Bool *);
    Bool (*Attach)(Display *, XShmSegmentInfo *);
    Bool (*Detach)(Display *, XShmSegmentInfo *);
    XImage *(*CreateImage)(Display *, Visual *, unsigned, int, char *, XShmSegmentInfo *,
                           unsigned, unsigned);
    Bool (*PutImage)(Display *, Drawable, GC, XImage *, int, int, int, int, unsigned, unsigned,
                     Bool);
} xshm;
static pthread_once_t xshm_once = PTHREAD_ONCE_INIT;

static void xshm_load(void)
{
    void *lib = dlopen("libXext.so.6", RTLD_LAZY | RTLD_LOCAL);

    if (lib == NULL) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: libXext.so.6 is not installed; frames "
                  "go out with XPutImage");
        return;
    }
    xshm.Attach = (Bool (*)(Display *, XShmSegmentInfo *))dlsym(lib, "XShmAttach");
    xshm.Detach = (Bool (*)(Display *, XShmSegmentInfo *))dlsym(lib, "XShmDetach");
    xshm.CreateImage = (XImage * (*)(Display *, Visual *, unsigned, int, char *,
                                     XShmSegmentInfo *, unsigned, unsigned))
        dlsym(lib, "XShmCreateImage");
    xshm.PutImage = (Bool (*)(Display *, Drawable, GC, XImage *, int, int, int, int, unsigned,
                              unsigned, Bool))dlsym(lib, "XShmPutImage");
    if (xshm.Attach != NULL && xshm.Detach != NULL && xshm.CreateImage != NULL &&
        xshm.PutImage != NULL)
        xshm.QueryVersion = (Bool (*)(Display *, int *, int *, Bool *))
            dlsym(lib, "XShmQueryVersion");
    /* libXext stays loaded: nothing of ours unloads it while a display may use it. */
}

static void quiet_add(Display *dpy, XID id)
{
    pthread_mutex_lock(&quiet_lock);
    for (int i = 0; i < QUIET_MAX; i++) {
        if (quiet_ids[i] == None || (quiet_ids[i] == id && quiet_dpys[i] == dpy)) {
            quiet_ids[i] = id;
            quiet_dpys[i] = dpy;
            quiet_gone[i] = false;
            break;
        }
    }
    pthread_mutex_unlock(&quiet_lock);
}

static void quiet_remove(Display *dpy, XID id)
{
    pthread_mutex_lock(&quiet_lock);
    for (int i = 0; i < QUIET_MAX; i++) {
        if (quiet_ids[i] == id && quiet_dpys[i] == dpy)
            quiet_ids[i] = None;
    }
    pthread_mutex_unlock(&quiet_lock);
}

/* True (once) when an error on id was swallowed since the last call. */
static bool quiet_take_gone(Display *dpy, XID id)
{
    bool gone = false;

    pthread_mutex_lock(&quiet_lock);
    for (int i = 0; i < QUIET_MAX; i++) {
        if (quiet_ids[i] == id && quiet_dpys[i] == dpy) {
            gone = quiet_gone[i];
            quiet_gone[i] = false;
        }
    }
    pthread_mutex_unlock(&quiet_lock);
    return gone;
}

/* Called by Xlib for every error on the display, with the display locked: no Xlib calls and
 * no present_lock here (a thread holding it may be waiting for the display). */
static int error_hook(Display *dpy, xError *err, XExtCodes *codes, int *ret_code)
{
    bool ours = false;

    (void)codes;
    if (err->majorCode == X_GetGeometry || err->majorCode == X_PutImage ||
        err->majorCode == X_CreateGC || err->majorCode == X_FreeGC) {
        pthread_mutex_lock(&quiet_lock);
        for (int i = 0; i < QUIET_MAX; i++) {
            if (quiet_ids[i] != None && quiet_ids[i] == err->resourceID &&
                quiet_dpys[i] == dpy) {
                quiet_gone[i] = true;
                ours = true;
            }
        }
        pthread_mutex_unlock(&quiet_lock);
    }
    if (!ours) {
        /* MIT-SHM requests: only ours are sent while shm_error is being watched. */
        for (struct present_display *d = displays; d != NULL; d = d->next) {
            if (d->dpy == dpy && d->shm_opcode != 0 && err->majorCode == d->shm_opcode) {
                d->shm_error = true;
                ours = true;
            }
        }
    }
    if (ours)
        *ret_code = 0;
    return ours;
}

static int close_display(Display *dpy, XExtCodes *codes)
{
    struct glmux_pixels_stats st;

    (void)codes;
    glmux_pixels_stats_get(&st);
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: display %s closed; %llu frame(s) sent so far "
              "in this process (%llu with XShmPutImage), %llu bytes of pixels over the "
              "connection", DisplayString(dpy), st.frames, st.shm_frames, st.bytes);
    glmux_pixels_present_display_closed(dpy);
    glmux_pixels_config_display_closed(dpy);
    return 0;
}

static struct present_display *display_of(Display *dpy)
{
    struct present_display *d;
    XExtCodes *codes;
    int ev, er;

    pthread_mutex_lock(&present_lock);
    for (d = displays; d != NULL; d = d->next) {
        if (d->dpy == dpy)
            break;
    }
    pthread_mutex_unlock(&present_lock);
    if (d != NULL)
        return d;
    d = calloc(1, sizeof(*d));
    if (d == NULL)
        return NULL;
    d->dpy = dpy;
    codes = XAddExtension(dpy);
    if (codes == NULL) {
        free(d);
        return NULL;
    }
    d->ext_number = codes->extension;
    if (!XQueryExtension(dpy, "MIT-SHM", &d->shm_opcode, &ev, &er))
        d->shm_opcode = 0;
    if (!XQueryExtension(dpy, "GLX", &d->glx_opcode, &ev, &d->glx_error))
        d->glx_opcode = 0;
    pthread_mutex_lock(&present_lock);
    d->next = displays;
    displays = d;
    pthread_mutex_unlock(&present_lock);
    XESetError(dpy, codes->extension, error_hook);
    XESetCloseDisplay(dpy, codes->extension, close_display);
    return d;
}

bool glmux_pixels_geometry(Display *dpy, XID target, int *w, int *h, int *depth)
{
    Window root;
    int x, y;
    unsigned int uw, uh, border, udepth;

    display_of(dpy);
    quiet_add(dpy, target);
    if (!XGetGeometry(dpy, target, &root, &x, &y, &uw, &uh, &border, &udepth)) {
        quiet_take_gone(dpy, target);
        return false;
    }
    *w = (int)uw;
    *h = (int)uh;
    if (depth != NULL)
        *depth = (int)udepth;
    return true;
}

enum glmux_pixels_fit glmux_pixels_probe(Display *dpy, const struct glmux_pixels_config *config,
                                         XID target, int *depth)
{
    Window root;
    int x, y;
    unsigned int uw, uh, border, udepth;
    enum glmux_pixels_fit fit;

    if (display_of(dpy) == NULL)
        return GLMUX_PIXELS_GONE;
    quiet_add(dpy, target);
    if (!XGetGeometry(dpy, target, &root, &x, &y, &uw, &uh, &border, &udepth)) {
        quiet_remove(dpy, target);
        return GLMUX_PIXELS_GONE;
    }
    fit = glmux_pixels_fit(dpy, config, RootWindow(dpy, config->screen), root, (int)udepth);
    if (fit != GLMUX_PIXELS_FITS)
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: drawable 0x%lx (depth %u) cannot show "
                  "FBConfig 0x%x (screen %d, visual depth %d, 32-bit pixels): BadMatch",
                  (unsigned long)target, udepth, config->id, config->screen, config->depth);
    if (fit != GLMUX_PIXELS_FITS)
        quiet_remove(dpy, target);
    *depth = (int)udepth;
    return fit;
}

void glmux_pixels_x_error(Display *dpy, unsigned char code, int glx_code, XID resource,
                          int glx_minor)
{
    struct present_display *pd = display_of(dpy);
    xError err;

    memset(&err, 0, sizeof(err));
    err.type = X_Error;
    err.errorCode = code;
    if (glx_code >= 0 && pd != NULL && pd->glx_opcode != 0)
        err.errorCode = (CARD8)(pd->glx_error + glx_code);
    err.resourceID = (CARD32)resource;
    err.majorCode = pd != NULL ? (CARD8)pd->glx_opcode : 0;
    err.minorCode = (CARD16)glx_minor;
    LockDisplay(dpy);
    err.sequenceNumber = (CARD16)dpy->request;
    _XError(dpy, &err);
    UnlockDisplay(dpy);
}

bool glmux_pixels_surface_update(struct glmux_pixels_drawable *d,
                                 const struct glmux_pixels_config *config)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    int w = d->width, h = d->height;
    EGLSurface s;

    if (egl == NULL)
        return false;
    if (d->kind != GLMUX_PIXELS_PBUFFER && !d->gone &&
        !glmux_pixels_geometry(d->dpy, d->target, &w, &h, NULL)) {
        d->gone = true;
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: X drawable 0x%lx is gone; rendering "
                  "continues off screen", (unsigned long)d->target);
    }
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
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
    d->surface_config = config;
    d->width = w;
    d->height = h;
    return true;
}

/* Tests once per display whether the server can attach our shared memory. */
static bool shm_works(struct present_display *pd)
{
    XShmSegmentInfo info;
    int major, minor;
    Bool pixmaps;

    if (pd->shm_state != 0)
        return pd->shm_state > 0;
    pd->shm_state = -1;
    if (pd->shm_opcode == 0 || glmux_env_get_int("GLMUX_GLX_REMOTE_SHM", 1) == 0)
        goto out;
    pthread_once(&xshm_once, xshm_load);
    if (xshm.QueryVersion == NULL || !xshm.QueryVersion(pd->dpy, &major, &minor, &pixmaps))
        goto out;
    memset(&info, 0, sizeof(info));
    info.shmid = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
    if (info.shmid < 0)
        goto out;
    info.shmaddr = shmat(info.shmid, NULL, 0);
    shmctl(info.shmid, IPC_RMID, NULL);
    if (info.shmaddr == (char *)-1)
        goto out;
    pd->shm_error = false;
    if (xshm.Attach(pd->dpy, &info)) {
        XSync(pd->dpy, False);
        if (!pd->shm_error) {
            xshm.Detach(pd->dpy, &info);
            XSync(pd->dpy, False);
            pd->shm_state = 1;
        }
    }
    shmdt(info.shmaddr);
out:
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: display %s: frames go out with %s",
              DisplayString(pd->dpy), pd->shm_state > 0 ? "XShmPutImage (MIT-SHM works)"
                                                        : "XPutImage (no usable MIT-SHM)");
    return pd->shm_state > 0;
}

static void shm_free(Display *dpy, struct glmux_pixels_shm *b)
{
    if (b == NULL)
        return;
    if (b->image != NULL) {
        xshm.Detach(dpy, &b->info);
        b->image->data = NULL;
        XDestroyImage(b->image);
        shmdt(b->info.shmaddr);
    }
    free(b);
}

static struct glmux_pixels_shm *shm_alloc(Display *dpy, int depth,
                                          const struct glmux_pixels_layout *l)
{
    struct glmux_pixels_shm *b = calloc(1, sizeof(*b));
    struct present_display *pd = display_of(dpy);

    if (b == NULL || pd == NULL)
        goto fail;
    b->image = xshm.CreateImage(dpy, NULL, (unsigned)depth, ZPixmap, NULL, &b->info,
                               (unsigned)l->width, (unsigned)l->height);
    /* Xlib lays the image out from the server's pixmap formats: use it only if that is the
     * layout the read-back writes. */
    if (b->image != NULL && !glmux_pixels_image_ok(b->image, l)) {
        XDestroyImage(b->image);
        b->image = NULL;
    }
    if (b->image == NULL)
        goto fail;
    b->image->byte_order = glmux_pixels_host_order();
    b->info.shmid = shmget(IPC_PRIVATE, l->size, IPC_CREAT | 0600);
    if (b->info.shmid < 0)
        goto fail;
    b->info.shmaddr = b->image->data = shmat(b->info.shmid, NULL, 0);
    shmctl(b->info.shmid, IPC_RMID, NULL);
    if (b->info.shmaddr == (char *)-1) {
        b->image->data = NULL;
        goto fail;
    }
    b->info.readOnly = True;
    pd->shm_error = false;
    if (!xshm.Attach(dpy, &b->info)) {
        shmdt(b->info.shmaddr);
        b->image->data = NULL;
        goto fail;
    }
    return b;
fail:
    if (b != NULL && b->image != NULL) {
        b->image->data = NULL;
        XDestroyImage(b->image);
    }
    free(b);
    return NULL;
}

/* glReadPixels of the whole surface into dst (l->size bytes), top row first; GL state left as
 * found. A multisampled surface (config c) is resolved first. */
static void read_back(const struct glmux_pixels_gl *gl, const struct glmux_pixels_config *c,
                      const struct glmux_pixels_layout *l, char *dst)
{
    GLint fb = 0, pbo = 0, align = 4, row = 0, skip_rows = 0, skip_pixels = 0;
    struct glmux_pixels_resolve resolve;
    char *tmp = malloc(l->size);

    if (tmp == NULL)
        return;
    gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &fb);
    gl->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pbo);
    gl->GetIntegerv(GL_PACK_ALIGNMENT, &align);
    gl->GetIntegerv(GL_PACK_ROW_LENGTH, &row);
    gl->GetIntegerv(GL_PACK_SKIP_ROWS, &skip_rows);
    gl->GetIntegerv(GL_PACK_SKIP_PIXELS, &skip_pixels);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 4);
    gl->PixelStorei(GL_PACK_ROW_LENGTH, 0);
    gl->PixelStorei(GL_PACK_SKIP_ROWS, 0);
    gl->PixelStorei(GL_PACK_SKIP_PIXELS, 0);
    glmux_pixels_resolve_begin(c, l->width, l->height, &resolve);
    /* 32-bit 0xAARRGGBB words in the host's order: an X ZPixmap of 32 bits a pixel. */
    gl->ReadPixels(0, 0, l->width, l->height, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, tmp);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)fb);
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pbo);
    gl->PixelStorei(GL_PACK_ALIGNMENT, align);
    gl->PixelStorei(GL_PACK_ROW_LENGTH, row);
    gl->PixelStorei(GL_PACK_SKIP_ROWS, skip_rows);
    gl->PixelStorei(GL_PACK_SKIP_PIXELS, skip_pixels);
    glmux_pixels_resolve_end(&resolve);
    for (int y = 0; y < l->height; y++)
        memcpy(dst + (size_t)y * (size_t)l->stride,
               tmp + (size_t)(l->height - 1 - y) * (size_t)l->stride, (size_t)l->stride);
    free(tmp);
}

void glmux_pixels_present(struct glmux_pixels_drawable *d)
{
    const struct glmux_pixels_gl *gl = glmux_pixels_gl_get();
    struct present_display *pd;
    struct glmux_pixels_layout l;
    int w = d->width, h = d->height, gw, gh;
    size_t sent = 0;
    bool shm = false;

    if (gl == NULL || d->kind == GLMUX_PIXELS_PBUFFER || d->gone ||
        (pd = display_of(d->dpy)) == NULL)
        return;
    if (!glmux_pixels_geometry(d->dpy, d->target, &gw, &gh, NULL)) {
        d->gone = true;
        return;
    }
    if (w > gw)
        w = gw;
    if (h > gh)
        h = gh;
    /* The drawable's depth was checked when it was made (glmux_pixels_probe); every buffer
     * below is sized from this one layout. */
    if (!glmux_pixels_layout(w, h, &l))
        return;
    if (d->gc == NULL) {
        d->gc = XCreateGC(d->dpy, d->target, 0, NULL);
        if (d->gc == NULL)
            return;
        quiet_add(d->dpy, XGContextFromGC(d->gc));
    }
    if (shm_works(pd)) {
        struct glmux_pixels_shm *b = d->shm;

        if (b != NULL && (b->image->width != l.width || b->image->height != l.height)) {
            shm_free(d->dpy, b);
            b = d->shm = NULL;
        }
        if (b == NULL)
            b = d->shm = shm_alloc(d->dpy, d->depth, &l);
        if (b != NULL) {
            read_back(gl, d->surface_config, &l, b->image->data);
            xshm.PutImage(d->dpy, d->target, d->gc, b->image, 0, 0, 0, 0, (unsigned)l.width,
                         (unsigned)l.height, False);
            /* The server reads the segment before this returns; then it can be reused. */
            XSync(d->dpy, False);
            shm = true;
            sent = 32; /* the request; the pixels never cross the connection */
        }
    }
    if (!shm) {
        XImage *img = glmux_pixels_image_create(d->dpy, NULL, d->depth, &l);

        if (img == NULL)
            return;
        img->data = malloc(l.size);
        if (img->data != NULL) {
            read_back(gl, d->surface_config, &l, img->data);
            XPutImage(d->dpy, d->target, d->gc, img, 0, 0, 0, 0, (unsigned)l.width,
                      (unsigned)l.height);
            XFlush(d->dpy);
            sent = l.size;
        }
        XDestroyImage(img);
    }
    if (quiet_take_gone(d->dpy, d->target))
        d->gone = true;
    __atomic_add_fetch(&stats.frames, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&stats.bytes, sent, __ATOMIC_RELAXED);
    if (shm)
        __atomic_add_fetch(&stats.shm_frames, 1, __ATOMIC_RELAXED);
}

void glmux_pixels_present_release(struct glmux_pixels_drawable *d)
{
    if (d->shm != NULL) {
        shm_free(d->dpy, d->shm);
        d->shm = NULL;
    }
    if (d->gc != NULL) {
        quiet_remove(d->dpy, XGContextFromGC(d->gc));
        XFreeGC(d->dpy, d->gc);
        d->gc = NULL;
    }
    if (d->target != None)
        quiet_remove(d->dpy, d->target);
}

void glmux_pixels_present_display_closed(Display *dpy)
{
    pthread_mutex_lock(&present_lock);
    for (struct present_display **p = &displays; *p != NULL; p = &(*p)->next) {
        if ((*p)->dpy == dpy) {
            struct present_display *d = *p;

            *p = d->next;
            free(d);
            break;
        }
    }
    pthread_mutex_unlock(&present_lock);
    pthread_mutex_lock(&quiet_lock);
    for (int i = 0; i < QUIET_MAX; i++) {
        if (quiet_dpys[i] == dpy)
            quiet_ids[i] = None;
    }
    pthread_mutex_unlock(&quiet_lock);
}

void glmux_pixels_present_after_fork(void)
{
    pthread_mutex_init(&present_lock, NULL);
    pthread_mutex_init(&quiet_lock, NULL);
}

void glmux_pixels_present_fini(void)
{
    pthread_mutex_lock(&present_lock);
    while (displays != NULL) {
        struct present_display *d = displays;

        displays = d->next;
        /* The display outlives libGLX: unhook before our code goes away. */
        XESetError(d->dpy, d->ext_number, NULL);
        XESetCloseDisplay(d->dpy, d->ext_number, NULL);
        free(d);
    }
    pthread_mutex_unlock(&present_lock);
}

void glmux_pixels_stats_get(struct glmux_pixels_stats *out)
{
    out->frames = __atomic_load_n(&stats.frames, __ATOMIC_RELAXED);
    out->bytes = __atomic_load_n(&stats.bytes, __ATOMIC_RELAXED);
    out->shm_frames = __atomic_load_n(&stats.shm_frames, __ATOMIC_RELAXED);
}
