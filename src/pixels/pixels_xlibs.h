/* SPDX-License-Identifier: MIT */
/*
 * glmux: the X libraries beyond libX11 that the pixels vendor's frame transport uses
 * (pixels_xlibs.c): libX11-xcb and libxcb, libxcb-shm, libxcb-present, each group usable when
 * every function of it was found.
 */
#ifndef GLMUX_PIXELS_XLIBS_H
#define GLMUX_PIXELS_XLIBS_H

#include "pixels/pixels.h"

/* Each group is usable when its flag is set (every function found). */
struct glmux_pixels_xlibs {
    bool xcb;               /* libX11-xcb and libxcb */
    __typeof__(&XGetXCBConnection) GetXCBConnection;
    __typeof__(&xcb_generate_id) generate_id;
    __typeof__(&xcb_flush) flush;
    __typeof__(&xcb_connection_has_error) connection_has_error;
    __typeof__(&xcb_get_file_descriptor) get_file_descriptor;
    __typeof__(&xcb_get_maximum_request_length) get_maximum_request_length;
    __typeof__(&xcb_poll_for_reply) poll_for_reply;
    __typeof__(&xcb_discard_reply) discard_reply;
    __typeof__(&xcb_get_extension_data) get_extension_data;
    __typeof__(&xcb_register_for_special_xge) register_for_special_xge;
    __typeof__(&xcb_unregister_for_special_event) unregister_for_special_event;
    __typeof__(&xcb_poll_for_special_event) poll_for_special_event;
    __typeof__(&xcb_get_geometry) get_geometry;
    __typeof__(&xcb_get_image) get_image;
    __typeof__(&xcb_create_gc_checked) create_gc_checked;
    __typeof__(&xcb_free_gc_checked) free_gc_checked;
    __typeof__(&xcb_put_image_checked) put_image_checked;
    bool shm;               /* libxcb-shm (and xcb) */
    xcb_extension_t *shm_id;
    __typeof__(&xcb_shm_query_version) shm_query_version;
    __typeof__(&xcb_shm_attach_checked) shm_attach_checked;
    __typeof__(&xcb_shm_detach_checked) shm_detach_checked;
    __typeof__(&xcb_shm_put_image_checked) shm_put_image_checked;
    bool present;           /* libxcb-present (and xcb); never in a build without Present */
#if GLMUX_PIXELS_PRESENT
    xcb_extension_t *present_id;
    __typeof__(&xcb_present_query_version) present_query_version;
    __typeof__(&xcb_present_select_input_checked) present_select_input_checked;
    __typeof__(&xcb_present_notify_msc_checked) present_notify_msc_checked;
#endif
};

/* Loaded on first use (dlopen, pthread_once); never NULL. */
const struct glmux_pixels_xlibs *glmux_pixels_xlibs(void);

#endif /* GLMUX_PIXELS_XLIBS_H */
