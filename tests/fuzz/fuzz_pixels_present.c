/* SPDX-License-Identifier: MIT */
/*
 * glmux fuzz target: the pixels GLX vendor's present path (src/pixels/pixels_frame.c) fed
 * what a hostile X server may answer. Input: a GetGeometry reply (32 bytes, as xcb returns it:
 * xcb_get_geometry_reply_t), the visual depth of the config it is checked against (1 byte: what
 * the server's visual said), whether the drawable's root is that config's screen (1 byte), the
 * server's maximum request length in 4-byte words (4 bytes, as BIG-REQUESTS or the setup say),
 * then pixmap formats (xPixmapFormat, 8 bytes each, as many as follow, at most 255) in a Display
 * of libX11's own layout (Xlibint.h), read with libX11's XListPixmapFormats as in the vendor.
 * Checks: a drawable is accepted only with the config's depth, on its screen, in 32 bits a pixel
 * with a legal pad, so that the server's rows are the frame's rows; an accepted frame's buffer is
 * sized by its layout, the read-back and every PutImage band stay inside it (ASan), and each
 * band's request fits the server's maximum.
 */
#include <string.h>

#include <X11/Xlibint.h>

#include "fuzz.h"
#include "pixels/pixels.h"

#define HEADER 38

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    glmux_fuzz_quiet_log();
    return 0;
}

/* What glReadPixels(GL_BGRA, 32-bit) writes with the pack state the vendor sets (alignment 4,
 * no row length or skips): width * 4 bytes a row, height rows. */
static void fake_read_back(const struct glmux_pixels_layout *l, unsigned char *dst)
{
    for (int y = 0; y < l->height; y++)
        memset(dst + (size_t)y * (size_t)l->width * 4, y & 0xff, (size_t)l->width * 4);
}

/* The bytes a server stores a row of width pixels in, by its format for the depth. */
static uint64_t server_row(int bpp, int pad, int width)
{
    uint64_t bits = (uint64_t)bpp * (uint64_t)width;

    return (bits + (uint64_t)pad - 1) / (uint64_t)pad * (uint64_t)pad / 8;
}

/* Sends the frame in bands as the vendor does, reading every byte a request would carry. */
static void check_bands(const struct glmux_pixels_layout *l, uint32_t max_words,
                        const unsigned char *buf)
{
    int rows = glmux_pixels_band_rows(max_words, l);
    unsigned sum = 0;
    int y;

    if (rows == 0) {
        GLMUX_FUZZ_CHECK(24 + (uint64_t)l->stride > (uint64_t)max_words * 4);
        return;
    }
    GLMUX_FUZZ_CHECK(rows >= 1 && rows <= l->height);
    for (y = 0; y < l->height; y += rows) {
        int n = l->height - y < rows ? l->height - y : rows;
        const unsigned char *p = buf + (size_t)y * (size_t)l->stride;

        GLMUX_FUZZ_CHECK(24 + (uint64_t)n * (uint64_t)l->stride <= (uint64_t)max_words * 4);
        for (size_t i = 0; i < (size_t)n * (size_t)l->stride; i += 4096)
            sum += p[i];
        sum += p[(size_t)n * (size_t)l->stride - 1];
    }
    GLMUX_FUZZ_CHECK(y >= l->height);
    (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t header[HEADER] = { 0 };
    xcb_get_geometry_reply_t rep;
    ScreenFormat formats[255];
    struct _XDisplay fake;
    struct glmux_pixels_config config;
    struct glmux_pixels_layout l;
    const Window config_root = 0x1000;
    Window root;
    enum glmux_pixels_fit fit;
    int nformats = 0, bpp, pad = 0;
    uint32_t max_words;
    unsigned char *buf;

    memcpy(header, data, size < HEADER ? size : HEADER);
    memcpy(&rep, header, sizeof(rep));
    root = header[33] & 1 ? config_root : (Window)rep.root;
    memcpy(&max_words, header + 34, sizeof(max_words));
    memset(&config, 0, sizeof(config));
    config.depth = header[32];
    memset(&fake, 0, sizeof(fake));
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
    for (int i = 0; i < nformats; i++) {
        if (formats[i].depth == rep.depth) {
            pad = formats[i].scanline_pad;
            break;
        }
    }
    if (fit == GLMUX_PIXELS_FITS)
        GLMUX_FUZZ_CHECK(rep.depth == config.depth && root == config_root && bpp == 32 &&
                         (pad == 8 || pad == 16 || pad == 32));
    if (!glmux_pixels_layout(rep.width, rep.height, &l)) {
        GLMUX_FUZZ_CHECK(rep.width == 0 || rep.height == 0 || rep.width > GLMUX_PIXELS_MAX_SIDE ||
                         rep.height > GLMUX_PIXELS_MAX_SIDE);
        return 0;
    }
    GLMUX_FUZZ_CHECK(l.stride == l.width * 4 && l.size == (size_t)l.stride * (size_t)l.height);
    if (fit != GLMUX_PIXELS_FITS)
        return 0;
    /* The server's rows for the depth are the frame's (its own reading of our buffer). */
    GLMUX_FUZZ_CHECK(server_row(bpp, pad, l.width) == (uint64_t)l.stride);
    /* Keep each run fast: the largest frame is 1 GiB; a 1920x1080 one is 8 MiB. */
    if (l.size > (size_t)16 << 20 || (buf = malloc(l.size)) == NULL)
        return 0;
    fake_read_back(&l, buf);
    check_bands(&l, max_words, buf);
    free(buf);
    return 0;
}
