/* SPDX-License-Identifier: MIT */
/*
 * glmux: the X libraries the pixels GLX vendor's frame transport uses beyond libX11, loaded
 * the first time a display needs them (pthread_once), so that nothing links them.
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
 * A group is usable only when every function of it was found. The libraries are opened by the
 * one loader of the X libraries (src/select/x11_libs.h: their sonames, the dlopen mode, and
 * that they stay loaded for the life of the process, as a display may use them until it is
 * closed); this file picks the functions and says what is missing.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "pixels/pixels_xlibs.h"
#include "select/x11_libs.h"
#include "util/log.h"

static struct glmux_pixels_xlibs xl;
static pthread_once_t xl_once = PTHREAD_ONCE_INIT;

/* One wanted function: its place in xl and its name. */
#define XL_WANT(field, symbol) { (void **)&xl.field, symbol }

/* Looks up the functions of lib; false, said at level, when the library or one of them is
 * missing. */
static bool want(enum glmux_x11_lib lib, const struct glmux_x11_want *w, size_t n,
                 enum glmux_log_category level, const char *what)
{
    if (glmux_x11_syms(lib, w, n))
        return true;
    glmux_log(level, "pixels GLX vendor: %s %s: %s", glmux_x11_lib_name(lib),
              glmux_x11_lib(lib, false) == NULL ? "cannot be loaded" : "lacks a function",
              what);
    return false;
}

static void load_xcb(void)
{
    static const char what[] = "the pixels GLX vendor cannot send frames (install libx11-xcb1)";
    const struct glmux_x11_want x11xcb[] = { XL_WANT(GetXCBConnection, "XGetXCBConnection") };
    const struct glmux_x11_want xcb[] = {
        XL_WANT(generate_id, "xcb_generate_id"),
        XL_WANT(flush, "xcb_flush"),
        XL_WANT(connection_has_error, "xcb_connection_has_error"),
        XL_WANT(get_file_descriptor, "xcb_get_file_descriptor"),
        XL_WANT(get_maximum_request_length, "xcb_get_maximum_request_length"),
        XL_WANT(poll_for_reply, "xcb_poll_for_reply"),
        XL_WANT(discard_reply, "xcb_discard_reply"),
        XL_WANT(get_extension_data, "xcb_get_extension_data"),
        XL_WANT(register_for_special_xge, "xcb_register_for_special_xge"),
        XL_WANT(unregister_for_special_event, "xcb_unregister_for_special_event"),
        XL_WANT(poll_for_special_event, "xcb_poll_for_special_event"),
        XL_WANT(get_geometry, "xcb_get_geometry"),
        XL_WANT(get_image, "xcb_get_image"),
        XL_WANT(create_gc_checked, "xcb_create_gc_checked"),
        XL_WANT(free_gc_checked, "xcb_free_gc_checked"),
        XL_WANT(put_image_checked, "xcb_put_image_checked"),
    };

    xl.xcb = want(GLMUX_X11_LIB_X11_XCB, x11xcb, 1, GLMUX_LOG_WARN, what) &&
             want(GLMUX_X11_LIB_XCB, xcb, sizeof(xcb) / sizeof(xcb[0]), GLMUX_LOG_WARN, what);
}

static void load_shm(void)
{
    const struct glmux_x11_want shm[] = {
        XL_WANT(shm_id, "xcb_shm_id"),
        XL_WANT(shm_query_version, "xcb_shm_query_version"),
        XL_WANT(shm_attach_checked, "xcb_shm_attach_checked"),
        XL_WANT(shm_detach_checked, "xcb_shm_detach_checked"),
        XL_WANT(shm_put_image_checked, "xcb_shm_put_image_checked"),
    };

    xl.shm = xl.xcb && want(GLMUX_X11_LIB_XCB_SHM, shm, sizeof(shm) / sizeof(shm[0]),
                            GLMUX_LOG_INFO, "frames go out with PutImage");
}

static void load_present(void)
{
#if !GLMUX_PIXELS_PRESENT
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: built without Present (no <xcb/present.h>): "
              "frames are not paced (swap interval) and a window's size is asked after each "
              "frame");
#else
    const struct glmux_x11_want present[] = {
        XL_WANT(present_id, "xcb_present_id"),
        XL_WANT(present_query_version, "xcb_present_query_version"),
        XL_WANT(present_select_input_checked, "xcb_present_select_input_checked"),
        XL_WANT(present_notify_msc_checked, "xcb_present_notify_msc_checked"),
    };

    xl.present = xl.xcb && want(GLMUX_X11_LIB_XCB_PRESENT, present,
                                sizeof(present) / sizeof(present[0]), GLMUX_LOG_INFO,
                                "frames are not paced (swap interval) and a window's size is "
                                "asked after each frame");
#endif
}

#undef XL_WANT

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
