/* SPDX-License-Identifier: MIT */
/*
 * glmux: the patch callbacks of one library's assembly stub region. Every stub-owning library
 * (libGLdispatch, libOpenGL, libGLESv1_CM, libGLESv2, libGL) compiles this file with its own
 * generated stubs (glmux_entry_start..glmux_entry_end, GLMUX_STUB_SIZE bytes a stub, aligned
 * to GLMUX_STUB_ALIGN; both from the generated glmux_constants.h) and
 * stub names (NAME_entries.c), and registers glmux_entry_patch_callbacks with libGLdispatch.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "entry/entry.h"

static unsigned char *saved_stubs;

#if defined(__SANITIZE_THREAD__)
#define GLMUX_NO_TSAN __attribute__((no_sanitize_thread))
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GLMUX_NO_TSAN __attribute__((no_sanitize("thread")))
#endif
#endif
#ifndef GLMUX_NO_TSAN
#define GLMUX_NO_TSAN
#endif

/*
 * Writes the stub region byte by byte and uninstrumented: ThreadSanitizer keeps a read-only
 * shadow for code pages, which memcpy's interceptor would write.
 */
static GLMUX_NO_TSAN void copy_to_code(const unsigned char *src, size_t n)
{
    volatile unsigned char *dst = (volatile unsigned char *)(uintptr_t)glmux_entry_start;

    for (size_t i = 0; i < n; i++)
        dst[i] = src[i];
}

static size_t region_size(void)
{
    return (size_t)(glmux_entry_end - glmux_entry_start);
}

/*
 * The index of a stub of this library by GL name, with or without the "gl" prefix, as
 * libglvnd's patch lookup accepts ("Vertex3fv" finds glVertex3fv).
 */
static int find_stub(const char *name)
{
#ifdef GLMUX_ENTRY_IN_DISPATCH
    /* libGLdispatch's stubs are in slot order, static then dynamic: its slot lookup finds
     * them (with or without the "gl" prefix too), with no second copy of the names. */
    return glmux_slot_find(name);
#else
    return glmux_entry_pool_find(glmux_entry_names_pool, glmux_entry_names_offsets,
                                 glmux_entry_count, name);
#endif
}

static GLboolean protect(int prot)
{
    return mprotect((void *)(uintptr_t)glmux_entry_start, region_size(), prot) == 0 ? GL_TRUE
                                                                                 : GL_FALSE;
}

static GLboolean entry_start_patch(void)
{
    if (saved_stubs == NULL) {
        saved_stubs = malloc(region_size());
        if (saved_stubs == NULL)
            return GL_FALSE;
        memcpy(saved_stubs, glmux_entry_start, region_size());
    }
    return protect(PROT_READ | PROT_WRITE | PROT_EXEC);
}

static void entry_finish_patch(void)
{
    protect(PROT_READ | PROT_EXEC);
    __builtin___clear_cache((char *)(uintptr_t)glmux_entry_start,
                            (char *)(uintptr_t)glmux_entry_end);
}

static GLboolean entry_restore(void)
{
    if (saved_stubs == NULL)
        return GL_TRUE;         /* never patched */
    if (!protect(PROT_READ | PROT_WRITE | PROT_EXEC))
        return GL_FALSE;
    copy_to_code(saved_stubs, region_size());
    entry_finish_patch();
    return GL_TRUE;
}

static void entry_abort_patch(void)
{
    entry_restore();
}

static GLboolean entry_get_patch_offset(const char *name, void **writePtr, const void **execPtr)
{
    int index = name ? find_stub(name) : -1;
    char *stub;

    if (index < 0)
        return GL_FALSE;
    stub = (char *)(uintptr_t)glmux_entry_start + (size_t)index * GLMUX_STUB_SIZE;
    if (stub >= glmux_entry_end)
        return GL_FALSE;
    if (writePtr != NULL)
        *writePtr = stub;
    if (execPtr != NULL)
        *execPtr = stub;
    return GL_TRUE;
}

static int entry_get_stub_type(void)
{
#if defined(__x86_64__) && defined(__ILP32__)
    return __GLDISPATCH_STUB_X32;
#else
    return GLMUX_STUB_TYPE;
#endif
}

static int entry_get_stub_size(void)
{
    return GLMUX_STUB_SIZE;
}

const __GLdispatchStubPatchCallbacks glmux_entry_patch_callbacks = {
        .startPatch = entry_start_patch,
        .finishPatch = entry_finish_patch,
        .abortPatch = entry_abort_patch,
        .restoreFuncs = entry_restore,
        .getPatchOffset = entry_get_patch_offset,
        .getStubType = entry_get_stub_type,
        .getStubSize = entry_get_stub_size,
    };
