/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the context helpers of the lifetime tests (lifetime.h). GLX contexts get a
 * display connection per thread and a pbuffer; EGL contexts use the fake platform (fake
 * vendors) or Mesa's surfaceless platform with a pbuffer.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include <X11/Xlib.h>
#include <GL/gl.h>
#include <GL/glx.h>
#define EGL_NO_X11
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "glmux_test.h"
#include "glx_test_x.h"
#include "lifetime.h"

#define FAKE_PLATFORM 0x10000   /* tests/egl/egl_fake.h */
#define SIZE 16

static struct {
    GLXFBConfig *(*choose)(Display *, int, const int *, int *);
    GLXContext (*create)(Display *, GLXFBConfig, int, GLXContext, Bool);
    GLXPbuffer (*pbuffer)(Display *, GLXFBConfig, const int *);
    Bool (*make)(Display *, GLXDrawable, GLXDrawable, GLXContext);
    void (*destroy)(Display *, GLXContext);
    void (*destroy_pbuffer)(Display *, GLXPbuffer);
    GLXContext (*current)(void);
} glx;

static struct {
    PFNEGLGETPLATFORMDISPLAYPROC display;
    PFNEGLINITIALIZEPROC initialize;
    PFNEGLCHOOSECONFIGPROC choose;
    PFNEGLBINDAPIPROC bind;
    PFNEGLCREATECONTEXTPROC create;
    PFNEGLCREATEPBUFFERSURFACEPROC pbuffer;
    PFNEGLMAKECURRENTPROC make;
    PFNEGLDESTROYCONTEXTPROC destroy;
    PFNEGLDESTROYSURFACEPROC destroy_surface;
    PFNEGLGETCURRENTCONTEXTPROC current;
} egl;

#define BIND(table, member, lib, name)                                                   \
    do {                                                                                 \
        *(void **)&table.member = dlsym(lib, name);                                      \
        CHECK_MSG(table.member != NULL, "%s not found", name);                           \
    } while (0)

void lt_api_bind(struct lt_api *api, void *lib)
{
    api->lib = lib;
    if (strcmp(api->name, "glx") == 0) {
        BIND(glx, choose, lib, "glXChooseFBConfig");
        BIND(glx, create, lib, "glXCreateNewContext");
        BIND(glx, pbuffer, lib, "glXCreatePbuffer");
        BIND(glx, make, lib, "glXMakeContextCurrent");
        BIND(glx, destroy, lib, "glXDestroyContext");
        BIND(glx, destroy_pbuffer, lib, "glXDestroyPbuffer");
        BIND(glx, current, lib, "glXGetCurrentContext");
        return;
    }
    BIND(egl, display, lib, "eglGetPlatformDisplay");
    BIND(egl, initialize, lib, "eglInitialize");
    BIND(egl, choose, lib, "eglChooseConfig");
    BIND(egl, bind, lib, "eglBindAPI");
    BIND(egl, create, lib, "eglCreateContext");
    BIND(egl, pbuffer, lib, "eglCreatePbufferSurface");
    BIND(egl, make, lib, "eglMakeCurrent");
    BIND(egl, destroy, lib, "eglDestroyContext");
    BIND(egl, destroy_surface, lib, "eglDestroySurface");
    BIND(egl, current, lib, "eglGetCurrentContext");
}

bool lt_has_current(const struct lt_api *api)
{
    if (strcmp(api->name, "glx") == 0)
        return glx.current() != NULL;
    return egl.current() != EGL_NO_CONTEXT;
}

static void glx_make_current(const struct lt_api *api, struct lt_current *c)
{
    static const int attribs[] = {
        GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DRAWABLE_TYPE, GLX_PBUFFER_BIT, GLX_RED_SIZE, 8,
        GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None
    };
    static const int pbuffer_attribs[] = { GLX_PBUFFER_WIDTH, SIZE, GLX_PBUFFER_HEIGHT, SIZE,
                                           None };
    Display *dpy = glx_test_open("two");
    GLXFBConfig *configs;
    int n = 0;

    c->dpy = dpy;
    configs = glx.choose(dpy, 0, api->mesa ? attribs : NULL, &n);
    CHECK_MSG(configs != NULL && n > 0, "no GLXFBConfig with a pbuffer");
    c->ctx = glx.create(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    CHECK(c->ctx != NULL);
    c->pbuffer = glx.pbuffer(dpy, configs[0], pbuffer_attribs);
    CHECK(c->pbuffer != None);
    XFree(configs);
    CHECK(glx.make(dpy, c->pbuffer, c->pbuffer, c->ctx));
}

static void egl_make_current(const struct lt_api *api, struct lt_current *c)
{
    static const EGLint attribs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE
    };
    static const EGLint pbuffer_attribs[] = { EGL_WIDTH, SIZE, EGL_HEIGHT, SIZE, EGL_NONE };
    EGLConfig config;
    EGLint n = 0;

    if (api->mesa)
        c->dpy = egl.display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    else
        c->dpy = egl.display(FAKE_PLATFORM, (void *)"fake0", NULL);
    CHECK(c->dpy != EGL_NO_DISPLAY && egl.initialize(c->dpy, NULL, NULL));
    CHECK(egl.choose(c->dpy, api->mesa ? attribs : NULL, &config, 1, &n) && n == 1);
    CHECK(egl.bind(EGL_OPENGL_API));
    c->ctx = egl.create(c->dpy, config, EGL_NO_CONTEXT, NULL);
    CHECK(c->ctx != EGL_NO_CONTEXT);
    c->surface = EGL_NO_SURFACE;
    if (api->mesa) {
        c->surface = egl.pbuffer(c->dpy, config, pbuffer_attribs);
        CHECK(c->surface != EGL_NO_SURFACE);
    }
    CHECK(egl.make(c->dpy, c->surface, c->surface, c->ctx));
}

void lt_make_current(const struct lt_api *api, struct lt_current *c)
{
    if (strcmp(api->name, "glx") == 0)
        glx_make_current(api, c);
    else
        egl_make_current(api, c);
}

void lt_release(const struct lt_api *api, struct lt_current *c)
{
    if (strcmp(api->name, "glx") == 0) {
        CHECK(glx.make(c->dpy, None, None, NULL));
        glx.destroy_pbuffer(c->dpy, c->pbuffer);
        glx.destroy(c->dpy, c->ctx);
        XCloseDisplay(c->dpy);
        c->dpy = NULL;
        return;
    }
    CHECK(egl.make(c->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    if (c->surface != EGL_NO_SURFACE)
        egl.destroy_surface(c->dpy, c->surface);
    egl.destroy(c->dpy, c->ctx);
}

void lt_render(const struct lt_api *api)
{
    const char *vendor;
    unsigned char px[4] = { 0 };

    if (!api->mesa) {
        vendor = (const char *)glGetString(GL_VENDOR);
        CHECK_MSG(vendor != NULL && strncmp(vendor, "fake", 4) == 0, "GL_VENDOR %s",
                  vendor ? vendor : "(null)");
        return;
    }
    glViewport(0, 0, SIZE, SIZE);
    glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    glReadPixels(SIZE / 2, SIZE / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK_MSG(px[0] == 0 && px[1] == 255 && px[2] == 0, "%s read back %d,%d,%d", api->name,
              px[0], px[1], px[2]);
}
