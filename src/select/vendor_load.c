/* SPDX-License-Identifier: MIT */
/*
 * glmux: the one vendor loader (vendor_load.h) that libEGL, libGLX and the pixels vendor share.
 * One dlopen mode, one order of steps (name check, open, the caller's "already mine" check,
 * entry look-up, entry call) and one failure policy: whatever did not become a vendor is closed
 * again, as libglvnd closes it. Nothing here holds a lock or writes the log; the caller does
 * both, so that each library keeps its own lock rule and its own message level.
 */
#define _GNU_SOURCE
#include "select/vendor_load.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/*
 * libglvnd's mode for vendor libraries. RTLD_LOCAL keeps a vendor's symbols out of the global
 * scope (two vendors may define the same names); RTLD_LAZY binds a vendor's functions when
 * first called, so loading one costs no more than its relocations.
 */
#define VENDOR_DLOPEN_MODE (RTLD_LAZY | RTLD_LOCAL)

static void say(char *why, size_t why_size, const char *fmt, const char *a, const char *b,
                const char *c)
{
    if (why_size > 0)
        snprintf(why, why_size, fmt, a, b, c);
}

enum glmux_vendor_load_result glmux_vendor_load(const struct glmux_vendor_load *req,
                                                void **handle, char *why, size_t why_size)
{
    const char *file = req->file;
    void *h, *sym;
    const char *err;

    *handle = NULL;
    if (why_size > 0)
        why[0] = '\0';
    /*
     * An absolute path (a manifest's, resolved against its directory) or a file name the
     * dynamic linker searches (which ignores LD_LIBRARY_PATH in a secure-execution process);
     * never a path relative to the working directory.
     */
    if (file == NULL || file[0] == '\0' || (file[0] != '/' && strchr(file, '/') != NULL)) {
        say(why, why_size, "%s cannot be loaded: a vendor library is named by an absolute path "
            "or by a file name without '/'%s%s", file ? file : "(no name)", "", "");
        return GLMUX_VENDOR_NOT_FOUND;
    }
    if (req->flags & GLMUX_VENDOR_LOAD_NEW_ONLY) {
        h = dlopen(file, VENDOR_DLOPEN_MODE | RTLD_NOLOAD);
        if (h != NULL) {
            dlclose(h);
            say(why, why_size, "%s is loaded already: its %s ran for whoever loaded it%s",
                file, req->entry, "");
            return GLMUX_VENDOR_IN_USE;
        }
    }
    h = dlopen(file, VENDOR_DLOPEN_MODE);
    if (h == NULL) {
        err = dlerror();
        say(why, why_size, "%s cannot be loaded (%s)%s", file, err ? err : "dlopen failed", "");
        return GLMUX_VENDOR_NOT_FOUND;
    }
    /* The same library reached under another name: the caller's vendor already; its entry
     * must not run twice. */
    if (req->known != NULL && req->known(h, req->arg)) {
        dlclose(h);
        say(why, why_size, "%s is a vendor library already loaded%s%s", file, "", "");
        return GLMUX_VENDOR_KNOWN;
    }
    dlerror();
    sym = dlsym(h, req->entry);
    if (sym == NULL) {
        dlclose(h);
        say(why, why_size, "%s has no %s: it is not %s vendor library", file, req->entry,
            strcmp(req->abi, "EGL") == 0 ? "an EGL" : "a GLX");
        return GLMUX_VENDOR_NO_ENTRY;
    }
    if (req->call == NULL) {
        dlclose(h);     /* a probe: a vendor library, whose entry is not run */
        return GLMUX_VENDOR_LOADED;
    }
    if (!req->call((void (*)(void))sym, req->abi_version, req->arg)) {
        char version[32];

        /* libglvnd closes such a library too, so a vendor must undo what it registered
         * before it refuses (docs/vendors.md). */
        dlclose(h);
        snprintf(version, sizeof(version), "%u.%u", (unsigned)(req->abi_version >> 16),
                 (unsigned)(req->abi_version & 0xffff));
        if (why_size > 0)
            snprintf(why, why_size, "%s: its %s refused %s vendor ABI %s", file, req->entry,
                     req->abi, version);
        return GLMUX_VENDOR_REFUSED;
    }
    *handle = h;
    return GLMUX_VENDOR_LOADED;
}

void glmux_vendor_unload(void *handle)
{
    if (handle != NULL)
        dlclose(handle);
}
