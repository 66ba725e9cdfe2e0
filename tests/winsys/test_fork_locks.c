/* SPDX-License-Identifier: MIT */
/*
 * Every lock survives fork() (docs/architecture.md, "Threads, fork, unload"): no lock of
 * libGLX or libEGL is copied into a child while another thread of the parent is halfway
 * through an update under it.
 *   test_fork_locks window LIBEGL LIBGLX
 *     Deterministic: a thread is stopped inside realloc() while libGLX (then libEGL) grows a
 *     table under its lock for a new glXGetProcAddress (eglGetProcAddress) name: the old block
 *     is freed, the new one not yet stored. The main thread forks meanwhile; the child looks
 *     up more new names. With the locks taken before fork, fork() waits for that update (the
 *     stopped thread goes on at the latest after a generous bounded wait) and the child never
 *     hands the freed block to realloc again; without, it does, and the child says so. This
 *     program defines realloc() (it calls glibc's __libc_realloc), so it skips under the
 *     sanitizers, which own the allocator.
 *   test_fork_locks storm LIBEGL LIBGLX FORKS
 *     Four threads look up new names through both libraries while the main thread forks
 *     FORKS times; every child does the same and must exit normally (no hang: ctest's
 *     timeout; no crash). Runs in every configuration, ThreadSanitizer's included.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif

typedef void *(*get_proc_fn)(const char *);

static get_proc_fn egl_get_proc, glx_get_proc;
static atomic_uint serial;

static void open_libs(const char *egl_path, const char *glx_path)
{
    void *egl = dlopen(egl_path, RTLD_NOW | RTLD_GLOBAL);
    void *glx = dlopen(glx_path, RTLD_NOW | RTLD_GLOBAL);

    if (egl == NULL || glx == NULL) {
        fprintf(stderr, "test_fork_locks: %s\n", dlerror());
        exit(1);
    }
    egl_get_proc = (get_proc_fn)dlsym(egl, "eglGetProcAddress");
    glx_get_proc = (get_proc_fn)dlsym(glx, "glXGetProcAddress");
    if (egl_get_proc == NULL || glx_get_proc == NULL) {
        fprintf(stderr, "test_fork_locks: no eglGetProcAddress/glXGetProcAddress\n");
        exit(1);
    }
}

/* n new names through fn (glX... for libGLX, gl... for libEGL), each asked once. */
static void new_names(get_proc_fn fn, const char *prefix, int n)
{
    char name[64];

    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof(name), "%s%sForkLocks%u", fn == glx_get_proc ? "glX" : "gl",
                 prefix, atomic_fetch_add(&serial, 1));
        fn(name);
    }
}

/* ---- window ---- */

#ifndef SANITIZED
extern void *__libc_realloc(void *p, size_t size);

static pthread_mutex_t window_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t window_cond = PTHREAD_COND_INITIALIZER;
static pthread_t stopper;               /* the thread to stop in realloc */
static atomic_bool armed;               /* stop stopper's next growing realloc */
static bool stopped, forked;
static void *freed_block;               /* what the stopped realloc freed; NULL once stored */
static atomic_bool child_reused;
static bool in_child;

/* glibc's realloc, except that the armed thread stops after the move, before its caller
 * stores the new block; and in a child, realloc of that freed block is recorded. */
__attribute__((visibility("default"))) void *realloc(void *p, size_t size)
{
    void *q;

    if (in_child && p != NULL && p == freed_block)
        atomic_store(&child_reused, true);
    q = __libc_realloc(p, size);
    if (p != NULL && q != NULL && q != p && atomic_load(&armed) &&
        pthread_equal(pthread_self(), stopper)) {
        struct timespec t;

        atomic_store(&armed, false);
        pthread_mutex_lock(&window_lock);
        freed_block = p;
        stopped = true;
        pthread_cond_broadcast(&window_cond);
        /* Until the fork is over, bounded: with fork handlers that wait for this update,
         * fork() cannot finish before this thread goes on. */
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_sec += 3;
        while (!forked && pthread_cond_timedwait(&window_cond, &window_lock, &t) == 0)
            ;
        freed_block = NULL;
        pthread_mutex_unlock(&window_lock);
    }
    return q;
}

static void after_fork_parent(void)
{
    pthread_mutex_lock(&window_lock);
    forked = true;
    pthread_cond_broadcast(&window_cond);
    pthread_mutex_unlock(&window_lock);
}

static void *stop_thread(void *arg)
{
    get_proc_fn fn = *(get_proc_fn *)arg;

    stopper = pthread_self();

    /* Asks new names until one grows a table (the stop happens inside), or gives up. */
    for (int i = 0; i < 20000 && atomic_load(&armed); i++)
        new_names(fn, "T", 1);
    if (atomic_exchange(&armed, false)) {
        pthread_mutex_lock(&window_lock);
        stopped = true;
        pthread_cond_broadcast(&window_cond);
        pthread_mutex_unlock(&window_lock);
    }
    return NULL;
}

/* One round: 0 when the child never touched the block the stopped thread freed. */
static int window_round(const char *what, get_proc_fn fn, bool required)
{
    pthread_t tid;
    pid_t pid;
    int status;
    bool moved;

    /* Tables start small: grow them a little so the next growth moves a real block. */
    new_names(fn, "W", 100);
    stopped = forked = false;
    child_reused = false;
    atomic_store(&armed, true);
    if (pthread_create(&tid, NULL, stop_thread, &fn) != 0)
        return 1;
    pthread_mutex_lock(&window_lock);
    while (!stopped)
        pthread_cond_wait(&window_cond, &window_lock);
    moved = freed_block != NULL || forked;
    pthread_mutex_unlock(&window_lock);
    if (!moved) {
        pthread_join(tid, NULL);
        printf("%s: %s: 20000 new names moved no table\n", required ? "FAIL" : "note", what);
        return required ? 1 : 0;
    }
    pid = fork();
    if (pid == 0) {
        in_child = true;
        new_names(fn, "C", 300);
        _exit(atomic_load(&child_reused) ? 3 : 0);
    }
    pthread_join(tid, NULL);
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        perror("test_fork_locks: fork");
        return 1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        printf("ok: %s: the child saw the table whole\n", what);
        return 0;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
        printf("FAIL: %s: the child reallocated a block the parent's thread had already "
               "freed (a lock was copied into the child mid-update)\n", what);
    else
        printf("FAIL: %s: the child ended with status 0x%x\n", what, status);
    return 1;
}

static int window(void)
{
    int failed = 0;

    pthread_atfork(NULL, after_fork_parent, NULL);
    failed += window_round("glXGetProcAddress (libGLX's lock)", glx_get_proc, true);
    failed += window_round("eglGetProcAddress (libEGL's and libGLdispatch's locks)",
                           egl_get_proc, false);
    return failed ? 1 : 0;
}
#else
static int window(void)
{
    printf("skip: the window test defines realloc(); the sanitizers own the allocator\n");
    return 77;
}
#endif

/* ---- storm ---- */

static atomic_bool stop;

static void *busy(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        new_names(egl_get_proc, "T", 1);
        new_names(glx_get_proc, "T", 1);
    }
    return NULL;
}

static int storm(int forks)
{
    pthread_t tid[4];
    int bad = 0;

    for (int t = 0; t < 4; t++)
        pthread_create(&tid[t], NULL, busy, NULL);
    for (int i = 0; i < forks; i++) {
        int status;
        pid_t pid = fork();

        if (pid == 0) {
            new_names(egl_get_proc, "C", 20);
            new_names(glx_get_proc, "C", 20);
            _exit(0);
        }
        if (pid < 0 || waitpid(pid, &status, 0) != pid) {
            perror("test_fork_locks: fork");
            bad++;
            break;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            printf("FAIL: child %d ended with status 0x%x\n", i, status);
            bad++;
        }
    }
    atomic_store(&stop, true);
    for (int t = 0; t < 4; t++)
        pthread_join(tid[t], NULL);
    printf("%s: %d forks with 4 threads inside libEGL and libGLX, %d bad children\n",
           bad ? "FAIL" : "ok", forks, bad);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[1], "storm") == 0 && argc < 5)) {
        fprintf(stderr, "usage: test_fork_locks window|storm LIBEGL LIBGLX [FORKS]\n");
        return 2;
    }
    open_libs(argv[2], argv[3]);
    if (strcmp(argv[1], "window") == 0)
        return window();
    return storm(atoi(argv[4]));
}
