/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels GLX vendor's questions to an X server, and what its frame transport
 * (pixels_present.c) keeps of each display (docs/remote.md, "How a frame travels"): the
 * server's GLX error codes, byte order, whether it has Present, and whether it can attach our
 * shared memory (MIT-SHM, tested once per display); a drawable's size and a pixmap's contents,
 * asked and answered now; X errors reported as the server would report them.
 * Every request goes through the display's xcb connection, checked, so that its error comes back
 * to us and never reaches the application's X error handler. A reply is waited for by polling
 * (glmux_pixels_reply_wait: xcb_poll_for_reply, which reads the socket when no other thread
 * does, and poll(2) on it), never inside xcb_wait_for_reply or xcb_request_check: libxcb 1.15
 * (Debian 12) spins forever, holding the connection's lock, when a thread leaves
 * xcb_wait_for_reply while another thread waiting for an earlier reply is still queued ahead of
 * it; a connection that dies under several waiting threads does just that, and every thread of
 * the process then hangs instead of reaching the I/O error handler (issue 25).
 * Locks: shm_lock guards each display's MIT-SHM state; it is never held across an Xlib, xcb,
 * EGL or GL call.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

#include <X11/Xlibint.h>
#include <X11/Xutil.h>

#include "pixels/pixels.h"
#include "util/env.h"
#include "util/log.h"

static pthread_mutex_t shm_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- waiting for a reply ---- */

/* The pause after poll(2) found the socket readable and our reply still was not in: another
 * thread is reading the connection; it gets a moment to take in what is there. */
#define REPLY_BUSY_PAUSE_US 200

/*
 * The reply (or error, *err when err is not NULL) to request seq, waited for without entering
 * xcb's queue of waiting readers (see the top of this file): xcb_poll_for_reply reads what the
 * server has sent when no other thread is reading the connection, poll(2) waits for more, at
 * most 5 ms at a time (another thread may read it meanwhile). NULL when there is no reply: an
 * error, or a connection that died (xcb_poll_for_reply answers at once then).
 */
void *glmux_pixels_reply_wait(const struct glmux_pixels_xlibs *xl, xcb_connection_t *c,
                              unsigned int seq, xcb_generic_error_t **err)
{
    void *reply = NULL;
    int busy = 0;

    if (err != NULL)
        *err = NULL;
    xl->flush(c);
    while (!xl->poll_for_reply(c, seq, &reply, err)) {
        struct pollfd pfd = { xl->get_file_descriptor(c), POLLIN, 0 };

        if (busy > 0)
            usleep(REPLY_BUSY_PAUSE_US);
        busy = poll(&pfd, 1, 5) > 0 ? busy + 1 : 0;
    }
    return reply;
}

/* ---- a display's part ---- */

/* Whether the server has Present (one round trip, once per display); never in a build without
 * <xcb/present.h> (pixels.h). */
static bool has_present(const struct glmux_pixels_xlibs *xl, xcb_connection_t *c)
{
#if GLMUX_PIXELS_PRESENT
    const xcb_query_extension_reply_t *ext;
    xcb_present_query_version_reply_t *v;
    bool ok;

    if (!xl->present || (ext = xl->get_extension_data(c, xl->present_id)) == NULL ||
        !ext->present)
        return false;
    v = glmux_pixels_reply_wait(xl, c, xl->present_query_version(c, 1, 2).sequence, NULL);
    ok = v != NULL && v->major_version >= 1;
    free(v);
    return ok;
#else
    (void)xl;
    (void)c;
    return false;
#endif
}

struct present_display *glmux_pixels_present_display_new(Display *dpy)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    struct present_display *d;
    int ev;

    if (!xl->xcb || (d = calloc(1, sizeof(*d))) == NULL)
        return NULL;
    d->dpy = dpy;
    d->xcb = xl->GetXCBConnection(dpy);
    if (!XQueryExtension(dpy, "GLX", &d->glx_opcode, &ev, &d->glx_error))
        d->glx_opcode = 0;
    d->present = glmux_env_get_int("GLMUX_GLX_REMOTE_PRESENT", 1) != 0 && has_present(xl, d->xcb);
    d->order = ImageByteOrder(dpy);
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: display %s: %s", DisplayString(dpy),
              d->present ? "Present: window sizes from its events, frames paced by it"
                         : "no Present: window sizes asked after each frame");
    return d;
}

void glmux_pixels_present_display_free(struct present_display *pd)
{
    free(pd);
}

/* What the transport knows of dpy (made on first use: X requests, no lock held); NULL without
 * libX11-xcb, or when out of memory. */
struct present_display *glmux_pixels_present_of(Display *dpy)
{
    struct glmux_pixels_display *r = glmux_pixels_display_get(dpy);

    return r != NULL ? r->present : NULL;
}

void glmux_pixels_present_after_fork(void)
{
    pthread_mutex_init(&shm_lock, NULL);
}

/* ---- questions to the server ---- */

/* GetGeometry of target, answered now; NULL when it is gone (the error is ours). Why there is
 * no answer (the server's error, none, a connection that died) is logged at level info. */
xcb_get_geometry_reply_t *glmux_pixels_geometry_now(struct present_display *pd, XID target)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    xcb_generic_error_t *err = NULL;
    unsigned int seq = xl->get_geometry(pd->xcb, (xcb_drawable_t)target).sequence;
    xcb_get_geometry_reply_t *r = glmux_pixels_reply_wait(xl, pd->xcb, seq, &err);

    if (r == NULL && err != NULL)
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: GetGeometry of 0x%lx (request %u): X "
                  "error %d", (unsigned long)target, seq, err->error_code);
    else if (r == NULL)
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: GetGeometry of 0x%lx (request %u): no "
                  "reply and no error (xcb connection error %d)", (unsigned long)target, seq,
                  xl->connection_has_error(pd->xcb));
    free(err);
    return r;
}

bool glmux_pixels_geometry(Display *dpy, XID target, int *w, int *h, int *depth)
{
    struct present_display *pd = glmux_pixels_present_of(dpy);
    xcb_get_geometry_reply_t *r = pd != NULL ? glmux_pixels_geometry_now(pd, target) : NULL;

    if (r == NULL)
        return false;
    *w = r->width;
    *h = r->height;
    if (depth != NULL)
        *depth = r->depth;
    free(r);
    return true;
}

XImage *glmux_pixels_pixmap_bgra(Display *dpy, Pixmap pixmap, int w, int h)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    struct present_display *pd = glmux_pixels_present_of(dpy);
    struct glmux_pixels_layout l;
    xcb_get_image_reply_t *r;
    XImage *img;
    unsigned int seq;
    char *data;

    if (pd == NULL || !glmux_pixels_layout(w, h, &l))
        return NULL;
    seq = xl->get_image(pd->xcb, XCB_IMAGE_FORMAT_Z_PIXMAP, (xcb_drawable_t)pixmap, 0, 0,
                        (uint16_t)w, (uint16_t)h, ~0u).sequence;
    r = glmux_pixels_reply_wait(xl, pd->xcb, seq, NULL);
    /* Only what the server says is there, and only if it is the frame's size. */
    if (r == NULL || (r->depth != 24 && r->depth != 32) ||
        glmux_pixels_format_bpp(dpy, r->depth) != 32 || (uint64_t)r->length * 4 != l.size ||
        (data = malloc(l.size)) == NULL) {
        if (r != NULL)
            glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: pixmap 0x%lx (depth %u) is not read: "
                      "only depth 24 and 32 in 32 bits a pixel are", (unsigned long)pixmap,
                      r->depth);
        free(r);
        return NULL;
    }
    memcpy(data, r + 1, l.size);
    for (size_t i = 0; i < l.size; i += 4) {
        if (pd->order == MSBFirst) { /* A, R, G, B to B, G, R, A */
            char t = data[i], u = data[i + 1];

            data[i] = data[i + 3];
            data[i + 1] = data[i + 2];
            data[i + 2] = u;
            data[i + 3] = t;
        }
        if (r->depth != 32)
            data[i + 3] = (char)0xff;
    }
    img = XCreateImage(dpy, NULL, r->depth, ZPixmap, 0, data, (unsigned)w, (unsigned)h, 32,
                       l.stride);
    free(r);
    if (img == NULL)
        free(data);
    return img;
}

void glmux_pixels_x_error(Display *dpy, unsigned char code, int glx_code, XID resource,
                          int glx_minor)
{
    struct present_display *pd = glmux_pixels_present_of(dpy);
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

/*
 * A private segment of size bytes attached here and to the server; false (nothing kept) when
 * either fails. The server's answer is waited for only when check_root is not 0 (the display's
 * test; a drawable's segments rely on that test, and a put that fails turns the drawable to
 * PutImage): a GetGeometry of that root window follows the attach, and once its reply is in,
 * the attach's error, if any, is too (glmux_pixels_reply_wait: no xcb_request_check).
 */
bool glmux_pixels_shm_segment(const struct glmux_pixels_xlibs *xl, xcb_connection_t *c,
                              size_t size, xcb_window_t check_root,
                              struct glmux_pixels_buffer *b)
{
    xcb_void_cookie_t attach;
    xcb_generic_error_t *err = NULL;
    bool failed = false;

    b->shmid = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
    if (b->shmid < 0)
        return false;
    b->data = shmat(b->shmid, NULL, 0);
    if (b->data == (char *)-1) {
        shmctl(b->shmid, IPC_RMID, NULL);
        b->data = NULL;
        return false;
    }
    b->seg = xl->generate_id(c);
    attach = xl->shm_attach_checked(c, b->seg, (uint32_t)b->shmid, 1);
    if (check_root != 0) {
        void *sync = glmux_pixels_reply_wait(xl, c, xl->get_geometry(c, check_root).sequence, NULL);
        void *none = NULL;

        /* No answer (the connection died): not attached, as far as we know. */
        failed = sync == NULL || !xl->poll_for_reply(c, attach.sequence, &none, &err) ||
                 err != NULL;
        free(sync);
        free(none);
    } else {
        xl->discard_reply(c, attach.sequence);
    }
    /* Attached (the server's attach is in flight or done): the segment goes when the last
     * attachment does. */
    shmctl(b->shmid, IPC_RMID, NULL);
    if (failed) {
        free(err);
        shmdt(b->data);
        b->data = NULL;
        b->seg = 0;
        return false;
    }
    return true;
}

/* Whether the server can attach our shared memory: tested once per display (one thread tests,
 * the others put meanwhile; a round trip). A TCP client gets no shared memory. */
bool glmux_pixels_shm_works(struct present_display *pd)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    const xcb_query_extension_reply_t *ext;
    struct glmux_pixels_buffer test = { 0 };
    int state;

    pthread_mutex_lock(&shm_lock);
    state = pd->shm_state;
    if (state == 0 && !pd->shm_testing)
        pd->shm_testing = true;
    else if (state == 0)
        state = -1;
    pthread_mutex_unlock(&shm_lock);
    if (state != 0)
        return state > 0;
    state = -1;
    if (xl->shm && glmux_env_get_int("GLMUX_GLX_REMOTE_SHM", 1) != 0 &&
        (ext = xl->get_extension_data(pd->xcb, xl->shm_id)) != NULL && ext->present &&
        glmux_pixels_shm_segment(xl, pd->xcb, 4096, (xcb_window_t)DefaultRootWindow(pd->dpy),
                                 &test)) {
        xl->discard_reply(pd->xcb, xl->shm_detach_checked(pd->xcb, test.seg).sequence);
        shmdt(test.data);
        state = 1;
    }
    pthread_mutex_lock(&shm_lock);
    pd->shm_state = state;
    pd->shm_testing = false;
    pthread_mutex_unlock(&shm_lock);
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: display %s: frames go out with %s",
              DisplayString(pd->dpy), state > 0 ? "XShmPutImage (MIT-SHM works)"
                                                : "XPutImage (no usable MIT-SHM)");
    return state > 0;
}
