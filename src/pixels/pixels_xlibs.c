/* SPDX-License-Identifier: MIT */
/*
 * glmux: the X libraries the pixels GLX vendor's frame transport uses beyond libX11, loaded
 * with dlopen the first time a display needs them (pthread_once), so that nothing links them.
 * Every request of the transport goes through the display's own xcb connection
 * (XGetXCBConnection), checked: its error comes back to the vendor (in the reply, or through
 * xcb_poll_for_reply on its cookie) and is never delivered to the application's X error
 * handler, and replies are collected later without blocking (or polled for: never inside
 * xcb_wait_for_reply, pixels_server.c). So:
 * - libX11-xcb and libxcb: needed (Mesa's EGL and GLX need them too); without them the pixels
 *   vendor serves no screen;
 * - libxcb-shm: MIT-SHM (xcb_shm_put_image); without it frames go out with PutImage;
 * - libxcb-present: Present (window sizes from its events, swap intervals); without it (or in a
 *   build without <xcb/present.h>, pixels.h) a window's size is asked after each frame and
 *   frames are not paced.
 * A group is usable only when every function of it was found. The libraries stay loaded for the
 * life of the process: a display may use them until it is closed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>

#include "pixels/pixels.h"
#include "util/log.h"

static struct glmux_pixels_xlibs xl;
static pthread_once_t xl_once = PTHREAD_ONCE_INIT;

static void *open_lib(const char *soname, const char *what, enum glmux_log_category level)
{
    void *lib = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);

    if (lib == NULL)
        glmux_log(level, "pixels GLX vendor: %s cannot be loaded: %s", soname, what);
    return lib;
}

#define XL_LOAD(lib, field, symbol, ok)                                  \
    do {                                                                 \
        xl.field = (__typeof__(xl.field))dlsym((lib), (symbol));         \
        if (xl.field == NULL)                                            \
            (ok) = false;                                                \
    } while (0)

static void load_xcb(void)
{
    const char *what = "the pixels GLX vendor cannot send frames (install libx11-xcb1)";
    void *x11xcb = open_lib("libX11-xcb.so.1", what, GLMUX_LOG_WARN), *xcb;
    bool ok = x11xcb != NULL;

    if (!ok || (xcb = open_lib("libxcb.so.1", what, GLMUX_LOG_WARN)) == NULL)
        return;
    XL_LOAD(x11xcb, GetXCBConnection, "XGetXCBConnection", ok);
    XL_LOAD(xcb, generate_id, "xcb_generate_id", ok);
    XL_LOAD(xcb, flush, "xcb_flush", ok);
    XL_LOAD(xcb, connection_has_error, "xcb_connection_has_error", ok);
    XL_LOAD(xcb, get_file_descriptor, "xcb_get_file_descriptor", ok);
    XL_LOAD(xcb, get_maximum_request_length, "xcb_get_maximum_request_length", ok);
    XL_LOAD(xcb, poll_for_reply, "xcb_poll_for_reply", ok);
    XL_LOAD(xcb, discard_reply, "xcb_discard_reply", ok);
    XL_LOAD(xcb, get_extension_data, "xcb_get_extension_data", ok);
    XL_LOAD(xcb, register_for_special_xge, "xcb_register_for_special_xge", ok);
    XL_LOAD(xcb, unregister_for_special_event, "xcb_unregister_for_special_event", ok);
    XL_LOAD(xcb, poll_for_special_event, "xcb_poll_for_special_event", ok);
    XL_LOAD(xcb, get_geometry, "xcb_get_geometry", ok);
    XL_LOAD(xcb, get_image, "xcb_get_image", ok);
    XL_LOAD(xcb, create_gc_checked, "xcb_create_gc_checked", ok);
    XL_LOAD(xcb, free_gc_checked, "xcb_free_gc_checked", ok);
    XL_LOAD(xcb, put_image_checked, "xcb_put_image_checked", ok);
    xl.xcb = ok;
}

static void load_shm(void)
{
    void *lib;
    bool ok = xl.xcb;

    if (!ok ||
        (lib = open_lib("libxcb-shm.so.0", "frames go out with PutImage", GLMUX_LOG_INFO)) == NULL)
        return;
    XL_LOAD(lib, shm_id, "xcb_shm_id", ok);
    XL_LOAD(lib, shm_query_version, "xcb_shm_query_version", ok);
    XL_LOAD(lib, shm_attach_checked, "xcb_shm_attach_checked", ok);
    XL_LOAD(lib, shm_detach_checked, "xcb_shm_detach_checked", ok);
    XL_LOAD(lib, shm_put_image_checked, "xcb_shm_put_image_checked", ok);
    xl.shm = ok;
}

static void load_present(void)
{
#if !GLMUX_PIXELS_PRESENT
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: built without Present (no <xcb/present.h>): "
              "frames are not paced (swap interval) and a window's size is asked after each "
              "frame");
#else
    void *lib;
    bool ok = xl.xcb;

    if (!ok || (lib = open_lib("libxcb-present.so.0", "frames are not paced (swap interval) "
                               "and a window's size is asked after each frame",
                               GLMUX_LOG_INFO)) == NULL)
        return;
    XL_LOAD(lib, present_id, "xcb_present_id", ok);
    XL_LOAD(lib, present_query_version, "xcb_present_query_version", ok);
    XL_LOAD(lib, present_select_input_checked, "xcb_present_select_input_checked", ok);
    XL_LOAD(lib, present_notify_msc_checked, "xcb_present_notify_msc_checked", ok);
    xl.present = ok;
#endif
}

#undef XL_LOAD

static void load(void)
{
    load_xcb();
    load_shm();
    load_present();
}

const struct glmux_pixels_xlibs *glmux_pixels_xlibs(void)
{
    pthread_once(&xl_once, load);
    return &xl;
}
