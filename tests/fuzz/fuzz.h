/* SPDX-License-Identifier: MIT */
/*
 * glmux: what every fuzz target of tests/fuzz shares. A target defines LLVMFuzzerTestOneInput
 * (and may define LLVMFuzzerInitialize); it is linked either with libFuzzer (clang,
 * GLMUX_FUZZ=ON) or with driver.c, which runs it once on each file named on its command line.
 * GLMUX_FUZZ_CHECK states an invariant: a failure aborts, which libFuzzer reports as a crash.
 */
#ifndef GLMUX_FUZZ_H
#define GLMUX_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define GLMUX_FUZZ_CHECK(cond)                                                                 \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, #cond);  \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

/* Sends glmux's log (warnings about the bad input) to /dev/null; call from the initializer. */
void glmux_fuzz_quiet_log(void);

#endif /* GLMUX_FUZZ_H */
