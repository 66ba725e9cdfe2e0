/* SPDX-License-Identifier: MIT */
/*
 * glmux layer tests: the core of GL layers (src/layers/core) without any GL: the manifest
 * parser on the fixtures of manifests/ and on inline cases; hostile files (a FIFO, a huge file,
 * a symbolic link loop, a directory) in a layer folder; the sorted reading order and duplicates;
 * the filters and variables and their precedence; secure execution simulated through the core's
 * environment hook (a secure_getenv that answers nothing, a trusted owner that is this user);
 * the architecture check on a foreign ELF header (and a real 32-bit library when the build could
 * make one); and loading the fake layers of test_layer.c: bottom-first initialization at final
 * addresses, a declining and a wrong-version negotiation, missing entries, Android's entries,
 * one message per failure naming the manifest. The implicit_layer.d / explicit_layer.d split
 * is test_split.c's (discovery.h: what the two files share).
 *
 * With --quick, alone and with GLMUX_DEBUG unset: the loader's answer without a scan
 * (glmux_layers_none_quick) in each case where it may give one, and the scan agreeing; and
 * explicit layers installed, none asked for: no explicit folder opened, nothing written.
 *
 *   layers_discovery FIXTURES_DIR LAYER_GOOD LAYER_ANDROID LAYER_DECLINE LAYER_BADABI
 *                    LAYER_NOENTRY LAYER_ANDROIDHALF [LIB32]
 *   layers_discovery --quick
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discovery.h"
#include "glmux_test.h"

/* ---- a fake environment ---- */

#define VARS_MAX 32
static struct {
    const char *name;
    char *value;
} vars[VARS_MAX];
bool fake_secure;

static const char *lookup(const char *name)
{
    for (size_t i = 0; i < VARS_MAX; i++)
        if (vars[i].name != NULL && strcmp(vars[i].name, name) == 0)
            return vars[i].value;
    return NULL;
}

/* secure_getenv's answer: nothing in secure execution. */
static const char *fake_get(const char *name)
{
    return fake_secure ? NULL : lookup(name);
}

static const char *fake_get_always(const char *name)
{
    return lookup(name);
}

void setvar(const char *name, const char *value)
{
    for (size_t i = 0; i < VARS_MAX; i++) {
        if (vars[i].name != NULL && strcmp(vars[i].name, name) == 0) {
            free(vars[i].value);
            vars[i].value = value != NULL ? strdup(value) : NULL;
            if (value == NULL)
                vars[i].name = NULL;
            return;
        }
    }
    for (size_t i = 0; value != NULL && i < VARS_MAX; i++) {
        if (vars[i].name == NULL) {
            vars[i].name = name;
            vars[i].value = strdup(value);
            return;
        }
    }
}

static void clearvars(void)
{
    for (size_t i = 0; i < VARS_MAX; i++) {
        free(vars[i].value);
        vars[i].name = NULL;
        vars[i].value = NULL;
    }
}

char work[PATH_MAX], sysdir[PATH_MAX + 16], pkgdir[PATH_MAX + 16];
char sys_im[PATH_MAX + 40], sys_ex[PATH_MAX + 40], pkg_im[PATH_MAX + 40], pkg_ex[PATH_MAX + 40];
struct glmux_layers_env fenv;

/* The administrators' and the packages' bases in the work folder, and their kind folders. */
static void make_bases(void)
{
    snprintf(sysdir, sizeof(sysdir), "%s/etc-glmux", work);
    snprintf(pkgdir, sizeof(pkgdir), "%s/lib-glvnd", work);
    snprintf(sys_im, sizeof(sys_im), "%s/" GLMUX_LAYER_IMPLICIT_FOLDER, sysdir);
    snprintf(sys_ex, sizeof(sys_ex), "%s/" GLMUX_LAYER_EXPLICIT_FOLDER, sysdir);
    snprintf(pkg_im, sizeof(pkg_im), "%s/" GLMUX_LAYER_IMPLICIT_FOLDER, pkgdir);
    snprintf(pkg_ex, sizeof(pkg_ex), "%s/" GLMUX_LAYER_EXPLICIT_FOLDER, pkgdir);
    CHECK(mkdir(sysdir, 0755) == 0 && mkdir(pkgdir, 0755) == 0);
    CHECK(mkdir(sys_im, 0755) == 0 && mkdir(sys_ex, 0755) == 0);
    CHECK(mkdir(pkg_im, 0755) == 0 && mkdir(pkg_ex, 0755) == 0);
    CHECK(chmod(pkgdir, 0755) == 0 && chmod(pkg_im, 0755) == 0 && chmod(pkg_ex, 0755) == 0);
}

void reset_env(void)
{
    clearvars();
    fake_secure = false;
    fenv = (struct glmux_layers_env){ fake_get, fake_get_always, false, 0, sysdir, pkgdir };
    setvar("HOME", "/nonexistent-home");
}

/* ---- files ---- */

char *path_in(const char *dir, const char *name)
{
    char *p;
    CHECK(asprintf(&p, "%s/%s", dir, name) > 0);
    return p;
}

void write_file(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK_MSG(fd >= 0, "%s: %s", path, strerror(errno));
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    CHECK(fchmod(fd, mode) == 0);
    close(fd);
}

char *make_dir(const char *name)
{
    char *p = path_in(work, name);
    CHECK_MSG(mkdir(p, 0755) == 0 || errno == EEXIST, "%s: %s", p, strerror(errno));
    CHECK(chmod(p, 0755) == 0);
    return p;
}

/* A manifest file for one layer; extra is more members ("" for none). */
void manifest(const char *dir, const char *file, const char *name, const char *type,
              const char *library, const char *extra)
{
    char *path = path_in(dir, file), *text;

    CHECK(asprintf(&text,
                   "{\"file_format_version\": \"1.0.0\", \"layer\": {\"name\": \"%s\", "
                   "\"type\": \"%s\", \"library_path\": \"%s\", \"apis\": [\"gl\", \"egl\"]%s%s}}",
                   name, type, library, extra[0] ? ", " : "", extra) > 0);
    write_file(path, text, 0644);
    free(text);
    free(path);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* ---- scans ---- */

struct glmux_layer_scan scan;

void do_scan(void)
{
    glmux_layers_scan_free(&scan);
    CHECK(glmux_layers_scan(&fenv, &scan));
}

const struct glmux_layer_info *find(const char *name)
{
    for (size_t i = 0; i < scan.count; i++)
        if (scan.layers[i].name != NULL && strcmp(scan.layers[i].name, name) == 0)
            return &scan.layers[i];
    return NULL;
}

const struct glmux_layer_info *must_find(const char *name)
{
    const struct glmux_layer_info *l = find(name);
    CHECK_MSG(l != NULL, "no layer %s found", name);
    return l;
}

/* The chain as "a,b,c". */
const char *chain(void)
{
    static char buf[512];
    size_t len = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < scan.chain_count; i++)
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? "," : "",
                                scan.layers[scan.chain[i]].name);
    return buf;
}


/* ---- parser ---- */

static size_t parse_text(const char *path, const char *text, struct glmux_layer_info *out)
{
    size_t n = glmux_layer_manifest_parse(path, text, strlen(text), out,
                                          GLMUX_LAYER_PER_MANIFEST_MAX);
    CHECK(n >= 1);
    return n;
}

static void clear_all(struct glmux_layer_info *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        glmux_layer_info_clear(&out[i]);
}

static void expect_broken(const char *text, const char *why)
{
    struct glmux_layer_info out[GLMUX_LAYER_PER_MANIFEST_MAX];
    size_t n = parse_text("/x/case.json", text, out);

    CHECK_MSG(out[0].verdict == GLMUX_LAYER_BROKEN && strstr(out[0].reason, why) != NULL,
              "%s: verdict %d reason \"%s\", want \"%s\"", text, out[0].verdict, out[0].reason,
              why);
    clear_all(out, n);
}

static void test_parser(const char *fixtures)
{
    struct glmux_layer_info out[GLMUX_LAYER_PER_MANIFEST_MAX];
    char *p, *want;
    size_t n;

    p = path_in(fixtures, "valid_explicit.json");
    n = glmux_layer_manifest_read(p, out, GLMUX_LAYER_PER_MANIFEST_MAX);
    CHECK(n == 1 && out[0].verdict == GLMUX_LAYER_WOULD_LOAD);
    CHECK(strcmp(out[0].name, "test_explicit") == 0 && !out[0].implicit);
    CHECK(strcmp(out[0].library, "libtest-layer.so") == 0); /* bare: the linker searches */
    CHECK(out[0].library_arch == 64 && strcmp(out[0].abi_version, "1.0") == 0);
    CHECK(out[0].apis == (GLMUX_LAYER_API_GL | GLMUX_LAYER_API_GLX | GLMUX_LAYER_API_EGL));
    CHECK(strcmp(out[0].enable.name, "TEST_EXPLICIT_ON") == 0 &&
          strcmp(out[0].enable.want, "1") == 0 && out[0].disable.name == NULL);
    CHECK(strcmp(out[0].manifest, p) == 0 && out[0].manifest_line == 3);
    clear_all(out, n);
    free(p);

    p = path_in(fixtures, "valid_implicit.json");
    n = glmux_layer_manifest_read(p, out, GLMUX_LAYER_PER_MANIFEST_MAX);
    CHECK(n == 1 && out[0].verdict == GLMUX_LAYER_WOULD_LOAD); /* format 1.1, unknown keys */
    want = path_in(fixtures, "lib/libtest-layer.so");                /* relative to the folder */
    CHECK_MSG(strcmp(out[0].library, want) == 0, "%s", out[0].library);
    CHECK(out[0].implicit && out[0].secure_execution && out[0].apis == GLMUX_LAYER_API_GL);
    CHECK(strcmp(out[0].disable.name, "TEST_IMPLICIT_OFF") == 0);
    clear_all(out, n);
    free(want);
    free(p);

    p = path_in(fixtures, "layers_array.json");
    n = glmux_layer_manifest_read(p, out, GLMUX_LAYER_PER_MANIFEST_MAX);
    CHECK(n == 3);
    CHECK(out[0].verdict == GLMUX_LAYER_WOULD_LOAD && strcmp(out[0].library, "/opt/one.so") == 0);
    /* An API this glmux does not know is passed over, not an error. */
    CHECK(out[1].verdict == GLMUX_LAYER_WOULD_LOAD && out[1].apis == GLMUX_LAYER_API_GLX &&
          out[1].n_api_names == 2);
    CHECK(out[2].verdict == GLMUX_LAYER_BROKEN &&
          strstr(out[2].reason, "disable_environment") != NULL);
    clear_all(out, n);
    free(p);

    static const struct {
        const char *file, *why;
    } broken_files[] = {
        { "broken_implicit_no_disable.json", "implicit layer needs \"disable_environment\"" },
        { "broken_format.json", "major version 1" },
        { "broken_json.json", "line 3" },
    };
    for (size_t i = 0; i < sizeof(broken_files) / sizeof(broken_files[0]); i++) {
        p = path_in(fixtures, broken_files[i].file);
        n = glmux_layer_manifest_read(p, out, GLMUX_LAYER_PER_MANIFEST_MAX);
        CHECK_MSG(n == 1 && out[0].verdict == GLMUX_LAYER_BROKEN &&
                      strstr(out[0].reason, broken_files[i].why) != NULL,
                  "%s: \"%s\"", broken_files[i].file, out[0].reason);
        clear_all(out, n);
        free(p);
    }

#define L(body) "{\"file_format_version\": \"1.0.0\", \"layer\": {" body "}}"
    expect_broken(L("\"type\": \"explicit\", \"library_path\": \"x.so\", \"apis\": [\"gl\"]"),
                  "no \"name\"");
    expect_broken(L("\"name\": \"a\", \"library_path\": \"x.so\", \"apis\": [\"gl\"]"),
                  "no \"type\"");
    expect_broken(L("\"name\": \"a\", \"type\": \"explicit\", \"apis\": [\"gl\"]"),
                  "no \"library_path\"");
    expect_broken(L("\"name\": \"a\", \"type\": \"explicit\", \"library_path\": \"x.so\""),
                  "no \"apis\"");
    expect_broken(L("\"name\": \"a\", \"type\": \"explicit\", \"library_path\": \"x.so\", "
                    "\"apis\": []"), "names no API");
    expect_broken(L("\"name\": \"a b\", \"type\": \"explicit\", \"library_path\": \"x.so\", "
                    "\"apis\": [\"gl\"]"), "not a layer name");
    expect_broken(L("\"name\": \"a\", \"type\": \"Explicit\", \"library_path\": \"x.so\", "
                    "\"apis\": [\"gl\"]"), "must be \"explicit\" or \"implicit\"");
    expect_broken(L("\"name\": \"a\", \"type\": \"explicit\", \"library_path\": \"\", "
                    "\"apis\": [\"gl\"]"), "library_path is empty");
    expect_broken(L("\"name\": \"a\", \"type\": \"explicit\", \"library_path\": \"x.so\", "
                    "\"apis\": [\"gl\"], \"library_arch\": \"48\""), "\"32\" or \"64\"");
    expect_broken(L("\"name\": \"a\", \"type\": \"explicit\", \"library_path\": \"x.so\", "
                    "\"apis\": [\"gl\"], \"enable_environment\": {\"A\": \"1\", \"B\": \"1\"}"),
                  "exactly one variable");
    expect_broken(L("\"name\": \"a\", \"type\": \"implicit\", \"library_path\": \"x.so\", "
                    "\"apis\": [\"gl\"], \"disable_environment\": {\"A-B\": \"1\"}"),
                  "not a variable name");
    expect_broken(L("\"name\": \"a\", \"type\": \"explicit\", \"library_path\": \"x.so\", "
                    "\"apis\": [\"gl\"], \"secure_execution\": \"yes\""), "must be a boolean");
    expect_broken("{\"file_format_version\": \"1.0.0\", \"layer\": {}, \"layers\": []}",
                  "both \"layer\" and \"layers\"");
    expect_broken("{\"file_format_version\": \"1.0.0\"}", "no \"layer\"");
    expect_broken("{\"layer\": {}}", "no \"file_format_version\"");
    expect_broken("{\"file_format_version\": \"one\", \"layer\": {}}", "major.minor.micro");
    expect_broken("[1, 2]", "must be an object");
    expect_broken("", "line");
#undef L
}

/* ---- hostile files, order, duplicates ---- */

static void test_folders(void)
{
    char *d1 = make_dir("order"), *d2 = make_dir("order2"), *p, *big;

    reset_env();
    manifest(d1, "z.json", "zed", "explicit", "libz.so", "");
    manifest(d1, "a.json", "alpha", "explicit", "liba.so", "");
    manifest(d1, "m.json", "mid", "explicit", "libm.so", "");
    manifest(d1, "old.json.bak", "hidden", "explicit", "libh.so", "");
    manifest(d1, ".json", "hidden", "explicit", "libh.so", ""); /* no name before .json */
    manifest(d1, "notes.txt", "txt", "explicit", "libt.so", "");
    p = path_in(d1, "fifo.json");
    CHECK(mkfifo(p, 0644) == 0);
    free(p);
    p = path_in(d1, "loop.json");
    CHECK(symlink("loop.json", p) == 0);
    free(p);
    p = path_in(d1, "dir.json");
    CHECK(mkdir(p, 0755) == 0);
    free(p);
    p = path_in(d1, "huge.json");
    big = malloc(GLMUX_LAYER_MANIFEST_MAX + 2);
    CHECK(big != NULL);
    memset(big, ' ', GLMUX_LAYER_MANIFEST_MAX + 1);
    big[GLMUX_LAYER_MANIFEST_MAX + 1] = '\0';
    write_file(p, big, 0644);
    free(big);
    free(p);
    /* The same name in a later folder, and in the system's explicit folder. */
    manifest(d2, "a.json", "alpha", "explicit", "liba2.so", "");
    manifest(sys_ex, "alpha.json", "alpha", "explicit", "liba3.so", "");

    CHECK(asprintf(&p, "%s:%s", d1, d2) > 0);
    setvar("GLMUX_LAYER_PATH", p);
    free(p);
    do_scan();
    /* Two of GLMUX_LAYER_PATH, then the user's, system and package implicit folders, then
     * their explicit ones (the tool's scan reads them though nothing asks). */
    CHECK_MSG(scan.n_folders == 8, "%zu folders", scan.n_folders);
    CHECK(strcmp(scan.folders[0].path, d1) == 0 && strcmp(scan.folders[1].path, d2) == 0);
    CHECK(scan.folders[0].kind == GLMUX_LAYER_FOLDER_ANY);
    CHECK(strcmp(scan.folders[2].source, "user") == 0 && scan.folders[2].missing);
    CHECK(strcmp(scan.folders[2].path, "/nonexistent-home/.local/share/glmux/implicit_layer.d")
          == 0 && scan.folders[2].kind == GLMUX_LAYER_FOLDER_IMPLICIT);
    CHECK(strcmp(scan.folders[3].path, sys_im) == 0 && strcmp(scan.folders[4].path, pkg_im) == 0);
    CHECK(strcmp(scan.folders[5].path, "/nonexistent-home/.local/share/glmux/explicit_layer.d")
          == 0 && scan.folders[5].kind == GLMUX_LAYER_FOLDER_EXPLICIT);
    CHECK(strcmp(scan.folders[6].path, sys_ex) == 0 && strcmp(scan.folders[7].path, pkg_ex) == 0);
    CHECK(!scan.explicit_asked && !scan.folders[6].unasked);
    /* Byte order within the folder: a dir fifo huge loop m z, then order2's, then system's. */
    static const char *const files[] = { "a.json", "dir.json", "fifo.json", "huge.json",
                                         "loop.json", "m.json", "z.json" };
    CHECK_MSG(scan.count == 9, "%zu layers", scan.count);
    for (size_t i = 0; i < 7; i++) {
        const char *base = strrchr(scan.layers[i].manifest, '/') + 1;
        CHECK_MSG(strcmp(base, files[i]) == 0, "%zu: %s", i, scan.layers[i].manifest);
    }
    CHECK(scan.layers[1].verdict == GLMUX_LAYER_BROKEN &&
          strstr(scan.layers[1].reason, "not a regular file") != NULL);
    CHECK(scan.layers[2].verdict == GLMUX_LAYER_BROKEN &&
          strstr(scan.layers[2].reason, "FIFO") != NULL);
    CHECK(scan.layers[3].verdict == GLMUX_LAYER_BROKEN &&
          strstr(scan.layers[3].reason, "larger than") != NULL);
    CHECK(scan.layers[4].verdict == GLMUX_LAYER_BROKEN &&
          strstr(scan.layers[4].reason, "symbolic links") != NULL);
    CHECK(strcmp(scan.layers[0].name, "alpha") == 0 &&
          scan.layers[0].verdict == GLMUX_LAYER_OFF); /* explicit, not named */
    CHECK(scan.layers[7].verdict == GLMUX_LAYER_DUPLICATE &&
          strstr(scan.layers[7].reason, "duplicate of alpha") != NULL &&
          strstr(scan.layers[7].reason, d1) != NULL);
    CHECK(scan.layers[8].verdict == GLMUX_LAYER_DUPLICATE);
    CHECK(find("hidden") == NULL && find("txt") == NULL);

    /* The first found wins for the chain too: its library is the one judged. */
    setvar("GLMUX_LAYERS", "alpha");
    do_scan();
    CHECK(strcmp(scan.layers[0].library, "liba.so") == 0 && scan.chain_count == 1 &&
          scan.chain[0] == 0);
    glmux_layers_scan_free(&scan);
    p = path_in(sys_ex, "alpha.json");
    CHECK(unlink(p) == 0);
    free(p);
    free(d1);
    free(d2);
}

/* ---- the loader's quick answer ---- */

/* glmux_layers_none_quick answers want; when it says "no layer", the scan agrees: nothing to
 * load and nothing it would warn about. */
static void expect_quick(bool want, const char *what)
{
    bool got = glmux_layers_none_quick(&fenv);

    CHECK_MSG(got == want, "%s: the quick answer is %s", what, got ? "none" : "scan");
    if (!got)
        return;
    do_scan();
    CHECK_MSG(scan.chain_count == 0 && scan.n_unknown == 0, "%s: the scan finds %zu to load",
              what, scan.chain_count);
    for (size_t i = 0; i < scan.count; i++)
        CHECK_MSG(scan.layers[i].verdict == GLMUX_LAYER_OFF, "%s: %s is %s", what,
                  scan.layers[i].manifest, glmux_layer_verdict_name(scan.layers[i].verdict));
    glmux_layers_scan_free(&scan);
}

/* Run without GLMUX_DEBUG (the quick answer is never given while the layer messages are on). */
static void test_quick(void)
{
    char *d = make_dir("quick"), *xdg = make_dir("xdg"), *user, *p, *long_path;

    reset_env();
    expect_quick(true, "empty system and package folders, no user folder");
    CHECK(asprintf(&p, "/nonexistent-glmux-layers::%s", d) > 0);
    setvar("GLMUX_LAYER_PATH", p);
    free(p);
    expect_quick(true, "a missing and an empty folder in GLMUX_LAYER_PATH");
    manifest(d, "notes.txt", "txt", "explicit", "libt.so", "");
    manifest(d, "old.json.bak", "bak", "explicit", "libb.so", "");
    manifest(d, ".json", "hidden", "explicit", "libh.so", "");
    expect_quick(true, "a folder of files that are no manifests");
    setvar("GLMUX_LAYERS", "");
    setvar("GLMUX_LAYERS_ENABLE", "");
    expect_quick(true, "GLMUX_LAYERS and GLMUX_LAYERS_ENABLE empty");
    setvar("GLMUX_LAYERS", "nothere");
    expect_quick(false, "GLMUX_LAYERS names a layer (the scan warns that none declares it)");
    setvar("GLMUX_LAYERS", NULL);
    setvar("GLMUX_LAYERS_ENABLE", "*");
    expect_quick(false, "GLMUX_LAYERS_ENABLE set");
    setvar("GLMUX_LAYERS_ENABLE", NULL);

    /* A manifest anywhere: the scan decides (a broken one is warned about). */
    manifest(d, "a.json", "alpha", "explicit", "liba.so", "");
    expect_quick(false, "a manifest in GLMUX_LAYER_PATH");
    setvar("GLMUX_LAYERS_DISABLE", "~all~");
    expect_quick(true, "GLMUX_LAYERS_DISABLE=~all~");
    setvar("GLMUX_LAYERS_DISABLE", NULL);
    setvar("GLMUX_LAYER_PATH", NULL);
    expect_quick(true, "the manifest's folder no longer searched");

    user = path_in(xdg, "glmux");
    CHECK(mkdir(user, 0755) == 0);
    free(user);
    user = path_in(xdg, "glmux/implicit_layer.d");
    CHECK(mkdir(user, 0755) == 0);
    setvar("XDG_DATA_HOME", xdg);
    expect_quick(true, "an empty user folder");
    manifest(user, "u.json", "user", "implicit", "libu.so",
             "\"disable_environment\": {\"U_OFF\": \"1\"}");
    expect_quick(false, "a manifest in $XDG_DATA_HOME/glmux/implicit_layer.d");
    setvar("XDG_DATA_HOME", "relative/ignored");
    expect_quick(true, "XDG_DATA_HOME not absolute: ~/.local/share");
    setvar("XDG_DATA_HOME", xdg);
    fake_secure = fenv.secure = true;
    expect_quick(true, "secure execution: the user's folder is not read");
    manifest(pkg_im, "p.json", "pkg", "implicit", "libp.so",
             "\"disable_environment\": {\"P_OFF\": \"1\"}");
    expect_quick(false, "secure execution, a manifest in the package folder");
    fake_secure = fenv.secure = false;
    expect_quick(false, "a manifest in the package folder");
    p = path_in(pkg_im, "p.json");
    CHECK(unlink(p) == 0);
    free(p);
    manifest(sys_im, "s.json", "sys", "implicit", "libs.so",
             "\"disable_environment\": {\"SYS_OFF\": \"1\"}");
    expect_quick(false, "a manifest in the system folder");
    p = path_in(sys_im, "s.json");
    CHECK(unlink(p) == 0);
    free(p);
    /* A manifest of the wrong kind in an implicit folder: the scan warns about it. */
    manifest(sys_im, "w.json", "wrong", "explicit", "libw.so", "");
    expect_quick(false, "an explicit layer's manifest in an implicit folder");
    p = path_in(sys_im, "w.json");
    CHECK(unlink(p) == 0);
    free(p);
    p = path_in(user, "u.json");
    CHECK(unlink(p) == 0);
    free(p);
    expect_quick(true, "the manifests removed");

    /* A folder of GLMUX_LAYER_PATH too long to be checked without a scan. */
    long_path = malloc(PATH_MAX + 8);
    CHECK(long_path != NULL);
    memset(long_path, 'x', PATH_MAX + 6);
    long_path[0] = '/';
    long_path[PATH_MAX + 6] = ':';
    long_path[PATH_MAX + 7] = '\0';
    setvar("GLMUX_LAYER_PATH", long_path);
    expect_quick(false, "a folder name longer than PATH_MAX");
    setvar("GLMUX_LAYER_PATH", NULL);
    free(long_path);
    free(user);
    free(xdg);
    free(d);
}

/* ---- filters and variables ---- */

static void test_filters(void)
{
    struct glmux_layer_filter f;
    char **names;
    size_t n;

    CHECK(glmux_layer_filter_parse(" Frame*, ~implicit~ ,,tracer ", &f));
    CHECK(f.n_globs == 2 && f.implicit && !f.all && !f.explicit_);
    CHECK(glmux_layer_filter_match(&f, "frame_limiter", false));   /* without regard to case */
    CHECK(glmux_layer_filter_match(&f, "TRACER", false));
    CHECK(glmux_layer_filter_match(&f, "anything", true));         /* ~implicit~ */
    CHECK(!glmux_layer_filter_match(&f, "anything", false));
    CHECK(!glmux_layer_filter_covers_all(&f) && !glmux_layer_filter_empty(&f));
    glmux_layer_filter_clear(&f);
    CHECK(glmux_layer_filter_parse("~implicit~,~explicit~", &f) &&
          glmux_layer_filter_covers_all(&f));
    glmux_layer_filter_clear(&f);
    CHECK(glmux_layer_filter_parse("**", &f) && glmux_layer_filter_covers_all(&f));
    glmux_layer_filter_clear(&f);
    CHECK(glmux_layer_filter_parse("~all~", &f) && glmux_layer_filter_covers_all(&f));
    glmux_layer_filter_clear(&f);
    CHECK(glmux_layer_filter_parse(NULL, &f) && glmux_layer_filter_empty(&f));
    glmux_layer_filter_clear(&f);
    CHECK(glmux_layer_filter_parse("g?o[mn]", &f) && glmux_layer_filter_match(&f, "goon", false));
    glmux_layer_filter_clear(&f);

    CHECK(glmux_layer_names_parse(" a :b,a,, c ", &names, &n));
    CHECK(n == 3 && strcmp(names[0], "a") == 0 && strcmp(names[1], "b") == 0 &&
          strcmp(names[2], "c") == 0);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static void test_precedence(const char *good)
{
    char *d = make_dir("switches");
    char extra[256];

    reset_env();
    manifest(d, "1.json", "ex1", "explicit", good, "");
    manifest(d, "2.json", "ex2", "explicit", good, "");
    manifest(d, "3.json", "im1", "implicit", good,
             "\"disable_environment\": {\"IM1_OFF\": \"1\"}");
    snprintf(extra, sizeof(extra), "\"disable_environment\": {\"IM2_OFF\": \"1\"}, "
             "\"enable_environment\": {\"IM2_ON\": \"1\"}");
    manifest(d, "4.json", "im2", "implicit", good, extra);
    setvar("GLMUX_LAYER_PATH", d);

    do_scan();
    CHECK_CHAIN("im1");
    CHECK_VERDICT("ex1", GLMUX_LAYER_OFF, "explicit layer");
    CHECK_VERDICT("im2", GLMUX_LAYER_OFF, "IM2_ON=1 is unset");
    CHECK(strcmp(must_find("im1")->arch, glmux_elf_own()) == 0);

    setvar("GLMUX_LAYERS", "ex2,ex1");
    do_scan();
    CHECK_CHAIN("ex2,ex1,im1"); /* GLMUX_LAYERS in its order, on top */
    setvar("GLMUX_LAYERS", "ex2:ex1");
    do_scan();
    CHECK_CHAIN("ex2,ex1,im1");
    setvar("GLMUX_LAYERS", NULL);

    setvar("IM2_ON", "1");
    do_scan();
    CHECK_CHAIN("im1,im2");
    setvar("IM2_ON", "2");
    do_scan();
    CHECK_VERDICT("im2", GLMUX_LAYER_OFF, "it is \"2\"");
    setvar("IM2_ON", NULL);

    setvar("GLMUX_LAYERS_ENABLE", "EX*");
    do_scan();
    CHECK_CHAIN("ex1,ex2,im1"); /* enabled ones in discovery order */
    setvar("GLMUX_LAYERS_DISABLE", "ex1");
    do_scan();
    CHECK_CHAIN("ex1,ex2,im1"); /* enable wins over disable */
    setvar("GLMUX_LAYERS_ENABLE", NULL);
    do_scan();
    CHECK_VERDICT("ex1", GLMUX_LAYER_OFF, "GLMUX_LAYERS_DISABLE=\"ex1\"");

    setvar("GLMUX_LAYERS_DISABLE", "~implicit~");
    do_scan();
    CHECK_CHAIN("");
    CHECK(!scan.skipped);
    CHECK_VERDICT("im1", GLMUX_LAYER_OFF, "GLMUX_LAYERS_DISABLE=\"~implicit~\"");
    setvar("GLMUX_LAYERS_ENABLE", "im1");
    do_scan();
    CHECK_CHAIN("im1");
    setvar("GLMUX_LAYERS_ENABLE", NULL);

    /* Everything off and nothing named: no folder is even listed. */
    static const char *const all[] = { "~all~", "*", "~explicit~,~implicit~" };
    for (size_t i = 0; i < 3; i++) {
        setvar("GLMUX_LAYERS_DISABLE", all[i]);
        do_scan();
        CHECK_MSG(scan.skipped && scan.n_folders == 0 && scan.count == 0, "%s", all[i]);
    }
    setvar("GLMUX_LAYERS_DISABLE", "~all~");
    setvar("GLMUX_LAYERS", "ex1"); /* GLMUX_LAYERS wins over the disable filter */
    do_scan();
    CHECK(!scan.skipped);
    CHECK_CHAIN("ex1");
    setvar("GLMUX_LAYERS", NULL);
    setvar("GLMUX_LAYERS_ENABLE", "nothing-of-that-name");
    do_scan();
    CHECK(!scan.skipped && scan.count == 4);
    CHECK_CHAIN("");
    setvar("GLMUX_LAYERS_ENABLE", NULL);
    setvar("GLMUX_LAYERS_DISABLE", NULL);

    /* A layer's disable_environment, set to any value, wins over everything. */
    setvar("GLMUX_LAYERS", "im1");
    setvar("IM1_OFF", "1");
    do_scan();
    CHECK_CHAIN("");
    CHECK_VERDICT("im1", GLMUX_LAYER_OFF, "IM1_OFF is set");
    CHECK(must_find("im1")->disable.matches);
    setvar("IM1_OFF", "");
    do_scan();
    CHECK_CHAIN("");
    setvar("IM1_OFF", NULL);

    setvar("GLMUX_LAYERS", "ghost,ex1");
    do_scan();
    CHECK_CHAIN("ex1,im1");
    CHECK(scan.n_unknown == 1 && strcmp(scan.unknown_names[0], "ghost") == 0);
    glmux_layers_scan_free(&scan);
    free(d);
}

/* ---- secure execution ---- */

static char *copy_library(const char *from, const char *name, mode_t mode)
{
    char *to = path_in(work, name), *cmd;

    CHECK(asprintf(&cmd, "cp '%s' '%s'", from, to) > 0);
    CHECK(system(cmd) == 0);
    CHECK(chmod(to, mode) == 0);
    free(cmd);
    return to;
}

static void test_secure(const char *good)
{
    char *lib = copy_library(good, "libsecure.so", 0755);
    char *libgw = copy_library(good, "libsecure-gw.so", 0775);
    char *path_dir = make_dir("secure-path"), *p;
    const char *sec = "\"disable_environment\": {\"SEC_OFF\": \"1\"}, \"secure_execution\": true";

    reset_env();
    manifest(pkg_im, "s1.json", "sec_ok", "implicit", lib, sec);
    manifest(pkg_im, "s2.json", "sec_no", "implicit", lib,
             "\"disable_environment\": {\"SEC_NO_OFF\": \"1\"}");
    manifest(pkg_ex, "s3.json", "sec_ex", "explicit", lib, "");
    manifest(pkg_im, "s4.json", "sec_gw", "implicit", lib, sec);
    p = path_in(pkg_im, "s4.json");
    CHECK(chmod(p, 0664) == 0);
    free(p);
    manifest(pkg_im, "s5.json", "sec_libgw", "implicit", libgw, sec);
    manifest(path_dir, "p.json", "pathlayer", "implicit", lib, sec);
    setvar("GLMUX_LAYER_PATH", path_dir);
    setvar("GLMUX_LAYERS", "sec_ex");
    setvar("XDG_DATA_HOME", work);

    /* Not secure: everything but the broken rules loads. */
    do_scan();
    CHECK_CHAIN("sec_ex,pathlayer,sec_ok,sec_no,sec_gw,sec_libgw");

    fake_secure = true;
    fenv.secure = true;
    fenv.trusted_uid = (unsigned)getuid(); /* stands for root */
    do_scan();
    CHECK(scan.secure);
    CHECK(scan.layers_var == NULL && scan.path_var == NULL);
    CHECK(scan.folders[0].ignored_secure && strcmp(scan.folders[0].path, path_dir) == 0);
    CHECK(scan.folders[1].ignored_secure && strcmp(scan.folders[1].source, "user") == 0);
    CHECK(find("pathlayer") == NULL);
    CHECK_CHAIN("sec_ok");
    CHECK_VERDICT("sec_no", GLMUX_LAYER_SECURE_IGNORED, "\"secure_execution\": true");
    CHECK_VERDICT("sec_ex", GLMUX_LAYER_SECURE_IGNORED, "explicit layer"); /* the tool's scan */
    CHECK(!scan.explicit_asked);
    /* The loader's: GLMUX_LAYERS is ignored, so the explicit folders are not even read. */
    glmux_layers_scan_free(&scan);
    CHECK(glmux_layers_scan_mode(&fenv, &scan, false));
    CHECK(!scan.explicit_asked && find("sec_ex") == NULL);
    CHECK_CHAIN("sec_ok");
    CHECK_VERDICT("sec_gw", GLMUX_LAYER_SECURE_IGNORED, "writable by its group or others");
    CHECK_VERDICT("sec_libgw", GLMUX_LAYER_SECURE_IGNORED, "libsecure-gw.so is writable");

    /* The disable variables are honoured in secure execution too. */
    setvar("SEC_OFF", "1");
    do_scan();
    CHECK_CHAIN("");
    CHECK_VERDICT("sec_ok", GLMUX_LAYER_OFF, "SEC_OFF is set");
    setvar("SEC_OFF", NULL);
    setvar("GLMUX_LAYERS_DISABLE", "sec_*");
    do_scan();
    CHECK_CHAIN("");
    CHECK_VERDICT("sec_ok", GLMUX_LAYER_OFF, "GLMUX_LAYERS_DISABLE");
    setvar("GLMUX_LAYERS_DISABLE", "~all~");
    do_scan();
    CHECK(scan.skipped && scan.count == 0);
    setvar("GLMUX_LAYERS_DISABLE", NULL);
    /* GLMUX_LAYERS_ENABLE is not. */
    setvar("GLMUX_LAYERS_ENABLE", "sec_ex");
    do_scan();
    CHECK_CHAIN("sec_ok");
    setvar("GLMUX_LAYERS_ENABLE", NULL);

    /* Files of another owner. */
    fenv.trusted_uid = (unsigned)getuid() + 1;
    do_scan();
    CHECK_CHAIN("");
    CHECK_VERDICT("sec_ok", GLMUX_LAYER_SECURE_IGNORED, "not by root");
    glmux_layers_scan_free(&scan);
    for (int i = 1; i <= 5; i++) {
        char name[16];
        snprintf(name, sizeof(name), "s%d.json", i);
        p = path_in(i == 3 ? pkg_ex : pkg_im, name);
        CHECK(unlink(p) == 0);
        free(p);
    }
    free(lib);
    free(libgw);
    free(path_dir);
}

/* ---- architecture ---- */

/* An ELF header of the other word size (and a machine that is not ours). */
static void write_foreign_elf(const char *path)
{
    unsigned char h[64] = { 0 };
    int fd;

    memcpy(h, ELFMAG, SELFMAG);
    h[EI_CLASS] = sizeof(void *) == 8 ? ELFCLASS32 : ELFCLASS64;
    h[EI_DATA] = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? ELFDATA2MSB : ELFDATA2LSB;
    h[EI_VERSION] = EV_CURRENT;
    h[16] = ET_DYN;
    if (h[EI_DATA] == ELFDATA2LSB)
        h[18] = sizeof(void *) == 8 ? EM_386 : EM_X86_64;
    else
        h[19] = sizeof(void *) == 8 ? EM_386 : EM_X86_64;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && write(fd, h, sizeof(h)) == (ssize_t)sizeof(h));
    close(fd);
}

static void test_arch(const char *lib32)
{
    char *d = make_dir("arch"), *foreign = path_in(work, "libforeign.so");
    char *text = path_in(work, "libtext.so"), what[64];

    reset_env();
    write_foreign_elf(foreign);
    write_file(text, "not a library\n", 0644);
    CHECK(glmux_elf_check("/proc/self/exe", what, sizeof(what)) == GLMUX_ELF_OURS);
    CHECK(strcmp(what, glmux_elf_own()) == 0);
    CHECK(glmux_elf_check(foreign, what, sizeof(what)) == GLMUX_ELF_FOREIGN);
    CHECK(strstr(what, sizeof(void *) == 8 ? "32-bit i386" : "64-bit x86-64") != NULL);
    CHECK(glmux_elf_check(text, what, sizeof(what)) == GLMUX_ELF_UNREADABLE);

    manifest(d, "1.json", "foreign", "explicit", foreign, "");
    manifest(d, "2.json", "declared", "explicit", "/nonexistent/lib.so",
             sizeof(void *) == 8 ? "\"library_arch\": \"32\"" : "\"library_arch\": \"64\"");
    manifest(d, "3.json", "text", "explicit", text, "");
    manifest(d, "4.json", "missing", "explicit", "/nonexistent/libmissing.so", "");
    if (lib32 != NULL)
        manifest(d, "5.json", "real32", "explicit", lib32, "");
    setvar("GLMUX_LAYER_PATH", d);
    setvar("GLMUX_LAYERS", "foreign,declared,text,missing,real32");
    do_scan();
    CHECK_CHAIN("");
    CHECK_VERDICT("foreign", GLMUX_LAYER_WRONG_ARCH, sizeof(void *) == 8 ? "32-bit" : "64-bit");
    CHECK_VERDICT("declared", GLMUX_LAYER_WRONG_ARCH, "library_arch");
    CHECK_VERDICT("text", GLMUX_LAYER_NO_LIBRARY, "not an ELF file");
    CHECK_VERDICT("missing", GLMUX_LAYER_NO_LIBRARY, "No such file");
    if (lib32 != NULL) {
        CHECK_VERDICT("real32", GLMUX_LAYER_WRONG_ARCH, "32-bit i386");
        CHECK(strcmp(must_find("real32")->arch, "32-bit i386") == 0);
    }
    /* The tool's scan checks an off layer's library too; the architecture is known. */
    setvar("GLMUX_LAYERS", NULL);
    do_scan();
    CHECK(must_find("foreign")->verdict == GLMUX_LAYER_OFF && must_find("foreign")->arch[0]);
    glmux_layers_scan_free(&scan);
    free(d);
    free(foreign);
    free(text);
}

/* ---- loading ---- */

static void *terminator_sentinel(void)
{
    return NULL;
}

static void *seen_layer_id;

void *test_get_next(void *layer_id, const char *name)
{
    const struct glmux_layer_loaded *below;
    size_t n = glmux_layers_below(layer_id, &below);
    void *next = (void *)terminator_sentinel;

    seen_layer_id = layer_id;
    while (n-- > 0)
        next = glmux_layer_ask(&below[n], name, GLMUX_LAYER_API_GL, next);
    return next;
}

char *read_all(const char *path)
{
    char *text = NULL;
    size_t cap = 0;
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return strdup("");
    CHECK(getdelim(&text, &cap, '\0', f) >= 0 || feof(f));
    fclose(f);
    return text != NULL ? text : strdup("");
}

static void test_load(char **libs, const char *log_path, const char *layer_log)
{
    static const char *const names[] = { "good", "android", "decline", "badabi", "noentry",
                                         "androidhalf" };
    struct glmux_layer_loaded *out;
    char *d = make_dir("load"), *foreign = path_in(work, "libforeign.so"), *msgs, *trace;
    size_t count;
    void *hook;

    reset_env();
    for (size_t i = 0; i < 6; i++) {
        char file[32];
        snprintf(file, sizeof(file), "%zu.json", i);
        manifest(d, file, names[i], "explicit", libs[i], "");
    }
    manifest(d, "9.json", "foreign", "explicit", foreign, "");
    setvar("GLMUX_LAYER_PATH", d);
    setvar("GLMUX_LAYERS", "good,decline,android,badabi,noentry,androidhalf,foreign");
    CHECK(glmux_layers_load_env(&fenv, &out, &count, test_get_next));
    CHECK_MSG(count == 2, "%zu loaded", count);
    CHECK(strcmp(out[0].name, "good") == 0 && strcmp(out[1].name, "android") == 0);
    CHECK(out[0].get_proc_address != NULL && out[0].android_get_proc_address == NULL);
    CHECK(out[1].android_get_proc_address != NULL && out[1].get_proc_address == NULL);
    CHECK(out[0].apis == (GLMUX_LAYER_API_GL | GLMUX_LAYER_API_EGL));
    CHECK(strstr(out[0].manifest, "/0.json") != NULL && strcmp(out[0].library, libs[0]) == 0);
    /* Android's layer called get_next while it initialized, with its final address. */
    CHECK(seen_layer_id == &out[1]);

    /* Bottom first: badabi (then refused), android, decline (refused), good. */
    trace = read_all(layer_log);
    CHECK_MSG(strcmp(trace, "init badabi\ninit android\nnext-ok android\ninit decline\n"
                            "init good\n") == 0, "trace:\n%s", trace);
    free(trace);

    /* The answers: each layer's own hook, or next. */
    hook = dlsym(out[0].handle, "test_layer_hook");
    CHECK(hook != NULL);
    CHECK(glmux_layer_ask(&out[0], "glClear", GLMUX_LAYER_API_GL, (void *)1) == hook);
    CHECK(glmux_layer_ask(&out[0], "glFlush", GLMUX_LAYER_API_GL, (void *)1) == (void *)1);
    CHECK(glmux_layer_ask(&out[0], "glXSwapBuffers", GLMUX_LAYER_API_GLX, (void *)1) ==
          (void *)1); /* not in its apis */
    CHECK(glmux_layer_ask(&out[1], "glClear", GLMUX_LAYER_API_GL, (void *)1) ==
          dlsym(out[1].handle, "test_layer_hook"));
    CHECK(test_get_next(&out[0], "glClear") == dlsym(out[1].handle, "test_layer_hook"));
    CHECK(test_get_next(&out[1], "glClear") == (void *)terminator_sentinel);

    glmux_layers_unload(out, count);
    trace = read_all(layer_log);
    CHECK_MSG(strstr(trace, "unload good\n") != NULL, "trace:\n%s", trace);
    free(trace);

    /* One message per failure, naming the manifest. */
    msgs = read_all(log_path);
    static const char *const want[] = {
        "layer decline (", "its glmux_layer_negotiate declined (returned 1)",
        "layer badabi (", "it speaks layer ABI 2.0",
        "layer noentry (", "exports neither glmux_layer_negotiate",
        "layer androidhalf (", "but not AndroidGLESLayer_GetProcAddress",
        "layer foreign (", "wrong architecture",
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        CHECK_MSG(strstr(msgs, want[i]) != NULL, "no \"%s\" in the log:\n%s", want[i], msgs);
    CHECK(strstr(msgs, "/2.json) not loaded") != NULL);
    {
        const char *first = strstr(msgs, "layer decline (");
        CHECK(first != NULL && strstr(first + 1, "layer decline (") == NULL);
    }
    free(msgs);

    /* Nothing on: nothing loaded. */
    setvar("GLMUX_LAYERS", NULL);
    CHECK(!glmux_layers_load_env(&fenv, &out, &count, test_get_next));
    CHECK(out == NULL && count == 0);
    free(d);
    free(foreign);
}

int main(int argc, char **argv)
{
    char *log_path, *layer_log;

    if (argc == 2 && strcmp(argv[1], "--quick") == 0) {
        /* The loader's quick answer, with the layer messages off (GLMUX_DEBUG unset). */
        unsetenv("GLMUX_DEBUG");
        snprintf(work, sizeof(work), "%s/glmux-layers-XXXXXX", glmux_test_tmpdir());
        CHECK(mkdtemp(work) != NULL);
        CHECK(chmod(work, 0755) == 0);
        make_bases();
        test_quick();
        test_quick_explicit();
        clearvars();
        CHECK(nftw(work, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0);
        printf("ok\n");
        return 0;
    }
    if (argc < 8) {
        fprintf(stderr, "usage: %s FIXTURES GOOD ANDROID DECLINE BADABI NOENTRY ANDROIDHALF "
                "[LIB32]\n", argv[0]);
        return 2;
    }
    snprintf(work, sizeof(work), "%s/glmux-layers-XXXXXX", glmux_test_tmpdir());
    CHECK(mkdtemp(work) != NULL);
    CHECK(chmod(work, 0755) == 0);
    make_bases();
    log_path = path_in(work, "glmux.log");
    layer_log = path_in(work, "layers.log");
    /* Before the first message: the log reads its configuration once. */
    setenv("GLMUX_DEBUG", "warn,layer", 1);
    setenv("GLMUX_DEBUG_FILE", log_path, 1);
    setenv("TEST_LAYER_LOG", layer_log, 1);

    test_parser(argv[1]);
    test_filters();
    test_folders();
    test_precedence(argv[2]);
    test_secure(argv[2]);
    test_split(argv[2], log_path);
    test_arch(argc > 8 && argv[8][0] != '\0' ? argv[8] : NULL);
    test_load(argv + 2, log_path, layer_log);

    clearvars();
    free(log_path);
    free(layer_log);
    CHECK(nftw(work, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0);
    printf("ok\n");
    return 0;
}
