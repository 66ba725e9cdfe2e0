/* SPDX-License-Identifier: MIT */
/*
 * glmux dispatch tests: drives libGLdispatch's private interface with in-process fake vendors
 * and calls GL through our libOpenGL, libGLESv1_CM and libGLESv2 stubs and through the stubs
 * __glDispatchGetProcAddress returns. One program, one mode a run:
 *   static      static slots reach the current vendor; switching vendors; no context = no-op
 *   libs        every API library's stubs dispatch, and they are ours
 *   generated   a dynamic slot made before make-current and one made while current
 *   lastslot    all 4096 dynamic slots work; the next name gets NULL
 *   threads     several threads and vendors switching current; thread-exit cleanup
 *   fork        a forked child starts with no current context after __glDispatchReset
 *   noop        GL calls without a context are harmless; app error checking reports them
 *   destroy     a table destroyed while another thread has it current keeps working there and
 *               is freed when that thread exits (ASan checks the free)
 *   args        float, double, integer and stack arguments survive a slot's first call (when
 *               assembly builds resolve the slot lazily) and later calls
 *   vendor_waits  a vendor's getProcAddress waits for another thread that asks for a new
 *               dynamic name and makes another vendor current, when its table is filled at
 *               make-current and when a new name extends it while current; then asks for a
 *               new name itself: libGLdispatch holds no lock while it asks the vendor (with
 *               eager tables too, as pure-C builds always fill them), so nothing deadlocks
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <GL/gl.h>

#include "fake_vendor.h"
#include "glmux_slots.h"
#include "glmux_test.h"

typedef int (*test_fn)(int);

static pthread_mutex_t doomed_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t doomed_cond = PTHREAD_COND_INITIALIZER;
static int doomed_step;

static void set_doomed_step(int value)
{
    pthread_mutex_lock(&doomed_lock);
    doomed_step = value;
    pthread_cond_broadcast(&doomed_cond);
    pthread_mutex_unlock(&doomed_lock);
}

static void wait_doomed_step(int want)
{
    pthread_mutex_lock(&doomed_lock);
    while (doomed_step < want)
        pthread_cond_wait(&doomed_cond, &doomed_lock);
    pthread_mutex_unlock(&doomed_lock);
}

static void check_ours(void)
{
    glmux_test_require_ours("libGLdispatch.so.0");
    glmux_test_require_ours("libOpenGL.so.0");
}

static int test_static(void)
{
    struct fake_thread_state s0, s1, other;
    GLfloat v[3] = { 0, 0, 0 };
    __GLdispatchProc stub = __glDispatchGetProcAddress("glVertex3fv");

    CHECK(__glDispatchGetABIVersion() == 1);
    CHECK(stub != NULL);
    CHECK(__glDispatchGetProcAddress("glVertex3fv") == stub);
    /* libglvnd's rule: the name without its "gl" prefix is the same static stub. */
    CHECK(__glDispatchGetProcAddress("Vertex3fv") == stub);
    CHECK(__glDispatchGetProcAddress("Clear") == __glDispatchGetProcAddress("glClear"));
    /* No current context: no-op, returns 0, reaches nobody. */
    glVertex3fv(v);
    CHECK(glGetError() == 0);
    CHECK(fake_vendors[0].calls_total == 0 && fake_vendors[1].calls_total == 0);
    CHECK(__glDispatchGetCurrentThreadState() == NULL);

    fake_thread_state_init(&s0, 0);
    CHECK(fake_make_current(&s0, 0, NULL));
    CHECK(__glDispatchGetCurrentThreadState() == &s0.base);
    CHECK(_glapi_get_current() == (const void *)_glapi_tls_Current[0]);
    glVertex3fv(v);
    CHECK(fake_thread_calls[0] == 1);
    CHECK(glGetError() == FAKE_GET_ERROR_RESULT(0));
    ((void (*)(const GLfloat *))stub)(v);
    CHECK(fake_thread_calls[0] == 3);

    /* A second make-current without losing the first fails and changes nothing. */
    fake_thread_state_init(&other, 1);
    CHECK(!fake_make_current(&other, 1, NULL));
    CHECK(__glDispatchGetCurrentThreadState() == &s0.base);

    __glDispatchLoseCurrent();
    CHECK(__glDispatchGetCurrentThreadState() == NULL);
    CHECK(s0.base.priv == NULL);
    glVertex3fv(v);
    CHECK(fake_thread_calls[0] == 3);

    fake_thread_state_init(&s1, 1);
    CHECK(fake_make_current(&s1, 1, NULL));
    glClear(GL_COLOR_BUFFER_BIT);
    ((void (*)(const GLfloat *))stub)(v);
    CHECK(fake_thread_calls[1] == 2 && fake_thread_calls[0] == 3);
    __glDispatchLoseCurrent();
    __glDispatchLoseCurrent(); /* harmless twice */
    /* An unknown vendor function slot falls back to a no-op. */
    CHECK(fake_make_current(&s1, 1, NULL));
    glFlush();
    CHECK(fake_thread_calls[1] == 2);
    __glDispatchLoseCurrent();
    return 0;
}

static int test_libs(void)
{
    /* Full paths: the test binary's RUNPATH covers only what it links. */
    static const char *const libs[] = {
        GLMUX_TEST_OPENGL,
#ifdef GLMUX_TEST_GLESV2
        GLMUX_TEST_GLESV2,
#endif
#ifdef GLMUX_TEST_GLESV1
        GLMUX_TEST_GLESV1,
#endif
    };
    struct fake_thread_state s;

    fake_thread_state_init(&s, 2);
    CHECK(fake_make_current(&s, 2, NULL));
    for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
        void *h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
        void (*clear)(GLbitfield);
        int before = fake_thread_calls[2];

        CHECK_MSG(h != NULL, "%s: %s", libs[i], dlerror());
        glmux_test_require_ours(strrchr(libs[i], '/') + 1);
        clear = (void (*)(GLbitfield))dlsym(h, "glClear");
        CHECK(clear != NULL);
        clear(0);
        CHECK_MSG(fake_thread_calls[2] == before + 1, "%s glClear did not reach the vendor",
                  libs[i]);
        dlclose(h);
    }
    __glDispatchLoseCurrent();
    return 0;
}

/* Pure-C builds where the compiler cannot forward arguments (GLMUX_C_FORWARD 0) have no
 * dynamic stubs: unknown names give NULL, as in libglvnd's pure-C builds. */
static void require_dynamic_stubs(void)
{
#if !GLMUX_HAVE_DYNAMIC_STUBS
    CHECK(__glDispatchGetProcAddress("glmuxTestBeforeMUX") == NULL);
    SKIP("pure-C build without argument forwarding: no dynamic stubs");
#endif
}

static int test_generated(void)
{
    typedef int (*fn)(int);
    struct fake_thread_state s;
    fn before, after;

    require_dynamic_stubs();
    before = (fn)__glDispatchGetProcAddress("glmuxTestBeforeMUX");
    CHECK(before != NULL);
    CHECK((fn)__glDispatchGetProcAddress("glmuxTestBeforeMUX") == before);
    CHECK(before(1) == 0); /* no context: no-op */

    fake_thread_state_init(&s, 1);
    CHECK(fake_make_current(&s, 1, NULL));
    CHECK(before(1) == 1 + 200);
    /* A slot created while a table is current works at once. */
    after = (fn)__glDispatchGetProcAddress("glmuxTestAfterMUX");
    CHECK(after != NULL && after != before);
    CHECK(after(2) == 2 + 2000);
    __glDispatchLoseCurrent();

    /* Another vendor's table learns both slots at its first make-current. */
    CHECK(fake_make_current(&s, 0, NULL));
    CHECK(before(3) == 3 + 100);
    CHECK(after(3) == 3 + 1000);
    __glDispatchLoseCurrent();

    /* Names longer than 255 bytes get no slot (no GL name is that long); 255 bytes still do. */
    {
        char name[300];
        memset(name, 'x', sizeof(name));
        memcpy(name, "gl", 2);
        name[256] = '\0';
        CHECK(__glDispatchGetProcAddress(name) == NULL);
        name[255] = '\0';
        CHECK(__glDispatchGetProcAddress(name) != NULL);
    }
    return 0;
}

/* Lines of the log file that contain what. */
static int count_log_lines(const char *path, const char *what)
{
    char line[1024];
    int count = 0;
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL)
        count += strstr(line, what) != NULL;
    fclose(f);
    return count;
}

static int test_lastslot(void)
{
    typedef int (*fn)(int);
    struct fake_thread_state s;
    char name[64];
    fn first = NULL, last = NULL;

    require_dynamic_stubs();
    fake_thread_state_init(&s, 0);
    CHECK(fake_make_current(&s, 0, NULL));
    for (int i = 0; i < GLMUX_DYNAMIC_SLOTS; i++) {
        fn f;

        snprintf(name, sizeof(name), "glmuxGen%dMUX", i);
        f = (fn)__glDispatchGetProcAddress(name);
        CHECK_MSG(f != NULL, "slot %d", i);
        if (i == 0)
            first = f;
        last = f;
    }
    CHECK(first(1) == 1 + 1000);
    CHECK(last(5) == 5 + 1000);
    CHECK(__glDispatchGetProcAddress("glmuxOneTooManyMUX") == NULL);
    /* Every further unknown name fails too, but the warning was written once (a program that
     * asks for millions of names must not write millions of lines). */
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof(name), "glmuxTooMany%dMUX", i);
        CHECK(__glDispatchGetProcAddress(name) == NULL);
    }
    if (getenv("GLMUX_DEBUG_FILE") != NULL)
        CHECK_MSG(count_log_lines(getenv("GLMUX_DEBUG_FILE"), "dynamic dispatch slots") == 1,
                  "%d warnings", count_log_lines(getenv("GLMUX_DEBUG_FILE"),
                                                 "dynamic dispatch slots"));
    /* Static names still resolve when the dynamic ones are exhausted. */
    CHECK(__glDispatchGetProcAddress("glClear") != NULL);
    __glDispatchLoseCurrent();
    CHECK(fake_make_current(&s, 1, NULL));
    CHECK(last(5) == 5 + 2000);
    __glDispatchLoseCurrent();
    return 0;
}

#define THREADS 4
#define ROUNDS 2000

/* Thread states outlive their threads: the exit destructor still uses them. */
static struct fake_thread_state thread_states[THREADS];

static void *thread_main(void *arg)
{
    int t = (int)(intptr_t)arg;
    typedef int (*fn)(int);
    fn before = (fn)__glDispatchGetProcAddress("glmuxTestBeforeMUX");
    struct fake_thread_state *sp = &thread_states[t];
    GLfloat v[3] = { 1, 2, 3 };
#define s (*sp)

    fake_thread_state_init(&s, 0);
    for (int r = 0; r < ROUNDS; r++) {
        int vendor = (t + r) % 2;
        int calls = fake_thread_calls[vendor];

        if (!fake_make_current(&s, vendor, NULL))
            return (void *)1;
        glVertex3fv(v);
        if (before == NULL) {   /* pure-C build: static slots only */
            if (fake_thread_calls[vendor] != calls + 1)
                return (void *)2;
        } else if (before(0) != 100 * (vendor + 1) || fake_thread_calls[vendor] != calls + 2) {
            return (void *)2;
        }
        if (before != NULL && r % 97 == 0) {
            /* A slot created by one thread reaches every current table. */
            char name[64];
            fn g;

            snprintf(name, sizeof(name), "glmuxGen%dMUX", t * ROUNDS + r);
            g = (fn)__glDispatchGetProcAddress(name);
            if (g == NULL || g(0) != 1000 * (vendor + 1))
                return (void *)3;
        }
        __glDispatchLoseCurrent();
    }
    /* Threads 0 and 1 exit with a context still current: the key destructor cleans up. */
    if (t < 2 && !fake_make_current(&s, t % 2, NULL))
        return (void *)4;
    return NULL;
#undef s
}

static int test_threads(void)
{
    pthread_t threads[THREADS];

    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, thread_main, (void *)(intptr_t)t) == 0);
    for (int t = 0; t < THREADS; t++) {
        void *result;

        CHECK(pthread_join(threads[t], &result) == 0);
        CHECK_MSG(result == NULL, "thread %d failed with %p", t, result);
    }
    CHECK(fake_thread_destroyed == 2);
    /* Every thread's context was released: patching-safe state, nothing current. */
    CHECK(__glDispatchGetCurrentThreadState() == NULL);
    return 0;
}

static int test_fork(void)
{
    struct fake_thread_state s;
    GLfloat v[3] = { 0, 0, 0 };
    pid_t pid;
    int status;

    fake_thread_state_init(&s, 0);
    CHECK(fake_make_current(&s, 0, NULL));
    glVertex3fv(v);
    CHECK(fake_thread_calls[0] == 1);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct fake_thread_state child;

        __glDispatchReset();
        CHECK(__glDispatchGetCurrentThreadState() == NULL);
        glVertex3fv(v);
        CHECK(fake_thread_calls[0] == 1);
        fake_thread_state_init(&child, 1);
        CHECK(fake_make_current(&child, 1, NULL));
        glVertex3fv(v);
        CHECK(fake_thread_calls[1] == 1);
        __glDispatchLoseCurrent();
        _exit(0);
    }
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* The parent is untouched. */
    CHECK(__glDispatchGetCurrentThreadState() == &s.base);
    glVertex3fv(v);
    CHECK(fake_thread_calls[0] == 2);
    __glDispatchLoseCurrent();
    return 0;
}

static int test_noop(void)
{
    const char *log = getenv("GLMUX_DEBUG_FILE");
    char buf[4096] = "";
    FILE *f;
    size_t n;

    CHECK(glGetString(GL_VENDOR) == NULL);
    CHECK(glIsEnabled(GL_BLEND) == GL_FALSE);
    CHECK(glGetError() == 0);
    glBegin(GL_TRIANGLES);
    glEnd();
    if (log == NULL)
        return 0;
    /* With __GLVND_APP_ERROR_CHECKING=1 each call is reported by name. */
    f = fopen(log, "r");
    CHECK_MSG(f != NULL, "no log at %s", log);
    n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    CHECK_MSG(strstr(buf, "glGetString called without a current context") != NULL, "log: %s", buf);
    CHECK(strstr(buf, "glBegin called without a current context") != NULL);
    return 0;
}

static __GLdispatchTable *doomed_table;
static struct fake_thread_state doomed_state;

static void *doomed_thread(void *arg)
{
    GLfloat v[3] = { 0, 0, 0 };

    (void)arg;
    fake_thread_state_init(&doomed_state, 1);
    if (!__glDispatchMakeCurrent(&doomed_state.base, doomed_table, fake_vendors[1].id, NULL))
        return (void *)1;
    set_doomed_step(1);
    wait_doomed_step(2);
    glVertex3fv(v); /* the table was destroyed meanwhile: still usable here */
    return fake_thread_calls[1] == 1 ? NULL : (void *)2;
    /* exits with the table current: the key destructor releases and frees it */
}

static int test_destroy(void)
{
    pthread_t thread;
    void *result;

    doomed_table = fake_vendor_new_table(1);
    CHECK(doomed_table != NULL);
    CHECK(pthread_create(&thread, NULL, doomed_thread, NULL) == 0);
    wait_doomed_step(1);
    __glDispatchDestroyTable(doomed_table);
    set_doomed_step(2);
    CHECK(pthread_join(thread, &result) == 0);
    CHECK_MSG(result == NULL, "thread failed: %p", result);
    CHECK(fake_thread_destroyed == 1);
    return 0;
}

static void check_args(const double *want, int n)
{
    for (int i = 0; i < n; i++)
        CHECK_MSG(fake_last_args[i] == want[i], "argument %d: %g, expected %g", i,
                  fake_last_args[i], want[i]);
}

static int test_args(void)
{
    static const GLubyte pixels[4];
    const double color[4] = { 1.5, 2.5, -3.5, 4.25 };
    const double ortho[6] = { -1.0, 1.0, -2.0, 2.0, 0.5, 100.0 };
    const double tex[9] = { GL_TEXTURE_2D, 3, GL_RGBA, 640, 480, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                            (double)(uintptr_t)pixels };
    struct fake_thread_state s;

    fake_thread_state_init(&s, 0);
    for (int v = 0; v < 2; v++) {
        CHECK(fake_make_current(&s, v, NULL));
        for (int round = 0; round < 2; round++) {   /* first call, then a resolved one */
            memset(fake_last_args, 0, sizeof(fake_last_args));
            glColor4f(1.5f, 2.5f, -3.5f, 4.25f);
            check_args(color, 4);
            glOrtho(-1.0, 1.0, -2.0, 2.0, 0.5, 100.0);
            check_args(ortho, 6);
            glTexImage2D(GL_TEXTURE_2D, 3, GL_RGBA, 640, 480, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                         pixels);
            check_args(tex, 9);
        }
        __glDispatchLoseCurrent();
    }
    return 0;
}

/* ---- vendor_waits ---- */

static struct fake_thread_state other_state;
static void *other_new_name;
static int other_calls;

/* What the vendor's getProcAddress waits for: another thread asks for a new dynamic name,
 * makes vendor 2 current, calls GL and lets go. */
static void other_thread_action(void)
{
    static int round;
    char name[64];
    int before = __atomic_load_n(&fake_vendors[2].calls_total, __ATOMIC_SEQ_CST);

    snprintf(name, sizeof(name), "glmuxTestWaitOther%dMUX", round++);
    other_new_name = (void *)__glDispatchGetProcAddress(name);
    fake_thread_state_init(&other_state, 2);
    if (fake_make_current(&other_state, 2, NULL)) {
        glClear(0);
        __glDispatchLoseCurrent();
    }
    other_calls = __atomic_load_n(&fake_vendors[2].calls_total, __ATOMIC_SEQ_CST) - before;
}

static void *inner_new_name;

/* The vendor's getProcAddress asks for a new dynamic name on its own thread. */
static void same_thread_action(void)
{
    inner_new_name = (void *)__glDispatchGetProcAddress("glmuxTestWaitInnerMUX");
}

static void watchdog(int sig)
{
    static const char msg[] = "vendor_waits: still running after the watchdog's time: a "
                              "vendor's getProcAddress that calls into libGLdispatch "
                              "deadlocked\n";

    (void)sig;
    if (write(2, msg, sizeof(msg) - 1) < 0)
        _exit(1);
    _exit(1);
}

static int test_vendor_waits(void)
{
    typedef int (*fn)(int);
    struct fake_thread_state s;
    __GLdispatchTable *waiting = fake_vendor_waiting_table(0);
    __GLdispatchTable *waiting2 = fake_vendor_waiting_table(1);
    GLfloat v[3] = { 0, 0, 0 };
    bool dynamic = GLMUX_HAVE_DYNAMIC_STUBS;
    fn second;

    CHECK(waiting != NULL && waiting2 != NULL);
    signal(SIGALRM, watchdog);
    alarm(6 * FAKE_WAIT_SECONDS);
    fake_thread_state_init(&s, 0);

    /* 1. Asked at make-current (eager tables) or at the first call (lazy). */
    fake_vendor_wait_arm("glVertex3fv", other_thread_action, 0);
    CHECK(__glDispatchMakeCurrent(&s.base, waiting, fake_vendors[0].id, NULL));
    glVertex3fv(v);
    CHECK(fake_vendor_wait_finish() == 0);
    CHECK(fake_vendor_wait_fired());
    CHECK_MSG(other_calls == 1, "the other thread's glClear reached vendor 2 %d times",
              other_calls);
    CHECK(!dynamic || other_new_name != NULL);

    /* 2. Asked about a new dynamic name while its table is current. */
    if (dynamic) {
        fake_vendor_wait_arm("glmuxTestWaitSecondMUX", other_thread_action, 0);
        second = (fn)__glDispatchGetProcAddress("glmuxTestWaitSecondMUX");
        CHECK(second != NULL);
        CHECK(second(1) == 0);      /* the fake vendors lack it: a no-op */
        CHECK(fake_vendor_wait_finish() == 0);
        CHECK(fake_vendor_wait_fired());
        CHECK(other_calls == 1 && other_new_name != NULL);
    }
    __glDispatchLoseCurrent();

    /* 3. The vendor's getProcAddress asks for a new name on the thread that asks it. */
    fake_vendor_wait_arm("glClear", same_thread_action, 1);
    CHECK(__glDispatchMakeCurrent(&s.base, waiting2, fake_vendors[1].id, NULL));
    glClear(0);
    CHECK(fake_vendor_wait_fired());
    CHECK(!dynamic || inner_new_name != NULL);
    CHECK(fake_thread_calls[1] == 1);
    if (dynamic)
        CHECK(((fn)inner_new_name)(1) == 0);
    __glDispatchLoseCurrent();
    CHECK(fake_vendor_wait_finish() == 0);
    alarm(0);
    __glDispatchDestroyTable(waiting);
    __glDispatchDestroyTable(waiting2);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(void);
    } modes[] = {
        { "static", test_static },       { "libs", test_libs },
        { "generated", test_generated }, { "lastslot", test_lastslot },
        { "threads", test_threads },     { "fork", test_fork },
        { "noop", test_noop },           { "args", test_args },
        { "destroy", test_destroy },     { "vendor_waits", test_vendor_waits },
    };

    if (argc != 2) {
        fprintf(stderr, "usage: %s MODE\n", argv[0]);
        return 2;
    }
    check_ours();
    fake_vendors_init();
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        if (strcmp(argv[1], modes[i].name) == 0)
            return modes[i].fn();
    }
    fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
}
