/* SPDX-License-Identifier: MIT */
/*
 * glmux: helpers shared by the fuzz targets (see fuzz.h).
 */
#define _GNU_SOURCE
#include "fuzz.h"

#include <stdlib.h>

void glmux_fuzz_quiet_log(void)
{
    /* Every message is still formatted (GLMUX_DEBUG=all), so the formatting runs on fuzzed
     * text too; it just goes nowhere. The log reads these once, on its first message. */
    setenv("GLMUX_DEBUG", "all", 1);
    setenv("GLMUX_DEBUG_FILE", "/dev/null", 1);
}
