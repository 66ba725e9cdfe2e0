/* SPDX-License-Identifier: MIT */
/*
 * glmux: the rule for the pixels GLX vendor (pixels_rule.h): never worse than what the user
 * had. A server that cannot render GL for us (no GLX extension, or vendors that cannot be
 * loaded here) always gets it; a remote connection gets it first only when a local GPU makes it
 * better than Mesa's own direct path there (llvmpipe); an explicit vendor name and
 * LIBGL_ALWAYS_INDIRECT win. glmux_select_glx_screen_plan puts the rule's answer into a screen's
 * vendor steps, the one plan libGLX follows and `glmux explain` prints.
 */
#define _GNU_SOURCE
#include "select/pixels_rule.h"
#include "select/policy.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "util/env.h"
#include "util/log.h"

enum glmux_pixels_mode glmux_select_pixels_mode(void)
{
    static int warned;
    const char *v = glmux_env_get("GLMUX_GLX_REMOTE");

    if (v == NULL || *v == '\0' || strcmp(v, "auto") == 0)
        return GLMUX_PIXELS_AUTO;
    if (strcmp(v, "pixels") == 0)
        return GLMUX_PIXELS_FORCE;
    if (strcmp(v, "off") == 0 || strcmp(v, "0") == 0 || strcmp(v, "never") == 0)
        return GLMUX_PIXELS_OFF;
    if (__atomic_fetch_add(&warned, 1, __ATOMIC_RELAXED) == 0)
        glmux_log(GLMUX_LOG_WARN, "GLMUX_GLX_REMOTE=%s is not one of auto, pixels, off; "
                  "using auto", v);
    return GLMUX_PIXELS_AUTO;
}

bool glmux_select_x11_remote(int fd, const char **how)
{
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);

    *how = "a local (Unix-domain) connection";
    if (fd < 0 || getsockname(fd, (struct sockaddr *)&addr, &len) != 0)
        return false;
    if (addr.ss_family == AF_UNIX)
        return false;
    *how = addr.ss_family == AF_INET6 ? "a TCP (IPv6) connection" : "a TCP connection";
    return true;
}

/* Mesa's boolean variables (env_var_as_boolean): 1, true, y, yes; anything else is false. */
static bool mesa_flag(const char *name)
{
    const char *v = glmux_env_get(name);

    return v != NULL && (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 ||
                         strcasecmp(v, "y") == 0 || strcasecmp(v, "yes") == 0);
}

enum glmux_pixels_when glmux_select_pixels_rule(struct glmux_select *sel,
                                                const struct glmux_glx_step *plan, size_t n,
                                                bool has_glx, int fd, char *why,
                                                size_t why_size)
{
    enum glmux_pixels_mode mode;
    const struct glmux_gpu *gpu;
    const char *how;

    for (size_t i = 0; i < n; i++) {
        if (plan[i].override) {
            glmux_log_mark_cut(why, why_size, snprintf(why, why_size, "%s names vendor \"%s\"",
                                                       plan[i].why, plan[i].name));
            return GLMUX_PIXELS_NEVER;
        }
    }
    if (mesa_flag("LIBGL_ALWAYS_INDIRECT")) {
        snprintf(why, why_size, "LIBGL_ALWAYS_INDIRECT asks the X server to render");
        return GLMUX_PIXELS_NEVER;
    }
    mode = glmux_select_pixels_mode();
    if (mode == GLMUX_PIXELS_OFF) {
        snprintf(why, why_size, "GLMUX_GLX_REMOTE forbids it");
        return GLMUX_PIXELS_NEVER;
    }
    if (mode == GLMUX_PIXELS_FORCE) {
        snprintf(why, why_size, "GLMUX_GLX_REMOTE=pixels");
        return GLMUX_PIXELS_FIRST;
    }
    if (!has_glx) {
        snprintf(why, why_size, "the X server has no GLX extension");
        return GLMUX_PIXELS_FIRST;
    }
    if (!glmux_select_x11_remote(fd, &how)) {
        snprintf(why, why_size, "the X server's vendors render directly; used only if none "
                 "of them loads or accepts the screen");
        return GLMUX_PIXELS_FALLBACK;
    }
    gpu = sel != NULL && !mesa_flag("LIBGL_ALWAYS_SOFTWARE") ? glmux_select_chosen_gpu(sel)
                                                              : NULL;
    if (gpu != NULL && gpu->render_node[0] != '\0') {
        snprintf(why, why_size, "the X connection is not local (%s) and GPU %s renders here, "
                 "which the server's vendor cannot use over it", how, gpu->tag);
        return GLMUX_PIXELS_FIRST;
    }
    snprintf(why, why_size, "the X connection is not local (%s), but no GPU renders here: the "
             "server's vendor comes first (Mesa renders with llvmpipe here too); used only if "
             "none of them loads or accepts the screen", how);
    return GLMUX_PIXELS_FALLBACK;
}

void glmux_select_glx_screen_plan(struct glmux_select *sel, void *dpy, int screen,
                                  const struct glmux_vendor_list *vendors, bool has_glx, int fd,
                                  struct glmux_glx_screen_plan *out)
{
    struct glmux_glx_step plan[GLMUX_GLX_PLAN_MAX];
    size_t n = glmux_select_glx_plan(sel, dpy, screen, vendors, plan);
    bool placed = false;

    out->n = 0;
    out->pixels = glmux_select_pixels_rule(sel, plan, n, has_glx, fd, out->pixels_why,
                                           sizeof(out->pixels_why));
    for (size_t i = 0; i < n && out->n < GLMUX_GLX_SCREEN_STEPS; i++) {
        struct glmux_glx_step *st;

        /* After libglvnd's variables: the pixels vendor when the server cannot render. */
        if (!plan[i].override && !placed) {
            placed = true;
            if (out->pixels == GLMUX_PIXELS_FIRST) {
                if (sel != NULL)
                    glmux_select_note(sel, GLMUX_LOG_SELECT, "GLX screen %d: vendor \"%s\" comes "
                                      "first (%s)", screen, GLMUX_PIXELS_VENDOR_NAME,
                                      out->pixels_why);
                struct glmux_glx_step px = { GLMUX_GLX_STEP_VENDOR, GLMUX_PIXELS_VENDOR_NAME,
                                             out->pixels_why, true, false, NULL };
                out->steps[out->n++] = px;
            }
        }
        st = &out->steps[out->n++];
        *st = plan[i];
        if (st->kind == GLMUX_GLX_STEP_SERVER && out->pixels == GLMUX_PIXELS_FALLBACK)
            st->fallback = GLMUX_PIXELS_VENDOR_NAME;
    }
}
