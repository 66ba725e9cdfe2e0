/* SPDX-License-Identifier: MIT */
/*
 * glmux: the lifecycle registry, the ground floor of each library. A module declares its own
 * steps (init, fork, after-fork child, teardown) in its own file, with the order it runs in,
 *     GLMUX_LIFECYCLE_STEP(maps, GLMUX_ORDER_EGL_MAPS, .fork = maps_fork, .teardown = maps_free);
 * and the library's entry points run every step of the library through glmux_lifecycle_run():
 * no central file calls each module's hooks. A step is a const record placed in the ELF section
 * "glmux_lifecycle"; the linker's __start_/__stop_ symbols of that section are defined per
 * shared object (hidden here), so each library (and each program) walks only the steps linked
 * into it, those of the static libraries it links included (a static library's step joins
 * only where its object file is pulled in, and then with that library's own copy of the
 * module's state). Nothing runs at load and nothing is allocated: fork handlers may run them.
 *
 * Order: smaller runs first for INIT, FORK PREPARE and CHILD; FORK PARENT, FORK CHILD,
 * FORK CHILD_ANEW and TEARDOWN run in reverse (larger first), so a module's locks are
 * released in the reverse of the order they were taken, and a module is torn down before the
 * modules it uses. Equal orders run by name, then by address (deterministic, but declare
 * distinct orders: the order is the lock order). AddressSanitizer adds no redzone to globals
 * in a section whose name is a C identifier (clang: they are for __start_/__stop_; gcc: no
 * global in a named section), so the records stay one array (tests/util/test_lifecycle.c).
 */
#ifndef GLMUX_UTIL_LIFECYCLE_H
#define GLMUX_UTIL_LIFECYCLE_H

#include <stddef.h>

#include "util/lock.h"

struct glmux_lifecycle_step {
    const char *name;
    int order;
    /* Once, when the library starts (the library decides when: constructor or first use). */
    void (*init)(void);
    /* Around fork(): PREPARE takes the module's locks; PARENT releases them; CHILD releases
     * them on the only thread left; CHILD_ANEW makes them anew (PREPARE did not run). */
    void (*fork)(enum glmux_fork_step step);
    /* In the child, after every step's fork(CHILD or CHILD_ANEW): drops what belonged to the
     * parent's other threads (no lock is held by anyone). */
    void (*child)(void);
    /* At unload, or when the library is finished: frees what the module holds. */
    void (*teardown)(void);
};

enum glmux_lifecycle_phase {
    GLMUX_LIFECYCLE_INIT,
    GLMUX_LIFECYCLE_FORK_PREPARE,
    GLMUX_LIFECYCLE_FORK_PARENT,
    GLMUX_LIFECYCLE_FORK_CHILD,
    GLMUX_LIFECYCLE_FORK_CHILD_ANEW,
    GLMUX_LIFECYCLE_CHILD,
    GLMUX_LIFECYCLE_TEARDOWN,
};

#if defined(__has_attribute)
#if __has_attribute(retain)
#define GLMUX_LIFECYCLE_RETAIN_ retain,
#endif
#endif
#ifndef GLMUX_LIFECYCLE_RETAIN_
#define GLMUX_LIFECYCLE_RETAIN_
#endif

/* GLMUX_LIFECYCLE_STEP(id, order, .init = f, .fork = g, .child = h, .teardown = t): at file
 * scope, once per module (id: a C identifier unique in the library). */
#define GLMUX_LIFECYCLE_STEP(id, step_order, ...)                                              \
    __attribute__((used, GLMUX_LIFECYCLE_RETAIN_ section("glmux_lifecycle"), aligned(8)))      \
    const struct glmux_lifecycle_step glmux_lifecycle_step_##id = {                            \
        .name = #id, .order = (step_order), __VA_ARGS__ }

/* Runs the phase of every step linked into the calling library (or program), in order. */
void glmux_lifecycle_run(enum glmux_lifecycle_phase phase);

/* The fork phase of a glmux_fork_step. */
static inline enum glmux_lifecycle_phase glmux_lifecycle_fork_phase(enum glmux_fork_step step)
{
    return step == GLMUX_FORK_PREPARE ? GLMUX_LIFECYCLE_FORK_PREPARE
         : step == GLMUX_FORK_PARENT  ? GLMUX_LIFECYCLE_FORK_PARENT
         : step == GLMUX_FORK_CHILD   ? GLMUX_LIFECYCLE_FORK_CHILD
                                      : GLMUX_LIFECYCLE_FORK_CHILD_ANEW;
}

/*
 * A library's fork handlers (pthread_atfork's, or the ones libGLdispatch calls for a client):
 * prepare runs every FORK PREPARE step; parent runs FORK PARENT, and child FORK CHILD then
 * CHILD, if prepare ran for this fork in this library, else parent does nothing and child
 * runs FORK CHILD_ANEW then CHILD (a library loaded while another thread forked). A library
 * with conditions of its own (libEGL's glmux_winsys_usable) wraps them. The "prepare ran" mark
 * is the calling library's own, as its steps are.
 */
void glmux_lifecycle_fork_prepare(void);
void glmux_lifecycle_fork_parent(void);
void glmux_lifecycle_fork_child(void);

/* How many steps the calling library holds, and the i-th in running order (NULL past the
 * end). Only the tests use them (tests/util: test_lifecycle*, lifecycle_steps.c); no library
 * and no GLMUX_DEBUG output calls them. */
size_t glmux_lifecycle_count(void);
const struct glmux_lifecycle_step *glmux_lifecycle_at(size_t i);

#endif /* GLMUX_UTIL_LIFECYCLE_H */
