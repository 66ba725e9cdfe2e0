/* SPDX-License-Identifier: MIT */
/*
 * glmux unit tests: GLMUX_DEBUG parsing and integer environment reads (src/util): a malformed
 * number warns once per variable (env.h), flags follow libglvnd's atoi() rule.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glmux_test.h"
#include "util/env.h"
#include "util/log.h"

/* How many lines of what fd 2 received while fn ran hold needle. */
static int warnings_during(void (*fn)(void), const char *needle)
{
    FILE *f = tmpfile();
    int saved = dup(2), count = 0;
    char line[512];

    CHECK(f != NULL && saved >= 0);
    CHECK(dup2(fileno(f), 2) == 2);
    fn();
    CHECK(dup2(saved, 2) == 2);
    close(saved);
    rewind(f);
    while (fgets(line, sizeof(line), f) != NULL)
        count += strstr(line, needle) != NULL;
    fclose(f);
    return count;
}

static void read_bad_int_twice(void)
{
    setenv("GLMUX_TEST_BAD", "12x", 1);
    CHECK(glmux_env_get_int("GLMUX_TEST_BAD", 3) == 3);
    CHECK(glmux_env_get_int("GLMUX_TEST_BAD", 3) == 3);
    CHECK(glmux_env_get_flag("GLMUX_TEST_BAD"));   /* atoi("12x") is 12 */
}

static void read_flags(void)
{
    static const struct {
        const char *value;
        bool on;
    } cases[] = {
        { "1", true }, { "0", false }, { "1abc", true }, { "yes", false }, { " 2", true },
        { "-1", true }, { "0x10", false }, { "", false }, { "+0", false },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        setenv("GLMUX_TEST_FLAG", cases[i].value, 1);
        CHECK_MSG(glmux_env_get_flag("GLMUX_TEST_FLAG") == cases[i].on, "\"%s\"",
                  cases[i].value);
    }
    unsetenv("GLMUX_TEST_FLAG");
    CHECK(!glmux_env_get_flag("GLMUX_TEST_FLAG"));
}

int main(void)
{
    char bad[32];

    CHECK(glmux_log_parse(NULL, bad, sizeof(bad)) == GLMUX_LOG_DEFAULT);
    CHECK(glmux_log_parse("vendor", bad, sizeof(bad)) == (GLMUX_LOG_VENDOR | GLMUX_LOG_ERROR));
    CHECK(bad[0] == '\0');
    CHECK(glmux_log_parse("warn,select", bad, sizeof(bad)) ==
          (GLMUX_LOG_WARN | GLMUX_LOG_SELECT | GLMUX_LOG_ERROR));
    CHECK(glmux_log_parse("all", bad, sizeof(bad)) == GLMUX_LOG_ALL);
    /* Whole tokens only: "vend" is not "vendor"; the first unknown token is reported. */
    CHECK(glmux_log_parse("vend,info,bogus", bad, sizeof(bad)) ==
          (GLMUX_LOG_INFO | GLMUX_LOG_ERROR));
    CHECK(strcmp(bad, "vend") == 0);
    CHECK(glmux_log_parse("", bad, sizeof(bad)) == GLMUX_LOG_ERROR);

    setenv("GLMUX_TEST_INT", "42", 1);
    CHECK(glmux_env_get_int("GLMUX_TEST_INT", 7) == 42);
    setenv("GLMUX_TEST_INT", "yes", 1);
    CHECK(glmux_env_get_int("GLMUX_TEST_INT", 7) == 7);
    CHECK(!glmux_env_get_flag("GLMUX_TEST_INT"));
    setenv("GLMUX_TEST_INT", "", 1);
    CHECK(glmux_env_get_int("GLMUX_TEST_INT", 7) == 7);
    unsetenv("GLMUX_TEST_INT");
    CHECK(glmux_env_get("GLMUX_TEST_INT") == NULL);
    CHECK(!glmux_env_is_secure()); /* the test runs without AT_SECURE */

    /* Three reads of one malformed variable, one warning; flags as libglvnd's atoi() reads
     * them, the first malformed value warned about once. */
    CHECK(warnings_during(read_bad_int_twice, "GLMUX_TEST_BAD") == 1);
    CHECK(warnings_during(read_flags, "GLMUX_TEST_FLAG") == 1);
    return 0;
}
