/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: an X proxy whose server answers GLXQueryServerString(GLX_EXTENSIONS) with a
 * string longer than 4 KiB, GLX_EXT_libglvnd last (run_screens.py: explain and libGLX must
 * agree on such a server; the tool once cut the string at 4 KiB and so missed the extension).
 * It listens as a display of its own (an abstract Unix socket), prints its name (":N") on
 * standard output and forwards every connection to the real server given as its argument. The
 * client-to-server thread of a connection notes the sequence number of each such request; the
 * server-to-client thread reads the server's answers unit by unit (replies, errors, events) and
 * rewrites the replies so noted. No request is dropped, so sequence numbers stay the server's.
 * It runs until killed. Little-endian clients only (this machine's order, as libX11's).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <X11/Xlib.h>

#include "util/file.h"

#define X_GLXQueryServerString 19
#define GLX_EXTENSIONS_NAME 3
#define LONG_STRING 6000        /* bytes of padding words before GLX_EXT_libglvnd */

static int glx_major = -1;
static char server_path[108];

struct link {
    int client, server;
    pthread_mutex_t lock;
    uint16_t pending[256];      /* sequence numbers of the requests to rewrite the replies of */
    size_t n_pending;
};

static uint32_t get32(const unsigned char *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return v;
}

/* Reads until buf holds at least want bytes (growing it); false at the end of the stream. */
static bool fill(int fd, unsigned char **buf, size_t *cap, size_t *have, size_t want)
{
    while (*have < want) {
        ssize_t n;

        if (want > *cap) {
            unsigned char *more = realloc(*buf, want * 2);

            if (more == NULL)
                return false;
            *buf = more;
            *cap = want * 2;
        }
        n = read(fd, *buf + *have, *cap - *have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        *have += (size_t)n;
    }
    return true;
}

static void consume(unsigned char *buf, size_t *have, size_t len)
{
    memmove(buf, buf + len, *have - len);
    *have -= len;
}

/* A thread's end: both directions of l are shut, so that the other thread's reads end too. */
static void *link_done(struct link *l, unsigned char *buf)
{
    shutdown(l->client, SHUT_RDWR);
    shutdown(l->server, SHUT_RDWR);
    free(buf);
    return NULL;
}

static void *client_to_server(void *arg)
{
    struct link *l = arg;
    size_t cap = 1 << 16, have = 0, len;
    unsigned char *buf = malloc(cap);
    uint16_t seq = 0;

    /* The setup: 12 bytes, then the authorization name and data, each padded. */
    if (buf == NULL || !fill(l->client, &buf, &cap, &have, 12))
        goto out;
    len = 12 + ((size_t)(buf[6] | buf[7] << 8) + 3) / 4 * 4 +
          ((size_t)(buf[8] | buf[9] << 8) + 3) / 4 * 4;
    if (!fill(l->client, &buf, &cap, &have, len) || !glmux_file_write_all(l->server, buf, len))
        goto out;
    consume(buf, &have, len);
    for (;;) {
        if (!fill(l->client, &buf, &cap, &have, 4))
            break;
        len = (size_t)(buf[2] | buf[3] << 8) * 4;
        if (len == 0) {         /* BIG-REQUESTS */
            if (!fill(l->client, &buf, &cap, &have, 8))
                break;
            len = (size_t)get32(buf + 4) * 4;
        }
        if (len < 4 || !fill(l->client, &buf, &cap, &have, len))
            break;
        seq++;
        if (buf[0] == glx_major && buf[1] == X_GLXQueryServerString && len >= 12 &&
            get32(buf + 8) == GLX_EXTENSIONS_NAME) {
            pthread_mutex_lock(&l->lock);
            if (l->n_pending < 256)
                l->pending[l->n_pending++] = seq;
            pthread_mutex_unlock(&l->lock);
        }
        if (!glmux_file_write_all(l->server, buf, len))
            break;
        consume(buf, &have, len);
    }
out:
    return link_done(l, buf);
}

static bool take_pending(struct link *l, uint16_t seq)
{
    bool found = false;

    pthread_mutex_lock(&l->lock);
    for (size_t i = 0; i < l->n_pending && !found; i++) {
        if (l->pending[i] == seq) {
            l->pending[i] = l->pending[--l->n_pending];
            found = true;
        }
    }
    pthread_mutex_unlock(&l->lock);
    return found;
}

/* The reply of a GLX_EXTENSIONS request, its string made longer than 4 KiB: padding words
 * first, GLX_EXT_libglvnd (when the server has it) last. */
static bool send_long(int fd, const unsigned char *reply, size_t len)
{
    size_t n = get32(reply + 12), used = 0, out_len, words;
    const char *old = (const char *)reply + 32;
    char *s = malloc(n + LONG_STRING + 64);
    unsigned char *out;
    bool libglvnd = false, ok;

    if (s == NULL || 32 + n > len)
        return false;
    /* The server's words but GLX_EXT_libglvnd, then the padding, then it. */
    for (size_t i = 0; i < n && old[i] != '\0';) {
        size_t w = 0;

        while (i + w < n && old[i + w] != ' ' && old[i + w] != '\0')
            w++;
        if (w == 16 && memcmp(old + i, "GLX_EXT_libglvnd", 16) == 0)
            libglvnd = true;
        else if (w > 0)
            used += (size_t)sprintf(s + used, "%.*s ", (int)w, old + i);
        i += w + (i + w < n && old[i + w] == ' ');
    }
    for (int k = 0; used < n + LONG_STRING; k++)
        used += (size_t)sprintf(s + used, "GLX_glmux_padding_%04d ", k);
    used += (size_t)sprintf(s + used, "%s", libglvnd ? "GLX_EXT_libglvnd" : "");
    n = used + 1;                           /* with its NUL, as the server counts it */
    words = (n + 3) / 4;
    out_len = 32 + words * 4;
    out = calloc(1, out_len);
    if (out == NULL) {
        free(s);
        return false;
    }
    memcpy(out, reply, 32);
    memcpy(out + 4, &(uint32_t){ (uint32_t)words }, 4);
    memcpy(out + 12, &(uint32_t){ (uint32_t)n }, 4);
    memcpy(out + 32, s, n);
    ok = glmux_file_write_all(fd, out, out_len);
    free(out);
    free(s);
    return ok;
}

static void *server_to_client(void *arg)
{
    struct link *l = arg;
    size_t cap = 1 << 16, have = 0, len;
    unsigned char *buf = malloc(cap);

    /* The setup's answer: 8 bytes, then its length in 4-byte units. */
    if (buf == NULL || !fill(l->server, &buf, &cap, &have, 8))
        goto out;
    len = 8 + (size_t)(buf[6] | buf[7] << 8) * 4;
    if (!fill(l->server, &buf, &cap, &have, len) || !glmux_file_write_all(l->client, buf, len))
        goto out;
    consume(buf, &have, len);
    for (;;) {
        bool ok;

        if (!fill(l->server, &buf, &cap, &have, 32))
            break;
        len = 32;
        if (buf[0] == 1 || (buf[0] & 0x7f) == 35)   /* a reply, a GenericEvent: longer */
            len += (size_t)get32(buf + 4) * 4;
        if (!fill(l->server, &buf, &cap, &have, len))
            break;
        if (buf[0] == 1 && take_pending(l, (uint16_t)(buf[2] | buf[3] << 8)))
            ok = send_long(l->client, buf, len);
        else
            ok = glmux_file_write_all(l->client, buf, len);
        if (!ok)
            break;
        consume(buf, &have, len);
    }
out:
    return link_done(l, buf);
}

int main(int argc, char **argv)
{
    const char *display = argc > 1 ? argv[1] : NULL;
    int listen_fd, ev, er;
    char name[32] = "";
    Display *dpy;

    if (display == NULL || display[0] != ':') {
        fprintf(stderr, "usage: long_ext_proxy :N\n");
        return 2;
    }
    snprintf(server_path, sizeof(server_path), "/tmp/.X11-unix/X%d", atoi(display + 1));
    dpy = XOpenDisplay(display);
    if (dpy == NULL || !XQueryExtension(dpy, "GLX", &glx_major, &ev, &er)) {
        fprintf(stderr, "long_ext_proxy: %s has no GLX\n", display);
        return 77;
    }
    XCloseDisplay(dpy);
    listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    for (int i = 0; listen_fd >= 0 && i < 1000 && name[0] == '\0'; i++) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        int n = 40000 + (int)((getpid() * 13 + i) % 20000);
        socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
                                    (size_t)snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1,
                                                     "/tmp/.X11-unix/X%d", n));

        if (bind(listen_fd, (struct sockaddr *)&sa, len) == 0)
            snprintf(name, sizeof(name), ":%d", n);
    }
    if (name[0] == '\0' || listen(listen_fd, 16) != 0) {
        fprintf(stderr, "long_ext_proxy: cannot listen\n");
        return 1;
    }
    printf("%s\n", name);
    fflush(stdout);
    for (;;) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        struct link *l;
        pthread_t a, b;
        int c = accept(listen_fd, NULL, NULL);

        if (c < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return 1;
        }
        l = calloc(1, sizeof(*l));
        if (l == NULL)
            return 1;
        pthread_mutex_init(&l->lock, NULL);
        l->client = c;
        l->server = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", server_path);
        if (l->server < 0 || connect(l->server, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
            fprintf(stderr, "long_ext_proxy: cannot reach %s\n", server_path);
            return 1;
        }
        /* The link lives as long as the process (a test's few connections). */
        if (pthread_create(&a, NULL, client_to_server, l) != 0 ||
            pthread_create(&b, NULL, server_to_client, l) != 0)
            return 1;
        pthread_detach(a);
        pthread_detach(b);
    }
}
