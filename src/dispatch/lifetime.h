/* SPDX-License-Identifier: MIT */
/*
 * glmux: the lifetime of thread records in libGLdispatch (lifetime.c): every thread's record,
 * the API libraries registered as clients, and the fork handlers that run libGLdispatch's
 * lifecycle steps. Uses only the ground floor.
 */
#ifndef GLMUX_DISPATCH_LIFETIME_H
#define GLMUX_DISPATCH_LIFETIME_H

#include <stdbool.h>

#include "GLdispatch.h"

struct glmux_client_slot;

/* libGLdispatch's record of one thread's current context. */
struct __GLdispatchThreadStatePrivateRec {
    __GLdispatchThreadState *state;
    __GLdispatchTable *table;
    int vendor_id;
    struct glmux_client_slot *client; /* the registered library that owns state, or NULL */
    bool orphaned;          /* its library was unloaded: state is ours to free */
    struct __GLdispatchThreadStatePrivateRec *prev, *next; /* every thread's record */
};

/* Links a new record and finds the client that owns its state. Lock held. */
void glmux_records_link_locked(struct __GLdispatchThreadStatePrivateRec *priv);
void glmux_records_unlink_locked(struct __GLdispatchThreadStatePrivateRec *priv);
/*
 * Thread exit: decides under the lock what happens to the state of a record that is being
 * released (returns the client whose record_destroyed is to be called, marked busy, or NULL).
 */
struct glmux_client_slot *glmux_client_enter_locked(struct __GLdispatchThreadStatePrivateRec *priv);
/* Calls the client's record_destroyed (or the plain callback) without the lock, then unmarks. */
void glmux_client_call_destroyed(struct glmux_client_slot *slot, __GLdispatchThreadState *state);
/* The registered client of tag's own_proc(name) (winsys v5), or NULL. Called with no lock held. */
void *glmux_client_own_proc(int tag, const char *name);
/* winsys' register_client and unregister_client (GLdispatch.h). */
GLboolean glmux_client_register(const struct glmux_dispatch_client *client);
int glmux_client_unregister(const struct glmux_dispatch_client *client);

#endif /* GLMUX_DISPATCH_LIFETIME_H */
