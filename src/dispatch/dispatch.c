/* SPDX-License-Identifier: MIT */
/*
 * glmux: the top floor of libGLdispatch.so.0: init and fini (which run every module's
 * lifecycle steps), vendor ids, and make-current and lose-current for every thread (a record
 * in the pthread key of floor.c, whose table pointer the entry stubs read; while a GL layer is
 * loaded, the table's layered twin, and the vendor's own table for the below stubs). The
 * floors below:
 * floor.c (lock, TLS), slots.c, lazy.c, tables.c, patch.c, lifetime.c, procaddr.c,
 * layer_chain.c (docs/architecture.md, "Floors inside a library").
 *
 * Naming: exported functions keep libglvnd's names (__glDispatch*, _glapi_*); everything else
 * is glmux_<module>_<verb>. One mutex, glmux_dispatch_lock, guards all shared state; the
 * stubs never take it.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "floor.h"
#include "layer_chain.h"
#include "lifetime.h"
#include "patch.h"
#include "tables.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/log.h"

static int init_count;
static int next_vendor_id = 1;

static void lose_current_locked(struct __GLdispatchThreadStatePrivateRec *priv);
static __GLdispatchThreadState *release_thread(void);

/* The key's destructor: a thread with a record exits. */
static void thread_destroyed(void *data)
{
    struct __GLdispatchThreadStatePrivateRec *priv = data;
    __GLdispatchThreadState *state = priv->state;
    struct glmux_client_slot *slot = NULL;
    bool orphaned;

    pthread_mutex_lock(&glmux_dispatch_lock);
    orphaned = __atomic_load_n(&priv->orphaned, __ATOMIC_RELAXED);
    if (!orphaned)
        slot = glmux_client_enter_locked(priv);
    lose_current_locked(priv);
    pthread_mutex_unlock(&glmux_dispatch_lock);
    glmux_dispatch_thread_record = NULL;    /* the key's destructor: the thread is exiting */
    glmux_dispatch_set_noop();
    free(priv);
    if (orphaned)
        free(state);    /* its library is gone: the record is ours (lifetime.c) */
    else
        glmux_client_call_destroyed(slot, state);
}

int __glDispatchGetABIVersion(void)
{
    return GLDISPATCH_ABI_VERSION;
}

void __glDispatchInit(void)
{
    pthread_mutex_lock(&glmux_dispatch_lock);
    if (init_count++ == 0) {
        /* Every module's init step, in their declared order (the lock held: none takes it). */
        glmux_lifecycle_run(GLMUX_LIFECYCLE_INIT);
        pthread_mutex_unlock(&glmux_dispatch_lock);
        glmux_patch_register_own_stubs();
        return;
    }
    pthread_mutex_unlock(&glmux_dispatch_lock);
}

void __glDispatchFini(void)
{
    bool last;

    pthread_mutex_lock(&glmux_dispatch_lock);
    last = init_count > 0 && --init_count == 0;
    pthread_mutex_unlock(&glmux_dispatch_lock);
    if (!last)
        return;

    glmux_patch_unregister_own_stubs();
    __glDispatchLoseCurrent();
    /* The GL layers: each one's unload, then dlclose (no lock held: layers run). */
    glmux_chain_unload();
    pthread_mutex_lock(&glmux_dispatch_lock);
    glmux_lifecycle_run(GLMUX_LIFECYCLE_TEARDOWN);
    pthread_mutex_unlock(&glmux_dispatch_lock);
}

int __glDispatchNewVendorID(void)
{
    int id;

    pthread_mutex_lock(&glmux_dispatch_lock);
    id = next_vendor_id++;
    pthread_mutex_unlock(&glmux_dispatch_lock);
    return id;
}

static void lose_current_locked(struct __GLdispatchThreadStatePrivateRec *priv)
{
    __GLdispatchTable *table = priv->table;

    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (table != NULL)
        glmux_table_current_drop_locked(table);
    if (glmux_dispatch_current_count > 0)
        glmux_dispatch_current_count--;
    glmux_records_unlink_locked(priv);
    priv->state->priv = NULL;
    priv->table = NULL;
}

__GLdispatchThreadState *__glDispatchGetCurrentThreadState(void)
{
    struct __GLdispatchThreadStatePrivateRec *priv;

    if (!glmux_dispatch_thread_key_valid)
        return NULL;
    priv = glmux_dispatch_thread_record;
    if (priv == NULL)
        return NULL;
    if (__atomic_load_n(&priv->orphaned, __ATOMIC_ACQUIRE)) {
        /* Its library was unloaded: the thread has no context any more (lifetime.c). */
        free(release_thread());
        return NULL;
    }
    return priv->state;
}

GLboolean __glDispatchMakeCurrent(__GLdispatchThreadState *threadState,
                                  __GLdispatchTable *dispatch, int vendorID,
                                  const __GLdispatchPatchCallbacks *patchCb)
{
    struct __GLdispatchThreadStatePrivateRec *priv;
    const void **twin;

    if (threadState == NULL || dispatch == NULL || !glmux_dispatch_thread_key_valid)
        return GL_FALSE;
    /* The GL layers are looked for once, at the first make-current if no EGL or GLX call
     * came first (layer_chain.c); after that one load and a branch. */
    glmux_chain_ensure_loaded();
    if (__glDispatchGetCurrentThreadState() != NULL) {
        glmux_log(GLMUX_LOG_ERROR, "make-current while the thread already has a context; "
                  "the winsys library must release it first");
        return GL_FALSE;
    }
    priv = calloc(1, sizeof(*priv));
    if (priv == NULL)
        return GL_FALSE;
    priv->state = threadState;
    priv->table = dispatch;
    priv->vendor_id = vendorID;

    pthread_mutex_lock(&glmux_dispatch_lock);
    /* With eager fill, the vendor is asked with the lock released (tables.c). */
    if (!glmux_table_fixup(dispatch) || !glmux_table_fill_locked(dispatch)) {
        pthread_mutex_unlock(&glmux_dispatch_lock);
        free(priv);
        glmux_log(GLMUX_LOG_ERROR, "out of memory filling a dispatch table");
        return GL_FALSE;
    }
    if (!glmux_patch_for_make_current(patchCb, vendorID)) {
        pthread_mutex_unlock(&glmux_dispatch_lock);
        free(priv);
        return GL_FALSE;
    }
    glmux_table_current_add_locked(dispatch);
    glmux_dispatch_current_count++;
    glmux_records_link_locked(priv);
    twin = __builtin_expect(glmux_chain_gl_now() != NULL, 0) ? glmux_table_twin_locked(dispatch)
                                                              : NULL;
    pthread_mutex_unlock(&glmux_dispatch_lock);

    threadState->priv = priv;
    glmux_dispatch_set_record(priv);
    if (__builtin_expect(twin != NULL, 0)) {
        /* A GL layer is loaded: the stubs read the twin, the below stubs the vendor's own. */
        glmux_tls_below[0] = dispatch->entries;
        _glapi_tls_Current[0] = twin;
    } else {
        _glapi_tls_Current[0] = dispatch->entries;
    }
    return GL_TRUE;
}

/* Releases the calling thread's record: table, list, TLS. Lock NOT held. Returns the state. */
static __GLdispatchThreadState *release_thread(void)
{
    struct __GLdispatchThreadStatePrivateRec *priv;
    __GLdispatchThreadState *state;

    if (!glmux_dispatch_thread_key_valid)
        return NULL;
    priv = glmux_dispatch_thread_record;
    if (priv == NULL)
        return NULL;
    pthread_mutex_lock(&glmux_dispatch_lock);
    lose_current_locked(priv);
    pthread_mutex_unlock(&glmux_dispatch_lock);
    glmux_dispatch_set_record(NULL);
    glmux_dispatch_set_noop();
    state = priv->state;
    free(priv);
    return state;
}

void __glDispatchLoseCurrent(void)
{
    struct __GLdispatchThreadStatePrivateRec *priv =
        glmux_dispatch_thread_key_valid ? glmux_dispatch_thread_record : NULL;
    bool orphaned = priv != NULL && __atomic_load_n(&priv->orphaned, __ATOMIC_ACQUIRE);
    __GLdispatchThreadState *state = release_thread();

    if (orphaned)
        free(state);
}

const struct _glapi_table *_glapi_get_current(void)
{
    return (const struct _glapi_table *)_glapi_tls_Current[0];
}

/*
 * libglvnd's reset, for libraries that call it in their own fork handler. glmux's libEGL and
 * libGLX do not: libGLdispatch's own child handler resets everything once (lifetime.c), so
 * this finds nothing left to do when they are the only users.
 */
void __glDispatchReset(void)
{
    struct __GLdispatchThreadStatePrivateRec *priv = NULL;

    /* After fork only this thread exists; the lock may have been held by another one. */
    pthread_mutex_init(&glmux_dispatch_lock, NULL);
    glmux_tables_reset();
    if (glmux_dispatch_thread_key_valid)
        priv = glmux_dispatch_thread_record;
    if (priv != NULL) {
        pthread_mutex_lock(&glmux_dispatch_lock);
        glmux_records_unlink_locked(priv);
        pthread_mutex_unlock(&glmux_dispatch_lock);
        priv->state->priv = NULL;
        glmux_dispatch_set_record(NULL);
        free(priv);
    }
    glmux_dispatch_set_noop();
}

/* At the first __glDispatchInit (lock held): the records' key. */
static void threads_init(void)
{
    if (!glmux_dispatch_thread_key_valid &&
        pthread_key_create(&glmux_dispatch_thread_key, thread_destroyed) == 0)
        glmux_dispatch_thread_key_valid = true;
    if (!glmux_dispatch_thread_key_valid)
        glmux_log(GLMUX_LOG_ERROR, "cannot create the thread key; make-current will fail");
}

/* At the last __glDispatchFini (lock held): no destructor may run once the library is gone. */
static void threads_teardown(void)
{
    if (glmux_dispatch_thread_key_valid) {
        pthread_key_delete(glmux_dispatch_thread_key);
        glmux_dispatch_thread_key_valid = false;
    }
}

GLMUX_LIFECYCLE_STEP(dispatch_threads, 70, .init = threads_init, .teardown = threads_teardown);
