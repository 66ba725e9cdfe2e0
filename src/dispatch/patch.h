/* SPDX-License-Identifier: MIT */
/*
 * glmux: entry-point patching in libGLdispatch (patch.c): which vendor owns the stubs of the
 * stub-owning libraries, and the switch at make-current. Uses the ground floor, the slots'
 * application-error setting and the stub callbacks of libGLdispatch's own region.
 */
#ifndef GLMUX_DISPATCH_PATCH_H
#define GLMUX_DISPATCH_PATCH_H

#include <stdbool.h>

#include "GLdispatch.h"

/* Makes the stubs right for a vendor about to become current. Lock held. */
bool glmux_patch_for_make_current(const __GLdispatchPatchCallbacks *cb, int vendor_id);
/* Registers libGLdispatch's own stubs (asm builds only); lock NOT held. */
void glmux_patch_register_own_stubs(void);
void glmux_patch_unregister_own_stubs(void);

#endif /* GLMUX_DISPATCH_PATCH_H */
