/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: a fake Wayland compositor in a child process (fake_compositor.c), listening
 * on XDG_RUNTIME_DIR/socket, that tells clients its GPU one way or another.
 */
#ifndef GLMUX_TESTS_FAKE_COMPOSITOR_H
#define GLMUX_TESTS_FAKE_COMPOSITOR_H

#include <sys/types.h>

enum fake_compositor_mode {
    FAKE_COMPOSITOR_DMABUF,   /* linux-dmabuf v4, default feedback's main device */
    FAKE_COMPOSITOR_WL_DRM,   /* linux-dmabuf v3 (no feedback) and wl_drm's device event */
    FAKE_COMPOSITOR_NEITHER,  /* no global at all */
    FAKE_COMPOSITOR_SILENT,   /* connections are never answered */
};

struct fake_compositor_config {
    enum fake_compositor_mode mode;
    const char *socket;       /* its name in XDG_RUNTIME_DIR */
    dev_t main_device;        /* FAKE_COMPOSITOR_DMABUF */
    const char *drm_device;   /* FAKE_COMPOSITOR_WL_DRM: a node path */
};

/* Forks the compositor and returns once it listens: its pid, and *control, the end to pass to
 * fake_compositor_stop. -1 when it could not start. */
pid_t fake_compositor_start(const struct fake_compositor_config *c, int *control);
/* Stops it; its exit status (0: it ran without a fault). */
int fake_compositor_stop(pid_t pid, int control);
/* For a program that only serves (a benchmark, the PRIME table): starts it, prints "ready
 * SOCKET" on standard output, stops it at the end of standard input; the compositor's exit
 * status, 1 when it could not start. */
int fake_compositor_serve_until_eof(const struct fake_compositor_config *c);

#endif
