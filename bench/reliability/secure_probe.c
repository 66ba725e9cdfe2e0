/* SPDX-License-Identifier: MIT */
/*
 * glmux reliability figures: does a privileged process honour an override? Run by
 * run_privileged.py as a setuid-root or file-capability copy, as an unprivileged user, with one
 * override variable set. It dlopens the libEGL given (glmux's or Debian's libglvnd, by absolute
 * path: the loader ignores LD_LIBRARY_PATH here), lets it discover its vendors
 * (eglGetDisplay, eglInitialize), and says whether the marker vendor library that the
 * variable points at was loaded, and whether the file GLMUX_DEBUG_FILE names was written.
 *   glmux_secure_probe LIBEGL MARKER_SONAME
 * Prints "secure=1|0 marker=loaded|absent debug_file=written|absent". Exit 0, or 2 on misuse.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>

typedef void *(*get_display_fn)(void *);
typedef unsigned (*initialize_fn)(void *, int *, int *);

static const char *marker;
static int marker_seen;

static int find_marker(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (info->dlpi_name != NULL && strstr(info->dlpi_name, marker) != NULL)
        marker_seen = 1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *debug_file = getenv("GLMUX_PROBE_DEBUG_FILE");
    get_display_fn get_display;
    initialize_fn initialize;
    struct stat st;
    void *egl, *dpy;

    if (argc != 3) {
        fprintf(stderr, "usage: glmux_secure_probe LIBEGL MARKER_SONAME\n");
        return 2;
    }
    marker = argv[2];
    egl = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (egl == NULL) {
        fprintf(stderr, "glmux_secure_probe: %s\n", dlerror());
        return 2;
    }
    get_display = (get_display_fn)dlsym(egl, "eglGetDisplay");
    initialize = (initialize_fn)dlsym(egl, "eglInitialize");
    if (get_display == NULL || initialize == NULL)
        return 2;
    dpy = get_display(NULL);
    if (dpy != NULL)
        initialize(dpy, NULL, NULL);
    dl_iterate_phdr(find_marker, NULL);
    printf("secure=%d marker=%s debug_file=%s\n", getauxval(AT_SECURE) != 0 ? 1 : 0,
           marker_seen ? "loaded" : "absent",
           debug_file != NULL && stat(debug_file, &st) == 0 ? "written" : "absent");
    return 0;
}
