/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layer tests for libEGL and libGLX: every entry path of the two libraries goes
 * through the chain of GL layers, and below the layers each call still reaches the vendor of
 * its EGL display or X screen. The test layer (winsys_layer.c) is built as "sink" (intercepts
 * every egl/glX name, calls nothing below) and as "p1" and "p2" (pass a few functions through,
 * writing a trace). Each run writes the layers' manifests into a fresh folder of its own, names
 * it in GLMUX_LAYER_PATH and picks layers with GLMUX_LAYERS before the first EGL or GLX call
 * loads them (implicit layers installed elsewhere are switched off). Modes:
 *   egl_all SYMBOLS          sink: every export of libEGL.so.1 (SYMBOLS: libEGL.symbols) and
 *                            eglGetProcAddress's answer for each, for libEGL's other own names
 *                            and for a vendor's extension function reach the layer
 *   glx_all SYMBOLS GLSYMS   sink: the same for libGLX.so.0's exports and libGL.so.1's glX
 *                            functions (GLSYMS: libGL_glx.symbols; the 39 forwarded ones and
 *                            the lazy wrappers), and glXGetProcAddress's answers
 *   egl_vendors              p1 over p2, two fake EGL vendors: calls by display, a vendor
 *                            extension and an own function through eglGetProcAddress go through
 *                            p1, then p2, then reach the display's vendor
 *   egl_threads              the same from two threads at once, each with its own vendor's
 *                            display, racing from the first call (which loads the layers)
 *   glx_vendors              p1 over p2, two fake GLX vendors on a two-screen Xvfb: the same
 *                            by screen and by context, through libGLX and libGL.so.1
 *   glx_glname               p1 as a GL and GLX layer, a vendor with a GL function named glX
 *                            (glXAllocateMemoryNV: getProcAddress knows it, getDispatchAddress
 *                            not, so glXGetProcAddress answers libGLdispatch's stub): a call
 *                            through that answer and through libGL.so.1's export passes the
 *                            layer once, and reaches the vendor of the current context
 *   glx_glname_late          the same, asked before any vendor is loaded (a generated GLX
 *                            entry stub, filled with libGLdispatch's stub when the vendor
 *                            loads)
 *   egl_reenter LOG,         a layer that calls a public function from its hook: the call
 *   glx_reenter LOG          goes on, and GLMUX_DEBUG=layer says so in LOG (GLMUX_DEBUG_FILE)
 *   none                     no layer switched on: the answers are the exports as before, no
 *                            layer library is mapped, the vendors answer
 *   mesa_glx, mesa_egl       p1 over Debian's Mesa (Xvfb; EGL surfaceless): Mesa answers
 *                            below the layer, and our libraries and Mesa's were loaded
 * Calling a sink hook with the arguments of the function it replaces is what the layer ABI
 * allows (the hook reads none of them); the test calls every export with zero arguments.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "glmux_test.h"
#include "layer_test.h"

#ifdef WINSYS_TEST_EGL
#define EGL_NO_X11
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include "egl_fake.h"
#endif
#ifdef WINSYS_TEST_GLX
#include <X11/Xlib.h>
#include <GL/gl.h>
#include <GL/glx.h>
#include "glx_test_x.h"
#endif

#include "GLdispatch.h"
#include "glmux_constants.h"

/* ---- the trace the layers write (layer_test.h) ---- */

#define CHECK_TRACE(want)                                                              \
    do {                                                                               \
        const char *got_ = glmux_layer_test_trace_take();                              \
        CHECK_MSG(strcmp(got_, want) == 0, "trace \"%s\", expected \"%s\"", got_, want); \
    } while (0)

/* ---- manifests in a folder of the test's own ---- */

/* The manifest of layer winsys_<file>: library libglmux_winsys_<library>.so, apis. */
static void write_manifest_of(const char *file, const char *library, const char *apis)
{
    char layer[64], path[600];

    snprintf(layer, sizeof(layer), "winsys_%s", file);
    snprintf(path, sizeof(path), "%s/libglmux_winsys_%s.so", WINSYS_LAYER_DIR, library);
    glmux_layer_test_manifest(file, layer, path, apis, "glmux EGL/GLX layer test");
}

static void write_manifest(const char *name)
{
    write_manifest_of(name, name, "\"egl\", \"glx\"");
}

/* Writes the test layers' manifests and switches on layers ("a,b"; NULL: none). */
static void setup_layers(const char *layers)
{
    glmux_layer_test_folder("glmux-winsys");
    write_manifest("sink");
    write_manifest("p1");
    write_manifest("p2");
    write_manifest("reenter");
    write_manifest_of("p1gl", "p1", "\"gl\", \"glx\"");    /* p1, asked about GL names too */
    glmux_layer_test_switch_on(layers);
}

/* Whether any test layer library is mapped (/proc/self/maps). */
static bool layer_mapped(void)
{
    return glmux_layer_test_mapped("libglmux_winsys_");
}

/* ---- every function by name ---- */

typedef long (*any_fn)(long, long, long, long, long, long);

/* ---- the debug log (GLMUX_DEBUG_FILE) ---- */

static long log_start;

/* Notes where the log ends now: log_since reads what comes after. */
static void log_mark(const char *path)
{
    struct stat st;

    log_start = stat(path, &st) == 0 ? (long)st.st_size : 0;
}

/* What the log gained since log_mark (a static buffer; "" when nothing). */
static const char *log_since(const char *path)
{
    static char buf[16384];
    FILE *f = fopen(path, "re");
    size_t n = 0;

    if (f != NULL) {
        if (fseek(f, log_start, SEEK_SET) == 0)
            n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    return buf;
}

static void check_reentry(const char *log, const char *name, bool want)
{
    char needle[128];
    const char *text = log_since(log);

    snprintf(needle, sizeof(needle), "%s was called from inside a layer's function", name);
    CHECK_MSG((strstr(text, needle) != NULL) == want, "log %s: \"%s\" %s: %s", log, needle,
              want ? "missing" : "unexpected", text);
}

/* The names of a .symbols file, except "__" ones (data and libGL's interface). */
static char **read_names(const char *path, int *count)
{
    char line[256], **names = NULL;
    FILE *f = fopen(path, "re");
    int n = 0;

    CHECK_MSG(f != NULL, "cannot open %s", path);
    while (fgets(line, sizeof(line), f) != NULL) {
        char *p = strchr(line, '#');

        if (p != NULL)
            *p = '\0';
        p = strtok(line, " \t\r\n");
        if (p == NULL || strncmp(p, "__", 2) == 0)
            continue;
        names = realloc(names, sizeof(*names) * (size_t)(n + 1));
        CHECK(names != NULL && (names[n] = strdup(p)) != NULL);
        n++;
    }
    fclose(f);
    CHECK(n > 0);
    *count = n;
    return names;
}

static void free_names(char **names, int count)
{
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

/* Calls fn (any function of the APIs, intercepted by the sink) and checks the sink saw name. */
static void call_sink(const char *how, const char *name, void *fn)
{
    char want[256];
    const char *got;

    CHECK_MSG(fn != NULL, "%s: no function for %s", how, name);
    glmux_layer_test_trace_take();
    ((any_fn)(uintptr_t)fn)(0, 0, 0, 0, 0, 0);
    snprintf(want, sizeof(want), "sink:%s ", name);
    got = glmux_layer_test_trace_take();
    CHECK_MSG(strcmp(got, want) == 0, "%s %s: trace \"%s\", expected \"%s\"", how, name, got,
              want);
}

/* What lies below the sink layer for name. */
static void *sink_next(const char *name)
{
    char path[600];
    void *lib, *(*next)(const char *);

    snprintf(path, sizeof(path), "%s/libglmux_winsys_sink.so", WINSYS_LAYER_DIR);
    lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    CHECK_MSG(lib != NULL, "the sink layer is not loaded");
    *(void **)&next = dlsym(lib, "winsys_layer_next");
    CHECK(next != NULL);
    dlclose(lib);
    return next(name);
}

typedef void *(*gpa_fn)(const char *);

/* When set: whether glmux may have no function at all for name in this build (a GLX name no
 * vendor knows, in a build without GLX entry stubs): then no layer is asked about it. */
static bool (*may_lack)(const char *name);

/*
 * Every name of names through: the export of lib (when lib is not NULL), and the
 * GetProcAddress body below the sink (gpa NULL: none).
 */
static void all_names(const char *what, void *lib, gpa_fn gpa, char **names, int n)
{
    for (int i = 0; i < n; i++) {
        if (may_lack != NULL && may_lack(names[i])) {
            printf("%s: %s skipped (glmux has no function for it in this build)\n", what,
                   names[i]);
            continue;
        }
        if (lib != NULL)
            call_sink(what, names[i], dlsym(lib, names[i]));
        if (gpa != NULL) {
            void *answer = gpa(names[i]);

            CHECK_MSG(lib == NULL || answer != dlsym(lib, names[i]),
                      "GetProcAddress(%s) answered the export, not the layer's", names[i]);
            call_sink("GetProcAddress answer", names[i], answer);
        }
    }
    printf("%s: %d names reached the layer\n", what, n);
}

#ifdef WINSYS_TEST_EGL
/* ---- EGL ---- */

static void *egl_lib(void)
{
    void *lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_NOLOAD);

    CHECK(lib != NULL);
    return lib;
}

static int mode_egl_all(const char *symbols)
{
    /* libEGL's own functions that it does not export, and a vendor's extension function. */
    static char *others[] = {
        "eglCreatePlatformPixmapSurfaceEXT", "eglCreatePlatformWindowSurfaceEXT",
        "eglDebugMessageControlKHR", "eglGetPlatformDisplayEXT", "eglLabelObjectKHR",
        "eglQueryDebugKHR", "eglQueryDevicesEXT", "eglQueryDisplayAttribEXT",
        "eglQueryDisplayAttribKHR", "eglQueryDisplayAttribNV", "eglFakeDisplayFAKE",
    };
    int n;
    char **names = read_names(symbols, &n);
    void *lib = egl_lib();
    gpa_fn gpa;

    setup_layers("winsys_sink");
    CHECK(eglQueryAPI() == 0);      /* the first call loads the layers: the sink answers 0 */
    CHECK(strstr(glmux_layer_test_trace_take(), "sink:eglQueryAPI") != NULL);
    glmux_test_require_ours("libEGL.so.1");
    all_names("libEGL.so.1 exports", lib, NULL, names, n);

    /* Below the sink, eglGetProcAddress's body answers the top of each name's chain. */
    *(void **)&gpa = sink_next("eglGetProcAddress");
    CHECK(gpa != NULL && gpa != (gpa_fn)dlsym(lib, "eglGetProcAddress"));
    all_names("eglGetProcAddress answers", lib, gpa, names, n);
    all_names("eglGetProcAddress answers", NULL, gpa, others, sizeof(others) / sizeof(*others));
    /* What lies below the layer is glmux's body, not the export (no recursion). */
    CHECK(sink_next("eglSwapBuffers") != NULL &&
          sink_next("eglSwapBuffers") != dlsym(lib, "eglSwapBuffers"));
    /* GL names are libGLdispatch's stubs, layered through its tables. */
    CHECK(gpa("glClear") == (void *)(uintptr_t)__glDispatchGetProcAddress("glClear"));
    CHECK(gpa("eglNoSuchFunctionFAKE") == NULL);
    CHECK_TRACE("");
    free_names(names, n);
    return 0;
}

static int mode_egl_vendors(void)
{
    EGLDisplay d[2];
    static const char *const vendors[2] = { "fake0", "fake1" };
    typedef const char *(*query_fn)(EGLDisplay, EGLint);
    query_fn query;
    PFN_FAKE_DISPLAY fake_display;

    setup_layers("winsys_p1,winsys_p2");
    for (int i = 0; i < 2; i++) {
        d[i] = eglGetPlatformDisplay(FAKE_PLATFORM, (void *)vendors[i], NULL);
        CHECK(d[i] != EGL_NO_DISPLAY);
        CHECK(eglInitialize(d[i], NULL, NULL));
    }
    /* Initialized bottom first. */
    CHECK_TRACE("p2:init p1:init ");
    glmux_test_require_ours("libEGL.so.1");
    *(void **)&query = (void *)eglGetProcAddress("eglQueryString");
    CHECK(query != NULL && (void *)query != (void *)eglQueryString);
    *(void **)&fake_display = (void *)eglGetProcAddress("eglFakeDisplayFAKE");
    CHECK(fake_display != NULL);
    for (int i = 0; i < 2; i++) {
        CHECK(strcmp(eglQueryString(d[i], EGL_VENDOR), vendors[i]) == 0);
        CHECK_TRACE("p1:eglQueryString p2:eglQueryString ");
        CHECK(strcmp(query(d[i], EGL_VENDOR), vendors[i]) == 0);
        CHECK_TRACE("p1:eglQueryString p2:eglQueryString ");
        CHECK(strcmp(fake_display(d[i]), vendors[i]) == 0);
        CHECK_TRACE("p1:eglFakeDisplayFAKE p2:eglFakeDisplayFAKE ");
        eglSwapBuffers(d[i], EGL_NO_SURFACE);
        CHECK_TRACE("p1:eglSwapBuffers p2:eglSwapBuffers ");
    }
    CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
    CHECK_TRACE("p1:eglGetCurrentContext p2:eglGetCurrentContext ");
    /* Functions no layer intercepts go straight to glmux. */
    CHECK(eglQueryAPI() == EGL_OPENGL_ES_API);
    CHECK_TRACE("");
    for (int i = 0; i < 2; i++)
        CHECK(eglTerminate(d[i]));
    return 0;
}

/* One thread of egl_threads: its vendor's display, asked many times through the layers. */
static void *egl_thread(void *arg)
{
    const char *vendor = arg;
    typedef const char *(*query_fn)(EGLDisplay, EGLint);
    query_fn query;
    EGLDisplay dpy = eglGetPlatformDisplay(FAKE_PLATFORM, (void *)vendor, NULL);

    CHECK(dpy != EGL_NO_DISPLAY && eglInitialize(dpy, NULL, NULL));
    *(void **)&query = (void *)eglGetProcAddress("eglQueryString");
    CHECK(query != NULL && (void *)query != (void *)eglQueryString);
    for (int i = 0; i < 2000; i++) {
        CHECK(strcmp(eglQueryString(dpy, EGL_VENDOR), vendor) == 0);
        CHECK(strcmp(query(dpy, EGL_VENDOR), vendor) == 0);
    }
    return NULL;
}

static int mode_egl_threads(void)
{
    pthread_t t[2];
    static char *vendors[2] = { "fake0", "fake1" };

    setup_layers("winsys_p1,winsys_p2");
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&t[i], NULL, egl_thread, vendors[i]) == 0);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
    CHECK(strstr(glmux_layer_test_trace_take(), "p1:eglQueryString p2:eglQueryString ") != NULL);
    glmux_test_require_ours("libEGL.so.1");
    return 0;
}

static int mode_egl_reenter(const char *log)
{
    log_mark(log);
    setup_layers("winsys_reenter");
    CHECK(eglQueryAPI() == EGL_OPENGL_ES_API);
    check_reentry(log, "eglQueryAPI", false);
    CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
    CHECK_TRACE("reenter:init reenter:eglGetCurrentContext ");
    check_reentry(log, "eglQueryAPI", true);
    glmux_test_require_ours("libEGL.so.1");
    return 0;
}

static int mode_none_egl(void)
{
    EGLDisplay dpy;
    void *lib = egl_lib();

    setup_layers(NULL);
    dpy = eglGetPlatformDisplay(FAKE_PLATFORM, (void *)"fake1", NULL);
    CHECK(dpy != EGL_NO_DISPLAY && eglInitialize(dpy, NULL, NULL));
    CHECK(strcmp(eglQueryString(dpy, EGL_VENDOR), "fake1") == 0);
    for (const char *const *name = (const char *const[]){ "eglQueryString", "eglSwapBuffers",
                                                           "eglGetProcAddress", NULL };
         *name != NULL; name++)
        CHECK((void *)eglGetProcAddress(*name) == dlsym(lib, *name));
    CHECK(eglGetProcAddress("eglFakeDisplayFAKE") != NULL);
    CHECK_TRACE("");
    CHECK(!layer_mapped());
    CHECK(eglTerminate(dpy));
    return 0;
}

static int mode_mesa_egl(void)
{
    EGLDisplay dpy;
    EGLConfig config;
    EGLint n = 0;
    static const EGLint pbuf[] = { EGL_WIDTH, 8, EGL_HEIGHT, 8, EGL_NONE };
    static const EGLint want[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                   EGL_OPENGL_ES2_BIT, EGL_NONE };
    static const EGLint ctx_attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    EGLSurface surface;
    EGLContext ctx;

    setup_layers("winsys_p1");
    dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
        SKIP("Mesa's surfaceless EGL is not available");
    CHECK_TRACE("p1:init ");
    CHECK_MSG(strstr(eglQueryString(dpy, EGL_VENDOR), "Mesa") != NULL, "not Mesa: %s",
              eglQueryString(dpy, EGL_VENDOR));
    glmux_layer_test_trace_take();
    CHECK(eglQueryString(dpy, EGL_VERSION) != NULL);
    CHECK_TRACE("p1:eglQueryString ");
    CHECK(eglChooseConfig(dpy, want, &config, 1, &n) && n == 1);
    surface = eglCreatePbufferSurface(dpy, config, pbuf);
    CHECK(surface != EGL_NO_SURFACE);
    CHECK(eglBindAPI(EGL_OPENGL_ES_API));
    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
    CHECK(ctx != EGL_NO_CONTEXT);
    CHECK(eglMakeCurrent(dpy, surface, surface, ctx));
    CHECK(eglGetCurrentContext() == ctx);
    CHECK_TRACE("p1:eglGetCurrentContext ");
    CHECK(eglSwapBuffers(dpy, surface));
    CHECK_TRACE("p1:eglSwapBuffers ");
    glmux_test_require_ours("libEGL.so.1");
    CHECK_MSG(glmux_test_loaded_path("libEGL_mesa.so.0") != NULL, "Mesa's vendor is not loaded");
    glmux_test_keep_drivers();      /* LeakSanitizer stays on: glmux_test.h says why */
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglDestroyContext(dpy, ctx) && eglDestroySurface(dpy, surface));
    CHECK(eglTerminate(dpy));
    return 0;
}
#endif

#ifdef WINSYS_TEST_GLX
/* ---- GLX ---- */

static void *glx_lib(void)
{
    void *lib = dlopen("libGLX.so.0", RTLD_NOW | RTLD_NOLOAD);

    CHECK(lib != NULL);
    return lib;
}

static void *gl_lib(void)
{
    void *lib = dlopen(GLMUX_TEST_LIBGL, RTLD_NOW | RTLD_GLOBAL);

    CHECK_MSG(lib != NULL, "%s", dlerror());
    return lib;
}

static gpa_fn glx_gpa;

/* A build whose compiler cannot make GLX entry stubs (glmux_constants.h) answers NULL for a
 * glX name no vendor knows. */
static bool glx_may_lack(const char *name)
{
#if GLMUX_HAVE_GLX_STUBS
    (void)name;
    return false;
#else
    return glx_gpa(name) == NULL;
#endif
}

static int mode_glx_all(const char *symbols, const char *gl_symbols)
{
    /* libGLX's own functions that it does not export, and a vendor's extension function. */
    static char *others[] = {
        "glXCreateContextAttribsARB", "glXImportContextEXT", "glXFreeContextEXT",
        "glXFakeWhichVendorGLMUX",
    };
    int n, n_gl;
    char **names = read_names(symbols, &n), **gl_names = read_names(gl_symbols, &n_gl);
    void *lib = glx_lib(), *gl = gl_lib();
    gpa_fn gpa;

    setup_layers("winsys_sink");
    CHECK(glXGetCurrentContext() == NULL);  /* loads the layers: the sink answers 0 */
    CHECK(strstr(glmux_layer_test_trace_take(), "sink:glXGetCurrentContext") != NULL);
    glmux_test_require_ours("libGLX.so.0");
    glmux_test_require_ours("libGL.so.1");
    /* The sink is asked about glXGetProcAddressARB at its first call, and answers NULL. */
    CHECK(glXGetProcAddressARB((const GLubyte *)"glXSwapBuffers") == NULL);
    CHECK_TRACE("sink:glXGetProcAddressARB ");
    *(void **)&glx_gpa = sink_next("glXGetProcAddressARB");
    CHECK(glx_gpa != NULL);
    may_lack = glx_may_lack;
    all_names("libGLX.so.0 exports", lib, NULL, names, n);
    all_names("libGL.so.1 glX functions", gl, NULL, gl_names, n_gl);

    /* Below the sink, glXGetProcAddress's body answers the top of each name's chain. */
    for (int i = 0; i < 2; i++) {
        const char *gpa_name = i == 0 ? "glXGetProcAddressARB" : "glXGetProcAddress";

        *(void **)&gpa = sink_next(gpa_name);
        CHECK(gpa != NULL && gpa != (gpa_fn)dlsym(lib, gpa_name));
        all_names("glXGetProcAddress answers", lib, gpa, names, n);
        all_names("glXGetProcAddress answers", NULL, gpa, gl_names, n_gl);
        all_names("glXGetProcAddress answers", NULL, gpa, others,
                  sizeof(others) / sizeof(*others));
        CHECK(gpa("glClear") == (void *)(uintptr_t)__glDispatchGetProcAddress("glClear"));
    }
    CHECK(sink_next("glXSwapBuffers") != NULL &&
          sink_next("glXSwapBuffers") != dlsym(lib, "glXSwapBuffers"));
    CHECK_TRACE("");
    free_names(names, n);
    free_names(gl_names, n_gl);
    return 0;
}

/* Makes a context of screen's vendor current on a window of that screen, swaps, runs
 * while_current (when not NULL), releases. */
static void make_current_and_swap(Display *dpy, int screen, const char *trace_want,
                                  void (*while_current)(void))
{
    static const int attribs[] = { GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DRAWABLE_TYPE,
                                   GLX_WINDOW_BIT, GLX_DOUBLEBUFFER, True, None };
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(dpy, screen, attribs, &n);
    XVisualInfo *vis;
    XSetWindowAttributes swa = { 0 };
    Window win;
    GLXContext ctx;

    CHECK_MSG(configs != NULL && n > 0, "no FBConfig on screen %d", screen);
    vis = glXGetVisualFromFBConfig(dpy, configs[0]);
    CHECK(vis != NULL);
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, screen), vis->visual, AllocNone);
    win = XCreateWindow(dpy, RootWindow(dpy, screen), 0, 0, 16, 16, 0, vis->depth, InputOutput,
                        vis->visual, CWColormap, &swa);
    ctx = glXCreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx != NULL);
    glmux_layer_test_trace_take();
    CHECK(glXMakeCurrent(dpy, win, ctx));
    glXSwapBuffers(dpy, win);
    CHECK_TRACE(trace_want);
    CHECK(glXGetCurrentContext() == ctx);
    if (while_current != NULL)
        while_current();
    CHECK(glXMakeCurrent(dpy, None, NULL));
    glmux_layer_test_trace_take();
    glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, swa.colormap);
    XFree(vis);
    XFree(configs);
}

static int mode_glx_vendors(void)
{
    static const char *const vendors[2] = { "fakea", "fakeb" };
    typedef const char *(*which_fn)(Display *, int);
    typedef const char *(*server_string_fn)(Display *, int, int);
    typedef Display *(*current_display_fn)(void);
    typedef void *(*gpa_arb_fn)(const GLubyte *);
    Display *dpy;
    which_fn which, gl_which;
    server_string_fn gl_server_string;
    current_display_fn gl_current_display;
    gpa_arb_fn gl_gpa;
    void *gl;

    setup_layers("winsys_p1,winsys_p2");
    dpy = glx_test_open("two");
    gl = gl_lib();
    CHECK(ScreenCount(dpy) >= 2);
    *(void **)&which = (void *)glXGetProcAddressARB((const GLubyte *)"glXFakeWhichVendorGLMUX");
    CHECK(which != NULL);
    CHECK(strstr(glmux_layer_test_trace_take(), "p2:init p1:init ") != NULL);
    glmux_test_require_ours("libGLX.so.0");
    *(void **)&gl_server_string = dlsym(gl, "glXQueryServerString");
    *(void **)&gl_current_display = dlsym(gl, "glXGetCurrentDisplay");
    *(void **)&gl_gpa = dlsym(gl, "glXGetProcAddressARB");
    CHECK(gl_server_string != NULL && gl_current_display != NULL && gl_gpa != NULL);
    *(void **)&gl_which = gl_gpa((const GLubyte *)"glXFakeWhichVendorGLMUX");
    CHECK(gl_which == which);
    for (int s = 0; s < 2; s++) {
        CHECK(strcmp(glXQueryServerString(dpy, s, GLX_VENDOR), vendors[s]) == 0);
        CHECK_TRACE("p1:glXQueryServerString p2:glXQueryServerString ");
        CHECK(strcmp(gl_server_string(dpy, s, GLX_VENDOR), vendors[s]) == 0);
        CHECK_TRACE("p1:glXQueryServerString p2:glXQueryServerString ");
        CHECK(strcmp(which(dpy, s), vendors[s]) == 0);
        CHECK_TRACE("p1:glXFakeWhichVendorGLMUX p2:glXFakeWhichVendorGLMUX ");
        make_current_and_swap(dpy, s, "p1:glXMakeCurrent p2:glXMakeCurrent "
                                      "p1:glXSwapBuffers p2:glXSwapBuffers ", NULL);
    }
    /* libGL.so.1's lazy wrapper and libGLX's export of an own function. */
    CHECK(gl_current_display() == NULL);
    CHECK_TRACE("p1:glXGetCurrentDisplay p2:glXGetCurrentDisplay ");
    CHECK(glXGetCurrentDisplay() == NULL);
    CHECK_TRACE("p1:glXGetCurrentDisplay p2:glXGetCurrentDisplay ");
    glmux_test_require_ours("libGL.so.1");
    XCloseDisplay(dpy);
    return 0;
}

/* glx_glname: glXAllocateMemoryNV through glXGetProcAddress's answer and libGL.so.1's export. */
typedef void *(*alloc_fn)(GLsizei size, GLfloat readfreq, GLfloat writefreq, GLfloat priority);
static alloc_fn alloc_by_gpa, alloc_by_export;

static void call_alloc(void)
{
    for (int i = 0; i < 2; i++) {
        const char *how = i == 0 ? "glXGetProcAddress's answer" : "libGL.so.1's export";
        const char *vendor = (const char *)(i == 0 ? alloc_by_gpa : alloc_by_export)(16, 0, 0, 1);
        const char *got = glmux_layer_test_trace_take();

        CHECK_MSG(vendor != NULL && strcmp(vendor, "fakea") == 0,
                  "glXAllocateMemoryNV through %s: %s", how, vendor ? vendor : "NULL");
        CHECK_MSG(strcmp(got, "p1:glXAllocateMemoryNV ") == 0,
                  "glXAllocateMemoryNV through %s passed the layer as \"%s\" (once expected)",
                  how, got);
    }
}

static int mode_glx_glname(bool late)
{
    Display *dpy;
    void *gl;

    setup_layers("winsys_p1gl");
    gl = gl_lib();
    /* Late: asked before a vendor is loaded (a generated entry stub, filled when the vendor
     * of screen 0 loads); else the vendor is loaded first and answers with a GL stub. */
    if (late)
        *(void **)&alloc_by_gpa = (void *)glXGetProcAddressARB(
            (const GLubyte *)"glXAllocateMemoryNV");
    dpy = glx_test_open("two");
    CHECK(strcmp(glXQueryServerString(dpy, 0, GLX_VENDOR), "fakea") == 0);
    if (!late)
        *(void **)&alloc_by_gpa = (void *)glXGetProcAddressARB(
            (const GLubyte *)"glXAllocateMemoryNV");
    *(void **)&alloc_by_export = dlsym(gl, "glXAllocateMemoryNV");
    CHECK(alloc_by_gpa != NULL && alloc_by_export != NULL);
    glmux_test_require_ours("libGLX.so.0");
    glmux_test_require_ours("libGL.so.1");
    make_current_and_swap(dpy, 0, "p1:glXMakeCurrent p1:glXSwapBuffers ", call_alloc);
    XCloseDisplay(dpy);
    return 0;
}

static int mode_glx_reenter(const char *log)
{
    log_mark(log);
    setup_layers("winsys_reenter");
    CHECK(glXGetCurrentContext() == NULL);
    check_reentry(log, "glXGetCurrentContext", false);
    CHECK(glXGetCurrentDisplay() == NULL);
    CHECK_TRACE("reenter:init reenter:glXGetCurrentDisplay ");
    check_reentry(log, "glXGetCurrentContext", true);
    glmux_test_require_ours("libGLX.so.0");
    return 0;
}

static int mode_none_glx(void)
{
    void *lib = glx_lib();

    setup_layers(NULL);
    for (const char *const *name = (const char *const[]){ "glXQueryServerString",
                                                           "glXSwapBuffers",
                                                           "glXGetProcAddressARB", NULL };
         *name != NULL; name++)
        CHECK((void *)glXGetProcAddressARB((const GLubyte *)*name) == dlsym(lib, *name));
    CHECK(glXGetCurrentContext() == NULL);
    CHECK_TRACE("");
    CHECK(!layer_mapped());
    return 0;
}

static int mode_mesa_glx(void)
{
    Display *dpy;

    setup_layers("winsys_p1");
    dpy = glx_test_open("two");
    CHECK(glXQueryServerString(dpy, 0, GLX_VERSION) != NULL);
    CHECK_TRACE("p1:init p1:glXQueryServerString ");
    make_current_and_swap(dpy, 0, "p1:glXMakeCurrent p1:glXSwapBuffers ", NULL);
    glmux_test_require_ours("libGLX.so.0");
    CHECK_MSG(glmux_test_loaded_path("libGLX_mesa.so.0") != NULL, "Mesa's vendor is not loaded");
    XCloseDisplay(dpy);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

#ifdef WINSYS_TEST_EGL
    if (strcmp(mode, "egl_all") == 0 && argc > 2)
        return mode_egl_all(argv[2]);
    if (strcmp(mode, "egl_vendors") == 0)
        return mode_egl_vendors();
    if (strcmp(mode, "egl_threads") == 0)
        return mode_egl_threads();
    if (strcmp(mode, "egl_reenter") == 0 && argc > 2)
        return mode_egl_reenter(argv[2]);
    if (strcmp(mode, "none") == 0)
        return mode_none_egl();
    if (strcmp(mode, "mesa_egl") == 0)
        return mode_mesa_egl();
#endif
#ifdef WINSYS_TEST_GLX
    if (strcmp(mode, "glx_all") == 0 && argc > 3)
        return mode_glx_all(argv[2], argv[3]);
    if (strcmp(mode, "glx_vendors") == 0)
        return mode_glx_vendors();
    if (strcmp(mode, "glx_glname") == 0)
        return mode_glx_glname(false);
    if (strcmp(mode, "glx_glname_late") == 0)
        return mode_glx_glname(true);
    if (strcmp(mode, "glx_reenter") == 0 && argc > 2)
        return mode_glx_reenter(argv[2]);
    if (strcmp(mode, "none") == 0)
        return mode_none_glx();
    if (strcmp(mode, "mesa_glx") == 0)
        return mode_mesa_glx();
#endif
    fprintf(stderr, "usage: %s MODE ...\n", argv[0]);
    return 2;
}
