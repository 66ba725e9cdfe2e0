/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: proving which library a process really loaded (Debian installs libglvnd next to
 * Mesa, so every integration test checks the path of the objects it used), and the helpers
 * every test shares (glmux_test.h).
 */
#define _GNU_SOURCE
#include "glmux_test.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_LSAN 1
#endif
#endif
#ifdef HAVE_LSAN
#include <sanitizer/lsan_interface.h>
#endif

struct find {
    const char *soname;
    char path[PATH_MAX];
    bool found;
};

static int visit(struct dl_phdr_info *info, size_t size, void *data)
{
    struct find *f = data;
    const char *base;

    (void)size;
    if (info->dlpi_name == NULL || info->dlpi_name[0] == '\0')
        return 0;
    base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    if (strncmp(base, f->soname, strlen(f->soname)) != 0)
        return 0;
    if (realpath(info->dlpi_name, f->path) == NULL)
        snprintf(f->path, sizeof(f->path), "%s", info->dlpi_name);
    f->found = true;
    return 1;
}

const char *glmux_test_loaded_path(const char *soname)
{
    static __thread struct find f;

    memset(&f, 0, sizeof(f));
    f.soname = soname;
    dl_iterate_phdr(visit, &f);
    return f.found ? f.path : NULL;
}

void glmux_test_require_ours(const char *soname)
{
    const char *dir = getenv("GLMUX_TEST_LIB_DIR");
    const char *path = glmux_test_loaded_path(soname);
    char real[PATH_MAX];

#ifdef GLMUX_TEST_BUILD_DIR
    if (dir == NULL)
        dir = GLMUX_TEST_BUILD_DIR;
#endif
    CHECK_MSG(path != NULL, "%s is not loaded", soname);
    if (realpath(dir, real) != NULL)
        dir = real;
    CHECK_MSG(strncmp(path, dir, strlen(dir)) == 0,
              "%s was loaded from %s, not from glmux (%s)", soname, path, dir);
    printf("loaded %s from %s\n", soname, path);
}

struct drivers {
    char paths[16][PATH_MAX];
    int count;
};

static int visit_driver(struct dl_phdr_info *info, size_t size, void *data)
{
    struct drivers *d = data;
    const char *base;

    (void)size;
    if (info->dlpi_name == NULL || info->dlpi_name[0] == '\0' || d->count == 16)
        return 0;
    base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    if (strstr(base, "_dri.so") != NULL || strncmp(base, "libgallium", 10) == 0)
        snprintf(d->paths[d->count++], PATH_MAX, "%s", info->dlpi_name);
    return 0;
}

int glmux_test_keep_drivers(void)
{
    static struct drivers d;
    int kept = 0;

    d.count = 0;
    dl_iterate_phdr(visit_driver, &d);     /* no dlopen while it holds the loader's lock */
    for (int i = 0; i < d.count; i++) {
        /* RTLD_NOLOAD with RTLD_NODELETE marks a loaded object never to be unmapped. */
        void *h = dlopen(d.paths[i], RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);

        if (h != NULL) {
            dlclose(h);
            kept++;
        }
    }
    return kept;
}

int glmux_test_open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0;

    CHECK(d != NULL);
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory's own descriptor */
}

static FILE *capture;
static int saved_stderr = -1;

void glmux_test_capture_begin(void)
{
    fflush(stderr);
    capture = tmpfile();
    CHECK(capture != NULL);
    saved_stderr = dup(STDERR_FILENO);
    CHECK(saved_stderr >= 0 && dup2(fileno(capture), STDERR_FILENO) == STDERR_FILENO);
}

char *glmux_test_capture_end(void)
{
    long n;
    char *text;

    CHECK(dup2(saved_stderr, STDERR_FILENO) == STDERR_FILENO);
    close(saved_stderr);
    n = ftell(capture);
    CHECK(n >= 0 && (text = calloc(1, (size_t)n + 1)) != NULL);
    rewind(capture);
    CHECK(fread(text, 1, (size_t)n, capture) == (size_t)n);
    fclose(capture);
    return text;
}

int glmux_test_count(const char *text, const char *what)
{
    int n = 0;

    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* Removes each line of LeakSanitizer's notice that a thread was not suspended. */
static void drop_thread_notice(char *text)
{
    char *p;

    while ((p = strstr(text, "was not suspended. False leaks are possible.\n")) != NULL) {
        char *start = p, *end = strchr(p, '\n') + 1;

        while (start > text && start[-1] != '\n')
            start--;
        memmove(start, end, strlen(end) + 1);
    }
}

static void *kept_stack;
static size_t kept_stack_size;

void glmux_test_fork_keeps_thread_stack(void)
{
    pthread_attr_t attr;

    CHECK(pthread_getattr_np(pthread_self(), &attr) == 0);
    CHECK(pthread_attr_getstack(&attr, &kept_stack, &kept_stack_size) == 0);
    CHECK(pthread_attr_destroy(&attr) == 0);
}

/* In a child: the kept stack becomes a root region of LeakSanitizer (it does not scan the
 * stack of a thread it cannot suspend). */
static void child_roots(void)
{
#ifdef HAVE_LSAN
    if (kept_stack != NULL)
        __lsan_register_root_region(kept_stack, kept_stack_size);
#endif
}

void glmux_test_fork_children(int n, void (*child)(FILE *err))
{
    FILE *errs[16];
    pid_t pids[16];
    char text[4096];

    CHECK(n > 0 && n <= 16);
    for (int i = 0; i < n; i++) {
        errs[i] = tmpfile();
        CHECK(errs[i] != NULL);
        fflush(NULL);
        pids[i] = fork();
        CHECK(pids[i] >= 0);
        if (pids[i] == 0) {
            child_roots();
            child(errs[i]);
        }
        usleep(100 * 1000);
    }
    for (int i = 0; i < n; i++) {
        int status;
        size_t len;

        CHECK(waitpid(pids[i], &status, 0) == pids[i]);
        rewind(errs[i]);
        len = fread(text, 1, sizeof(text) - 1, errs[i]);
        text[len] = '\0';
        drop_thread_notice(text);
        CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d: status 0x%x: %s",
                  i, status, text);
        CHECK_MSG(text[0] == '\0', "child %d wrote: %s", i, text);
        fclose(errs[i]);
    }
}

bool glmux_test_xvfb_display(const char *which, char *name, size_t size)
{
    const char *dir = getenv("GLMUX_TEST_XVFB_DIR");
    char path[PATH_MAX];
    FILE *f;

    if (dir == NULL)
        return false;
    CHECK(size > 0);
    snprintf(path, sizeof(path), "%s/%s.display", dir, which);
    f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot read %s: did the xvfb fixture run?", path);
    name[0] = '\0';
    CHECK_MSG(fgets(name, (int)size, f) != NULL, "%s is empty", path);
    fclose(f);
    name[strcspn(name, "\n")] = '\0';
    if (strcmp(name, "none") == 0)
        SKIP("Xvfb is not installed");
    return true;
}
