/* SPDX-License-Identifier: MIT */
/*
 * glmux unit test: a program with more lifecycle steps than glmux_lifecycle_run sorts on its
 * stack (70, declared here in the reverse of their order) still runs them in order, upwards
 * for init and downwards for teardown.
 */
#include "glmux_test.h"
#include "util/lifecycle.h"

#define STEPS 70

static int ran[STEPS], count;

#define STEP(n)                                                                                \
    static void init_##n(void) { ran[count++] = n; }                                           \
    GLMUX_LIFECYCLE_STEP(many_##n, n, .init = init_##n, .teardown = init_##n);
#define TEN(t) STEP(t##9) STEP(t##8) STEP(t##7) STEP(t##6) STEP(t##5) STEP(t##4) STEP(t##3) \
               STEP(t##2) STEP(t##1) STEP(t##0)
TEN(6) TEN(5) TEN(4) TEN(3) TEN(2) TEN(1)
STEP(9) STEP(8) STEP(7) STEP(6) STEP(5) STEP(4) STEP(3) STEP(2) STEP(1) STEP(0)

int main(void)
{
    CHECK(glmux_lifecycle_count() == STEPS);
    glmux_lifecycle_run(GLMUX_LIFECYCLE_INIT);
    CHECK(count == STEPS);
    for (int i = 0; i < STEPS; i++)
        CHECK_MSG(ran[i] == i, "init step %d ran %d-th", ran[i], i);
    count = 0;
    glmux_lifecycle_run(GLMUX_LIFECYCLE_TEARDOWN);
    CHECK(count == STEPS);
    for (int i = 0; i < STEPS; i++)
        CHECK_MSG(ran[i] == STEPS - 1 - i, "teardown step %d ran %d-th", ran[i], i);
    CHECK(glmux_lifecycle_at(0)->order == 0 && glmux_lifecycle_at(STEPS) == NULL);
    return 0;
}
