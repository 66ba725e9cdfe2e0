/* SPDX-License-Identifier: MIT */
/*
 * glmux: bookkeeping for libGLX's generated GLX entry stubs (glmux_glx_stubs.S or, in pure-C
 * builds that can forward arguments, glmux_glx_stubs.c; scripts/gen/gen_dispatch.py). When an
 * application asks glXGetProcAddress for a glX name that no loaded vendor knows, it gets the
 * next free stub; until a vendor that knows the name is loaded, the stub returns NULL (0).
 * A vendor loaded later fills every stub it can: with its dispatch stub for a GLX extension
 * function (the name also gets a dispatch index), or libGLdispatch's stub when the name is a
 * GL function. Builds without them (pure C where GLMUX_C_FORWARD is 0) give NULL for such names.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "glx/glx_entry.h"
#include "glx/glx_index.h"
#include "glx/glx_lock.h"
#include "glmux_constants.h"
#include "util/lifecycle.h"
#include "util/log.h"

#if GLMUX_HAVE_GLX_STUBS

#if GLMUX_HAVE_ASM_ENTRY
extern const char glmux_glx_entry_start[];
#else
extern const void *const glmux_glx_c_stubs[GLMUX_GLX_ENTRY_COUNT];
#endif

static void *unfilled_entry(void)
{
    return NULL;
}

/* Stub i jumps through target i. Zero (no relocations) until stub i is handed out, when it
 * becomes unfilled_entry; nothing can call a stub before that. */
__attribute__((visibility("hidden"))) void *glmux_glx_entry_targets[GLMUX_GLX_ENTRY_COUNT];

static const char *entry_names[GLMUX_GLX_ENTRY_COUNT];    /* glx_procaddr.c's copies */
static int entry_used;
static bool reported_full;

static __GLXextFuncPtr entry_address(int i)
{
#if GLMUX_HAVE_ASM_ENTRY
    return (__GLXextFuncPtr)(glmux_glx_entry_start + (size_t)i * GLMUX_GLX_ENTRY_SIZE);
#else
    return (__GLXextFuncPtr)(uintptr_t)glmux_glx_c_stubs[i];
#endif
}

__GLXextFuncPtr glmux_glx_entry_new(const char *name)
{
    int i = entry_used;

    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    if (i == GLMUX_GLX_ENTRY_COUNT) {
        if (!reported_full)
            glmux_log(GLMUX_LOG_WARN, "all %d generated GLX entry stubs are in use; "
                      "glXGetProcAddress(\"%s\") and later unknown names return NULL",
                      GLMUX_GLX_ENTRY_COUNT, name);
        reported_full = true;
        return NULL;
    }
    entry_names[i] = name;
    __atomic_store_n(&glmux_glx_entry_targets[i], (void *)unfilled_entry, __ATOMIC_RELEASE);
    entry_used = i + 1;
    glmux_log(GLMUX_LOG_DISPATCH, "generated GLX entry stub %d for %s", i, name);
    return entry_address(i);
}

void glmux_glx_entry_vendor_loaded(glmux_glx_vendor *vendor)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    for (int i = 0; i < entry_used; i++) {
        const GLubyte *name = (const GLubyte *)entry_names[i];
        void *target;
        bool dispatch;

        if (__atomic_load_n(&glmux_glx_entry_targets[i], __ATOMIC_ACQUIRE) !=
            (void *)unfilled_entry)
            continue;
        glmux_glx_call_out_begin();
        target = vendor->imports.getDispatchAddress(name);
        dispatch = target != NULL;
        if (!dispatch && vendor->imports.getProcAddress(name) != NULL)
            target = (void *)__glDispatchGetProcAddress(entry_names[i]);
        glmux_glx_call_out_end();
        if (dispatch)
            glmux_glx_index_add(entry_names[i]);
        if (target != NULL)
            __atomic_store_n(&glmux_glx_entry_targets[i], target, __ATOMIC_RELEASE);
    }
}

static void teardown(void)
{
    for (int i = 0; i < entry_used; i++) {
        entry_names[i] = NULL;
        glmux_glx_entry_targets[i] = NULL;
    }
    entry_used = 0;
    reported_full = false;
}

#else /* no generated stubs */

__GLXextFuncPtr glmux_glx_entry_new(const char *name)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    glmux_log(GLMUX_LOG_DISPATCH, "no generated GLX entry stubs in this build: "
              "glXGetProcAddress(\"%s\") returns NULL until a vendor that knows it is loaded",
              name);
    return NULL;
}

void glmux_glx_entry_vendor_loaded(glmux_glx_vendor *vendor)
{
    GLMUX_ASSERT_LOCKED(&glmux_glx_lock);
    (void)vendor;
}

static void teardown(void)
{
}

#endif

GLMUX_LIFECYCLE_STEP(glx_entry, GLMUX_GLX_ORDER_ENTRY, .teardown = teardown);
