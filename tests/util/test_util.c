/* SPDX-License-Identifier: MIT */
/*
 * glmux unit tests: GLMUX_DEBUG parsing and integer environment reads (src/util).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"
#include "util/env.h"
#include "util/log.h"

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
    return 0;
}
