/* SPDX-License-Identifier: MIT */
/*
 * glmux: the checks and arithmetic of a pixels-vendor frame, apart from any X request or GL call
 * so that a fuzz target (tests/fuzz/fuzz_pixels_present.c) can feed them what a hostile X server
 * may answer. Everything here derives from values the server chose: a drawable's root, depth and
 * size (GetGeometry), the bits per pixel and scanline pad of each depth (the pixmap formats of
 * the connection setup) and the maximum request size. A frame is read back as 32-bit 0xAARRGGBB
 * pixels, so a drawable is accepted only when its depth is the config's visual depth, it
 * lies on the config's screen, and the server stores that depth in 32 bits a pixel with a legal
 * scanline pad (so that the server's rows are the frame's rows). Every buffer is sized from one
 * layout (stride = width * 4), and PutImage requests carry whole rows within the server's
 * maximum request size; a size beyond what real screens need is refused, not allocated.
 * What a transport hears (struct glmux_pixels_heard) is here too: Present's events, each read
 * only as far as libxcb's buffer of it goes, a CompleteNotify counted only as the answer to the
 * PresentNotifyMSC awaited, GetGeometry replies, and what each checked request's error means:
 * a drawable gone, MIT-SHM that cannot work here, or nothing new.
 */
#include <stdint.h>
#include <string.h>

#include <X11/Xutil.h>

#include "pixels/pixels_config.h"
#include "pixels/pixels_frame.h"

bool glmux_pixels_layout(int width, int height, struct glmux_pixels_layout *out)
{
    if (!glmux_pixels_size_allowed(width, height))
        return false;
    out->width = width;
    out->height = height;
    out->stride = width * 4;
    /* At most 2^26 pixels of 4 bytes: fits a 32-bit size_t too. */
    out->size = (size_t)out->stride * (size_t)height;
    return true;
}

int glmux_pixels_format_bpp(Display *dpy, int depth)
{
    int n = 0, bpp = 0;
    XPixmapFormatValues *f = XListPixmapFormats(dpy, &n);

    /* A depth listed twice counts only if both say the same (Xlib's own calls disagree on
     * which counts: XCreateImage takes the first, XPutImage the last). A scanline pad the
     * protocol does not allow (8, 16 or 32 bits) makes the depth unusable: the server's rows
     * could not be the frame's. */
    for (int i = 0; f != NULL && i < n; i++) {
        if (f[i].depth != depth)
            continue;
        if ((f[i].scanline_pad != 8 && f[i].scanline_pad != 16 && f[i].scanline_pad != 32) ||
            f[i].bits_per_pixel < 1 || (bpp != 0 && bpp != f[i].bits_per_pixel)) {
            bpp = 0;
            break;
        }
        bpp = f[i].bits_per_pixel;
    }
    if (f != NULL)
        XFree(f);
    return bpp;
}

enum glmux_pixels_fit glmux_pixels_fit(Display *dpy, const struct glmux_pixels_config *c,
                                       Window config_root, Window root, int depth)
{
    if (root != config_root || depth != c->depth || depth < 1 || depth > 32)
        return GLMUX_PIXELS_BAD_MATCH;
    if (glmux_pixels_format_bpp(dpy, depth) != 32)
        return GLMUX_PIXELS_BAD_MATCH;
    return GLMUX_PIXELS_FITS;
}

int glmux_pixels_band_rows(uint32_t max_request_words, const struct glmux_pixels_layout *l)
{
    /* A PutImage request is its 24-byte header and the rows. */
    uint64_t room = (uint64_t)max_request_words * 4, rows;

    if (room <= 24)
        return 0;
    rows = (room - 24) / (uint64_t)l->stride;
    return rows < (uint64_t)l->height ? (int)rows : l->height;
}

int glmux_pixels_host_order(void)
{
    const uint32_t one = 1;

    return *(const unsigned char *)&one == 1 ? LSBFirst : MSBFirst;
}

bool glmux_pixels_size_allowed(int width, int height)
{
    return width >= 1 && height >= 1 && width <= GLMUX_PIXELS_MAX_SIDE &&
           height <= GLMUX_PIXELS_MAX_SIDE &&
           (uint64_t)width * (uint64_t)height <= GLMUX_PIXELS_MAX_PIXELS;
}

/* ---- what a transport hears ---- */

/* Present's event types and the CompleteNotify kind of PresentNotifyMSC (the protocol's). */
#define EV_CONFIGURE_NOTIFY 0
#define EV_COMPLETE_NOTIFY 1
#define COMPLETE_KIND_NOTIFY_MSC 1
/* Where libxcb puts the bytes past an event's first 32: after its 4-byte full sequence. */
#define EV_EXTRA 36

static uint16_t get16(const unsigned char *p)
{
    uint16_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

bool glmux_pixels_heard_event(struct glmux_pixels_heard *h, const void *ev)
{
    const unsigned char *e = ev;
    /* libxcb's buffer: 32 + 4 + 4 * length bytes. Both events are 40 bytes on the wire. */
    uint32_t length = get32(e + 4);
    uint16_t type = get16(e + 8);

    if (length < 2 || (h->eid != 0 && get32(e + 12) != h->eid) || get32(e + 16) != h->window)
        return false;
    if (type == EV_CONFIGURE_NOTIFY) {
        h->width = get16(e + 24);
        h->height = get16(e + 26);
        return true;
    }
    if (type == EV_COMPLETE_NOTIFY && e[10] == COMPLETE_KIND_NOTIFY_MSC && h->awaiting &&
        get32(e + 20) == h->serial) {
        uint64_t msc;

        memcpy(&msc, e + EV_EXTRA, sizeof(msc));
        h->msc = msc;
        h->awaiting = false;
        return true;
    }
    return false;
}

void glmux_pixels_heard_geometry(struct glmux_pixels_heard *h, const xcb_get_geometry_reply_t *r)
{
    if (r == NULL) {
        h->gone = true; /* an error (BadDrawable) or a connection that died */
    } else if (!h->sized_by_events) {
        h->width = r->width;
        h->height = r->height;
    }
}

/* Sets *flag; whether it was not set before. */
static bool newly(bool *flag)
{
    bool was = *flag;

    *flag = true;
    return !was;
}

bool glmux_pixels_heard_error(struct glmux_pixels_heard *h, enum glmux_pixels_request req,
                              const xcb_generic_error_t *e)
{
    bool drawable = e->error_code == BadDrawable || e->error_code == BadWindow ||
                    e->error_code == BadPixmap;

    /* Once the drawable is gone, every error of its requests follows from that. */
    if (h->gone)
        return false;
    switch (req) {
    case GLMUX_PIXELS_REQ_SHM_ATTACH:
        /* The server cannot attach this process's segment (BadAccess: another machine or IPC
         * namespace, MIT-SHM refused...): the segment was mapped here until this answer. */
        break;
    case GLMUX_PIXELS_REQ_SHM_DETACH:
        /* A segment whose attach failed (heard before it): nothing new. */
        return false;
    case GLMUX_PIXELS_REQ_SHM_PUT:
        if (drawable)
            return newly(&h->gone);
        break;
    case GLMUX_PIXELS_REQ_PUT:
    case GLMUX_PIXELS_REQ_DRAWABLE:
        if (drawable || e->error_code == BadMatch)
            return newly(&h->gone);
        return false;
    case GLMUX_PIXELS_REQ_KINDS:
        return false;
    }
    /* MIT-SHM failed (BadShmSeg, BadAccess, BadValue...): PutImage from now on. */
    return newly(&h->shm_failed);
}
