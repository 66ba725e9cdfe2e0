/* SPDX-License-Identifier: MIT */
/*
 * glmux: the one vendor loader, used by libEGL (EGL vendors, __egl_Main), libGLX (GLX vendors,
 * __glx_Main) and the pixels vendor (the EGL vendors it loads itself when libEGL.so.1 is not
 * glmux's). It opens the library (RTLD_LAZY | RTLD_LOCAL, as libglvnd), lets the caller
 * recognise a library it already uses, looks the entry point up, has the caller call it with
 * the ABI version, and applies one failure policy: a library that is no vendor, or whose entry
 * refused, is closed again (dlclose), as libglvnd does; so is one the caller rejects after its
 * entry accepted (glmux_vendor_unload). The loader takes no lock and logs nothing: it returns
 * what happened and why, and the caller reports it once at the level it chooses. The policy and
 * its reasons: docs/vendors.md, "How a vendor library is loaded".
 */
#ifndef GLMUX_SELECT_VENDOR_LOAD_H
#define GLMUX_SELECT_VENDOR_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* glmux_vendor_load's flags. */
enum glmux_vendor_load_flag {
    /*
     * Refuse a library that is already in the process (RTLD_NOLOAD finds it): its entry ran
     * for whoever loaded it, and a vendor keeps the last services it was given.
     */
    GLMUX_VENDOR_LOAD_NEW_ONLY = 1u << 0,
};

/* What glmux_vendor_load did. */
enum glmux_vendor_load_result {
    GLMUX_VENDOR_LOADED,    /* the entry accepted; *handle is the library's */
    GLMUX_VENDOR_KNOWN,     /* known() recognised the library: nothing ran, the open undone */
    GLMUX_VENDOR_IN_USE,    /* GLMUX_VENDOR_LOAD_NEW_ONLY and the library is loaded already */
    GLMUX_VENDOR_NOT_FOUND, /* a bad name, or dlopen failed (missing, wrong class, ...) */
    GLMUX_VENDOR_NO_ENTRY,  /* loaded, but it has no entry point: not a vendor; closed */
    GLMUX_VENDOR_REFUSED,   /* the entry returned false (refused the ABI version): closed */
};

struct glmux_vendor_load {
    /* An absolute path, or a file name without '/' that the dynamic linker searches. */
    const char *file;
    /* The ABI's name in messages ("EGL", "GLX") and its entry point ("__egl_Main"). */
    const char *abi;
    const char *entry;
    uint32_t abi_version;
    unsigned flags;
    /* Optional: true when handle is already one of the caller's vendors (checked first). */
    bool (*known)(void *handle, void *arg);
    /*
     * Calls the entry point, cast to the ABI's type, with abi_version and the caller's
     * exports, vendor record and imports; returns what the entry returned. NULL: a probe (`glmux
     * vendors --load`): the entry is looked up, not called, the library closed again, and
     * GLMUX_VENDOR_LOADED returned with *handle NULL.
     */
    bool (*call)(void (*entry)(void), uint32_t abi_version, void *arg);
    void *arg;
};

/*
 * Loads one vendor library. On GLMUX_VENDOR_LOADED *handle is set (the caller owns the
 * reference and gives it back with glmux_vendor_unload); otherwise *handle is NULL and why
 * (when why_size > 0) holds a sentence that starts with the file's name.
 */
enum glmux_vendor_load_result glmux_vendor_load(const struct glmux_vendor_load *req,
                                                void **handle, char *why, size_t why_size);

/*
 * Gives a vendor library back: after the caller rejected a vendor whose entry accepted (a
 * required function missing, out of memory), and when the caller is unloaded. NULL is ignored.
 */
void glmux_vendor_unload(void *handle);

#endif /* GLMUX_SELECT_VENDOR_LOAD_H */
