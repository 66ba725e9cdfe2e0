/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: stops a program that draws until told to (glxgears) right after its first
 * "N frames in S seconds" report, so that what glmux's layers report can be compared with the
 * frames the program itself says it drew. glxgears prints the report and fflush()es it right
 * after the swap that crosses its 5-second mark, then goes back to its event loop, where an
 * Escape KeyPress makes it return from main (exit handlers run: the call counter writes). So:
 * the program's standard output is a pipe shrunk to one page and filled before it starts; its
 * first report blocks in that fflush, before the next event check. While it is blocked there
 * (its main thread in write(1), read from /proc/PID/syscall), this harness checks its loaded
 * path (/proc/PID/maps: each --lib file mapped, each --mapped name mapped), sends an Escape
 * KeyPress to its window (XSendEvent: glxgears does not look at send_event), waits until the X
 * server has sent it on (two round trips), and only then drains the pipe: the program returns to its event
 * loop, reads Escape and exits, having drawn exactly the frames of its one report. Then: the
 * program exited 0 and printed one report of N frames; each --calls NAME (default
 * glXSwapBuffers) has the count N in the call counter's file (GLMUX_CALL_COUNT_FILE); the
 * frame-time log (GLMUX_FRAMETIME_LOG) has a header and N lines, the last one frame N. No
 * timing is asserted. In a sanitized build the harness puts the sanitizer runtime it was linked
 * with into the program's LD_PRELOAD (an uninstrumented program loads our instrumented
 * libraries). Used by run_layer_programs.sh (build tree) and tests/packaging/check_debs.sh
 * (the packages).
 * Usage: layer_gears_frames [--lib FILE]... [--mapped NAME]... [--calls NAME]... [--window NAME]
 *        -- PROGRAM [ARGS...]
 * The harness adds "-geometry 64x64+X+Y" (X, Y from its pid) to the program's arguments and
 * looks for the top-level window named NAME (default: the program's base name) at that place,
 * so that other programs' windows on the same display are never sent the key. DISPLAY, or the
 * Xvfb fixture's "one" display (GLMUX_TEST_XVFB_DIR).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>

#include "glmux_test.h"

#define MAX_ITEMS 16
#define WATCHDOG_S 120 /* to the first report, and from the Escape to the exit */

static pid_t child = -1;

/* Every way out of the harness (CHECK fails, SKIP) takes the program down with it. */
static void kill_child(void)
{
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        child = -1;
    }
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static void use_display(void)
{
    char display[64];

    if (glmux_test_xvfb_display("one", display, sizeof(display)))
        setenv("DISPLAY", display, 1);
    else if (!getenv("DISPLAY"))
        SKIP("no DISPLAY and no Xvfb fixture (GLMUX_TEST_XVFB_DIR)");
}

/*
 * The sanitizer runtime this harness was linked with, put in front of the program's LD_PRELOAD.
 * With AddressSanitizer, the program's leak check is off (this harness keeps its own: the
 * options were read when it started): Mesa dlcloses its driver at XCloseDisplay, and a block
 * the driver keeps only in its own globals then looks leaked, from an unmapped module that no
 * suppression can name. A program of ours keeps the driver mapped instead
 * (glmux_test_keep_drivers); glxgears is not ours.
 */
static void preload_sanitizer(void)
{
    static const char *const runtimes[] = { "libclang_rt.asan",  "libclang_rt.tsan",
                                            "libclang_rt.ubsan", "libasan.so",
                                            "libtsan.so",        "libubsan.so" };
    char line[PATH_MAX + 256];
    FILE *maps = fopen("/proc/self/maps", "r");
    CHECK(maps != NULL);
    while (fgets(line, sizeof line, maps)) {
        char *path = strchr(line, '/');
        if (!path)
            continue;
        path[strcspn(path, "\n")] = '\0';
        const char *base = strrchr(path, '/') + 1;
        for (size_t i = 0; i < sizeof runtimes / sizeof runtimes[0]; i++) {
            if (strncmp(base, runtimes[i], strlen(runtimes[i])) != 0)
                continue;
            const char *old = getenv("LD_PRELOAD");
            char *value = NULL;
            CHECK(asprintf(&value, "%s%s%s", path, old && *old ? ":" : "", old ? old : "") > 0);
            setenv("LD_PRELOAD", value, 1);
            printf("sanitized build: LD_PRELOAD=%s for the program\n", value);
            free(value);
            if (strstr(base, "asan")) {
                const char *lsan = getenv("LSAN_OPTIONS");
                CHECK(asprintf(&value, "%s%sdetect_leaks=0", lsan ? lsan : "",
                               lsan && *lsan ? ":" : "") > 0);
                setenv("LSAN_OPTIONS", value, 1);
                printf("sanitized build: LSAN_OPTIONS=%s for the program\n", value);
                free(value);
            }
            fclose(maps);
            return;
        }
    }
    fclose(maps);
}

/*
 * The main thread of pid is blocked in write(1, ...): /proc/PID/syscall says so (the program is
 * this process's child, which ptrace's rules let it read). A kernel or a policy that does not
 * let it read the file skips the test.
 */
static int blocked_in_stdout_write(pid_t pid)
{
    char path[64], text[256];
    long nr = -1;
    unsigned long fd = 0;
    snprintf(path, sizeof path, "/proc/%ld/syscall", (long)pid);
    int f = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = f < 0 ? -1 : read(f, text, sizeof text - 1);
    int err = errno;
    if (f >= 0)
        close(f);
    if (n < 0 && (err == ENOENT || err == EACCES || err == EPERM))
        SKIP("cannot read %s (%s): no way to see the program block in its report; "
             "see kernel.yama.ptrace_scope",
             path, strerror(err));
    CHECK_MSG(n > 0, "cannot read %s: %s", path, strerror(err));
    text[n] = '\0';
    return sscanf(text, "%ld %lx", &nr, &fd) == 2 && nr == SYS_write && fd == 1;
}

/* The files mapped in pid, one path a line (the kernel's, symbolic links resolved). */
static char *mapped_files(pid_t pid)
{
    char path[64], line[PATH_MAX + 256];
    size_t size = 0;
    char *all = NULL;
    snprintf(path, sizeof path, "/proc/%ld/maps", (long)pid);
    FILE *maps = fopen(path, "r");
    CHECK_MSG(maps != NULL, "cannot read %s: %s", path, strerror(errno));
    FILE *out = open_memstream(&all, &size);
    CHECK(out != NULL);
    while (fgets(line, sizeof line, maps)) {
        const char *file = strchr(line, '/');
        if (file)
            fputs(file, out);
    }
    fclose(maps);
    fclose(out);
    return all;
}

static int has_line(const char *text, const char *line)
{
    size_t len = strlen(line);
    for (const char *p = text; (p = strstr(p, line)) != NULL; p += len)
        if ((p == text || p[-1] == '\n') && p[len] == '\n')
            return 1;
    return 0;
}

static void check_loaded(pid_t pid, char **libs, int nlibs, char **names, int nnames)
{
    char *maps = mapped_files(pid), real[PATH_MAX];
    for (int i = 0; i < nlibs; i++) {
        CHECK_MSG(realpath(libs[i], real) != NULL, "%s: %s", libs[i], strerror(errno));
        CHECK_MSG(has_line(maps, real), "the program did not map %s (%s)", libs[i], real);
        printf("loaded: %s\n", real);
    }
    for (int i = 0; i < nnames; i++) {
        const char *found = NULL;
        for (const char *p = maps; *p && !found; p = strchr(p, '\n') + 1) {
            const char *end = strchr(p, '\n'), *base = p;
            for (const char *q = p; q < end; q++)
                if (*q == '/')
                    base = q + 1;
            if (strncmp(base, names[i], strlen(names[i])) == 0)
                found = p;
        }
        CHECK_MSG(found != NULL, "the program did not map a %s", names[i]);
        printf("loaded: %.*s\n", (int)(strchr(found, '\n') - found), found);
    }
    free(maps);
}

static Window find_window(Display *dpy, const char *name, int x, int y)
{
    Window root = DefaultRootWindow(dpy), parent, *kids = NULL, found = None;
    unsigned int n = 0;
    CHECK(XQueryTree(dpy, root, &root, &parent, &kids, &n));
    for (unsigned int i = 0; i < n && found == None; i++) {
        char *title = NULL;
        Window r;
        int wx, wy;
        unsigned int w, h, border, depth;
        if (XFetchName(dpy, kids[i], &title) && title && strcmp(title, name) == 0 &&
            XGetGeometry(dpy, kids[i], &r, &wx, &wy, &w, &h, &border, &depth) && wx == x && wy == y)
            found = kids[i];
        XFree(title);
    }
    XFree(kids);
    return found;
}

static void send_escape(Display *dpy, Window win)
{
    XEvent ev;
    memset(&ev, 0, sizeof ev);
    ev.xkey.type = KeyPress;
    ev.xkey.display = dpy;
    ev.xkey.window = win;
    ev.xkey.root = DefaultRootWindow(dpy);
    ev.xkey.subwindow = None;
    ev.xkey.time = CurrentTime;
    ev.xkey.x = ev.xkey.y = ev.xkey.x_root = ev.xkey.y_root = 1;
    ev.xkey.keycode = XKeysymToKeycode(dpy, XK_Escape);
    ev.xkey.same_screen = True;
    CHECK_MSG(ev.xkey.keycode != 0, "the display has no Escape key");
    CHECK(XSendEvent(dpy, win, False, KeyPressMask, &ev));
    /*
     * The first round trip: the server has handled the event. The second: the server has
     * written out what that first round gave every client, the event to the program's
     * connection included, whatever order it wrote them in.
     */
    XSync(dpy, False);
    XSync(dpy, False);
}

/* The program's output after the filler, read to its end (the program exits). */
static char *drain(int fd, size_t filler)
{
    size_t size = 0, skipped = 0;
    char *all = NULL, buf[4096];
    FILE *out = open_memstream(&all, &size);
    CHECK(out != NULL);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        struct pollfd p = { fd, POLLIN, 0 };
        clock_gettime(CLOCK_MONOTONIC, &now);
        CHECK_MSG(now.tv_sec - start.tv_sec < WATCHDOG_S,
                  "the program did not exit within %d s of the Escape key", WATCHDOG_S);
        int r = poll(&p, 1, 1000);
        if (r == 0)
            continue;
        if (r < 0 && errno == EINTR)
            continue;
        CHECK(r > 0);
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        CHECK(n >= 0);
        if (n == 0)
            break;
        size_t skip = skipped < filler ? filler - skipped : 0;
        if (skip > (size_t)n)
            skip = (size_t)n;
        skipped += skip;
        fwrite(buf + skip, 1, (size_t)n - skip, out);
    }
    fclose(out);
    CHECK_MSG(skipped == filler, "the pipe gave back %zu of the %zu filler bytes", skipped, filler);
    return all;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s: %s", path, strerror(errno));
    size_t size = 0;
    char *all = NULL, buf[4096];
    FILE *out = open_memstream(&all, &size);
    CHECK(out != NULL);
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;)
        fwrite(buf, 1, n, out);
    fclose(f);
    fclose(out);
    return all;
}

/* The count of name in the call counter's report ("COUNT NAME" lines), or -1. */
static long long call_count(const char *report, const char *name)
{
    for (const char *p = report; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        long long count;
        int end = 0;
        char fn[256];
        if (sscanf(p, "%lld %255s%n", &count, fn, &end) == 2 && strcmp(fn, name) == 0 &&
            (p[end] == '\n' || p[end] == '\0'))
            return count;
    }
    return -1;
}

int main(int argc, char **argv)
{
    char *libs[MAX_ITEMS], *names[MAX_ITEMS], *calls[MAX_ITEMS];
    int nlibs = 0, nnames = 0, ncalls = 0, i = 1;
    const char *window = NULL;
    for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
        CHECK_MSG(i + 1 < argc, "%s needs a value", argv[i]);
        if (strcmp(argv[i], "--lib") == 0 && nlibs < MAX_ITEMS)
            libs[nlibs++] = argv[i + 1];
        else if (strcmp(argv[i], "--mapped") == 0 && nnames < MAX_ITEMS)
            names[nnames++] = argv[i + 1];
        else if (strcmp(argv[i], "--calls") == 0 && ncalls < MAX_ITEMS)
            calls[ncalls++] = argv[i + 1];
        else if (strcmp(argv[i], "--window") == 0)
            window = argv[i + 1];
        else
            CHECK_MSG(0, "unknown option %s", argv[i]);
    }
    CHECK_MSG(i + 1 < argc,
              "usage: %s [--lib FILE]... [--mapped NAME]... [--calls NAME]... "
              "[--window NAME] -- PROGRAM [ARGS...]",
              argv[0]);
    char **prog = argv + i + 1;
    if (!window)
        window = strrchr(prog[0], '/') ? strrchr(prog[0], '/') + 1 : prog[0];
    if (ncalls == 0)
        calls[ncalls++] = "glXSwapBuffers";
    const char *count_file = getenv("GLMUX_CALL_COUNT_FILE");
    const char *frame_log = getenv("GLMUX_FRAMETIME_LOG");
    CHECK_MSG(count_file && *count_file && frame_log && *frame_log,
              "set GLMUX_CALL_COUNT_FILE and GLMUX_FRAMETIME_LOG (the layers' reports)");
    setvbuf(stdout, NULL, _IOLBF, 0);
    use_display();
    Display *dpy = XOpenDisplay(NULL);
    CHECK_MSG(dpy != NULL, "cannot open the display %s", getenv("DISPLAY"));

    /* The pipe: one page, full, so that the program's first write to it blocks. */
    int fds[2];
    CHECK(pipe2(fds, O_CLOEXEC) == 0);
    int page = (int)sysconf(_SC_PAGESIZE);
    CHECK_MSG(fcntl(fds[1], F_SETPIPE_SZ, page) == page, "F_SETPIPE_SZ: %s", strerror(errno));
    CHECK(fcntl(fds[1], F_SETFL, O_NONBLOCK) == 0);
    size_t filler = 0;
    char fill[512];
    memset(fill, '.', sizeof fill);
    for (ssize_t n; (n = write(fds[1], fill, sizeof fill)) != 0;) {
        if (n < 0) {
            CHECK_MSG(errno == EAGAIN, "filling the pipe: %s", strerror(errno));
            break;
        }
        filler += (size_t)n;
    }
    CHECK(fcntl(fds[1], F_SETFL, 0) == 0);
    printf("stdout: a pipe of %d bytes, %zu of them filled\n", page, filler);

    /* The program, at a place of its own, with the sanitizer runtime in a sanitized build. */
    int x = 16 + (int)(getpid() % 1021), y = 16 + (int)(getpid() / 1021 % 509);
    char geometry[64];
    snprintf(geometry, sizeof geometry, "64x64+%d+%d", x, y);
    int nprog = argc - i - 1;
    char **args = calloc((size_t)nprog + 3, sizeof *args);
    CHECK(args != NULL);
    memcpy(args, prog, (size_t)nprog * sizeof *args);
    args[nprog] = "-geometry";
    args[nprog + 1] = geometry;
    preload_sanitizer();
    atexit(kill_child);
    fflush(NULL);
    child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        dup2(fds[1], STDOUT_FILENO);
        execvp(args[0], args);
        fprintf(stderr, "cannot run %s: %s\n", args[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    printf("running:");
    for (char **a = args; *a; a++)
        printf(" %s", *a);
    printf("\n");

    /* Until it blocks in its first report's fflush. */
    int waited_ms = 0;
    while (!blocked_in_stdout_write(child)) {
        int status;
        if (waitpid(child, &status, WNOHANG) == child) {
            child = -1;
            CHECK_MSG(0, "%s ended (status 0x%x) before its first report", args[0], status);
        }
        CHECK_MSG(waited_ms < WATCHDOG_S * 1000, "%s wrote no report in %d s", args[0], WATCHDOG_S);
        sleep_ms(20);
        waited_ms += 20;
    }
    printf("%s blocked in its first report after %.1f s\n", args[0], waited_ms / 1000.0);
    check_loaded(child, libs, nlibs, names, nnames);
    Window win = find_window(dpy, window, x, y);
    CHECK_MSG(win != None, "no window named \"%s\" at %d,%d", window, x, y);
    send_escape(dpy, win);
    printf("sent Escape to window 0x%lx\n", (unsigned long)win);

    char *out = drain(fds[0], filler);
    close(fds[0]);
    int status;
    CHECK(waitpid(child, &status, 0) == child);
    child = -1;
    printf("--- %s's output\n%s---\n", args[0], out);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: status 0x%x", args[0], status);
    long long frames = -1;
    int reports = 0;
    for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        long long n;
        float seconds;
        if (sscanf(p, "%lld frames in %f seconds", &n, &seconds) == 2) {
            frames = n;
            reports++;
        }
    }
    CHECK_MSG(reports == 1, "%d reports, not one: the program was not stopped after its first",
              reports);
    CHECK(frames > 0);

    char *counts = read_file(count_file);
    printf("--- call counter (%s), the first lines\n%.600s---\n", count_file, counts);
    for (int c = 0; c < ncalls; c++) {
        long long n = call_count(counts, calls[c]);
        CHECK_MSG(n == frames, "the call counter counted %lld %s for the %lld frames reported", n,
                  calls[c], frames);
    }
    char *log = read_file(frame_log);
    long long lines = 0, last = -1;
    CHECK_MSG(strncmp(log, "frame,", 6) == 0, "the frame-time log has no header line");
    for (const char *p = strchr(log, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        lines++;
        last = atoll(p + 1);
    }
    CHECK_MSG(lines == frames && last == frames,
              "the frame-time log has %lld lines (the last one frame %lld) for the %lld frames "
              "reported",
              lines, last, frames);
    printf("ok: %s reported %lld frames; the call counter counted %lld", args[0], frames, frames);
    for (int c = 0; c < ncalls; c++)
        printf(" %s", calls[c]);
    printf("; the frame-time log has %lld lines\n", lines);
    free(counts);
    free(log);
    free(out);
    free(args);
    XCloseDisplay(dpy);
    return 0;
}
