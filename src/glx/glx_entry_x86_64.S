/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's 4096 generated GLX entry stubs for x86-64. Stub i is a 16-byte cell at
 * glmux_glx_entry_start + 16 * i that jumps through glmux_glx_entry_targets[i]; glx_entry.c
 * hands the cells out to unknown glX names and fills the targets. The cells are made here
 * by the assembler's .rept, so no generated file is needed.
 */
#ifdef __CET__
#define GLMUX_ENDBR endbr64
#else
#define GLMUX_ENDBR
#endif

    .section .note.GNU-stack,"",@progbits
    .text
    .balign 4096
    .globl glmux_glx_entry_start
    .hidden glmux_glx_entry_start
    .type glmux_glx_entry_start, @function
glmux_glx_entry_start:
    .set glmux_glx_i, 0
    .rept 4096
    .balign 16
    GLMUX_ENDBR
    jmp *(glmux_glx_entry_targets + 8 * glmux_glx_i)(%rip)
    .set glmux_glx_i, glmux_glx_i + 1
    .endr
    .size glmux_glx_entry_start, .-glmux_glx_entry_start
