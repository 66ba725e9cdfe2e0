/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: process and thread state. It holds the exports table handed to every vendor,
 * the per-thread error / last vendor / bound API / label (under a pthread key; every record
 * is freed at thread exit, unload or fork), the current-context record that rides on
 * libGLdispatch's thread state, the fork hook libGLdispatch calls in a child (instead of a
 * getpid() test on every call) and the load/unload of the library itself, with what it offers
 * libGLX (docs/architecture.md: lifetime protocol).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "egl_internal.h"
#include "select/select.h"
#include "util/lock.h"
#include "util/log.h"

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

/* ---- the exports table ---- */

static EGLenum export_get_current_api(void)
{
    struct glmux_egl_tls *t = glmux_egl_tls_peek();

    return t ? t->api : EGL_OPENGL_ES_API;
}

static __EGLvendorInfo *export_get_current_vendor(void)
{
    struct glmux_egl_current *cur = glmux_egl_current_get();

    return cur ? cur->vendor : NULL;
}

static EGLContext export_get_current_context(void)
{
    struct glmux_egl_current *cur = glmux_egl_current_get();

    return cur ? cur->context : EGL_NO_CONTEXT;
}

static EGLDisplay export_get_current_display(void)
{
    struct glmux_egl_current *cur = glmux_egl_current_get();

    return cur ? cur->display : EGL_NO_DISPLAY;
}

static EGLSurface export_get_current_surface(EGLint readdraw)
{
    struct glmux_egl_current *cur = glmux_egl_current_get();

    if (cur == NULL)
        return EGL_NO_SURFACE;
    if (readdraw == EGL_DRAW)
        return cur->draw;
    if (readdraw == EGL_READ)
        return cur->read;
    return EGL_NO_SURFACE;
}

static __eglMustCastToProperFunctionPointerType export_fetch(__EGLvendorInfo *vendor, int index)
{
    return glmux_egl_vendor_fetch(vendor, index);
}

static EGLBoolean export_set_last_vendor(__EGLvendorInfo *vendor)
{
    return glmux_egl_set_last_vendor(vendor) ? EGL_TRUE : EGL_FALSE;
}

static __EGLvendorInfo *export_vendor_from_display(EGLDisplay dpy)
{
    return glmux_egl_display_vendor(dpy);
}

static __EGLvendorInfo *export_vendor_from_device(EGLDeviceEXT dev)
{
    return glmux_egl_device_vendor(dev);
}

static EGLBoolean export_set_vendor_for_device(EGLDeviceEXT dev, __EGLvendorInfo *vendor)
{
    if (dev == EGL_NO_DEVICE_EXT)
        return EGL_TRUE;
    return glmux_egl_device_set(dev, vendor) ? EGL_TRUE : EGL_FALSE;
}

const __EGLapiExports glmux_egl_exports = {
    .threadInit = glmux_egl_thread_init,
    .getCurrentApi = export_get_current_api,
    .getCurrentVendor = export_get_current_vendor,
    .getCurrentContext = export_get_current_context,
    .getCurrentDisplay = export_get_current_display,
    .getCurrentSurface = export_get_current_surface,
    .fetchDispatchEntry = export_fetch,
    .setEGLError = glmux_egl_set_error,
    .setLastVendor = export_set_last_vendor,
    .getVendorFromDisplay = export_vendor_from_display,
    .getVendorFromDevice = export_vendor_from_device,
    .setVendorForDevice = export_set_vendor_for_device,
};

/* ---- fork, load, unload ---- */

/*
 * Every lock of libEGL around fork() (docs/architecture.md, "Locking"), in this order: the
 * display and device maps, winsys_lock, strings_lock, debug_lock, tls_lock, each loaded
 * vendor's dyn_lock, then the selector's enumeration lock. All are leaves held for a few
 * instructions (never across a vendor call), so fork_prepare waits for no vendor.
 * fork_locked_vendors: the vendor list whose dyn_locks fork_prepare took (NULL while the
 * vendors are still being loaded: their locks are then made anew in the child).
 */
static bool fork_prepared;
static glmux_egl_vendor *fork_locked_vendors;

static void fork_locks(enum glmux_fork_step step)
{
    glmux_egl_maps_fork(step);
    glmux_egl_strings_fork(step);
    glmux_egl_debug_fork(step);
    glmux_fork_mutex(&tls_lock, step);
    /* The statics below are written with the locks above held. */
    if (step == GLMUX_FORK_PREPARE)
        fork_locked_vendors = glmux_egl_vendors_loaded();
    if (step == GLMUX_FORK_CHILD_ANEW || (step == GLMUX_FORK_CHILD && !fork_locked_vendors)) {
        for (glmux_egl_vendor *v = glmux_egl_vendors_loaded(); v != NULL; v = v->next)
            glmux_fork_mutex(&v->dyn_lock, GLMUX_FORK_CHILD_ANEW);
    } else {
        for (glmux_egl_vendor *v = fork_locked_vendors; v != NULL; v = v->next)
            glmux_fork_mutex(&v->dyn_lock, step);
    }
    glmux_select_fork(step);
}

static void fork_prepare(void)
{
    if (!glmux_winsys_usable())
        return;
    fork_locks(GLMUX_FORK_PREPARE);
    fork_prepared = true;   /* every lock held: a second forking thread waits above */
}

static void fork_parent(void)
{
    if (!fork_prepared)
        return;
    fork_prepared = false;
    fork_locks(GLMUX_FORK_PARENT);
}

/*
 * In a forked child, called by libGLdispatch after its own reset and before it hands the
 * parent's records to glmux_egl_current_destroyed. Only this thread survives: its context
 * belonged to the parent's vendor state and is forgotten, as in libglvnd. Vendors, display
 * and device maps and the winsys names stay; every lock fork_prepare took is released (made
 * anew if it did not run).
 */
static void after_fork(void)
{
    if (!glmux_winsys_usable())
        return;
    fork_locks(fork_prepared ? GLMUX_FORK_CHILD : GLMUX_FORK_CHILD_ANEW);
    fork_prepared = false;
    tls_free_all(true);
    glmux_egl_tls_free();
}

/* What libEGL frees at unload (winsys.h runs the protocol around it). */
static void teardown(void)
{
    glmux_egl_vendors_teardown();
    glmux_egl_maps_teardown();
    glmux_egl_strings_teardown();
    glmux_egl_debug_teardown();
    /* No destructor may run into unloaded code: the key goes, with every thread's record. */
    tls_free_all(false);
    if (tls_key_ok)
        pthread_key_delete(tls_key);
    tls_key_ok = false;
}

GLMUX_WINSYS_LIBRARY(GLDISPATCH_API_EGL, "libEGL", fork_prepare, fork_parent, after_fork,
                     glmux_egl_current_destroyed,
                     glmux_egl_current_drop, teardown);
