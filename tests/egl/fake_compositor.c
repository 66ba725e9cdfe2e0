/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: a fake Wayland compositor built on libwayland-server, run in a child process
 * of test_egl_wayland. It renders nothing; it only advertises what a compositor tells a client
 * about its GPU: linux-dmabuf version 4 with default feedback whose main device is a given
 * dev_t (a format table, one tranche), or linux-dmabuf version 3 plus Mesa's wl_drm with a
 * device node path, or neither; or, "silent", a socket that accepts connections and never
 * answers. It stops when the parent closes its end of the control pipe (or after a minute).
 */
#define _GNU_SOURCE
#include "fake_compositor.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "linux-dmabuf-server-protocol.h"
#include "wayland-drm-server-protocol.h"

static struct fake_compositor_config config;

static void destroy_request(struct wl_client *client, struct wl_resource *resource)
{
    (void)client;
    wl_resource_destroy(resource);
}

static const struct zwp_linux_dmabuf_feedback_v1_interface feedback_impl = { destroy_request };

/* A format table of one entry (format, pad, modifier), as the protocol lays it out. */
static int format_table(uint32_t *size)
{
    struct { uint32_t format, pad; uint64_t modifier; } entry = { 0x34325258, 0, 0 };
    int fd = memfd_create("glmux-fake-format-table", MFD_CLOEXEC);

    *size = sizeof(entry);
    if (fd >= 0 && write(fd, &entry, sizeof(entry)) != (ssize_t)sizeof(entry)) {
        close(fd);
        return -1;
    }
    return fd;
}

static void get_default_feedback(struct wl_client *client, struct wl_resource *resource,
                                 uint32_t id)
{
    struct wl_resource *fb = wl_resource_create(client, &zwp_linux_dmabuf_feedback_v1_interface,
                                                wl_resource_get_version(resource), id);
    struct wl_array device, indices;
    dev_t dev = config.main_device;
    uint16_t index = 0;
    uint32_t size;
    int fd;

    if (fb == NULL) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(fb, &feedback_impl, NULL, NULL);
    fd = format_table(&size);
    if (fd >= 0) {
        zwp_linux_dmabuf_feedback_v1_send_format_table(fb, fd, size);
        close(fd);
    }
    wl_array_init(&device);
    wl_array_init(&indices);
    if (wl_array_add(&device, sizeof(dev)) != NULL)
        memcpy(device.data, &dev, sizeof(dev));
    if (wl_array_add(&indices, sizeof(index)) != NULL)
        memcpy(indices.data, &index, sizeof(index));
    zwp_linux_dmabuf_feedback_v1_send_main_device(fb, &device);
    zwp_linux_dmabuf_feedback_v1_send_tranche_target_device(fb, &device);
    zwp_linux_dmabuf_feedback_v1_send_tranche_formats(fb, &indices);
    zwp_linux_dmabuf_feedback_v1_send_tranche_flags(fb, 0);
    zwp_linux_dmabuf_feedback_v1_send_tranche_done(fb);
    zwp_linux_dmabuf_feedback_v1_send_done(fb);
    wl_array_release(&device);
    wl_array_release(&indices);
}

static void unused_create_params(struct wl_client *client, struct wl_resource *resource,
                                 uint32_t id)
{
    (void)id;
    wl_resource_post_error(resource, 0, "the fake compositor takes no buffers");
    (void)client;
}

static void unused_surface_feedback(struct wl_client *client, struct wl_resource *resource,
                                    uint32_t id, struct wl_resource *surface)
{
    (void)surface;
    get_default_feedback(client, resource, id);
}

static const struct zwp_linux_dmabuf_v1_interface dmabuf_impl = {
    destroy_request, unused_create_params, get_default_feedback, unused_surface_feedback,
};

static void bind_dmabuf(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
    struct wl_resource *r = wl_resource_create(client, &zwp_linux_dmabuf_v1_interface,
                                               (int)version, id);

    (void)data;
    if (r == NULL) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &dmabuf_impl, NULL, NULL);
    if (version < 4)   /* before version 4 the formats come as events */
        zwp_linux_dmabuf_v1_send_format(r, 0x34325258);
}

static void bind_drm(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
    struct wl_resource *r = wl_resource_create(client, &wl_drm_interface, (int)version, id);

    (void)data;
    if (r == NULL) {
        wl_client_post_no_memory(client);
        return;
    }
    /* wl_drm as described here has no requests; a client that sent one would be in error. */
    wl_resource_set_implementation(r, NULL, NULL, NULL);
    wl_drm_send_device(r, config.drm_device);
    wl_drm_send_format(r, 0x34325258);
    if (version >= 2)
        wl_drm_send_capabilities(r, 1);
}

static int on_control(int fd, uint32_t mask, void *data)
{
    (void)fd;
    (void)mask;
    *(int *)data = 0;
    return 0;
}

static int serve(int control)
{
    struct wl_display *d = wl_display_create();
    struct wl_event_loop *loop;
    int running = 1;

    if (d == NULL || wl_display_add_socket(d, config.socket) != 0) {
        fprintf(stderr, "fake compositor: cannot listen on %s\n", config.socket);
        return 1;
    }
    if (config.mode == FAKE_COMPOSITOR_DMABUF &&
        wl_global_create(d, &zwp_linux_dmabuf_v1_interface, 4, NULL, bind_dmabuf) == NULL)
        return 1;
    if (config.mode == FAKE_COMPOSITOR_WL_DRM &&
        (wl_global_create(d, &zwp_linux_dmabuf_v1_interface, 3, NULL, bind_dmabuf) == NULL ||
         wl_global_create(d, &wl_drm_interface, 2, NULL, bind_drm) == NULL))
        return 1;
    loop = wl_display_get_event_loop(d);
    if (wl_event_loop_add_fd(loop, control, WL_EVENT_READABLE | WL_EVENT_HANGUP, on_control,
                             &running) == NULL)
        return 1;
    if (write(control, "r", 1) != 1)
        return 1;
    while (running) {
        wl_display_flush_clients(d);
        if (wl_event_loop_dispatch(loop, -1) < 0 && errno != EINTR)
            break;
    }
    wl_display_destroy(d);
    return 0;
}

/* A listening socket nobody accepts from: connections succeed, nothing is ever answered. */
static int serve_silent(int control)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    const char *dir = getenv("XDG_RUNTIME_DIR");
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    char c;

    if (s < 0 || dir == NULL)
        return 1;
    snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%s", dir, config.socket);
    if (bind(s, (struct sockaddr *)&addr, sizeof(addr)) != 0 || listen(s, 4) != 0 ||
        write(control, "r", 1) != 1)
        return 1;
    while (read(control, &c, 1) < 0 && errno == EINTR)
        ;
    close(s);
    unlink(addr.sun_path);
    return 0;
}

pid_t fake_compositor_start(const struct fake_compositor_config *c, int *control)
{
    int sv[2];
    pid_t pid;
    char ready;

    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return -1;
    config = *c;
    pid = fork();
    if (pid == 0) {
        close(sv[0]);
        alarm(60);   /* never outlive a test that forgot us */
        _exit(config.mode == FAKE_COMPOSITOR_SILENT ? serve_silent(sv[1]) : serve(sv[1]));
    }
    close(sv[1]);
    if (pid < 0 || read(sv[0], &ready, 1) != 1) {
        close(sv[0]);
        if (pid > 0)
            waitpid(pid, NULL, 0);
        return -1;
    }
    *control = sv[0];
    return pid;
}

int fake_compositor_stop(pid_t pid, int control)
{
    int status = 0;

    close(control);
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int fake_compositor_serve_until_eof(const struct fake_compositor_config *c)
{
    int control;
    pid_t pid = fake_compositor_start(c, &control);
    char ch;

    if (pid <= 0)
        return 1;
    printf("ready %s\n", c->socket);
    fflush(stdout);
    while (fread(&ch, 1, 1, stdin) == 1)
        ;
    return fake_compositor_stop(pid, control);
}
