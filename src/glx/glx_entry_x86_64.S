/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's generated GLX entry stubs for x86-64. Stub i is a GLMUX_GLX_ENTRY_SIZE-byte
 * cell at glmux_glx_entry_start + GLMUX_GLX_ENTRY_SIZE * i that jumps through
 * glmux_glx_entry_targets[i]; glx_entry.c hands the GLMUX_GLX_ENTRY_COUNT cells out to unknown
 * glX names and fills the targets. The cells are made here by the assembler's .rept; the
 * numbers come from the generated glmux_constants.h, which the C side includes too
 * (8 bytes a stub, 16 with CET's endbr64).
 */
#include "glmux_constants.h"

#ifdef __CET__
#define GLMUX_ENDBR endbr64
#else
#define GLMUX_ENDBR
#endif

    .section .note.GNU-stack,"",@progbits
    .text
    .balign GLMUX_STUB_ALIGN
    .globl glmux_glx_entry_start
    .hidden glmux_glx_entry_start
    .type glmux_glx_entry_start, @function
glmux_glx_entry_start:
    .set glmux_glx_i, 0
    .rept GLMUX_GLX_ENTRY_COUNT
    .balign GLMUX_GLX_ENTRY_SIZE, 0xcc
    GLMUX_ENDBR
    jmp *(glmux_glx_entry_targets + 8 * glmux_glx_i)(%rip)
    .set glmux_glx_i, glmux_glx_i + 1
    .endr
    .size glmux_glx_entry_start, .-glmux_glx_entry_start
