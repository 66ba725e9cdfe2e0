/* SPDX-License-Identifier: MIT */
/*
 * glmux layer-chain tests through libEGL and its fake vendors (tests/egl): two threads, each
 * with a context of another vendor (fake0 and fake1, one EGL display each) current, call
 * glGetString through libOpenGL's exported stub and through eglGetProcAddress's answer; both
 * go through the same test layer, and each thread reaches its own vendor below it. The layer's
 * manifest is written into a fresh folder of the test's own (GLMUX_LAYER_PATH).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <GL/gl.h>

#include "egl_fake.h"
#include "glmux_test.h"
#include "layer_test.h"

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static int traced_get_string;

/* Called by the test layer (found in this program: ENABLE_EXPORTS); this program counts
 * glGetString calls instead of keeping layer_trace.c's trace. */
void glmux_layer_test_trace(const char *layer, const char *what)
{
    (void)layer;
    pthread_mutex_lock(&trace_lock);
    if (strcmp(what, "glGetString") == 0)
        traced_get_string++;
    pthread_mutex_unlock(&trace_lock);
}

#define CALLS 500

static void *thread_main(void *p)
{
    const char *vendor = p;
    EGLDisplay dpy = eglGetPlatformDisplay(FAKE_PLATFORM, (void *)vendor, NULL);
    const GLubyte *(*get_string)(GLenum);
    EGLConfig config;
    EGLContext ctx;
    EGLint n = 0;

    CHECK(dpy != EGL_NO_DISPLAY && eglInitialize(dpy, NULL, NULL));
    CHECK(eglChooseConfig(dpy, NULL, &config, 1, &n) && n == 1);
    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL);
    CHECK(ctx != EGL_NO_CONTEXT);
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
    *(void **)&get_string = (void *)(uintptr_t)eglGetProcAddress("glGetString");
    CHECK(get_string != NULL);
    for (int i = 0; i < CALLS; i++) {
        const char *v = (const char *)glGetString(GL_VENDOR);

        CHECK_MSG(v != NULL && strcmp(v, vendor) == 0, "thread of %s reached %s", vendor,
                  v != NULL ? v : "(null)");
        v = (const char *)get_string(GL_VENDOR);
        CHECK_MSG(v != NULL && strcmp(v, vendor) == 0, "thread of %s reached %s", vendor,
                  v != NULL ? v : "(null)");
    }
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglDestroyContext(dpy, ctx));
    CHECK(eglReleaseThread());
    return NULL;
}

int main(void)
{
    pthread_t t[2];

    glmux_layer_test_folder("glmux-chain-egl");
    glmux_layer_test_manifest("a", "a", CHAIN_LAYER_DIR "/libglmux_chain_a.so",
                              "\"gl\", \"egl\"", NULL);
    glmux_layer_test_switch_on("a");

    CHECK(pthread_create(&t[0], NULL, thread_main, (void *)"fake0") == 0);
    CHECK(pthread_create(&t[1], NULL, thread_main, (void *)"fake1") == 0);
    CHECK(pthread_join(t[0], NULL) == 0 && pthread_join(t[1], NULL) == 0);
    glmux_test_require_ours("libEGL.so.1");
    glmux_test_require_ours("libGLdispatch.so.0");
    CHECK(glmux_test_loaded_path("libglmux_chain_a.so") != NULL);
    CHECK_MSG(traced_get_string == 2 * 2 * CALLS, "the layer saw %d glGetString calls",
              traced_get_string);
    return 0;
}
