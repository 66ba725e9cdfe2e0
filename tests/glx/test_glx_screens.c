/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: per-screen GLX dispatch with two fake vendors on a two-screen Xvfb
 * (__GLX_FORCE_VENDOR_LIBRARY_0=fakea, _1=fakeb). Contexts, FBConfigs and drawables reach
 * the vendor that made them; a window libGLX never saw reaches its screen's vendor through
 * the server; switching between two contexts of one vendor calls only that vendor, once;
 * vendor extension functions dispatch through glXGetProcAddress; another vendor
 * may not claim a context, FBConfig or drawable that one owns; client strings
 * merge; libGLX's own X errors carry the GLX opcode; a thread with a current EGL context gets
 * BadAccess. Built twice: linked with libGLX + libOpenGL, and with libGL.so.1 alone
 * (GLMUX_TEST_LIBGL), where libGL's lazy glX wrappers are called too.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <X11/Xlib.h>
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xproto.h>
#include <GL/glxproto.h>

#ifdef GLMUX_TEST_LIBGL
/* libGL.so.1 exports these (lazy wrappers); <GL/glx.h> declares them only as pointers. */
GLXContext glXCreateContextAttribsARB(Display *, GLXFBConfig, GLXContext, Bool, const int *);
Display *glXGetCurrentDisplayEXT(void);
int glXSwapIntervalSGI(int);
void glXSwapIntervalEXT(Display *, GLXDrawable, int);
#endif

#include "GLdispatch.h"
#include "fake_vendor.h"
#include "glmux_constants.h"
#include "glmux_test.h"
#include "glx_test_x.h"

typedef const char *(*which_fn)(Display *, int);
typedef int (*claim_fn)(Display *, int, GLXContext);
typedef int (*count_fn)(Display *, int, int);
typedef int (*claim_any_fn)(Display *, int, int, void *);
typedef GLXContext (*attribs_fn)(Display *, GLXFBConfig, GLXContext, Bool, const int *);

static int count(Display *dpy, int screen, int what)
{
    count_fn fn = (count_fn)glXGetProcAddress((const GLubyte *)"glXFakeCountGLMUX");

    CHECK(fn != NULL);
    return fn(dpy, screen, what);
}

static const char *gl_string(GLenum name)
{
    const char *s = (const char *)glGetString(name);

    return s ? s : "(null)";
}

static void *no_proc(const char *name, void *param)
{
    (void)name, (void)param;
    return NULL;
}

static void check_egl_current_blocks_glx(Display *dpy, GLXDrawable draw, GLXContext ctx)
{
    __GLdispatchThreadState egl_state;
    __GLdispatchTable *table;
    XErrorEvent err;

    /* Stand in for libEGL: an EGL-tagged state made current through libGLdispatch. */
    memset(&egl_state, 0, sizeof(egl_state));
    egl_state.tag = GLDISPATCH_API_EGL;
    table = __glDispatchCreateTable(no_proc, NULL);
    CHECK(table != NULL);
    CHECK(__glDispatchMakeCurrent(&egl_state, table, __glDispatchNewVendorID(), NULL));
    CHECK(!glXMakeCurrent(dpy, draw, ctx));
    err = glx_test_last_error(dpy);
    CHECK_MSG(err.error_code == BadAccess, "error %d", err.error_code);
    __glDispatchLoseCurrent();
    __glDispatchDestroyTable(table);
}

int main(void)
{
    Display *dpy;
    GLXFBConfig *configs[2];
    GLXContext ctx[2];
    Window win[2];
    GLXWindow glxwin[2];
    int n, value, major = 0, minor = 0, error_base = 0, event_base = 0, opcode, ev, er;
    which_fn which;
    claim_fn claim;
    attribs_fn create_attribs;
    XErrorEvent err;
    const char *s;

    dpy = glx_test_open("two");
    glx_test_catch_errors();
#ifdef GLMUX_TEST_LIBGL
    glmux_test_require_ours("libGL.so.1");
#else
    glmux_test_require_ours("libOpenGL.so.0");
#endif
    glmux_test_require_ours("libGLX.so.0");
    glmux_test_require_ours("libGLdispatch.so.0");
    CHECK_MSG(ScreenCount(dpy) >= 2, "the fixture server has %d screen(s)", ScreenCount(dpy));

    CHECK(glXQueryExtension(dpy, &error_base, &event_base));
    CHECK(XQueryExtension(dpy, "GLX", &opcode, &ev, &er));
    CHECK(error_base == er && event_base == ev);
    CHECK(glXQueryVersion(dpy, &major, &minor));
    CHECK_MSG(major == 1 && minor >= 2, "server GLX %d.%d", major, minor);

    for (int s = 0; s < 2; s++) {
        configs[s] = glXChooseFBConfig(dpy, s, NULL, &n);
        CHECK(configs[s] != NULL && n == 2);
        CHECK(glXGetFBConfigAttrib(dpy, configs[s][1], FAKE_ATTRIB_VENDOR, &value) == Success);
        CHECK_MSG(value == "ab"[s], "screen %d FBConfig from vendor '%c'", s, value);
        ctx[s] = glXCreateNewContext(dpy, configs[s][0], GLX_RGBA_TYPE, NULL, True);
        CHECK(ctx[s] != NULL);
        CHECK(glXQueryContext(dpy, ctx[s], FAKE_ATTRIB_VENDOR, &value) == Success &&
              value == "ab"[s]);
        CHECK(glXIsDirect(dpy, ctx[s]));
        win[s] = XCreateSimpleWindow(dpy, RootWindow(dpy, s), 0, 0, 32, 32, 0, 0, 0);
        glxwin[s] = glXCreateWindow(dpy, configs[s][0], win[s], NULL);
        CHECK(glxwin[s] != None);
        {
            unsigned int uv = 0;

            glXQueryDrawable(dpy, glxwin[s], FAKE_ATTRIB_VENDOR, &uv);
            CHECK(uv == (unsigned)"ab"[s]);
        }
    }
    {
        XVisualInfo *vis = glXChooseVisual(dpy, 1, NULL);

        CHECK(vis != NULL && vis->screen == 1);
        CHECK(glXGetConfig(dpy, vis, FAKE_ATTRIB_VENDOR, &value) == Success && value == 'b');
        XFree(vis);
    }

    /* Client and server strings. */
    s = glXGetClientString(dpy, GLX_VENDOR);
    CHECK_MSG(s != NULL && strcmp(s, "fakea, fakeb") == 0, "vendor \"%s\"", s ? s : "");
    s = glXGetClientString(dpy, GLX_VERSION);
    CHECK_MSG(s != NULL && strcmp(s, "1.4 fakea 0.1, fakeb 0.1") == 0, "version \"%s\"", s);
    s = glXGetClientString(dpy, GLX_EXTENSIONS);
    CHECK_MSG(s != NULL && strcmp(s, "GLX_fake_common GLX_fakea_only GLX_fakeb_only") == 0,
              "extensions \"%s\"", s);
    CHECK(strcmp(glXGetClientString(NULL, GLX_VENDOR), "libglvnd (no display specified)") == 0);
    CHECK(strcmp(glXQueryServerString(dpy, 1, GLX_VENDOR), "fakeb") == 0);
    CHECK(strcmp(glXQueryExtensionsString(dpy, 0), "GLX_fake_common GLX_fakea_only") == 0);

    /* Make-current and GL dispatch, switching vendors. */
    CHECK(glXGetCurrentContext() == NULL);
    CHECK(glXMakeContextCurrent(dpy, glxwin[1], glxwin[1], ctx[1]));
    CHECK_MSG(strcmp(gl_string(GL_VENDOR), "fakeb") == 0, "GL_VENDOR %s", gl_string(GL_VENDOR));
    CHECK(glXGetCurrentContext() == ctx[1]);
    CHECK(glXGetCurrentDrawable() == glxwin[1] && glXGetCurrentReadDrawable() == glxwin[1]);
    CHECK(glXGetCurrentDisplay() == dpy);
    glClear(GL_COLOR_BUFFER_BIT);
    CHECK(count(dpy, 1, FAKE_COUNT_CLEARS) == 1 && count(dpy, 0, FAKE_COUNT_CLEARS) == 0);
    glXSwapBuffers(dpy, glxwin[1]);
    CHECK(count(dpy, 1, FAKE_COUNT_SWAPS) == 1);
    glXWaitGL();
    CHECK(count(dpy, 1, FAKE_COUNT_WAITS) == 1);

    CHECK(glXMakeCurrent(dpy, glxwin[0], ctx[0]));
    CHECK(strcmp(gl_string(GL_VENDOR), "fakea") == 0);
    CHECK(glXGetCurrentContext() == ctx[0]);
    {
        /* Between two contexts of one vendor: one call to that vendor, no release. */
        GLXContext other = glXCreateNewContext(dpy, configs[0][1], GLX_RGBA_TYPE, NULL, True);
        int before = count(dpy, 0, FAKE_COUNT_MAKE_CURRENT), id = 0;
        char want[64];

        CHECK(other != NULL);
        CHECK(glXQueryContext(dpy, other, FAKE_ATTRIB_ID, &id) == Success);
        CHECK(glXMakeContextCurrent(dpy, glxwin[0], glxwin[0], other));
        CHECK(count(dpy, 0, FAKE_COUNT_MAKE_CURRENT) == before + 1);
        snprintf(want, sizeof(want), "fakea ctx %d", id);
        CHECK_MSG(strcmp(gl_string(GL_RENDERER), want) == 0, "GL_RENDERER %s",
                  gl_string(GL_RENDERER));
        CHECK(glXMakeCurrent(dpy, glxwin[0], ctx[0]));
        CHECK(count(dpy, 0, FAKE_COUNT_MAKE_CURRENT) == before + 2);
        CHECK(glXGetCurrentContext() == ctx[0]);
        glXDestroyContext(dpy, other);
    }
    /* Plain X windows libGLX never saw: the server says which screen they are on. */
    glXSwapBuffers(dpy, win[1]);
    CHECK(count(dpy, 1, FAKE_COUNT_SWAPS) == 2);
    glXSwapBuffers(dpy, win[0]);
    CHECK(count(dpy, 0, FAKE_COUNT_SWAPS) == 1);
    CHECK(glx_test_last_error(dpy).error_code == 0);

    /* Vendor extension functions through glXGetProcAddress. */
    which = (which_fn)glXGetProcAddress((const GLubyte *)"glXFakeWhichVendorGLMUX");
    CHECK(which != NULL);
    CHECK((void *)which == (void *)glXGetProcAddressARB((const GLubyte *)"glXFakeWhichVendorGLMUX"));
    CHECK(strcmp(which(dpy, 0), "fakea") == 0 && strcmp(which(dpy, 1), "fakeb") == 0);
    claim = (claim_fn)glXGetProcAddress((const GLubyte *)"glXFakeClaimContextGLMUX");
    CHECK(claim != NULL);
    CHECK(claim(dpy, 1, ctx[0]) != 0); /* owned by fakea: fakeb may not take it */
    CHECK(claim(dpy, 0, ctx[0]) == 0);
    {
        /* The same rule for FBConfigs and drawables: the owner may map them again, another
         * vendor may not. */
        claim_any_fn claim_any =
            (claim_any_fn)glXGetProcAddress((const GLubyte *)"glXFakeClaimGLMUX");

        CHECK(claim_any != NULL);
        CHECK(claim_any(dpy, 1, 1, (void *)configs[0][0]) != 0);
        CHECK(claim_any(dpy, 0, 1, (void *)configs[0][0]) == 0);
        CHECK(claim_any(dpy, 0, 1, (void *)configs[1][1]) != 0);
        CHECK(claim_any(dpy, 1, 2, (void *)(uintptr_t)glxwin[0]) != 0);
        CHECK(claim_any(dpy, 0, 2, (void *)(uintptr_t)glxwin[0]) == 0);
        CHECK(claim_any(dpy, 0, 2, (void *)(uintptr_t)win[1]) != 0); /* learnt from the server */
    }
    CHECK(glXGetProcAddress((const GLubyte *)"glClear") != NULL);
    {
        GLXContext (*get_current)(void) =
            (GLXContext(*)(void))glXGetProcAddress((const GLubyte *)"glXGetCurrentContext");

        /* libGLX's own function (in a libGL build, not libGL's forwarder of the same name) */
        CHECK(get_current != NULL && get_current() == ctx[0]);
    }

    /* glXCreateContextAttribsARB with GLX_SCREEN picks that screen's vendor. */
    create_attribs = (attribs_fn)glXGetProcAddress((const GLubyte *)"glXCreateContextAttribsARB");
    CHECK(create_attribs != NULL);
    {
        const int attribs[] = {GLX_SCREEN, 1, None};
        GLXContext c = create_attribs(dpy, NULL, NULL, True, attribs);

        CHECK(c != NULL);
        CHECK(glXQueryContext(dpy, c, FAKE_ATTRIB_VENDOR, &value) == Success && value == 'b');
        glXDestroyContext(dpy, c);
    }

#ifdef GLMUX_TEST_LIBGL
    /* libGL.so.1's lazy wrappers: one resolves to libGLX's function through
     * __glXGLLoadGLXFunction; names no vendor implements give the default return. */
    {
        const int attribs[] = {GLX_SCREEN, 1, None};
        GLXContext c = glXCreateContextAttribsARB(dpy, NULL, NULL, True, attribs);

        CHECK(c != NULL);
        CHECK(glXQueryContext(dpy, c, FAKE_ATTRIB_VENDOR, &value) == Success && value == 'b');
        glXDestroyContext(dpy, c);
        CHECK(glXGetCurrentDisplayEXT() == NULL);
        CHECK(glXSwapIntervalSGI(1) == 0);
        glXSwapIntervalEXT(dpy, glxwin[0], 1);
    }
#endif

    /* A glX name nobody knows: a generated stub returning NULL (none in pure-C builds). */
    {
        void *(*unknown)(void) =
            (void *(*)(void))glXGetProcAddress((const GLubyte *)"glXNoSuchFunctionGLMUX");
#if GLMUX_HAVE_GLX_STUBS
        CHECK(unknown != NULL);
        CHECK(unknown() == NULL);
#else
        CHECK(unknown == NULL);
#endif
    }

    /* libGLX's own X errors: opcode, first GLX error + code, minor opcode. */
    glXDestroyContext(dpy, (GLXContext)(void *)&n);
    err = glx_test_last_error(dpy);
    CHECK_MSG(err.error_code == er + GLXBadContext && err.request_code == opcode &&
              err.minor_code == X_GLXDestroyContext,
              "error %d request %d.%d", err.error_code, err.request_code, err.minor_code);
    CHECK(glXCreateNewContext(dpy, (GLXFBConfig)(void *)&n, GLX_RGBA_TYPE, NULL, True) == NULL);
    CHECK(glx_test_last_error(dpy).error_code == er + GLXBadFBConfig);
    CHECK(!glXMakeCurrent(dpy, glxwin[0], (GLXContext)(void *)&n));
    CHECK(glx_test_last_error(dpy).error_code == er + GLXBadContext);
    CHECK(glXGetCurrentContext() == ctx[0]); /* unchanged by the failure */
    /* libGLX's own requests fail quietly; the application sees one error, libGLX's. */
    glx_test_error_count(dpy);
    glXSwapBuffers(dpy, (GLXDrawable)0x7fff0001);
    CHECK(glx_test_error_count(dpy) == 1);
    {
        GLXContext (*import)(Display *, GLXContextID) = (GLXContext(*)(Display *, GLXContextID))
            glXGetProcAddress((const GLubyte *)"glXImportContextEXT");

        CHECK(import != NULL);
        CHECK(import(dpy, (GLXContextID)0x7fff0002) == NULL);
        CHECK(glx_test_error_count(dpy) == 1);
        err = glx_test_last_error(dpy);
        CHECK(err.error_code == er + GLXBadContext && err.minor_code == X_GLXQueryContext);
    }

    /* Release, then BadMatch for a drawable without a context. */
    CHECK(glXMakeCurrent(dpy, None, NULL));
    CHECK(glXGetCurrentContext() == NULL && glXGetCurrentDisplay() == NULL);
    CHECK(!glXMakeCurrent(dpy, glxwin[0], NULL));
    CHECK(glx_test_last_error(dpy).error_code == BadMatch);

    check_egl_current_blocks_glx(dpy, glxwin[0], ctx[0]);

    for (int s = 0; s < 2; s++) {
        glXDestroyWindow(dpy, glxwin[s]);
        CHECK(count(dpy, s, FAKE_COUNT_DESTROYED_DRAWABLES) == 1);
        glXDestroyContext(dpy, ctx[s]);
        XDestroyWindow(dpy, win[s]);
        XFree(configs[s]);
    }
    CHECK(count(dpy, 0, FAKE_COUNT_MAIN_CALLS) == 1 && count(dpy, 1, FAKE_COUNT_MAIN_CALLS) == 1);
    CHECK(glx_test_last_error(dpy).error_code == 0);
    XCloseDisplay(dpy);
    return 0;
}
