/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: what GLMUX_DRIVER_VENDORS says about the entries it skips. ctest
 * sets the variable (the "long" case sets its 10 kB value here, before the first read); the
 * driver table is read twice and its message checked word for word and counted: once, when
 * the variable is first read, the value and each bad entry cut, the good entries kept.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"
#include "select/select.h"

#define FORM "; the form is driver=vendor[,driver=vendor...] (driver= drops a built-in entry), " \
             "vendor names of at most 64 bytes\n"

static const char *i915, *amdgpu;

static void lookups(void)
{
    static char a[GLMUX_DRIVER_VENDOR_MAX], b[GLMUX_DRIVER_VENDOR_MAX];

    for (int i = 0; i < 2; i++) {
        i915 = glmux_driver_default_vendor("i915", a);
        amdgpu = glmux_driver_default_vendor("amdgpu", b);
    }
}

int main(int argc, char **argv)
{
    char expect[1024];
    char *text;

    CHECK_MSG(argc == 2, "usage: select_driver_vendors_env garbage|empty|long|good");
    if (strcmp(argv[1], "long") == 0) {
        char *value = malloc(5 + 10000 + 1);

        CHECK(value != NULL);
        memcpy(value, "i915=", 5);
        memset(value + 5, 'x', 10000);
        value[10005] = '\0';
        CHECK(setenv("GLMUX_DRIVER_VENDORS", value, 1) == 0);
        free(value);
    }
    glmux_test_capture_begin();
    lookups();
    text = glmux_test_capture_end();
    if (strcmp(argv[1], "garbage") == 0) {
        snprintf(expect, sizeof(expect), "glmux: GLMUX_DRIVER_VENDORS=\"garbage\": 1 entry "
                 "ignored: \"garbage\" (no '=')" FORM);
    } else if (strcmp(argv[1], "empty") == 0) {
        /* a=b,,=,c=: "=" is the bad entry; ",," separates nothing; "c=" drops c's entry. */
        snprintf(expect, sizeof(expect), "glmux: GLMUX_DRIVER_VENDORS=\"a=b,,=,c=\": 1 entry "
                 "ignored: \"=\" (no driver name before '=')" FORM);
    } else if (strcmp(argv[1], "long") == 0) {
        /* The value cut to 508 bytes and "...", the entry to 40 and "...". */
        snprintf(expect, sizeof(expect), "glmux: GLMUX_DRIVER_VENDORS=\"i915=%.503s...\": "
                 "1 entry ignored: \"i915=%.35s...\" (a vendor name longer than 64 bytes)" FORM,
                 getenv("GLMUX_DRIVER_VENDORS") + 5, getenv("GLMUX_DRIVER_VENDORS") + 5);
    } else {
        CHECK(strcmp(argv[1], "good") == 0);
        expect[0] = '\0';
    }
    CHECK_MSG(strcmp(text, expect) == 0, "\nexpected: %s\ngot:      %s", expect, text);
    /* Bad entries change nothing: the built-in table answers. */
    if (strcmp(argv[1], "good") == 0)
        CHECK(i915 != NULL && strcmp(i915, "nvidia") == 0 && amdgpu == NULL);
    else
        CHECK(i915 != NULL && strcmp(i915, "mesa") == 0 && amdgpu != NULL &&
              strcmp(amdgpu, "mesa") == 0);
    free(text);
    return 0;
}
