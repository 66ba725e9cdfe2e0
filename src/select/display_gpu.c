/* SPDX-License-Identifier: MIT */
/*
 * glmux: which GPU is behind a display, as Mesa's loader and Vulkan device-select layer find it.
 * X11: the device the X server's DRI3 extension opens for the screen (the display GPU, awake
 * anyway), asked through the application's own connection with libX11-xcb and libxcb-dri3, or
 * through a short-lived connection of our own to DISPLAY for the default display (GBM, device
 * and surfaceless displays are never asked: each vendor takes only a GBM device or EGLDevice of
 * its own, and a surfaceless display has no server). Every fd becomes a GPU through its device
 * number (fstat): the enumerated GPU whose card or render node has that number (a stat of each
 * node), else libdrm's drmGetDeviceFromDevId, which reads sysfs only but costs far more
 * (docs/performance.md). The client libraries are loaded with dlopen by the one X-library
 * loader (x11_libs.h; libX11-xcb and libxcb-dri3 are tiny), so nothing here is linked.
 */
#define _GNU_SOURCE
#include "select.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/dri3.h>

#include "select/device_libs.h"
#include "select/gpu_enum.h"
#include "select/x11_libs.h"
#include "util/env.h"

bool glmux_gpu_tag_of_devid(unsigned long long devid, char *tag, size_t size)
{
    const struct glmux_device_libs *L = glmux_device_libs_get();
    struct glmux_gpu g;
    drmDevicePtr dev = NULL;
    bool ok;

    if (!L->have_drm)
        return false;
    glmux_gpu_enum_lock();
    if (L->drmGetDeviceFromDevId((dev_t)devid, 0, &dev) != 0 || dev == NULL) {
        glmux_gpu_enum_unlock();
        return false;
    }
    memset(&g, 0, sizeof(g));
    ok = glmux_gpu_from_drm(dev, &g) && strlen(g.tag) < size;
    if (ok)
        memcpy(tag, g.tag, strlen(g.tag) + 1);
    L->drmFreeDevice(&dev);
    glmux_gpu_enum_unlock();
    return ok;
}

/*
 * The enumerated GPU whose card or render node (/dev/dri, where libdrm found it) has device
 * number devid; NULL when none. A USB GPU is left to libdrm: its enumerated tag may be udev's
 * (gpu_enum.c), not the one libdrm alone gives, and the answer must not depend on the path.
 */
static const struct glmux_gpu *known_gpu(const struct glmux_gpu_list *known,
                                         unsigned long long devid)
{
    for (size_t i = 0; known != NULL && i < known->count; i++) {
        const struct glmux_gpu *g = &known->gpus[i];
        const char *nodes[2] = { g->render_node, g->card_node };

        if (g->bus == GLMUX_BUS_USB)
            continue;
        for (size_t j = 0; j < 2; j++) {
            char path[64];
            struct stat st;

            if (nodes[j][0] != '\0' &&
                snprintf(path, sizeof(path), "/dev/dri/%s", nodes[j]) < (int)sizeof(path) &&
                stat(path, &st) == 0 && S_ISCHR(st.st_mode) &&
                (unsigned long long)st.st_rdev == devid)
                return g;
        }
    }
    return NULL;
}

bool glmux_gpu_known_tag_of_devid(const struct glmux_gpu_list *known, unsigned long long devid,
                                  char *tag, size_t size)
{
    const struct glmux_gpu *g = known_gpu(known, devid);

    if (g == NULL)
        return glmux_gpu_tag_of_devid(devid, tag, size);
    if (strlen(g->tag) >= size)
        return false;
    memcpy(tag, g->tag, strlen(g->tag) + 1);
    return true;
}

static bool known_tag_of_fd(const struct glmux_gpu_list *known, int fd, char *tag, size_t size)
{
    struct stat st;

    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode))
        return false;
    return glmux_gpu_known_tag_of_devid(known, (unsigned long long)st.st_rdev, tag, size);
}

/* The functions of libxcb, libxcb-dri3 and libX11-xcb used here. */
struct xcb_fns {
    xcb_connection_t *(*get_connection)(void *dpy);
    const xcb_query_extension_reply_t *(*get_extension_data)(xcb_connection_t *c,
                                                             xcb_extension_t *ext);
    xcb_extension_t *dri3_id;
    xcb_dri3_open_cookie_t (*dri3_open)(xcb_connection_t *c, xcb_drawable_t drawable,
                                        uint32_t provider);
    xcb_dri3_open_reply_t *(*dri3_open_reply)(xcb_connection_t *c, xcb_dri3_open_cookie_t cookie,
                                              xcb_generic_error_t **e);
    int *(*dri3_open_reply_fds)(xcb_connection_t *c, xcb_dri3_open_reply_t *reply);
    const xcb_setup_t *(*get_setup)(xcb_connection_t *c);
    xcb_screen_iterator_t (*setup_roots_iterator)(const xcb_setup_t *setup);
    void (*screen_next)(xcb_screen_iterator_t *i);
};

static bool load_xcb(struct xcb_fns *f)
{
    const struct glmux_x11_want x11xcb[] = {
        { (void **)&f->get_connection, "XGetXCBConnection" },
    };
    const struct glmux_x11_want xcb[] = {
        { (void **)&f->get_extension_data, "xcb_get_extension_data" },
        { (void **)&f->get_setup, "xcb_get_setup" },
        { (void **)&f->setup_roots_iterator, "xcb_setup_roots_iterator" },
        { (void **)&f->screen_next, "xcb_screen_next" },
    };
    const struct glmux_x11_want dri3[] = {
        { (void **)&f->dri3_id, "xcb_dri3_id" },
        { (void **)&f->dri3_open, "xcb_dri3_open" },
        { (void **)&f->dri3_open_reply, "xcb_dri3_open_reply" },
        { (void **)&f->dri3_open_reply_fds, "xcb_dri3_open_reply_fds" },
    };

    /* The libraries stay loaded (x11_libs.h): they keep no callbacks into glmux. */
    return glmux_x11_syms(GLMUX_X11_LIB_X11_XCB, x11xcb, 1) &&
           glmux_x11_syms(GLMUX_X11_LIB_XCB, xcb, sizeof(xcb) / sizeof(xcb[0])) &&
           glmux_x11_syms(GLMUX_X11_LIB_XCB_DRI3, dri3, sizeof(dri3) / sizeof(dri3[0]));
}

/* The GPU the X server's DRI3 opens for screen of the connection of dpy (an Xlib Display). */
static bool dri3_tag(const struct glmux_gpu_list *known, const struct xcb_fns *f, void *dpy,
                     int screen, char *tag, size_t size, char *why, size_t why_size)
{
    xcb_connection_t *c = f->get_connection(dpy);
    const xcb_query_extension_reply_t *ext;
    xcb_screen_iterator_t it;
    xcb_dri3_open_reply_t *reply;
    bool ok = false;

    if (c == NULL)
        return false;
    ext = f->get_extension_data(c, f->dri3_id);
    if (ext == NULL || !ext->present) {
        snprintf(why, why_size, "the X server has no DRI3 extension");
        return false;
    }
    it = f->setup_roots_iterator(f->get_setup(c));
    for (int i = 0; i < screen && it.rem > 0; i++)
        f->screen_next(&it);
    if (it.rem <= 0 || it.data == NULL)
        return false;
    reply = f->dri3_open_reply(c, f->dri3_open(c, it.data->root, 0), NULL);
    if (reply == NULL) {
        snprintf(why, why_size, "DRI3Open failed (a remote or software X server?)");
        return false;
    }
    if (reply->nfd == 1) {
        int fd = f->dri3_open_reply_fds(c, reply)[0];
        ok = known_tag_of_fd(known, fd, tag, size);
        close(fd);
        if (!ok)
            snprintf(why, why_size, "the DRI3 device is no DRM device libdrm knows");
    }
    free(reply);
    return ok;
}

bool glmux_display_x11_gpu(const struct glmux_gpu_list *known, void *dpy, int screen, char *tag,
                           size_t size, char *why, size_t why_size)
{
    struct xcb_fns f;
    void *(*open_display)(const char *) = NULL;
    int (*close_display)(void *) = NULL;
    int (*default_screen)(void *) = NULL;
    void *x11;
    bool own = dpy == NULL, ok;

    snprintf(why, why_size, "the X client libraries (libX11, libX11-xcb, libxcb-dri3) are "
             "missing");
    /* libX11 is loaded already when the application gave a Display; else we load it. */
    x11 = glmux_x11_lib(GLMUX_X11_LIB_X11, !own);
    if (x11 == NULL || !load_xcb(&f))
        return false;
    *(void **)&open_display = dlsym(x11, "XOpenDisplay");
    *(void **)&close_display = dlsym(x11, "XCloseDisplay");
    *(void **)&default_screen = dlsym(x11, "XDefaultScreen");
    if (open_display == NULL || close_display == NULL || default_screen == NULL)
        return false;
    /* The default display: a short-lived connection of our own, only to ask. */
    if (own && (dpy = open_display(NULL)) == NULL) {
        snprintf(why, why_size, "cannot connect to DISPLAY");
        return false;
    }
    if (screen < 0)
        screen = default_screen(dpy);
    ok = dri3_tag(known, &f, dpy, screen, tag, size, why, why_size);
    if (own)
        close_display(dpy);
    return ok;
}

bool glmux_select_egl_platform_env(unsigned int *platform)
{
    static const struct {
        const char *name;
        unsigned int platform;
    } names[] = {
        { "x11", GLMUX_EGL_PLATFORM_X11 },         { "wayland", GLMUX_EGL_PLATFORM_WAYLAND },
        { "android", GLMUX_EGL_PLATFORM_ANDROID }, { "gbm", GLMUX_EGL_PLATFORM_GBM },
        { "drm", GLMUX_EGL_PLATFORM_GBM },         { "device", GLMUX_EGL_PLATFORM_DEVICE },
    };
    const char *value = glmux_env_get("EGL_PLATFORM");
    char *end;
    long number;

    if (value == NULL || value[0] == '\0')
        return false;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(value, names[i].name) == 0) {
            *platform = names[i].platform;
            return true;
        }
    }
    number = strtol(value, &end, 0);
    if (*end != '\0')
        return false;
    *platform = (unsigned int)number;
    return true;
}

enum glmux_display_server glmux_display_default_server(char *why, size_t why_size)
{
    const char *display = glmux_env_get("DISPLAY"), *wayland = glmux_env_get("WAYLAND_DISPLAY");
    unsigned int platform;

    const char *named = glmux_env_get("EGL_PLATFORM");

    if (glmux_select_egl_platform_env(&platform)) {
        if (platform == GLMUX_EGL_PLATFORM_X11)
            return GLMUX_DISPLAY_SERVER_X11;
        if (platform == GLMUX_EGL_PLATFORM_WAYLAND)
            return GLMUX_DISPLAY_SERVER_WAYLAND;
    }
    /* Any other platform, surfaceless and names libEGL leaves to the vendor included: the
     * vendor makes the default display there, on no display server. */
    if (named != NULL && named[0] != '\0') {
        snprintf(why, why_size, "EGL_PLATFORM=%s: the default display is on no display server",
                 named);
        return GLMUX_DISPLAY_SERVER_NONE;
    }
    if (display != NULL && *display != '\0')
        return GLMUX_DISPLAY_SERVER_X11;
    if (wayland != NULL && *wayland != '\0')
        return GLMUX_DISPLAY_SERVER_WAYLAND;
    snprintf(why, why_size, "neither DISPLAY nor WAYLAND_DISPLAY is set");
    return GLMUX_DISPLAY_SERVER_NONE;
}
