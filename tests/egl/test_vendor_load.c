/* SPDX-License-Identifier: MIT */
/*
 * The one vendor loader (src/select/vendor_load.c) and its failure policy, with the fake EGL
 * vendors: a relative path is refused without a dlopen; a library without the entry point and
 * one whose entry refuses are closed again (RTLD_NOLOAD no longer finds them); a library the
 * caller already has is recognised before its entry runs a second time; a library already in
 * the process is refused under GLMUX_VENDOR_LOAD_NEW_ONLY; glmux_vendor_unload closes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include "glmux_test.h"
#include "select/vendor_load.h"

#ifndef FAKE_VENDOR_DIR
#error "FAKE_VENDOR_DIR is set by tests/egl/CMakeLists.txt"
#endif

struct answer {
    bool accept;        /* what the "entry" answers */
    int calls;          /* how often it was called */
    uint32_t version;   /* the version it was called with */
    void *mine;         /* the caller's vendor library, for known() */
};

static bool call(void (*entry)(void), uint32_t version, void *arg)
{
    struct answer *a = arg;

    CHECK(entry != NULL);
    a->calls++;
    a->version = version;
    return a->accept;
}

static bool known(void *handle, void *arg)
{
    struct answer *a = arg;

    return a->mine != NULL && handle == a->mine;
}

static bool is_loaded(const char *path)
{
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);

    if (h == NULL)
        return false;
    dlclose(h);
    return true;
}

static enum glmux_vendor_load_result load(const char *file, unsigned flags, struct answer *a,
                                          void **handle, char *why, size_t size)
{
    struct glmux_vendor_load req = {
        .file = file, .abi = "EGL", .entry = "__egl_Main", .abi_version = (0u << 16) | 2u,
        .flags = flags, .known = known, .call = call, .arg = a,
    };

    return glmux_vendor_load(&req, handle, why, size);
}

int main(void)
{
    const char *good = FAKE_VENDOR_DIR "/libEGL_fake0.so.0";
    const char *nomain = FAKE_VENDOR_DIR "/libEGL_fakenomain.so.0";
    struct answer a = { 0 };
    void *h, *h2;
    char why[512];

    /* A path relative to the working directory: refused, nothing run. */
    CHECK(load("vendors/libEGL_fake0.so.0", 0, &a, &h, why, sizeof(why)) ==
          GLMUX_VENDOR_NOT_FOUND);
    CHECK(h == NULL && a.calls == 0);
    CHECK_MSG(strstr(why, "absolute path") != NULL, "%s", why);

    /* A missing library. */
    CHECK(load(FAKE_VENDOR_DIR "/libEGL_missing.so.0", 0, &a, &h, why, sizeof(why)) ==
          GLMUX_VENDOR_NOT_FOUND);
    CHECK_MSG(strstr(why, "cannot be loaded") != NULL, "%s", why);

    /* No entry point: not a vendor, closed again. */
    CHECK(!is_loaded(nomain));
    CHECK(load(nomain, 0, &a, &h, why, sizeof(why)) == GLMUX_VENDOR_NO_ENTRY);
    CHECK(h == NULL && a.calls == 0);
    CHECK_MSG(strstr(why, "has no __egl_Main") != NULL, "%s", why);
    CHECK_MSG(!is_loaded(nomain), "a library without the entry point stays loaded");

    /* The entry refuses: called once with the ABI version, then the library is closed. */
    CHECK(!is_loaded(good));
    a.accept = false;
    CHECK(load(good, 0, &a, &h, why, sizeof(why)) == GLMUX_VENDOR_REFUSED);
    CHECK(h == NULL && a.calls == 1 && a.version == ((0u << 16) | 2u));
    CHECK_MSG(strstr(why, "refused EGL vendor ABI 0.2") != NULL, "%s", why);
    CHECK_MSG(!is_loaded(good), "a library whose entry refused stays loaded");

    /* Accepted: the handle is the caller's until glmux_vendor_unload. */
    a.accept = true;
    a.calls = 0;
    CHECK(load(good, 0, &a, &h, why, sizeof(why)) == GLMUX_VENDOR_LOADED);
    CHECK(h != NULL && a.calls == 1 && is_loaded(good));

    /* The same library again: recognised before its entry runs; the reference is dropped. */
    a.mine = h;
    CHECK(load(good, 0, &a, &h2, why, sizeof(why)) == GLMUX_VENDOR_KNOWN);
    CHECK(h2 == NULL && a.calls == 1);

    /* Already in the process: refused under GLMUX_VENDOR_LOAD_NEW_ONLY, nothing run. */
    a.mine = NULL;
    CHECK(load(good, GLMUX_VENDOR_LOAD_NEW_ONLY, &a, &h2, why, sizeof(why)) ==
          GLMUX_VENDOR_IN_USE);
    CHECK(h2 == NULL && a.calls == 1);

    glmux_vendor_unload(h);
    glmux_vendor_unload(NULL);
    CHECK_MSG(!is_loaded(good), "glmux_vendor_unload left the library loaded");

    /* Loadable again after it was closed: the policy leaves no half-loaded state. */
    CHECK(load(good, GLMUX_VENDOR_LOAD_NEW_ONLY, &a, &h, why, sizeof(why)) ==
          GLMUX_VENDOR_LOADED);
    CHECK(a.calls == 2);
    glmux_vendor_unload(h);
    puts("ok: vendor loader policy");
    return 0;
}
