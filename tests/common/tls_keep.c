/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: a library with __thread data, as a vendor or a layer has, for
 * test_sanitizer_leaks.c: keep() allocates a block that only its dynamic TLS points at.
 */
#include <stdlib.h>

static __thread void *kept;

__attribute__((visibility("default"))) void glmux_test_tls_keep(size_t size)
{
    kept = malloc(size);
}
