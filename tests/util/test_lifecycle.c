/* SPDX-License-Identifier: MIT */
/*
 * glmux unit test: the lifecycle registry (src/util/lifecycle.h). Steps declared in two files
 * of this program run in declared order (init, fork prepare and the child's clean-up upwards;
 * fork parent, child and teardown downwards), whatever the link order; each shared object
 * sees only its own steps (two libraries built from one source with the same static
 * glmux_util); the fork handlers run the fork phases once each, and make the locks anew in a
 * child whose prepare did not run; and the records stay one array under AddressSanitizer (the
 * count is exact).
 */
#include <string.h>

#include "glmux_test.h"
#include "util/lifecycle.h"

extern char *trace;
void lifecycle_note(char phase, const char *name);

char *liba_trace(void);
char *libb_trace(void);
void liba_run(enum glmux_lifecycle_phase phase);
void libb_run(enum glmux_lifecycle_phase phase);
size_t liba_count(void);
size_t libb_count(void);

static void first_init(void) { lifecycle_note('i', "first"); }
static void first_fork(enum glmux_fork_step step)
{
    lifecycle_note(step == GLMUX_FORK_PREPARE ? 'p' : step == GLMUX_FORK_PARENT ? 'P'
                   : step == GLMUX_FORK_CHILD ? 'c' : 'a', "first");
}
static void first_teardown(void) { lifecycle_note('t', "first"); }
GLMUX_LIFECYCLE_STEP(first, 10, .init = first_init, .fork = first_fork,
                     .teardown = first_teardown);

static void third_fork(enum glmux_fork_step step)
{
    lifecycle_note(step == GLMUX_FORK_PREPARE ? 'p' : step == GLMUX_FORK_PARENT ? 'P'
                   : step == GLMUX_FORK_CHILD ? 'c' : 'a', "third");
}
static void third_child(void) { lifecycle_note('C', "third"); }
GLMUX_LIFECYCLE_STEP(third, 30, .fork = third_fork, .child = third_child);

static void expect(char *buf, void (*run)(enum glmux_lifecycle_phase),
                   enum glmux_lifecycle_phase phase, const char *want)
{
    buf[0] = '\0';
    run(phase);
    CHECK_MSG(strcmp(buf, want) == 0, "phase %d ran \"%s\", expected \"%s\"", (int)phase, buf,
              want);
}

int main(void)
{
    CHECK(glmux_lifecycle_count() == 4);
    CHECK(strcmp(glmux_lifecycle_at(0)->name, "first") == 0);
    CHECK(strcmp(glmux_lifecycle_at(1)->name, "second") == 0);
    CHECK(strcmp(glmux_lifecycle_at(2)->name, "third") == 0);
    CHECK(strcmp(glmux_lifecycle_at(3)->name, "fourth") == 0);
    CHECK(glmux_lifecycle_at(4) == NULL);

    expect(trace, glmux_lifecycle_run, GLMUX_LIFECYCLE_INIT, "ifirst isecond ifourth ");
    expect(trace, glmux_lifecycle_run, GLMUX_LIFECYCLE_FORK_PREPARE, "pfirst psecond pthird ");
    expect(trace, glmux_lifecycle_run, GLMUX_LIFECYCLE_FORK_PARENT, "Pthird Psecond Pfirst ");
    expect(trace, glmux_lifecycle_run, GLMUX_LIFECYCLE_FORK_CHILD, "cthird csecond cfirst ");
    expect(trace, glmux_lifecycle_run, GLMUX_LIFECYCLE_FORK_CHILD_ANEW, "athird asecond afirst ");
    expect(trace, glmux_lifecycle_run, GLMUX_LIFECYCLE_CHILD, "Csecond Cthird ");
    expect(trace, glmux_lifecycle_run, GLMUX_LIFECYCLE_TEARDOWN, "tfourth tsecond tfirst ");
    CHECK(glmux_lifecycle_fork_phase(GLMUX_FORK_CHILD_ANEW) == GLMUX_LIFECYCLE_FORK_CHILD_ANEW);

    /* Two shared objects, one static glmux_util: each runs its own two steps, not the
     * program's nor the other's. */
    CHECK(liba_count() == 2);
    CHECK(libb_count() == 2);
    expect(liba_trace(), liba_run, GLMUX_LIFECYCLE_INIT, "isecond ifourth ");
    CHECK(libb_trace()[0] == '\0');
    CHECK(strcmp(trace, "tfourth tsecond tfirst ") == 0);
    expect(libb_trace(), libb_run, GLMUX_LIFECYCLE_TEARDOWN, "tfourth tsecond ");
    CHECK(strcmp(liba_trace(), "isecond ifourth ") == 0);

    /* The fork handlers: after prepare, parent or child (then the child's clean-up) each run
     * once; without prepare (a library loaded while another thread forked), parent runs
     * nothing and child makes the locks anew. */
    trace[0] = '\0';
    glmux_lifecycle_fork_prepare();
    glmux_lifecycle_fork_parent();
    glmux_lifecycle_fork_parent();
    CHECK_MSG(strcmp(trace, "pfirst psecond pthird Pthird Psecond Pfirst ") == 0, "%s", trace);
    trace[0] = '\0';
    glmux_lifecycle_fork_prepare();
    glmux_lifecycle_fork_child();
    CHECK_MSG(strcmp(trace, "pfirst psecond pthird cthird csecond cfirst Csecond Cthird ") == 0,
              "%s", trace);
    trace[0] = '\0';
    glmux_lifecycle_fork_child();
    glmux_lifecycle_fork_parent();
    CHECK_MSG(strcmp(trace, "athird asecond afirst Csecond Cthird ") == 0, "%s", trace);
    return 0;
}
