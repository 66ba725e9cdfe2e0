/* SPDX-License-Identifier: MIT */
/*
 * glmux libEGL: the ordered vendor list, built and loaded once per process on the first EGL call
 * that needs vendors. The selector (src/select) finds the vendors — libglvnd's
 * __EGL_VENDOR_LIBRARY_FILENAMES / __EGL_VENDOR_LIBRARY_DIRS exactly as libglvnd reads them, else
 * the glmux vendor directory (or GLMUX_VENDOR_DIRS) and libglvnd's JSON directories, one vendor
 * per name — and puts the vendors that serve the chosen GPU first (docs/vendors.md §3, §4). The
 * list is loaded in that order, so the device list sees that order; each display then asks the
 * vendors in the order glmux_select_egl_display_order gives for it (the vendors of the display's
 * GPU first when that GPU is known). The environment is never written: a vendor reads its own
 * variables. GLMUX_DEBUG=vendor and GLMUX_DEBUG=select explain every step. A fork() while
 * another thread loads gives the child the parent's list, completed in the same order by the
 * child's first call (the gate and its progress record below).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discovery.h"
#include "state.h"
#include "util/lifecycle.h"
#include "util/lock.h"
#include "util/once.h"
#include "vendor.h"
#include "select/select.h"
#include "util/env.h"
#include "util/log.h"

static glmux_egl_vendor *vendor_list;
/* Kept for the life of the process (docs/vendors.md §7); freed when libEGL is unloaded. */
static struct glmux_select *selector;
static struct glmux_vendor_list discovered;

/*
 * The load runs once (util/once.h): under glmux_once_run, since it dlopens vendors and calls
 * their __egl_Main, and resumable: a fork() while another thread loads leaves the child the
 * vendors loaded so far, and the child's first call goes on from there, in the same order.
 * Each step's result is written under the gate's lock (the fork step takes it), so the
 * child's copy is whole: found (the selector and the vendor list, made under the lock:
 * environment and manifest files only, so a fork waits for them), planned (the order,
 * computed without the lock: it may enumerate GPUs), next (the vendors tried), loading (the
 * record of the vendor being loaded: a child frees it and loads that vendor again; its
 * library, already mapped, keeps one reference more), finished (before the last message, so
 * that a child never says it again).
 */
static struct glmux_once vendors_gate = GLMUX_ONCE_INIT;
static struct {
    bool found, planned, finished;
    size_t *order;              /* the plan: indices into discovered, count of them */
    size_t count, next;         /* order[0..next) tried */
    glmux_egl_vendor **tail;    /* where the next loaded vendor goes */
    int loaded;
    glmux_egl_vendor *loading;  /* order[next]'s record while it loads */
} load;

/* Where the vendors were looked for, for the "none loaded" warning. */
static void describe_search(const struct glmux_vendor_list *vl, char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = '\0';
    if (vl->override_variable != NULL && vl->n_dirs == 0) {
        snprintf(buf, size, "%s", vl->override_variable);
        return;
    }
    for (size_t i = 0; i < vl->n_dirs && len + 1 < size; i++) {
        int n = snprintf(buf + len, size - len, "%s%s", i ? ":" : "", vl->dirs[i]);

        if (n < 0)
            break;
        len += (size_t)n;
    }
}

/* The selector and the discovered vendors, with the gate's lock held (no vendor, no dlopen:
 * the environment and manifest files). */
static void find_vendors(void)
{
    glmux_once_lock(&vendors_gate);
    if (glmux_env_is_secure())
        glmux_log(GLMUX_LOG_VENDOR, "secure-execution process: ignoring "
                  "__EGL_VENDOR_LIBRARY_FILENAMES, __EGL_VENDOR_LIBRARY_DIRS and "
                  "GLMUX_VENDOR_DIRS");
    selector = glmux_select_new(NULL);
    if (selector != NULL && glmux_vendor_list_discover(&discovered)) {
        if (discovered.override_variable != NULL)
            glmux_log(GLMUX_LOG_VENDOR, "%s is set: loading only what it names, in its order",
                      discovered.override_variable);
        for (size_t i = 0; i < discovered.count; i++)
            if (discovered.vendors[i].egl_library == NULL)
                glmux_log(GLMUX_LOG_VENDOR, "vendor \"%s\" has no EGL library (GLX only)",
                          discovered.vendors[i].name);
        load.order = calloc(discovered.count + 1, sizeof(*load.order));
    }
    load.tail = &vendor_list;
    load.found = true;
    glmux_once_unlock(&vendors_gate);
}

/* The order the vendors with an EGL library are loaded in: the selector's
 * (glmux_select_egl_plan, the rule `glmux explain` shows). */
static void plan_vendors(void)
{
    size_t count = load.order != NULL ? glmux_select_egl_plan(selector, &discovered, load.order)
                                      : 0;

    glmux_once_lock(&vendors_gate);
    load.count = count;
    load.planned = true;
    glmux_once_unlock(&vendors_gate);
}

static void load_next(void)
{
    size_t k = load.next;
    const struct glmux_vendor *d = &discovered.vendors[load.order[k]];
    glmux_egl_vendor *v = glmux_egl_vendor_load(d->egl_library, d->manifests[0], vendor_list,
                                                &load.loading);

    glmux_once_lock(&vendors_gate);
    if (v != NULL) {
        v->select_index = load.order[k];
        *load.tail = v;
        load.tail = &v->next;
        load.loaded++;
    }
    load.loading = NULL;
    load.next = k + 1;
    glmux_once_unlock(&vendors_gate);
}

static void load_vendors(void)
{
    glmux_egl_vendor *cut;

    if (!glmux_egl_usable())
        return;
    glmux_once_lock(&vendors_gate);
    cut = load.loading;
    load.loading = NULL;
    glmux_once_unlock(&vendors_gate);
    if (cut != NULL) {
        glmux_log(GLMUX_LOG_VENDOR, "the parent process forked while it loaded %s: loading it "
                  "again in this child", cut->library != NULL ? cut->library : "a vendor");
        glmux_egl_vendor_free(cut);
    }
    if (!load.found)
        find_vendors();
    if (!load.planned)
        plan_vendors();
    while (load.next < load.count)
        load_next();
    if (load.finished)
        return;
    glmux_once_lock(&vendors_gate);
    load.finished = true;
    glmux_once_unlock(&vendors_gate);
    if (load.loaded == 0) {
        char where[512];

        describe_search(&discovered, where, sizeof(where));
        glmux_log(GLMUX_LOG_WARN | GLMUX_LOG_VENDOR, "no EGL vendor library loaded; searched %s; "
                  "set GLMUX_DEBUG=warn,vendor to see why", where[0] ? where : "nothing");
    } else {
        glmux_log(GLMUX_LOG_VENDOR, "%d EGL vendor(s) loaded", load.loaded);
    }
}

size_t glmux_egl_display_vendors(EGLenum platform, void *native, glmux_egl_vendor **out,
                                 size_t max)
{
    struct glmux_select_candidate cands[64];
    struct glmux_select_display info;
    glmux_egl_vendor *loaded[64];
    size_t n = 0, order[64];

    for (glmux_egl_vendor *v = glmux_egl_vendors(); v != NULL && n < max && n < 64; v = v->next)
        loaded[n] = out[n] = v, n++;
    if (n < 2 || selector == NULL)
        return n;
    for (size_t i = 0; i < n; i++)
        cands[i] = glmux_select_candidate_of(&discovered.vendors[loaded[i]->select_index]);
    /* The one rule (src/select/order.c); it asks the display only when that can matter. */
    glmux_select_egl_display_order(selector, platform, native, cands, n, order, &info);
    if (info.known)
        glmux_log(GLMUX_LOG_SELECT, "display %p (platform 0x%04x): GPU %s from %s; %s", native,
                  (unsigned)platform, info.tag, info.how, info.why);
    else
        glmux_log(GLMUX_LOG_SELECT, "display %p (platform 0x%04x): %s%s%s", native,
                  (unsigned)platform, info.asked ? "GPU unknown (" : "", info.why,
                  info.asked ? "); the process's vendor order" : "");
    for (size_t i = 0; i < n; i++)
        out[i] = loaded[order[i]];
    return n;
}

/* egl_shared.h: the vendors as a display of platform would ask them, for the pixels vendor. */
size_t glmux_egl_shared_vendors(EGLenum platform, struct glmux_egl_shared_vendor *out, size_t max)
{
    glmux_egl_vendor *list[64];
    size_t n = glmux_egl_display_vendors(platform, NULL, list, max < 64 ? max : 64);

    for (size_t i = 0; i < n; i++) {
        out[i].name = discovered.vendors[list[i]->select_index].name;
        out[i].library = list[i]->library;
        out[i].imports = &list[i]->imports;
    }
    return n;
}

glmux_egl_vendor *glmux_egl_vendors(void)
{
    glmux_once_run(&vendors_gate, load_vendors);
    return vendor_list;
}

glmux_egl_vendor *glmux_egl_vendors_loaded(void)
{
    return glmux_once_done(&vendors_gate) ? vendor_list : NULL;
}

/*
 * At unload: every vendor goes. A GL dispatch table still current on another thread is freed
 * by libGLdispatch when that thread lets go of it.
 */
static void vendors_teardown(void)
{
    glmux_egl_vendor *v = vendor_list;

    vendor_list = NULL;
    while (v != NULL) {
        glmux_egl_vendor *next = v->next;

        glmux_egl_vendor_free(v);
        v = next;
    }
    glmux_egl_vendor_free(load.loading);
    free(load.order);
    memset(&load, 0, sizeof(load));
    glmux_vendor_list_clear(&discovered);
    glmux_select_free(selector);
    selector = NULL;
}

/*
 * Around fork, after every other lock of libEGL: the load's gate (whose lock keeps the load's
 * progress whole in the child; a load another thread was running is resumed by the child's
 * first call, util/once.h), each loaded vendor's dyn_lock, then the selector's enumeration
 * lock. fork_locked_vendors: the vendor list whose dyn_locks PREPARE took (NULL while the
 * vendors are still being loaded: the locks of those loaded so far are then made anew in the
 * child); written with the other modules' locks held.
 */
static glmux_egl_vendor *fork_locked_vendors;

static void vendors_fork(enum glmux_fork_step step)
{
    if (step == GLMUX_FORK_PREPARE) {
        glmux_once_fork(&vendors_gate, step);
        fork_locked_vendors = glmux_egl_vendors_loaded();
    }
    if (step == GLMUX_FORK_CHILD_ANEW || (step == GLMUX_FORK_CHILD && !fork_locked_vendors)) {
        for (glmux_egl_vendor *v = vendor_list; v != NULL; v = v->next)
            glmux_fork_mutex(&v->dyn_lock, GLMUX_FORK_CHILD_ANEW);
    } else {
        for (glmux_egl_vendor *v = fork_locked_vendors; v != NULL; v = v->next)
            glmux_fork_mutex(&v->dyn_lock, step);
    }
    glmux_select_fork(step);
    if (step != GLMUX_FORK_PREPARE)
        glmux_once_fork(&vendors_gate, step);
}

GLMUX_LIFECYCLE_STEP(egl_vendors, 50, .fork = vendors_fork, .teardown = vendors_teardown);
