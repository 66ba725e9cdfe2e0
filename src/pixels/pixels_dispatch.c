/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels vendor's dispatch stubs of GLX extension functions. libGLX asks every
 * vendor for a stub of each GLX extension function it names (the vendor ABI's
 * getDispatchAddress) and gives it a dispatch index (setDispatchIndex); the stub finds the
 * vendor of its drawable, or of the current context, through the exports __glx_Main was given,
 * and calls that vendor's function at the index, as for any vendor's extension. Here are the
 * exports and that lookup, shared by the stubs of the swap-control functions (pixels_swap.c)
 * and of GLX_EXT_texture_from_pixmap (pixels_texture.c), so that neither calls the other nor
 * back into pixels_vendor.c for them.
 */
#include "pixels/pixels_dispatch.h"

static const __GLXapiExports *exports;

void glmux_pixels_dispatch_init(const __GLXapiExports *api)
{
    __atomic_store_n(&exports, api, __ATOMIC_RELEASE);
}

void *glmux_pixels_dispatch_fetch(Display *dpy, GLXDrawable drawable, const int *index)
{
    const __GLXapiExports *api = __atomic_load_n(&exports, __ATOMIC_ACQUIRE);
    int i = __atomic_load_n(index, __ATOMIC_ACQUIRE);
    __GLXvendorInfo *v;

    if (api == NULL || i < 0)
        return NULL;
    v = drawable != None ? api->vendorFromDrawable(dpy, drawable) : api->getCurrentDynDispatch();
    return v != NULL ? (void *)api->fetchDispatchEntry(v, i) : NULL;
}
