/* SPDX-License-Identifier: MIT */
/*
 * glmux dispatch tests: the fake vendors' GL functions and getProcAddress callback, and a
 * vendor whose getProcAddress calls into libGLdispatch, from its own thread or from another
 * one that it waits for.
 */
#define _GNU_SOURCE
#include "fake_vendor.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct fake_vendor fake_vendors[FAKE_VENDORS];
__thread int fake_thread_calls[FAKE_VENDORS];
int fake_thread_destroyed;

static void count(int v)
{
    fake_thread_calls[v]++;
    __atomic_add_fetch(&fake_vendors[v].calls_total, 1, __ATOMIC_SEQ_CST);
}

#define FAKE_FUNCS(v)                                                                  \
    static void vendor##v##_vertex3fv(const GLfloat *p) { (void)p; count(v); }               \
    static void vendor##v##_clear(GLbitfield m) { (void)m; count(v); }                       \
    static GLenum vendor##v##_get_error(void) { count(v); return FAKE_GET_ERROR_RESULT(v); } \
    static int vendor##v##_before(int x) { count(v); return x + 100 * (v + 1); }             \
    static int vendor##v##_after(int x) { count(v); return x + 1000 * (v + 1); }

FAKE_FUNCS(0)
FAKE_FUNCS(1)
FAKE_FUNCS(2)

#define FAKE_ROW(v)                                                                    \
    { (void *)vendor##v##_vertex3fv, (void *)vendor##v##_clear, (void *)vendor##v##_get_error,         \
      (void *)vendor##v##_before, (void *)vendor##v##_after }

/* Argument passing through a slot's first (lazily resolved) call and later ones. */
double fake_last_args[9];

static void record_color4f(GLfloat r, GLfloat g, GLfloat b, GLfloat a)
{
    fake_last_args[0] = r;
    fake_last_args[1] = g;
    fake_last_args[2] = b;
    fake_last_args[3] = a;
}

static void record_ortho(GLdouble l, GLdouble r, GLdouble b, GLdouble t, GLdouble n, GLdouble f)
{
    double v[6] = { l, r, b, t, n, f };

    memcpy(fake_last_args, v, sizeof(v));
}

static void record_tex_image_2d(GLenum target, GLint level, GLint internal, GLsizei w, GLsizei h,
                                GLint border, GLenum format, GLenum type, const void *pixels)
{
    double v[9] = { target, level, internal, w, h, border, format, type,
                    (double)(uintptr_t)pixels };

    memcpy(fake_last_args, v, sizeof(v));
}

static const char *const fake_names[] = {
    "glVertex3fv", "glClear", "glGetError", "glmuxTestBeforeMUX", "glmuxTestAfterMUX",
};

static void *const fake_funcs[FAKE_VENDORS][5] = { FAKE_ROW(0), FAKE_ROW(1), FAKE_ROW(2) };

static void *fake_get_proc_address(const char *name, void *param)
{
    struct fake_vendor *vendor = param;

    for (size_t i = 0; i < sizeof(fake_names) / sizeof(fake_names[0]); i++) {
        if (strcmp(name, fake_names[i]) == 0)
            return fake_funcs[vendor->index][i];
    }
    if (strcmp(name, "glColor4f") == 0)
        return (void *)record_color4f;
    if (strcmp(name, "glOrtho") == 0)
        return (void *)record_ortho;
    if (strcmp(name, "glTexImage2D") == 0)
        return (void *)record_tex_image_2d;
    /* Generated names of the "last slot" test: glmuxGen<n>MUX all map to the after function. */
    if (strncmp(name, "glmuxGen", 8) == 0)
        return fake_funcs[vendor->index][4];
    return NULL;
}

__GLdispatchTable *fake_vendor_new_table(int v)
{
    return __glDispatchCreateTable(fake_get_proc_address, &fake_vendors[v]);
}

void fake_vendors_init(void)
{
    for (int v = 0; v < FAKE_VENDORS; v++) {
        fake_vendors[v].index = v;
        fake_vendors[v].id = __glDispatchNewVendorID();
        fake_vendors[v].table = __glDispatchCreateTable(fake_get_proc_address, &fake_vendors[v]);
    }
}

static void fake_thread_destroyed_cb(__GLdispatchThreadState *state)
{
    (void)state;
    __atomic_add_fetch(&fake_thread_destroyed, 1, __ATOMIC_SEQ_CST);
}

void fake_thread_state_init(struct fake_thread_state *state, int vendor)
{
    memset(state, 0, sizeof(*state));
    state->base.tag = GLDISPATCH_API_EGL;
    state->base.threadDestroyedCallback = fake_thread_destroyed_cb;
    state->vendor = vendor;
}

GLboolean fake_make_current(struct fake_thread_state *state, int v,
                            const __GLdispatchPatchCallbacks *patch)
{
    state->vendor = v;
    return __glDispatchMakeCurrent(&state->base, fake_vendors[v].table, fake_vendors[v].id,
                                   patch);
}

/* ---- a vendor whose getProcAddress calls into libGLdispatch (fake_vendor.h) ---- */

static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wait_cond = PTHREAD_COND_INITIALIZER;
static const char *wait_trigger;
static void (*wait_action)(void);
static int wait_same_thread, wait_fired, wait_done, wait_timeouts;
static pthread_t wait_thread;
static int wait_thread_started;

void fake_vendor_wait_arm(const char *trigger, void (*action)(void), int same_thread)
{
    pthread_mutex_lock(&wait_lock);
    wait_trigger = trigger;
    wait_action = action;
    wait_same_thread = same_thread;
    wait_fired = wait_done = 0;
    pthread_mutex_unlock(&wait_lock);
}

int fake_vendor_wait_fired(void)
{
    int fired;

    pthread_mutex_lock(&wait_lock);
    fired = wait_fired;
    pthread_mutex_unlock(&wait_lock);
    return fired;
}

static void *wait_thread_main(void *arg)
{
    (void)arg;
    wait_action();
    pthread_mutex_lock(&wait_lock);
    wait_done = 1;
    pthread_cond_broadcast(&wait_cond);
    pthread_mutex_unlock(&wait_lock);
    return NULL;
}

/* Runs the armed action when name is its trigger (once per arming). */
static void wait_maybe(const char *name)
{
    struct timespec deadline;
    int same;

    pthread_mutex_lock(&wait_lock);
    if (wait_trigger == NULL || wait_fired || strcmp(name, wait_trigger) != 0) {
        pthread_mutex_unlock(&wait_lock);
        return;
    }
    wait_fired = 1;
    same = wait_same_thread;
    pthread_mutex_unlock(&wait_lock);
    if (same) {
        wait_action();
        return;
    }
    if (wait_thread_started)
        pthread_join(wait_thread, NULL);
    wait_thread_started = pthread_create(&wait_thread, NULL, wait_thread_main, NULL) == 0;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += FAKE_WAIT_SECONDS;
    pthread_mutex_lock(&wait_lock);
    while (wait_thread_started && !wait_done) {
        if (pthread_cond_timedwait(&wait_cond, &wait_lock, &deadline) != 0) {
            wait_timeouts++;
            fprintf(stderr, "fake vendor: the thread started from getProcAddress(\"%s\") did "
                    "not return within %d s: libGLdispatch holds a lock across the vendor's "
                    "getProcAddress\n", name, FAKE_WAIT_SECONDS);
            break;
        }
    }
    pthread_mutex_unlock(&wait_lock);
}

static void *waiting_get_proc_address(const char *name, void *param)
{
    wait_maybe(name);
    return fake_get_proc_address(name, param);
}

__GLdispatchTable *fake_vendor_waiting_table(int v)
{
    return __glDispatchCreateTable(waiting_get_proc_address, &fake_vendors[v]);
}

int fake_vendor_wait_finish(void)
{
    int timeouts;

    if (wait_thread_started) {
        pthread_join(wait_thread, NULL);
        wait_thread_started = 0;
    }
    pthread_mutex_lock(&wait_lock);
    timeouts = wait_timeouts;
    wait_trigger = NULL;
    pthread_mutex_unlock(&wait_lock);
    return timeouts;
}
