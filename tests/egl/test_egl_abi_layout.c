/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: our glvnd/libeglabi.h against the one Debian's libglvnd-core-dev installs:
 * every struct size, member offset, version number and enum value must agree.
 */
#include <stdio.h>

#include "glmux_test.h"

unsigned ours_layout(unsigned long *out);
unsigned ref_layout(unsigned long *out);
extern const char *const ours_layout_names[];

int main(void)
{
    unsigned long ours[64], ref[64];
    unsigned n = ours_layout(ours);

    CHECK(n == ref_layout(ref) && n <= 64);
    for (unsigned i = 0; i < n; i++) {
        CHECK_MSG(ours[i] == ref[i], "%s: ours %lu, libglvnd %lu", ours_layout_names[i],
                  ours[i], ref[i]);
        printf("%-58s %lu\n", ours_layout_names[i], ours[i]);
    }
    return 0;
}
