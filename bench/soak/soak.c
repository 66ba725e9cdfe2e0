/* SPDX-License-Identifier: MIT */
/*
 * glmux soak test: many threads rendering with Debian's real Mesa (llvmpipe) through our
 * libraries for minutes, while other threads look up real and random function names, fork, and
 * load and unload libGL.so.1 and libEGL.so.1. Every library of ours is reached through dlopen,
 * so unloading is real (counted with RTLD_NOLOAD). Even workers render through EGL (surfaceless
 * pbuffers), odd ones through GLX (one X connection each, GLX pbuffers), each with its own
 * context: make current, clear to a colour, read a pixel back, release.
 *
 *   glmux_soak --threads N --seconds S --libdir DIR [--names SLOTS_FILE] [--egl-unloads]
 *
 * Reports iterations, RSS and open file descriptors; exits 0 on success, 1 on a failed check
 * (rendering, a file descriptor leak, steady RSS growth, a library not loaded from DIR), 3 when
 * the watchdog sees a thread or a forked child make no progress for 60 seconds. A crash ends
 * the process with its signal. bench/soak/run_soak.sh starts Xvfb and sets the environment.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <EGL/egl.h>
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>

#define HANG_SECONDS 60
#define MAX_THREADS 64
#define MAX_SAMPLES 4096

struct egl_api {
    void *handle;
    PFNEGLGETPROCADDRESSPROC GetProcAddress;
    EGLDisplay (*GetDisplay)(EGLNativeDisplayType);
    EGLBoolean (*Initialize)(EGLDisplay, EGLint *, EGLint *);
    EGLBoolean (*BindAPI)(EGLenum);
    EGLBoolean (*ChooseConfig)(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *);
    EGLSurface (*CreatePbufferSurface)(EGLDisplay, EGLConfig, const EGLint *);
    EGLContext (*CreateContext)(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
    EGLBoolean (*MakeCurrent)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
    EGLBoolean (*DestroyContext)(EGLDisplay, EGLContext);
    EGLBoolean (*DestroySurface)(EGLDisplay, EGLSurface);
    EGLBoolean (*ReleaseThread)(void);
    EGLint (*GetError)(void);
};

struct glx_api {
    void *handle;
    void *(*GetProcAddress)(const GLubyte *);
    GLXFBConfig *(*ChooseFBConfig)(Display *, int, const int *, int *);
    GLXPbuffer (*CreatePbuffer)(Display *, GLXFBConfig, const int *);
    void (*DestroyPbuffer)(Display *, GLXPbuffer);
    GLXContext (*CreateNewContext)(Display *, GLXFBConfig, int, GLXContext, Bool);
    Bool (*MakeContextCurrent)(Display *, GLXDrawable, GLXDrawable, GLXContext);
    void (*DestroyContext)(Display *, GLXContext);
};

/* The GL functions a worker draws with, from its API's GetProcAddress. */
struct gl_api {
    void (*ClearColor)(GLfloat, GLfloat, GLfloat, GLfloat);
    void (*Clear)(GLbitfield);
    void (*ReadPixels)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
    void (*Finish)(void);
};

static struct {
    int threads;
    int seconds;
    const char *libdir;
    char **names; /* real GL names (the frozen slot list), for lookups */
    size_t n_names;
    bool egl_unloads; /* --egl-unloads: the loader really unloads libEGL now and then */
} opt = { 8, 60, NULL, NULL, 0, false };

static atomic_bool stop;
static atomic_int failed;
static struct worker {
    pthread_t thread;
    int index;
    atomic_ulong progress;     /* bumped at every step; the watchdog reads it */
    const char *volatile phase;
    unsigned long renders, lookups, sessions;
} workers[MAX_THREADS];
static atomic_ulong forks, fork_lookups, gl_cycles, gl_unloads, egl_cycles, egl_unloads;
static atomic_ulong random_lookups;
static struct worker helper_fork, helper_load;
/* Held for reading while a thread uses libEGL (EGL sessions, forks); the loader takes it for
 * writing now and then, so that its dlclose really unloads libEGL while GLX threads render. */
static pthread_rwlock_t egl_lock;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("soak: FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    atomic_store(&failed, 1);
    atomic_store(&stop, true);
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void step(struct worker *w, const char *phase)
{
    w->phase = phase;
    atomic_fetch_add(&w->progress, 1);
}

static void *sym(void *handle, const char *name)
{
    void *p = dlsym(handle, name);

    if (p == NULL)
        fail("%s is missing: %s", name, dlerror());
    return p;
}

/* True when the library is loaded from opt.libdir (the test proves it runs OUR libraries). */
static bool ours(void *handle, const char *soname)
{
    struct link_map *map = NULL;
    size_t n = strlen(opt.libdir);

    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == NULL)
        return false;
    if (strncmp(map->l_name, opt.libdir, n) != 0) {
        fail("%s was loaded from %s, not from %s", soname, map->l_name, opt.libdir);
        return false;
    }
    return true;
}

static bool open_egl(struct egl_api *e)
{
    e->handle = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (e->handle == NULL) {
        fail("dlopen libEGL.so.1: %s", dlerror());
        return false;
    }
#define GET(field, name) e->field = (__typeof__(e->field))sym(e->handle, name)
    GET(GetProcAddress, "eglGetProcAddress");
    GET(GetDisplay, "eglGetDisplay");
    GET(Initialize, "eglInitialize");
    GET(BindAPI, "eglBindAPI");
    GET(ChooseConfig, "eglChooseConfig");
    GET(CreatePbufferSurface, "eglCreatePbufferSurface");
    GET(CreateContext, "eglCreateContext");
    GET(MakeCurrent, "eglMakeCurrent");
    GET(DestroyContext, "eglDestroyContext");
    GET(DestroySurface, "eglDestroySurface");
    GET(ReleaseThread, "eglReleaseThread");
    GET(GetError, "eglGetError");
#undef GET
    return !atomic_load(&failed) && ours(e->handle, "libEGL.so.1");
}

static bool open_glx(struct glx_api *g)
{
    g->handle = dlopen("libGLX.so.0", RTLD_NOW | RTLD_LOCAL);
    if (g->handle == NULL) {
        fail("dlopen libGLX.so.0: %s", dlerror());
        return false;
    }
#define GET(field, name) g->field = (__typeof__(g->field))sym(g->handle, name)
    GET(GetProcAddress, "glXGetProcAddressARB");
    GET(ChooseFBConfig, "glXChooseFBConfig");
    GET(CreatePbuffer, "glXCreatePbuffer");
    GET(DestroyPbuffer, "glXDestroyPbuffer");
    GET(CreateNewContext, "glXCreateNewContext");
    GET(MakeContextCurrent, "glXMakeContextCurrent");
    GET(DestroyContext, "glXDestroyContext");
#undef GET
    return !atomic_load(&failed) && ours(g->handle, "libGLX.so.0");
}

static bool load_gl(struct gl_api *gl, void *(*gpa)(const char *))
{
    gl->ClearColor = (__typeof__(gl->ClearColor))gpa("glClearColor");
    gl->Clear = (__typeof__(gl->Clear))gpa("glClear");
    gl->ReadPixels = (__typeof__(gl->ReadPixels))gpa("glReadPixels");
    gl->Finish = (__typeof__(gl->Finish))gpa("glFinish");
    if (!gl->ClearColor || !gl->Clear || !gl->ReadPixels || !gl->Finish) {
        fail("a GL function could not be looked up");
        return false;
    }
    return true;
}

/* Clears to a colour derived from n and reads it back. */
static bool draw_and_check(const struct gl_api *gl, unsigned long n, const char *api)
{
    unsigned char want = (unsigned char)(n * 37 % 251), px[4] = { 0 };

    gl->ClearColor(want / 255.0f, 0.0f, 1.0f, 1.0f);
    gl->Clear(GL_COLOR_BUFFER_BIT);
    gl->ReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (abs(px[0] - want) > 1 || px[1] != 0 || px[2] != 255) {
        fail("%s: read back %u,%u,%u, expected %u,0,255", api, px[0], px[1], px[2], want);
        return false;
    }
    return true;
}

static unsigned rnd(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

/* One lookup of a real name and one of a random one ("gl" + letters, or no prefix at all). */
static void lookups(struct worker *w, void *(*gpa)(const char *), unsigned *seed)
{
    char name[24];
    unsigned len = 6 + rnd(seed) % 12;

    if (opt.n_names > 0 && gpa(opt.names[rnd(seed) % opt.n_names]) == NULL)
        fail("a GL name of the slot list has no address");
    snprintf(name, sizeof(name), "%s", rnd(seed) % 4 ? "gl" : "");
    for (size_t i = strlen(name); i < len; i++)
        name[i] = (char)('A' + rnd(seed) % 26 + (rnd(seed) % 2 ? 32 : 0));
    name[len] = '\0';
    (void)gpa(name);
    w->lookups += 2;
    atomic_fetch_add(&random_lookups, 1);
}

/* gpa adapters: each worker calls through its own API's GetProcAddress. */
static __thread struct egl_api *tl_egl;
static __thread struct glx_api *tl_glx;
static void *egl_gpa(const char *name)
{
    return (void *)tl_egl->GetProcAddress(name);
}
static void *glx_gpa(const char *name)
{
    return tl_glx->GetProcAddress((const GLubyte *)name);
}

static void *egl_worker(void *arg)
{
    struct worker *w = arg;
    unsigned seed = 0x5eed0000u + (unsigned)w->index;
    static const EGLint config_attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                             EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                             EGL_RED_SIZE, 8, EGL_NONE };
    static const EGLint pbuffer_attribs[] = { EGL_WIDTH, 8, EGL_HEIGHT, 8, EGL_NONE };

    while (!atomic_load(&stop)) {
        /* A session: load libEGL, render for a while, release everything, unload. */
        struct egl_api e;
        struct gl_api gl;
        EGLDisplay dpy;
        EGLConfig config;
        EGLint n = 0;
        EGLSurface surf;
        EGLContext ctx;

        step(w, "egl: wait for the loader");
        pthread_rwlock_rdlock(&egl_lock);
        step(w, "egl: open");
        if (!open_egl(&e)) {
            pthread_rwlock_unlock(&egl_lock);
            break;
        }
        tl_egl = &e;
        dpy = e.GetDisplay(EGL_DEFAULT_DISPLAY);
        if (dpy == EGL_NO_DISPLAY || !e.Initialize(dpy, NULL, NULL) ||
            !e.BindAPI(EGL_OPENGL_API) || !e.ChooseConfig(dpy, config_attribs, &config, 1, &n) ||
            n < 1) {
            fail("egl thread %d: no display (%p) or config (%d), error 0x%x", w->index, dpy, n,
                 e.GetError());
            pthread_rwlock_unlock(&egl_lock);
            break;
        }
        surf = e.CreatePbufferSurface(dpy, config, pbuffer_attribs);
        ctx = e.CreateContext(dpy, config, EGL_NO_CONTEXT, NULL);
        if (surf == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT || !load_gl(&gl, egl_gpa)) {
            fail("egl thread %d: no surface or context", w->index);
            pthread_rwlock_unlock(&egl_lock);
            break;
        }
        for (int i = 0; i < 400 && !atomic_load(&stop); i++) {
            step(w, "egl: make current");
            if (!e.MakeCurrent(dpy, surf, surf, ctx)) {
                fail("egl thread %d: eglMakeCurrent failed", w->index);
                break;
            }
            step(w, "egl: draw");
            if (!draw_and_check(&gl, w->renders, "egl"))
                break;
            step(w, "egl: release");
            e.MakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            w->renders++;
            step(w, "egl: lookups");
            lookups(w, egl_gpa, &seed);
        }
        step(w, "egl: close");
        e.DestroyContext(dpy, ctx);
        e.DestroySurface(dpy, surf);
        e.ReleaseThread();
        dlclose(e.handle);
        pthread_rwlock_unlock(&egl_lock);
        w->sessions++;
    }
    step(w, "egl: done");
    return NULL;
}

static void *glx_worker(void *arg)
{
    struct worker *w = arg;
    unsigned seed = 0x61780000u + (unsigned)w->index;
    static const int fb_attribs[] = { GLX_DRAWABLE_TYPE, GLX_PBUFFER_BIT, GLX_RENDER_TYPE,
                                      GLX_RGBA_BIT, GLX_RED_SIZE, 8, None };
    static const int pb_attribs[] = { GLX_PBUFFER_WIDTH, 8, GLX_PBUFFER_HEIGHT, 8, None };
    struct glx_api g;
    struct gl_api gl;
    Display *dpy;
    GLXFBConfig *configs;
    int n = 0;
    GLXPbuffer pb;
    GLXContext ctx;

    step(w, "glx: open");
    if (!open_glx(&g))
        return NULL;
    tl_glx = &g;
    dpy = XOpenDisplay(NULL);
    if (dpy == NULL) {
        fail("glx thread %d: cannot open the X display", w->index);
        return NULL;
    }
    configs = g.ChooseFBConfig(dpy, DefaultScreen(dpy), fb_attribs, &n);
    if (configs == NULL || n < 1) {
        fail("glx thread %d: no GLX FBConfig", w->index);
        return NULL;
    }
    pb = g.CreatePbuffer(dpy, configs[0], pb_attribs);
    ctx = g.CreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    XFree(configs);
    if (pb == None || ctx == NULL || !load_gl(&gl, glx_gpa)) {
        fail("glx thread %d: no pbuffer or context", w->index);
        return NULL;
    }
    while (!atomic_load(&stop)) {
        step(w, "glx: make current");
        if (!g.MakeContextCurrent(dpy, pb, pb, ctx)) {
            fail("glx thread %d: glXMakeContextCurrent failed", w->index);
            break;
        }
        step(w, "glx: draw");
        if (!draw_and_check(&gl, w->renders, "glx"))
            break;
        step(w, "glx: release");
        g.MakeContextCurrent(dpy, None, None, NULL);
        w->renders++;
        step(w, "glx: lookups");
        lookups(w, glx_gpa, &seed);
    }
    step(w, "glx: close");
    g.MakeContextCurrent(dpy, None, None, NULL);
    g.DestroyContext(dpy, ctx);
    g.DestroyPbuffer(dpy, pb);
    XCloseDisplay(dpy);
    dlclose(g.handle);
    return NULL;
}

/* Loads and unloads libGL.so.1 (held by no one else: a real unload each time) and libEGL.so.1
 * (held by the EGL workers during their sessions; with --egl-unloads, every 25th time the loader
 * waits for them to finish, so that libEGL is really unloaded), looking a few names up each
 * time. */
static void *load_worker(void *arg)
{
    struct worker *w = arg;
    unsigned seed = 0x10ad;

    while (!atomic_load(&stop)) {
        static const char *const libs[] = { "libGL.so.1", "libEGL.so.1" };

        for (int k = 0; k < 2 && !atomic_load(&stop); k++) {
            void *h, *again;
            void *(*gpa)(const char *);
            bool exclusive = opt.egl_unloads && k == 1 && atomic_load(&egl_cycles) % 25 == 0;

            if (exclusive) {
                step(w, "load: wait for the EGL threads");
                pthread_rwlock_wrlock(&egl_lock);
            }

            step(w, k ? "load: dlopen libEGL" : "load: dlopen libGL");
            h = dlopen(libs[k], RTLD_NOW | RTLD_LOCAL);
            if (h == NULL || !ours(h, libs[k]) ||
                (gpa = (void *(*)(const char *))sym(h, k ? "eglGetProcAddress"
                                                           : "glXGetProcAddress")) == NULL) {
                if (h == NULL)
                    fail("dlopen %s: %s", libs[k], dlerror());
                if (exclusive)
                    pthread_rwlock_unlock(&egl_lock);
                break;
            }
            step(w, "load: lookups");
            for (int i = 0; i < 8; i++)
                lookups(w, gpa, &seed);
            if (k == 0) {
                void (*clear)(GLbitfield) = (void (*)(GLbitfield))sym(h, "glClear");

                if (clear != NULL)
                    clear(GL_COLOR_BUFFER_BIT); /* no context here: a no-op */
            }
            step(w, k ? "load: dlclose libEGL" : "load: dlclose libGL");
            dlclose(h);
            again = dlopen(libs[k], RTLD_NOW | RTLD_NOLOAD);
            if (again == NULL)
                atomic_fetch_add(k ? &egl_unloads : &gl_unloads, 1);
            else
                dlclose(again);
            if (exclusive)
                pthread_rwlock_unlock(&egl_lock);
            atomic_fetch_add(k ? &egl_cycles : &gl_cycles, 1);
        }
        usleep(2000);
    }
    step(w, "load: done");
    return NULL;
}

/*
 * Forks every 50 ms while the other threads render, look up and load. The child calls
 * eglGetProcAddress and glXGetProcAddress, for known names and a new one (which takes glmux's
 * locks), then exits. It does not dlopen: glibc's loader is not usable in the child of a process
 * forked while another thread was inside dlopen. libGLX is held for the whole run; libEGL is
 * loaded around each fork, under the EGL lock.
 */
static void *fork_worker(void *arg)
{
    struct worker *w = arg;
    void *glx = dlopen("libGLX.so.0", RTLD_NOW | RTLD_LOCAL);
    void *(*glx_gpa)(const char *);

    if (glx == NULL || !ours(glx, "libGLX.so.0") ||
        (glx_gpa = (void *(*)(const char *))sym(glx, "glXGetProcAddressARB")) == NULL) {
        fail("the fork thread cannot load libGLX: %s", dlerror());
        return NULL;
    }
    while (!atomic_load(&stop)) {
        void *egl;
        void *(*gpa[2])(const char *) = { NULL, glx_gpa };
        pid_t pid;
        int status = 0;
        double deadline;

        step(w, "fork: load libEGL");
        pthread_rwlock_rdlock(&egl_lock);
        egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
        if (egl == NULL || !ours(egl, "libEGL.so.1") ||
            (gpa[0] = (void *(*)(const char *))sym(egl, "eglGetProcAddress")) == NULL) {
            fail("the fork thread cannot load libEGL: %s", dlerror());
            pthread_rwlock_unlock(&egl_lock);
            break;
        }
        gpa[0]("glClear"); /* libEGL finds its vendors now, not in the child */
        step(w, "fork: fork");
        pid = fork();
        if (pid < 0) {
            fail("fork: %s", strerror(errno));
            pthread_rwlock_unlock(&egl_lock);
            break;
        }
        if (pid == 0) {
            char name[32];
            int bad = 0;

            alarm(HANG_SECONDS);
            snprintf(name, sizeof(name), "glSoakChild%d", (int)getpid() % 1000);
            for (int k = 0; k < 2; k++) {
                if (gpa[k]("glClear") == NULL || gpa[k]("glDrawArrays") == NULL) {
                    fprintf(stderr, "soak: forked child: %s failed\n",
                            k ? "glXGetProcAddress" : "eglGetProcAddress");
                    bad = 1;
                }
                (void)gpa[k](name);
            }
            _exit(bad);
        }
        step(w, "fork: wait");
        deadline = now() + HANG_SECONDS + 5;
        while (waitpid(pid, &status, WNOHANG) == 0) {
            if (now() > deadline) {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                fprintf(stderr, "soak: FAIL: a forked child made no progress for %d s\n",
                        HANG_SECONDS);
                _exit(3);
            }
            usleep(1000);
        }
        dlclose(egl);
        pthread_rwlock_unlock(&egl_lock);
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
            fprintf(stderr, "soak: FAIL: a forked child made no progress for %d s (a lock "
                    "held across fork?)\n", HANG_SECONDS);
            _exit(3);
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fail("a forked child failed (status 0x%x): its lookups failed or it crashed", status);
            break;
        }
        atomic_fetch_add(&forks, 1);
        atomic_fetch_add(&fork_lookups, 6);
        usleep(50000);
    }
    step(w, "fork: done");
    dlclose(glx);
    return NULL;
}

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    char line[256];
    long kib = -1;

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0;

    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory's own descriptor */
}

static void read_names(const char *path)
{
    FILE *f = fopen(path, "re");
    char line[256];
    size_t cap = 0;

    if (f == NULL) {
        fprintf(stderr, "soak: cannot read %s\n", path);
        exit(2);
    }
    while (fgets(line, sizeof(line), f)) {
        char name[128];

        if (sscanf(line, "%127s", name) != 1 || name[0] == '#' || strncmp(name, "gl", 2) != 0)
            continue;
        if (opt.n_names == cap) {
            cap = cap ? cap * 2 : 1024;
            opt.names = realloc(opt.names, cap * sizeof(*opt.names));
        }
        opt.names[opt.n_names++] = strdup(name);
    }
    fclose(f);
}

static double mean(const long *v, size_t from, size_t to)
{
    double s = 0;

    for (size_t i = from; i < to; i++)
        s += (double)v[i];
    return to > from ? s / (double)(to - from) : 0;
}

static void report_hang(struct worker *w, const char *what)
{
    fprintf(stderr, "soak: FAIL: %s made no progress for %d s (last step: %s)\n", what,
            HANG_SECONDS, w->phase ? w->phase : "?");
    _exit(3);
}

int main(int argc, char **argv)
{
    static long rss[MAX_SAMPLES];
    unsigned long last[MAX_THREADS + 2] = { 0 };
    double last_move[MAX_THREADS + 2], start, warm, next_sample;
    size_t n_rss = 0;
    int fds_before, fds_start = -1, fds_last = -1, fds_end;
    long rss_start = 0, rss_peak = 0;
    struct worker *all[MAX_THREADS + 2];
    int n_all = 0;
    unsigned long renders = 0, lookups_total = 0, sessions = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            opt.threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            opt.seconds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--libdir") == 0 && i + 1 < argc)
            opt.libdir = argv[++i];
        else if (strcmp(argv[i], "--names") == 0 && i + 1 < argc)
            read_names(argv[++i]);
        else if (strcmp(argv[i], "--egl-unloads") == 0)
            opt.egl_unloads = true;
        else {
            fprintf(stderr, "usage: glmux_soak --threads N --seconds S --libdir DIR "
                            "[--names SLOTS_FILE] [--egl-unloads]\n");
            return 2;
        }
    }
    if (opt.libdir == NULL || opt.threads < 1 || opt.threads > MAX_THREADS || opt.seconds < 10) {
        fprintf(stderr, "glmux_soak: --libdir is required; 1-%d threads; at least 10 s\n",
                MAX_THREADS);
        return 2;
    }
    if (!XInitThreads()) {
        fprintf(stderr, "glmux_soak: XInitThreads failed\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    {
        pthread_rwlockattr_t attr;

        pthread_rwlockattr_init(&attr);
        pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
        pthread_rwlock_init(&egl_lock, &attr);
        pthread_rwlockattr_destroy(&attr);
    }
    fds_before = open_fds();
    start = now();
    for (int i = 0; i < opt.threads; i++) {
        workers[i].index = i;
        pthread_create(&workers[i].thread, NULL, i % 2 ? glx_worker : egl_worker, &workers[i]);
        all[n_all++] = &workers[i];
    }
    pthread_create(&helper_load.thread, NULL, load_worker, &helper_load);
    pthread_create(&helper_fork.thread, NULL, fork_worker, &helper_fork);
    all[n_all++] = &helper_load;
    all[n_all++] = &helper_fork;
    for (int i = 0; i < n_all; i++)
        last_move[i] = start;

    /* Warm-up: a tenth of the run (at most 30 s); the baselines are taken after it. */
    warm = start + (opt.seconds / 10 < 30 ? opt.seconds / 10 : 30);
    next_sample = warm;
    while (!atomic_load(&stop) && now() < start + opt.seconds) {
        double t = now();

        usleep(200000);
        for (int i = 0; i < n_all; i++) {
            unsigned long p = atomic_load(&all[i]->progress);

            if (p != last[i]) {
                last[i] = p;
                last_move[i] = t;
            } else if (t - last_move[i] > HANG_SECONDS) {
                char what[32];

                if (all[i] == &helper_load)
                    snprintf(what, sizeof(what), "the loader thread");
                else if (all[i] == &helper_fork)
                    snprintf(what, sizeof(what), "the fork thread");
                else
                    snprintf(what, sizeof(what), "worker %d", i);
                report_hang(all[i], what);
            }
        }
        if (t >= next_sample && n_rss < MAX_SAMPLES) {
            long r = rss_kib();

            if (fds_start < 0) {
                fds_start = open_fds();
                rss_start = r;
            }
            rss[n_rss++] = r;
            fds_last = open_fds();
            if (r > rss_peak)
                rss_peak = r;
            next_sample = t + 1.0;
        }
    }
    atomic_store(&stop, true);
    /* Joining is watched too: a thread stuck in a lock would hang here. */
    for (int i = 0; i < n_all; i++) {
        struct timespec limit;

        clock_gettime(CLOCK_REALTIME, &limit);
        limit.tv_sec += HANG_SECONDS;
        if (pthread_timedjoin_np(all[i]->thread, NULL, &limit) != 0)
            report_hang(all[i], "a thread at the end of the run");
    }
    fds_end = open_fds();
    for (int i = 0; i < opt.threads; i++) {
        renders += workers[i].renders;
        lookups_total += workers[i].lookups;
        sessions += workers[i].sessions;
    }
    lookups_total += helper_load.lookups + atomic_load(&fork_lookups);

    printf("soak: %d threads (%d EGL, %d GLX) + loader + forker, %.0f s, Mesa through %s\n",
           opt.threads, (opt.threads + 1) / 2, opt.threads / 2, now() - start, opt.libdir);
    printf("soak: make-current/draw/release: %lu (EGL sessions reloading libEGL: %lu)\n",
           renders, sessions);
    printf("soak: GetProcAddress: %lu (%lu random names)\n", lookups_total,
           atomic_load(&random_lookups));
    printf("soak: forks: %lu; dlopen/dlclose libGL: %lu (%lu unloaded), libEGL: %lu (%lu "
           "unloaded)\n", atomic_load(&forks), atomic_load(&gl_cycles), atomic_load(&gl_unloads),
           atomic_load(&egl_cycles), atomic_load(&egl_unloads));
    if (n_rss >= 8) {
        double q2 = mean(rss, n_rss / 4, n_rss / 2), q4 = mean(rss, n_rss * 3 / 4, n_rss);
        double allowed = q2 * 0.05 > 8192 ? q2 * 0.05 : 8192;

        printf("soak: RSS after warm-up %ld KiB, peak %ld KiB (growth %+ld KiB), end %ld KiB; "
               "mean of 2nd quarter %.0f KiB, of last quarter %.0f KiB\n", rss_start, rss_peak,
               rss_peak - rss_start, rss[n_rss - 1], q2, q4);
        if (q4 - q2 > allowed)
            fail("RSS keeps growing: last quarter %.0f KiB above the second (allowed %.0f)",
                 q4 - q2, allowed);
    }
    printf("soak: open file descriptors: %d at the start, %d after warm-up, %d at the last "
           "sample, %d after every thread closed its connection and libraries\n", fds_before,
           fds_start, fds_last, fds_end);
    if (fds_end > fds_before)
        fail("%d file descriptor(s) leaked", fds_end - fds_before);
    if (renders == 0 || atomic_load(&forks) == 0 || atomic_load(&gl_cycles) == 0)
        fail("a part of the soak did not run");
    printf("soak: %s\n", atomic_load(&failed) ? "FAIL" : "PASS");
    return atomic_load(&failed) ? 1 : 0;
}
