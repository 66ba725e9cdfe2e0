/* SPDX-License-Identifier: MIT */
/*
 * glmux: the lifetime of thread records, for every API library at once. glmux's libEGL and
 * libGLX register as clients (through the private extension GLdispatch.h describes, so the
 * export list stays libglvnd's); a client may also leave an interface there for the others
 * (libEGL's vendors, which libGLX's pixels vendor renders with). libGLdispatch then keeps
 * every thread's record in one list and owns the one fork reset: in the child it resets its
 * tables, lets each client re-create its locks, and hands every record of the parent back to
 * its client, which drops the context references it holds. Before fork it takes every
 * client's locks and then its own, so no lock is copied into the child mid-update. When a
 * client is unloaded while other threads still have its contexts current, their records
 * become libGLdispatch's: freed when the thread exits or next asks for its state, and never
 * passed back into the unloaded library. Its fork handlers run every lifecycle step of
 * libGLdispatch (util/lifecycle.h); the clients' and the records' are two of them.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "floor.h"
#include "lifetime.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/log.h"

#define MAX_CLIENTS 8

struct glmux_client_slot {
    const struct glmux_dispatch_client *client;
    int busy;       /* record_destroyed calls running now */
};

static struct glmux_client_slot clients[MAX_CLIENTS];
static pthread_cond_t clients_idle = PTHREAD_COND_INITIALIZER;
/* Every thread's record (lock held to walk or change). */
static struct __GLdispatchThreadStatePrivateRec *all_records;

void glmux_records_link_locked(struct __GLdispatchThreadStatePrivateRec *priv)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    priv->client = NULL;
    for (int i = 0; i < MAX_CLIENTS; i++) {
        const struct glmux_dispatch_client *c = clients[i].client;

        if (c != NULL && c->tag == priv->state->tag &&
            c->record_destroyed == priv->state->threadDestroyedCallback) {
            priv->client = &clients[i];
            break;
        }
    }
    priv->prev = NULL;
    priv->next = all_records;
    if (priv->next != NULL)
        priv->next->prev = priv;
    all_records = priv;
}

void glmux_records_unlink_locked(struct __GLdispatchThreadStatePrivateRec *priv)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (priv->prev != NULL)
        priv->prev->next = priv->next;
    else if (all_records == priv)
        all_records = priv->next;
    if (priv->next != NULL)
        priv->next->prev = priv->prev;
    priv->prev = priv->next = NULL;
}

struct glmux_client_slot *glmux_client_enter_locked(struct __GLdispatchThreadStatePrivateRec *priv)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (priv->client != NULL)
        priv->client->busy++;
    return priv->client;
}

void glmux_client_call_destroyed(struct glmux_client_slot *slot, __GLdispatchThreadState *state)
{
    if (state->threadDestroyedCallback != NULL)
        state->threadDestroyedCallback(state);
    if (slot == NULL)
        return;
    pthread_mutex_lock(&glmux_dispatch_lock);
    if (--slot->busy == 0)
        pthread_cond_broadcast(&clients_idle);
    pthread_mutex_unlock(&glmux_dispatch_lock);
}

GLboolean glmux_client_register(const struct glmux_dispatch_client *client)
{
    struct glmux_client_slot *free_slot = NULL;

    if (client == NULL || client->fork_prepare == NULL || client->fork_parent == NULL ||
        client->after_fork == NULL || client->record_destroyed == NULL)
        return GL_FALSE;
    pthread_mutex_lock(&glmux_dispatch_lock);
    for (int i = 0; i < MAX_CLIENTS; i++) {
        if (clients[i].client == client) {
            free_slot = &clients[i];
            break;
        }
        if (clients[i].client == NULL && free_slot == NULL)
            free_slot = &clients[i];
    }
    if (free_slot != NULL)
        free_slot->client = client;
    pthread_mutex_unlock(&glmux_dispatch_lock);
    if (free_slot == NULL)
        glmux_log(GLMUX_LOG_ERROR, "%s: more than %d libraries registered with libGLdispatch; "
                  "it handles fork and unload itself", client->name, MAX_CLIENTS);
    return free_slot != NULL ? GL_TRUE : GL_FALSE;
}

int glmux_client_unregister(const struct glmux_dispatch_client *client)
{
    struct glmux_client_slot *slot = NULL;
    int n = 0;

    pthread_mutex_lock(&glmux_dispatch_lock);
    for (int i = 0; i < MAX_CLIENTS && slot == NULL; i++) {
        if (clients[i].client == client)
            slot = &clients[i];
    }
    if (slot != NULL) {
        for (struct __GLdispatchThreadStatePrivateRec *p = all_records; p != NULL;
             p = p->next) {
            if (p->client == slot) {
                p->client = NULL;
                __atomic_store_n(&p->orphaned, true, __ATOMIC_RELEASE);
                n++;
            }
        }
        /* A thread that is exiting right now may be inside the client: let it leave. */
        while (slot->busy > 0)
            pthread_cond_wait(&clients_idle, &glmux_dispatch_lock);
        slot->client = NULL;
    }
    pthread_mutex_unlock(&glmux_dispatch_lock);
    return n;
}

void *glmux_client_own_proc(int tag, const char *name)
{
    struct glmux_client_slot *slot = NULL;
    void *proc = NULL;

    pthread_mutex_lock(&glmux_dispatch_lock);
    for (int i = 0; i < MAX_CLIENTS && slot == NULL; i++) {
        if (clients[i].client != NULL && clients[i].client->tag == tag &&
            clients[i].client->own_proc != NULL)
            slot = &clients[i];
    }
    if (slot != NULL)
        slot->busy++;   /* not unregistered (and unloaded) while it answers */
    pthread_mutex_unlock(&glmux_dispatch_lock);
    if (slot == NULL)
        return NULL;
    proc = slot->client->own_proc(name);
    pthread_mutex_lock(&glmux_dispatch_lock);
    if (--slot->busy == 0)
        pthread_cond_broadcast(&clients_idle);
    pthread_mutex_unlock(&glmux_dispatch_lock);
    return proc;
}


/*
 * The clients whose fork_prepare the forking thread ran, in the order it ran them; pinned
 * (busy) so that none is unregistered and unloaded before its fork_parent has run. fork_lock
 * lets one thread at a time through the fork handlers (no thread-local storage: libGLdispatch's
 * static TLS is kept for the dispatch pointer; dlopened vendors like Mesa need the rest).
 */
static pthread_mutex_t fork_lock = PTHREAD_MUTEX_INITIALIZER;
static struct glmux_client_slot *forking[MAX_CLIENTS];
static int forking_count;

/*
 * Before fork(): every client's locks, in one order — libGLX's, then libEGL's (by API tag:
 * libGLX may be inside a vendor that calls libEGL, never the other way) — and then this
 * library's own lock (floor.c's step, after this one: a client's lock may be held while it
 * calls libGLdispatch, never the other way). A client that registers meanwhile is not pinned;
 * its after_fork makes its locks anew.
 */
static void clients_fork(enum glmux_fork_step step)
{
    if (step == GLMUX_FORK_PREPARE) {
        pthread_mutex_lock(&fork_lock);
        forking_count = 0;
        pthread_mutex_lock(&glmux_dispatch_lock);
        for (int tag = GLDISPATCH_API_GLX; tag <= GLDISPATCH_API_EGL; tag++) {
            for (int i = 0; i < MAX_CLIENTS; i++) {
                if (clients[i].client != NULL && clients[i].client->tag == tag) {
                    clients[i].busy++;
                    forking[forking_count++] = &clients[i];
                }
            }
        }
        pthread_mutex_unlock(&glmux_dispatch_lock);
        for (int i = 0; i < forking_count; i++)
            forking[i]->client->fork_prepare();
    } else if (step == GLMUX_FORK_PARENT) {
        /* floor.c's step released the lock: the pins are dropped under it again. */
        for (int i = forking_count - 1; i >= 0; i--)
            forking[i]->client->fork_parent();
        pthread_mutex_lock(&glmux_dispatch_lock);
        for (int i = forking_count - 1; i >= 0; i--) {
            if (--forking[i]->busy == 0)
                pthread_cond_broadcast(&clients_idle);
        }
        pthread_mutex_unlock(&glmux_dispatch_lock);
        forking_count = 0;
        pthread_mutex_unlock(&fork_lock);
    } else {
        /* fork_prepare took the lock on this very thread: unlock it (ThreadSanitizer follows). */
        pthread_mutex_unlock(&fork_lock);
        pthread_cond_init(&clients_idle, NULL);
        forking_count = 0;
        for (int i = 0; i < MAX_CLIENTS; i++)
            clients[i].busy = 0;
    }
}

/* Installs the fork handlers, at the first __glDispatchInit. */
static void clients_init(void);

GLMUX_LIFECYCLE_STEP(dispatch_clients, 10, .init = clients_init, .fork = clients_fork);

/*
 * The one fork reset, in the child, after floor.c's step left the thread without a context
 * and tables.c's forgot the current tables. Only the forking thread exists in the child;
 * every record (its own included) belonged to the parent: as in libglvnd, the child starts
 * with no current context. Each client releases the locks its fork_prepare took (no other
 * thread can hold one), then gets back the parent's records of its own.
 */
static void records_child(void)
{
    struct __GLdispatchThreadStatePrivateRec *list = all_records;

    all_records = NULL;
    for (int i = 0; i < MAX_CLIENTS; i++) {
        if (clients[i].client != NULL)
            clients[i].client->after_fork();
    }
    while (list != NULL) {
        struct __GLdispatchThreadStatePrivateRec *priv = list;
        __GLdispatchThreadState *state = priv->state;

        list = priv->next;
        state->priv = NULL;
        if (priv->orphaned)
            free(state);
        else if (priv->client != NULL)
            priv->client->client->record_destroyed(state);
        /* else: another library's record; it calls __glDispatchReset itself */
        free(priv);
    }
}

GLMUX_LIFECYCLE_STEP(dispatch_records, 60, .child = records_child);

static void clients_init(void)
{
    static bool installed;

    /* Handlers stay installed while libGLdispatch is loaded (glibc drops them at unload). */
    if (installed)
        return;
    if (pthread_atfork(glmux_lifecycle_fork_prepare, glmux_lifecycle_fork_parent,
                       glmux_lifecycle_fork_child) == 0)
        installed = true;
    else
        glmux_log(GLMUX_LOG_WARN, "libGLdispatch cannot install its fork handlers; a forked "
                  "child may inherit the parent's current contexts");
}
