/* SPDX-License-Identifier: MIT */
/* glmux tests: the GLX vendor ABI layout as our glvnd/libglxabi.h declares it. */
#include "glvnd/libglxabi.h"
#include "glx_abi_layout.h"

void glx_abi_layout_ours(struct glx_abi_layout *layout)
{
    GLX_ABI_LAYOUT_FILL(layout);
}
