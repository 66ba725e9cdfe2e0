/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: an X proxy in threads of the test program (pixels_proxy.h). One thread accepts
 * connections on an abstract Unix socket named as display :N; each connection gets two
 * threads. The client-to-server one reads the connection setup, then whole requests (their
 * length field, or BIG-REQUESTS' 32-bit one), and rewrites MIT-SHM requests as asked before it
 * forwards them: ShmPutImage with segment 0 (the server answers BadShmSeg), ShmAttach with a
 * shmid that does not exist (BadAccess), or it stops forwarding at the first ShmAttach. The
 * server's answers keep their own sequence numbers, since no request is dropped. The
 * server-to-client one forwards what the server sends, each read delayed by the latency asked.
 */
#define _GNU_SOURCE
#include "pixels_proxy.h"

#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>

#include "glmux_test.h"
#include "util/file.h"

struct pixels_proxy {
    int listen_fd;
    char display[32];
    char server_path[108];
    int flags, delay_ms;
    int shm_major;
    pthread_mutex_t lock;
    int attaches, failed;
    bool holding;
};

struct link {
    struct pixels_proxy *p;
    int client, server;
};

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Server to client: every read forwarded after the delay. */
static void *server_to_client(void *arg)
{
    struct link *l = arg;
    unsigned char buf[65536];
    ssize_t n;

    while ((n = read(l->server, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
        if (n <= 0)
            continue;
        if (l->p->delay_ms > 0)
            sleep_ms(l->p->delay_ms);
        if (!glmux_file_write_all(l->client, buf, (size_t)n))
            break;
    }
    shutdown(l->client, SHUT_RDWR);
    shutdown(l->server, SHUT_RDWR);
    return NULL;
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return v;
}

/* The bytes of the unit (setup or request) at the start of buf (n bytes), 0 when incomplete. */
static size_t unit_size(const unsigned char *buf, size_t n, bool setup)
{
    size_t len;

    if (setup) {
        /* byte order, pad, major, minor, name length, data length, pad; name, data padded */
        if (n < 12)
            return 0;
        len = 12 + ((size_t)(buf[6] | buf[7] << 8) + 3) / 4 * 4 +
              ((size_t)(buf[8] | buf[9] << 8) + 3) / 4 * 4;
    } else {
        if (n < 4)
            return 0;
        len = (size_t)(buf[2] | buf[3] << 8) * 4;
        if (len == 0) { /* BIG-REQUESTS */
            if (n < 8)
                return 0;
            len = (size_t)get32(buf + 4) * 4;
        }
    }
    return len <= n ? len : 0;
}

/* What the proxy does to one request (little-endian client, as this machine). */
static bool rewrite(struct pixels_proxy *p, unsigned char *req, size_t len)
{
    bool forward = true;

    if (p->shm_major <= 0 || req[0] != p->shm_major)
        return true;
    pthread_mutex_lock(&p->lock);
    if (req[1] == 1 && len >= 16) { /* ShmAttach: shmseg at 4, shmid at 8 */
        if ((p->flags & PROXY_HOLD_ATTACH) || p->holding) {
            p->holding = true;
            forward = false;
        } else if ((p->flags & PROXY_FAIL_LATE_ATTACH) && p->attaches > 0) {
            uint32_t bad = 0x7ffffff0u;

            memcpy(req + 8, &bad, 4);
            p->failed++;
        }
        p->attaches++;
    } else if (req[1] == 3 && len >= 40 && (p->flags & PROXY_FAIL_SHM_PUT)) {
        uint32_t none = 0; /* ShmPutImage: shmseg at 32 */

        memcpy(req + 32, &none, 4);
        p->failed++;
    }
    pthread_mutex_unlock(&p->lock);
    return forward;
}

/* Client to server: the setup, then whole requests, rewritten as asked. */
static void *client_to_server(void *arg)
{
    struct link *l = arg;
    size_t cap = 1 << 20, have = 0;
    unsigned char *buf = malloc(cap);
    bool setup = true, holding = false;
    ssize_t n;

    CHECK(buf != NULL);
    while ((n = read(l->client, buf + have, cap - have)) > 0 || (n < 0 && errno == EINTR)) {
        size_t off = 0, len;

        if (n <= 0)
            continue;
        have += (size_t)n;
        while (!holding && (len = unit_size(buf + off, have - off, setup)) > 0) {
            if (!setup && !rewrite(l->p, buf + off, len)) {
                holding = true; /* nothing more is sent: the client waits for ever */
                break;
            }
            if (!glmux_file_write_all(l->server, buf + off, len))
                goto out;
            setup = false;
            off += len;
        }
        if (holding) {
            have = 0;
            continue;
        }
        memmove(buf, buf + off, have - off);
        have -= off;
        if (have == cap) { /* a request larger than the buffer */
            unsigned char *more = realloc(buf, cap * 2);

            CHECK(more != NULL);
            buf = more;
            cap *= 2;
        }
    }
out:
    shutdown(l->client, SHUT_RDWR);
    shutdown(l->server, SHUT_RDWR);
    free(buf);
    return NULL;
}

static void *accept_thread(void *arg)
{
    struct pixels_proxy *p = arg;

    for (;;) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        struct link *l = calloc(1, sizeof(*l));
        pthread_t a, b;
        int c = accept(p->listen_fd, NULL, NULL);

        CHECK(l != NULL);
        if (c < 0) {
            free(l);
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return NULL;
        }
        l->p = p;
        l->client = c;
        l->server = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", p->server_path);
        CHECK_MSG(l->server >= 0 && connect(l->server, (struct sockaddr *)&sa, sizeof(sa)) == 0,
                  "the proxy cannot reach %s", p->server_path);
        /* The two threads share l for the life of the process (a test's few connections). */
        CHECK(pthread_create(&a, NULL, client_to_server, l) == 0);
        CHECK(pthread_create(&b, NULL, server_to_client, l) == 0);
        pthread_detach(a);
        pthread_detach(b);
    }
}

struct pixels_proxy *pixels_proxy_start(const char *display, int flags, int delay_ms)
{
    struct pixels_proxy *p = calloc(1, sizeof(*p));
    const char *colon = display != NULL ? strrchr(display, ':') : NULL;
    int num, ev, er;
    Display *dpy;

    CHECK(p != NULL);
    CHECK_MSG(colon != NULL && display[0] == ':', "the proxy needs a local display, not %s",
              display != NULL ? display : "(none)");
    num = atoi(colon + 1);
    snprintf(p->server_path, sizeof(p->server_path), "/tmp/.X11-unix/X%d", num);
    p->flags = flags;
    p->delay_ms = delay_ms;
    pthread_mutex_init(&p->lock, NULL);
    dpy = XOpenDisplay(display);
    CHECK_MSG(dpy != NULL, "cannot open %s", display);
    if (!XQueryExtension(dpy, "MIT-SHM", &p->shm_major, &ev, &er))
        p->shm_major = -1;
    XCloseDisplay(dpy);
    p->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    CHECK(p->listen_fd >= 0);
    /* A display number far above those Xvfb -displayfd picks, free in the abstract namespace. */
    for (int i = 0; i < 1000; i++) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        int n = 20000 + (int)((getpid() * 7 + i) % 20000);
        socklen_t len;

        len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
                          (size_t)snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1,
                                           "/tmp/.X11-unix/X%d", n));
        if (bind(p->listen_fd, (struct sockaddr *)&sa, len) == 0) {
            snprintf(p->display, sizeof(p->display), ":%d", n);
            break;
        }
        CHECK_MSG(errno == EADDRINUSE, "bind: %s", strerror(errno));
    }
    CHECK_MSG(p->display[0] != '\0', "no free display number for the proxy");
    CHECK(listen(p->listen_fd, 16) == 0);
    return p;
}

void pixels_proxy_serve(struct pixels_proxy *p)
{
    pthread_t th;

    CHECK(pthread_create(&th, NULL, accept_thread, p) == 0);
    pthread_detach(th);
}

const char *pixels_proxy_display(const struct pixels_proxy *p)
{
    return p->display;
}

int pixels_proxy_failed(struct pixels_proxy *p)
{
    int n;

    pthread_mutex_lock(&p->lock);
    n = p->failed;
    pthread_mutex_unlock(&p->lock);
    return n;
}

bool pixels_proxy_holding(struct pixels_proxy *p)
{
    bool h;

    pthread_mutex_lock(&p->lock);
    h = p->holding;
    pthread_mutex_unlock(&p->lock);
    return h;
}
