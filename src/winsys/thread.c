/* SPDX-License-Identifier: MIT */
/*
 * glmux winsys: the load and unload of libEGL and libGLX, their current-context records and
 * the records' lifetime. The library hands its descriptor down from its own constructor
 * (GLMUX_WINSYS_LIBRARY, winsys.h): nothing here calls a symbol of the library above. A record embeds libGLdispatch's __GLdispatchThreadState; the library
 * registers with libGLdispatch (GLdispatch.h, struct glmux_dispatch_winsys), which then owns
 * the one fork reset and takes over the records of an unloaded library. Also the
 * patch-callback set-up both libraries do for a vendor.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/exiting.h"
#include "util/log.h"
#include "winsys/winsys.h"

/* The library this copy of the winsys layer is linked into, handed down by its constructor. */
static const struct glmux_winsys_library *library;
static const struct glmux_dispatch_winsys *dispatch_winsys;
static const struct glmux_dispatch_client *fallback_client;
static bool usable;

/* Without glmux's libGLdispatch: what libglvnd's libraries do in their own fork check. */
static void fallback_after_fork(void)
{
    __GLdispatchThreadState *state = __glDispatchGetCurrentThreadState();

    __glDispatchReset();
    fallback_client->after_fork();
    if (state != NULL && state->threadDestroyedCallback == fallback_client->record_destroyed)
        fallback_client->record_destroyed(state);
}

/* The file an address of the process is in ("?" when the loader does not know). */
static const char *object_of(const void *addr)
{
    Dl_info info;

    return dladdr(addr, &info) != 0 && info.dli_fname != NULL ? info.dli_fname : "?";
}

/*
 * This library runs with a libGLdispatch.so.0 that is not glmux's: a program built against a
 * glmux prefix whose RUNPATH (not inherited by our dependencies) found our library and the
 * system's libGLdispatch, or an LD_LIBRARY_PATH that names only part of the prefix. It works
 * (the private ABI is libglvnd's), but not as installed; said once per load, by default.
 */
static void warn_mixed(const struct glmux_dispatch_client *client)
{
    const char *ours = object_of((const void *)warn_mixed);
    char *real = realpath(ours, NULL), *slash = real != NULL ? strrchr(real, '/') : NULL;
    char fix[4096] = "";

    /* Where glmux's libGLdispatch.so.0 should be: next to this library's real file. */
    if (slash != NULL) {
        *slash = '\0';
        snprintf(fix, sizeof(fix), "%s/libGLdispatch.so.0", real);
        if (access(fix, F_OK) == 0)
            snprintf(fix, sizeof(fix), "LD_LIBRARY_PATH=%s", real);
        else
            fix[0] = '\0';
    }
    glmux_log(GLMUX_LOG_WARN, "%s (%s) runs with a libGLdispatch.so.0 that is not glmux's "
              "(%s): this process mixes glmux with another GL dispatch library, libglvnd's; "
              "start it with %s, or install glmux as the system's GL libraries "
              "(docs/prefix.md in the glmux sources)", client->name, ours,
              object_of((const void *)__glDispatchGetABIVersion),
              fix[0] != '\0' ? fix : "LD_LIBRARY_PATH naming the directory of all of glmux's "
              "libraries");
    free(real);
}

static bool client_init(const struct glmux_dispatch_client *client)
{
    int abi = __glDispatchGetABIVersion();
    const struct glmux_dispatch_winsys *w;

    if (abi != GLDISPATCH_ABI_VERSION) {
        glmux_log(GLMUX_LOG_ERROR, "%s needs libGLdispatch private ABI %d but the loaded "
                  "libGLdispatch.so.0 has %d (a mix of glmux and another GLdispatch); %s stays "
                  "unusable. Install matching glmux libraries.", client->name,
                  GLDISPATCH_ABI_VERSION, abi, client->name);
        return false;
    }
    __glDispatchInit();
    w = (const struct glmux_dispatch_winsys *)(uintptr_t)__glDispatchGetProcAddress(
        GLMUX_DISPATCH_WINSYS_NAME);
    if (w != NULL && w->magic == GLMUX_DISPATCH_WINSYS_MAGIC && w->register_client(client)) {
        dispatch_winsys = w;
        /* Messages about the environment: once between glmux's libraries (util/log.h). */
        glmux_log_set_claim(w->claim_message);
        return true;
    }
    warn_mixed(client);
    fallback_client = client;
    if (pthread_atfork(client->fork_prepare, client->fork_parent, fallback_after_fork) != 0)
        glmux_log(GLMUX_LOG_WARN, "%s cannot register a fork handler; a forked child may "
                  "misbehave", client->name);
    return true;
}

static void client_fini(const struct glmux_dispatch_client *client)
{
    int n = 0;

    if (dispatch_winsys != NULL)
        n = dispatch_winsys->unregister_client(client);
    dispatch_winsys = NULL;
    if (n > 0)
        glmux_log(GLMUX_LOG_WARN, "%s unloaded while %d other thread(s) had its contexts "
                  "current; their GL calls reach unloaded vendors until they make another "
                  "context current", client->name, n);
}

bool glmux_winsys_usable(void)
{
    return usable;
}

const struct glmux_dispatch_winsys *glmux_winsys_dispatch(void)
{
    return dispatch_winsys;
}

void glmux_winsys_load(const struct glmux_winsys_library *lib)
{
    library = lib;
    usable = client_init(&library->client);
}

void glmux_winsys_unload(void)
{
    /*
     * At process exit nothing is torn down (util/exiting.h): other threads may still be
     * calling into the library and its vendors, or be stopped in Xlib's I/O error path holding
     * a display's lock that a close hook's removal would wait for forever.
     */
    if (!usable || glmux_process_exiting())
        return;
    /* Vendors are not called from here, except by the dlclose in teardown. */
    library->drop_current();
    client_fini(&library->client);
    library->teardown();
    usable = false;
    __glDispatchFini();
}

__GLdispatchThreadState *glmux_winsys_record_new(size_t size)
{
    __GLdispatchThreadState *state;

    /* A context made current: at exit, other threads may be in its vendor (util/exiting.h). */
    glmux_exit_watch();
    state = library != NULL ? calloc(1, size) : NULL;
    if (state == NULL)
        return NULL;
    state->tag = library->client.tag;
    state->threadDestroyedCallback = library->client.record_destroyed;
    return state;
}

__GLdispatchThreadState *glmux_winsys_record_current(int tag)
{
    __GLdispatchThreadState *s = __glDispatchGetCurrentThreadState();

    return s != NULL && s->tag == tag ? s : NULL;
}

bool glmux_winsys_patch_setup(__GLdispatchPatchCallbacks *cb,
                              GLboolean (*is_supported)(int, int),
                              GLboolean (*initiate)(int, int, DispatchPatchLookupStubOffset),
                              void (*release)(void), void (*thread_attach)(void))
{
    if (is_supported == NULL || initiate == NULL)
        return false;
    cb->isPatchSupported = is_supported;
    cb->initiatePatch = initiate;
    cb->releasePatch = release;
    cb->threadAttach = thread_attach;
    return true;
}
