/* SPDX-License-Identifier: MIT */
/*
 * glmux: runs the lifecycle steps of the library it is linked into (lifecycle.h). The steps
 * are the records between the linker's __start_glmux_lifecycle and __stop_glmux_lifecycle of
 * this shared object (hidden, weak: a library without steps has none); they lie in link order,
 * so each run sorts pointers to the ones with something to run in its phase on its stack (a
 * library has a dozen steps, and fork handlers may not allocate); past 64 steps it walks them
 * in order by selection instead.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "util/lifecycle.h"

extern const struct glmux_lifecycle_step __start_glmux_lifecycle[]
    __attribute__((weak, visibility("hidden")));
extern const struct glmux_lifecycle_step __stop_glmux_lifecycle[]
    __attribute__((weak, visibility("hidden")));

/* Running order: order, then name, then address. */
static int step_cmp(const struct glmux_lifecycle_step *a, const struct glmux_lifecycle_step *b)
{
    int c;

    if (a == b)
        return 0;
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    c = strcmp(a->name, b->name);
    if (c != 0)
        return c;
    return a < b ? -1 : 1;
}

static size_t step_count(void)
{
    if (__start_glmux_lifecycle == NULL || __stop_glmux_lifecycle == NULL)
        return 0;
    return (size_t)(__stop_glmux_lifecycle - __start_glmux_lifecycle);
}

/* The first step after prev (NULL: the first of all) in running order, or NULL. */
static const struct glmux_lifecycle_step *step_next(const struct glmux_lifecycle_step *prev)
{
    const struct glmux_lifecycle_step *best = NULL;

    for (size_t i = 0, n = step_count(); i < n; i++) {
        const struct glmux_lifecycle_step *s = &__start_glmux_lifecycle[i];

        if (prev != NULL && step_cmp(s, prev) <= 0)
            continue;
        if (best == NULL || step_cmp(s, best) < 0)
            best = s;
    }
    return best;
}

/* The last step before next (NULL: the last of all) in running order, or NULL. */
static const struct glmux_lifecycle_step *step_prev(const struct glmux_lifecycle_step *next)
{
    const struct glmux_lifecycle_step *best = NULL;

    for (size_t i = 0, n = step_count(); i < n; i++) {
        const struct glmux_lifecycle_step *s = &__start_glmux_lifecycle[i];

        if (next != NULL && step_cmp(s, next) >= 0)
            continue;
        if (best == NULL || step_cmp(s, best) > 0)
            best = s;
    }
    return best;
}

/* Whether s has something to run in phase. */
static bool step_has(const struct glmux_lifecycle_step *s, enum glmux_lifecycle_phase phase)
{
    switch (phase) {
    case GLMUX_LIFECYCLE_INIT:
        return s->init != NULL;
    case GLMUX_LIFECYCLE_CHILD:
        return s->child != NULL;
    case GLMUX_LIFECYCLE_TEARDOWN:
        return s->teardown != NULL;
    default:
        return s->fork != NULL;
    }
}

/*
 * The steps with something to run in phase, in running order, into out (on the caller's
 * stack: no memory is allocated, fork handlers run this): an insertion sort, cheap for the
 * few, nearly sorted steps of a library. Returns the count, or SIZE_MAX when there are more
 * than max (then step_next walks them all).
 */
static size_t steps_sorted(const struct glmux_lifecycle_step **out, size_t max,
                           enum glmux_lifecycle_phase phase)
{
    size_t n = step_count(), k = 0;

    if (n > max)
        return SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const struct glmux_lifecycle_step *s = &__start_glmux_lifecycle[i];
        size_t j;

        if (!step_has(s, phase))
            continue;
        for (j = k++; j > 0 && step_cmp(out[j - 1], s) > 0; j--)
            out[j] = out[j - 1];
        out[j] = s;
    }
    return k;
}

static void step_run(const struct glmux_lifecycle_step *s, enum glmux_lifecycle_phase phase)
{
    switch (phase) {
    case GLMUX_LIFECYCLE_INIT:
        if (s->init != NULL)
            s->init();
        break;
    case GLMUX_LIFECYCLE_FORK_PREPARE:
        if (s->fork != NULL)
            s->fork(GLMUX_FORK_PREPARE);
        break;
    case GLMUX_LIFECYCLE_FORK_PARENT:
        if (s->fork != NULL)
            s->fork(GLMUX_FORK_PARENT);
        break;
    case GLMUX_LIFECYCLE_FORK_CHILD:
        if (s->fork != NULL)
            s->fork(GLMUX_FORK_CHILD);
        break;
    case GLMUX_LIFECYCLE_FORK_CHILD_ANEW:
        if (s->fork != NULL)
            s->fork(GLMUX_FORK_CHILD_ANEW);
        break;
    case GLMUX_LIFECYCLE_CHILD:
        if (s->child != NULL)
            s->child();
        break;
    case GLMUX_LIFECYCLE_TEARDOWN:
        if (s->teardown != NULL)
            s->teardown();
        break;
    }
}

void glmux_lifecycle_run(enum glmux_lifecycle_phase phase)
{
    bool reverse = phase == GLMUX_LIFECYCLE_FORK_PARENT || phase == GLMUX_LIFECYCLE_FORK_CHILD ||
                   phase == GLMUX_LIFECYCLE_FORK_CHILD_ANEW || phase == GLMUX_LIFECYCLE_TEARDOWN;
    const struct glmux_lifecycle_step *sorted[64];
    size_t n = steps_sorted(sorted, sizeof(sorted) / sizeof(sorted[0]), phase);

    if (n != SIZE_MAX) {
        for (size_t i = 0; i < n; i++)
            step_run(sorted[reverse ? n - 1 - i : i], phase);
    } else if (reverse) {
        for (const struct glmux_lifecycle_step *s = step_prev(NULL); s != NULL; s = step_prev(s))
            step_run(s, phase);
    } else {
        for (const struct glmux_lifecycle_step *s = step_next(NULL); s != NULL; s = step_next(s))
            step_run(s, phase);
    }
}

/* Set by glmux_lifecycle_fork_prepare, cleared by the parent or child handler: only the forking
 * thread touches it, between prepare and parent or child (every lock of the library held). */
static bool fork_prepared;

void glmux_lifecycle_fork_prepare(void)
{
    glmux_lifecycle_run(GLMUX_LIFECYCLE_FORK_PREPARE);
    fork_prepared = true;
}

void glmux_lifecycle_fork_parent(void)
{
    if (!fork_prepared)
        return;
    fork_prepared = false;
    glmux_lifecycle_run(GLMUX_LIFECYCLE_FORK_PARENT);
}

void glmux_lifecycle_fork_child(void)
{
    glmux_lifecycle_run(fork_prepared ? GLMUX_LIFECYCLE_FORK_CHILD
                                      : GLMUX_LIFECYCLE_FORK_CHILD_ANEW);
    fork_prepared = false;
    glmux_lifecycle_run(GLMUX_LIFECYCLE_CHILD);
}

size_t glmux_lifecycle_count(void)
{
    return step_count();
}

const struct glmux_lifecycle_step *glmux_lifecycle_at(size_t i)
{
    const struct glmux_lifecycle_step *s = step_next(NULL);

    while (s != NULL && i-- > 0)
        s = step_next(s);
    return s;
}
