/* SPDX-License-Identifier: MIT */
/*
 * glmux dispatch tests: entry-point patching on every assembly flavour (x86-64, i386, AArch64,
 * ARMv7). Fake vendor 0 offers patch callbacks
 * and rewrites the glVertex3fv and glClear stubs with "count and return"; vendor 1 offers
 * callbacks too; vendor 2 (like Mesa) offers none. Checks: the owner patches; lose-current keeps
 * the patch; another vendor is refused while a thread is current with the owner and succeeds
 * (restoring the stubs, after releasePatch) once nothing is current; threadAttach runs from
 * __glDispatchCheckMultithreaded; __glDispatchForceUnpatch restores even while current.
 * With __GLVND_DISALLOW_PATCHING=1 (mode "disallowed") nothing is ever patched. Mode "race":
 * a thread calls __glDispatchCheckMultithreaded (which reads the owner's callbacks without
 * the lock) while the main thread hands the patch back and forth between two vendors; run
 * under ThreadSanitizer by scripts/test.sh.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <GL/gl.h>

#include "fake_vendor.h"
#include "glmux_constants.h"
#include "glmux_test.h"

/* Stub sets registered in this process: libGLdispatch's and libOpenGL's. */
#define SETS 2

static volatile int patched_calls;
static int release_calls;
static int attach_calls;
static int patch_calls[FAKE_VENDORS];

#if defined(__SANITIZE_THREAD__)
#define NO_TSAN __attribute__((no_sanitize_thread))
#else
#define NO_TSAN
#endif

/*
 * Writes "count and return" machine code for this architecture (instruction words from the
 * assembler, listed beside each). Byte by byte and not instrumented: ThreadSanitizer keeps a
 * read-only shadow for code pages (a vendor's patch code is not instrumented either).
 */
static NO_TSAN __attribute__((unused)) void put_bytes(volatile unsigned char *o, const void *src,
                                                size_t n)
{
    for (size_t i = 0; i < n; i++)
        o[i] = ((const unsigned char *)src)[i];
}

static NO_TSAN size_t write_counter_stub(unsigned char *out)
{
    volatile unsigned char *o = out;
#if defined(__x86_64__)
    /* movabs $&patched_calls, %rax; incl (%rax); ret */
    uint64_t addr = (uint64_t)(uintptr_t)&patched_calls;

    o[0] = 0x48;
    o[1] = 0xb8;
    put_bytes(o + 2, &addr, 8);
    o[10] = 0xff;
    o[11] = 0x00;
    o[12] = 0xc3;
    return 13;
#elif defined(__i386__)
    /* incl &patched_calls; ret */
    uint32_t addr = (uint32_t)(uintptr_t)&patched_calls;

    o[0] = 0xff;
    o[1] = 0x05;
    put_bytes(o + 2, &addr, 4);
    o[6] = 0xc3;
    return 7;
#elif defined(__aarch64__)
    /* ldr x16, 1f; ldr w17, [x16]; add w17, w17, #1; str w17, [x16]; ret; nop; 1: .quad */
    static const uint32_t code[] = { 0x580000d0, 0xb9400211, 0x11000631, 0xb9000211,
                                     0xd65f03c0, 0xd503201f };
    uint64_t addr = (uint64_t)(uintptr_t)&patched_calls;

    put_bytes(o, code, sizeof(code));
    put_bytes(o + sizeof(code), &addr, 8);
    return sizeof(code) + 8;
#elif defined(__arm__)
    /* ARM state: ldr ip, 1f; ldr r1, [ip]; add r1, r1, #1; str r1, [ip]; bx lr; 1: .word */
    static const uint32_t code[] = { 0xe59fc00c, 0xe59c1000, 0xe2811001, 0xe58c1000,
                                     0xe12fff1e };
    uint32_t addr = (uint32_t)(uintptr_t)&patched_calls;

    put_bytes(o, code, sizeof(code));
    put_bytes(o + sizeof(code), &addr, 4);
    return sizeof(code) + 4;
#else
    (void)o;
    return 0;
#endif
}

static GLboolean is_patch_supported(int type, int size)
{
    return type == GLMUX_STUB_TYPE && size >= 16;
}

static GLboolean initiate_patch(int vendor, int type, int size,
                                DispatchPatchLookupStubOffset lookup)
{
    /* "Vertex3fv": libglvnd's lookup takes names without the "gl" prefix too. */
    static const char *const names[] = { "Vertex3fv", "glClear" };

    (void)type;
    CHECK(size == GLMUX_STUB_SIZE);
    CHECK(!lookup("glNoSuchFunctionMUX", NULL, NULL));
    CHECK(!lookup("NoSuchFunctionMUX", NULL, NULL));
    /* Both stub sets (libGLdispatch's, libOpenGL's) have glVertex3fv, under either name. */
    CHECK(lookup("Vertex3fv", NULL, NULL) && lookup("glVertex3fv", NULL, NULL));
    for (size_t i = 0; i < 2; i++) {
        void *write;
        const void *exec;

        if (lookup(names[i], &write, &exec)) {
            CHECK(write == exec);
            CHECK(((uintptr_t)exec % (GLMUX_STUB_SIZE ? GLMUX_STUB_SIZE : 1)) == 0);
            write_counter_stub(write);
        }
    }
    patch_calls[vendor]++;
    return GL_TRUE;
}

static GLboolean initiate_patch0(int t, int s, DispatchPatchLookupStubOffset l)
{
    return initiate_patch(0, t, s, l);
}

static GLboolean initiate_patch1(int t, int s, DispatchPatchLookupStubOffset l)
{
    return initiate_patch(1, t, s, l);
}

static void release_patch(void)
{
    release_calls++;
}

static void thread_attach(void)
{
    __atomic_add_fetch(&attach_calls, 1, __ATOMIC_SEQ_CST);
}

static const __GLdispatchPatchCallbacks patch0 = {
    is_patch_supported, initiate_patch0, release_patch, thread_attach
};
static const __GLdispatchPatchCallbacks patch1 = {
    is_patch_supported, initiate_patch1, release_patch, thread_attach
};

static pthread_mutex_t step_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t step_cond = PTHREAD_COND_INITIALIZER;
static int step;

static void wait_step(int want)
{
    pthread_mutex_lock(&step_lock);
    while (step < want)
        pthread_cond_wait(&step_cond, &step_lock);
    pthread_mutex_unlock(&step_lock);
}

static void set_step(int value)
{
    pthread_mutex_lock(&step_lock);
    step = value;
    pthread_cond_broadcast(&step_cond);
    pthread_mutex_unlock(&step_lock);
}

static struct fake_thread_state other_state;

/* Holds vendor 0 current on a second thread from step 1 until step 2. */
static void *other_thread(void *arg)
{
    GLfloat v[3] = { 0, 0, 0 };

    (void)arg;
    fake_thread_state_init(&other_state, 0);
    if (!fake_make_current(&other_state, 0, &patch0))
        return (void *)1;
    set_step(1);
    wait_step(2);
    glVertex3fv(v);        /* after a forced unpatch this reaches vendor 0's table */
    __glDispatchLoseCurrent();
    return fake_thread_calls[0] == 1 ? NULL : (void *)2;
}

static int stop_spinning;

/* Gives the patch owner its thread hook, over and over, until told to stop. */
static void *spinner(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&stop_spinning, __ATOMIC_ACQUIRE))
        __glDispatchCheckMultithreaded();
    return NULL;
}

/* Two vendors take the patch in turn while another thread reads the owner. */
static int mode_race(void)
{
    struct fake_thread_state s;
    GLfloat v[3] = { 0, 0, 0 };
    pthread_t thread;

    fake_vendors_init();
    fake_thread_state_init(&s, 0);
    CHECK(pthread_create(&thread, NULL, spinner, NULL) == 0);
    for (int i = 0; i < 200; i++) {
        CHECK(fake_make_current(&s, i % 2, i % 2 ? &patch1 : &patch0));
        glVertex3fv(v);
        __glDispatchLoseCurrent();
    }
    __atomic_store_n(&stop_spinning, 1, __ATOMIC_RELEASE);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(patch_calls[0] == 100 * SETS && patch_calls[1] == 100 * SETS);
    CHECK(patched_calls == 200);
    printf("200 hand-overs of the patch while another thread read the owner\n");
    return 0;
}

int main(int argc, char **argv)
{
    bool disallowed = argc > 1 && strcmp(argv[1], "disallowed") == 0;
    struct fake_thread_state s;
    GLfloat v[3] = { 0, 0, 0 };
    pthread_t thread;
    void *result;

#if !GLMUX_HAVE_ASM_ENTRY
    SKIP("pure-C stubs cannot be patched");
#endif
    glmux_test_require_ours("libGLdispatch.so.0");
    glmux_test_require_ours("libOpenGL.so.0");
    if (argc > 1 && strcmp(argv[1], "race") == 0)
        return mode_race();
    fake_vendors_init();
    fake_thread_state_init(&s, 0);

    /* Vendor 0 patches at make-current. */
    CHECK(fake_make_current(&s, 0, &patch0));
    glVertex3fv(v);
    glClear(0);
    if (disallowed) {
        CHECK(patch_calls[0] == 0);
        CHECK(patched_calls == 0 && fake_thread_calls[0] == 2);
        __glDispatchLoseCurrent();
        CHECK(fake_make_current(&s, 2, NULL));
        __glDispatchLoseCurrent();
        printf("patching disallowed: calls went through the table\n");
        return 0;
    }
    /* One initiatePatch per stub set: libGLdispatch's own and libOpenGL's. */
    CHECK_MSG(patch_calls[0] == SETS, "%d", patch_calls[0]);
    CHECK_MSG(patched_calls == 2 && fake_thread_calls[0] == 0,
              "patched %d, table %d", patched_calls, fake_thread_calls[0]);
    /* The stub __glDispatchGetProcAddress gives is patched too. */
    ((void (*)(const GLfloat *))__glDispatchGetProcAddress("glVertex3fv"))(v);
    CHECK(patched_calls == 3);
    __glDispatchCheckMultithreaded();
    CHECK(attach_calls == 1);

    /* Lose-current keeps the patch; make-current by the same vendor does not repatch. */
    __glDispatchLoseCurrent();
    glVertex3fv(v);
    CHECK(patched_calls == 4);
    CHECK(fake_make_current(&s, 0, &patch0));
    CHECK(patch_calls[0] == SETS);
    __glDispatchLoseCurrent();

    /* While another thread is current with the owner, other vendors are refused. */
    CHECK(pthread_create(&thread, NULL, other_thread, NULL) == 0);
    wait_step(1);
    CHECK(!fake_make_current(&s, 1, &patch1));
    CHECK(!fake_make_current(&s, 2, NULL));
    CHECK(__glDispatchGetCurrentThreadState() == NULL);
    /* ...but the owner itself may become current on this thread too. */
    CHECK(fake_make_current(&s, 0, &patch0));
    __glDispatchLoseCurrent();
    CHECK(release_calls == 0);

    /* Force-unpatch (what libEGL/libGLX do at unload) works even while current. */
    CHECK(__glDispatchForceUnpatch(fake_vendors[0].id));
    CHECK(!__glDispatchForceUnpatch(fake_vendors[0].id)); /* nothing left to undo */
    CHECK(release_calls == 0);                              /* the owner is not called */
    set_step(2);
    CHECK(pthread_join(thread, &result) == 0);
    CHECK_MSG(result == NULL, "other thread failed: %p", result);
    glVertex3fv(v);
    CHECK(patched_calls == 4);

    /* Nothing current: vendor 0 patches again, then vendor 1 takes over, then Mesa-like 2. */
    CHECK(fake_make_current(&s, 0, &patch0));
    __glDispatchLoseCurrent();
    CHECK(patch_calls[0] == 2 * SETS);
    CHECK(fake_make_current(&s, 1, &patch1));
    CHECK(release_calls == 1 && patch_calls[1] == SETS);
    glVertex3fv(v);
    CHECK(patched_calls == 5);
    __glDispatchLoseCurrent();
    CHECK(fake_make_current(&s, 2, NULL));
    CHECK(release_calls == 2);
    glVertex3fv(v);
    CHECK(patched_calls == 5 && fake_thread_calls[2] == 1);
    __glDispatchCheckMultithreaded();
    CHECK(attach_calls == 1); /* no owner now */
    __glDispatchLoseCurrent();
    printf("patch, refusal, force-unpatch and hand-over behaved\n");
    return 0;
}
