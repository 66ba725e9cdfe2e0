/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: our glvnd/libglxabi.h against libglvnd-dev's (Debian): the same version, entry
 * point name, structure sizes and member offsets, member by member.
 */
#include <string.h>

#include "glmux_test.h"
#include "glx_abi_layout.h"

int main(void)
{
    struct glx_abi_layout ours, glvnd;

    memset(&ours, 0, sizeof(ours));
    memset(&glvnd, 0, sizeof(glvnd));
    glx_abi_layout_ours(&ours);
    glx_abi_layout_glvnd(&glvnd);
    CHECK(ours.version == 0x00010000ul && ours.version == glvnd.version);
    CHECK(strcmp(ours.main_name, glvnd.main_name) == 0);
    /* 13 and 9 pointers: 104 and 72 bytes on LP64, 52 and 36 on 32-bit targets. */
    CHECK_MSG(ours.exports_size == 13 * sizeof(void *) && ours.exports_size == glvnd.exports_size,
              "exports %zu vs %zu", ours.exports_size, glvnd.exports_size);
    CHECK_MSG(ours.imports_size == 9 * sizeof(void *) && ours.imports_size == glvnd.imports_size,
              "imports %zu vs %zu", ours.imports_size, glvnd.imports_size);
    for (int i = 0; i < 13; i++)
        CHECK_MSG(ours.exports[i] == glvnd.exports[i] && ours.exports[i] == (size_t)i * sizeof(void *),
                  "exports member %d", i);
    for (int i = 0; i < 9; i++)
        CHECK_MSG(ours.imports[i] == glvnd.imports[i] && ours.imports[i] == (size_t)i * sizeof(void *),
                  "imports member %d", i);
    return 0;
}
