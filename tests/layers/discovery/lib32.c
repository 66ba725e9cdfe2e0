/* SPDX-License-Identifier: MIT */
/*
 * glmux layer tests: a library of the other word size (built with -m32 -nostdlib when the
 * compiler can), for the wrong-architecture check on a real file as the linker writes it.
 */
int glmux_test_lib32(void)
{
    return 32;
}
