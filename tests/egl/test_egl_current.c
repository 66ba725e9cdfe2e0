/* SPDX-License-Identifier: MIT */
/*
 * glmux EGL tests: make-current across two fake vendors (GL calls through our libOpenGL
 * reach the current vendor), errors from libEGL, vendors and vendor stubs, EGL_KHR_debug,
 * per-thread state and cleanup when threads exit, and a fork with a current context.
 */
#define _GNU_SOURCE
#include "test_egl_fake.h"

#include <GL/gl.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "GLdispatch.h"

static const char *gl_vendor(void)
{
    return (const char *)glGetString(GL_VENDOR);
}

static void expect_current(EGLDisplay dpy, EGLContext ctx, const char *vendor)
{
    PFN_FAKE_CURRENT current = (PFN_FAKE_CURRENT)fake_proc("eglFakeCurrentFAKE");

    CHECK(eglGetCurrentContext() == ctx);
    CHECK(eglGetCurrentDisplay() == dpy);
    CHECK(eglGetCurrentSurface(EGL_DRAW) == EGL_NO_SURFACE);
    if (vendor == NULL) {
        CHECK(gl_vendor() == NULL);
        CHECK(current() == NULL);
        CHECK(eglGetError() == EGL_BAD_CONTEXT);
    } else {
        CHECK_MSG(gl_vendor() != NULL && strcmp(gl_vendor(), vendor) == 0, "GL vendor %s, "
                  "want %s", gl_vendor() ? gl_vendor() : "(null)", vendor);
        CHECK(strcmp(current(), vendor) == 0);
    }
}

static void *null_lookup(const char *name, void *param)
{
    (void)name;
    (void)param;
    return NULL;
}

int mode_makecurrent(void)
{
    EGLDisplay d0 = fake_display("fake0"), d1 = fake_display("fake1");
    EGLContext c0 = fake_context(d0, NULL), c0b = fake_context(d0, NULL);
    EGLContext c1 = fake_context(d1, NULL);
    static const EGLint fail_attribs[] = { FAKE_MAKE_CURRENT_FAIL, 1, EGL_NONE };
    EGLContext bad = fake_context(d0, fail_attribs);

    CHECK(c0 && c0b && c1 && bad);
    expect_current(EGL_NO_DISPLAY, EGL_NO_CONTEXT, NULL);
    CHECK(eglWaitGL() && eglWaitClient() && eglWaitNative(EGL_CORE_NATIVE_ENGINE));

    CHECK(eglMakeCurrent(d0, EGL_NO_SURFACE, EGL_NO_SURFACE, c0));
    expect_current(d0, c0, "fake0");
    CHECK(eglMakeCurrent(d0, EGL_NO_SURFACE, EGL_NO_SURFACE, c0));   /* no change */
    CHECK(eglMakeCurrent(d0, EGL_NO_SURFACE, EGL_NO_SURFACE, c0b));  /* same vendor */
    expect_current(d0, c0b, "fake0");
    CHECK(eglMakeCurrent(d1, EGL_NO_SURFACE, EGL_NO_SURFACE, c1));   /* vendor switch */
    expect_current(d1, c1, "fake1");
    CHECK(eglWaitGL());
    CHECK(eglMakeCurrent(d0, EGL_NO_SURFACE, EGL_NO_SURFACE, c0));
    expect_current(d0, c0, "fake0");

    /* The vendor refuses: nothing is current afterwards (the old context is not restored). */
    CHECK(!eglMakeCurrent(d0, EGL_NO_SURFACE, EGL_NO_SURFACE, bad));
    CHECK(eglGetError() == EGL_BAD_ACCESS);
    CHECK(eglMakeCurrent(d1, EGL_NO_SURFACE, EGL_NO_SURFACE, c1));
    CHECK(!eglMakeCurrent(d0, EGL_NO_SURFACE, EGL_NO_SURFACE, bad));
    CHECK(eglGetError() == EGL_BAD_ACCESS);
    expect_current(EGL_NO_DISPLAY, EGL_NO_CONTEXT, NULL);

    /* Argument errors. */
    CHECK(!eglMakeCurrent(d0, (EGLSurface)&d0, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglGetError() == EGL_BAD_MATCH);
    CHECK(!eglMakeCurrent((EGLDisplay)&d0, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglGetError() == EGL_BAD_DISPLAY);
    CHECK(eglGetCurrentSurface(0x1234) == EGL_NO_SURFACE);
    CHECK(eglGetError() == EGL_BAD_PARAMETER);

    /* Release. */
    CHECK(eglMakeCurrent(d1, EGL_NO_SURFACE, EGL_NO_SURFACE, c1));
    CHECK(eglMakeCurrent(d1, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    expect_current(EGL_NO_DISPLAY, EGL_NO_CONTEXT, NULL);
    CHECK(eglMakeCurrent(d1, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));

    /* A GLX context current on this thread: EGL must not take over. */
    {
        __GLdispatchThreadState glx = { .tag = GLDISPATCH_API_GLX };
        __GLdispatchTable *table = __glDispatchCreateTable(null_lookup, NULL);

        CHECK(table != NULL);
        CHECK(__glDispatchMakeCurrent(&glx, table, __glDispatchNewVendorID(), NULL));
        CHECK(!eglMakeCurrent(d0, EGL_NO_SURFACE, EGL_NO_SURFACE, c0));
        CHECK(eglGetError() == EGL_BAD_ACCESS);
        CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
        __glDispatchLoseCurrent();
        __glDispatchDestroyTable(table);
    }

    /* Client API per thread, passed on to every vendor's eglBindAPI. */
    CHECK(eglQueryAPI() == EGL_OPENGL_ES_API);
    CHECK(!eglBindAPI(EGL_OPENVG_API));
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    CHECK(eglBindAPI(EGL_OPENGL_API) && eglQueryAPI() == EGL_OPENGL_API);
    for (int i = 0; i < 2; i++) {
        PFN_FAKE_BOUND_API bound =
            (PFN_FAKE_BOUND_API)fake_symbol(i ? "fake1" : "fake0", "fake_bound_api");

        CHECK(bound() == EGL_OPENGL_API);
    }

    CHECK(eglMakeCurrent(d0, EGL_NO_SURFACE, EGL_NO_SURFACE, c0));
    CHECK(eglDestroyContext(d1, c1) && eglDestroyContext(d0, c0b) && eglDestroyContext(d0, bad));
    /* c0 stays current until exit: libEGL's unload releases it. */
    return 0;
}

/* A thread that leaves an error behind, or checks that another thread's error is not its. */
static void *error_thread(void *arg)
{
    if (arg != NULL) {
        CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
        return NULL;    /* exits with EGL_BAD_DISPLAY pending */
    }
    CHECK(eglGetError() == EGL_SUCCESS);
    CHECK(eglGetProcAddress("glClear") != NULL);
    CHECK(eglGetError() == EGL_SUCCESS);
    CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
    CHECK(eglGetProcAddress("glClear") != NULL);      /* resets this thread's error */
    CHECK(eglGetError() == EGL_SUCCESS);
    return NULL;
}

/*
 * Every call resets the calling thread's error, also a call that needs no vendor
 * (eglGetProcAddress, eglGetCurrentContext), and only the calling thread's: libEGL skips the
 * reset while no thread holds an error, which must not lose one.
 */
static void error_threads(void)
{
    pthread_t t;

    CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
    CHECK(eglGetProcAddress("glClear") != NULL);
    CHECK(eglGetError() == EGL_SUCCESS);
    CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
    CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
    CHECK(eglGetError() == EGL_SUCCESS);
    /* A thread that exits with its error pending, while this one has none. */
    CHECK(pthread_create(&t, NULL, error_thread, (void *)1) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    CHECK(eglGetProcAddress("glClear") != NULL);
    CHECK(eglGetError() == EGL_SUCCESS);
    /* This thread's error survives another thread's calls and is reset by its own. */
    CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
    CHECK(pthread_create(&t, NULL, error_thread, NULL) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    CHECK(eglGetError() == EGL_BAD_DISPLAY);
    CHECK(eglGetError() == EGL_SUCCESS);
    CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
    CHECK(pthread_create(&t, NULL, error_thread, NULL) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    CHECK(eglGetProcAddress("glClear") != NULL);
    CHECK(eglGetError() == EGL_SUCCESS);
    /* eglReleaseThread puts the state back: no error afterwards. */
    CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
    CHECK(eglReleaseThread());
    CHECK(eglGetError() == EGL_SUCCESS);
}

int mode_error(void)
{
    EGLDisplay d0 = fake_display("fake0");
    static const EGLint fail_attribs[] = { FAKE_CREATE_CONTEXT_FAIL, 1, EGL_NONE };
    PFN_FAKE_DISPLAY display_vendor = (PFN_FAKE_DISPLAY)fake_proc("eglFakeDisplayFAKE");

    CHECK(eglGetError() == EGL_SUCCESS);
    /* Raised by libEGL itself; eglGetError clears it. */
    CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
    CHECK(eglGetError() == EGL_BAD_DISPLAY);
    CHECK(eglGetError() == EGL_SUCCESS);
    /* Raised by the vendor: eglGetError asks the vendor that handled the last call. */
    CHECK(fake_context(d0, fail_attribs) == EGL_NO_CONTEXT);
    CHECK(eglGetError() == EGL_BAD_MATCH);
    CHECK(eglGetError() == EGL_SUCCESS);
    /* Raised by a vendor dispatch stub through setEGLError. */
    CHECK(display_vendor(EGL_NO_DISPLAY) == NULL);
    CHECK(eglGetError() == EGL_BAD_DISPLAY);
    /* The next successful call resets the error. */
    CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
    CHECK(eglQueryAPI() == EGL_OPENGL_ES_API);
    CHECK(eglGetError() == EGL_SUCCESS);
    /* Vendor errors in a display query reach the caller. */
    CHECK(eglQueryString(d0, 0x1234) == NULL);
    CHECK(eglGetError() == EGL_BAD_PARAMETER);
    error_threads();
    return 0;
}

struct debug_record {
    int calls;
    EGLenum error;
    char command[64];
    EGLint type;
    EGLLabelKHR thread_label, object_label;
};
static struct debug_record rec;

static void EGLAPIENTRY debug_cb(EGLenum error, const char *command, EGLint type,
                                 EGLLabelKHR thread_label, EGLLabelKHR object_label,
                                 const char *message)
{
    rec.calls++;
    rec.error = error;
    snprintf(rec.command, sizeof(rec.command), "%s", command);
    rec.type = type;
    rec.thread_label = thread_label;
    rec.object_label = object_label;
    CHECK(message != NULL);
}

int mode_debug(void)
{
    PFNEGLDEBUGMESSAGECONTROLKHRPROC control =
        (PFNEGLDEBUGMESSAGECONTROLKHRPROC)fake_proc("eglDebugMessageControlKHR");
    PFNEGLQUERYDEBUGKHRPROC query = (PFNEGLQUERYDEBUGKHRPROC)fake_proc("eglQueryDebugKHR");
    PFNEGLLABELOBJECTKHRPROC label = (PFNEGLLABELOBJECTKHRPROC)fake_proc("eglLabelObjectKHR");
    EGLDisplay d0 = fake_display("fake0");
    PFN_FAKE_COUNTER counter = (PFN_FAKE_COUNTER)fake_symbol("fake1", "fake_counter");
    static const EGLAttrib no_errors[] = { EGL_DEBUG_MSG_ERROR_KHR, EGL_FALSE, EGL_NONE };
    static const EGLAttrib bad[] = { 0x1234, EGL_TRUE, EGL_NONE };
    EGLAttrib value = -1;
    int seen;

    CHECK(query(EGL_DEBUG_MSG_ERROR_KHR, &value) && value == EGL_TRUE);
    CHECK(query(EGL_DEBUG_MSG_WARN_KHR, &value) && value == EGL_FALSE);
    CHECK(query(EGL_DEBUG_CALLBACK_KHR, &value) && value == 0);
    CHECK(!query(0x1234, &value));
    CHECK(eglGetError() == EGL_BAD_ATTRIBUTE);

    CHECK(control(debug_cb, NULL) == EGL_SUCCESS);
    CHECK(counter("eglDebugMessageControlKHR") == 1);   /* forwarded to every vendor */
    CHECK(query(EGL_DEBUG_CALLBACK_KHR, &value) && value == (EGLAttrib)debug_cb);
    CHECK(label(EGL_NO_DISPLAY, EGL_OBJECT_THREAD_KHR, NULL, (EGLLabelKHR)0x1234) ==
          EGL_SUCCESS);
    /* The thread label is forwarded to every vendor. */
    for (int i = 0; i < 2; i++) {
        PFN_FAKE_THREAD_LABEL vendor_label =
            (PFN_FAKE_THREAD_LABEL)fake_symbol(i ? "fake1" : "fake0", "fake_thread_label");

        CHECK(vendor_label() == (void *)0x1234);
    }

    CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
    CHECK(rec.calls == 1 && rec.error == EGL_BAD_DISPLAY && rec.type == EGL_DEBUG_MSG_ERROR_KHR);
    CHECK(strcmp(rec.command, "eglInitialize") == 0);
    CHECK(rec.thread_label == (EGLLabelKHR)0x1234 && rec.object_label == NULL);
    CHECK(eglGetError() == EGL_BAD_DISPLAY);

    /* Errors switched off: no callback, the error is still recorded. */
    CHECK(control(debug_cb, no_errors) == EGL_SUCCESS);
    CHECK(query(EGL_DEBUG_MSG_ERROR_KHR, &value) && value == EGL_FALSE);
    seen = rec.calls;
    CHECK(!eglInitialize(EGL_NO_DISPLAY, NULL, NULL));
    CHECK(rec.calls == seen);
    CHECK(eglGetError() == EGL_BAD_DISPLAY);

    /* A bad attribute is refused and reported. */
    CHECK(control(debug_cb, bad) == EGL_BAD_ATTRIBUTE);
    /* NULL callback: default message types again. */
    CHECK(control(NULL, NULL) == EGL_SUCCESS);
    CHECK(query(EGL_DEBUG_MSG_ERROR_KHR, &value) && value == EGL_TRUE);
    CHECK(query(EGL_DEBUG_CALLBACK_KHR, &value) && value == 0);

    /* Object labels go to the display's vendor, and only to it. */
    CHECK(label(d0, EGL_OBJECT_DISPLAY_KHR, (EGLObjectKHR)d0, (EGLLabelKHR)1) == EGL_SUCCESS);
    CHECK(((PFN_FAKE_COUNTER)fake_symbol("fake0", "fake_counter"))("eglLabelObjectKHR") == 1);
    CHECK(counter("eglLabelObjectKHR") == 0);
    CHECK(label(d0, EGL_OBJECT_DISPLAY_KHR, (EGLObjectKHR)&d0, (EGLLabelKHR)1) ==
          EGL_BAD_PARAMETER);
    CHECK(label((EGLDisplay)&d0, EGL_OBJECT_CONTEXT_KHR, NULL, NULL) == EGL_BAD_DISPLAY);
    return 0;
}

/* ---- threads ---- */

static EGLDisplay t_d0, t_d1;

static void *thread_exit_current(void *arg)
{
    EGLDisplay dpy = arg ? t_d1 : t_d0;
    EGLContext ctx = fake_context(dpy, NULL);

    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
    CHECK(strcmp(gl_vendor(), arg ? "fake1" : "fake0") == 0);
    CHECK(eglBindAPI(EGL_OPENGL_API));
    /* Leaves with the context current: libGLdispatch and libEGL must clean up. */
    return ctx;
}

static void *thread_switch(void *arg)
{
    EGLContext c0 = fake_context(t_d0, NULL), c1 = fake_context(t_d1, NULL);

    (void)arg;
    for (int i = 0; i < 200; i++) {
        CHECK(eglMakeCurrent(t_d0, EGL_NO_SURFACE, EGL_NO_SURFACE, c0));
        CHECK(strcmp(gl_vendor(), "fake0") == 0);
        CHECK(eglMakeCurrent(t_d1, EGL_NO_SURFACE, EGL_NO_SURFACE, c1));
        CHECK(strcmp(gl_vendor(), "fake1") == 0);
    }
    CHECK(eglReleaseThread());
    CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT && gl_vendor() == NULL);
    CHECK(eglDestroyContext(t_d0, c0) && eglDestroyContext(t_d1, c1));
    return NULL;
}

int mode_threads(void)
{
    PFN_FAKE_COUNTER count0, count1;
    pthread_t t[8];
    void *ctx[2];
    int released0;

    t_d0 = fake_display("fake0");
    t_d1 = fake_display("fake1");
    count0 = (PFN_FAKE_COUNTER)fake_symbol("fake0", "fake_counter");
    count1 = (PFN_FAKE_COUNTER)fake_symbol("fake1", "fake_counter");
    for (int i = 0; i < 2; i++) {
        CHECK(pthread_create(&t[i], NULL, thread_exit_current, (void *)(intptr_t)i) == 0);
        CHECK(pthread_join(t[i], &ctx[i]) == 0);
    }
    /* eglBindAPI on those threads did not change this one. */
    CHECK(eglQueryAPI() == EGL_OPENGL_ES_API);
    CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
    CHECK(eglDestroyContext(t_d0, ctx[0]) && eglDestroyContext(t_d1, ctx[1]));

    released0 = count0("eglReleaseThread");
    for (int i = 0; i < 8; i++)
        CHECK(pthread_create(&t[i], NULL, thread_switch, NULL) == 0);
    for (int i = 0; i < 8; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
    /* eglReleaseThread called each vendor once per thread. */
    CHECK(count0("eglReleaseThread") == released0 + 8);
    CHECK(count1("eglReleaseThread") == 8);

    /* eglReleaseThread without a context, then the main thread exits with one current. */
    CHECK(eglReleaseThread());
    {
        EGLContext c = fake_context(t_d1, NULL);

        CHECK(eglMakeCurrent(t_d1, EGL_NO_SURFACE, EGL_NO_SURFACE, c));
        CHECK(strcmp(gl_vendor(), "fake1") == 0);
    }
    return 0;
}

int mode_fork(void)
{
    EGLDisplay d0 = fake_display("fake0"), d1 = fake_display("fake1");
    EGLContext c0 = fake_context(d0, NULL), c1 = fake_context(d1, NULL);
    int status = -1;
    pid_t pid;

    CHECK(eglMakeCurrent(d0, EGL_NO_SURFACE, EGL_NO_SURFACE, c0));
    CHECK(eglBindAPI(EGL_OPENGL_API));
    fflush(NULL);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        /* The child starts without a current context but keeps vendors and displays. */
        CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
        CHECK(gl_vendor() == NULL);
        CHECK(eglQueryAPI() == EGL_OPENGL_ES_API);
        CHECK(strcmp(fake_vendor_of(d1), "fake1") == 0);
        CHECK(eglMakeCurrent(d1, EGL_NO_SURFACE, EGL_NO_SURFACE, c1));
        CHECK(strcmp(gl_vendor(), "fake1") == 0);
        _exit(0);
    }
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
    /* The parent is untouched. */
    expect_current(d0, c0, "fake0");
    CHECK(eglQueryAPI() == EGL_OPENGL_API);
    CHECK(eglMakeCurrent(d0, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglDestroyContext(d0, c0) && eglDestroyContext(d1, c1));
    return 0;
}
