/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: unloading libEGL.so.1 while contexts are current (on this thread and on
 * a thread that is still running), then loading it again. Nothing may crash, and the
 * vendors must be unloaded with it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "egl_fake.h"
#include "glmux_test.h"

struct egl {
    void *lib;
    PFNEGLGETPLATFORMDISPLAYPROC get_display;
    PFNEGLINITIALIZEPROC initialize;
    PFNEGLCHOOSECONFIGPROC choose;
    PFNEGLCREATECONTEXTPROC create;
    PFNEGLMAKECURRENTPROC make_current;
    PFNEGLGETCURRENTCONTEXTPROC current;
};

static struct egl egl;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int stage;

static void load(void)
{
    egl.lib = dlopen(GLMUX_TEST_LIBEGL, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(egl.lib != NULL, "%s", dlerror());
    egl.get_display = (PFNEGLGETPLATFORMDISPLAYPROC)dlsym(egl.lib, "eglGetPlatformDisplay");
    egl.initialize = (PFNEGLINITIALIZEPROC)dlsym(egl.lib, "eglInitialize");
    egl.choose = (PFNEGLCHOOSECONFIGPROC)dlsym(egl.lib, "eglChooseConfig");
    egl.create = (PFNEGLCREATECONTEXTPROC)dlsym(egl.lib, "eglCreateContext");
    egl.make_current = (PFNEGLMAKECURRENTPROC)dlsym(egl.lib, "eglMakeCurrent");
    egl.current = (PFNEGLGETCURRENTCONTEXTPROC)dlsym(egl.lib, "eglGetCurrentContext");
    CHECK(egl.get_display && egl.initialize && egl.choose && egl.create && egl.make_current &&
          egl.current);
}

static EGLContext make_current(const char *vendor)
{
    EGLDisplay dpy = egl.get_display(FAKE_PLATFORM, (void *)vendor, NULL);
    EGLConfig config;
    EGLint n;
    EGLContext ctx;

    CHECK(dpy != EGL_NO_DISPLAY && egl.initialize(dpy, NULL, NULL));
    CHECK(egl.choose(dpy, NULL, &config, 1, &n) && n == 1);
    ctx = egl.create(dpy, config, EGL_NO_CONTEXT, NULL);
    CHECK(ctx != EGL_NO_CONTEXT);
    CHECK(egl.make_current(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
    CHECK(egl.current() == ctx);
    return ctx;
}

static void *other_thread(void *arg)
{
    (void)arg;
    make_current("fake1");
    pthread_mutex_lock(&lock);
    stage = 1;
    pthread_cond_broadcast(&cond);
    while (stage != 2)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    /* libEGL is gone; this thread exits with libGLdispatch still loaded. */
    return NULL;
}

int main(void)
{
    pthread_t t;

    for (int round = 0; round < 2; round++) {
        load();
        glmux_test_require_ours("libEGL.so.1");
        make_current("fake0");
        if (round == 0) {
            CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0);
            pthread_mutex_lock(&lock);
            while (stage != 1)
                pthread_cond_wait(&cond, &lock);
            pthread_mutex_unlock(&lock);
        }
        CHECK(dlclose(egl.lib) == 0);
        CHECK_MSG(glmux_test_loaded_path("libEGL.so.1") == NULL, "libEGL is still loaded");
        CHECK_MSG(glmux_test_loaded_path("libEGL_fake0.so.0") == NULL, "fake0 still loaded");
        if (round == 0) {
            pthread_mutex_lock(&lock);
            stage = 2;
            pthread_cond_broadcast(&cond);
            pthread_mutex_unlock(&lock);
            CHECK(pthread_join(t, NULL) == 0);
        }
    }
    printf("unloaded libEGL twice with current contexts\n");
    return 0;
}
