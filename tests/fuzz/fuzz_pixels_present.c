/* SPDX-License-Identifier: MIT */
/*
 * glmux fuzz target: the pixels GLX vendor's present path (src/glx/pixels/pixels_frame.c) fed
 * what a hostile X server may answer. Input: a GetGeometry reply (32 bytes, the protocol's
 * xGetGeometryReply, decoded as XGetGeometry does), the visual depth of the config it is checked
 * against (1 byte: what the server's visual said), whether the drawable's root is that config's
 * screen (1 byte), the image fields of the connection setup (byte order, bitmap unit, pad and
 * bit order: 4 bytes), then pixmap formats (xPixmapFormat, 8 bytes each, as many as follow, at
 * most 255). These fill a Display of libX11's own layout (Xlibint.h) on which libX11's
 * XListPixmapFormats and XCreateImage and libXext's XShmCreateImage run for real, as in the
 * vendor. Checks: a drawable is accepted only with the config's depth, on its screen, in 32 bits
 * a pixel; an accepted frame's buffers are sized by its layout and the read-back and Xlib's
 * pixel access stay inside them (ASan); neither image call divides by a hostile pad.
 */
#include <string.h>

#include <X11/Xlibint.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>

#include "fuzz.h"
#include "glx/pixels/pixels.h"

#define HEADER 38

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    glmux_fuzz_quiet_log();
    return 0;
}

/* What glReadPixels(GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV) writes with the pack state the
 * vendor sets (alignment 4, no row length or skips): width * 4 bytes a row, height rows. */
static void fake_read_back(const struct glmux_pixels_layout *l, char *dst)
{
    for (int y = 0; y < l->height; y++)
        memset(dst + (size_t)y * (size_t)l->width * 4, y & 0xff, (size_t)l->width * 4);
}

/* Xlib's own pixel access of the image, at its corners (through its function table). */
static void touch_corners(XImage *img)
{
    unsigned long p = XGetPixel(img, 0, 0);

    XPutPixel(img, img->width - 1, img->height - 1, p);
    p = XGetPixel(img, img->width - 1, 0);
    XPutPixel(img, 0, img->height - 1, p);
}

static void check_image(XImage *img, const struct glmux_pixels_layout *l, bool shm)
{
    char *data;

    if (img == NULL)
        return;
    GLMUX_FUZZ_CHECK(glmux_pixels_image_ok(img, l));
    GLMUX_FUZZ_CHECK((size_t)img->bytes_per_line * (size_t)img->height == l->size);
    data = malloc(l->size);
    if (data == NULL) {
        XDestroyImage(img);
        return;
    }
    img->data = data;
    fake_read_back(l, data);
    touch_corners(img);
    if (shm) {
        /* XShmCreateImage's image does not own its data. */
        XDestroyImage(img);
        free(data);
    } else {
        XDestroyImage(img);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t header[HEADER] = { 0 };
    xGetGeometryReply rep;
    ScreenFormat formats[255];
    struct _XDisplay fake;
    struct glmux_pixels_config config;
    struct glmux_pixels_layout l;
    const Window config_root = 0x1000;
    Window root;
    enum glmux_pixels_fit fit;
    int nformats = 0, bpp;
    XShmSegmentInfo info;

    memcpy(header, data, size < HEADER ? size : HEADER);
    memcpy(&rep, header, sizeof(rep));
    root = header[33] & 1 ? config_root : (Window)rep.root;
    memset(&config, 0, sizeof(config));
    config.depth = header[32];
    memset(&fake, 0, sizeof(fake));
    fake.byte_order = header[34] & 1 ? MSBFirst : LSBFirst;
    fake.bitmap_unit = header[35];
    fake.bitmap_pad = header[36];
    fake.bitmap_bit_order = header[37] & 1 ? MSBFirst : LSBFirst;
    for (size_t off = HEADER; off + sizeof(xPixmapFormat) <= size && nformats < 255;
         off += sizeof(xPixmapFormat)) {
        xPixmapFormat f;

        memcpy(&f, data + off, sizeof(f));
        formats[nformats].ext_data = NULL;
        formats[nformats].depth = f.depth;
        formats[nformats].bits_per_pixel = f.bitsPerPixel;
        formats[nformats].scanline_pad = f.scanLinePad;
        nformats++;
    }
    fake.nformats = nformats;
    fake.pixmap_format = formats;

    fit = glmux_pixels_fit(&fake, &config, config_root, root, rep.depth);
    bpp = glmux_pixels_format_bpp(&fake, rep.depth);
    if (fit == GLMUX_PIXELS_FITS)
        GLMUX_FUZZ_CHECK(rep.depth == config.depth && root == config_root && bpp == 32);
    if (!glmux_pixels_layout(rep.width, rep.height, &l)) {
        GLMUX_FUZZ_CHECK(rep.width == 0 || rep.height == 0 || rep.width > GLMUX_PIXELS_MAX_SIDE ||
                         rep.height > GLMUX_PIXELS_MAX_SIDE);
        return 0;
    }
    GLMUX_FUZZ_CHECK(l.stride == l.width * 4 && l.size == (size_t)l.stride * (size_t)l.height);
    if (fit != GLMUX_PIXELS_FITS)
        return 0;
    /* Keep each run fast: the largest frame is 1 GiB; a 1920x1080 one is 8 MiB. */
    if (l.size > (size_t)16 << 20)
        return 0;
    check_image(glmux_pixels_image_create(&fake, NULL, rep.depth, &l), &l, false);
    memset(&info, 0, sizeof(info));
    {
        XImage *img = XShmCreateImage(&fake, NULL, rep.depth, ZPixmap, NULL, &info,
                                      (unsigned)l.width, (unsigned)l.height);

        if (img != NULL && !glmux_pixels_image_ok(img, &l)) {
            XDestroyImage(img);
            img = NULL;
        }
        check_image(img, &l, true);
    }
    return 0;
}
