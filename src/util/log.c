/* SPDX-License-Identifier: MIT */
/*
 * glmux: category logging to stderr or GLMUX_DEBUG_FILE (see log.h). The configuration is
 * read once, on the first message, under a pthread_once.
 */
#define _GNU_SOURCE
#include "log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "env.h"

static const struct {
    const char *name;
    unsigned mask;
} log_tokens[] = {
    { "error", GLMUX_LOG_ERROR },   { "warn", GLMUX_LOG_WARN },
    { "info", GLMUX_LOG_INFO },     { "vendor", GLMUX_LOG_VENDOR },
    { "select", GLMUX_LOG_SELECT }, { "dispatch", GLMUX_LOG_DISPATCH },
    { "all", GLMUX_LOG_ALL },
};

static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static unsigned log_mask = GLMUX_LOG_DEFAULT;
static FILE *log_file;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

unsigned glmux_log_parse(const char *spec, char *bad, size_t bad_size)
{
    unsigned mask = 0;
    const char *p = spec;

    if (bad_size > 0)
        bad[0] = '\0';
    if (spec == NULL)
        return GLMUX_LOG_DEFAULT;

    while (*p != '\0') {
        size_t len = strcspn(p, ",: ");
        bool known = false;

        for (size_t i = 0; i < sizeof(log_tokens) / sizeof(log_tokens[0]); i++) {
            if (strlen(log_tokens[i].name) == len && strncmp(p, log_tokens[i].name, len) == 0) {
                mask |= log_tokens[i].mask;
                known = true;
            }
        }
        if (!known && len > 0 && bad_size > 0 && bad[0] == '\0')
            snprintf(bad, bad_size, "%.*s", (int)len, p);
        p += len;
        if (*p != '\0')
            p++;
    }
    /* Errors are always worth seeing once somebody asked for debugging. */
    return mask | GLMUX_LOG_ERROR;
}

static void log_init(void)
{
    char bad[64];
    const char *path = glmux_env_get("GLMUX_DEBUG_FILE");

    log_mask = glmux_log_parse(glmux_env_get("GLMUX_DEBUG"), bad, sizeof(bad));
    if (path != NULL && *path != '\0') {
        log_file = fopen(path, "ae");
        if (log_file == NULL)
            fprintf(stderr, "glmux: cannot open GLMUX_DEBUG_FILE=%s; logging to stderr\n", path);
        else
            setvbuf(log_file, NULL, _IOLBF, 0);
    }
    if (bad[0] != '\0')
        fprintf(log_file ? log_file : stderr,
                "glmux: unknown GLMUX_DEBUG token \"%s\"; valid tokens: "
                "error,warn,info,vendor,select,dispatch,all\n",
                bad);
}

bool glmux_log_enabled(unsigned category)
{
    pthread_once(&log_once, log_init);
    return (log_mask & category) != 0;
}

void glmux_log(unsigned category, const char *fmt, ...)
{
    va_list ap;
    FILE *out;

    if (!glmux_log_enabled(category))
        return;
    out = log_file ? log_file : stderr;
    pthread_mutex_lock(&log_lock);
    fputs("glmux: ", out);
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    pthread_mutex_unlock(&log_lock);
}
