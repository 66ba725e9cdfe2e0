/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: `glmux gpus --watch`. Lists the GPUs as `glmux gpus` does, then follows udev's
 * events on the "drm" subsystem (libudev's monitor, through the same on-demand libudev as the
 * selector's enumeration): after each burst of events the GPUs are enumerated again and every
 * difference is printed (a GPU added or removed, e.g. an eGPU plugged in or its driver bound or
 * unbound; a GPU whose driver, kind or udev properties changed), followed by the default GPU
 * and the vendor that serves it (with --json after every burst, changed or not). Text for
 * people; with --json one JSON object per line. Ends with status 0 on SIGINT or SIGTERM and when
 * nobody reads stdout any more; 1 when udev cannot be watched.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_writer.h"
#include "select/select.h"
#include "util/escape.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

struct watch {
    struct glmux_gpu_monitor *mon;
    struct glmux_vendor_list vl;
    struct glmux_gpu_list now, before;
    char problem[sizeof(((struct glmux_gpu_list *)0)->problem)];   /* the last problem reported, so that each is said once */
    bool json;
};

static const char *default_tag(const struct glmux_gpu_list *l)
{
    return l->default_index >= 0 ? l->gpus[l->default_index].tag : NULL;
}

static const struct glmux_gpu *find(const struct glmux_gpu_list *l, const char *tag)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->gpus[i].tag, tag) == 0)
            return &l->gpus[i];
    return NULL;
}

/* Whether what a user sees of a GPU changed (is_default is reported on its own line). */
static bool gpu_changed(const struct glmux_gpu *a, const struct glmux_gpu *b)
{
    return strcmp(a->driver, b->driver) != 0 || a->kind != b->kind ||
           a->kind_from_udev != b->kind_from_udev || strcmp(a->vendor, b->vendor) != 0 ||
           strcmp(a->render_node, b->render_node) != 0 ||
           strcmp(a->card_node, b->card_node) != 0 || a->boot_vga != b->boot_vga ||
           a->boot_display != b->boot_display;
}

/* Whether stdout still takes what was printed (false when the reader went away). */
static bool flush_out(void)
{
    return fflush(stdout) == 0;
}

static void json_change(struct watch *w, const char *event, const char *cause,
                        const struct glmux_gpu *g, const struct glmux_gpu *old)
{
    struct glmux_jw jw;

    glmux_jw_init_line(&jw, stdout);
    glmux_jw_object(&jw, NULL);
    glmux_jw_string(&jw, "event", event);
    glmux_jw_string(&jw, "cause", cause);
    glmux_cli_json_gpu(&jw, "gpu", g, &w->vl);
    if (old != NULL) {
        glmux_jw_string(&jw, "previous_driver", old->driver[0] ? old->driver : NULL);
        glmux_jw_string(&jw, "previous_kind", glmux_gpu_kind_name(old->kind));
    }
    glmux_jw_end(&jw, '}');
    glmux_jw_finish(&jw);
}

/* The names udev and sysfs give (the tag, the driver, the event's device) are escaped, newlines
 * too: a device cannot forge a line of its own. */
static void text_change(struct watch *w, const char *event, const char *cause,
                        const struct glmux_gpu *g, const struct glmux_gpu *old)
{
    const char *v = glmux_cli_gpu_vendor(&w->vl, g);
    char tag[4 * sizeof(g->tag)], driver[4 * sizeof(g->driver)], why[1024];

    printf("%s: %s  %04x:%04x  driver %s", event, glmux_escape_str(g->tag, tag, sizeof(tag)),
           g->vendor_id, g->device_id,
           g->driver[0] ? glmux_escape_str(g->driver, driver, sizeof(driver)) : "(none)");
    if (old != NULL && strcmp(old->driver, g->driver) != 0)
        printf(" (was %s)",
               old->driver[0] ? glmux_escape_str(old->driver, driver, sizeof(driver)) : "(none)");
    printf("  %s%s, vendor %s%s%s%s\n", glmux_gpu_kind_name(g->kind),
           g->kind_from_udev ? " (udev property GLMUX_GPU_CLASS)" : "",
           v ? v : "(none installed)", strcmp(cause, "start") ? "  [udev: " : "",
           strcmp(cause, "start") ? glmux_escape_str(cause, why, sizeof(why)) : "",
           strcmp(cause, "start") ? "]" : "");
}

static void change(struct watch *w, const char *event, const char *cause,
                   const struct glmux_gpu *g, const struct glmux_gpu *old)
{
    if (w->json)
        json_change(w, event, cause, g, old);
    else
        text_change(w, event, cause, g, old);
}

static int watch_fail(const char *what)
{
    fprintf(stderr, "glmux: gpus --watch: %s\n", what);
    return GLMUX_EXIT_FAIL;
}

/* The default GPU and its vendor, after a change or at the start. */
static void print_default(struct watch *w, const char *cause, bool changed)
{
    const struct glmux_gpu_list *l = &w->now;
    const struct glmux_gpu *d = l->default_index >= 0 ? &l->gpus[l->default_index] : NULL;
    const char *v = glmux_cli_gpu_vendor(&w->vl, d);
    char tag[4 * sizeof(d->tag)];

    if (w->json) {
        struct glmux_jw jw;

        glmux_jw_init_line(&jw, stdout);
        glmux_jw_object(&jw, NULL);
        glmux_jw_string(&jw, "event", "default");
        glmux_jw_string(&jw, "cause", cause);
        glmux_jw_bool(&jw, "changed", changed);
        glmux_jw_string(&jw, "default_gpu", d ? d->tag : NULL);
        glmux_jw_string(&jw, "default_rule", l->default_rule);
        glmux_jw_string(&jw, "vendor", v);
        glmux_jw_int(&jw, "gpu_count", (long)l->count);
        glmux_jw_end(&jw, '}');
        glmux_jw_finish(&jw);
        return;
    }
    if (d == NULL)
        printf("default GPU: none (%s)%s\n", l->default_rule, changed ? "" : ", unchanged");
    else
        printf("default GPU: %s (%s), vendor %s%s\n",
               glmux_escape_str(d->tag, tag, sizeof(tag)), l->default_rule,
               v ? v : "(none installed)", changed ? "" : ", unchanged");
}

/* The enumeration's problem (an odd udev value, no /sys), each one said once, as one line: it
 * quotes the odd value, which may hold a newline. */
static void report_problem(struct watch *w)
{
    const char *p = w->now.sysfs_missing || w->now.problem[0] ? w->now.problem : "";
    char line[4 * sizeof(w->problem)];

    if (strcmp(p, w->problem) == 0)
        return;
    snprintf(w->problem, sizeof(w->problem), "%s", p);
    if (p[0] != '\0')
        fprintf(stderr, "glmux: %s\n", glmux_escape_str(p, line, sizeof(line)));
}

/* The first listing, in the form of `glmux gpus`' changes: every GPU "present". */
static bool print_start(struct watch *w)
{
    report_problem(w);
    for (size_t i = 0; i < w->now.count; i++)
        change(w, "present", "start", &w->now.gpus[i], NULL);
    print_default(w, "start", true);
    if (!w->json)
        printf("watching udev's drm events; Ctrl-C ends\n");
    return flush_out();
}

/* Enumerates again and prints what differs from before; cause is the udev event(s). */
static int update(struct watch *w, const char *cause)
{
    const char *old_default, *new_default;
    bool any = false, default_changed;

    glmux_gpu_list_clear(&w->before);
    w->before = w->now;
    if (!glmux_gpu_list_enumerate(&w->now))
        return watch_fail("out of memory while enumerating GPUs");
    report_problem(w);
    for (size_t i = 0; i < w->before.count; i++)
        if (find(&w->now, w->before.gpus[i].tag) == NULL) {
            change(w, "removed", cause, &w->before.gpus[i], NULL);
            any = true;
        }
    for (size_t i = 0; i < w->now.count; i++) {
        const struct glmux_gpu *g = &w->now.gpus[i], *old = find(&w->before, g->tag);
        if (old == NULL)
            change(w, "added", cause, g, NULL);
        else if (gpu_changed(old, g))
            change(w, "changed", cause, g, old);
        any |= old == NULL || gpu_changed(old, g);
    }
    old_default = default_tag(&w->before);
    new_default = default_tag(&w->now);
    default_changed = (old_default == NULL) != (new_default == NULL) ||
                      (old_default != NULL && strcmp(old_default, new_default) != 0);
    /* JSON: one "default" object after every burst, so that a script knows each was seen. */
    if (any || default_changed || w->json)
        print_default(w, cause, default_changed);
    return GLMUX_EXIT_OK;
}

static void watch_free(struct watch *w)
{
    glmux_gpu_monitor_close(w->mon);
    glmux_gpu_list_clear(&w->now);
    glmux_gpu_list_clear(&w->before);
    glmux_vendor_list_clear(&w->vl);
}

/* Listens before the first listing, so that no event falls in between. */
static int watch_open(struct watch *w)
{
    char err[200];

    w->mon = glmux_gpu_monitor_open(err, sizeof(err));
    if (w->mon == NULL)
        return watch_fail(err);
    if (!glmux_gpu_list_enumerate(&w->now))
        return watch_fail("out of memory while enumerating GPUs");
    return GLMUX_EXIT_OK;
}

int glmux_cli_gpus_watch(bool json)
{
    struct watch w;
    struct sigaction sa;
    sigset_t block, wait_mask;
    int rc;

    memset(&w, 0, sizeof(w));
    w.json = json;
    w.now.default_index = w.before.default_index = -1;
    if (!glmux_vendor_list_discover(&w.vl)) {
        fprintf(stderr, "glmux: out of memory\n");
        return GLMUX_EXIT_FAIL;
    }
    /* SIGINT and SIGTERM end the loop, delivered only inside ppoll (no race with the flag);
     * a closed stdout is seen as an error, not as SIGPIPE. */
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, &wait_mask);
    sigdelset(&wait_mask, SIGINT);
    sigdelset(&wait_mask, SIGTERM);

    rc = watch_open(&w);
    if (rc == GLMUX_EXIT_OK && print_start(&w)) {
        struct pollfd fds[2] = {
            { glmux_gpu_monitor_fd(w.mon), POLLIN, 0 },
            { STDOUT_FILENO, 0, 0 },   /* POLLERR/POLLHUP: the reader went away */
        };
        char cause[256];

        while (!stop_signal) {
            int n = ppoll(fds, 2, NULL, &wait_mask);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                rc = watch_fail(strerror(errno));
                break;
            }
            if (fds[1].revents & (POLLERR | POLLHUP | POLLNVAL))
                break;
            if (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
                rc = watch_fail("udev's event socket closed");
                break;
            }
            if (!(fds[0].revents & POLLIN))
                continue;
            /* A GPU plugged in comes as several events: one enumeration for all waiting. */
            if (glmux_gpu_monitor_drain(w.mon, cause, sizeof(cause)) == 0)
                continue;
            rc = update(&w, cause);
            if (rc != GLMUX_EXIT_OK || !flush_out())
                break;   /* out of memory (said), or stdout is gone */
        }
    }
    watch_free(&w);
    return rc;
}
