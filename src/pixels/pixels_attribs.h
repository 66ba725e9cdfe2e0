/* SPDX-License-Identifier: MIT */
/*
 * glmux: what the pixels vendor's contexts can be asked for (pixels_attribs.c): the GLX
 * extensions it offers, those its EGL vendor backs, and glXCreateContextAttribsARB's
 * attributes in eglCreateContext's terms.
 */
#ifndef GLMUX_PIXELS_ATTRIBS_H
#define GLMUX_PIXELS_ATTRIBS_H

#include "pixels/pixels.h"

/* The GLX extension string the vendor offers: a fixed list, and those the EGL vendor backs. */
const char *glmux_pixels_extensions(void);
/* Which of those the EGL vendor backs: */
enum {
    GLMUX_PIXELS_HAS_FLUSH_CONTROL = 1u << 0, /* GLX_ARB_context_flush_control */
    GLMUX_PIXELS_HAS_NO_ERROR = 1u << 1,      /* GLX_ARB_create_context_no_error */
    GLMUX_PIXELS_HAS_ES = 1u << 2,            /* GLX_EXT_create_context_es(2)_profile */
    GLMUX_PIXELS_HAS_NO_CONFIG = 1u << 3,     /* GLX_EXT_no_config_context */
};
unsigned glmux_pixels_extensions_backed(void);

/* glXCreateContextAttribsARB's attributes in eglCreateContext's terms. */
struct glmux_pixels_context_request {
    EGLint attribs[16];     /* EGL_NONE-terminated */
    EGLenum api;            /* bound with eglBindAPI around the context's EGL calls */
    bool release_none;      /* GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB */
    int screen;             /* GLX_SCREEN (GLX_EXT_no_config_context), or -1 */
};
/* False (logged) for an attribute, value or profile the vendor cannot honour. */
bool glmux_pixels_context_request(const int *attribs, struct glmux_pixels_context_request *out);

#endif /* GLMUX_PIXELS_ATTRIBS_H */
