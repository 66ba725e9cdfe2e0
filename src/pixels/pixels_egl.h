/* SPDX-License-Identifier: MIT */
/*
 * glmux: the pixels vendor's EGL vendor (pixels_egl.c): the EGL and GL functions it renders
 * with, from one of glmux's libEGL's vendors or a vendor library it loads itself.
 */
#ifndef GLMUX_PIXELS_EGL_H
#define GLMUX_PIXELS_EGL_H

#include "pixels/pixels.h"

#define GLMUX_PIXELS_EGL_FUNCTIONS(X)                                                       \
    X(EGLBoolean, Initialize, (EGLDisplay, EGLint *, EGLint *))                             \
    X(EGLBoolean, Terminate, (EGLDisplay))                                                  \
    X(EGLBoolean, ChooseConfig, (EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *)) \
    X(EGLBoolean, GetConfigAttrib, (EGLDisplay, EGLConfig, EGLint, EGLint *))               \
    X(EGLBoolean, BindAPI, (EGLenum))                                                       \
    X(EGLContext, CreateContext, (EGLDisplay, EGLConfig, EGLContext, const EGLint *))       \
    X(EGLBoolean, DestroyContext, (EGLDisplay, EGLContext))                                 \
    X(EGLBoolean, MakeCurrent, (EGLDisplay, EGLSurface, EGLSurface, EGLContext))            \
    X(EGLSurface, CreatePbufferSurface, (EGLDisplay, EGLConfig, const EGLint *))            \
    X(EGLBoolean, DestroySurface, (EGLDisplay, EGLSurface))                                 \
    X(const char *, QueryString, (EGLDisplay, EGLint))                                      \
    X(EGLint, GetError, (void))                                                             \
    X(EGLBoolean, ReleaseThread, (void))

struct glmux_pixels_egl {
#define GLMUX_PIXELS_EGL_MEMBER(ret, name, params) ret(*name) params;
    GLMUX_PIXELS_EGL_FUNCTIONS(GLMUX_PIXELS_EGL_MEMBER)
#undef GLMUX_PIXELS_EGL_MEMBER
    void *(*get_proc)(const char *name);   /* the vendor's real GL/EGL functions */
    EGLDisplay display;                    /* surfaceless, initialised */
    int major, minor;
    char vendor_name[64];                  /* the EGL vendor's name in the vendor directory */
    char library[256];
};

/* GL functions the vendor itself calls. */
struct glmux_pixels_gl {
    void (*ReadPixels)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
    void (*GetIntegerv)(GLenum, GLint *);
    void (*BindFramebuffer)(GLenum, GLuint);
    void (*BindBuffer)(GLenum, GLuint);
    void (*ReadBuffer)(GLenum);
    void (*PixelStorei)(GLenum, GLint);
    void (*Finish)(void);
    void (*Flush)(void);
};

/*
 * The EGL vendor, loaded and initialised once per process (a once-gate that a fork() cannot
 * break, util/once.h); NULL when there is none, with the reason logged once and copied to why
 * (when non-NULL).
 */
const struct glmux_pixels_egl *glmux_pixels_egl_get(const char **why);
const struct glmux_pixels_gl *glmux_pixels_gl_get(void);

#endif /* GLMUX_PIXELS_EGL_H */
