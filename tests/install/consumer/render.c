/* SPDX-License-Identifier: MIT */
/*
 * Consumer program for the install tests: built by a Makefile (pkg-config), a CMake project
 * (FindOpenGL) and a meson project against a temporary glmux install, it renders one frame with
 * real Mesa through surfaceless EGL and desktop GL (an FBO cleared in two colours), reads the
 * pixels back, and proves that every library named on its command line was loaded from the
 * install prefix, not from the system's libglvnd.
 * Usage: glmux_consumer PREFIX SONAME...; exit 0 pass, 77 skip (no usable EGL display), 1 fail.
 */
#define _GNU_SOURCE
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#include <link.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 16

struct consumer_lookup {
    const char *soname;
    char path[PATH_MAX];
};

static int consumer_find_object(struct dl_phdr_info *info, size_t size, void *data)
{
    struct consumer_lookup *l = data;
    const char *base = strrchr(info->dlpi_name, '/');

    (void)size;
    base = base ? base + 1 : info->dlpi_name;
    if (strcmp(base, l->soname) == 0) {
        if (realpath(info->dlpi_name, l->path) == NULL)
            snprintf(l->path, sizeof(l->path), "%s", info->dlpi_name);
        return 1;
    }
    return 0;
}

/* Every soname must be loaded, from a file under prefix. */
static int consumer_check_loaded(const char *prefix, char **sonames, int n)
{
    char real_prefix[PATH_MAX];
    int ok = 1;

    if (realpath(prefix, real_prefix) == NULL) {
        fprintf(stderr, "FAIL: install prefix %s does not exist\n", prefix);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        struct consumer_lookup l = { .soname = sonames[i] };

        dl_iterate_phdr(consumer_find_object, &l);
        if (l.path[0] == '\0') {
            fprintf(stderr, "FAIL: %s is not loaded\n", sonames[i]);
            ok = 0;
        } else if (strncmp(l.path, real_prefix, strlen(real_prefix)) != 0) {
            fprintf(stderr, "FAIL: %s was loaded from %s, not from the install prefix %s\n",
                    sonames[i], l.path, real_prefix);
            ok = 0;
        } else {
            printf("loaded %s from %s\n", sonames[i], l.path);
        }
    }
    return ok;
}

static int consumer_pixel_is(const GLubyte *p, unsigned r, unsigned g, unsigned b)
{
    return abs((int)p[0] - (int)r) <= 1 && abs((int)p[1] - (int)g) <= 1 &&
           abs((int)p[2] - (int)b) <= 1 && p[3] == 255;
}

/* Clear an FBO to blue, its lower-left quadrant to orange, and check both. */
static int consumer_render(void)
{
    GLuint fbo, rb;
    GLubyte pixels[SIZE * SIZE * 4];
    const GLubyte *outside, *inside;

    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SIZE, SIZE);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "FAIL: framebuffer incomplete\n");
        return 0;
    }
    glViewport(0, 0, SIZE, SIZE);
    glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, SIZE / 2, SIZE / 2);
    glClearColor(1.0f, 0.5f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glFinish();
    memset(pixels, 0, sizeof(pixels));
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    if (glGetError() != GL_NO_ERROR) {
        fprintf(stderr, "FAIL: GL error while rendering\n");
        return 0;
    }
    inside = &pixels[(2 * SIZE + 2) * 4];
    outside = &pixels[((SIZE - 2) * SIZE + SIZE - 2) * 4];
    if (!consumer_pixel_is(inside, 255, 128, 0) && !consumer_pixel_is(inside, 255, 127, 0)) {
        fprintf(stderr, "FAIL: scissored pixel is %u,%u,%u,%u, expected 255,128,0,255\n",
                inside[0], inside[1], inside[2], inside[3]);
        return 0;
    }
    if (!consumer_pixel_is(outside, 0, 0, 255)) {
        fprintf(stderr, "FAIL: background pixel is %u,%u,%u,%u, expected 0,0,255,255\n",
                outside[0], outside[1], outside[2], outside[3]);
        return 0;
    }
    printf("pixels ok: %u,%u,%u and %u,%u,%u\n", inside[0], inside[1], inside[2], outside[0],
           outside[1], outside[2]);
    return 1;
}

int main(int argc, char **argv)
{
    static const EGLint config_attribs[] = {
        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_DONT_CARE, EGL_NONE
    };
    const char *client_ext;
    EGLDisplay dpy;
    EGLConfig config;
    EGLContext ctx;
    EGLint major, minor, n = 0;
    int ok;

    if (argc < 2) {
        fprintf(stderr, "usage: %s PREFIX SONAME...\n", argv[0]);
        return 1;
    }
    /* GLX is linked to prove the glx/GL flags work; no X server is needed for this. */
    if (glXGetProcAddressARB((const GLubyte *)"glFlush") == NULL) {
        fprintf(stderr, "FAIL: glXGetProcAddressARB(\"glFlush\") returned NULL\n");
        return 1;
    }
    client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (client_ext == NULL || strstr(client_ext, "EGL_MESA_platform_surfaceless") == NULL) {
        fprintf(stderr, "SKIP: no EGL vendor offers EGL_MESA_platform_surfaceless (client "
                "extensions: %s); is libegl-mesa0 installed?\n", client_ext ? client_ext : "none");
        return 77;
    }
    dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
        fprintf(stderr, "FAIL: surfaceless EGL display unavailable (error 0x%x)\n",
                (unsigned)eglGetError());
        return 1;
    }
    printf("EGL %d.%d, vendor %s\n", major, minor, eglQueryString(dpy, EGL_VENDOR));
    if (!eglBindAPI(EGL_OPENGL_API) || !eglChooseConfig(dpy, config_attribs, &config, 1, &n) ||
        n < 1) {
        fprintf(stderr, "FAIL: no desktop-GL EGL config (error 0x%x)\n", (unsigned)eglGetError());
        return 1;
    }
    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        fprintf(stderr, "FAIL: cannot make a surfaceless GL context current (error 0x%x)\n",
                (unsigned)eglGetError());
        return 1;
    }
    printf("GL_RENDERER %s\n", (const char *)glGetString(GL_RENDERER));
    ok = consumer_render();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    if (strcmp(argv[1], "-") != 0 && !consumer_check_loaded(argv[1], argv + 2, argc - 2))
        ok = 0;
    return ok ? 0 : 1;
}
