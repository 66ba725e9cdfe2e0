/* SPDX-License-Identifier: MIT */
/*
 * glmux: the private interface of libGLdispatch.so.0, shared by libGLX, libEGL and the
 * stub-owning API libraries. It is binary compatible with libglvnd's private GLdispatch
 * surface (ABI version 1) so that a stray libglvnd libGL.so.1 or libOpenGL.so.0 still works
 * next to our libGLdispatch, and ours next to theirs.
 */
#ifndef GLMUX_GLDISPATCH_H
#define GLMUX_GLDISPATCH_H

#include <stdbool.h>
#include <stdint.h>

#include <GL/gl.h>

#include "glvnd/GLdispatchABI.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GLDISPATCH_ABI_VERSION 1

/* Tags of __GLdispatchThreadState: which winsys library owns the thread's current context. */
enum {
    GLDISPATCH_API_GLX = 0,
    GLDISPATCH_API_EGL = 1
};

#define GLMUX_DISPATCH_EXPORT __attribute__((visibility("default")))

/* An opaque dispatch table: one per vendor (per winsys library). */
typedef struct __GLdispatchTableRec __GLdispatchTable;

typedef void (*__GLdispatchProc)(void);

/* Looks up the vendor's implementation of a GL function; param is the table's cookie. Called
 * from any thread with no lock of libGLdispatch held (lazily at a slot's first call, or at
 * make-current and for a new dynamic name with eager tables): it may call back into
 * libGLdispatch, also __glDispatchGetProcAddress (docs/architecture.md, "Locking"). */
typedef void *(*__GLgetProcAddressCallback)(const char *procName, void *param);

typedef struct __GLdispatchThreadStateRec __GLdispatchThreadState;

/*
 * The per-thread record of a current context. GLX and EGL embed it as the first member of
 * their own thread state. A thread has one exactly while it has a current context.
 */
struct __GLdispatchThreadStateRec {
    int tag;                                     /* GLDISPATCH_API_GLX or _EGL */
    /*
     * Called when a thread that still has a current context exits, after libGLdispatch has
     * released it. Must not call __glDispatchMakeCurrent or __glDispatchLoseCurrent.
     */
    void (*threadDestroyedCallback)(__GLdispatchThreadState *state);
    struct __GLdispatchThreadStatePrivateRec *priv; /* owned by libGLdispatch */
};

/* A vendor's entry-point patching callbacks (copied from its GLX or EGL imports). */
typedef struct __GLdispatchPatchCallbacksRec {
    GLboolean (*isPatchSupported)(int type, int stubSize);
    GLboolean (*initiatePatch)(int type, int stubSize,
                               DispatchPatchLookupStubOffset lookupStubOffset);
    void (*releasePatch)(void);
    void (*threadAttach)(void);
} __GLdispatchPatchCallbacks;

/* What a library that owns entry stubs registers so that vendors can patch them. */
typedef struct __GLdispatchStubPatchCallbacksRec {
    GLboolean (*startPatch)(void);   /* make the stubs writable, keep a pristine copy */
    void (*finishPatch)(void);       /* make them executable again */
    void (*abortPatch)(void);        /* undo a failed patch */
    GLboolean (*restoreFuncs)(void); /* put the original stubs back */
    GLboolean (*getPatchOffset)(const char *name, void **writePtr, const void **execPtr);
    int (*getStubType)(void);
    int (*getStubSize)(void);
} __GLdispatchStubPatchCallbacks;

GLMUX_DISPATCH_EXPORT int __glDispatchGetABIVersion(void);
GLMUX_DISPATCH_EXPORT void __glDispatchInit(void);
GLMUX_DISPATCH_EXPORT void __glDispatchFini(void);
GLMUX_DISPATCH_EXPORT void __glDispatchReset(void);
GLMUX_DISPATCH_EXPORT int __glDispatchNewVendorID(void);
GLMUX_DISPATCH_EXPORT __GLdispatchProc __glDispatchGetProcAddress(const char *procName);
GLMUX_DISPATCH_EXPORT __GLdispatchTable *__glDispatchCreateTable(
    __GLgetProcAddressCallback getProcAddress, void *param);
GLMUX_DISPATCH_EXPORT void __glDispatchDestroyTable(__GLdispatchTable *dispatch);
GLMUX_DISPATCH_EXPORT GLboolean __glDispatchMakeCurrent(
    __GLdispatchThreadState *threadState, __GLdispatchTable *dispatch, int vendorID,
    const __GLdispatchPatchCallbacks *patchCb);
GLMUX_DISPATCH_EXPORT void __glDispatchLoseCurrent(void);
GLMUX_DISPATCH_EXPORT __GLdispatchThreadState *__glDispatchGetCurrentThreadState(void);
GLMUX_DISPATCH_EXPORT void __glDispatchCheckMultithreaded(void);
GLMUX_DISPATCH_EXPORT GLboolean __glDispatchForceUnpatch(int vendorID);
GLMUX_DISPATCH_EXPORT int __glDispatchRegisterStubCallbacks(
    const __GLdispatchStubPatchCallbacks *callbacks);
GLMUX_DISPATCH_EXPORT void __glDispatchUnregisterStubCallbacks(int stubId);

struct _glapi_table;
GLMUX_DISPATCH_EXPORT const struct _glapi_table *_glapi_get_current(void);

/* The current thread's dispatch table: element 0 is the table pointer (initial-exec TLS). */
extern GLMUX_DISPATCH_EXPORT __thread const void *_glapi_tls_Current[1]
    __attribute__((tls_model("initial-exec")));
/* Unused in TLS builds; kept for the ABI and always NULL. */
extern GLMUX_DISPATCH_EXPORT const void *_glapi_Current[1];

/*
 * glmux's own extension of the private interface, for glmux's libEGL and libGLX: the one
 * fork reset and the unload rule for thread records (docs/architecture.md, "Threads, fork,
 * unload"). It adds no exported name: __glDispatchGetProcAddress(GLMUX_DISPATCH_WINSYS_NAME)
 * returns the address of a struct glmux_dispatch_winsys, whose magic tells it apart from a stub
 * another libGLdispatch might hand out for that name. Version 2 added `shared` and
 * `client_shared` (libEGL's vendors for libGLX's built-in pixels vendor); version 3 removed
 * them again: the pixels vendor is a vendor library of its own and asks libEGL itself
 * (src/egl/egl_shared.h). Version 4 added the clients' fork_prepare and fork_parent. Version 5
 * added GL layers (docs/layers.md): the clients' own_proc (their terminator for one of their
 * names) and the winsys' layer_top and layers_active (the process's one chain of layers, which
 * libGLdispatch owns).
 */
#define GLMUX_DISPATCH_WINSYS_NAME "__glmux_dispatch_winsys_5"
#define GLMUX_DISPATCH_WINSYS_MAGIC 0x32737973776e6977ull

/*
 * An API library as libGLdispatch's client. Its thread records are the states whose
 * threadDestroyedCallback is record_destroyed; they are allocated with malloc.
 */
struct glmux_dispatch_client {
    int tag;                /* GLDISPATCH_API_GLX or _EGL */
    const char *name;       /* for messages */
    /*
     * The fork protocol (docs/architecture.md, "Threads, fork, unload"). Before fork():
     * fork_prepare takes every lock of the library, in its documented order, waiting for no
     * thread that is inside a vendor or Xlib; libGLdispatch calls the clients' fork_prepare
     * in tag order (libGLX, then libEGL) and then takes its own lock. In the parent:
     * fork_parent releases them. In the child, after libGLdispatch's own reset: after_fork
     * releases them (or makes anew what fork_prepare could not take).
     */
    void (*fork_prepare)(void);
    void (*fork_parent)(void);
    void (*after_fork)(void);
    /* Releases what a record holds and frees it (thread exit; every record after fork). */
    void (*record_destroyed)(__GLdispatchThreadState *state);
    /*
     * Version 5: the library's terminator for one of its own names ("egl..." for libEGL,
     * "glX..." for libGLX): glmux's own implementation of the function (the body behind the
     * export), or for an extension name what glmux's GetProcAddress would answer without
     * layers; NULL when unknown. It is the bottom of every chain of layers for the name and
     * what get_next() answers below the lowest layer. May be NULL (the client has no layered
     * names). Called from any thread with no lock of libGLdispatch held, also from inside a
     * layer's get_proc_address (a layer that calls get_next): it must not call layer_top.
     */
    void *(*own_proc)(const char *name);
};

struct glmux_dispatch_winsys {
    unsigned long long magic;   /* GLMUX_DISPATCH_WINSYS_MAGIC */
    /* Registers a client (at most 8); GL_FALSE when there is no room. */
    GLboolean (*register_client)(const struct glmux_dispatch_client *client);
    /*
     * Unregisters it at unload: its records still current on other threads become
     * libGLdispatch's (freed without calling the client); waits for running
     * record_destroyed calls. Returns how many records were taken over.
     */
    int (*unregister_client)(const struct glmux_dispatch_client *client);
    /*
     * Version 5: the top of the process's chain of GL layers for name (api: one
     * GLMUX_LAYER_API_* bit of include/glmux/glmux_layer.h), or NULL when no loaded layer
     * intercepts it (then the caller calls its own implementation, terminator). The first call
     * in the process (or the first make-current, whichever comes first) discovers and loads the
     * layers; later calls are a lookup in a per-name cache, and once layers are known to be
     * absent a load and a branch. terminator is the caller's own function for name, the bottom
     * of the chain; NULL asks the registered client's own_proc. Thread-safe; no lock is held
     * while a layer is asked. A layer's answer equal to what it was given below counts as
     * declining.
     */
    void *(*layer_top)(const char *name, uint32_t api, void *terminator);
    /*
     * Version 5: true once layers are loaded in this process (false before the first
     * layer_top or make-current, and when none was found). Cheap: one load.
     */
    bool (*layers_active)(void);
    /*
     * Version 5: true for the first call with key in the process (util/log.h,
     * glmux_log_claim): libEGL and libGLX say a thing about the environment once between them.
     * Lock-free, from any thread.
     */
    bool (*claim_message)(const char *key);
};

#ifdef __cplusplus
}
#endif

#endif /* GLMUX_GLDISPATCH_H */
