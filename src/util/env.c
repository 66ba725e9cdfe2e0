/* SPDX-License-Identifier: MIT */
/*
 * glmux: environment reads that honour secure execution (see env.h).
 */
#define _GNU_SOURCE
#include "env.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/auxv.h>

#include "log.h"

bool glmux_env_is_secure(void)
{
    return getauxval(AT_SECURE) != 0;
}

const char *glmux_env_get(const char *name)
{
    return secure_getenv(name);
}

long glmux_env_get_int(const char *name, long def)
{
    const char *value = glmux_env_get(name);
    char *end;
    long result;

    if (value == NULL || *value == '\0')
        return def;
    errno = 0;
    result = strtol(value, &end, 10);
    if (errno != 0 || *end != '\0') {
        glmux_log(GLMUX_LOG_WARN, "ignoring %s=\"%s\": not a decimal number; using %ld",
                  name, value, def);
        return def;
    }
    return result;
}

bool glmux_env_get_flag(const char *name)
{
    return glmux_env_get_int(name, 0) != 0;
}
