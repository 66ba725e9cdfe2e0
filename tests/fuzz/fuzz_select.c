/* SPDX-License-Identifier: MIT */
/*
 * glmux fuzz target: the GPU selector as a whole (src/select: enumeration through the real
 * libdrm and libudev, the kind and default rules, the requests and their precedence, the EGL
 * order, the GLX choice and the variables a vendor gets) over a fake machine that each input
 * describes. It runs under umockdev-wrapper, with one umockdev test bed made at start-up and
 * emptied before each input, which then fills it: beds made per input left descriptors open
 * after g_object_unref (eventfds and sockets, a few an input), and the process ran out of them
 * after about 10,000 inputs.
 * The input is lines:
 *
 *   gpu SLOT VENDOR DEVICE [key=value...]   a PCI display device; SLOT is dddd:bb:dd.f, VENDOR
 *                                           and DEVICE the sysfs texts ("0x10de"); keys:
 *                                           class driver vga display render card power vram,
 *                                           and prop.NAME (a udev property of its render node)
 *   env NAME=VALUE                          a variable the selector reads
 *   vendor NAME [DRIVER,DRIVER...]          a candidate (no list: the built-in driver table)
 *   display TAG                             the display server's GPU
 *
 * Every value is text without spaces as sysfs could hold it; slots and names are checked the
 * way a kernel would make them, and a second device at a slot or DRM minor already used is
 * left out, so the bed itself is always well-formed. Checks: the list is in
 * PCI order with at most one default, the EGL order is a permutation (or, with '!', a subset),
 * names and variables written are terminated, and choosing twice gives the same answer.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include <umockdev.h>

#include "fuzz.h"
#include "select/select.h"

#define MAX_VENDORS 8
#define MAX_ENV 8

static struct {
    char *names[MAX_ENV];
    char *values[MAX_ENV];
    size_t count;
} env;

/* The one test bed; umockdev_testbed_clear empties it for each input. */
static UMockdevTestbed *bed;

/* Inputs run, and those whose bed the selector listed a GPU from: none of many means the beds
 * lack something libdrm or libudev needs, and the run fuzzes an empty machine. */
static unsigned long inputs_run, inputs_listing;

static const char *fake_getenv(const char *name)
{
    const char *found = NULL;

    for (size_t i = 0; i < env.count; i++)
        if (strcmp(env.names[i], name) == 0)
            found = env.values[i];
    return found;
}

/* At exit: how many inputs listed a GPU, and the test bed removed (its directory in $TMPDIR). */
static void report_listing(void)
{
    if (bed != NULL)
        g_object_unref(bed);
    bed = NULL;
    fprintf(stderr, "glmux-fuzz: select: %lu of %lu inputs listed a GPU\n", inputs_listing,
            inputs_run);
    if (inputs_run >= 20 && inputs_listing == 0)
        fprintf(stderr, "glmux-fuzz: FAIL: the selector listed no GPU from any of %lu beds; "
                "see what libdrm reads (drmGetDevices2) that add_gpu does not write\n",
                inputs_run);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *preload = getenv("LD_PRELOAD");

    (void)argc;
    (void)argv;
    if (preload == NULL || strstr(preload, "libumockdev-preload") == NULL) {
        fprintf(stderr, "fuzz_select: run it under umockdev-wrapper (it builds umockdev beds)\n");
        exit(2);
    }
    glmux_fuzz_quiet_log();
    bed = umockdev_testbed_new();
    atexit(report_listing);
    return 0;
}

/* A token a sysfs attribute or udev property could hold: printable, no space, bounded. */
static bool plain(const char *s, size_t max)
{
    size_t n = strlen(s);

    if (n == 0 || n > max)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isgraph((unsigned char)s[i]) || s[i] == '\\')
            return false;
    return true;
}

static bool name_like(const char *s, size_t max)
{
    size_t n = strlen(s);

    if (n == 0 || n > max)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
            return false;
    return true;
}

static void append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

/* Slots and DRM minors already in the bed: umockdev aborts on a second device at one path. */
static struct {
    char slots[16][16];
    size_t n_slots;
    bool minors[256];
} used;

/* One "gpu" line into umockdev records (the PCI device, its card and render nodes). */
static void add_gpu(char *fields)
{
    char text[4096] = "", props[1024] = "", *save = NULL;
    const char *slot = strtok_r(fields, " ", &save);
    const char *vendor = strtok_r(NULL, " ", &save), *device = strtok_r(NULL, " ", &save);
    const char *klass = "0x030000", *driver = NULL, *power = NULL, *vram = NULL;
    int vga = -1, display = -1, render = -1, card = -1;
    unsigned dom, bus, dev, fn;
    char tail;

    if (slot == NULL || vendor == NULL || device == NULL || !plain(vendor, 16) ||
        !plain(device, 16) || sscanf(slot, "%4x:%2x:%2x.%1x%c", &dom, &bus, &dev, &fn, &tail) != 4 ||
        dev > 0x1f || fn > 7)
        return;
    for (char *kv; (kv = strtok_r(NULL, " ", &save)) != NULL;) {
        char *eq = strchr(kv, '=');

        if (eq == NULL || !plain(eq + 1, 64))
            continue;
        *eq = '\0';
        if (strcmp(kv, "class") == 0)
            klass = eq + 1;
        else if (strcmp(kv, "driver") == 0 && name_like(eq + 1, 31))
            driver = eq + 1;
        else if (strcmp(kv, "vga") == 0)
            vga = eq[1] == '1';
        else if (strcmp(kv, "display") == 0)
            display = eq[1] == '1';
        else if (strcmp(kv, "render") == 0)
            render = 128 + atoi(eq + 1) % 64;
        else if (strcmp(kv, "card") == 0)
            card = atoi(eq + 1) % 64;
        else if (strcmp(kv, "power") == 0)
            power = eq + 1;
        else if (strcmp(kv, "vram") == 0)
            vram = eq + 1;
        else if (strncmp(kv, "prop.", 5) == 0 && name_like(kv + 5, 40))
            append(props, sizeof(props), "E: %s=%s\n", kv + 5, eq + 1);
    }
    {
        char canon[16];

        snprintf(canon, sizeof(canon), "%04x:%02x:%02x.%x", dom, bus, dev, fn);
        for (size_t i = 0; i < used.n_slots; i++)
            if (strcmp(used.slots[i], canon) == 0)
                return;
        if (used.n_slots == 16 || (card >= 0 && used.minors[card]) ||
            (render >= 0 && used.minors[render]))
            return;
        memcpy(used.slots[used.n_slots++], canon, sizeof(canon));
        if (card >= 0)
            used.minors[card] = true;
        if (render >= 0)
            used.minors[render] = true;
    }
    snprintf(text, sizeof(text),
             "P: /devices/pci0000:00/%04x:%02x:%02x.%x\nE: SUBSYSTEM=pci\n"
             "E: PCI_SLOT_NAME=%04x:%02x:%02x.%x\n", dom, bus, dev, fn, dom, bus, dev, fn);
    if (driver != NULL)
        append(text, sizeof(text), "E: DRIVER=%s\n", driver);
    /* libdrm's drmGetDevices2 reads subsystem_vendor and subsystem_device too and leaves out
     * a device without them: with neither, the selector saw no GPU in any input. */
    append(text, sizeof(text),
           "A: vendor=%s\nA: device=%s\nA: subsystem_vendor=0x0000\nA: subsystem_device=0x0000\n"
           "A: class=%s\n", vendor, device, klass);
    if (vga >= 0)
        append(text, sizeof(text), "A: boot_vga=%d\n", vga);
    if (display >= 0)
        append(text, sizeof(text), "A: boot_display=%d\n", display);
    if (power != NULL)
        append(text, sizeof(text), "A: power/runtime_status=%s\n", power);
    if (vram != NULL)
        append(text, sizeof(text), "A: mem_info_vram_total=%s\n", vram);
    if (driver != NULL)
        append(text, sizeof(text), "L: driver=../../../bus/pci/drivers/%s\n", driver);
    /* Each node is a plain file ("N: name=contents"): for a node without contents umockdev
     * opens a pty that it keeps until the bed is freed, and asserts when a later input makes a
     * node of the same name in the emptied bed. Nothing opens the nodes (libdrm lists them with
     * stat, which umockdev answers as for a character device). */
    for (int k = 0; k < 2; k++) {
        char node[16];
        int minor = k == 0 ? card : render;

        if (minor < 0)
            continue;
        snprintf(node, sizeof(node), k == 0 ? "card%d" : "renderD%d", minor);
        append(text, sizeof(text),
               "\nP: /devices/pci0000:00/%04x:%02x:%02x.%x/drm/%s\nN: dri/%s=00\nE: SUBSYSTEM=drm\n"
               "E: DEVNAME=/dev/dri/%s\nE: DEVTYPE=drm_minor\n"
               "E: ID_PATH_TAG=pci-%04x_%02x_%02x_%x\n%sA: dev=226:%d\n"
               "L: device=../../../%04x:%02x:%02x.%x\n", dom, bus, dev, fn, node, node, node,
               dom, bus, dev, fn, k == 1 ? props : "", minor, dom, bus, dev, fn);
    }
    /* A bed umockdev refuses (two devices at one slot, say) is just not added. */
    umockdev_testbed_add_from_string(bed, text, NULL);
}

static bool pci_before(const char *a, const char *b)
{
    unsigned x[4], y[4];

    if (sscanf(a, "%x:%x:%x.%x", &x[0], &x[1], &x[2], &x[3]) != 4 ||
        sscanf(b, "%x:%x:%x.%x", &y[0], &y[1], &y[2], &y[3]) != 4)
        return true;
    for (int i = 0; i < 4; i++)
        if (x[i] != y[i])
            return x[i] < y[i];
    return false;
}

static void check_list(const struct glmux_gpu_list *l)
{
    int defaults = 0;

    GLMUX_FUZZ_CHECK(l->default_index >= -1 && l->default_index < (int)l->count);
    for (size_t i = 0; i < l->count; i++) {
        const struct glmux_gpu *g = &l->gpus[i];

        defaults += g->is_default;
        GLMUX_FUZZ_CHECK(memchr(g->tag, '\0', sizeof(g->tag)) != NULL);
        GLMUX_FUZZ_CHECK(memchr(g->driver, '\0', sizeof(g->driver)) != NULL);
        GLMUX_FUZZ_CHECK(memchr(g->vendor, '\0', sizeof(g->vendor)) != NULL);
        GLMUX_FUZZ_CHECK(glmux_gpu_kind_name(g->kind) != NULL);
        if (i > 0 && g->bus == GLMUX_BUS_PCI && l->gpus[i - 1].bus == GLMUX_BUS_PCI)
            GLMUX_FUZZ_CHECK(pci_before(l->gpus[i - 1].pci, g->pci));
    }
    GLMUX_FUZZ_CHECK(defaults <= 1);
    GLMUX_FUZZ_CHECK(l->default_index < 0 || l->gpus[l->default_index].is_default);
}

/* The first vendor of the GLX plan, or NULL when the X server's list comes first. */
static const char *glx_vendor(struct glmux_select *sel, int screen)
{
    struct glmux_glx_step plan[GLMUX_GLX_PLAN_MAX];

    glmux_select_glx_plan(sel, NULL, screen, NULL, plan);
    return plan[0].kind == GLMUX_GLX_STEP_VENDOR ? plan[0].name : NULL;
}

static void check_env(const struct glmux_select_env *e, size_t n, size_t max)
{
    GLMUX_FUZZ_CHECK(n <= max);
    for (size_t i = 0; i < n; i++) {
        GLMUX_FUZZ_CHECK(e[i].name != NULL && e[i].name[0] != '\0');
        GLMUX_FUZZ_CHECK(memchr(e[i].value, '\0', sizeof(e[i].value)) != NULL);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *save = NULL;
    struct glmux_select_candidate cands[MAX_VENDORS];
    char *cand_drivers[MAX_VENDORS][9];
    size_t n_cands = 0, order[MAX_VENDORS], again[MAX_VENDORS], n_order;
    const char *display_tag = NULL;
    struct glmux_select_config config = { 0 };
    struct glmux_select *sel;

    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    memset(&env, 0, sizeof(env));
    memset(&used, 0, sizeof(used));
    inputs_run++;
    umockdev_testbed_clear(bed);
    for (char *line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "gpu ", 4) == 0) {
            add_gpu(line + 4);
        } else if (strncmp(line, "env ", 4) == 0 && env.count < MAX_ENV) {
            char *eq = strchr(line + 4, '=');

            if (eq != NULL) {
                *eq = '\0';
                env.names[env.count] = line + 4;
                env.values[env.count++] = eq + 1;
            }
        } else if (strncmp(line, "vendor ", 7) == 0 && n_cands < MAX_VENDORS) {
            char *vsave = NULL, *name = strtok_r(line + 7, " ", &vsave);
            char *list = strtok_r(NULL, " ", &vsave), *dsave = NULL;
            size_t nd = 0;

            if (name == NULL)
                continue;
            for (char *d = list ? strtok_r(list, ",", &dsave) : NULL; d != NULL && nd < 8;
                 d = strtok_r(NULL, ",", &dsave))
                cand_drivers[n_cands][nd++] = d;
            cand_drivers[n_cands][nd] = NULL;
            cands[n_cands].name = name;
            cands[n_cands].drivers = list ? (const char *const *)cand_drivers[n_cands] : NULL;
            cands[n_cands].n_drivers = nd;
            n_cands++;
        } else if (strncmp(line, "display ", 8) == 0) {
            display_tag = line + 8;
        }
    }

    config.getenv = fake_getenv;
    config.keep_reasons = true;
    sel = glmux_select_new(&config);
    if (sel != NULL) {
        const struct glmux_gpu_list *l = glmux_select_gpus(sel);
        const struct glmux_gpu *chosen = glmux_select_chosen_gpu(sel);
        const char *glx, *glx_again;
        struct glmux_select_env out[GLMUX_SELECT_ENV_MAX];
        bool seen[MAX_VENDORS] = { false };

        GLMUX_FUZZ_CHECK(l != NULL);
        check_list(l);
        inputs_listing += l->count > 0;
        GLMUX_FUZZ_CHECK(chosen == NULL || (chosen >= l->gpus && chosen < l->gpus + l->count));
        GLMUX_FUZZ_CHECK(glmux_select_chosen_gpu(sel) == chosen);

        n_order = glmux_select_egl_vendor_order(sel, cands, n_cands, order);
        GLMUX_FUZZ_CHECK(n_order <= n_cands);
        GLMUX_FUZZ_CHECK(n_order == n_cands || glmux_select_request(sel)->exclusive);
        for (size_t i = 0; i < n_order; i++) {
            GLMUX_FUZZ_CHECK(order[i] < n_cands && !seen[order[i]]);
            seen[order[i]] = true;
        }
        GLMUX_FUZZ_CHECK(glmux_select_egl_vendor_order(sel, cands, n_cands, again) == n_order);
        GLMUX_FUZZ_CHECK(memcmp(order, again, n_order * sizeof(order[0])) == 0);

        /* A display on the GPU the input names: the choice is one of the listed GPUs. */
        if (display_tag != NULL) {
            struct glmux_select_choice c;

            glmux_select_choose(sel, glmux_gpu_list_find(l, display_tag), cands, n_cands, &c);
            GLMUX_FUZZ_CHECK(c.gpu == NULL || (c.gpu >= l->gpus && c.gpu < l->gpus + l->count));
            GLMUX_FUZZ_CHECK(memchr(c.why, '\0', sizeof(c.why)) != NULL);
        }

        for (int screen = 0; screen < 2; screen++) {
            struct glmux_glx_step plan[GLMUX_GLX_PLAN_MAX];
            size_t steps = glmux_select_glx_plan(sel, NULL, screen, NULL, plan);

            GLMUX_FUZZ_CHECK(steps >= 1 && steps <= GLMUX_GLX_PLAN_MAX);
            for (size_t i = 0; i < steps; i++) {
                GLMUX_FUZZ_CHECK(plan[i].why != NULL);
                GLMUX_FUZZ_CHECK(plan[i].kind == GLMUX_GLX_STEP_SERVER ||
                                 (plan[i].name != NULL && plan[i].name[0] != '\0'));
            }
            glx = glx_vendor(sel, screen);
            glx_again = glx_vendor(sel, screen);
            GLMUX_FUZZ_CHECK((glx == NULL) == (glx_again == NULL));
            GLMUX_FUZZ_CHECK(glx == NULL || strcmp(glx, glx_again) == 0);
            GLMUX_FUZZ_CHECK((glx == NULL) == (plan[0].kind == GLMUX_GLX_STEP_SERVER));
        }
        for (size_t i = 0; i < n_cands; i++) {
            const struct glmux_gpu *lands = glmux_select_vendor_lands(sel, cands[i].name, NULL);

            GLMUX_FUZZ_CHECK(lands == NULL || (lands >= l->gpus && lands < l->gpus + l->count));
            for (size_t g = 0; g < l->count; g++)
                check_env(out, glmux_select_vendor_env(sel, cands[i].name, &l->gpus[g], chosen,
                                                       out), 2);
            if (chosen != NULL)
                (void)glmux_select_candidate_serves(&cands[i], chosen);
        }
        for (size_t i = 0; i < l->count; i++)
            check_env(out, glmux_select_launch_env(sel, &l->gpus[i], out), GLMUX_SELECT_ENV_MAX);
        for (size_t i = 0; i < glmux_select_reason_count(sel); i++)
            (void)strlen(glmux_select_reason(sel, i));
        glmux_select_free(sel);
    }
    free(text);
    return 0;
}
