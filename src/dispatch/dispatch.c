/* SPDX-License-Identifier: MIT */
/*
 * glmux: the core of libGLdispatch.so.0. It owns the current-context state of every thread
 * (a pthread key holding our record, plus the initial-exec TLS pointer _glapi_tls_Current that
 * the entry stubs read), the per-vendor dispatch tables, vendor ids and fork recovery.
 *
 * Naming: exported functions keep libglvnd's names (__glDispatch*, _glapi_*); everything else
 * is glmux_<module>_<verb>. One mutex, glmux_dispatch_lock, guards all shared state; the
 * stubs never take it.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "dispatch_internal.h"
#include "util/env.h"
#include "util/lock.h"
#include "util/log.h"

__thread const void *_glapi_tls_Current[1] __attribute__((tls_model("initial-exec"))) = {
    glmux_noop_table
};
const void *_glapi_Current[1];

pthread_mutex_t glmux_dispatch_lock = PTHREAD_MUTEX_INITIALIZER;
int glmux_dispatch_current_count;

static int init_count;
static int next_vendor_id = 1;
pthread_key_t glmux_dispatch_thread_key;
bool glmux_dispatch_thread_key_valid;
__thread struct __GLdispatchThreadStatePrivateRec *glmux_dispatch_thread_record
    __attribute__((tls_model("initial-exec")));
static __GLdispatchTable *current_tables;
#if GLMUX_HAVE_LAZY
static bool eager_tables;       /* GLMUX_EAGER_TABLES: fill at make-current, not lazily */
#else
static const bool eager_tables = true;
#endif

static void lose_current_locked(struct __GLdispatchThreadStatePrivateRec *priv);
static void free_entries(const void **entries);
static void free_table(__GLdispatchTable *table);

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
    _glapi_tls_Current[0] = glmux_noop_table;
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
        glmux_patch_read_env();
#if GLMUX_HAVE_LAZY
        eager_tables = glmux_env_get_flag("GLMUX_EAGER_TABLES");
#endif
        if (!glmux_dispatch_thread_key_valid &&
            pthread_key_create(&glmux_dispatch_thread_key, thread_destroyed) == 0)
            glmux_dispatch_thread_key_valid = true;
        if (!glmux_dispatch_thread_key_valid)
            glmux_log(GLMUX_LOG_ERROR, "cannot create the thread key; make-current will fail");
        glmux_lifetime_init();
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
    pthread_mutex_lock(&glmux_dispatch_lock);
    if (glmux_dispatch_thread_key_valid) {
        /* No destructor may run once this library is gone. */
        pthread_key_delete(glmux_dispatch_thread_key);
        glmux_dispatch_thread_key_valid = false;
    }
    glmux_slots_reset();
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

__GLdispatchTable *__glDispatchCreateTable(__GLgetProcAddressCallback getProcAddress, void *param)
{
    __GLdispatchTable *table;

    if (getProcAddress == NULL)
        return NULL;
    table = calloc(1, sizeof(*table));
    if (table == NULL) {
        glmux_log(GLMUX_LOG_ERROR, "out of memory creating a dispatch table");
        return NULL;
    }
    table->get_proc_address = getProcAddress;
    table->param = param;
    return table;
}

static void free_table(__GLdispatchTable *table)
{
    free_entries(table->entries);
    free(table);
}

void __glDispatchDestroyTable(__GLdispatchTable *dispatch)
{
    bool in_use;

    if (dispatch == NULL)
        return;
    pthread_mutex_lock(&glmux_dispatch_lock);
    in_use = dispatch->current_threads > 0;
    /* Still current somewhere: freed when the last of those threads lets go of it. */
    dispatch->destroyed = in_use;
    pthread_mutex_unlock(&glmux_dispatch_lock);
    if (in_use)
        glmux_log(GLMUX_LOG_DISPATCH, "dispatch table destroyed while current on %d thread(s); "
                  "freed when released", dispatch->current_threads);
    else
        free_table(dispatch);
}

/*
 * A table's entries are preceded by a pointer back to the table, so that the lazy resolver can
 * find the table from the entries pointer in _glapi_tls_Current.
 */
static const void **alloc_entries(__GLdispatchTable *table)
{
    const void **block = malloc(sizeof(*block) * (GLMUX_TOTAL_SLOTS + 1));

    if (block == NULL)
        return NULL;
    block[0] = table;
    return block + 1;
}

static void free_entries(const void **entries)
{
    if (entries != NULL)
        free(entries - 1);
}

static const void *resolve_slot(__GLdispatchTable *table, unsigned slot)
{
    const char *name = glmux_slot_name(slot);
    const void *proc = name ? table->get_proc_address(name, table->param) : NULL;

    return proc != NULL ? proc : glmux_noop_table[slot];
}

#if GLMUX_HAVE_LAZY
/*
 * Assembly builds fill tables lazily: every slot starts as its resolver trampoline
 * (glmux_lazy.S), and the first call through it asks the vendor once. A process pays only for
 * the functions it calls, not for all 3352 lookups at the first make-current.
 * GLMUX_EAGER_TABLES=1 fills every slot in use at make-current instead, as libglvnd does.
 *
 * glmux_noop_table, the table of threads without a context, holds the same trampolines: the
 * resolver sees that no table is current and answers with a no-op. It is filled when the
 * library is loaded (static slots) and when a dynamic slot is handed out, rather than by
 * relocations: the generated code and data hold no pointers.
 */
extern const char glmux_lazy_start[];

const void *glmux_noop_table[GLMUX_TOTAL_SLOTS];

static const void *lazy_address(unsigned slot)
{
    return glmux_lazy_start + (size_t)(slot / GLMUX_LAZY_GROUP) * GLMUX_LAZY_GROUP_BYTES +
           (size_t)(slot % GLMUX_LAZY_GROUP) * GLMUX_LAZY_SIZE;
}

__attribute__((constructor)) static void fill_noop_table(void)
{
    const char *group = glmux_lazy_start;

    for (unsigned first = 0; first < GLMUX_STATIC_SLOTS; first += GLMUX_LAZY_GROUP) {
        unsigned n = GLMUX_STATIC_SLOTS - first < GLMUX_LAZY_GROUP ? GLMUX_STATIC_SLOTS - first
                                                                     : GLMUX_LAZY_GROUP;

        for (unsigned j = 0; j < n; j++)
            glmux_noop_table[first + j] = group + (size_t)j * GLMUX_LAZY_SIZE;
        group += GLMUX_LAZY_GROUP_BYTES;
    }
}

void glmux_slot_prepare(unsigned slot)
{
    glmux_noop_table[slot] = lazy_address(slot);
}

/* What a call through a slot runs when there is no function for it: returns 0. */
static intptr_t noop_return(void)
{
    return 0;
}

__attribute__((visibility("hidden"))) const void *glmux_lazy_resolve(unsigned slot);
const void *glmux_lazy_resolve(unsigned slot)
{
    const void **entries = (const void **)_glapi_tls_Current[0];
    __GLdispatchTable *table;
    const char *name;
    const void *proc = NULL;

    if (slot >= GLMUX_TOTAL_SLOTS)
        return (const void *)noop_return;
    if (entries != NULL && entries != glmux_noop_table) {
        table = (__GLdispatchTable *)entries[-1];
        name = glmux_slot_name(slot);
        proc = name ? table->get_proc_address(name, table->param) : NULL;
        if (proc != NULL) {
            __atomic_store_n(&entries[slot], proc, __ATOMIC_RELEASE);
            return proc;
        }
    }
    /* No context, or the vendor lacks the function. While calls without a function are
     * reported, the slot keeps its trampoline so that every such call is reported. */
    glmux_dispatch_noop(slot);
    if (entries != NULL && entries != glmux_noop_table && !glmux_dispatch_noop_reported())
        __atomic_store_n(&entries[slot], (const void *)noop_return, __ATOMIC_RELEASE);
    return (const void *)noop_return;
}
#else
void glmux_slot_prepare(unsigned slot)
{
    (void)slot;     /* pure C: the no-op table is complete from the start */
}
#endif

bool glmux_table_fixup(__GLdispatchTable *table)
{
    unsigned used = glmux_slots_used();

    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (table->entries == NULL) {
        table->entries = alloc_entries(table);
        if (table->entries == NULL)
            return false;
        table->filled = 0;
    }
    if (table->filled >= used)
        return true;
    if (eager_tables) {
        for (; table->filled < used; table->filled++)
            __atomic_store_n(&table->entries[table->filled],
                             resolve_slot(table, table->filled), __ATOMIC_RELEASE);
        return true;
    }
    /* Lazy: the slots not set yet start as their trampolines. */
    memcpy(table->entries + table->filled, glmux_noop_table + table->filled,
           sizeof(*table->entries) * (used - table->filled));
    table->filled = used;
    return true;
}

void glmux_tables_fixup_current(void)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    for (__GLdispatchTable *t = current_tables; t != NULL; t = t->next_current)
        glmux_table_fixup(t);
}

static void unlink_current_table(__GLdispatchTable *table)
{
    for (__GLdispatchTable **p = &current_tables; *p != NULL; p = &(*p)->next_current) {
        if (*p == table) {
            *p = table->next_current;
            table->next_current = NULL;
            return;
        }
    }
}

static void lose_current_locked(struct __GLdispatchThreadStatePrivateRec *priv)
{
    __GLdispatchTable *table = priv->table;

    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (table != NULL && --table->current_threads == 0) {
        unlink_current_table(table);
        if (table->destroyed)
            free_table(table);
    }
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
        free(glmux_dispatch_release_thread());
        return NULL;
    }
    return priv->state;
}

GLboolean __glDispatchMakeCurrent(__GLdispatchThreadState *threadState,
                                  __GLdispatchTable *dispatch, int vendorID,
                                  const __GLdispatchPatchCallbacks *patchCb)
{
    struct __GLdispatchThreadStatePrivateRec *priv;

    if (threadState == NULL || dispatch == NULL || !glmux_dispatch_thread_key_valid)
        return GL_FALSE;
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
    if (!glmux_table_fixup(dispatch)) {
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
    if (dispatch->current_threads++ == 0) {
        dispatch->next_current = current_tables;
        current_tables = dispatch;
    }
    glmux_dispatch_current_count++;
    glmux_records_link_locked(priv);
    pthread_mutex_unlock(&glmux_dispatch_lock);

    threadState->priv = priv;
    glmux_dispatch_set_record(priv);
    _glapi_tls_Current[0] = dispatch->entries;
    return GL_TRUE;
}

__GLdispatchThreadState *glmux_dispatch_release_thread(void)
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
    _glapi_tls_Current[0] = glmux_noop_table;
    state = priv->state;
    free(priv);
    return state;
}

void __glDispatchLoseCurrent(void)
{
    struct __GLdispatchThreadStatePrivateRec *priv =
        glmux_dispatch_thread_key_valid ? glmux_dispatch_thread_record : NULL;
    bool orphaned = priv != NULL && __atomic_load_n(&priv->orphaned, __ATOMIC_ACQUIRE);
    __GLdispatchThreadState *state = glmux_dispatch_release_thread();

    if (orphaned)
        free(state);
}

const struct _glapi_table *_glapi_get_current(void)
{
    return (const struct _glapi_table *)_glapi_tls_Current[0];
}

void glmux_dispatch_reset_tables(void)
{
    while (current_tables != NULL) {
        __GLdispatchTable *t = current_tables;

        current_tables = t->next_current;
        t->next_current = NULL;
        t->current_threads = 0;
        if (t->destroyed)
            free_table(t);
    }
    glmux_dispatch_current_count = 0;
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
    glmux_dispatch_reset_tables();
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
    _glapi_tls_Current[0] = glmux_noop_table;
}
