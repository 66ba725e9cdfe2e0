/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layers: the values of GLMUX_LAYERS_ENABLE / GLMUX_LAYERS_DISABLE (comma-separated
 * globs and the words ~all~, ~implicit~, ~explicit~, as Vulkan's VK_LOADER_LAYERS_ENABLE and
 * _DISABLE) and of GLMUX_LAYERS (names, first on top). A glob is a full fnmatch(3) pattern
 * compared without regard to case, as Vulkan compares its filters; Vulkan allows '*' only at a
 * glob's start or end, every such glob means the same here.
 */
#define _GNU_SOURCE
#include "layers/core/layer_internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static bool add(char ***list, size_t *n, const char *s, size_t len)
{
    char **grown = realloc(*list, (*n + 1) * sizeof(char *));
    char *copy;

    if (grown == NULL)
        return false;
    *list = grown;
    copy = strndup(s, len);
    if (copy == NULL)
        return false;
    grown[(*n)++] = copy;
    return true;
}

/* The next item of a list separated by any of seps, blanks around it dropped. */
static const char *next_item(const char **p, const char *seps, size_t *len)
{
    const char *s;

    for (;;) {
        size_t n;

        if (**p == '\0')
            return NULL;
        n = strcspn(*p, seps);
        s = *p;
        *p += n;
        if (**p != '\0')
            (*p)++;
        while (n > 0 && (*s == ' ' || *s == '\t')) {
            s++;
            n--;
        }
        while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        if (n > 0) {
            *len = n;
            return s;
        }
    }
}

bool glmux_layer_filter_parse(const char *value, struct glmux_layer_filter *out)
{
    const char *p = value != NULL ? value : "", *s;
    size_t len;

    memset(out, 0, sizeof(*out));
    while ((s = next_item(&p, ",", &len)) != NULL) {
        if (len == 5 && strncmp(s, "~all~", 5) == 0)
            out->all = true;
        else if (len == 10 && strncmp(s, "~implicit~", 10) == 0)
            out->implicit = true;
        else if (len == 10 && strncmp(s, "~explicit~", 10) == 0)
            out->explicit_ = true;
        else if (!add(&out->globs, &out->n_globs, s, len)) {
            glmux_layer_filter_clear(out);
            return false;
        }
    }
    return true;
}

void glmux_layer_filter_clear(struct glmux_layer_filter *filter)
{
    for (size_t i = 0; i < filter->n_globs; i++)
        free(filter->globs[i]);
    free(filter->globs);
    memset(filter, 0, sizeof(*filter));
}

bool glmux_layer_filter_match(const struct glmux_layer_filter *filter, const char *name,
                              bool implicit)
{
    if (filter->all || (implicit && filter->implicit) || (!implicit && filter->explicit_))
        return true;
    for (size_t i = 0; i < filter->n_globs; i++)
        if (fnmatch(filter->globs[i], name, FNM_CASEFOLD) == 0)
            return true;
    return false;
}

bool glmux_layer_filter_covers_all(const struct glmux_layer_filter *filter)
{
    if (filter->all || (filter->implicit && filter->explicit_))
        return true;
    for (size_t i = 0; i < filter->n_globs; i++)
        if (strspn(filter->globs[i], "*") == strlen(filter->globs[i]))
            return true;
    return false;
}

bool glmux_layer_filter_empty(const struct glmux_layer_filter *filter)
{
    return !filter->all && !filter->implicit && !filter->explicit_ && filter->n_globs == 0;
}

bool glmux_layer_filter_may_match_explicit(const struct glmux_layer_filter *filter)
{
    return filter->all || filter->explicit_ || filter->n_globs > 0;
}

bool glmux_layer_names_parse(const char *value, char ***names, size_t *count)
{
    const char *p = value != NULL ? value : "", *s;
    size_t len;

    *names = NULL;
    *count = 0;
    while ((s = next_item(&p, ",:", &len)) != NULL) {
        bool seen = false;

        for (size_t i = 0; i < *count && !seen; i++)
            seen = strlen((*names)[i]) == len && strncmp((*names)[i], s, len) == 0;
        if (!seen && !add(names, count, s, len)) {
            for (size_t i = 0; i < *count; i++)
                free((*names)[i]);
            free(*names);
            *names = NULL;
            *count = 0;
            return false;
        }
    }
    return true;
}
