/* SPDX-License-Identifier: MIT */
/*
 * glmux: a pixels-vendor transport's checked requests (docs/remote.md, "How a frame travels").
 * Every request a transport sends goes through the display's xcb connection checked, and its
 * cookie is kept here until the server has answered it (its error, or a later reply: every
 * fence is such a reply); an error is heard however late it comes and logged (a drawable gone,
 * and what follows from it, at level info; MIT-SHM given up once a display at warn; any other
 * at warn, ERRORS_LOGGED a process), and either marks the drawable gone or turns the transport
 * to PutImage. The segments a transport lets go stay mapped (x->retired) until the server has
 * answered their ShmAttach; they are unmapped here once it has. Used by pixels_present.c, on
 * the thread that claimed the drawable; no lock.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>

#include <X11/Xlibint.h>

#include "pixels/pixels_server.h"
#include "pixels/pixels_xfer.h"
#include "pixels/pixels_xlibs.h"
#include "util/log.h"

/* X errors logged at level warn in a process (the rest are counted, not logged). */
#define ERRORS_LOGGED 16

static unsigned int errors_logged;

static const char *request_name(enum glmux_pixels_request req)
{
    switch (req) {
    case GLMUX_PIXELS_REQ_PUT: return "PutImage";
    case GLMUX_PIXELS_REQ_SHM_PUT: return "ShmPutImage";
    case GLMUX_PIXELS_REQ_SHM_ATTACH: return "ShmAttach";
    case GLMUX_PIXELS_REQ_SHM_DETACH: return "ShmDetach";
    case GLMUX_PIXELS_REQ_DRAWABLE: return "CreateGC or a Present request";
    case GLMUX_PIXELS_REQ_KINDS: break;
    }
    return "a request";
}

/* An X error's name, for messages: a core error's, or MIT-SHM's one error. */
static const char *error_name(struct glmux_pixels_xfer *x, const xcb_generic_error_t *e)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    const xcb_query_extension_reply_t *shm;

    if (e->error_code > BadImplementation && xl->shm &&
        (shm = xl->get_extension_data(x->c, xl->shm_id)) != NULL && shm->present &&
        e->error_code == shm->first_error)
        return "BadShmSeg";
    return glmux_pixels_error_name(e->error_code);
}

/* The error of one of the transport's checked requests: what it changes, logged. A drawable
 * gone, and every error after it (they follow from it), at level info; MIT-SHM given up at
 * level warn, and the errors that follow from that (the other segments' attaches and puts,
 * the detaches) at level info; any other at level warn. Warnings: ERRORS_LOGGED a process. */
static void error_heard(struct glmux_pixels_xfer *x, enum glmux_pixels_request req,
                        const xcb_generic_error_t *e)
{
    bool was_gone = x->h.gone, was_failed = x->h.shm_failed;
    bool changed = glmux_pixels_heard_error(&x->h, req, e);
    bool shm = req == GLMUX_PIXELS_REQ_SHM_ATTACH || req == GLMUX_PIXELS_REQ_SHM_DETACH ||
               req == GLMUX_PIXELS_REQ_SHM_PUT;
    unsigned int n;

    if (changed && x->h.gone) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: X drawable 0x%lx is gone (X error %d, "
                  "%s, to %s, request %u); rendering goes on off screen",
                  (unsigned long)x->target, e->error_code, error_name(x, e), request_name(req),
                  e->full_sequence);
        return;
    }
    if (was_gone || (!changed && shm && (was_failed || req == GLMUX_PIXELS_REQ_SHM_DETACH))) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: %s to 0x%lx failed (X error %d, %s, "
                  "request %u), as the %s heard before it made it", request_name(req),
                  (unsigned long)x->target, e->error_code, error_name(x, e), e->full_sequence,
                  was_gone ? "drawable's end" : "MIT-SHM failure");
        return;
    }
    /* The display's first: once a display has given MIT-SHM up, its other transports' turn
     * follows from that. */
    if (changed && x->h.shm_failed && !glmux_pixels_shm_failed(x->pd)) {
        glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: %s to 0x%lx failed (X error %d, %s, "
                  "request %u): frames go out with xcb PutImage requests, as display %s's "
                  "other frames already do", request_name(req), (unsigned long)x->target,
                  e->error_code, error_name(x, e), e->full_sequence, DisplayString(x->dpy));
        return;
    }
    n = __atomic_fetch_add(&errors_logged, 1, __ATOMIC_RELAXED);
    if (n >= ERRORS_LOGGED)
        return;
    if (changed && x->h.shm_failed)
        glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: %s to 0x%lx failed (X error %d, %s, "
                  "request %u, major %d, minor %d): the X server cannot use this process's "
                  "shared memory (MIT-SHM); frames of display %s go out with xcb PutImage "
                  "requests from now on%s", request_name(req), (unsigned long)x->target,
                  e->error_code, error_name(x, e), e->full_sequence, e->major_code, e->minor_code,
                  DisplayString(x->dpy), n + 1 == ERRORS_LOGGED ? " (further X errors of the "
                  "pixels vendor are not logged)" : "");
    else
        glmux_log(GLMUX_LOG_WARN, "pixels GLX vendor: %s to 0x%lx failed (X error %d, %s, "
                  "request %u, major %d, minor %d); that frame may not show%s",
                  request_name(req), (unsigned long)x->target, e->error_code, error_name(x, e),
                  e->full_sequence, e->major_code, e->minor_code,
                  n + 1 == ERRORS_LOGGED ? " (further X errors of the pixels vendor are not "
                                           "logged)" : "");
}

bool glmux_pixels_checked_answered(const struct glmux_pixels_xfer *x, unsigned int seq)
{
    for (int i = 0; i < x->nchecked; i++) {
        if (x->checked[i].seq == seq)
            return false;
    }
    return true;
}

/* Unmaps the segments let go whose attach the server has answered. */
static void retired_release(struct glmux_pixels_xfer *x)
{
    int kept = 0;

    for (int i = 0; i < x->nretired; i++) {
        if (glmux_pixels_checked_answered(x, x->retired[i].attach))
            shmdt(x->retired[i].data);
        else
            x->retired[kept++] = x->retired[i];
    }
    x->nretired = kept;
}

/* One not answered yet means none after it is. */
void glmux_pixels_checked_heard(struct glmux_pixels_xfer *x)
{
    const struct glmux_pixels_xlibs *xl = glmux_pixels_xlibs();
    int n = 0;

    while (n < x->nchecked) {
        xcb_generic_error_t *err = NULL;
        void *reply = NULL;

        if (!xl->poll_for_reply(x->c, x->checked[n].seq, &reply, &err))
            break;
        free(reply);
        if (err != NULL)
            error_heard(x, x->checked[n].req, err);
        free(err);
        n++;
    }
    if (n > 0) {
        x->nchecked -= n;
        memmove(x->checked, x->checked + n, sizeof(x->checked[0]) * (size_t)x->nchecked);
        retired_release(x);
    }
}

void glmux_pixels_checked_add(struct glmux_pixels_xfer *x, unsigned int seq,
                              enum glmux_pixels_request req)
{
    if (x->nchecked == x->checked_cap) {
        int cap = x->checked_cap > 0 ? x->checked_cap * 2 : 16;
        struct checked *more = realloc(x->checked, sizeof(*more) * (size_t)cap);

        if (more == NULL) { /* out of memory: this one's error is not heard */
            glmux_pixels_xlibs()->discard_reply(x->c, seq);
            return;
        }
        x->checked = more;
        x->checked_cap = cap;
    }
    x->checked[x->nchecked++] = (struct checked){ seq, req };
}
