/* SPDX-License-Identifier: MIT */
/*
 * glmux: environment reads that honour secure execution (see env.h).
 */
#define _GNU_SOURCE
#include "env.h"

#include <errno.h>
#include <limits.h>
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

/* Whether name is warned about for the first time in this process: once between all of
 * glmux's libraries that share glmux's libGLdispatch (util/log.h, glmux_log_claim). */
static bool first_warning(const char *name)
{
    return glmux_log_claim(name);
}

/*
 * Reads the variable as a decimal number: false when it is unset or empty; else *value gets
 * what strtol reads (as atoi() would, glibc's atoi() being (int)strtol(value, NULL, 10)) and
 * *whole whether that is the whole value, in range; *range whether it is a whole decimal
 * number that does not fit a long.
 */
static bool read_number(const char *name, const char **text, long *value, bool *whole,
                        bool *range)
{
    char *end;

    *text = glmux_env_get(name);
    if (*text == NULL || **text == '\0')
        return false;
    errno = 0;
    *value = strtol(*text, &end, 10);
    *whole = errno == 0 && *end == '\0' && end != *text;
    *range = errno == ERANGE && *end == '\0';
    return true;
}

long glmux_env_get_int(const char *name, long def)
{
    const char *text;
    long result;
    bool whole, range;

    if (!read_number(name, &text, &result, &whole, &range))
        return def;
    if (!whole) {
        if (range && first_warning(name))
            glmux_log(GLMUX_LOG_WARN, "ignoring %s=\"%s\": out of range (from %ld to %ld); "
                      "using %ld", name, GLMUX_LOG_CUT(text), LONG_MIN, LONG_MAX, def);
        else if (!range && first_warning(name))
            glmux_log(GLMUX_LOG_WARN, "ignoring %s=\"%s\": not a decimal number; using %ld",
                      name, GLMUX_LOG_CUT(text), def);
        return def;
    }
    return result;
}

bool glmux_env_get_flag(const char *name)
{
    const char *text;
    long result;
    bool whole, range;

    if (!read_number(name, &text, &result, &whole, &range))
        return false;
    if (!whole && first_warning(name))
        glmux_log(GLMUX_LOG_WARN, "%s=\"%s\" is %s; read as %d, as libglvnd reads it", name,
                  GLMUX_LOG_CUT(text), range ? "out of range" : "not a number", (int)result);
    return (int)result != 0;
}
