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
 * the process then hangs instead of reaching the I/O error handler.
 * Locks: shm_lock guards each display's MIT-SHM state; it is never held across an Xlib, xcb,
 * EGL or GL call.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

#include <X11/Xlibint.h>
#include <X11/Xutil.h>

#include "pixels/pixels_display.h"
#include "pixels/pixels_frame.h"
#include "pixels/pixels_server.h"
#include "pixels/pixels_xlibs.h"
#include "util/env.h"
#include "util/lifecycle.h"
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

/* The transport's part of dpy's record (pixels_display.c): made with no lock held. */
static void *present_display_new(Display *dpy)
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
    /* Read now too, with its sibling, so that a bad value is said when the display is set up,
     * not at the first frame (glmux_pixels_shm_works reads it again; it is said once). */
    (void)glmux_env_get_int("GLMUX_GLX_REMOTE_SHM", 1);
    d->order = ImageByteOrder(dpy);
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: display %s: %s", DisplayString(dpy),
              d->present ? "Present: window sizes from its events, frames paced by it"
                         : "no Present: window sizes asked after each frame");
    return d;
}

static const struct glmux_pixels_part_ops present_part = {
    .make = present_display_new, .free = free,
};

/* What the transport knows of dpy (made on first use: X requests, no lock held); NULL without
 * libX11-xcb, or when out of memory. */
struct present_display *glmux_pixels_present_of(Display *dpy)
{
    return glmux_pixels_display_part(dpy, GLMUX_PIXELS_PART_SERVER, &present_part);
}

/* Before fork the lock is taken on the forking thread, so that the child finds it free. */
static void server_fork(enum glmux_fork_step step)
{
    glmux_fork_mutex(&shm_lock, step);
}

GLMUX_LIFECYCLE_STEP(pixels_server, GLMUX_PIXELS_ORDER_SERVER, .fork = server_fork);

/* ---- questions to the server ---- */

/* GetGeometry of target, answered now; NULL when it is gone (the error is ours). Why there is
 * no answer (the server's error, none, a connection that died) is logged at level info. */
xcb_get_geometry_reply_t *glmux_pixels_geometry_now(struct present_display *pd, XID target,
                                                    int *error)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    xcb_generic_error_t *err = NULL;
    unsigned int seq = xl->get_geometry(pd->xcb, (xcb_drawable_t)target).sequence;
    xcb_get_geometry_reply_t *r = glmux_pixels_reply_wait(xl, pd->xcb, seq, &err);

    if (error != NULL)
        *error = err != NULL ? err->error_code : 0;
    if (r == NULL && err != NULL)
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: GetGeometry of 0x%lx (request %u): X "
                  "error %d (%s)", (unsigned long)target, seq, err->error_code,
                  glmux_pixels_error_name(err->error_code));
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
    xcb_get_geometry_reply_t *r = pd != NULL ? glmux_pixels_geometry_now(pd, target, NULL)
                                              : NULL;

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

const char *glmux_pixels_error_name(int code)
{
    static const char *const names[] = {
        [BadRequest] = "BadRequest", [BadValue] = "BadValue", [BadWindow] = "BadWindow",
        [BadPixmap] = "BadPixmap", [BadAtom] = "BadAtom", [BadCursor] = "BadCursor",
        [BadFont] = "BadFont", [BadMatch] = "BadMatch", [BadDrawable] = "BadDrawable",
        [BadAccess] = "BadAccess", [BadAlloc] = "BadAlloc", [BadColor] = "BadColor",
        [BadGC] = "BadGC", [BadIDChoice] = "BadIDChoice", [BadName] = "BadName",
        [BadLength] = "BadLength", [BadImplementation] = "BadImplementation",
    };

    if (code > 0 && code < (int)(sizeof(names) / sizeof(names[0])))
        return names[code];
    return "an extension's error";
}

/* The vendor's own X errors logged at level warn in a process (a drawable that does not exist
 * is logged at level info, always). */
#define RAISED_LOGGED 16

void glmux_pixels_x_error(Display *dpy, unsigned char code, int glx_code, XID resource,
                          int glx_minor, int core_request, const char *fmt, ...)
{
    static unsigned int raised_logged;
    struct present_display *pd = glmux_pixels_present_of(dpy);
    bool glx = glx_code >= 0 && pd != NULL && pd->glx_opcode != 0;
    bool gone = code == BadWindow || code == BadPixmap || code == BadDrawable;
    char why[512];
    unsigned int n = 0;
    va_list ap;
    xError err;

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    if (!gone)
        n = __atomic_fetch_add(&raised_logged, 1, __ATOMIC_RELAXED);
    if (gone || n < RAISED_LOGGED)
        glmux_log(gone ? GLMUX_LOG_INFO : GLMUX_LOG_WARN, "pixels GLX vendor: %s; the "
                  "application gets %s%s (X error %d)%s", why, glx ? "GLX error " : "",
                  glx ? "" : glmux_pixels_error_name(code),
                  glx ? pd->glx_error + glx_code : code,
                  n + 1 == RAISED_LOGGED ? " (further such errors are not logged)" : "");
    memset(&err, 0, sizeof(err));
    err.type = X_Error;
    err.errorCode = code;
    if (glx)
        err.errorCode = (CARD8)(pd->glx_error + glx_code);
    err.resourceID = (CARD32)resource;
    err.majorCode = (CARD8)(pd != NULL && pd->glx_opcode != 0 ? pd->glx_opcode : core_request);
    err.minorCode = (CARD16)glx_minor; /* the GLX request, whatever the major code */
    LockDisplay(dpy);
    err.sequenceNumber = (CARD16)dpy->request;
    _XError(dpy, &err);
    UnlockDisplay(dpy);
}

/*
 * A private segment of size bytes attached here, and ShmAttach sent; false (nothing kept) when
 * it cannot be made. The segment is marked for removal (IPC_RMID) as soon as the server may
 * have it: on Linux at once, before the attach is sent (a marked segment can still be attached
 * there, by id, while this process has it mapped), so that a process killed before the
 * server's answer leaves nothing behind; elsewhere once the attach is sent, as the system
 * needs it to exist by then. Either way it goes when the last attachment does, so the caller
 * keeps it mapped until the server has answered the attach (a marked segment that nobody has
 * mapped is gone, and the server's attach of it fails). The attach's error is the caller's to
 * hear (*attach and b->attach: checked).
 */
bool glmux_pixels_shm_segment(const struct glmux_pixels_xlibs *xl, xcb_connection_t *c,
                              size_t size, struct glmux_pixels_buffer *b, unsigned int *attach)
{
    b->shmid = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
    if (b->shmid < 0)
        return false;
    b->data = shmat(b->shmid, NULL, 0);
#ifdef __linux__
    shmctl(b->shmid, IPC_RMID, NULL);
#endif
    if (b->data == (char *)-1) {
        shmctl(b->shmid, IPC_RMID, NULL);
        b->data = NULL;
        return false;
    }
    b->seg = xl->generate_id(c);
    b->attach = xl->shm_attach_checked(c, b->seg, (uint32_t)b->shmid, 1).sequence;
    *attach = b->attach;
#ifndef __linux__
    shmctl(b->shmid, IPC_RMID, NULL);
#endif
    return true;
}

/* The answer to a checked request sent before a reply that came in: its error (NULL: none). */
static xcb_generic_error_t *answered(const struct glmux_pixels_xlibs *xl, xcb_connection_t *c,
                                     unsigned int seq)
{
    xcb_generic_error_t *err = NULL;
    void *reply = NULL;

    if (!xl->poll_for_reply(c, seq, &reply, &err))
        xl->discard_reply(c, seq); /* no answer: the connection died */
    free(reply);
    return err;
}

/*
 * The display's test: a 4 KiB segment attached and detached again, then a GetGeometry of the
 * root window waited for (one round trip), after which both answers are in. A failed attach
 * (the server cannot reach our memory: a client on another machine, a server in another IPC
 * namespace, MIT-SHM refused) is logged with its error.
 */
static bool shm_test(const struct glmux_pixels_xlibs *xl, struct present_display *pd)
{
    struct glmux_pixels_buffer test = { 0 };
    xcb_generic_error_t *attach_err, *detach_err;
    unsigned int attach, detach;
    void *sync;
    bool ok;

    if (!glmux_pixels_shm_segment(xl, pd->xcb, 4096, &test, &attach)) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: display %s: no shared memory segment "
                  "here for the MIT-SHM test", DisplayString(pd->dpy));
        return false;
    }
    detach = xl->shm_detach_checked(pd->xcb, test.seg).sequence;
    sync = glmux_pixels_reply_wait(xl, pd->xcb,
                                   xl->get_geometry(pd->xcb, DefaultRootWindow(pd->dpy)).sequence,
                                   NULL);
    attach_err = answered(xl, pd->xcb, attach);
    detach_err = answered(xl, pd->xcb, detach);
    /* No answer (the connection died): not attached, as far as we know. */
    ok = sync != NULL && attach_err == NULL && detach_err == NULL;
    if (attach_err != NULL || detach_err != NULL)
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: display %s: MIT-SHM test: %s failed (X "
                  "error %d)", DisplayString(pd->dpy), attach_err != NULL ? "ShmAttach"
                                                                          : "ShmDetach",
                  attach_err != NULL ? attach_err->error_code : detach_err->error_code);
    free(sync);
    free(attach_err);
    free(detach_err);
    shmdt(test.data);
    return ok;
}

/* Whether the server can attach our shared memory: tested once per display (one thread tests,
 * the others put meanwhile; a round trip). A TCP client gets no shared memory. */
bool glmux_pixels_shm_works(struct present_display *pd)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    const xcb_query_extension_reply_t *ext;
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
        shm_test(xl, pd))
        state = 1;
    pthread_mutex_lock(&shm_lock);
    /* A transport's MIT-SHM request may have failed meanwhile (glmux_pixels_shm_failed). */
    if (pd->shm_state == 0)
        pd->shm_state = state;
    state = pd->shm_state;
    pd->shm_testing = false;
    pthread_mutex_unlock(&shm_lock);
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: display %s: frames go out with %s",
              DisplayString(pd->dpy), state > 0 ? "xcb ShmPutImage requests (MIT-SHM works)"
                                                : "xcb PutImage requests (no usable MIT-SHM)");
    return state > 0;
}

bool glmux_pixels_shm_failed(struct present_display *pd)
{
    bool newly;

    pthread_mutex_lock(&shm_lock);
    newly = pd->shm_state != -1;
    pd->shm_state = -1;
    pthread_mutex_unlock(&shm_lock);
    return newly;
}
