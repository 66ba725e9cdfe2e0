/* SPDX-License-Identifier: MIT */
/*
 * glmux unit test helper: lifecycle steps declared in a second file of the test program (and,
 * built as two shared libraries with LIFECYCLE_LIB=a and =b, in each library), so that the
 * registry is seen gathering steps across files and keeping each shared object's apart.
 * Every step appends "<phase letter><name>" to the caller's trace.
 */
#include <string.h>

#include "util/lifecycle.h"

#ifdef LIFECYCLE_LIB
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define NAME(x) CAT(CAT(lib, LIFECYCLE_LIB), _##x)
#define EXPORT __attribute__((visibility("default")))
#else
#define NAME(x) x
#define EXPORT
#endif

static char trace_buf[256];
#ifndef LIFECYCLE_LIB
char *trace = trace_buf;
#endif

static void note(char phase, const char *name)
{
    size_t n = strlen(trace_buf);

    if (n + strlen(name) + 3 < sizeof(trace_buf)) {
        trace_buf[n] = phase;
        strcpy(trace_buf + n + 1, name);
        strcat(trace_buf, " ");
    }
}

static void fork_letter(const char *name, enum glmux_fork_step step)
{
    note(step == GLMUX_FORK_PREPARE ? 'p' : step == GLMUX_FORK_PARENT ? 'P'
         : step == GLMUX_FORK_CHILD ? 'c' : 'a', name);
}

static void second_init(void) { note('i', "second"); }
static void second_fork(enum glmux_fork_step step) { fork_letter("second", step); }
static void second_child(void) { note('C', "second"); }
static void second_teardown(void) { note('t', "second"); }
GLMUX_LIFECYCLE_STEP(second, 20, .init = second_init, .fork = second_fork,
                     .child = second_child, .teardown = second_teardown);

/* Only init and teardown: the other phases pass it by. */
static void fourth_init(void) { note('i', "fourth"); }
static void fourth_teardown(void) { note('t', "fourth"); }
GLMUX_LIFECYCLE_STEP(fourth, 40, .init = fourth_init, .teardown = fourth_teardown);

#ifdef LIFECYCLE_LIB
EXPORT void NAME(run)(enum glmux_lifecycle_phase phase)
{
    glmux_lifecycle_run(phase);
}

EXPORT size_t NAME(count)(void)
{
    return glmux_lifecycle_count();
}

/* A function, not the array: the library is linked -Bsymbolic, the program would read a copy. */
EXPORT char *NAME(trace)(void)
{
    return trace_buf;
}
#else
/* The first file's steps call this to write into the same trace. */
void lifecycle_note(char phase, const char *name)
{
    note(phase, name);
}
#endif
