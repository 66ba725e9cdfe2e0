/* SPDX-License-Identifier: MIT */
/*
 * glmux: the checks and arithmetic of a pixels-vendor frame, apart from any X request or GL call
 * so that a fuzz target (tests/fuzz/fuzz_pixels_present.c) can feed them what a hostile X server
 * may answer. Everything here derives from values the server chose: a drawable's root, depth and
 * size (GetGeometry), and the bits per pixel of each depth (the pixmap formats of the connection
 * setup). A frame is read back as 32-bit pixels (GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV: the host's
 * 0xAARRGGBB), so a drawable is accepted only when its depth is the config's visual depth, it
 * lies on the config's screen, and the server stores that depth in 32 bits a pixel. Every buffer
 * is sized from one layout (stride = width * 4), and an XImage is used only when Xlib laid it out
 * exactly so.
 */
#include <stdint.h>

#include <X11/Xutil.h>

#include "glx/pixels/pixels.h"

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

    /* Xlib's calls disagree on which format of a depth counts (XCreateImage takes the first,
     * XPutImage the last): a depth listed twice counts only if both say the same. A scanline
     * pad the protocol does not allow (8, 16 or 32 bits) makes the depth unusable: libXext's
     * XShmCreateImage divides by it. */
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

bool glmux_pixels_image_ok(const XImage *img, const struct glmux_pixels_layout *l)
{
    return img != NULL && img->format == ZPixmap && img->bits_per_pixel == 32 &&
           img->width == l->width && img->height == l->height &&
           img->bytes_per_line == l->stride && img->xoffset == 0;
}

XImage *glmux_pixels_image_create(Display *dpy, Visual *visual, int depth,
                                  const struct glmux_pixels_layout *l)
{
    XImage *img = XCreateImage(dpy, visual, (unsigned)depth, ZPixmap, 0, NULL,
                               (unsigned)l->width, (unsigned)l->height, 32, l->stride);

    if (img == NULL)
        return NULL;
    if (!glmux_pixels_image_ok(img, l)) {
        XDestroyImage(img);
        return NULL;
    }
    /* What the read-back writes: 32-bit words in the host's byte order (Xlib converts for a
     * server of the other order). */
    img->byte_order = glmux_pixels_host_order();
    return img;
}

int glmux_pixels_host_order(void)
{
    const uint32_t one = 1;

    return *(const unsigned char *)&one == 1 ? LSBFirst : MSBFirst;
}
