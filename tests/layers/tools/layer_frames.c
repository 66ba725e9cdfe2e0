/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: a program that draws exactly N frames and exits normally, so that what glmux's
 * layers report can be compared with what it drew (run_layer_programs.sh). Built twice: with
 * LAYER_FRAMES_GLX (libGLX + libOpenGL: a window, glClear and glXSwapBuffers each frame) and
 * without (libEGL + libGLESv2: a GLES 2 context on a pbuffer of the default display, glClear and
 * eglSwapBuffers each frame). It proves the loaded path: glmux's libraries from the build tree,
 * and each library named in LAYER_FRAMES_EXPECT (comma-separated file names) loaded in the
 * process. Usage: layer_frames N; DISPLAY from the Xvfb fixture (GLMUX_TEST_XVFB_DIR).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"

#ifdef LAYER_FRAMES_GLX
#include <GL/gl.h>
#include <GL/glx.h>
#else
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#endif

static void use_display(void)
{
    char display[64];

    if (!glmux_test_xvfb_display("one", display, sizeof(display)))
        SKIP("no Xvfb fixture (GLMUX_TEST_XVFB_DIR)");
    setenv("DISPLAY", display, 1);
}

static void check_loaded(void)
{
    glmux_test_require_ours("libGLdispatch.so.0");
#ifdef LAYER_FRAMES_GLX
    glmux_test_require_ours("libGLX.so.0");
    glmux_test_require_ours("libOpenGL.so.0");
#else
    glmux_test_require_ours("libEGL.so.1");
    glmux_test_require_ours("libGLESv2.so.2");
#endif
    const char *expect = getenv("LAYER_FRAMES_EXPECT");
    char *list = strdup(expect ? expect : ""), *save = NULL;
    for (char *lib = strtok_r(list, ",", &save); lib; lib = strtok_r(NULL, ",", &save)) {
        const char *path = glmux_test_loaded_path(lib);
        CHECK_MSG(path != NULL, "the layer library %s was not loaded", lib);
        printf("layer loaded: %s\n", path);
    }
    free(list);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2);
    int frames = atoi(argv[1]);
    CHECK(frames > 0);
    use_display();
#ifdef LAYER_FRAMES_GLX
    Display *dpy = XOpenDisplay(NULL);
    CHECK(dpy);
    int attrs[] = { GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 1, None };
    XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), attrs);
    CHECK_MSG(vi, "no double-buffered RGBA visual");
    XSetWindowAttributes swa = { 0 };
    Window root = RootWindow(dpy, vi->screen);
    swa.colormap = XCreateColormap(dpy, root, vi->visual, AllocNone);
    Window win = XCreateWindow(dpy, root, 0, 0, 64, 64, 0, vi->depth, InputOutput, vi->visual,
                               CWColormap, &swa);
    XMapWindow(dpy, win);
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    CHECK(ctx);
    CHECK(glXMakeCurrent(dpy, win, ctx));
    for (int i = 0; i < frames; i++) {
        glClearColor((float)(i % 2), 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }
    glFinish();
    CHECK(glGetError() == GL_NO_ERROR);
    check_loaded();
    glmux_test_keep_drivers();      /* LeakSanitizer stays on: glmux_test.h says why */
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, swa.colormap);
    XFree(vi);
    XCloseDisplay(dpy);
#else
    EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    CHECK(dpy != EGL_NO_DISPLAY);
    CHECK(eglInitialize(dpy, NULL, NULL));
    const EGLint cattrs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                              EGL_OPENGL_ES2_BIT, EGL_NONE };
    EGLConfig config;
    EGLint n = 0;
    CHECK(eglChooseConfig(dpy, cattrs, &config, 1, &n) && n == 1);
    const EGLint sattrs[] = { EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE };
    EGLSurface surf = eglCreatePbufferSurface(dpy, config, sattrs);
    CHECK(surf != EGL_NO_SURFACE);
    CHECK(eglBindAPI(EGL_OPENGL_ES_API));
    const EGLint xattrs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, xattrs);
    CHECK(ctx != EGL_NO_CONTEXT);
    CHECK(eglMakeCurrent(dpy, surf, surf, ctx));
    for (int i = 0; i < frames; i++) {
        glClearColor((float)(i % 2), 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        CHECK(eglSwapBuffers(dpy, surf));
    }
    glFinish();
    CHECK(glGetError() == GL_NO_ERROR);
    check_loaded();
    glmux_test_keep_drivers();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surf);
    eglTerminate(dpy);
#endif
    printf("frames %d\n", frames);
    return 0;
}
