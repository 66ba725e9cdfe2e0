/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layers: the interface between glmux's API libraries and a layer library, an
 * interceptor found by a manifest (docs/layers.md) that sits between the program and the
 * vendor chosen for each context, X screen and EGL display, for GL, GLES 1 and 2+, GLX and EGL
 * functions. A layer is asked, for every function name the program can reach in the APIs its
 * manifest lists, for the pointer to call in its place; it answers with its own function, or
 * with the `next` pointer it was given to decline. Installed with glmux's development files;
 * `pkg-config --cflags glmux-layer`.
 *
 * A layer exports one of two entries (both: glmux takes its own):
 *   - glmux's: glmux_layer_negotiate(), versioned by negotiation like the vendor ABI;
 *   - Android's two (source-compatible with Android 10's GLES layers):
 *     AndroidGLESLayer_Initialize() and AndroidGLESLayer_GetProcAddress().
 *
 * Rules a layer follows (docs/layers.md says why):
 *   - Calls below it go through the pointers it was given (`next`, or get_next(layer_id, name)),
 *     never through the public GL/GLX/EGL symbols nor through glXGetProcAddress or
 *     eglGetProcAddress: those re-enter the chain at its top (glmux warns at debug level).
 *   - get_proc_address may be called from any thread, several times for one name (the answers
 *     are cached by glmux), and must not call any GL, GLX or EGL function.
 *   - One `next` per name is right for every vendor: glmux's bottom of the chain (its
 *     terminator) finds the vendor of the calling thread's context, screen or display.
 */
#ifndef GLMUX_LAYER_H
#define GLMUX_LAYER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The layer interface version glmux offers: a major changes only when an old layer would
 * break; a minor adds members at the end of struct glmux_layer_negotiate. */
#define GLMUX_LAYER_ABI_MAJOR 1
#define GLMUX_LAYER_ABI_MINOR 0
#define GLMUX_LAYER_ABI_VERSION ((GLMUX_LAYER_ABI_MAJOR << 16) | GLMUX_LAYER_ABI_MINOR)
#define GLMUX_LAYER_ABI_GET_MAJOR(v) ((uint32_t)(v) >> 16)
#define GLMUX_LAYER_ABI_GET_MINOR(v) ((uint32_t)(v) & 0xffffu)

/* Any function pointer, as Android's EGL layers spell it. */
#ifndef GLMUX_HAVE_EGLFUNCPOINTER
#define GLMUX_HAVE_EGLFUNCPOINTER 1
typedef void (*EGLFuncPointer)(void);
#endif

/* The pointer below a layer for a name (NULL where nothing below has it). */
typedef void *(*PFNEGLGETNEXTLAYERPROCADDRESSPROC)(void *layer_id, const char *name);

/* ---- Android's two entry points (a layer written for Android loads unchanged) ---- */

/*
 * Called once, before any AndroidGLESLayer_GetProcAddress, with the layer's identity and the
 * function that finds what lies below it. Its return value is ignored, as on Android.
 */
void *AndroidGLESLayer_Initialize(void *layer_id, PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next);
/* Returns the layer's function for funcName, or next to decline. */
void *AndroidGLESLayer_GetProcAddress(const char *funcName, EGLFuncPointer next);

/* ---- glmux's entry ---- */

/* Which API a name asked about belongs to (glmux_layer_negotiate's get_proc_address). */
enum glmux_layer_api {
    GLMUX_LAYER_API_GL = 1u << 0,      /* gl*: GL and GLES share one dispatch table */
    GLMUX_LAYER_API_GLX = 1u << 1,     /* glX* */
    GLMUX_LAYER_API_EGL = 1u << 2,     /* egl* */
};

struct glmux_layer_negotiate {
    /* In: sizeof(struct glmux_layer_negotiate) as glmux knows it. A layer reads and writes
     * only the members that lie within it. */
    uint32_t size;
    /* In: the highest version glmux offers (GLMUX_LAYER_ABI_VERSION). Out: the version the
     * layer speaks; glmux skips a layer whose major differs from its own or whose minor is
     * higher than glmux's. */
    uint32_t abi_version;
    /* In: the layer's name from its manifest, and its identity for get_next. */
    const char *layer_name;
    void *layer_id;
    PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next;
    /* In: the GLMUX_LAYER_API_* bits the manifest lists: glmux asks only about their names. */
    uint32_t apis;
    /* Out (required): the layer's answer for a name, or next to decline; api says which API
     * the name belongs to. */
    void *(*get_proc_address)(const char *name, uint32_t api, void *next);
    /* Out (optional): called once before glmux unloads the layer (at the last API library's
     * unload or process exit); no GL call may follow. */
    void (*unload)(void);
};

/*
 * The layer's negotiation: fills the out members and returns 0, or returns non-zero to decline
 * loading (glmux says so once and goes on without it). It must not call down the chain.
 */
int glmux_layer_negotiate(struct glmux_layer_negotiate *negotiate);
typedef int (*PFN_glmux_layer_negotiate)(struct glmux_layer_negotiate *negotiate);

#ifdef __cplusplus
}
#endif

#endif /* GLMUX_LAYER_H */
