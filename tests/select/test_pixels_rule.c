/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the pixels vendor's rule (glmux_select_pixels_rule, src/select/pixels_rule.h),
 * over umockdev beds and real sockets: a server without GLX always gets it first; a TCP
 * connection gets it first only when this machine has a GPU with a render node (not with
 * LIBGL_ALWAYS_SOFTWARE), else it is only the fallback after the server's vendors (Mesa's
 * direct path, llvmpipe, is not replaced by a narrower one); a Unix-domain connection gets it
 * as the fallback; libglvnd's vendor variables, LIBGL_ALWAYS_INDIRECT and GLMUX_GLX_REMOTE=off
 * keep it away, GLMUX_GLX_REMOTE=pixels puts it first. Then one screen's whole plan
 * (glmux_select_glx_screen_plan, what libGLX follows and `glmux explain` shows): the pixels
 * vendor a step of its own before the X server's list, or that step's fallback, decided for
 * each screen (__GLX_FORCE_VENDOR_LIBRARY_1 turns it off for screen 1 only).
 */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "glmux_test.h"
#include "select/pixels_rule.h"
#include "bed.h"

static const struct bed_gpu intel = { "0000:00:02.0", "0x8086\n", "0x9a49\n", "0x030000\n",
                                       "i915", 1, -1, "renderD128", NULL, NULL };

static int tcp_fd, unix_fd;

/* The rule for screen 0 with a fresh selector (the environment as it is now). */
static enum glmux_pixels_when rule(bool has_glx, int fd, char *why, size_t size)
{
    struct glmux_select *sel = glmux_select_new(NULL);
    struct glmux_glx_step plan[GLMUX_GLX_PLAN_MAX];
    size_t n;
    enum glmux_pixels_when w;

    CHECK(sel != NULL);
    n = glmux_select_glx_plan(sel, NULL, 0, NULL, plan);
    w = glmux_select_pixels_rule(sel, plan, n, has_glx, fd, why, size);
    glmux_select_free(sel);
    printf("  has_glx %d, %s: %s (%s)\n", has_glx, fd == tcp_fd ? "TCP" : "Unix socket",
           w == GLMUX_PIXELS_FIRST ? "first" : w == GLMUX_PIXELS_FALLBACK ? "fallback" : "never",
           why);
    return w;
}

/* The vendors of a screen's plan, in order ("(server)" for the X server's list, "+fallback"
 * after it when it has one), space-separated. */
static void plan_names(int screen, bool has_glx, int fd, char *out, size_t size)
{
    struct glmux_select *sel = glmux_select_new(NULL);
    struct glmux_glx_screen_plan p;

    CHECK(sel != NULL);
    glmux_select_glx_screen_plan(sel, NULL, screen, NULL, has_glx, fd, &p);
    out[0] = '\0';
    for (size_t i = 0; i < p.n; i++) {
        const struct glmux_glx_step *st = &p.steps[i];

        snprintf(out + strlen(out), size - strlen(out), "%s%s%s%s", i ? " " : "",
                 st->kind == GLMUX_GLX_STEP_SERVER ? "(server)" : st->name,
                 st->fallback ? "+" : "", st->fallback ? st->fallback : "");
    }
    glmux_select_free(sel);
    printf("  screen %d, has_glx %d: %s\n", screen, has_glx, out);
}

#define EXPECT_PLAN(screen, has_glx, fd, want)                                              \
    do {                                                                                   \
        char got_[256];                                                                    \
        plan_names((screen), (has_glx), (fd), got_, sizeof(got_));                         \
        CHECK_MSG(strcmp(got_, (want)) == 0, "screen %d: plan \"%s\", expected \"%s\"",     \
                  (screen), got_, (want));                                                 \
    } while (0)

#define EXPECT(has_glx, fd, want, text)                                                    \
    do {                                                                                   \
        char why_[320];                                                                    \
        CHECK(rule((has_glx), (fd), why_, sizeof(why_)) == (want));                        \
        CHECK_MSG(strstr(why_, (text)) != NULL, "reason \"%s\" lacks \"%s\"", why_, (text)); \
    } while (0)

int main(void)
{
    static const char *const clear[] = {
        "DRI_PRIME", "GLMUX_GPU", "__NV_PRIME_RENDER_OFFLOAD", "__GLX_VENDOR_LIBRARY_NAME",
        "__GLX_FORCE_VENDOR_LIBRARY_0", "LIBGL_ALWAYS_INDIRECT", "LIBGL_ALWAYS_SOFTWARE",
        "GLMUX_GLX_REMOTE" };
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    int pair[2];
    const char *how;

    bed_require();
    for (size_t i = 0; i < sizeof(clear) / sizeof(clear[0]); i++)
        unsetenv(clear[i]);
    tcp_fd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(tcp_fd >= 0 && bind(tcp_fd, (struct sockaddr *)&addr, sizeof(addr)) == 0);
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0);
    unix_fd = pair[0];
    CHECK(glmux_select_x11_remote(tcp_fd, &how) && strstr(how, "TCP") != NULL);
    CHECK(!glmux_select_x11_remote(unix_fd, &how));
    CHECK(!glmux_select_x11_remote(-1, &how));

    printf("no GPU (empty bed):\n");
    bed_new();
    EXPECT(false, unix_fd, GLMUX_PIXELS_FIRST, "no GLX extension");
    EXPECT(false, tcp_fd, GLMUX_PIXELS_FIRST, "no GLX extension");
    EXPECT(true, unix_fd, GLMUX_PIXELS_FALLBACK, "render directly");
    EXPECT(true, tcp_fd, GLMUX_PIXELS_FALLBACK, "no GPU renders here");

    printf("an Intel GPU with a render node:\n");
    bed_add_gpu(&intel);
    EXPECT(true, tcp_fd, GLMUX_PIXELS_FIRST, "GPU pci-0000_00_02_0 renders here");
    EXPECT(true, unix_fd, GLMUX_PIXELS_FALLBACK, "render directly");
    setenv("LIBGL_ALWAYS_SOFTWARE", "true", 1);
    EXPECT(true, tcp_fd, GLMUX_PIXELS_FALLBACK, "no GPU renders here");
    unsetenv("LIBGL_ALWAYS_SOFTWARE");

    printf("the user's variables:\n");
    setenv("LIBGL_ALWAYS_INDIRECT", "1", 1);
    EXPECT(false, unix_fd, GLMUX_PIXELS_NEVER, "LIBGL_ALWAYS_INDIRECT");
    EXPECT(true, tcp_fd, GLMUX_PIXELS_NEVER, "LIBGL_ALWAYS_INDIRECT");
    setenv("LIBGL_ALWAYS_INDIRECT", "0", 1);   /* Mesa's boolean: false */
    EXPECT(false, unix_fd, GLMUX_PIXELS_FIRST, "no GLX extension");
    unsetenv("LIBGL_ALWAYS_INDIRECT");
    setenv("GLMUX_GLX_REMOTE", "off", 1);
    EXPECT(false, unix_fd, GLMUX_PIXELS_NEVER, "GLMUX_GLX_REMOTE forbids it");
    setenv("GLMUX_GLX_REMOTE", "pixels", 1);
    EXPECT(true, unix_fd, GLMUX_PIXELS_FIRST, "GLMUX_GLX_REMOTE=pixels");
    /* An explicit vendor name wins over everything, GLMUX_GLX_REMOTE=pixels included. */
    setenv("__GLX_VENDOR_LIBRARY_NAME", "mesa", 1);
    EXPECT(false, unix_fd, GLMUX_PIXELS_NEVER, "names vendor \"mesa\"");
    unsetenv("__GLX_VENDOR_LIBRARY_NAME");
    setenv("__GLX_FORCE_VENDOR_LIBRARY_0", GLMUX_PIXELS_VENDOR_NAME, 1);
    EXPECT(true, tcp_fd, GLMUX_PIXELS_NEVER, "names vendor \"glmux-pixels\"");
    unsetenv("__GLX_FORCE_VENDOR_LIBRARY_0");
    unsetenv("GLMUX_GLX_REMOTE");

    printf("one screen's plan:\n");
    EXPECT_PLAN(0, false, unix_fd, "glmux-pixels (server) indirect system");
    EXPECT_PLAN(0, true, unix_fd, "(server)+glmux-pixels indirect system");
    setenv("__GLX_FORCE_VENDOR_LIBRARY_1", "mesa", 1);
    EXPECT_PLAN(0, false, unix_fd, "glmux-pixels (server) indirect system");
    EXPECT_PLAN(1, false, unix_fd, "mesa (server) indirect system");
    setenv("__GLX_FORCE_VENDOR_LIBRARY_1", GLMUX_PIXELS_VENDOR_NAME, 1);
    EXPECT_PLAN(1, true, unix_fd, "glmux-pixels (server) indirect system");
    EXPECT_PLAN(0, true, unix_fd, "(server)+glmux-pixels indirect system");
    unsetenv("__GLX_FORCE_VENDOR_LIBRARY_1");
    setenv("GLMUX_GLX_REMOTE", "off", 1);
    EXPECT_PLAN(0, false, unix_fd, "(server) indirect system");
    unsetenv("GLMUX_GLX_REMOTE");

    bed_free();
    close(tcp_fd);
    close(pair[0]);
    close(pair[1]);
    printf("ok: the pixels vendor's rule\n");
    return 0;
}
