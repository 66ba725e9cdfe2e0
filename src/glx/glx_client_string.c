/* SPDX-License-Identifier: MIT */
/*
 * glmux: glXGetClientString. Without a display it answers fixed strings (the same ones
 * libglvnd gives). With one vendor it returns that vendor's string unchanged. When the
 * screens of a display are served by several vendors it merges their answers once per
 * display: GLX_VENDOR joined with ", ", GLX_VERSION as the highest "major.minor" (at most
 * 1.4) followed by the vendors' remaining text, GLX_EXTENSIONS as the union of the lists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glx/glx_client_string.h"
#include "glx/glx_display.h"
#include "glx/glx_lock.h"
#include "glx/glx_screen.h"

static char *merge(const char **strs, int count, int name)
{
    struct glmux_strbuf b = {0};
    int best_major = 0, best_minor = 0;

    if (name == GLX_VERSION) {
        struct glmux_strbuf rest = {0};
        char head[32];

        for (int i = 0; i < count; i++) {
            int major = 0, minor = 0, used = 0;
            const char *tail;

            if (sscanf(strs[i], "%d.%d%n", &major, &minor, &used) < 2)
                used = 0;
            if (major > best_major || (major == best_major && minor > best_minor)) {
                best_major = major;
                best_minor = minor;
            }
            tail = strs[i] + used;
            while (*tail == ' ')
                tail++;
            if (*tail != '\0' &&
                ((rest.len > 0 && !glmux_strbuf_append(&rest, ", ", 2)) ||
                 !glmux_strbuf_append(&rest, tail, strlen(tail))))
                break;
        }
        if (best_major > 1 || (best_major == 1 && best_minor > 4)) {
            best_major = 1;
            best_minor = 4;
        }
        snprintf(head, sizeof(head), "%d.%d", best_major, best_minor);
        glmux_strbuf_append(&b, head, strlen(head));
        if (rest.len > 0) {
            glmux_strbuf_append(&b, " ", 1);
            glmux_strbuf_append(&b, rest.s, rest.len);
        }
        free(rest.s);
        return b.s;
    }
    for (int i = 0; i < count; i++) {
        if (name == GLX_EXTENSIONS) {
            glmux_words_append_new(&b, strs[i]);
        } else if ((b.len > 0 && !glmux_strbuf_append(&b, ", ", 2)) ||
                   !glmux_strbuf_append(&b, strs[i], strlen(strs[i]))) {
            break;
        }
    }
    if (b.s == NULL)
        b.s = strdup("");
    return b.s;
}

const char *glmux_glx_client_string(Display *dpy, int name)
{
    static const char *const no_display[] = {
        "libglvnd (no display specified)", "1.4 (no display specified)", ""
    };
    struct glmux_glx_display *d;
    glmux_glx_vendor **seen;
    const char **strs;
    const char *cached = NULL;
    int screens, count = 0;
    char *merged;

    if (name < GLX_VENDOR || name > GLX_EXTENSIONS)
        return NULL;
    if (dpy == NULL)
        return no_display[name - 1];
    screens = ScreenCount(dpy);
    if (screens == 1) {
        glmux_glx_vendor *v = glmux_glx_vendor_for_screen(dpy, 0);

        return v ? v->fns.GetClientString(dpy, name) : NULL;
    }
    if ((d = glmux_glx_display_get(dpy)) == NULL)
        return NULL;
    glmux_glx_map_acquire();
    cached = d->client_string[name - 1];
    glmux_glx_map_release();
    if (cached != NULL)
        return cached;

    seen = calloc((size_t)screens, sizeof(*seen));
    strs = calloc((size_t)screens, sizeof(*strs));
    if (seen == NULL || strs == NULL) {
        free(seen);
        free(strs);
        return NULL;
    }
    for (int s = 0; s < screens; s++) {
        glmux_glx_vendor *v = glmux_glx_vendor_for_screen(dpy, s);
        const char *str;
        int j;

        for (j = 0; j < count && v != seen[j]; j++)
            ;
        if (v == NULL || j < count)
            continue;
        str = v->fns.GetClientString(dpy, name);
        if (str == NULL)
            continue;
        seen[count] = v;
        strs[count++] = str;
    }
    if (count <= 1) {
        cached = count == 1 ? strs[0] : NULL;
        free(seen);
        free(strs);
        return cached;
    }
    merged = merge(strs, count, name);
    free(seen);
    free(strs);
    glmux_glx_map_acquire();
    if (d->client_string[name - 1] == NULL) {
        d->client_string[name - 1] = merged;
        merged = NULL;
    }
    cached = d->client_string[name - 1];
    glmux_glx_map_release();
    free(merged);
    return cached;
}
