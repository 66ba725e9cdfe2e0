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

const char *glmux_env_get_always(const char *name)
{
    return getenv(name);
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

/*
 * Reads the variable as a decimal number: false when it is unset or empty; else *value gets
 * what strtol reads (as atoi() would, glibc's atoi() being (int)strtol(value, NULL, 10)) and
 * *whole whether that is the whole value, in range.
 */
static bool read_number(const char *name, const char **text, long *value, bool *whole)
{
    char *end;

    *text = glmux_env_get(name);
    if (*text == NULL || **text == '\0')
        return false;
    errno = 0;
    *value = strtol(*text, &end, 10);
    *whole = errno == 0 && *end == '\0' && end != *text;
    return true;
}

long glmux_env_get_int(const char *name, long def)
{
    const char *text;
    long result;
    bool whole;

    if (!read_number(name, &text, &result, &whole))
        return def;
    if (!whole) {
        if (first_warning(name))
            glmux_log(GLMUX_LOG_WARN, "ignoring %s=\"%s\": not a decimal number; using %ld",
                      name, text, def);
        return def;
    }
    return result;
}

bool glmux_env_get_flag(const char *name)
{
    const char *text;
    long result;
    bool whole;

    if (!read_number(name, &text, &result, &whole))
        return false;
    if (!whole && first_warning(name))
        glmux_log(GLMUX_LOG_WARN, "%s=\"%s\" is not a number; read as %d, as libglvnd reads it",
                  name, text, (int)result);
    return (int)result != 0;
}
