/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: the GPU behind a Wayland display orders the EGL vendors for that display.
 * Run under umockdev's intel-nvidia bed (Intel iGPU with boot_vga, NVIDIA dGPU 226:129) with the
 * fake vendors mesa and nvidia of the GPU tests (GLMUX_VENDOR_DIRS), it starts a fake compositor
 * (fake_compositor.c) and checks, per MODE:
 *   dmabuf   linux-dmabuf v4 feedback names the dGPU: the application's wl_display, and the
 *            default display under WAYLAND_DISPLAY, get nvidia first;
 *   wl_drm   no feedback (linux-dmabuf v3), wl_drm names the dGPU's node: the same;
 *   neither  no way to tell: the process's order (mesa first);
 *   silent   a compositor that never answers: the process's order, after a bounded wait.
 * EGL_PLATFORM=wayland asks the compositor even with DISPLAY set (which otherwise means X11).
 * In every mode the default display without WAYLAND_DISPLAY stays on the iGPU's vendor (mesa),
 * the application's own queue sees no event of glmux's question and its connection stays
 * usable, and the libEGL loaded is ours. The vendors record which of them was asked first
 * (FAKE_EGL_ANY_WAYLAND: any vendor serves any Wayland display). With GLMUX, the path of the
 * glmux tool, `glmux explain --json` under WAYLAND_DISPLAY must say what libEGL did: that it
 * asked over a connection of its own, the GPU (or why none) and the display's vendor order.
 *   test_egl_wayland MODE [GLMUX]
 * bench/select/run_cost_bench.sh uses it as a compositor only: "serve" runs the dmabuf one in
 * XDG_RUNTIME_DIR, prints "ready" and stops at the end of its standard input.
 *   test_egl_wayland serve
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <wayland-client.h>

#include "fake_compositor.h"
#include "glmux_test.h"

static const char socket_name[] = "glmux-test-wayland";

/* `glmux explain --json` under the current environment: what it says of the default display. */
static void check_explain(const char *glmux, const char *mode, bool known)
{
    static const char *const want_known[] = {
        "WAYLAND_DISPLAY\"", "\"gpu\": \"pci-0000_01_00_0\"",
        "\"egl_vendors\": [\n      \"nvidia\",\n      \"mesa\"\n    ]", NULL,
    };
    static const char *const want_unknown[] = {
        "WAYLAND_DISPLAY\"", "\"gpu\": null", NULL,
    };
    char cmd[4096], out[65536], *d;
    size_t len = 0, n;
    FILE *p;

    snprintf(cmd, sizeof(cmd), "'%s' explain --json", glmux);
    p = popen(cmd, "r");
    CHECK(p != NULL);
    while (len + 1 < sizeof(out) && (n = fread(out + len, 1, sizeof(out) - 1 - len, p)) > 0)
        len += n;
    out[len] = '\0';
    CHECK_MSG(pclose(p) == 0, "glmux explain failed: %s", out);
    d = strstr(out, "\"default_display\": {");
    CHECK_MSG(d != NULL, "%s: glmux explain does not say it asked the compositor:\n%s", mode, out);
    for (const char *const *w = known ? want_known : want_unknown; *w != NULL; w++)
        CHECK_MSG(strstr(d, *w) != NULL, "%s: glmux explain's default_display lacks %s:\n%s",
                  mode, *w, d);
}

static const char *vendor_of(EGLDisplay dpy)
{
    const char *v;

    if (dpy == EGL_NO_DISPLAY)
        return "(none)";
    CHECK(eglInitialize(dpy, NULL, NULL));
    v = eglQueryString(dpy, EGL_VENDOR);
    return v != NULL ? v : "(null)";
}

static void registry_global(void *data, struct wl_registry *reg, uint32_t name,
                            const char *interface, uint32_t version)
{
    (void)reg;
    (void)name;
    (void)interface;
    (void)version;
    ++*(int *)data;
}

static void registry_remove(void *data, struct wl_registry *reg, uint32_t name)
{
    (void)data;
    (void)reg;
    (void)name;
}

/* Whether umockdev's preload library is mapped into this process. */
static bool umockdev_loaded(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    bool found = false;

    while (f != NULL && !found && fgets(line, sizeof(line), f) != NULL)
        found = strstr(line, "libumockdev-preload") != NULL;
    if (f != NULL)
        fclose(f);
    return found;
}

static const struct wl_registry_listener app_listener = { registry_global, registry_remove };

/* The test's XDG_RUNTIME_DIR and its compositor: stopped and removed at exit on every path (a
 * failed CHECK exits too), by this process only, never by a forked child that exits. */
static char runtime_dir[PATH_MAX];
static pid_t runtime_owner, compositor = -1;
static int compositor_control = -1;

static void remove_runtime_dir(void)
{
    struct dirent *e;
    DIR *d;

    if (getpid() != runtime_owner)
        return;
    if (compositor > 0)
        fake_compositor_stop(compositor, compositor_control);
    compositor = -1;
    if ((d = opendir(runtime_dir)) != NULL) {
        while ((e = readdir(d)) != NULL)
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                unlinkat(dirfd(d), e->d_name, 0);
        closedir(d);
    }
    rmdir(runtime_dir);
}

/* The compositor alone, for the benchmark. */
static int serve(void)
{
    struct fake_compositor_config cfg = { .mode = FAKE_COMPOSITOR_DMABUF, .socket = socket_name,
                                          .main_device = makedev(226, 129) };

    return fake_compositor_serve_until_eof(&cfg);
}

int main(int argc, char **argv)
{
    static const char *const clear[] = {
        "DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "EGL_PLATFORM", "DRI_PRIME",
        "GLMUX_GPU", "__NV_PRIME_RENDER_OFFLOAD", "__EGL_VENDOR_LIBRARY_FILENAMES",
        "__EGL_VENDOR_LIBRARY_DIRS", NULL,
    };
    struct fake_compositor_config cfg = { .socket = socket_name,
                                          .main_device = makedev(226, 129),
                                          .drm_device = "/dev/dri/card1" };
    const char *mode = argc > 1 ? argv[1] : "", *expect = "nvidia", *got;
    struct wl_display *app;
    struct wl_registry *reg;
    int app_globals = 0, control, fds;
    EGLDisplay dpy;
    pid_t pid;

    if (strcmp(mode, "serve") == 0)
        return serve();
    if (strcmp(mode, "dmabuf") == 0) {
        cfg.mode = FAKE_COMPOSITOR_DMABUF;
    } else if (strcmp(mode, "wl_drm") == 0) {
        cfg.mode = FAKE_COMPOSITOR_WL_DRM;
    } else if (strcmp(mode, "neither") == 0) {
        cfg.mode = FAKE_COMPOSITOR_NEITHER;
        expect = "mesa";
    } else if (strcmp(mode, "silent") == 0) {
        cfg.mode = FAKE_COMPOSITOR_SILENT;
        expect = "mesa";
    } else {
        fprintf(stderr, "usage: test_egl_wayland dmabuf|wl_drm|neither|silent\n");
        return 2;
    }
    /* umockdev's preload must be in this process (it is not in a foreign-architecture one). */
    if (!umockdev_loaded() || access("/sys/bus/pci/devices/0000:01:00.0", F_OK) != 0)
        SKIP("not running under umockdev's intel-nvidia bed");
    for (size_t i = 0; clear[i] != NULL; i++)
        unsetenv(clear[i]);
    if (getenv("FAKE_EGL_ANY_WAYLAND") == NULL)
        SKIP("FAKE_EGL_ANY_WAYLAND is not set (run through ctest)");
    snprintf(runtime_dir, sizeof(runtime_dir), "%s/glmux-wayland-XXXXXX", glmux_test_tmpdir());
    CHECK(mkdtemp(runtime_dir) != NULL);
    runtime_owner = getpid();
    CHECK(atexit(remove_runtime_dir) == 0);
    setenv("XDG_RUNTIME_DIR", runtime_dir, 1);
    pid = fake_compositor_start(&cfg, &control);
    CHECK_MSG(pid > 0, "the fake compositor did not start");
    compositor = pid;
    compositor_control = control;

    /* The process's default: the iGPU's vendor, whatever the compositor says. */
    got = vendor_of(eglGetDisplay(EGL_DEFAULT_DISPLAY));
    CHECK_MSG(strcmp(got, "mesa") == 0, "process default display from %s, expected mesa", got);

    /* The application's wl_display, with a registry of its own on the default queue that it has
     * not dispatched yet: glmux's question must not dispatch it. */
    app = wl_display_connect(socket_name);
    CHECK_MSG(app != NULL, "cannot connect to the fake compositor");
    reg = wl_display_get_registry(app);
    CHECK(reg != NULL && wl_registry_add_listener(reg, &app_listener, &app_globals) == 0);
    dpy = eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, app, NULL);
    got = vendor_of(dpy);
    CHECK_MSG(strcmp(got, expect) == 0, "%s: the wl_display's vendor is %s, expected %s", mode,
              got, expect);
    CHECK_MSG(app_globals == 0, "the application's registry saw %d event(s) during glmux's "
              "question", app_globals);
    if (cfg.mode != FAKE_COMPOSITOR_SILENT) {
        CHECK(wl_display_roundtrip(app) >= 0 && wl_display_get_error(app) == 0);
        CHECK_MSG(app_globals == (cfg.mode == FAKE_COMPOSITOR_DMABUF ? 1
                                  : cfg.mode == FAKE_COMPOSITOR_WL_DRM ? 2 : 0),
                  "the application's registry saw %d global(s)", app_globals);
    }
    /* eglGetDisplay (the platform guessed) agrees (not asked again of a silent one). */
    if (cfg.mode != FAKE_COMPOSITOR_SILENT) {
        got = vendor_of(eglGetDisplay((EGLNativeDisplayType)app));
        CHECK_MSG(strcmp(got, expect) == 0, "eglGetDisplay(wl_display) from %s", got);
    }
    wl_registry_destroy(reg);
    wl_display_disconnect(app);

    /* The default display under WAYLAND_DISPLAY: a short connection of glmux's own, closed
     * again, with the format table's fd (no descriptor left behind). */
    setenv("WAYLAND_DISPLAY", socket_name, 1);
    fds = glmux_test_open_fds();
    got = vendor_of(eglGetDisplay(EGL_DEFAULT_DISPLAY));
    CHECK_MSG(strcmp(got, expect) == 0, "%s: default display under WAYLAND_DISPLAY from %s, "
              "expected %s", mode, got, expect);
    CHECK_MSG(glmux_test_open_fds() == fds, "%s: %d descriptors open before, %d after", mode, fds,
              glmux_test_open_fds());
    if (argc > 2)
        check_explain(argv[2], mode, strcmp(expect, "nvidia") == 0);
    /* DISPLAY set too: X11 is Mesa's default platform, so Wayland is not asked (and no X server
     * answers here): the process's order. */
    setenv("DISPLAY", ":glmux-none", 1);
    got = vendor_of(eglGetDisplay(EGL_DEFAULT_DISPLAY));
    CHECK_MSG(strcmp(got, "mesa") == 0, "default display under DISPLAY from %s", got);
    /* Unless EGL_PLATFORM chooses Wayland: then the compositor is asked, DISPLAY or not (a
     * silent one has shown its bounded wait above already). */
    if (cfg.mode != FAKE_COMPOSITOR_SILENT) {
        setenv("EGL_PLATFORM", "wayland", 1);
        got = vendor_of(eglGetDisplay(EGL_DEFAULT_DISPLAY));
        CHECK_MSG(strcmp(got, expect) == 0, "%s: default display under EGL_PLATFORM=wayland "
                  "from %s, expected %s", mode, got, expect);
        if (argc > 2)
            check_explain(argv[2], mode, strcmp(expect, "nvidia") == 0);
        unsetenv("EGL_PLATFORM");
    }
    unsetenv("DISPLAY");
    unsetenv("WAYLAND_DISPLAY");
    got = vendor_of(eglGetDisplay(EGL_DEFAULT_DISPLAY));
    CHECK_MSG(strcmp(got, "mesa") == 0, "process default display afterwards from %s", got);

    compositor = -1;
    CHECK_MSG(fake_compositor_stop(pid, control) == 0, "the fake compositor failed");
    remove_runtime_dir();
    glmux_test_require_ours("libEGL.so.1");
    printf("%s: ok (the display's vendor: %s)\n", mode, expect);
    return 0;
}
