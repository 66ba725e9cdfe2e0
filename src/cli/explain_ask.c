/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: `glmux explain` asks libGLX what it decides for each X screen, and libEGL which
 * vendor owns the default display, instead of re-coding their rules (docs/architecture.md,
 * "How explain asks the libraries"). For libGLX, a child process
 * loads libGLX.so.0 as a program started here would (LD_LIBRARY_PATH, then, in the build tree
 * only, the tool's build RUNPATH, then the loader's cache), asks it for its private entry
 * (glXGetProcAddress(GLMUX_GLX_EXPLAIN_NAME), glx/glx_explain.h: no exported name), opens
 * DISPLAY and has libGLX's own walk decide each screen: its plan, its GLX_EXT_libglvnd gate,
 * the X server's vendor names, each vendor loaded and asked isScreenSupported. The records come
 * back through a pipe. The child runs the vendors' code, so a vendor that crashes or hangs
 * costs the child, not the tool, and nothing a vendor loaded stays in the tool. Before libGLX
 * loads a vendor the child asks may_load: a vendor whose library is installed and that drives
 * a runtime-suspended GPU is not loaded (it would wake the GPU); libGLX then stops there and
 * the screen is reported undecided, with the step not taken and why. For libEGL, another child
 * loads libEGL.so.1 the same way and runs its eglGetDisplay(EGL_DEFAULT_DISPLAY) through its
 * private entry (egl/egl_explain.h); libEGL loads all its vendors at its first call, so it is
 * not asked at all when one of them would wake a sleeping GPU.
 */
#define _GNU_SOURCE
#include "explain_ask.h"
#include "cli.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libcheck.h"
#include "select/select.h"
#include "select/x11_libs.h"
#include "util/env.h"
#include "util/file.h"

#define CHILD_TIMEOUT_MS 60000

/* What the child writes first; then `screens` records when state is ASKED. */
struct header {
    int32_t state;
    int32_t screens;
    char why[512];
    char library[512];
};

struct ctx {
    struct glmux_select *sel;
    const struct glmux_vendor_list *glx_vl;
};

/* False when lib (vendor v's, or a vendor of that name known to no manifest) is installed and
 * drives a GPU that is runtime-suspended: loading it could wake the GPU. */
static bool wakes_nothing(struct glmux_select *sel, const char *vendor,
                          const struct glmux_vendor *v, const char *lib, char *why,
                          size_t why_size)
{
    struct glmux_vendor fake = { .name = (char *)vendor };
    struct glmux_select_candidate cand;
    const struct glmux_gpu_list *l;
    char found[512], err[256];

    /* A library that is not there wakes nothing: the library tries it and says why it failed. */
    if (glmux_cli_libcheck(lib, found, sizeof(found), err, sizeof(err)) != GLMUX_LIBCHECK_OK)
        return true;
    cand = glmux_select_candidate_of(v != NULL ? v : &fake);
    l = glmux_select_gpus(sel);
    for (size_t i = 0; l != NULL && i < l->count; i++) {
        const struct glmux_gpu *g = &l->gpus[i];

        if (strcmp(g->power, "suspended") == 0 && glmux_select_candidate_serves(&cand, g)) {
            snprintf(why, why_size, "%s drives GPU %s (driver %s), which is asleep (runtime "
                     "suspended): loading the vendor could wake it, so explain does not; a "
                     "program would try it here", found, g->tag, g->driver[0] ? g->driver
                     : "none");
            return false;
        }
    }
    return true;
}

/* libGLX asks before it loads vendor: false for an installed vendor of a sleeping GPU. */
static bool may_load(const char *vendor, char *why, size_t why_size, void *arg)
{
    struct ctx *c = arg;
    const struct glmux_vendor *v = glmux_vendor_list_find(c->glx_vl, vendor);
    char lib[256];

    if (v != NULL && v->glx_library != NULL)
        snprintf(lib, sizeof(lib), "%s", v->glx_library);
    else
        snprintf(lib, sizeof(lib), "libGLX_%s.so.0", vendor);
    return wakes_nothing(c->sel, vendor, v, lib, why, why_size);
}

/* The file the loader opened for handle ("" when it does not say). */
static void library_path(void *handle, char *out, size_t size)
{
    struct link_map *lm = NULL;

    out[0] = '\0';
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm != NULL && lm->l_name != NULL)
        snprintf(out, size, "%s", lm->l_name);
}

/*
 * The child's standard error goes nowhere: what the libraries would warn a program about
 * (a vendor that does not load, the selector's warnings, said by the tool already) is in
 * their record, and explain says it once. GLMUX_DEBUG_FILE still gets their log.
 */
static void quiet_child(void)
{
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

    if (null >= 0) {
        dup2(null, STDERR_FILENO);
        close(null);
    }
}

static void child(int fd, struct ctx *c)
{
    typedef void *(*gpa_fn)(const unsigned char *);
    typedef void *(*open_fn)(const char *);
    typedef int (*count_fn)(void *);
    const char *display = glmux_env_get("DISPLAY");
    struct glmux_glx_explain_request req = { sizeof(req), may_load, c };
    struct glmux_glx_explain_screen *rec;
    struct header h;
    glmux_glx_explain_fn explain = NULL;
    gpa_fn gpa = NULL;
    open_fn xopen = NULL;
    count_fn count = NULL;
    void *glx, *dpy;

    quiet_child();
    memset(&h, 0, sizeof(h));
    h.state = GLMUX_CLI_GLX_NOT_ASKED;
    h.screens = -1;
    if (display == NULL || *display == '\0') {
        h.state = GLMUX_CLI_GLX_NO_DISPLAY;
        snprintf(h.why, sizeof(h.why), "DISPLAY is not set");
        goto out;
    }
    glx = dlopen("libGLX.so.0", RTLD_NOW | RTLD_LOCAL);
    if (glx == NULL) {
        const char *e = dlerror();

        snprintf(h.why, sizeof(h.why), "libGLX.so.0 cannot be loaded (%s)", e ? e : "?");
        goto out;
    }
    library_path(glx, h.library, sizeof(h.library));
    *(void **)&gpa = dlsym(glx, "glXGetProcAddressARB");
    /* libglvnd's answers every name (with a dispatch stub): ask only a library of glmux's. */
    if (gpa != NULL && glmux_cli_is_glmux_library(h.library))
        *(void **)&explain = gpa((const unsigned char *)GLMUX_GLX_EXPLAIN_NAME);
    if (explain == NULL) {
        snprintf(h.why, sizeof(h.why), "%.300s is not glmux's libGLX of this version "
                 "(libglvnd's?): "
                 "it cannot be asked for its decision; `glmux check` says which libraries a "
                 "program started here loads", h.library);
        goto out;
    }
    *(void **)&xopen = glmux_x11_sym(GLMUX_X11_LIB_X11, "XOpenDisplay");
    *(void **)&count = glmux_x11_sym(GLMUX_X11_LIB_X11, "XScreenCount");
    /* The name as read here: XOpenDisplay(NULL) would read DISPLAY itself, even when setuid. */
    dpy = xopen != NULL && count != NULL ? xopen(display) : NULL;
    if (dpy == NULL) {
        h.state = GLMUX_CLI_GLX_NO_DISPLAY;
        snprintf(h.why, sizeof(h.why), "DISPLAY=%s cannot be opened", display);
        goto out;
    }
    h.state = GLMUX_CLI_GLX_ASKED;
    h.screens = count(dpy);
    if (!glmux_file_write_all(fd, &h, sizeof(h)) || (rec = calloc(1, sizeof(*rec))) == NULL)
        _exit(1);
    for (int s = 0; s < h.screens; s++) {
        if (!explain(dpy, s, &req, rec)) {
            memset(rec, 0, sizeof(*rec));   /* nothing of a refused answer is sent */
            rec->decided = false;
        }
        if (!glmux_file_write_all(fd, rec, sizeof(*rec)))
            _exit(1);
    }
    /* No XCloseDisplay, no destructors: _exit leaves the vendors as they are. */
    _exit(0);
out:
    _exit(glmux_file_write_all(fd, &h, sizeof(h)) ? 0 : 1);
}

/* Reads n bytes, waiting at most until deadline (CLOCK_MONOTONIC, ms). */
static bool read_all(int fd, void *buf, size_t n, long long deadline)
{
    char *p = buf;

    while (n > 0) {
        struct pollfd pfd = { fd, POLLIN, 0 };
        struct timespec now;
        long long left;
        ssize_t r;

        clock_gettime(CLOCK_MONOTONIC, &now);
        left = deadline - ((long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
        if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
            return false;
        r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

/* Why the child that asked lib gave no answer (it is waited for; killed when timed out). */
static void child_failed(char *why, size_t size, pid_t pid, bool late, const char *lib)
{
    int status = 0;

    if (late)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (late)
        snprintf(why, size, "%s did not answer within %d s (a vendor or the display server "
                 "hangs); run a program with GLMUX_DEBUG=vendor", lib, CHILD_TIMEOUT_MS / 1000);
    else if (WIFSIGNALED(status))
        snprintf(why, size, "the process that asked %s died of signal %d (%s) while it "
                 "decided; a program would crash there too; run one with GLMUX_DEBUG=vendor",
                 lib, WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(why, size, "the process that asked %s ended early (exit status %d)", lib,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static bool timed_out(long long deadline)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000 >= deadline;
}

bool glmux_cli_glx_ask(struct glmux_select *sel, const struct glmux_vendor_list *glx_vl,
                       struct glmux_cli_glx_answer *a)
{
    struct ctx c = { sel, glx_vl };
    struct header h;
    struct timespec now;
    long long deadline;
    int fds[2], status;
    pid_t pid;

    memset(a, 0, sizeof(*a));
    a->screens = -1;
    a->state = GLMUX_CLI_GLX_NOT_ASKED;
    if (pipe2(fds, O_CLOEXEC) != 0 || (pid = fork()) < 0) {
        snprintf(a->why, sizeof(a->why), "cannot start the process that asks libGLX (%s)",
                 strerror(errno));
        return true;
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], &c);
    }
    close(fds[1]);
    clock_gettime(CLOCK_MONOTONIC, &now);
    deadline = (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000 + CHILD_TIMEOUT_MS;
    if (!read_all(fds[0], &h, sizeof(h), deadline)) {
        child_failed(a->why, sizeof(a->why), pid, timed_out(deadline), "libGLX");
        close(fds[0]);
        return true;
    }
    h.why[sizeof(h.why) - 1] = h.library[sizeof(h.library) - 1] = '\0';
    memcpy(a->why, h.why, sizeof(a->why));
    memcpy(a->library, h.library, sizeof(a->library));
    a->state = (enum glmux_cli_glx_state)h.state;
    a->screens = h.state == GLMUX_CLI_GLX_ASKED && h.screens >= 0 && h.screens < 256
                     ? h.screens : -1;
    if (a->screens >= 0) {
        a->screen = calloc((size_t)a->screens + 1, sizeof(*a->screen));
        if (a->screen == NULL) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            close(fds[0]);
            return false;
        }
        for (int s = 0; s < a->screens; s++) {
            if (!read_all(fds[0], &a->screen[s], sizeof(a->screen[s]), deadline)) {
                child_failed(a->why, sizeof(a->why), pid, timed_out(deadline), "libGLX");
                a->state = GLMUX_CLI_GLX_NOT_ASKED;
                a->screens = -1;
                free(a->screen);
                a->screen = NULL;
                close(fds[0]);
                return true;
            }
        }
    }
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return true;
}

void glmux_cli_glx_answer_free(struct glmux_cli_glx_answer *a)
{
    free(a->screen);
    a->screen = NULL;
}

/* What the EGL child writes: whether it asked, why not, the library, the record. */
struct egl_message {
    int32_t asked;
    char why[512];
    char library[512];
    struct glmux_egl_explain_display display;
};

static void egl_child(int fd, struct glmux_select *sel, const struct glmux_vendor_list *vl)
{
    typedef void *(*gpa_fn)(const char *);
    struct egl_message *m = calloc(1, sizeof(*m));
    glmux_egl_explain_fn explain = NULL;
    gpa_fn gpa = NULL;
    void *egl;

    if (m == NULL)
        _exit(1);
    quiet_child();
    for (size_t i = 0; i < vl->count; i++) {
        const struct glmux_vendor *v = &vl->vendors[i];
        char why[384];

        if (v->egl_library != NULL &&
            !wakes_nothing(sel, v->name, v, v->egl_library, why, sizeof(why))) {
            snprintf(m->why, sizeof(m->why), "libEGL loads every EGL vendor at its first call, "
                     "and vendor \"%s\": %s", v->name, why);
            _exit(glmux_file_write_all(fd, m, sizeof(*m)) ? 0 : 1);
        }
    }
    egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (egl == NULL) {
        const char *e = dlerror();

        snprintf(m->why, sizeof(m->why), "libEGL.so.1 cannot be loaded (%s)", e ? e : "?");
        _exit(glmux_file_write_all(fd, m, sizeof(*m)) ? 0 : 1);
    }
    library_path(egl, m->library, sizeof(m->library));
    *(void **)&gpa = dlsym(egl, "eglGetProcAddress");
    if (gpa != NULL && glmux_cli_is_glmux_library(m->library))
        *(void **)&explain = gpa(GLMUX_EGL_EXPLAIN_NAME);
    if (explain == NULL) {
        snprintf(m->why, sizeof(m->why), "%.300s is not glmux's libEGL of this version "
                 "(libglvnd's?): it cannot be asked for its decision", m->library);
        _exit(glmux_file_write_all(fd, m, sizeof(*m)) ? 0 : 1);
    }
    m->asked = explain(&m->display);
    /* No destructors: _exit leaves the vendors as they are. */
    _exit(glmux_file_write_all(fd, m, sizeof(*m)) ? 0 : 1);
}

bool glmux_cli_egl_ask(struct glmux_select *sel, const struct glmux_vendor_list *vl,
                       struct glmux_cli_egl_answer *a)
{
    struct egl_message *m = calloc(1, sizeof(*m));
    struct timespec now;
    long long deadline;
    int fds[2];
    pid_t pid;

    memset(a, 0, sizeof(*a));
    if (m == NULL)
        return false;
    if (pipe2(fds, O_CLOEXEC) != 0 || (pid = fork()) < 0) {
        snprintf(a->why, sizeof(a->why), "cannot start the process that asks libEGL (%s)",
                 strerror(errno));
        free(m);
        return true;
    }
    if (pid == 0) {
        close(fds[0]);
        egl_child(fds[1], sel, vl);
    }
    close(fds[1]);
    clock_gettime(CLOCK_MONOTONIC, &now);
    deadline = (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000 + CHILD_TIMEOUT_MS;
    if (!read_all(fds[0], m, sizeof(*m), deadline)) {
        child_failed(a->why, sizeof(a->why), pid, timed_out(deadline), "libEGL");
    } else {
        int status;

        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        m->why[sizeof(m->why) - 1] = m->library[sizeof(m->library) - 1] = '\0';
        a->asked = m->asked != 0;
        memcpy(a->why, m->why, sizeof(a->why));
        memcpy(a->library, m->library, sizeof(a->library));
        a->display = m->display;
        a->display.library[sizeof(a->display.library) - 1] = '\0';
    }
    close(fds[0]);
    free(m);
    return true;
}
