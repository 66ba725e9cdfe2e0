/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the ground floor (state.h): the per-thread error / last vendor / bound API /
 * label (under a pthread key; every record is freed at thread exit, unload or fork), the
 * current-context record that rides on libGLdispatch's thread state, and the prologue of
 * every entry point. It uses no other file of libEGL; its lifecycle step takes tls_lock
 * around fork, frees the other threads' records in a child and everything at unload.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "state.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "winsys/winsys.h"

/*
 * The thread's API state, under a pthread key rather than in TLS: a dlopened library's
 * initial-exec TLS takes from glibc's small static-TLS reserve, which dlclose does not always
 * give back, so after a dozen reloads of libEGL its vendors could no longer be loaded (and the
 * general TLS model would make libEGL need ld.so, which libglvnd's does not). Every record is
 * also on one list, so that unload and fork free the records of every thread, not only the
 * caller's; a thread that exits frees its own through the key's destructor.
 */
struct tls_record {
    struct glmux_egl_tls state; /* first: the record is its state */
    struct tls_record *prev, *next;
    bool dirty;                 /* counted in dirty_records */
};

/*
 * How many records hold an error or a last vendor, which the entry prologue resets. While
 * none does, the prologue has nothing to reset and skips pthread_getspecific: a run of calls
 * that leave the state alone (eglGetProcAddress, the eglGetCurrent* queries) costs one load
 * each. Only a thread's own calls make its record dirty or clean, and a thread always reads
 * its own updates of the count (or later ones, which cannot take its own share away), so a
 * thread whose record is dirty never reads 0. Updated with atomic operations by every thread;
 * set outright only by unload and in a fork child, where no other thread runs.
 */
static unsigned long dirty_records;

static const struct glmux_egl_tls fresh_state = { .error = EGL_SUCCESS, .api = EGL_OPENGL_ES_API };
static pthread_mutex_t tls_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t tls_key;
static bool tls_key_ok;
static struct tls_record *tls_records;

static void tls_unlink_locked(struct tls_record *r)
{
    GLMUX_ASSERT_LOCKED(&tls_lock);
    if (r->prev != NULL)
        r->prev->next = r->next;
    else
        tls_records = r->next;
    if (r->next != NULL)
        r->next->prev = r->prev;
}

static void tls_destroy(void *p)
{
    struct tls_record *r = p;

    if (r->dirty)
        __atomic_sub_fetch(&dirty_records, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&tls_lock);
    tls_unlink_locked(p);
    pthread_mutex_unlock(&tls_lock);
    free(p);
}

/* At load, before any thread can call in: the key is then only read until unload. */
__attribute__((constructor)) static void tls_key_create(void)
{
    tls_key_ok = pthread_key_create(&tls_key, tls_destroy) == 0;
}

/* Frees every record; with keep_caller, the calling thread's is kept (fork child). */
static void tls_free_all(bool keep_caller)
{
    struct tls_record *mine = NULL;

    if (!tls_key_ok)
        return;
    if (keep_caller)
        mine = pthread_getspecific(tls_key);
    pthread_mutex_lock(&tls_lock);
    for (struct tls_record *r = tls_records, *next; r != NULL; r = next) {
        next = r->next;
        if (r != mine)
            free(r);
    }
    tls_records = mine;
    if (mine != NULL)
        mine->prev = mine->next = NULL;
    __atomic_store_n(&dirty_records, mine != NULL && mine->dirty ? 1 : 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&tls_lock);
    if (!keep_caller)
        pthread_setspecific(tls_key, NULL);
}

struct glmux_egl_tls *glmux_egl_tls_peek(void)
{
    if (!glmux_winsys_usable() || !tls_key_ok)
        return NULL;
    return pthread_getspecific(tls_key);
}

/* The thread's record, made on first use (glmux_egl_tls); inlined in the make-current path. */
static struct tls_record *tls_record_new(void);

static inline struct glmux_egl_tls *tls_get(void)
{
    struct tls_record *r;

    if (!glmux_winsys_usable() || !tls_key_ok)
        return NULL;
    r = pthread_getspecific(tls_key);
    if (__builtin_expect(r == NULL, 0))
        r = tls_record_new();
    return r != NULL ? &r->state : NULL;
}

struct glmux_egl_tls *glmux_egl_tls(void)
{
    return tls_get();
}

static struct tls_record *tls_record_new(void)
{
    struct tls_record *r = malloc(sizeof(*r));

    if (r == NULL)
        return NULL;
    r->state = fresh_state;
    r->prev = NULL;
    r->dirty = false;
    if (pthread_setspecific(tls_key, r) != 0) {
        free(r);
        return NULL;
    }
    pthread_mutex_lock(&tls_lock);
    r->next = tls_records;
    if (r->next != NULL)
        r->next->prev = r;
    tls_records = r;
    pthread_mutex_unlock(&tls_lock);
    return r;
}

/* Counts the record in or out of dirty_records after its error or last vendor changed. */
static void tls_mark(struct glmux_egl_tls *t)
{
    struct tls_record *r = (struct tls_record *)t;
    bool dirty = t->error != EGL_SUCCESS || t->last_vendor != NULL;

    if (dirty == r->dirty)
        return;
    r->dirty = dirty;
    if (dirty)
        __atomic_add_fetch(&dirty_records, 1, __ATOMIC_RELAXED);
    else
        __atomic_sub_fetch(&dirty_records, 1, __ATOMIC_RELAXED);
}

void glmux_egl_tls_clear(struct glmux_egl_tls *t)
{
    t->error = EGL_SUCCESS;
    t->last_vendor = NULL;
    tls_mark(t);
}

void glmux_egl_tls_free(void)
{
    struct glmux_egl_tls *t = glmux_egl_tls_peek();

    if (t != NULL) {
        *t = fresh_state;
        tls_mark(t);
    }
}

bool glmux_egl_usable(void)
{
    return glmux_winsys_usable();
}

void glmux_egl_thread_init(void)
{
    /* Gives an entry-point patching owner its per-thread hook. */
    __glDispatchCheckMultithreaded();
}

void glmux_egl_tls_reset(void)
{
    struct glmux_egl_tls *t;

    if (__atomic_load_n(&dirty_records, __ATOMIC_RELAXED) == 0)
        return;     /* this thread's record, if any, holds nothing to reset */
    t = glmux_egl_tls_peek();
    if (t != NULL)
        glmux_egl_tls_clear(t);
}

void glmux_egl_entry(void)
{
    __glDispatchCheckMultithreaded();
    glmux_egl_tls_reset();
}

void glmux_egl_set_error(EGLint error)
{
    struct glmux_egl_tls *t = error == EGL_SUCCESS ? glmux_egl_tls_peek() : glmux_egl_tls();

    if (t != NULL) {
        t->error = error;
        t->last_vendor = NULL;
        tls_mark(t);
    }
}

bool glmux_egl_set_last_vendor(glmux_egl_vendor *vendor)
{
    struct glmux_egl_tls *t = tls_get();

    if (t == NULL)
        return false;
    t->error = EGL_SUCCESS;
    t->last_vendor = vendor;
    tls_mark(t);
    return true;
}

struct glmux_egl_current *glmux_egl_current_get(void)
{
    return (struct glmux_egl_current *)glmux_winsys_record_current(GLDISPATCH_API_EGL);
}

/*
 * In a forked child, after every lock was released (library.c): only this thread survives;
 * the other threads' records go, and its own state is put back to its defaults.
 */
static void tls_child(void)
{
    tls_free_all(true);
    glmux_egl_tls_free();
}

static void tls_fork(enum glmux_fork_step step)
{
    glmux_fork_mutex(&tls_lock, step);
}

/* At unload: no destructor may run into unloaded code: the key goes, with every record. */
static void tls_teardown(void)
{
    tls_free_all(false);
    if (tls_key_ok)
        pthread_key_delete(tls_key);
    tls_key_ok = false;
}

GLMUX_LIFECYCLE_STEP(egl_tls, 40, .fork = tls_fork, .child = tls_child, .teardown = tls_teardown);
