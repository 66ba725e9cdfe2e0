/* SPDX-License-Identifier: MIT */
/*
 * glmux: environment reads that honour secure execution (see env.h).
 */
#define _GNU_SOURCE
#include "env.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
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

/*
 * Whether name is warned about for the first time in this process. Names are the callers'
 * string literals; a few slots are enough (a handful of variables are read as numbers), and
 * when they are full nothing more is warned about. Lock-free: a warning may come from any
 * thread, at any time.
 */
static bool first_warning(const char *name)
{
    static const char *warned[16];

    for (size_t i = 0; i < sizeof(warned) / sizeof(warned[0]); i++) {
        const char *seen = __atomic_load_n(&warned[i], __ATOMIC_ACQUIRE);

        if (seen == NULL) {
            if (__atomic_compare_exchange_n(&warned[i], &seen, name, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
                return true;
        }
        if (strcmp(seen, name) == 0)
            return false;
    }
    return false;
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
    if (errno != 0 || *end != '\0' || end == value) {
        if (first_warning(name))
            glmux_log(GLMUX_LOG_WARN, "ignoring %s=\"%s\": not a decimal number; using %ld",
                      name, value, def);
        return def;
    }
    return result;
}

bool glmux_env_get_flag(const char *name)
{
    const char *value = glmux_env_get(name);
    char *end;
    long result;

    if (value == NULL || *value == '\0')
        return false;
    errno = 0;
    result = strtol(value, &end, 10);   /* glibc's atoi() is (int)strtol(value, NULL, 10) */
    if ((errno != 0 || *end != '\0' || end == value) && first_warning(name))
        glmux_log(GLMUX_LOG_WARN, "%s=\"%s\" is not a number; read as %d, as libglvnd reads it",
                  name, value, (int)result);
    return (int)result != 0;
}
