/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: an X proxy for the pixels-vendor tests (pixels_proxy.c), run in threads of the
 * test program. It listens as a display of its own (an abstract Unix socket, so that the server
 * still sees a local client of the same user and attaches its shared memory), forwards every
 * connection to the real server, and can make the server fail MIT-SHM requests (their own
 * errors, with the right sequence numbers: it rewrites the request, never drops it), hold
 * back the first ShmAttach, and delay everything the server sends.
 */
#ifndef GLMUX_TEST_PIXELS_PROXY_H
#define GLMUX_TEST_PIXELS_PROXY_H
#include <stdbool.h>

enum {
    PROXY_FAIL_SHM_PUT = 1 << 0,     /* every ShmPutImage names no segment: BadShmSeg */
    PROXY_FAIL_LATE_ATTACH = 1 << 1, /* every ShmAttach but the first names no shmid: BadAccess */
    PROXY_HOLD_ATTACH = 1 << 2,      /* the first ShmAttach (and all after it) is not sent */
};

struct pixels_proxy;

/* A proxy to the server of display (":N"), its server-to-client bytes delayed by delay_ms:
 * listening, its connections waiting until pixels_proxy_serve starts its threads (so that a
 * process can fork first: ThreadSanitizer allows no thread in a child of a threaded process). */
struct pixels_proxy *pixels_proxy_start(const char *display, int flags, int delay_ms);
void pixels_proxy_serve(struct pixels_proxy *p);
/* Its display name (":N"). */
const char *pixels_proxy_display(const struct pixels_proxy *p);
/* The MIT-SHM requests it rewrote (failed) and whether it holds an attach back, so far. */
int pixels_proxy_failed(struct pixels_proxy *p);
bool pixels_proxy_holding(struct pixels_proxy *p);

#endif /* GLMUX_TEST_PIXELS_PROXY_H */
