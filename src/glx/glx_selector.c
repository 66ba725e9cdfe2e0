/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's use of the PRIME-aware GPU selector (src/select, docs/vendors.md §6–7). The
 * rule itself (which vendor for a screen, in which order) is glmux_select_glx_plan, the one
 * `glmux explain` shows; this file only holds libGLX's selector and vendor list.
 *
 * Once per process, on the first vendor lookup, a once-gate (util/once.h) builds the selector
 * (it reads the environment, nothing else) and the GLX vendor list of the vendor directory
 * (glmux_vendor_list_discover_glx: GLMUX_VENDOR_DIRS, else the default directories; manifests
 * give each vendor its GLX library and kernel drivers). Then, for each screen, after libglvnd's
 * explicit variables (__GLX_FORCE_VENDOR_LIBRARY_<n>, __GLX_VENDOR_LIBRARY_NAME, which always
 * win) and before the X server's GLX_VENDOR_NAMES_EXT list, the selector names a vendor only
 * when a variable asks for a GPU (__NV_PRIME_RENDER_OFFLOAD, DRI_PRIME, GLMUX_GPU) other than
 * the screen's own, and that GPU's vendor renders there by its own variables. The plan runs with
 * libGLX's lock released: it may ask the X server (DRI3, over the application's connection) for
 * the screen's GPU when that can change the vendor. Nothing is ever set in the environment. GPUs
 * are enumerated only when a variable asks for one, or when the pixels vendor's rule asks whether
 * a local GPU renders for a TCP display (the pixels rule): an ordinary process on a
 * local display reads a few variables and the vendor directory's manifests, never sysfs.
 * GLMUX_DEBUG=select,vendor explains every step.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glx/glx_lock.h"
#include "glx/glx_selector.h"
#include "select/pixels_rule.h"
#include "select/select.h"
#include "util/lifecycle.h"
#include "util/env.h"
#include "util/log.h"
#include "util/once.h"

/* selector_init reads the environment and manifest files only, so it runs with the gate's
 * lock held (glmux_once_run_fork_waits): a fork() waits until it is done, and a child finds the
 * parent's selector and list whole, or none, never one made twice. */
static struct glmux_once selector_gate = GLMUX_ONCE_INIT;
static struct glmux_select *selector;
static struct glmux_vendor_list vendor_list;
static bool have_list;

static void selector_init(void)
{
    selector = glmux_select_new(NULL);
    if (selector == NULL)
        glmux_log(GLMUX_LOG_WARN, "out of memory creating the GPU selector; GLX vendors come "
                  "from the X server only");
    have_list = glmux_vendor_list_discover_glx(&vendor_list);
    if (!have_list) {
        glmux_log(GLMUX_LOG_WARN, "out of memory reading the vendor directory; GLX vendors are "
                  "loaded as libGLX_<name>.so.0");
        return;
    }
    glmux_log(GLMUX_LOG_VENDOR, "GLX vendor list: %zu vendor(s), %zu directories searched%s",
              vendor_list.count, vendor_list.n_dirs,
              glmux_env_get("GLMUX_VENDOR_DIRS") != NULL ? " (from GLMUX_VENDOR_DIRS)" : "");
    for (size_t i = 0; i < vendor_list.count; i++) {
        const struct glmux_vendor *v = &vendor_list.vendors[i];

        glmux_log(GLMUX_LOG_VENDOR, "  GLX vendor \"%s\": %s%s (%s)", v->name,
                  v->glx_library ? v->glx_library : "libGLX_", v->glx_library ? "" :
                  "<name>.so.0 on the linker path",
                  v->n_manifests > 0 ? v->manifests[0] : "no manifest");
    }
}

static void ensure_init(void)
{
    glmux_once_run_fork_waits(&selector_gate, selector_init);
}

static const struct glmux_vendor *find_vendor(const char *name)
{
    return have_list ? glmux_vendor_list_find(&vendor_list, name) : NULL;
}

void glmux_glx_selector_plan(Display *dpy, int screen, bool has_glx,
                             struct glmux_glx_screen_plan *out)
{
    ensure_init();
    /* No manifest at all (libGLX_<name>.so.0 only): the built-in driver table names vendors. */
    glmux_select_glx_screen_plan(selector, dpy, screen, have_list ? &vendor_list : NULL, has_glx,
                                 ConnectionNumber(dpy), out);
}

const char *glmux_glx_selector_library(const char *name)
{
    const struct glmux_vendor *v;

    ensure_init();
    v = find_vendor(name);
    return v != NULL ? v->glx_library : NULL;
}

const struct glmux_select *glmux_glx_selector_for_explain(void)
{
    ensure_init();
    glmux_select_keep_reasons(selector);
    return selector;
}

static void teardown(void)
{
    if (have_list)
        glmux_vendor_list_clear(&vendor_list);
    have_list = false;
    glmux_select_free(selector);
    selector = NULL;
}

/* Around fork(), after libGLX's own locks: the gate's lock (a fork waits for a selector_init
 * under way), then the selector's enumeration lock. */
static void selector_fork(enum glmux_fork_step step)
{
    if (step == GLMUX_FORK_PREPARE)
        glmux_once_fork(&selector_gate, step);
    glmux_select_fork(step);
    if (step != GLMUX_FORK_PREPARE)
        glmux_once_fork(&selector_gate, step);
}

GLMUX_LIFECYCLE_STEP(glx_selector, GLMUX_GLX_ORDER_SELECTOR, .fork = selector_fork,
                     .teardown = teardown);
