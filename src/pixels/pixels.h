/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels GLX vendor, libGLX_glmux-pixels.so.0 (docs/remote.md). libGLX chooses it for
 * a screen on which no installed vendor can render directly (src/select/pixels_rule.c), or a
 * user names it (__GLX_VENDOR_LIBRARY_NAME=glmux-pixels, also under libglvnd). It renders with
 * an EGL vendor on the local machine (surfaceless platform, into EGL pbuffers) and, at
 * glXSwapBuffers (glFinish/glFlush for single-buffered drawables, glXWaitGL for pixmaps), reads
 * the frame back and sends it with ShmPutImage, or PutImage in pieces that fit the request
 * size. This header holds what every file of the vendor shares: the build's Present switch,
 * the X, xcb, GLX and EGL headers and the GLX tokens it needs, and the order of its lifecycle
 * steps. Each module has its own header beside it (pixels_<module>.h, docs/glx.md lists them).
 * It uses public GLX vendor ABI, EGL, GL and X11 calls only, and src/util (logging, the
 * environment) and src/select (the EGL vendor directory, the X libraries' loader) linked
 * statically: nothing of libGLX's.
 */
#ifndef GLMUX_GLX_PIXELS_H
#define GLMUX_GLX_PIXELS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/Xlib-xcb.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>
/* Present's requests and events are declared by <xcb/present.h> (Debian: libxcb-present-dev).
 * Whether the build has it is one CMake result (src/pixels/CMakeLists.txt), passed as
 * GLMUX_PIXELS_PRESENT=0/1 and looked for again at each build while it is 0, so that a tree
 * built before the header was installed gets Present at its next build. 0 (scripts/demo.sh's
 * short package list) leaves Present out, with the behaviour of a process where
 * libxcb-present.so.0 cannot be loaded (pixels_xlibs.c). */
#ifndef GLMUX_PIXELS_PRESENT
#error "GLMUX_PIXELS_PRESENT is set by src/pixels/CMakeLists.txt (0 or 1)"
#endif
#if GLMUX_PIXELS_PRESENT
#include <xcb/present.h>
#endif
#include <GL/glx.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "glvnd/libglxabi.h"

/* GLX tokens of the extensions the vendor offers, for headers older than them. */
#ifndef GLX_SAMPLE_BUFFERS
#define GLX_SAMPLE_BUFFERS 100000
#define GLX_SAMPLES 100001
#endif
#ifndef GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB
#define GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB 0x20B2
#endif
#ifndef GLX_BIND_TO_TEXTURE_RGB_EXT
#define GLX_BIND_TO_TEXTURE_RGB_EXT 0x20D0
#define GLX_BIND_TO_TEXTURE_RGBA_EXT 0x20D1
#define GLX_BIND_TO_MIPMAP_TEXTURE_EXT 0x20D2
#define GLX_BIND_TO_TEXTURE_TARGETS_EXT 0x20D3
#define GLX_Y_INVERTED_EXT 0x20D4
#define GLX_TEXTURE_FORMAT_EXT 0x20D5
#define GLX_TEXTURE_TARGET_EXT 0x20D6
#define GLX_MIPMAP_TEXTURE_EXT 0x20D7
#define GLX_TEXTURE_FORMAT_NONE_EXT 0x20D8
#define GLX_TEXTURE_FORMAT_RGB_EXT 0x20D9
#define GLX_TEXTURE_FORMAT_RGBA_EXT 0x20DA
#define GLX_TEXTURE_1D_BIT_EXT 0x00000001
#define GLX_TEXTURE_2D_BIT_EXT 0x00000002
#define GLX_TEXTURE_RECTANGLE_BIT_EXT 0x00000004
#define GLX_TEXTURE_1D_EXT 0x20DB
#define GLX_TEXTURE_2D_EXT 0x20DC
#define GLX_TEXTURE_RECTANGLE_EXT 0x20DD
#define GLX_FRONT_LEFT_EXT 0x20DE
#endif

/* Each module with a lock declares its own fork step in its own file (util/lifecycle.h), run by
 * pixels_vendor.c's pthread_atfork handlers: before fork() its lock is taken on the forking
 * thread, released after in the parent and the child. The order, which is the order the locks
 * are taken in (each is a leaf: never held while another is taken): */
enum {
    GLMUX_PIXELS_ORDER_RECORDS = 10,  /* pixels_records.c: lock, claim_done */
    GLMUX_PIXELS_ORDER_DISPLAYS = 20, /* pixels_display.c: displays_lock */
    GLMUX_PIXELS_ORDER_CONFIGS = 30,  /* pixels_config.c: configs_lock */
    GLMUX_PIXELS_ORDER_SERVER = 40,   /* pixels_server.c: shm_lock */
    GLMUX_PIXELS_ORDER_SWAP = 50,     /* pixels_swap.c: swap_lock, own_free */
    GLMUX_PIXELS_ORDER_EGL = 60,      /* pixels_egl.c: egl_gate, the selector's enum_lock */
};

#endif /* GLMUX_GLX_PIXELS_H */
