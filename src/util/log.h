/* SPDX-License-Identifier: MIT */
/*
 * glmux: the one logging module. Messages are grouped in categories that GLMUX_DEBUG turns
 * on by whole tokens (error,warn,info,vendor,select,dispatch,layer,all); GLMUX_DEBUG_FILE sends
 * them to a file instead of stderr. It works the same in release and debug builds.
 */
#ifndef GLMUX_UTIL_LOG_H
#define GLMUX_UTIL_LOG_H

#include <stdbool.h>
#include <stddef.h>

enum glmux_log_category {
    GLMUX_LOG_ERROR = 1u << 0,
    GLMUX_LOG_WARN = 1u << 1,
    GLMUX_LOG_INFO = 1u << 2,
    GLMUX_LOG_VENDOR = 1u << 3,
    GLMUX_LOG_SELECT = 1u << 4,
    GLMUX_LOG_DISPATCH = 1u << 5,
    GLMUX_LOG_LAYER = 1u << 6,     /* GL layers: discovery, filters, loading */
    GLMUX_LOG_ALL = (1u << 7) - 1
};

/* Categories on when GLMUX_DEBUG is unset: real failures and bad input only. */
#define GLMUX_LOG_DEFAULT (GLMUX_LOG_ERROR | GLMUX_LOG_WARN)

/*
 * The categories that may be on in this library's copy of the log: all until it knows
 * GLMUX_DEBUG's, then those. glmux_log and glmux_log_enabled read it inline, so that a message
 * of a category that is off costs a load and a branch, with no call and no argument evaluated
 * (docs/performance.md, "GL layers": start-up's messages that nobody asked for).
 */
extern unsigned glmux_log_maybe_on __attribute__((visibility("hidden")));

/* True when messages of this category would be written (inline: false at once for a category
 * known to be off; glmux_log_check is the rest). */
bool glmux_log_check(unsigned category);
static inline bool glmux_log_enabled(unsigned category)
{
    return (__atomic_load_n(&glmux_log_maybe_on, __ATOMIC_RELAXED) & category) != 0 &&
           glmux_log_check(category);
}

/* Writes "glmux: <message>\n" when the category is enabled. The category is evaluated once
 * (a caller may count its messages in it). */
void glmux_log(unsigned category, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define glmux_log(category, ...)                                                             \
    __extension__({                                                                          \
        unsigned glmux_log_category_ = (unsigned)(category);                                  \
        if ((__atomic_load_n(&glmux_log_maybe_on, __ATOMIC_RELAXED) & glmux_log_category_) != 0) \
            (glmux_log)(glmux_log_category_, __VA_ARGS__);                                    \
    })

/*
 * Parses a GLMUX_DEBUG value into a category mask. Unknown tokens are skipped; the first one
 * is copied into bad (when bad_size > 0), else bad is set to "". NULL gives the default.
 */
unsigned glmux_log_parse(const char *spec, char *bad, size_t bad_size);

/*
 * Once per process for the message about key (an environment variable's name): true for the
 * first call in the process. Each library has its own copy of this module; those that run
 * with glmux's libGLdispatch claim in its table (glmux_log_set_claim, set by the winsys layer
 * when the library registers), so that libEGL and libGLX say a thing about the environment
 * once between them; a library without it (the pixels vendor, the tool) claims in its own.
 * Up to 64 keys; past that, true (a message twice rather than never).
 */
bool glmux_log_claim(const char *key);
void glmux_log_set_claim(bool (*claim)(const char *key));

/*
 * A value quoted in a message, cut as `glmux explain` cuts one: at most GLMUX_LOG_CUT_SIZE - 4
 * bytes of it (whole UTF-8 characters), then "...". Returns s itself when it is short enough,
 * else buf (of size bytes). GLMUX_LOG_CUT(s) gives it a buffer that lives to the end of the
 * enclosing full expression's block: glmux_log(..., "%s", GLMUX_LOG_CUT(value)).
 */
#define GLMUX_LOG_CUT_SIZE 512
const char *glmux_log_cut(const char *s, char *buf, size_t size);
#define GLMUX_LOG_CUT(s) glmux_log_cut((s), (char[GLMUX_LOG_CUT_SIZE]){ 0 }, GLMUX_LOG_CUT_SIZE)
/* After snprintf(buf, size, ...) returned n: a text that did not fit ends in "..." (on a
 * character boundary) instead of stopping short without a word. */
void glmux_log_mark_cut(char *buf, size_t size, int n);

#endif /* GLMUX_UTIL_LOG_H */
