/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the lifetime of thread records (docs/architecture.md, "Threads, fork, unload").
 *
 *   test_lifetime unload glx|egl fake|mesa LIBRARY
 *     dlopens LIBRARY (libGL.so.1 or libGLX.so.0 for glx, libEGL.so.1 for egl), makes a
 *     context current on 4 threads and renders, dlcloses it from the main thread while they
 *     are current, then lets the threads exit. The program is linked with libOpenGL, so
 *     libGLdispatch stays loaded and runs the threads' record destructors: nothing may call
 *     into the unloaded library. Then it loads the library again and renders once more.
 *   test_lifetime fork fake|mesa
 *     (linked with libGLX and libEGL) an EGL and a GLX context current on two other threads
 *     and, with the fakes, a GLX context on the main thread, then fork: the child starts with
 *     no current context, makes new contexts of both and renders, and (fake vendors) exits
 *     normally so that LeakSanitizer or valgrind sees every record of the parent freed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <X11/Xlib.h>

#include "glmux_test.h"
#include "lifetime.h"

#define THREADS 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* What the threads made current: global, so that it stays reachable after fork. */
static struct lt_current held[THREADS];
static int next_slot;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready;
static bool go;

static void wait_until(bool (*done)(void))
{
    pthread_mutex_lock(&lock);
    while (!done())
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
}

static bool all_ready(void)
{
    return ready == THREADS;
}

static bool told_to_go(void)
{
    return go;
}

static void signal_ready(void)
{
    pthread_mutex_lock(&lock);
    ready++;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

static void signal_go(void)
{
    pthread_mutex_lock(&lock);
    go = true;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

/* Makes a context current, renders, and keeps it current until told to go. */
static void *holder(void *arg)
{
    const struct lt_api *api = arg;
    int i = __atomic_fetch_add(&next_slot, 1, __ATOMIC_RELAXED) % THREADS;

    lt_make_current(api, &held[i]);
    lt_render(api);
    signal_ready();
    wait_until(told_to_go);
    return NULL;
}

static const char *soname_of(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

static int mode_unload(const char *name, bool mesa, const char *path)
{
    struct lt_api api = { .name = name, .mesa = mesa };
    const char *winsys = strcmp(name, "glx") == 0 ? "libGLX.so.0" : "libEGL.so.1";
    pthread_t t[THREADS];
    struct lt_current mine;
    void *lib;

    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(lib != NULL, "%s", dlerror());
    glmux_test_require_ours(soname_of(path));
    glmux_test_require_ours(winsys);
    glmux_test_require_ours("libGLdispatch.so.0");
    lt_api_bind(&api, lib);
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, holder, &api) == 0);
    wait_until(all_ready);
    CHECK(dlclose(lib) == 0);
    CHECK_MSG(glmux_test_loaded_path(winsys) == NULL, "%s is still loaded", winsys);
    /* The threads exit with their contexts current: libGLdispatch frees their records. */
    signal_go();
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_join(t[i], NULL) == 0);

    /* Loaded again, the library works as new. */
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(lib != NULL, "%s", dlerror());
    glmux_test_require_ours(winsys);
    lt_api_bind(&api, lib);
    lt_make_current(&api, &mine);
    lt_render(&api);
    lt_release(&api, &mine);
    CHECK(dlclose(lib) == 0);
    printf("%s: unloaded with contexts current on %d threads, loaded again\n", name, THREADS);
    return 0;
}

static bool two_ready(void)
{
    return ready == 2;
}

static int mode_fork(bool mesa)
{
    struct lt_api glx = { .name = "glx", .mesa = mesa };
    struct lt_api egl = { .name = "egl", .mesa = mesa };
    struct lt_current parent_glx, child_glx, child_egl;
    pthread_t t[2];
    pid_t pid;
    int status;

    glmux_test_require_ours("libGLX.so.0");
    glmux_test_require_ours("libEGL.so.1");
    glmux_test_require_ours("libGLdispatch.so.0");
    lt_api_bind(&glx, RTLD_DEFAULT);
    lt_api_bind(&egl, RTLD_DEFAULT);
    CHECK(pthread_create(&t[0], NULL, holder, &egl) == 0);
    CHECK(pthread_create(&t[1], NULL, holder, &glx) == 0);
    wait_until(two_ready);
    /*
     * With the fakes the forking thread has a GLX context current too. Not with Mesa: its own
     * thread state survives in the child, and its next make-current there would flush the
     * parent's context over the parent's X connection (as with libglvnd).
     */
    if (!mesa) {
        lt_make_current(&glx, &parent_glx);
        lt_render(&glx);
    }

    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        /* Only this thread exists; none of the parent's contexts is current here. */
        CHECK(!lt_has_current(&glx) && !lt_has_current(&egl));
        lt_make_current(&egl, &child_egl);
        lt_render(&egl);
        lt_release(&egl, &child_egl);
        lt_make_current(&glx, &child_glx);
        lt_render(&glx);
        lt_release(&glx, &child_glx);
        /*
         * Not _exit with the fakes: leak checkers run at exit. Mesa's exit handlers would
         * talk to the X server over connections the child shares with the parent.
         */
        if (mesa)
            _exit(0);
        exit(0);
    }
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);

    /* The parent's contexts are untouched. */
    if (!mesa) {
        CHECK(lt_has_current(&glx));
        lt_render(&glx);
        lt_release(&glx, &parent_glx);
    }
    signal_go();
    CHECK(pthread_join(t[0], NULL) == 0 && pthread_join(t[1], NULL) == 0);
    printf("fork with EGL and GLX current: the child made and rendered new contexts\n");
    return 0;
}

int main(int argc, char **argv)
{
    CHECK(XInitThreads());
    if (argc == 5 && strcmp(argv[1], "unload") == 0)
        return mode_unload(argv[2], strcmp(argv[3], "mesa") == 0, argv[4]);
    if (argc == 3 && strcmp(argv[1], "fork") == 0)
        return mode_fork(strcmp(argv[2], "mesa") == 0);
    fprintf(stderr, "usage: %s unload glx|egl fake|mesa LIBRARY | fork fake|mesa\n", argv[0]);
    return 2;
}
