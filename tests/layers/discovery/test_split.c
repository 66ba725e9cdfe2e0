/* SPDX-License-Identifier: MIT */
/*
 * glmux layer tests: the folder says the kind (docs/layers.md, "Folders and order"). The
 * user's, the administrators' and the packages' layers lie in implicit_layer.d and
 * explicit_layer.d, and a program reads the explicit folders only when GLMUX_LAYERS or
 * GLMUX_LAYERS_ENABLE can switch an explicit layer on. Proved with an inotify watch on the
 * explicit folders, which hold a FIFO and an unreadable, broken manifest: nothing asks, nothing
 * is opened there and nothing said about them (with the layer messages on, and, in --quick,
 * with GLMUX_DEBUG unset: not a byte on standard error); asked, they are read. Also: what can
 * and cannot ask, secure execution (never read), a manifest whose "type" disagrees with its
 * folder (skipped, one message saying where it belongs), a name of both kinds (the implicit
 * one wins either way), and the tool's scan, which reads the explicit folders always.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discovery.h"
#include "glmux_test.h"

/* ---- proof that a folder was not opened ---- */

/* An inotify watch for opens and reads of the folders and of what they hold; -1 where inotify
 * is not available (then only what the scans found is checked). */
static int watch_open(char *const *dirs, size_t n)
{
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

    if (fd < 0) {
        printf("note: no inotify here (%s): opens of the explicit folders are not watched\n",
               strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(inotify_add_watch(fd, dirs[i], IN_OPEN | IN_ACCESS) >= 0, "%s: %s", dirs[i],
                  strerror(errno));
    return fd;
}

/* The opens and reads since the last call (0 without a watch); first names the first. */
static int watch_events(int fd, char *first, size_t size)
{
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    int count = 0;
    ssize_t n;

    snprintf(first, size, "-");
    if (fd < 0)
        return 0;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *e = (const struct inotify_event *)(void *)p;

            if (count++ == 0)
                snprintf(first, size, "%s (mask %#x)", e->len > 0 ? e->name : "the folder",
                         e->mask);
            p += sizeof(*e) + e->len;
        }
    }
    CHECK_MSG(n < 0 && errno == EAGAIN, "reading the inotify watch: %s", strerror(errno));
    return count;
}

#define CHECK_UNOPENED(w, what)                                                              \
    do {                                                                                     \
        char first_[300];                                                                    \
        int n_ = watch_events(w, first_, sizeof(first_));                                    \
        CHECK_MSG(n_ == 0, "%s: an explicit folder was opened or read (%d events, first: %s)", \
                  what, n_, first_);                                                         \
    } while (0)

/* Hostile files for an explicit folder: reading it would report them. */
static void hostile_files(const char *fifo_dir, const char *broken_dir)
{
    char *p = path_in(fifo_dir, "zz_fifo.json");

    CHECK(mkfifo(p, 0644) == 0);
    free(p);
    p = path_in(broken_dir, "unreadable.json");
    write_file(p, "{\n", 0); /* mode 0, and broken for root too */
    free(p);
}

static void remove_files(const char *dir, const char *const *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *p = path_in(dir, files[i]);
        CHECK_MSG(unlink(p) == 0, "%s: %s", p, strerror(errno));
        free(p);
    }
}

/* The user's implicit and explicit folders under a fresh XDG_DATA_HOME. */
static void user_folders(const char *name, char **im, char **ex)
{
    char *xdg = make_dir(name), *p = path_in(xdg, "glmux");

    CHECK(mkdir(p, 0755) == 0);
    free(p);
    *im = path_in(xdg, "glmux/" GLMUX_LAYER_IMPLICIT_FOLDER);
    *ex = path_in(xdg, "glmux/" GLMUX_LAYER_EXPLICIT_FOLDER);
    CHECK(mkdir(*im, 0755) == 0 && mkdir(*ex, 0755) == 0);
    setvar("XDG_DATA_HOME", xdg);
    free(xdg);
}

/* The loader's scan. */
static void loader_scan(void)
{
    glmux_layers_scan_free(&scan);
    CHECK(glmux_layers_scan_mode(&fenv, &scan, false));
}

/* No layer of the explicit folders found, and those folders marked unread. */
static void check_explicit_unread(const char *what)
{
    CHECK_MSG(!scan.explicit_asked, "%s: explicit_asked", what);
    for (size_t i = 0; i < scan.n_folders; i++) {
        const struct glmux_layer_folder *f = &scan.folders[i];

        if (f->kind == GLMUX_LAYER_FOLDER_EXPLICIT)
            CHECK_MSG(f->unasked || f->ignored_secure, "%s: %s read", what, f->path);
        else
            CHECK_MSG(!f->unasked, "%s: %s not read", what, f->path);
    }
    for (size_t i = 0; i < scan.count; i++)
        CHECK_MSG(strstr(scan.layers[i].manifest, "/" GLMUX_LAYER_EXPLICIT_FOLDER "/") == NULL,
                  "%s: %s read", what, scan.layers[i].manifest);
}

static const struct glmux_layer_info *find_in(const char *name, const char *dir)
{
    for (size_t i = 0; i < scan.count; i++)
        if (scan.layers[i].name != NULL && strcmp(scan.layers[i].name, name) == 0 &&
            strncmp(scan.layers[i].manifest, dir, strlen(dir)) == 0)
            return &scan.layers[i];
    CHECK_MSG(false, "no layer %s from %s", name, dir);
    return NULL;
}

static const struct glmux_layer_info *find_manifest(const char *file)
{
    for (size_t i = 0; i < scan.count; i++) {
        const char *base = strrchr(scan.layers[i].manifest, '/');
        if (base != NULL && strcmp(base + 1, file) == 0)
            return &scan.layers[i];
    }
    return NULL;
}

void test_split(const char *good, const char *log_path)
{
    static const char *const sys_ex_files[] = { "unreadable.json", "wrong.json" };
    static const char *const pkg_ex_files[] = { "ex.json", "zz_fifo.json" };
    static const char *const pkg_im_files[] = { "im.json", "same.json" };
    static const struct {
        const char *var, *value;
    } cannot[] = {
        { "GLMUX_LAYERS", "" },
        { "GLMUX_LAYERS", " , :" },
        { "GLMUX_LAYERS_ENABLE", "" },
        { "GLMUX_LAYERS_ENABLE", "~implicit~" },
        { "GLMUX_LAYERS_DISABLE", "im_*" },
    }, can[] = {
        { "GLMUX_LAYERS", "ex_pkg" },
        { "GLMUX_LAYERS", "ghost" },          /* an unknown name: the scan looks for it */
        { "GLMUX_LAYERS_ENABLE", "~explicit~" },
        { "GLMUX_LAYERS_ENABLE", "~all~" },
        { "GLMUX_LAYERS_ENABLE", "~implicit~,ex_u*" },
    };
    const char *off = "\"disable_environment\": {\"IM_OFF\": \"1\"}";
    char *user_im, *user_ex, *dirs[3], *msgs, want[PATH_MAX + 128];
    struct glmux_layer_loaded *out;
    size_t mark, count;
    int w;

    reset_env();
    user_folders("xdg-split", &user_im, &user_ex);
    manifest(pkg_im, "im.json", "im_pkg", "implicit", good, off);
    manifest(pkg_ex, "ex.json", "ex_pkg", "explicit", good, "");
    manifest(user_ex, "ex.json", "ex_user", "explicit", good, "");
    /* A name of both kinds: the implicit folders come first, so the implicit one wins whether
     * or not the explicit folders are read. */
    manifest(user_ex, "same.json", "same", "explicit", good, "");
    manifest(pkg_im, "same.json", "same", "implicit", good, off);
    hostile_files(pkg_ex, sys_ex);
    /* Each of the wrong kind for its folder. */
    manifest(sys_im, "wrong.json", "wrong_ex", "explicit", good, "");
    manifest(sys_ex, "wrong.json", "wrong_im", "implicit", good, off);
    dirs[0] = user_ex;
    dirs[1] = sys_ex;
    dirs[2] = pkg_ex;
    w = watch_open(dirs, 3);

    /* Nothing asks for an explicit layer: the loader's scan leaves the explicit folders alone. */
    loader_scan();
    check_explicit_unread("nothing asks");
    CHECK_CHAIN("im_pkg,same");
    CHECK(find("ex_pkg") == NULL && find("ex_user") == NULL && find("wrong_im") == NULL);
    snprintf(want, sizeof(want), "move the manifest to %s/explicit_layer.d or correct", sysdir);
    CHECK_VERDICT("wrong_ex", GLMUX_LAYER_WRONG_FOLDER, want);
    CHECK_VERDICT("wrong_ex", GLMUX_LAYER_WRONG_FOLDER, "its \"type\" is \"explicit\", but ");
    CHECK_UNOPENED(w, "the loader's scan, nothing asks");

    /* The loader itself (its implicit layers switched off: the test layers' trace stays
     * test_load's): one message, for the misplaced manifest, none of the explicit folders'. */
    msgs = read_all(log_path);
    mark = strlen(msgs);
    free(msgs);
    setvar("IM_OFF", "1");
    CHECK(!glmux_layers_load_env(&fenv, &out, &count, test_get_next) && count == 0);
    setvar("IM_OFF", NULL);
    msgs = read_all(log_path);
    CHECK(strlen(msgs) >= mark);
    CHECK_MSG(glmux_test_count(msgs + mark, "wrong.json) skipped: its \"type\" is") == 1 &&
                  glmux_test_count(msgs + mark, "wrong.json") == 1,
              "want one message about the misplaced manifest:\n%s", msgs + mark);
    CHECK_MSG(strstr(msgs + mark, "explicit layer folders not read") != NULL, "%s", msgs + mark);
    CHECK_MSG(strstr(msgs + mark, "/" GLMUX_LAYER_EXPLICIT_FOLDER "/") == NULL &&
                  strstr(msgs + mark, "zz_fifo") == NULL &&
                  strstr(msgs + mark, "unreadable") == NULL,
              "a message about the explicit folders:\n%s", msgs + mark);
    free(msgs);
    CHECK_UNOPENED(w, "the loader, nothing asks");

    /* What cannot switch an explicit layer on. */
    for (size_t i = 0; i < sizeof(cannot) / sizeof(cannot[0]); i++) {
        setvar(cannot[i].var, cannot[i].value);
        loader_scan();
        snprintf(want, sizeof(want), "%s=\"%s\"", cannot[i].var, cannot[i].value);
        check_explicit_unread(want);
        CHECK_UNOPENED(w, want);
        setvar(cannot[i].var, NULL);
    }
    /* What can: the explicit folders are read. */
    for (size_t i = 0; i < sizeof(can) / sizeof(can[0]); i++) {
        char first[300];

        setvar(can[i].var, can[i].value);
        loader_scan();
        CHECK_MSG(scan.explicit_asked && find("ex_pkg") != NULL && find("ex_user") != NULL,
                  "%s=\"%s\": the explicit folders not read", can[i].var, can[i].value);
        CHECK_MSG(w < 0 || watch_events(w, first, sizeof(first)) > 0,
                  "%s=\"%s\": no open seen", can[i].var, can[i].value);
        setvar(can[i].var, NULL);
    }

    /* GLMUX_LAYERS names one: it loads; the hostile files and the other misplaced manifest are
     * found and judged; the explicit "same" is a duplicate of the implicit one. */
    setvar("GLMUX_LAYERS", "ex_pkg");
    loader_scan();
    CHECK_CHAIN("ex_pkg,im_pkg,same");
    snprintf(want, sizeof(want), "move the manifest to %s/implicit_layer.d or correct", sysdir);
    CHECK_VERDICT("wrong_im", GLMUX_LAYER_WRONG_FOLDER, want);
    CHECK(find_in("same", user_ex)->verdict == GLMUX_LAYER_DUPLICATE);
    CHECK(find_in("same", pkg_im)->verdict == GLMUX_LAYER_WOULD_LOAD);
    CHECK(find_manifest("zz_fifo.json") != NULL &&
          find_manifest("zz_fifo.json")->verdict == GLMUX_LAYER_BROKEN);
    CHECK(find_manifest("unreadable.json") != NULL &&
          find_manifest("unreadable.json")->verdict == GLMUX_LAYER_BROKEN);
    (void)watch_events(w, want, sizeof(want));

    /* Secure execution: GLMUX_LAYERS and GLMUX_LAYERS_ENABLE are ignored, so no explicit
     * folder is read (the user's are ignored besides). */
    setvar("GLMUX_LAYERS_ENABLE", "~all~");
    fake_secure = fenv.secure = true;
    fenv.trusted_uid = (unsigned)getuid();
    loader_scan();
    check_explicit_unread("secure execution");
    CHECK(scan.secure && find("ex_pkg") == NULL);
    for (size_t i = 0; i < scan.n_folders; i++)
        CHECK(strcmp(scan.folders[i].source, "user") != 0 || scan.folders[i].ignored_secure);
    CHECK_UNOPENED(w, "secure execution");
    fake_secure = fenv.secure = false;
    fenv.trusted_uid = 0;
    setvar("GLMUX_LAYERS_ENABLE", NULL);
    setvar("GLMUX_LAYERS", NULL);

    /* The tool's scan reads the explicit folders all the same, and knows a program would not. */
    do_scan();
    CHECK(!scan.explicit_asked);
    CHECK_VERDICT("ex_pkg", GLMUX_LAYER_OFF, "explicit layer");
    CHECK(must_find("wrong_im")->verdict == GLMUX_LAYER_WRONG_FOLDER);
    CHECK_CHAIN("im_pkg,same");
    for (size_t i = 0; i < scan.n_folders; i++)
        CHECK(!scan.folders[i].unasked);
    glmux_layers_scan_free(&scan);

    if (w >= 0)
        close(w);
    remove_files(sys_ex, sys_ex_files, 2);
    remove_files(pkg_ex, pkg_ex_files, 2);
    remove_files(pkg_im, pkg_im_files, 2);
    remove_files(sys_im, sys_ex_files + 1, 1);
    free(user_im);
    free(user_ex);
}

/*
 * With GLMUX_DEBUG unset: explicit layers installed in the three explicit folders, with a FIFO
 * and an unreadable manifest among them, and nothing asks: the loader answers "none" without a
 * scan, opens no explicit folder and writes nothing; with an implicit layer beside them (off by
 * its variable) it scans, and still leaves them alone; asked, it reads them and warns about the
 * hostile files.
 */
void test_quick_explicit(void)
{
    static const char *const pkg_ex_files[] = { "p.json", "zz_fifo.json" };
    static const char *const sys_ex_files[] = { "s.json", "unreadable.json" };
    char *user_im, *user_ex, *dirs[3], *err, first[300];
    struct glmux_layer_loaded *out;
    size_t count;
    int w;

    reset_env();
    user_folders("xdg-quick-explicit", &user_im, &user_ex);
    manifest(user_ex, "u.json", "ex_user", "explicit", "/nonexistent/libu.so", "");
    manifest(sys_ex, "s.json", "ex_sys", "explicit", "/nonexistent/libs.so", "");
    manifest(pkg_ex, "p.json", "ex_pkg", "explicit", "/nonexistent/libp.so", "");
    hostile_files(pkg_ex, sys_ex);
    dirs[0] = user_ex;
    dirs[1] = sys_ex;
    dirs[2] = pkg_ex;
    w = watch_open(dirs, 3);

    glmux_test_capture_begin();
    CHECK(glmux_layers_none_quick(&fenv));
    CHECK(!glmux_layers_load_env(&fenv, &out, &count, test_get_next) && count == 0);
    err = glmux_test_capture_end();
    CHECK_MSG(err[0] == '\0', "messages with explicit layers installed, none asked for:\n%s", err);
    free(err);
    CHECK_UNOPENED(w, "the quick answer");

    manifest(user_im, "i.json", "im_user", "implicit", "/nonexistent/libi.so",
             "\"disable_environment\": {\"IM_USER_OFF\": \"1\"}");
    setvar("IM_USER_OFF", "1");
    glmux_test_capture_begin();
    CHECK(!glmux_layers_none_quick(&fenv));
    CHECK(!glmux_layers_load_env(&fenv, &out, &count, test_get_next) && count == 0);
    err = glmux_test_capture_end();
    CHECK_MSG(err[0] == '\0', "messages with an implicit layer off:\n%s", err);
    free(err);
    CHECK_UNOPENED(w, "the loader's scan of the implicit folders");

    setvar("GLMUX_LAYERS", "ex_pkg");
    CHECK(!glmux_layers_none_quick(&fenv));
    glmux_test_capture_begin();
    CHECK(!glmux_layers_load_env(&fenv, &out, &count, test_get_next) && count == 0);
    err = glmux_test_capture_end();
    CHECK_MSG(strstr(err, "zz_fifo.json") != NULL && strstr(err, "unreadable.json") != NULL &&
                  strstr(err, "libp.so") != NULL,
              "asked for, the explicit folders' files are not reported:\n%s", err);
    free(err);
    CHECK(w < 0 || watch_events(w, first, sizeof(first)) > 0);

    if (w >= 0)
        close(w);
    remove_files(pkg_ex, pkg_ex_files, 2);
    remove_files(sys_ex, sys_ex_files, 2);
    remove_files(user_im, (const char *const[]){ "i.json" }, 1);
    remove_files(user_ex, (const char *const[]){ "u.json" }, 1);
    free(user_im);
    free(user_ex);
}
