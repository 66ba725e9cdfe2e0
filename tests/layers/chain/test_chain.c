/* SPDX-License-Identifier: MIT */
/*
 * glmux layer-chain tests: the chain of GL layers in libGLdispatch, with the in-process fake
 * vendors of tests/dispatch and the test layer chain_layer.c built several times. Each run
 * writes its layer manifests into a fresh folder of its own, names it in GLMUX_LAYER_PATH and
 * picks the layers with GLMUX_LAYERS (implicit layers elsewhere are switched off), before the
 * first make-current loads them. Modes:
 *   order     two layers: a GL call through libOpenGL's exported stub reaches the top one,
 *             then the other, then the current vendor; get_next answers what lies below each
 *   exports   the same through libGLESv1_CM's, libGLESv2's and libGL's exports and the
 *             glXGetProcAddress and eglGetProcAddress answers for a GL name
 *   threads   two threads with two vendors current reach each its own vendor below one layer
 *   dynamic   dynamic GL names (one handed out before the layers loaded, one after) go
 *             through the layers
 *   dynamic_threads  while a layer is asked about a new dynamic name, another thread asks
 *             for another new name, then for the same one, and the layer waits for it: no
 *             lock is held across the layers' answers, and both threads end with one slot
 *             and one chain
 *   dynamic_reenter  a layer's get_proc_address asks GetProcAddress for a new name, for the
 *             name it is asked about, and get_next for a new name: each gets its slot
 *   vendor_waits  a vendor's getProcAddress, asked for glClear (a slot layer a intercepts)
 *             when its table is made current, waits for another thread that asks for a new
 *             dynamic name and makes another vendor current: libGLdispatch holds no lock
 *             while it asks the vendor, with lazy tables (the layered twin) as with eager ones
 *   android   a layer with Android's two entry points, above one with glmux's
 *   patch     a vendor that offers entry-point patching is not asked while a layer is loaded
 *   fork      the chain survives fork: the child's calls go through the layer
 *   unload    the last __glDispatchFini calls the layer's unload and unmaps it; after a new
 *             __glDispatchInit the next make-current loads it again
 *   swaponly  a layer for the swap functions only: GL calls go straight to the vendor, as
 *             with no layer (no layered twin table, patching as usual)
 *   none      no layer switched on: no layer library mapped, no layered table, patching as
 *             usual
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <GL/gl.h>

#include "fake_vendor.h"
#include "glmux_constants.h"
#include "glmux_test.h"
#include "layer_test.h"

/* ---- the trace the layers write (layer_test.h) ---- */

static void trace_clear(void)
{
    (void)glmux_layer_test_trace_take();
}

static void expect_trace(const char *want)
{
    const char *got = glmux_layer_test_trace_take();

    CHECK_MSG(strcmp(got, want) == 0, "trace \"%s\", want \"%s\"", got, want);
}

/* ---- manifests in a folder of the test's own ---- */

static void write_manifest(const char *name, const char *apis)
{
    char library[600];

    snprintf(library, sizeof(library), "%s/libglmux_chain_%s.so", CHAIN_LAYER_DIR, name);
    glmux_layer_test_manifest(name, name, library, apis, "glmux chain test layer");
}

/* Writes every test layer's manifest and switches on `layers` (NULL: none). */
static void setup_layers(const char *layers)
{
    glmux_layer_test_folder("glmux-chain");
    write_manifest("a", "\"gl\", \"gles2\"");
    write_manifest("b", "\"gl\"");
    write_manifest("droid", "\"gles2\"");
    write_manifest("swap", "\"egl\", \"glx\"");
    /* Only these layers: implicit ones installed on this machine stay off. */
    glmux_layer_test_switch_on(layers);
}

/* Whether a test layer library is mapped (/proc/self/maps). */
static bool layer_mapped(const char *name)
{
    char want[64];

    snprintf(want, sizeof(want), "libglmux_chain_%s.so", name);
    return glmux_layer_test_mapped(want);
}

static bool any_layer_mapped(void)
{
    return glmux_layer_test_mapped("libglmux_chain_");
}

/* A function a loaded test layer exports for the test. */
static void *layer_symbol(const char *layer, const char *symbol)
{
    char lib[600];
    void *h, *sym;

    snprintf(lib, sizeof(lib), "%s/libglmux_chain_%s.so", CHAIN_LAYER_DIR, layer);
    h = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
    CHECK_MSG(h != NULL, "layer %s is not loaded", layer);
    sym = dlsym(h, symbol);
    CHECK(sym != NULL);
    dlclose(h);
    return sym;
}

/* A test layer's get_next for name. */
static void *layer_next(const char *layer, const char *name)
{
    void *(*next)(const char *);

    *(void **)&next = layer_symbol(layer, "chain_test_layer_next");
    return next(name);
}

/* What a test layer's get_next answered for glClear while it initialized. */
static void *layer_init_next(const char *layer)
{
    void *(*init_next)(void);

    *(void **)&init_next = layer_symbol(layer, "chain_test_layer_init_next");
    return init_next();
}

/*
 * The file of the function in glClear's slot of the table the stubs read now
 * (_glapi_tls_Current): the vendor's (this program) with no GL layer, the top layer's with one.
 */
static const char *clear_slot_file(void)
{
    const void *const *table = (const void *const *)_glapi_get_current();
    int slot = -1, line = 0;
    char name[256];
    Dl_info info;
    FILE *f = fopen(GLMUX_SLOTS_FILE, "re");    /* the frozen slot list, one name a line */

    CHECK(f != NULL);
    while (slot < 0 && fgets(name, sizeof(name), f) != NULL) {
        if (name[0] == '#' || name[0] == '\n')
            continue;
        if (strcmp(name, "glClear\n") == 0)
            slot = line;
        line++;
    }
    fclose(f);

    CHECK(slot >= 0 && table != NULL);
    glClear(0);     /* resolves a lazy slot */
    trace_clear();
    CHECK(dladdr(table[slot], &info) != 0 && info.dli_fname != NULL);
    return info.dli_fname;
}

static bool clear_slot_in(const char *what)
{
    return strstr(clear_slot_file(), what) != NULL;
}

static const struct glmux_dispatch_winsys *winsys(void)
{
    const struct glmux_dispatch_winsys *w = (const struct glmux_dispatch_winsys *)(uintptr_t)
        __glDispatchGetProcAddress(GLMUX_DISPATCH_WINSYS_NAME);

    CHECK(w != NULL && w->magic == GLMUX_DISPATCH_WINSYS_MAGIC);
    return w;
}

static struct fake_thread_state main_state;

static void start(const char *layers, int vendor)
{
    setup_layers(layers);
    glmux_test_require_ours("libGLdispatch.so.0");
    fake_vendors_init();
    fake_thread_state_init(&main_state, vendor);
    CHECK(fake_make_current(&main_state, vendor, NULL));
}

/* ---- modes ---- */

static int mode_order(void)
{
    int before;
    void (*below_b)(GLbitfield);
    void (*below_a)(GLbitfield);

    start("a,b", 0);
    CHECK(layer_mapped("a") && layer_mapped("b"));
    CHECK(winsys()->layers_active());
    expect_trace("b:init a:init ");     /* bottom first */
    CHECK_MSG(clear_slot_in("libglmux_chain_a.so"), "glClear's slot: %s", clear_slot_file());

    before = fake_vendors[0].calls_total;
    glClear(GL_COLOR_BUFFER_BIT);
    expect_trace("a:glClear b:glClear ");
    CHECK(fake_vendors[0].calls_total == before + 1);
    CHECK(glGetError() == FAKE_GET_ERROR_RESULT(0) + 0x20);
    expect_trace("a:glGetError b:glGetError ");

    /* get_next: below a is b's function, below b glmux's bottom, which reaches the vendor. */
    *(void **)&below_a = layer_next("a", "glClear");
    *(void **)&below_b = layer_next("b", "glClear");
    CHECK(below_a != NULL && below_b != NULL && below_a != below_b);
    below_a(0);
    expect_trace("b:glClear ");
    CHECK(fake_vendors[0].calls_total == before + 3);
    below_b(0);
    expect_trace("");
    CHECK(fake_vendors[0].calls_total == before + 4);
    /* A name nobody intercepts: below every layer, the same bottom. */
    CHECK(layer_next("a", "glVertex3fv") == layer_next("b", "glVertex3fv"));
    CHECK(layer_next("a", "glVertex3fv") != NULL);
    /* While they initialized (bottom first), get_next already answered the same. */
    CHECK(layer_init_next("a") == (void *)(uintptr_t)below_a);
    CHECK(layer_init_next("b") == (void *)(uintptr_t)below_b);
    /* Calls nobody intercepts go straight to the vendor. */
    glVertex3fv(NULL);
    expect_trace("");
    CHECK(fake_vendors[0].calls_total == before + 5);

    /* Another vendor made current: the same layers, that vendor below them. */
    __glDispatchLoseCurrent();
    glClear(0);
    expect_trace("");       /* no context: the no-op table, layers not reached */
    CHECK(fake_make_current(&main_state, 1, NULL));
    glClear(0);
    expect_trace("a:glClear b:glClear ");
    CHECK(fake_vendors[1].calls_total == 1);
    CHECK(glGetError() == FAKE_GET_ERROR_RESULT(1) + 0x20);
    trace_clear();
    __glDispatchLoseCurrent();
    return 0;
}

static void call_clear_through(void *h, const char *lib, int vendor, int *calls)
{
    void (*clear)(GLbitfield);

    *(void **)&clear = dlsym(h, "glClear");
    CHECK_MSG(clear != NULL, "%s exports no glClear", lib);
    clear(0);
    expect_trace("a:glClear ");
    CHECK(fake_vendors[vendor].calls_total == ++*calls);
}

static int mode_exports(void)
{
    int calls;
    void *h;

    start("a", 0);
    calls = fake_vendors[0].calls_total;
    expect_trace("a:init ");
    glClear(0);             /* libOpenGL's export */
    expect_trace("a:glClear ");
    CHECK(fake_vendors[0].calls_total == ++calls);
    {
        void (*clear)(GLbitfield);

        *(void **)&clear = (void *)(uintptr_t)__glDispatchGetProcAddress("glClear");
        clear(0);
        expect_trace("a:glClear ");
        CHECK(fake_vendors[0].calls_total == ++calls);
    }
#ifdef GLMUX_TEST_GLESV2
    h = dlopen(GLMUX_TEST_GLESV2, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(h != NULL, "%s", dlerror());
    call_clear_through(h, "libGLESv2", 0, &calls);
#endif
#ifdef GLMUX_TEST_GLESV1
    h = dlopen(GLMUX_TEST_GLESV1, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(h != NULL, "%s", dlerror());
    call_clear_through(h, "libGLESv1_CM", 0, &calls);
#endif
#ifdef GLMUX_TEST_LIBGL
    h = dlopen(GLMUX_TEST_LIBGL, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(h != NULL, "%s", dlerror());
    call_clear_through(h, "libGL", 0, &calls);
    {
        void *(*gpa)(const GLubyte *);
        void (*clear)(GLbitfield);

        *(void **)&gpa = dlsym(h, "glXGetProcAddress");
        CHECK(gpa != NULL);
        *(void **)&clear = gpa((const GLubyte *)"glClear");
        CHECK(clear != NULL);
        clear(0);
        expect_trace("a:glClear ");
        CHECK(fake_vendors[0].calls_total == ++calls);
    }
#endif
#ifdef GLMUX_TEST_LIBEGL
    h = dlopen(GLMUX_TEST_LIBEGL, RTLD_NOW | RTLD_LOCAL);
    CHECK_MSG(h != NULL, "%s", dlerror());
    {
        void *(*gpa)(const char *);
        void (*clear)(GLbitfield);

        *(void **)&gpa = dlsym(h, "eglGetProcAddress");
        CHECK(gpa != NULL);
        *(void **)&clear = gpa("glClear");
        CHECK(clear != NULL);
        trace_clear();      /* libEGL's own first calls may go through layers */
        clear(0);
        expect_trace("a:glClear ");
        CHECK(fake_vendors[0].calls_total == ++calls);
    }
#endif
    (void)h;
    (void)call_clear_through;
    __glDispatchLoseCurrent();
    return 0;
}

#define THREAD_CALLS 2000

struct thread_arg {
    int vendor;
    int errors;
    GLenum wrong;       /* the first wrong answer */
    int first_wrong;    /* at which call */
};

static void *thread_main(void *p)
{
    struct thread_arg *arg = p;
    struct fake_thread_state state;

    fake_thread_state_init(&state, arg->vendor);
    CHECK(fake_make_current(&state, arg->vendor, NULL));
    for (int i = 0; i < THREAD_CALLS; i++) {
        glClear(0);
        GLenum e = glGetError();

        if (e != (GLenum)(FAKE_GET_ERROR_RESULT(arg->vendor) + 0x10) && arg->errors++ == 0) {
            arg->wrong = e;
            arg->first_wrong = i;
        }
    }
    CHECK(fake_thread_calls[arg->vendor] == 2 * THREAD_CALLS);
    CHECK(fake_thread_calls[1 - arg->vendor] == 0);
    __glDispatchLoseCurrent();
    return NULL;
}

static int mode_threads(void)
{
    pthread_t t[2];
    struct thread_arg args[2] = { { .vendor = 0 }, { .vendor = 1 } };

    setup_layers("a");
    fake_vendors_init();
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&t[i], NULL, thread_main, &args[i]) == 0);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
    for (int i = 0; i < 2; i++)
        CHECK_MSG(args[i].errors == 0, "vendor %d's thread: %d wrong glGetError answers, the "
                  "first 0x%x at call %d", i, args[i].errors, args[i].wrong,
                  args[i].first_wrong);
    CHECK(fake_vendors[0].calls_total == 2 * THREAD_CALLS);
    CHECK(fake_vendors[1].calls_total == 2 * THREAD_CALLS);
    CHECK_MSG(glmux_layer_test_trace_calls() == 1 + 4 * THREAD_CALLS, "%d layer calls",
              glmux_layer_test_trace_calls());
    return 0;
}

static int mode_dynamic(void)
{
    int (*gen5)(int), (*gen7)(int), (*after)(int);

    setup_layers("a,b");
    fake_vendors_init();
    /* Handed out before the layers are loaded (at the first make-current). */
    *(void **)&gen5 = (void *)(uintptr_t)__glDispatchGetProcAddress("glmuxGen5MUX");
    CHECK(gen5 != NULL);
    CHECK(!any_layer_mapped());
    fake_thread_state_init(&main_state, 0);
    CHECK(fake_make_current(&main_state, 0, NULL));
    trace_clear();
    /* Handed out after: the layers are asked before the slot is published. */
    *(void **)&gen7 = (void *)(uintptr_t)__glDispatchGetProcAddress("glmuxGen7MUX");
    *(void **)&after = (void *)(uintptr_t)__glDispatchGetProcAddress("glmuxTestAfterMUX");
    CHECK(gen7 != NULL && after != NULL);
    CHECK(gen5(1) == 1 + 1000 + 2);
    expect_trace("a:glmuxGen5MUX b:glmuxGen5MUX ");
    CHECK(gen7(2) == 2 + 1000 + 2);
    expect_trace("a:glmuxGen7MUX b:glmuxGen7MUX ");
    CHECK(after(3) == 3 + 1000 + 2);
    expect_trace("a:glmuxTestAfterMUX b:glmuxTestAfterMUX ");
    /* get_next of a dynamic name: below b, the bottom reaches the vendor. */
    *(void **)&gen7 = layer_next("b", "glmuxGen7MUX");
    CHECK(gen7 != NULL && gen7(4) == 4 + 1000);
    expect_trace("");
    /* A dynamic name no layer intercepts, and one asked first by a layer's get_next. */
    *(void **)&gen7 = (void *)(uintptr_t)__glDispatchGetProcAddress("glmuxGen9MUX");
    CHECK(gen7 != NULL && gen7(5) == 5 + 1000);
    expect_trace("");
    *(void **)&gen7 = layer_next("a", "glmuxGen11MUX");
    CHECK(gen7 != NULL && gen7(6) == 6 + 1000);
    expect_trace("");
    /* Another vendor: the same chains, the new vendor below. */
    __glDispatchLoseCurrent();
    CHECK(fake_make_current(&main_state, 1, NULL));
    CHECK(gen5(1) == 1 + 2000 + 2);
    expect_trace("a:glmuxGen5MUX b:glmuxGen5MUX ");
    __glDispatchLoseCurrent();
    return 0;
}

/* ---- a test inside a layer's get_proc_address (chain_layer.c calls chain_test_asked) ---- */

/* What the layers' asking about `trigger` runs (once), on the asking thread. */
static const char *ask_trigger;
static void (*ask_action)(void);
static bool ask_acted;
static pthread_mutex_t ask_lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((visibility("default"))) void chain_test_asked(const char *layer,
                                                             const char *name)
{
    bool act;

    (void)layer;
    pthread_mutex_lock(&ask_lock);
    act = ask_trigger != NULL && !ask_acted && strcmp(name, ask_trigger) == 0;
    if (act)
        ask_acted = true;
    pthread_mutex_unlock(&ask_lock);
    if (act)
        ask_action();
}

static void ask_arm(const char *trigger, void (*action)(void))
{
    pthread_mutex_lock(&ask_lock);
    ask_trigger = trigger;
    ask_action = action;
    ask_acted = false;
    pthread_mutex_unlock(&ask_lock);
}

/* The other thread of dynamic_threads: asks for other_name while a layer is being asked
 * about another name, and says when it has its answer. */
static const char *other_name;
static void *other_answer;
static bool other_done;
static pthread_cond_t other_cond = PTHREAD_COND_INITIALIZER;

static void *other_thread(void *arg)
{
    void *p = (void *)(uintptr_t)__glDispatchGetProcAddress(other_name);

    (void)arg;
    pthread_mutex_lock(&ask_lock);
    other_answer = p;
    other_done = true;
    pthread_cond_broadcast(&other_cond);
    pthread_mutex_unlock(&ask_lock);
    return NULL;
}

/* Inside a layer's get_proc_address: starts the other thread and waits until it has its
 * answer. A lock held across the layers' answers would keep it waiting: then the test ends. */
static void handshake(void)
{
    struct timespec until;
    pthread_t t;
    bool done;

    pthread_mutex_lock(&ask_lock);
    other_done = false;
    other_answer = NULL;
    pthread_mutex_unlock(&ask_lock);
    CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 20;
    pthread_mutex_lock(&ask_lock);
    while (!other_done && pthread_cond_timedwait(&other_cond, &ask_lock, &until) == 0)
        ;
    done = other_done;
    pthread_mutex_unlock(&ask_lock);
    if (!done) {
        fprintf(stderr, "FAIL: __glDispatchGetProcAddress(\"%s\") on another thread waited 20 s "
                "for a layer's answer about %s: a lock is held across the layers' answers\n",
                other_name, ask_trigger);
        _exit(1);   /* the other thread is stuck: no exit handlers */
    }
    CHECK(pthread_join(t, NULL) == 0);
}

typedef int (*gen_fn)(int);

static gen_fn gen(const char *name)
{
    gen_fn f;

    *(void **)&f = (void *)(uintptr_t)__glDispatchGetProcAddress(name);
    CHECK_MSG(f != NULL, "no stub for %s", name);
    return f;
}

/* Calls a name's stub: both layers run once each, then the vendor (vendor 0 current). */
static void check_layered(gen_fn f, const char *name)
{
    char want[128];

    snprintf(want, sizeof(want), "a:%s b:%s ", name, name);
    trace_clear();
    CHECK_MSG(f(1) == 1 + 1000 + 2, "%s(1) = %d", name, f(1));
    trace_clear();
    CHECK(f(2) == 2 + 1000 + 2);
    expect_trace(want);
}

static int mode_dynamic_threads(void)
{
    gen_fn mine, theirs;

    start("a,b", 0);
    trace_clear();
    /* Another new name, asked while the layers answer about this one. */
    other_name = "glmuxGen22MUX";
    ask_arm("glmuxGen21MUX", handshake);
    mine = gen("glmuxGen21MUX");
    CHECK(ask_acted);
    *(void **)&theirs = other_answer;
    CHECK(theirs != NULL && theirs == gen("glmuxGen22MUX") && theirs != mine);
    check_layered(mine, "glmuxGen21MUX");
    check_layered(theirs, "glmuxGen22MUX");
    /* The same new name on both threads: one slot, one chain. */
    other_name = "glmuxGen25MUX";
    ask_arm("glmuxGen25MUX", handshake);
    mine = gen("glmuxGen25MUX");
    CHECK(ask_acted);
    *(void **)&theirs = other_answer;
    CHECK_MSG(theirs == mine, "two stubs for one name: %p, %p", (void *)(uintptr_t)mine,
              other_answer);
    check_layered(mine, "glmuxGen25MUX");
    CHECK(layer_next("a", "glmuxGen25MUX") != NULL);
    __glDispatchLoseCurrent();
    return 0;
}

/* Inside a layer's get_proc_address for glmuxGen23MUX: GetProcAddress for a new name and for
 * the name being asked, and get_next for a new name. */
static void *inner_new, *inner_same, *inner_next;

static void reenter(void)
{
    inner_new = (void *)(uintptr_t)__glDispatchGetProcAddress("glmuxGen24MUX");
    inner_same = (void *)(uintptr_t)__glDispatchGetProcAddress("glmuxGen23MUX");
    inner_next = layer_next("a", "glmuxGen26MUX");
}

static int mode_dynamic_reenter(void)
{
    gen_fn outer, f;

    start("a,b", 0);
    trace_clear();
    ask_arm("glmuxGen23MUX", reenter);
    outer = gen("glmuxGen23MUX");
    CHECK(ask_acted);
    CHECK_MSG(inner_same != NULL && inner_same == (void *)(uintptr_t)outer,
              "GetProcAddress of the name being asked, from inside: %p, outside %p",
              inner_same, (void *)(uintptr_t)outer);
    CHECK_MSG(inner_new != NULL, "GetProcAddress of a new name from inside a layer: NULL");
    CHECK(inner_new == (void *)(uintptr_t)gen("glmuxGen24MUX"));
    check_layered(outer, "glmuxGen23MUX");
    *(void **)&f = inner_new;
    check_layered(f, "glmuxGen24MUX");
    /* get_next below a for a name nobody intercepts: the bottom, the vendor's function. */
    CHECK_MSG(inner_next != NULL, "get_next of a new name from inside a layer: NULL");
    *(void **)&f = inner_next;
    CHECK(f(6) == 6 + 1000);
    CHECK(inner_next == layer_next("a", "glmuxGen26MUX"));
    expect_trace("");
    __glDispatchLoseCurrent();
    return 0;
}

static int mode_android(void)
{
    start("droid,b", 0);
    CHECK(layer_mapped("droid"));
    expect_trace("b:init droid:init ");
    glClear(0);
    expect_trace("droid:glClear b:glClear ");
    CHECK(glGetError() == FAKE_GET_ERROR_RESULT(0) + 0x20);
    expect_trace("droid:glGetError b:glGetError ");
    CHECK(layer_next("droid", "glClear") != NULL);
    CHECK(layer_init_next("droid") == layer_next("droid", "glClear"));
    __glDispatchLoseCurrent();
    return 0;
}

static int patch_supported_calls;

static GLboolean patch_supported(int type, int size)
{
    (void)type;
    (void)size;
    patch_supported_calls++;
    return GL_FALSE;
}

static GLboolean patch_initiate(int type, int size, DispatchPatchLookupStubOffset lookup)
{
    (void)type;
    (void)size;
    (void)lookup;
    return GL_FALSE;
}

static const __GLdispatchPatchCallbacks patch_cb = {
    .isPatchSupported = patch_supported,
    .initiatePatch = patch_initiate,
};

/* Makes vendor 0 current with patch callbacks: asked (no GL layer) or not (a GL layer). */
static void check_patching(bool layered)
{
    fake_thread_state_init(&main_state, 0);
    patch_supported_calls = 0;
    CHECK(fake_make_current(&main_state, 0, &patch_cb));
    trace_clear();
    glClear(0);
    expect_trace(layered ? "a:glClear " : "");
#if defined(GLMUX_HAVE_ASM_STUBS)
    if (layered)
        CHECK_MSG(patch_supported_calls == 0, "patching asked %d times with a GL layer loaded",
                  patch_supported_calls);
    else
        CHECK_MSG(patch_supported_calls > 0, "patching not asked without a GL layer");
#endif
    __glDispatchLoseCurrent();
}

static int mode_patch(void)
{
    setup_layers("a");
    fake_vendors_init();
    check_patching(true);
    return 0;
}

static int mode_fork(void)
{
    pid_t pid;
    int status;

    start("a", 0);
    glClear(0);
    expect_trace("a:init a:glClear ");
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        /* The child starts without a context (as in libglvnd) and keeps the layers. */
        glClear(0);
        expect_trace("");
        CHECK(layer_mapped("a"));
        CHECK(fake_make_current(&main_state, 1, NULL));
        glClear(0);
        expect_trace("a:glClear ");
        CHECK(fake_vendors[1].calls_total == 1);
        __glDispatchLoseCurrent();
        _exit(0);
    }
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    glClear(0);
    expect_trace("a:glClear ");
    __glDispatchLoseCurrent();
    return 0;
}

static int mode_unload(void)
{
    start("a", 0);
    expect_trace("a:init ");
    CHECK(layer_mapped("a"));
    __glDispatchLoseCurrent();
    /* libOpenGL's constructor made the one __glDispatchInit: this is the last Fini. */
    __glDispatchFini();
    expect_trace("a:unload ");
    CHECK(!layer_mapped("a"));
    CHECK(!winsys()->layers_active());
    __glDispatchInit();         /* for libOpenGL's own Fini at exit */
    /* Started again: the next make-current loads the layers anew, and the table made current
     * before gets a layered twin of the new chain. */
    CHECK(fake_make_current(&main_state, 0, NULL));
    CHECK(layer_mapped("a") && winsys()->layers_active());
    glClear(0);
    expect_trace("a:init a:glClear ");
    __glDispatchLoseCurrent();
    return 0;
}

static int mode_swaponly(void)
{
    const struct glmux_dispatch_winsys *w;
    int before;

    start("swap", 0);
    CHECK(layer_mapped("swap"));
    w = winsys();
    CHECK(w->layers_active());
    expect_trace("swap:init ");
    before = fake_vendors[0].calls_total;
    glClear(0);
    expect_trace("");
    CHECK(fake_vendors[0].calls_total == before + 1);
    /* A GL layer is not loaded: the stubs read the vendor's own table. */
    CHECK(w->layer_top("glClear", 1u /* GLMUX_LAYER_API_GL */, NULL) == NULL);
    CHECK_MSG(!clear_slot_in("libglmux_chain_") && !clear_slot_in("libGLdispatch"),
              "glClear's slot: %s", clear_slot_file());
    __glDispatchLoseCurrent();
    check_patching(false);
    return 0;
}

static int mode_none(void)
{
    const struct glmux_dispatch_winsys *w;
    int before;

    start(NULL, 0);
    w = winsys();
    CHECK(!w->layers_active());
    CHECK(!any_layer_mapped());
    before = fake_vendors[0].calls_total;
    glClear(0);
    CHECK(glGetError() == FAKE_GET_ERROR_RESULT(0));
    CHECK(fake_vendors[0].calls_total == before + 2);
    expect_trace("");
    /* The stubs read the vendor's own table: glClear's slot is the vendor's function. */
    CHECK_MSG(!clear_slot_in("libglmux_chain_") && !clear_slot_in("libGLdispatch"),
              "glClear's slot: %s", clear_slot_file());
    CHECK(w->layer_top("eglSwapBuffers", 4u /* GLMUX_LAYER_API_EGL */, (void *)mode_none) ==
          NULL);
    CHECK(!any_layer_mapped());
    __glDispatchLoseCurrent();
    check_patching(false);
    return 0;
}

/* ---- vendor_waits ---- */

static struct fake_thread_state waits_other_state;
static int waits_other_calls;
static void *waits_other_name;

/* On another thread, while the vendor's getProcAddress waits: a new dynamic name (asked of
 * the layers), vendor 2 made current, a call through the layer. */
static void waits_other(void)
{
    int before = __atomic_load_n(&fake_vendors[2].calls_total, __ATOMIC_SEQ_CST);

    waits_other_name = (void *)__glDispatchGetProcAddress("glmuxChainWaitOtherMUX");
    fake_thread_state_init(&waits_other_state, 2);
    if (fake_make_current(&waits_other_state, 2, NULL)) {
        glClear(0);
        __glDispatchLoseCurrent();
    }
    waits_other_calls = __atomic_load_n(&fake_vendors[2].calls_total, __ATOMIC_SEQ_CST) - before;
}

static int mode_vendor_waits(void)
{
    __GLdispatchTable *waiting;
    int before;

    setup_layers("a");
    glmux_test_require_ours("libGLdispatch.so.0");
    fake_vendors_init();
    waiting = fake_vendor_waiting_table(0);
    CHECK(waiting != NULL);
    fake_thread_state_init(&main_state, 0);
    fake_vendor_wait_arm("glClear", waits_other, 0);
    CHECK(__glDispatchMakeCurrent(&main_state.base, waiting, fake_vendors[0].id, NULL));
    CHECK(layer_mapped("a"));
    before = fake_vendors[0].calls_total;
    glClear(0);     /* lazy tables ask the vendor here, if not at make-current */
    CHECK(fake_vendor_wait_finish() == 0);
    CHECK(fake_vendor_wait_fired());
    CHECK(fake_vendors[0].calls_total == before + 1);
    CHECK_MSG(waits_other_calls == 1, "the other thread's glClear reached vendor 2 %d times",
              waits_other_calls);
    CHECK(GLMUX_HAVE_DYNAMIC_STUBS == 0 || waits_other_name != NULL);
    trace_clear();
    glClear(0);
    expect_trace("a:glClear ");
    __glDispatchLoseCurrent();
    __glDispatchDestroyTable(waiting);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    if (strcmp(mode, "order") == 0)
        return mode_order();
    if (strcmp(mode, "exports") == 0)
        return mode_exports();
    if (strcmp(mode, "threads") == 0)
        return mode_threads();
    if (strcmp(mode, "dynamic") == 0)
        return mode_dynamic();
    if (strcmp(mode, "dynamic_threads") == 0)
        return mode_dynamic_threads();
    if (strcmp(mode, "dynamic_reenter") == 0)
        return mode_dynamic_reenter();
    if (strcmp(mode, "vendor_waits") == 0)
        return mode_vendor_waits();
    if (strcmp(mode, "android") == 0)
        return mode_android();
    if (strcmp(mode, "patch") == 0)
        return mode_patch();
    if (strcmp(mode, "fork") == 0)
        return mode_fork();
    if (strcmp(mode, "unload") == 0)
        return mode_unload();
    if (strcmp(mode, "swaponly") == 0)
        return mode_swaponly();
    if (strcmp(mode, "none") == 0)
        return mode_none();
    fprintf(stderr, "usage: %s order|exports|threads|dynamic|dynamic_threads|dynamic_reenter|"
            "vendor_waits|android|patch|fork|unload|swaponly|none\n", argv[0]);
    return 2;
}
