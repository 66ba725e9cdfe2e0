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
 * maximum request size.
 */
#include <stdint.h>

#include <X11/Xutil.h>

#include "pixels/pixels.h"

bool glmux_pixels_layout(int width, int height, struct glmux_pixels_layout *out)
{
    if (width < 1 || height < 1 || width > GLMUX_PIXELS_MAX_SIDE ||
        height > GLMUX_PIXELS_MAX_SIDE)
        return false;
    out->width = width;
    out->height = height;
    out->stride = width * 4;
    /* At most 16384 * 65536 bytes: fits a 32-bit size_t too. */
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
