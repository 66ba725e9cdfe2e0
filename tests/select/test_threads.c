/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the selector's lazy state under threads. Many threads start at
 * once, through a barrier, on a fresh selector under DRI_PRIME=1 (GPUs not yet enumerated) and
 * each resolves a GLX screen, the process's EGL order, or an EGL display on one of two GPUs; all
 * that ask the same question must get the same answer, and the right one. Repeated on fresh
 * selectors so that the race on the first enumeration happens again and again. The ThreadSanitizer
 * configuration of scripts/test.sh runs it (label "threads"); umockdev builds two beds: Intel
 * boot VGA and an AMD GPU, each served by its own Mesa-like vendor (each display's GPU gives
 * another answer), then Intel and NVIDIA (served by "nvidia", which DRI_PRIME does not move: one
 * answer for every screen, named without asking the display).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glmux_test.h"
#include "select/select.h"
#include "bed.h"

#define THREADS 16
#define ROUNDS 12

static const char *fake_getenv(const char *name)
{
    return strcmp(name, "DRI_PRIME") == 0 ? "1" : NULL;
}

static const struct bed_gpu intel = { "0000:00:02.0", "0x8086\n", "0x9a49\n", "0x030000\n",
                                       "i915", 1, -1, "renderD128", "active\n", NULL };
static const struct bed_gpu amd = { "0000:03:00.0", "0x1002\n", "0x73ef\n", "0x030000\n",
                                     "amdgpu", 0, -1, "renderD129", "active\n", "8589934592\n" };

static const struct bed_gpu nvidia = { "0000:01:00.0", "0x10de\n", "0x25a2\n", "0x030000\n",
                                        "nvidia", 0, -1, "renderD130", "active\n", NULL };

static char *alpha_drivers[] = { "i915" }, *beta_drivers[] = { "amdgpu" };
static char *nvidia_drivers[] = { "nvidia" };
static char *manifest_none[] = { NULL };
static struct glmux_vendor vendors[2] = {
    { .name = "alpha", .drivers = alpha_drivers, .n_drivers = 1, .has_drivers = true,
      .manifests = manifest_none },
    { .name = "beta", .drivers = beta_drivers, .n_drivers = 1, .has_drivers = true,
      .manifests = manifest_none },
};
static const struct glmux_vendor_list vendor_list = { .vendors = vendors, .count = 2 };

static struct glmux_select *sel;
static pthread_barrier_t start;

struct job {
    int kind;             /* 0 GLX screen, 1 EGL process order, 2 display on Intel, 3 on AMD */
    int screen;
    const char *answer;   /* the first vendor */
};

static void *run(void *arg)
{
    struct job *j = arg;
    struct glmux_select_candidate cands[2] = { glmux_select_candidate_of(&vendors[0]),
                                               glmux_select_candidate_of(&vendors[1]) };
    struct glmux_select_choice c;
    size_t order[2];

    pthread_barrier_wait(&start);
    switch (j->kind) {
    case 0:
        j->answer = bed_glx_vendor(sel, NULL, j->screen, &vendor_list);
        break;
    case 1:
        glmux_select_egl_vendor_order(sel, cands, 2, order);
        j->answer = cands[order[0]].name;
        break;
    default: {
        const struct glmux_gpu_list *l = glmux_select_gpus(sel);
        const struct glmux_gpu *ref = l->count == 2 ? &l->gpus[j->kind == 2 ? 0 : 1] : NULL;

        glmux_select_choose(sel, ref, cands, 2, &c);
        j->answer = c.vendor;
        break;
    }
    }
    return NULL;
}

/* Rounds of THREADS threads on fresh selectors: each kind of job must get expected[kind]. */
static void rounds(const char *const expected[4])
{
    struct glmux_select_config cfg = { fake_getenv, NULL, true, true };

    for (int round = 0; round < ROUNDS; round++) {
        pthread_t t[THREADS];
        struct job jobs[THREADS];

        sel = glmux_select_new(&cfg);
        CHECK(sel != NULL && !glmux_select_enumerated(sel));
        CHECK(pthread_barrier_init(&start, NULL, THREADS) == 0);
        for (int i = 0; i < THREADS; i++) {
            jobs[i] = (struct job){ .kind = i % 4, .screen = i % 3 };
            CHECK(pthread_create(&t[i], NULL, run, &jobs[i]) == 0);
        }
        for (int i = 0; i < THREADS; i++)
            CHECK(pthread_join(t[i], NULL) == 0);
        pthread_barrier_destroy(&start);
        for (int i = 0; i < THREADS; i++)
            CHECK_MSG(jobs[i].answer != NULL && strcmp(jobs[i].answer, expected[jobs[i].kind]) == 0,
                      "round %d, thread %d (kind %d): %s, expected %s", round, i, jobs[i].kind,
                      jobs[i].answer ? jobs[i].answer : "(none)", expected[jobs[i].kind]);
        CHECK(glmux_select_gpus(sel)->count == 2);
        /* Each reason once, however many threads gave it. */
        for (size_t a = 0; a < glmux_select_reason_count(sel); a++)
            for (size_t b = a + 1; b < glmux_select_reason_count(sel); b++)
                CHECK(strcmp(glmux_select_reason(sel, a), glmux_select_reason(sel, b)) != 0);
        glmux_select_free(sel);
    }
}

int main(void)
{
    /* DRI_PRIME=1 from the Intel GPU (the default, and display A's) is the AMD GPU: "beta";
     * from the AMD GPU (display B's, as in reverse PRIME) it is the Intel GPU: "alpha". */
    static const char *const intel_amd[4] = { "beta", "beta", "beta", "alpha" };
    /* Intel + NVIDIA: DRI_PRIME=1 from the Intel GPU names the NVIDIA one, which "nvidia" does
     * not render on by DRI_PRIME (unmet: Intel's vendor stays); from the NVIDIA GPU (reverse
     * PRIME) it is the Intel GPU, where "alpha" goes by DRI_PRIME. So "alpha" everywhere, and a
     * GLX screen gets it whichever GPU it is on. */
    static const char *const intel_nvidia[4] = { "alpha", "alpha", "alpha", "alpha" };

    bed_require();
    bed_new();
    bed_add_gpu(&intel);
    bed_add_gpu(&amd);
    rounds(intel_amd);
    /* The same testbed (a second one in a process upsets umockdev's worker thread under TSan). */
    bed_remove("/sys/devices/pci0000:00/0000:03:00.0");
    bed_add_gpu(&nvidia);
    vendors[1].name = "nvidia";
    vendors[1].drivers = nvidia_drivers;
    rounds(intel_nvidia);
    bed_free();
    return 0;
}
