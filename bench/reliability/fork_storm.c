/* SPDX-License-Identifier: MIT */
/*
 * glmux reliability figures: fork while other threads are inside the libraries. THREADS
 * threads look up new names through eglGetProcAddress and glXGetProcAddress (which take
 * libGLdispatch's and the API libraries' locks, and log under GLMUX_DEBUG=all) and ask
 * libEGL for its client extensions, without pause; the main thread forks FORKS times. Each
 * child looks up new names through both libraries and exits. A child that has not exited 30
 * seconds after its fork is counted hung (a lock held at fork time and never released in the
 * child) and killed; one ended by a signal is counted crashed. The libraries are dlopened from
 * LIBDIR (glmux's build or Debian's libglvnd), so one program measures both.
 *   glmux_fork_storm --libdir DIR --forks N [--threads T]
 * Prints "forks N exited E hung H crashed C". Exit 0 when every child exited, 1 otherwise, 2 on
 * setup errors.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HANG_SECONDS 30
#define MAX_THREADS 16

typedef void *(*get_proc_fn)(const char *);
typedef const char *(*query_string_fn)(void *, int);

static get_proc_fn egl_get_proc, glx_get_proc;
static query_string_fn egl_query_string;
static atomic_bool stop;
static atomic_uint serial;

static void *open_lib(const char *dir, const char *soname)
{
    char path[4096];
    void *h;

    snprintf(path, sizeof(path), "%s/%s", dir, soname);
    h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (h == NULL) {
        fprintf(stderr, "fork_storm: %s\n", dlerror());
        exit(2);
    }
    return h;
}

/* Two new names, one per library, and libEGL's client extension string. */
static void lookups(const char *who)
{
    char name[64];
    unsigned n = atomic_fetch_add(&serial, 1);

    snprintf(name, sizeof(name), "glForkStorm%s%u", who, n);
    egl_get_proc(name);
    snprintf(name, sizeof(name), "glXForkStorm%s%u", who, n);
    glx_get_proc(name);
    egl_query_string(NULL, 0x3055 /* EGL_EXTENSIONS */);
}

static void *busy(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop))
        lookups("T");
    return NULL;
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    const char *libdir = NULL;
    int forks = 400, threads = 4, exited = 0, hung = 0, crashed = 0;
    pthread_t tid[MAX_THREADS];
    void *egl, *glx;

    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--libdir") == 0)
            libdir = argv[i + 1];
        else if (strcmp(argv[i], "--forks") == 0)
            forks = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--threads") == 0)
            threads = atoi(argv[i + 1]);
    }
    if (libdir == NULL || forks < 1 || threads < 1 || threads > MAX_THREADS) {
        fprintf(stderr, "usage: glmux_fork_storm --libdir DIR --forks N [--threads 1-16]\n");
        return 2;
    }
    egl = open_lib(libdir, "libEGL.so.1");
    glx = open_lib(libdir, "libGLX.so.0");
    egl_get_proc = (get_proc_fn)dlsym(egl, "eglGetProcAddress");
    egl_query_string = (query_string_fn)dlsym(egl, "eglQueryString");
    glx_get_proc = (get_proc_fn)dlsym(glx, "glXGetProcAddress");
    if (egl_get_proc == NULL || egl_query_string == NULL || glx_get_proc == NULL) {
        fprintf(stderr, "fork_storm: missing entry points\n");
        return 2;
    }
    for (int t = 0; t < threads; t++)
        pthread_create(&tid[t], NULL, busy, NULL);
    for (int i = 0; i < forks; i++) {
        pid_t pid = fork();
        double start = now();
        int status;

        if (pid < 0) {
            perror("fork_storm: fork");
            return 2;
        }
        if (pid == 0) {
            lookups("C");
            _exit(0);
        }
        /* A bounded wait: this measures, it does not synchronize with the child. */
        for (;;) {
            pid_t r = waitpid(pid, &status, WNOHANG);
            if (r == pid) {
                if (WIFSIGNALED(status))
                    crashed++;
                else
                    exited++;
                break;
            }
            if (r < 0 && errno != EINTR) {
                perror("fork_storm: waitpid");
                return 2;
            }
            if (now() - start > HANG_SECONDS) {
                hung++;
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                break;
            }
            nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
        }
    }
    atomic_store(&stop, true);
    for (int t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);
    printf("forks %d exited %d hung %d crashed %d\n", forks, exited, hung, crashed);
    return exited == forks ? 0 : 1;
}
