/* SPDX-License-Identifier: MIT */
/*
 * glmux fuzz target: the pixels GLX vendor's present path (src/pixels/pixels_frame.c) fed
 * what a hostile X server may answer. Input: a GetGeometry reply (32 bytes, as xcb returns it:
 * xcb_get_geometry_reply_t), the visual depth of the config it is checked against (1 byte: what
 * the server's visual said), whether the drawable's root is that config's screen (1 byte), the
 * server's maximum request length in 4-byte words (4 bytes, as BIG-REQUESTS or the setup say),
 * the number of pixmap formats (1 byte) and the formats (xPixmapFormat, 8 bytes each) in a
 * Display of libX11's own layout (Xlibint.h), read with libX11's XListPixmapFormats as in the
 * vendor; then, as many as follow, what the server sends the transport afterwards, each a kind
 * byte, a 2-byte length and that many bytes: 0, one of Present's events (its wire bytes; put
 * in a buffer of exactly the size libxcb gives it, 36 + 4 * its length field, whatever the
 * type: ConfigureNotify and CompleteNotify of every length); 1, a GetGeometry reply (a first
 * byte 0: none, its error); 2, an X error (32 bytes) to a request of the kind its 33rd byte
 * names; 3, a PresentNotifyMSC sent (the transport awaits its CompleteNotify).
 * Checks: a drawable is accepted only with the config's depth, on its screen, in 32 bits a pixel
 * with a legal pad, so that the server's rows are the frame's rows; an event is read only within
 * its buffer (ASan), sets the size only when it is a ConfigureNotify of the window, and the
 * retrace only when it answers the PresentNotifyMSC awaited (never an unsolicited one); an error
 * only ever ends the drawable or MIT-SHM; the size last heard gets a frame only within the
 * bound (glmux_pixels_size_allowed), whose buffer is sized by its layout, the read-back and
 * every PutImage band stay inside it (ASan), and each band's request fits the server's maximum.
 */
#include <string.h>

#include <X11/Xlibint.h>

#include "fuzz.h"
#include "pixels/pixels_config.h"
#include "pixels/pixels_frame.h"

#define HEADER 38

GLMUX_FUZZ_QUIET_INITIALIZE()

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

/* The transport's window and Present event id in this target's inputs. */
#define WINDOW 0x200002u
#define EID 0x400001u
/* The longest event the target builds (libxcb takes what the server says, up to 16 GiB). */
#define EVENT_MAX_WORDS 1024

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

/* One of Present's events, in a buffer of libxcb's size for it: 32 bytes, the full sequence,
 * then 4 * length bytes (the length field clamped so that it stays the buffer's). */
static void feed_event(struct glmux_pixels_heard *h, const uint8_t *data, size_t n)
{
    uint8_t wire[32] = { 0 };
    uint32_t length;
    size_t size;
    uint8_t *ev;
    struct glmux_pixels_heard before = *h;
    bool used;

    memcpy(wire, data, n < 32 ? n : 32);
    length = get32(wire + 4);
    if (length > EVENT_MAX_WORDS)
        length = EVENT_MAX_WORDS;
    memcpy(wire + 4, &length, sizeof(length));
    size = 36 + (size_t)length * 4;
    ev = calloc(1, size);
    if (ev == NULL)
        return;
    memcpy(ev, wire, 32);
    if (n > 32)
        memcpy(ev + 36, data + 32, n - 32 < size - 36 ? n - 32 : size - 36);
    used = glmux_pixels_heard_event(h, ev);
    /* Nothing but the size, or the awaited retrace, ever changes. */
    GLMUX_FUZZ_CHECK(h->eid == before.eid && h->window == before.window &&
                     h->gone == before.gone && h->shm_failed == before.shm_failed &&
                     h->serial == before.serial);
    GLMUX_FUZZ_CHECK(used || (h->width == before.width && h->height == before.height &&
                              h->msc == before.msc && h->awaiting == before.awaiting));
    if (used) {
        GLMUX_FUZZ_CHECK(length >= 2 && get32(ev + 16) == WINDOW && get32(ev + 12) == EID);
        if (h->msc != before.msc || h->awaiting != before.awaiting)
            GLMUX_FUZZ_CHECK(before.awaiting && !h->awaiting && get32(ev + 20) == h->serial);
    }
    free(ev);
}

static void feed_reply(struct glmux_pixels_heard *h, const uint8_t *data, size_t n)
{
    xcb_get_geometry_reply_t r;
    bool gone = h->gone;

    memset(&r, 0, sizeof(r));
    memcpy(&r, data, n < sizeof(r) ? n : sizeof(r));
    glmux_pixels_heard_geometry(h, n > 0 && data[0] != 0 ? &r : NULL);
    GLMUX_FUZZ_CHECK(!gone || h->gone);
}

static void feed_error(struct glmux_pixels_heard *h, const uint8_t *data, size_t n)
{
    xcb_generic_error_t e;
    struct glmux_pixels_heard before = *h;
    bool changed;

    memset(&e, 0, sizeof(e));
    memcpy(&e, data, n < 32 ? n : 32);
    changed = glmux_pixels_heard_error(
        h, (enum glmux_pixels_request)(n > 32 ? data[32] % GLMUX_PIXELS_REQ_KINDS : 0), &e);
    /* An error only ever ends the drawable or MIT-SHM, and says when it did. */
    GLMUX_FUZZ_CHECK(h->width == before.width && h->height == before.height &&
                     h->msc == before.msc && (!before.gone || h->gone) &&
                     (!before.shm_failed || h->shm_failed));
    GLMUX_FUZZ_CHECK(changed == (h->gone != before.gone || h->shm_failed != before.shm_failed));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t header[HEADER] = { 0 };
    xcb_get_geometry_reply_t rep;
    ScreenFormat formats[255];
    struct _XDisplay fake;
    struct glmux_pixels_config config;
    struct glmux_pixels_layout l;
    struct glmux_pixels_heard h;
    const Window config_root = 0x1000;
    Window root;
    enum glmux_pixels_fit fit;
    int nformats = 0, bpp, pad = 0;
    uint32_t max_words;
    unsigned char *buf;
    size_t off = HEADER + 1;

    memcpy(header, data, size < HEADER ? size : HEADER);
    memcpy(&rep, header, sizeof(rep));
    root = header[33] & 1 ? config_root : (Window)rep.root;
    memcpy(&max_words, header + 34, sizeof(max_words));
    memset(&config, 0, sizeof(config));
    config.depth = header[32];
    memset(&fake, 0, sizeof(fake));
    for (int i = 0; size > HEADER && i < data[HEADER] && off + sizeof(xPixmapFormat) <= size;
         i++, off += sizeof(xPixmapFormat)) {
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

    /* What the server sends the transport after its first GetGeometry. */
    memset(&h, 0, sizeof(h));
    h.eid = EID;
    h.window = WINDOW;
    h.sized_by_events = header[33] & 2;
    h.width = rep.width;
    h.height = rep.height;
    while (off + 3 <= size) {
        uint8_t kind = data[off];
        size_t n = (size_t)(data[off + 1] | data[off + 2] << 8);

        off += 3;
        if (n > size - off)
            n = size - off;
        if (kind % 4 == 0) {
            feed_event(&h, data + off, n);
        } else if (kind % 4 == 1) {
            feed_reply(&h, data + off, n);
        } else if (kind % 4 == 2) {
            feed_error(&h, data + off, n);
        } else {                        /* as pace(): a serial of its own, never 0 */
            if (++h.serial == 0)
                h.serial = 1;
            h.awaiting = true;
        }
        off += n;
    }

    /* A frame is made only for a size within the bound, and then its layout is good. */
    if (!glmux_pixels_size_allowed(h.width, h.height)) {
        GLMUX_FUZZ_CHECK(h.width < 1 || h.height < 1 || h.width > GLMUX_PIXELS_MAX_SIDE ||
                         h.height > GLMUX_PIXELS_MAX_SIDE ||
                         (uint64_t)h.width * (uint64_t)h.height > GLMUX_PIXELS_MAX_PIXELS);
        return 0;
    }
    GLMUX_FUZZ_CHECK(glmux_pixels_layout(h.width, h.height, &l));
    GLMUX_FUZZ_CHECK(l.stride == l.width * 4 && l.size == (size_t)l.stride * (size_t)l.height &&
                     l.size <= (size_t)GLMUX_PIXELS_MAX_PIXELS * 4);
    if (fit != GLMUX_PIXELS_FITS)
        return 0;
    /* The server's rows for the depth are the frame's (its own reading of our buffer). */
    GLMUX_FUZZ_CHECK(server_row(bpp, pad, l.width) == (uint64_t)l.stride);
    /* Keep each run fast: the largest frame is 256 MiB; a 1920x1080 one is 8 MiB. */
    if (l.size > (size_t)16 << 20 || (buf = malloc(l.size)) == NULL)
        return 0;
    fake_read_back(&l, buf);
    check_bands(&l, max_words, buf);
    free(buf);
    return 0;
}
