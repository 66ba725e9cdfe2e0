/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGL.so.1's 39 GLX 1.4 functions. Each one forwards through libGLX's exported
 * table __GLXGL_CORE_FUNCTIONS (glx/glx_core_table.h), exactly as libglvnd's libGL does, so
 * the legacy library carries no GLX logic of its own.
 */
#include "glx/glx_core_table.h"

#define GLMUX_GL_FORWARD(ret, name, params, args)                                       \
    ret glX##name params                                                                \
    {                                                                                   \
        return __GLXGL_CORE_FUNCTIONS.name args;                                        \
    }
GLMUX_GLX_CORE_FUNCTIONS(GLMUX_GL_FORWARD)
#undef GLMUX_GL_FORWARD
