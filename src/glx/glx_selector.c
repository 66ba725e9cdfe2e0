/* SPDX-License-Identifier: MIT */
/*
 * glmux: the seam where the PRIME-aware GPU selector (src/select) will decide which vendor
 * serves a GLX screen. It is consulted after the explicit libglvnd overrides
 * (__GLX_FORCE_VENDOR_LIBRARY_<n>, __GLX_VENDOR_LIBRARY_NAME) and before the X server's
 * GLX_VENDOR_NAMES_EXT list. Until the selector exists it has no opinion.
 */
#include "glx/glx_internal.h"

const char *glmux_glx_selector_vendor_name(Display *dpy, int screen)
{
    (void)dpy;
    (void)screen;
    return NULL;
}
