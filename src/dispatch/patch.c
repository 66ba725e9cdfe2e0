/* SPDX-License-Identifier: MIT */
/*
 * glmux: entry-point patching. Libraries that own entry stubs register callbacks; when a
 * vendor that offers patch callbacks becomes current and no other thread has a current
 * context, the vendor may rewrite the stubs and becomes their owner. The stubs stay patched
 * across lose-current; another vendor's make-current restores them when that is safe, and
 * fails when it is not (another thread still current). __glDispatchForceUnpatch restores
 * them at unload, without asking the owner. __GLVND_DISALLOW_PATCHING=1 turns all this off, and
 * so does a loaded GL layer (a patched stub would skip the layered twin table).
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "entry/entry.h"
#include "floor.h"
#include "layer_chain.h"
#include "patch.h"
#include "slots.h"
#include "util/env.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/log.h"

struct stub_set {
    int id;
    __GLdispatchStubPatchCallbacks callbacks;
    bool patched;
    struct stub_set *next;
};

static struct stub_set *stub_sets;
static int next_stub_id = 1;
/*
 * The owner's callbacks: written under glmux_dispatch_lock (with an atomic store, because
 * __glDispatchCheckMultithreaded reads it without the lock on every winsys entry point).
 */
static const __GLdispatchPatchCallbacks *owner_cb;
static int owner_vendor;
static bool patching_disallowed;
static bool layers_said;        /* "off while a GL layer is loaded" said (lock held) */

/* At the first __glDispatchInit, after slots.c's step read the application-error variables. */
static void patch_init(void)
{
    patching_disallowed = glmux_env_get_flag("__GLVND_DISALLOW_PATCHING") ||
                          glmux_app_error_checking();
    if (patching_disallowed)
        glmux_log(GLMUX_LOG_DISPATCH, "entry-point patching is disabled by the environment");
}

GLMUX_LIFECYCLE_STEP(dispatch_patch, 40, .init = patch_init);

static bool restore_all(void)
{
    for (struct stub_set *s = stub_sets; s != NULL; s = s->next) {
        if (s->patched) {
            if (!s->callbacks.restoreFuncs())
                return false;
            s->patched = false;
        }
    }
    return true;
}

static void patch_all(const __GLdispatchPatchCallbacks *cb, int vendor_id)
{
    bool any = false;

    for (struct stub_set *s = stub_sets; s != NULL; s = s->next) {
        int type = s->callbacks.getStubType();
        int size = s->callbacks.getStubSize();

        if (!cb->isPatchSupported(type, size)) {
            if (s->patched && s->callbacks.restoreFuncs())
                s->patched = false;
            continue;
        }
        if (!s->callbacks.startPatch())
            continue;
        if (cb->initiatePatch(type, size, s->callbacks.getPatchOffset)) {
            s->callbacks.finishPatch();
            s->patched = true;
            any = true;
        } else {
            s->callbacks.abortPatch();
            s->patched = false;
        }
    }
    __atomic_store_n(&owner_cb, any ? cb : NULL, __ATOMIC_RELEASE);
    owner_vendor = any ? vendor_id : 0;
    glmux_log(GLMUX_LOG_DISPATCH, "vendor %d %s the entry stubs", vendor_id,
              any ? "patched" : "could not patch");
}

/*
 * Puts the stubs in the state vendor_id wants (cb NULL: plain stubs). With force, it runs even
 * while other threads are current and does not call the old owner (it may be unloading).
 */
static bool switch_owner(const __GLdispatchPatchCallbacks *cb, int vendor_id, bool force)
{
    bool safe = force || (glmux_dispatch_current_count == 0 && stub_sets != NULL);

    if (owner_cb == NULL && cb == NULL)
        return true;            /* plain stubs wanted, plain stubs there */
    if (owner_cb != NULL && cb != NULL && owner_vendor == vendor_id)
        return true;            /* already patched by this vendor */
    if (!safe) {
        if (owner_cb == NULL)
            return true;        /* patching can wait: the plain stubs still dispatch right */
        glmux_log(GLMUX_LOG_ERROR,
                  "vendor %d owns the patched entry stubs while another thread is current; "
                  "vendor %d cannot become current now (set __GLVND_DISALLOW_PATCHING=1)",
                  owner_vendor, vendor_id);
        return false;
    }
    if (owner_cb != NULL) {
        if (!force && owner_cb->releasePatch != NULL)
            owner_cb->releasePatch();
        if (!restore_all())
            return false;
        __atomic_store_n(&owner_cb, NULL, __ATOMIC_RELEASE);
        owner_vendor = 0;
    }
    if (cb != NULL)
        patch_all(cb, vendor_id);
    return true;
}

bool glmux_patch_for_make_current(const __GLdispatchPatchCallbacks *cb, int vendor_id)
{
    GLMUX_ASSERT_LOCKED(&glmux_dispatch_lock);
    if (patching_disallowed || (cb != NULL && (cb->isPatchSupported == NULL ||
                                               cb->initiatePatch == NULL)))
        cb = NULL;
    /* A patched stub would skip the layered twin: no patching while a GL layer is loaded. */
    if (cb != NULL && __builtin_expect(glmux_chain_gl_now() != NULL, 0)) {
        if (!layers_said) {
            glmux_log(GLMUX_LOG_DISPATCH, "entry-point patching is off while a GL layer is "
                      "loaded");
            layers_said = true;
        }
        cb = NULL;
    }
    return switch_owner(cb, vendor_id, false);
}

GLboolean __glDispatchForceUnpatch(int vendorID)
{
    GLboolean done = GL_FALSE;

    pthread_mutex_lock(&glmux_dispatch_lock);
    if (owner_cb != NULL && owner_vendor == vendorID)
        done = switch_owner(NULL, 0, true) ? GL_TRUE : GL_FALSE;
    pthread_mutex_unlock(&glmux_dispatch_lock);
    return done;
}

void __glDispatchCheckMultithreaded(void)
{
    const __GLdispatchPatchCallbacks *cb = __atomic_load_n(&owner_cb, __ATOMIC_ACQUIRE);

    if (cb != NULL && cb->threadAttach != NULL)
        cb->threadAttach();
}

int __glDispatchRegisterStubCallbacks(const __GLdispatchStubPatchCallbacks *callbacks)
{
    struct stub_set *s;

    if (callbacks == NULL)
        return -1;
    s = calloc(1, sizeof(*s));
    if (s == NULL)
        return -1;
    s->callbacks = *callbacks;
    pthread_mutex_lock(&glmux_dispatch_lock);
    s->id = next_stub_id++;
    s->next = stub_sets;
    stub_sets = s;
    pthread_mutex_unlock(&glmux_dispatch_lock);
    return s->id;
}

void __glDispatchUnregisterStubCallbacks(int stubId)
{
    struct stub_set *found = NULL;

    pthread_mutex_lock(&glmux_dispatch_lock);
    for (struct stub_set **p = &stub_sets; *p != NULL; p = &(*p)->next) {
        if ((*p)->id == stubId) {
            found = *p;
            *p = found->next;
            break;
        }
    }
    pthread_mutex_unlock(&glmux_dispatch_lock);
    free(found);
}

#ifdef GLMUX_HAVE_ASM_STUBS
/* glmux_entry_patch_callbacks: src/entry/entry_patch.c, compiled into libGLdispatch too. */
static int own_stub_id = -1;

void glmux_patch_register_own_stubs(void)
{
    if (own_stub_id < 0)
        own_stub_id = __glDispatchRegisterStubCallbacks(&glmux_entry_patch_callbacks);
}

void glmux_patch_unregister_own_stubs(void)
{
    if (own_stub_id >= 0)
        __glDispatchUnregisterStubCallbacks(own_stub_id);
    own_stub_id = -1;
}
#else
void glmux_patch_register_own_stubs(void)
{
}

void glmux_patch_unregister_own_stubs(void)
{
}
#endif
