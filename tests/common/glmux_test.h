/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the assertion macros and helpers every test program uses. A test exits 0 on
 * success, 77 when skipped, anything else on failure.
 */
#ifndef GLMUX_TEST_H
#define GLMUX_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define GLMUX_TEST_SKIP 77

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

#define CHECK_MSG(cond, ...)                                                           \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                              \
            fputc('\n', stderr);                                                       \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

#define SKIP(...)                                                                      \
    do {                                                                               \
        fprintf(stderr, "skipped: ");                                                  \
        fprintf(stderr, __VA_ARGS__);                                                  \
        fputc('\n', stderr);                                                           \
        exit(GLMUX_TEST_SKIP);                                                         \
    } while (0)

/*
 * Fails the test unless the loaded object whose file name starts with soname (e.g.
 * "libEGL.so.1") comes from glmux's build tree (GLMUX_TEST_BUILD_DIR), or from the directory in
 * GLMUX_TEST_LIB_DIR when that is set (install tests). Prints the path it found.
 */
void glmux_test_require_ours(const char *soname);

/* The path of the loaded object whose file name starts with soname, or NULL. */
const char *glmux_test_loaded_path(const char *soname);

/*
 * Keeps Mesa's DRI drivers loaded now (every "*_dri.so", and newer Mesa's "libgallium*.so")
 * mapped until exit; returns how many. Mesa unloads its driver at eglTerminate and at a
 * display's close, and what the driver allocated once (under pthread_once) and points at only
 * from its own globals then looks leaked to LeakSanitizer, with frames of an unmapped module
 * that no suppression can name. A Mesa test calls it once the driver is loaded (after its
 * first make-current), and keeps LeakSanitizer on for everything else.
 */
int glmux_test_keep_drivers(void);

/* The number of file descriptors open in this process (from /proc/self/fd). */
int glmux_test_open_fds(void);

/*
 * stderr captured: glmux_test_capture_begin sends what the process writes to stderr into a
 * temporary file, glmux_test_capture_end gives stderr back and returns what was written since
 * (the caller frees it). One capture at a time; a failure fails the test.
 */
void glmux_test_capture_begin(void);
char *glmux_test_capture_end(void);

/* How many times what occurs in text, not overlapping. */
int glmux_test_count(const char *text, const char *what);

/*
 * Forks n children, one every 100 ms, each running child(err) (which must end with exit), err
 * a fresh temporary file its standard error goes to; then waits for each: it must exit with 0
 * and write nothing, LeakSanitizer's notice of a thread it could not suspend aside (the
 * parent's other threads are not in a child). At most 16 children.
 */
void glmux_test_fork_children(int n, void (*child)(FILE *err));

/*
 * Called on a thread of the parent that is still inside a call when the parent forks: its
 * stack (and the static TLS at its top), which fork() copies but no thread of a child runs on,
 * is scanned as a root region by LeakSanitizer in every child glmux_test_fork_children makes
 * (what that thread held is the thread's, not a leak of the child). Nothing without LSan.
 */
void glmux_test_fork_keeps_thread_stack(void);

/*
 * The name of the glx_xvfb fixture's display which ("one", ...), read from
 * $GLMUX_TEST_XVFB_DIR/<which>.display into name: the test is skipped when that server is
 * "none" (Xvfb not installed) and fails when the file cannot be read. False, name untouched,
 * when GLMUX_TEST_XVFB_DIR is unset (the program was not started by ctest).
 */
bool glmux_test_xvfb_display(const char *which, char *name, size_t size);

/*
 * The directory a test makes its temporary files in: $TMPDIR when it is an absolute path, else
 * /tmp. scripts/test.sh gives the suite a TMPDIR of its own and fails when anything is left in it.
 */
static inline const char *glmux_test_tmpdir(void)
{
    const char *dir = getenv("TMPDIR");

    return dir && dir[0] == '/' ? dir : "/tmp";
}

#endif
