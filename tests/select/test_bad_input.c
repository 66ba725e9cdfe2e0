/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: GPU enumeration on broken or hostile machines (umockdev test beds built here;
 * ctest runs the test under umockdev-wrapper). Each case gives at most one warning, the default
 * choice (vendors in their base order when nothing can be chosen) and never a crash: no /sys
 * (an empty testbed), a display device without DRM nodes, DRM nodes udev has no record of (no
 * udev database, as without /run/udev), a udev database and sysfs with odd values (unknown
 * classes, control characters, strings of thousands of bytes, a boot_vga of "yes", numbers that
 * are not), and a GPU that vanishes while it is enumerated: between libdrm's listing and
 * udev's lookup (its /sys/class/drm link is gone), and between libdrm's two passes (removed, or
 * a new one added, when libdrm opens /dev/dri the second time; opendir is interposed).
 * Warnings are counted on stderr, which each case sends to a file of its own.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glmux_test.h"
#include "select/select.h"
#include "bed.h"

/* ---- the environment the selector sees ----------------------------------------------------- */

static const char *var_name, *var_value;

static const char *fake_getenv(const char *name)
{
    return var_name != NULL && strcmp(name, var_name) == 0 ? var_value : NULL;
}

static const char *const mesa_drivers[] = { "i915", "amdgpu", "nouveau" };
static const struct glmux_select_candidate nv_mesa[2] = {
    { "nvidia", NULL, 0 },
    { "mesa", mesa_drivers, 3 },
};

/* ---- warnings: stderr goes to a file while a selector runs ---------------------------------- */

static char err_path[4096];
static int saved_stderr = -1;

static void capture_start(void)
{
    int fd;

    snprintf(err_path, sizeof(err_path), "%s/stderr.txt", bed_root());
    fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    CHECK(fd >= 0);
    fflush(stderr);
    saved_stderr = dup(STDERR_FILENO);
    CHECK(saved_stderr >= 0 && dup2(fd, STDERR_FILENO) == STDERR_FILENO);
    close(fd);
}

/* The first warning of the last run (whole, however long). */
static char w[8192];

/* Restores stderr; returns the number of "glmux:" lines written, the first one in w. */
static int capture_end(void)
{
    char line[sizeof(w)];
    FILE *f;
    int n = 0;

    fflush(stderr);
    CHECK(dup2(saved_stderr, STDERR_FILENO) == STDERR_FILENO);
    close(saved_stderr);
    w[0] = '\0';
    f = fopen(err_path, "r");
    CHECK(f != NULL);
    while (fgets(line, sizeof(line), f) != NULL) {
        fputs(line, stderr);   /* shown in the test's log too */
        if (strncmp(line, "glmux:", 6) != 0)
            continue;
        if (n++ == 0)
            memcpy(w, line, sizeof(w));
    }
    fclose(f);
    return n;
}

/*
 * Runs one selector under variable name=value the way libEGL does (the EGL order over the two
 * candidates, which enumerates), checks that the order is a permutation and returns the number
 * of warnings (the first in w). *sel_out keeps the selector for more checks (the caller frees it).
 */
static int run(const char *name, const char *value, struct glmux_select **sel_out)
{
    struct glmux_select_config cfg = { fake_getenv, NULL, true, false };
    struct glmux_select *sel;
    size_t order[2];
    int warnings;

    var_name = name;
    var_value = value;
    capture_start();
    sel = glmux_select_new(&cfg);
    CHECK(sel != NULL);
    CHECK(glmux_select_egl_vendor_order(sel, nv_mesa, 2, order) >= 1);
    CHECK(order[0] < 2);
    (void)glmux_select_chosen_gpu(sel);
    warnings = capture_end();
    *sel_out = sel;
    return warnings;
}

static void expect_order(struct glmux_select *sel, const char *first)
{
    size_t order[2];

    CHECK(glmux_select_egl_vendor_order(sel, nv_mesa, 2, order) == 2);
    CHECK_MSG(strcmp(nv_mesa[order[0]].name, first) == 0, "first %s, expected %s",
              nv_mesa[order[0]].name, first);
}

/* ---- beds ----------------------------------------------------------------------------------- */

static const struct bed_gpu intel = { "0000:00:02.0", "0x8086\n", "0x9a49\n", "0x030000\n",
                                       "i915", 1, -1, "renderD128", "active\n", NULL };
static const struct bed_gpu nvidia = { "0000:01:00.0", "0x10de\n", "0x25a2\n", "0x030200\n",
                                        "nvidia", -1, -1, "renderD129", "suspended\n", NULL };

#define NV_PCI "/sys/devices/pci0000:00/0000:01:00.0"

/* No /sys/devices at all (a container without /sys). */
static void test_no_sysfs(void)
{
    struct glmux_select *sel;

    bed_new();
    CHECK_MSG(run(NULL, NULL, &sel) == 0, "%s", w);   /* nothing was asked */
    CHECK(glmux_select_gpus(sel)->sysfs_missing && glmux_select_chosen_gpu(sel) == NULL);
    expect_order(sel, "nvidia");
    glmux_select_free(sel);
    CHECK_MSG(run("DRI_PRIME", "1", &sel) == 1, "%s", w);
    CHECK_MSG(strstr(w, "cannot enumerate GPUs") != NULL, "%s", w);
    CHECK(bed_request_unmet(sel));
    expect_order(sel, "nvidia");
    glmux_select_free(sel);
    bed_free();
}

/* A display-class PCI device whose driver made no DRM node (no drm class). */
static void test_no_drm_class(void)
{
    struct glmux_select *sel;
    struct bed_gpu g = intel;

    bed_new();
    g.render = NULL;
    bed_add_gpu(&g);
    CHECK_MSG(run(NULL, NULL, &sel) == 0, "%s", w);
    CHECK(!glmux_select_gpus(sel)->sysfs_missing && glmux_select_gpus(sel)->count == 0);
    expect_order(sel, "nvidia");
    glmux_select_free(sel);
    CHECK_MSG(run("GLMUX_GPU", "discrete", &sel) == 1, "%s", w);
    CHECK(bed_request_unmet(sel) && glmux_select_chosen_gpu(sel) == NULL);
    expect_order(sel, "nvidia");
    glmux_select_free(sel);
    bed_free();
}

/* The DRM nodes and PCI devices as the kernel alone describes them: no udev database. */
static void add_kernel_only(const struct bed_gpu *g, unsigned minor)
{
    char text[2048];

    snprintf(text, sizeof(text),
             "P: /devices/pci0000:00/%s\nE: SUBSYSTEM=pci\nE: DRIVER=%s\nE: PCI_SLOT_NAME=%s\n"
             "A: vendor=%.6s\nA: device=%.6s\nA: class=%.8s\nA: subsystem_vendor=0x0000\n"
             "A: subsystem_device=0x0000\nA: boot_vga=%d\nL: driver=../../../bus/pci/drivers/%s\n"
             "\nP: /devices/pci0000:00/%s/drm/renderD%u\nN: dri/renderD%u\nE: SUBSYSTEM=drm\n"
             "E: DEVNAME=/dev/dri/renderD%u\nE: DEVTYPE=drm_minor\nA: dev=226:%u\n"
             "L: device=../../../%s\n",
             g->slot, g->driver, g->slot, g->vendor, g->device, g->class_code,
             g->boot_vga > 0, g->driver, g->slot, minor, minor, minor, minor, g->slot);
    bed_add(text);
}

static void test_no_udev_database(void)
{
    struct glmux_select *sel;
    const struct glmux_gpu_list *l;

    bed_new();
    add_kernel_only(&intel, 128);
    add_kernel_only(&nvidia, 129);
    /* Nothing asked: no warning; explain's reasons say it. */
    CHECK_MSG(run(NULL, NULL, &sel) == 0, "%s", w);
    l = glmux_select_gpus(sel);
    CHECK(l->count == 2 && strstr(l->no_udev_record, "pci-0000_01_00_0") != NULL);
    CHECK(l->gpus[0].udev_tag[0] == '\0' && l->gpus[0].boot_vga && l->gpus[0].is_default);
    CHECK(strcmp(l->gpus[1].driver, "nvidia") == 0);   /* sysfs still names the driver */
    {
        bool said = false;
        for (size_t i = 0; i < glmux_select_reason_count(sel); i++)
            said |= strstr(glmux_select_reason(sel, i), "udev has no record") != NULL;
        CHECK(said);
    }
    expect_order(sel, "mesa");
    glmux_select_free(sel);
    /* Asked: one warning, and the choice made from libdrm's and sysfs' facts. */
    CHECK_MSG(run("__NV_PRIME_RENDER_OFFLOAD", "1", &sel) == 1, "%s", w);
    CHECK_MSG(strstr(w, "/run/udev") != NULL, "%s", w);
    CHECK(!bed_request_unmet(sel));
    CHECK(strcmp(glmux_select_chosen_gpu(sel)->tag, "pci-0000_01_00_0") == 0);
    expect_order(sel, "nvidia");
    glmux_select_free(sel);
    bed_free();
}

/* Odd values everywhere: ignored, the first one warned about, never a crash or a wrong pick. */
static void test_odd_values(void)
{
    static char huge[6000], extra_intel[7000], extra_nv[14000];
    struct glmux_select *sel;
    const struct glmux_gpu_list *l;
    struct bed_gpu in = intel, nv = nvidia;

    memset(huge, 'x', sizeof(huge) - 1);
    /* An escape sequence and a byte that is not UTF-8 in a udev value, then thousands of x. */
    snprintf(extra_intel, sizeof(extra_intel), "E: GLMUX_GPU_CLASS=\x1b[31mred%s\n", huge);
    snprintf(extra_nv, sizeof(extra_nv),
             "E: GLMUX_VENDOR=%s\nE: GLMUX_IGNORE=maybe\nE: ID_PATH_TAG=pci-%s\n", huge, huge);
    bed_new();
    in.boot_vga = -1;
    in.power = "\x1b]0;title\x07";
    nv.class_code = "zz\n";
    bed_add_gpu_with(&in, extra_intel);
    /* boot_vga "yes" on the NVIDIA GPU: today it read as 1 and made it the default. */
    bed_add_gpu_with(&nv, extra_nv);
    bed_set_attr(NV_PCI, "boot_vga", "yes");
    bed_set_attr(NV_PCI, "mem_info_vram_total", "-1");
    CHECK_MSG(run(NULL, NULL, &sel) == 1, "%s", w);
    CHECK_MSG(strlen(w) < 400 && strchr(w, '\x1b') == NULL, "%s", w);
    CHECK_MSG(strstr(w, "; ignored") != NULL, "%s", w);   /* libdrm's order decides which */
    l = glmux_select_gpus(sel);
    CHECK(l->count == 2);
    CHECK(!l->gpus[0].kind_from_udev && l->gpus[0].kind == GLMUX_GPU_INTEGRATED);
    CHECK(!l->gpus[1].boot_vga && l->gpus[1].vram == 0 && l->gpus[1].class_code == 0);
    CHECK(l->gpus[1].vendor[0] == '\0' && l->gpus[1].udev_tag[0] == '\0');
    CHECK(l->gpus[0].is_default);   /* the first GPU in PCI order, not the bogus boot_vga */
    expect_order(sel, "mesa");
    glmux_select_free(sel);

    /* Each odd value alone is warned about, once. */
    /* {attribute (A) or property (E), name, value} */
    static const char *const alone[][3] = {
        { "A", "boot_vga", "2" }, { "A", "boot_vga", "" }, { "A", "boot_vga", "1 1" },
        { "A", "mem_info_vram_total", "12abc" },
        { "A", "mem_info_vram_total", "99999999999999999999999" },
        { "A", "class", "0x" }, { "A", "class", "0x1000000" }, { "E", "GLMUX_IGNORE", "yes" }, { "E", "GLMUX_VENDOR", "a/b" },
        { "E", "GLMUX_GPU_CLASS", "Discrete GPU" },
        { "E", "GLMUX_GPU_CLASS", "\x1b[2J\x1b]0;pwned\x07" }, { "E", "GLMUX_VENDOR", "\xff\xfe" },
    };
    for (size_t i = 0; i < sizeof(alone) / sizeof(alone[0]); i++) {
        bed_new();
        bed_add_gpu(&intel);
        bed_add_gpu(&nvidia);
        if (alone[i][0][0] == 'A')
            bed_set_attr(NV_PCI, alone[i][1], alone[i][2]);
        else
            bed_set_prop(NV_PCI "/drm/renderD129", alone[i][1], alone[i][2]);
        CHECK_MSG(run("__NV_PRIME_RENDER_OFFLOAD", "1", &sel) == 1, "%s=%s: %s", alone[i][1],
                  alone[i][2], w);
        CHECK_MSG(strstr(w, alone[i][1]) != NULL && strchr(w, '\x1b') == NULL &&
                  strchr(w, '\x07') == NULL && strchr(w, '\xff') == NULL, "%s", w);
        l = glmux_select_gpus(sel);
        CHECK_MSG(l->count == 2 && !l->gpus[1].boot_vga && l->gpus[0].is_default, "%s",
                  alone[i][1]);
        CHECK(strcmp(glmux_select_chosen_gpu(sel)->tag, "pci-0000_01_00_0") == 0);
        glmux_select_free(sel);
    }
    bed_free();
}

/* ---- a GPU that vanishes ------------------------------------------------------------------- */

/* What to do when libdrm opens /dev/dri for its second pass: 0 nothing, 1 unplug the NVIDIA
 * GPU, 2 plug in another one. */
static int on_second_pass;
static int dri_opens;

__attribute__((visibility("default"))) DIR *opendir(const char *path)
{
    DIR *(*real)(const char *) = (DIR * (*)(const char *)) dlsym(RTLD_NEXT, "opendir");
    static int busy;

    if (!busy && strcmp(path, "/dev/dri") == 0 && ++dri_opens == 2) {
        busy = 1;   /* umockdev itself may list directories */
        if (on_second_pass == 1)
            bed_remove(NV_PCI);
        if (on_second_pass == 2) {
            struct bed_gpu more = nvidia;
            more.slot = "0000:02:00.0";
            more.render = "renderD130";
            bed_add_gpu(&more);
        }
        busy = 0;
    }
    return real(path);
}

static void test_vanish(void)
{
    struct glmux_select *sel;
    const struct glmux_gpu_list *l;
    char path[4096];

    /* Listed by libdrm, gone when udev is asked: its /sys/class/drm entry disappeared. */
    bed_new();
    bed_add_gpu(&intel);
    bed_add_gpu(&nvidia);
    snprintf(path, sizeof(path), "%s/sys/class/drm/renderD129", bed_root());
    CHECK(unlink(path) == 0);
    CHECK_MSG(run(NULL, NULL, &sel) == 1, "%s", w);
    CHECK_MSG(strstr(w, "pci-0000_01_00_0 vanished") != NULL, "%s", w);
    l = glmux_select_gpus(sel);
    CHECK(l->count == 2 && l->gpus[0].is_default);
    CHECK(l->gpus[1].driver[0] == '\0' && l->gpus[1].vendor_id == 0x10de);   /* libdrm's facts */
    expect_order(sel, "mesa");
    glmux_select_free(sel);

    /* Between libdrm's counting pass and its filling pass: unplugged, then plugged in. */
    for (int mode = 1; mode <= 2; mode++) {
        bed_new();
        bed_add_gpu(&intel);
        bed_add_gpu(&nvidia);
        on_second_pass = mode;
        dri_opens = 0;
        CHECK_MSG(run(NULL, NULL, &sel) == 0, "%s", w);
        on_second_pass = 0;
        CHECK_MSG(dri_opens >= 2, "libdrm opened /dev/dri %d time(s)", dri_opens);
        l = glmux_select_gpus(sel);
        CHECK_MSG(l->count == (mode == 1 ? 1u : 2u), "mode %d: %zu GPUs", mode, l->count);
        CHECK(l->default_index >= 0);
        /* Unplugged: the Intel GPU alone. Plugged in: libdrm's first two of three, in its
         * directory order, so which two is not asserted. */
        if (mode == 1) {
            CHECK(strcmp(l->gpus[0].tag, "pci-0000_00_02_0") == 0 && l->gpus[0].is_default);
            expect_order(sel, "mesa");
        }
        glmux_select_free(sel);
    }
    bed_free();
}

int main(void)
{
    bed_require();
    test_no_sysfs();
    test_no_drm_class();
    test_no_udev_database();
    test_odd_values();
    test_vanish();
    return 0;
}
