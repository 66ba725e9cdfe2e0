/* SPDX-License-Identifier: MIT */
/*
 * glmux: what every fuzz target of tests/fuzz shares. A target defines LLVMFuzzerTestOneInput
 * (and may define LLVMFuzzerInitialize); it is linked either with libFuzzer (clang,
 * GLMUX_FUZZ=ON) or with driver.c, which runs it once on each file named on its command line.
 * GLMUX_FUZZ_CHECK states an invariant: a failure aborts, which libFuzzer reports as a crash.
 * A target's LLVMFuzzerTestOneInput is renamed glmux_fuzz_one_input by the macro below;
 * fuzz_common.c defines the real entry point, which runs it and counts the process's open
 * descriptors after the first GLMUX_FUZZ_FD_BASELINE inputs and again at exit, and prints both
 * (run_fuzz.py fails a target whose count grows: a descriptor leaked per input ends a long run
 * with "Too many open files").
 */
#ifndef GLMUX_FUZZ_H
#define GLMUX_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The inputs after which the first count is taken (and the lines printed, on stderr):
 *   glmux-fuzz: N open descriptors after the first 100 inputs
 *   glmux-fuzz: N open descriptors at the end, after K inputs */
#define GLMUX_FUZZ_FD_BASELINE 100

int LLVMFuzzerInitialize(int *argc, char ***argv);
int glmux_fuzz_one_input(const uint8_t *data, size_t size);
#ifdef GLMUX_FUZZ_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#else
#define LLVMFuzzerTestOneInput glmux_fuzz_one_input
#endif

#define GLMUX_FUZZ_CHECK(cond)                                                                 \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, #cond);  \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

/* Sends glmux's log (warnings about the bad input) to /dev/null; call from the initializer. */
void glmux_fuzz_quiet_log(void);

/* Defines LLVMFuzzerInitialize for a target that needs nothing but glmux_fuzz_quiet_log. */
#define GLMUX_FUZZ_QUIET_INITIALIZE()                                                          \
    int LLVMFuzzerInitialize(int *argc, char ***argv)                                          \
    {                                                                                          \
        (void)argc;                                                                            \
        (void)argv;                                                                            \
        glmux_fuzz_quiet_log();                                                                \
        return 0;                                                                              \
    }

/*
 * The driver of a target over a file's text whose rules depend on where the file is (a
 * manifest reader): it defines LLVMFuzzerInitialize (GLMUX_FUZZ_QUIET_INITIALIZE) and
 * LLVMFuzzerTestOneInput, which takes the file's path from the array paths by the input's
 * length, so that every kind of path runs, and calls check(path, text, size), the target's
 * parse and its invariants. The target keeps only those two. No ';' after it.
 */
#define GLMUX_FUZZ_FILE_TARGET(paths, check)                                                   \
    GLMUX_FUZZ_QUIET_INITIALIZE()                                                              \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                               \
    {                                                                                          \
        check(paths[size % (sizeof(paths) / sizeof(paths[0]))], (const char *)data, size);    \
        return 0;                                                                              \
    }

/* The descriptors the process has open (/proc/self/fd), or -1 when that cannot be read. */
int glmux_fuzz_open_fds(void);

#endif /* GLMUX_FUZZ_H */
