/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: a Wayland compositor for the PRIME table's Wayland rows (run_table.py). It serves
 * the EGL tests' fake compositor (tests/egl/fake_compositor.c: linux-dmabuf version 4, whose
 * default feedback names one main device) in XDG_RUNTIME_DIR as "glmux-prime-wayland", with the
 * device number given, prints "ready SOCKET" and stops at the end of its standard input.
 *   prime_compositor MAJOR MINOR
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/sysmacros.h>

#include "fake_compositor.h"

int main(int argc, char **argv)
{
    static const char socket_name[] = "glmux-prime-wayland";
    struct fake_compositor_config cfg = { .mode = FAKE_COMPOSITOR_DMABUF, .socket = socket_name };

    if (argc != 3) {
        fprintf(stderr, "usage: prime_compositor MAJOR MINOR\n");
        return 2;
    }
    cfg.main_device = makedev((unsigned)atoi(argv[1]), (unsigned)atoi(argv[2]));
    return fake_compositor_serve_until_eof(&cfg);
}
