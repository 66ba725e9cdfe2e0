/* SPDX-License-Identifier: MIT */
/*
 * glmux: what the pixels GLX vendor's contexts can be asked for, in EGL's terms: the GLX
 * extensions it offers (those the EGL vendor can back, looked up once in its extension string)
 * and glXCreateContextAttribsARB's attributes turned into eglCreateContext's. An extension
 * whose EGL counterpart is missing is not offered, and its attributes are refused.
 *   GLX_ARB_create_context(_profile)   EGL_CONTEXT_MAJOR/MINOR_VERSION, profile mask, flags
 *   GLX_ARB_create_context_no_error    EGL_KHR_create_context_no_error
 *   GLX_ARB_context_flush_control      EGL_KHR_context_flush_control
 *   GLX_EXT_create_context_es(2)_profile  eglBindAPI(EGL_OPENGL_ES_API) with the version asked
 *   GLX_EXT_no_config_context          EGL_KHR_no_config_context (EGL_NO_CONFIG_KHR)
 * What the vendor cannot offer, and why, is in docs/compatibility.md ("The pixels vendor").
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "pixels/pixels_attribs.h"
#include "pixels/pixels_config.h"
#include "pixels/pixels_egl.h"
#include "util/log.h"

#ifndef GLX_CONTEXT_MAJOR_VERSION_ARB
#define GLX_CONTEXT_MAJOR_VERSION_ARB 0x2091
#define GLX_CONTEXT_MINOR_VERSION_ARB 0x2092
#define GLX_CONTEXT_FLAGS_ARB 0x2094
#define GLX_CONTEXT_DEBUG_BIT_ARB 0x0001
#define GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB 0x0002
#endif
#ifndef GLX_CONTEXT_PROFILE_MASK_ARB
#define GLX_CONTEXT_PROFILE_MASK_ARB 0x9126
#define GLX_CONTEXT_CORE_PROFILE_BIT_ARB 0x0001
#define GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB 0x0002
#endif
#ifndef GLX_CONTEXT_ES_PROFILE_BIT_EXT
#define GLX_CONTEXT_ES_PROFILE_BIT_EXT 0x0004
#endif
#ifndef GLX_CONTEXT_OPENGL_NO_ERROR_ARB
#define GLX_CONTEXT_OPENGL_NO_ERROR_ARB 0x31B3
#endif
#ifndef GLX_CONTEXT_RELEASE_BEHAVIOR_ARB
#define GLX_CONTEXT_RELEASE_BEHAVIOR_ARB 0x2097
#define GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB 0
#define GLX_CONTEXT_RELEASE_BEHAVIOR_FLUSH_ARB 0x2098
#endif
#ifndef EGL_CONTEXT_OPENGL_DEBUG
#define EGL_CONTEXT_OPENGL_DEBUG 0x31B0
#define EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE 0x31B1
#endif
#ifndef EGL_CONTEXT_OPENGL_NO_ERROR_KHR
#define EGL_CONTEXT_OPENGL_NO_ERROR_KHR 0x31B3
#endif
#ifndef EGL_CONTEXT_RELEASE_BEHAVIOR_KHR
#define EGL_CONTEXT_RELEASE_BEHAVIOR_KHR 0x2097
#define EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR 0
#define EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR 0x2098
#endif

/* Offered whatever the EGL vendor is. */
#define BASE_EXTENSIONS                                                                    \
    "GLX_ARB_create_context GLX_ARB_create_context_profile GLX_ARB_framebuffer_sRGB "     \
    "GLX_ARB_get_proc_address GLX_ARB_multisample GLX_EXT_framebuffer_sRGB "               \
    "GLX_EXT_swap_control GLX_EXT_texture_from_pixmap GLX_EXT_visual_info "                 \
    "GLX_EXT_visual_rating GLX_MESA_swap_control GLX_SGIS_multisample GLX_SGI_swap_control"

/* The GLX extensions that need one of the EGL vendor's. */
static const struct {
    const char *glx, *egl;
    unsigned bit;
} backed[] = {
    { "GLX_ARB_context_flush_control", "EGL_KHR_context_flush_control",
      GLMUX_PIXELS_HAS_FLUSH_CONTROL },
    { "GLX_ARB_create_context_no_error", "EGL_KHR_create_context_no_error",
      GLMUX_PIXELS_HAS_NO_ERROR },
    /* ES contexts need EGL 1.5's (or EGL_KHR_create_context's) major and minor versions. */
    { "GLX_EXT_create_context_es2_profile", "EGL_KHR_create_context", GLMUX_PIXELS_HAS_ES },
    { "GLX_EXT_create_context_es_profile", "EGL_KHR_create_context", GLMUX_PIXELS_HAS_ES },
    { "GLX_EXT_no_config_context", "EGL_KHR_no_config_context", GLMUX_PIXELS_HAS_NO_CONFIG },
};

static pthread_once_t ext_once = PTHREAD_ONCE_INIT;
static char extensions[sizeof(BASE_EXTENSIONS) + 256];
static unsigned has;

static void extensions_init(void)
{
    const struct glmux_pixels_egl *egl = glmux_pixels_egl_get(NULL);
    const char *list = egl != NULL ? egl->QueryString(egl->display, EGL_EXTENSIONS) : NULL;
    size_t n;

    n = (size_t)snprintf(extensions, sizeof(extensions), "%s", BASE_EXTENSIONS);
    for (size_t i = 0; i < sizeof(backed) / sizeof(backed[0]); i++) {
        bool ok = list != NULL && (glmux_pixels_has_word(list, backed[i].egl) ||
                                   (backed[i].bit == GLMUX_PIXELS_HAS_ES &&
                                    (egl->major > 1 || (egl->major == 1 && egl->minor >= 5))));

        if (!ok)
            continue;
        has |= backed[i].bit;
        n += (size_t)snprintf(extensions + n, sizeof(extensions) - n, " %s", backed[i].glx);
    }
}

const char *glmux_pixels_extensions(void)
{
    pthread_once(&ext_once, extensions_init);
    return extensions;
}

unsigned glmux_pixels_extensions_backed(void)
{
    pthread_once(&ext_once, extensions_init);
    return has;
}

/* An attribute the vendor does not take: logged, and the context refused. */
static bool refuse(const char *what, int attrib, int value)
{
    glmux_log(GLMUX_LOG_INFO, "pixels GLX vendor: glXCreateContextAttribsARB: %s (attribute "
              "0x%x, value 0x%x); no context made", what, attrib, value);
    return false;
}

bool glmux_pixels_context_request(const int *attribs, struct glmux_pixels_context_request *out)
{
    unsigned backs = glmux_pixels_extensions_backed();
    int major = 1, minor = 0, flags = 0, profile = GLX_CONTEXT_CORE_PROFILE_BIT_ARB;
    int no_error = 0, release = -1, n = 0;
    bool es;

    out->api = EGL_OPENGL_API;
    out->release_none = false;
    out->screen = -1;
    for (const int *a = attribs; a != NULL && a[0] != None; a += 2) {
        switch (a[0]) {
        case GLX_CONTEXT_MAJOR_VERSION_ARB: major = a[1]; break;
        case GLX_CONTEXT_MINOR_VERSION_ARB: minor = a[1]; break;
        case GLX_CONTEXT_FLAGS_ARB: flags = a[1]; break;
        case GLX_CONTEXT_PROFILE_MASK_ARB: profile = a[1]; break;
        case GLX_RENDER_TYPE:
            if (a[1] != GLX_RGBA_TYPE)
                return refuse("only RGBA contexts", a[0], a[1]);
            break;
        case GLX_SCREEN:
            if (!(backs & GLMUX_PIXELS_HAS_NO_CONFIG))
                return refuse("GLX_SCREEN needs GLX_EXT_no_config_context", a[0], a[1]);
            out->screen = a[1];
            break;
        case GLX_CONTEXT_OPENGL_NO_ERROR_ARB:
            if (!(backs & GLMUX_PIXELS_HAS_NO_ERROR))
                return refuse("the EGL vendor has no EGL_KHR_create_context_no_error", a[0],
                              a[1]);
            no_error = a[1];
            break;
        case GLX_CONTEXT_RELEASE_BEHAVIOR_ARB:
            if (!(backs & GLMUX_PIXELS_HAS_FLUSH_CONTROL))
                return refuse("the EGL vendor has no EGL_KHR_context_flush_control", a[0], a[1]);
            if (a[1] != GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB &&
                a[1] != GLX_CONTEXT_RELEASE_BEHAVIOR_FLUSH_ARB)
                return refuse("no such release behaviour", a[0], a[1]);
            release = a[1];
            break;
        default:
            return refuse("not supported", a[0], a[1]);
        }
    }
    es = profile == GLX_CONTEXT_ES_PROFILE_BIT_EXT;
    if (es && !(backs & GLMUX_PIXELS_HAS_ES))
        return refuse("the EGL vendor cannot make ES contexts of a version", profile, major);
    if (!es && profile != GLX_CONTEXT_CORE_PROFILE_BIT_ARB &&
        profile != GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB)
        return refuse("no such profile", GLX_CONTEXT_PROFILE_MASK_ARB, profile);
    out->attribs[n++] = EGL_CONTEXT_MAJOR_VERSION;
    out->attribs[n++] = major;
    out->attribs[n++] = EGL_CONTEXT_MINOR_VERSION;
    out->attribs[n++] = minor;
    if (es) {
        out->api = EGL_OPENGL_ES_API;
    } else if (major > 3 || (major == 3 && minor >= 2)) {
        out->attribs[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        out->attribs[n++] = profile == GLX_CONTEXT_CORE_PROFILE_BIT_ARB
                                ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                                : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
    }
    if (flags & GLX_CONTEXT_DEBUG_BIT_ARB) {
        out->attribs[n++] = EGL_CONTEXT_OPENGL_DEBUG;
        out->attribs[n++] = EGL_TRUE;
    }
    if (!es && (flags & GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB)) {
        out->attribs[n++] = EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE;
        out->attribs[n++] = EGL_TRUE;
    }
    if (no_error) {
        out->attribs[n++] = EGL_CONTEXT_OPENGL_NO_ERROR_KHR;
        out->attribs[n++] = EGL_TRUE;
    }
    if (release >= 0) {
        out->attribs[n++] = EGL_CONTEXT_RELEASE_BEHAVIOR_KHR;
        out->attribs[n++] = release == GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB
                                ? EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR
                                : EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR;
        out->release_none = release == GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB;
    }
    out->attribs[n] = EGL_NONE;
    return true;
}
