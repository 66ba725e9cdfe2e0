/* SPDX-License-Identifier: MIT */
/* glmux tests: the GLX vendor ABI layout as libglvnd-dev's libglxabi.h declares it. */
#include GLMUX_SYSTEM_LIBGLXABI
#include "glx_abi_layout.h"

void glx_abi_layout_glvnd(struct glx_abi_layout *layout)
{
    GLX_ABI_LAYOUT_FILL(layout);
}
