/* SPDX-License-Identifier: MIT */
/*
 * glmux unit test: the messages about environment values read as numbers (util/env.c) and the
 * cutting of long values in messages (util/log.h). Each message is checked word for
 * word and counted: GLMUX_GLX_REMOTE_SHM=99999999999999999999 is a decimal number out of
 * range (not "not a decimal number"), said once however often it is read; a 10 kB value is
 * quoted cut, with "..."; glmux_log_claim says yes once per key; a text that did not fit its
 * buffer ends in "...".
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"
#include "util/env.h"
#include "util/log.h"

int main(void)
{
    char range_line[160];
    static const char word_line[] =
        "glmux: ignoring GLMUX_TEST_WORD=\"twelve\": not a decimal number; using 7\n";
    const char *volatile utf8 = "abcdefghijk\xc3\xa9zzzz";
    char *big = malloc(10001), *text, buf[16];

    CHECK(big != NULL);
    /* The range is a long's: 32 or 64 bits, as the architecture has it. */
    snprintf(range_line, sizeof(range_line),
             "glmux: ignoring GLMUX_GLX_REMOTE_SHM=\"99999999999999999999\": out of range (from "
             "%ld to %ld); using 1\n", LONG_MIN, LONG_MAX);
    memset(big, 'v', 10000);
    big[10000] = '\0';

    /* Out of range, read three times: said once, in those words. */
    CHECK(setenv("GLMUX_GLX_REMOTE_SHM", "99999999999999999999", 1) == 0);
    CHECK(setenv("GLMUX_TEST_WORD", "twelve", 1) == 0);
    CHECK(setenv("GLMUX_TEST_BIG", big, 1) == 0);
    glmux_test_capture_begin();
    for (int i = 0; i < 3; i++) {
        CHECK(glmux_env_get_int("GLMUX_GLX_REMOTE_SHM", 1) == 1);
        CHECK(glmux_env_get_int("GLMUX_TEST_WORD", 7) == 7);
        CHECK(glmux_env_get_int("GLMUX_TEST_BIG", 3) == 3);
    }
    text = glmux_test_capture_end();
    CHECK_MSG(glmux_test_count(text, range_line) == 1, "got: %s", text);
    CHECK_MSG(glmux_test_count(text, word_line) == 1, "got: %s", text);
    CHECK_MSG(glmux_test_count(text, "glmux: ignoring GLMUX_TEST_BIG=\"vvvv") == 1, "got: %.300s",
              text);
    /* The 10 kB value is cut: 508 bytes of it, then "...". */
    CHECK_MSG(strstr(text, "vvv...\": not a decimal number; using 3\n") != NULL, "got: %.300s",
              text);
    CHECK_MSG(strlen(text) < sizeof(range_line) + sizeof(word_line) + 600, "%zu bytes",
              strlen(text));
    free(text);

    /* The helpers. */
    CHECK(glmux_log_claim("GLMUX_TEST_KEY") && !glmux_log_claim("GLMUX_TEST_KEY"));
    CHECK(strcmp(GLMUX_LOG_CUT("short"), "short") == 0);
    CHECK(strlen(GLMUX_LOG_CUT(big)) == GLMUX_LOG_CUT_SIZE - 1);
    /* "é" is two bytes: never cut in the middle. */
    glmux_log_mark_cut(buf, sizeof(buf), snprintf(buf, sizeof(buf), "%s", utf8));
    CHECK_MSG(strcmp(buf, "abcdefghijk...") == 0, "%s", buf);
    glmux_log_mark_cut(buf, sizeof(buf), snprintf(buf, sizeof(buf), "fits"));
    CHECK(strcmp(buf, "fits") == 0);
    free(big);
    return 0;
}
