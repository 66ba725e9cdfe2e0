/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: parsing GLMUX_GPU (glmux's lenient forms: keywords, any case of "pci-", PCI
 * addresses, '!', malformed values refused) and DRI_PRIME, read exactly as Mesa's OpenGL loader
 * reads it: sscanf("%hx:%hx") first, then atoi(), every spelling users write ("1",
 * "1abc", " 1", "pci-…", "pci-…!", "vid:did", upper case, "0000:01:00.0", "0", "-1").
 */
#include <string.h>

#include "glmux_test.h"
#include "select/select.h"

static struct glmux_gpu_request ok(const char *v)
{
    struct glmux_gpu_request r;
    char err[200];

    CHECK_MSG(glmux_gpu_request_parse(v, &r, err, sizeof(err)), "%s: %s", v, err);
    CHECK(!r.mesa_rules);
    return r;
}

static void bad(const char *v)
{
    struct glmux_gpu_request r;
    char err[200] = "";

    CHECK_MSG(!glmux_gpu_request_parse(v, &r, err, sizeof(err)), "%s accepted", v);
    CHECK(err[0] != '\0');
}

static struct glmux_gpu_request mesa(const char *v)
{
    struct glmux_gpu_request r;

    glmux_gpu_request_parse_dri_prime(v, &r);
    CHECK(r.mesa_rules && strcmp(r.value, v) == 0);
    return r;
}

static void glmux_gpu_forms(void)
{
    struct glmux_gpu_request r;

    r = ok("1");
    CHECK(r.kind == GLMUX_REQUEST_INDEX && r.index == 1 && !r.exclusive);
    r = ok("2!");
    CHECK(r.kind == GLMUX_REQUEST_INDEX && r.index == 2 && r.exclusive);
    r = ok("pci-0000_01_00_0");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_01_00_0") == 0);
    r = ok("PCI-0000_C4_00_0!");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_c4_00_0") == 0 && r.exclusive);
    /* udev's tag of a USB device behind a PCI controller; Mesa's tag of a SoC GPU. */
    r = ok("pci-0000_00_14_0-usb-0_1_1_0");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_00_14_0-usb-0_1_1_0") == 0);
    r = ok("platform-7ec04000_v3d");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "platform-7ec04000_v3d") == 0);
    r = ok("0000:01:00.0");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_01_00_0") == 0);
    r = ok("01:00.0");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_01_00_0") == 0);
    r = ok("10de:25A2");
    CHECK(r.kind == GLMUX_REQUEST_PCI_ID && r.vendor_id == 0x10de && r.device_id == 0x25a2);
    r = ok("1002:73ef!");
    CHECK(r.kind == GLMUX_REQUEST_PCI_ID && r.exclusive);
    r = ok("platform-fd00000.gpu");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "platform-fd00000_gpu") == 0);
    r = ok("discrete");
    CHECK(r.kind == GLMUX_REQUEST_DISCRETE);
    r = ok("Integrated");
    CHECK(r.kind == GLMUX_REQUEST_INTEGRATED);
    r = ok("default");
    CHECK(r.kind == GLMUX_REQUEST_DEFAULT);

    bad("");
    bad("!");
    bad("0");
    bad("-1");
    bad("100");
    bad("pci-0000_01");
    bad("pci-0000_01_00_9");
    bad("10de:25a2:1");
    bad("10de:12345");
    bad("hello world");
    bad("fastest");
    bad("1.5");
    bad("%");
}

/* Every spelling, as Mesa's loader_get_user_preferred_fd reads it. */
static void dri_prime_forms(void)
{
    struct glmux_gpu_request r;

    r = mesa("1");
    CHECK(r.kind == GLMUX_REQUEST_INDEX && r.index == 1 && r.note[0] == '\0');
    r = mesa("1abc");           /* atoi("1abc") is 1 */
    CHECK(r.kind == GLMUX_REQUEST_INDEX && r.index == 1);
    r = mesa(" 1");             /* atoi skips blanks */
    CHECK(r.kind == GLMUX_REQUEST_INDEX && r.index == 1);
    r = mesa("2!");             /* Mesa's GL loader ignores the '!'; glmux's EGL order keeps it */
    CHECK(r.kind == GLMUX_REQUEST_INDEX && r.index == 2 && r.exclusive);
    r = mesa("99999999999999999999");   /* out of range: invalid, never wrapped */
    CHECK(r.kind == GLMUX_REQUEST_DEFAULT && strstr(r.note, "out of range") != NULL);
    r = mesa("70");                     /* Mesa takes the count less one */
    CHECK(r.kind == GLMUX_REQUEST_INDEX && r.index == 70);
    r = mesa("pci-0000_01_00_0");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_01_00_0") == 0);
    CHECK(r.note[0] == '\0');
    /* A tag is compared as written: the '!' stays, and Mesa matches nothing; so says the note. */
    r = mesa("pci-0000_01_00_0!");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_01_00_0!") == 0);
    CHECK(!r.exclusive && strstr(r.note, "'!'") != NULL);
    r = mesa("PCI-0000_01_00_0");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "PCI-0000_01_00_0") == 0);
    CHECK(strstr(r.note, "lower case") != NULL);
    r = mesa("platform-7ec04000_v3d");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "platform-7ec04000_v3d") == 0);
    r = mesa("10de:25a2");
    CHECK(r.kind == GLMUX_REQUEST_PCI_ID && r.vendor_id == 0x10de && r.device_id == 0x25a2);
    r = mesa("10DE:25A2!");     /* %hx takes upper case; what follows the numbers is ignored */
    CHECK(r.kind == GLMUX_REQUEST_PCI_ID && r.vendor_id == 0x10de && r.device_id == 0x25a2);
    CHECK(r.exclusive);
    r = mesa("0x10de:0x25a2");
    CHECK(r.kind == GLMUX_REQUEST_PCI_ID && r.vendor_id == 0x10de && r.device_id == 0x25a2);
    /* A PCI address is vendor 0000, device 0001 to Mesa: a GPU nobody has. */
    r = mesa("0000:01:00.0");
    CHECK(r.kind == GLMUX_REQUEST_PCI_ID && r.vendor_id == 0 && r.device_id == 1);
    CHECK(strstr(r.note, "PCI address") != NULL);
    r = mesa("10de:12345");     /* %hx keeps 16 bits */
    CHECK(r.kind == GLMUX_REQUEST_PCI_ID && r.device_id == 0x2345 && r.note[0] != '\0');
    /* Invalid numbers: Mesa stays on the default GPU. */
    r = mesa("0");
    CHECK(r.kind == GLMUX_REQUEST_DEFAULT && r.note[0] != '\0');
    r = mesa("-1");
    CHECK(r.kind == GLMUX_REQUEST_DEFAULT && r.note[0] != '\0');
    /* No keywords: "discrete" is a tag, which matches no GPU, as in Mesa. */
    r = mesa("discrete");
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "discrete") == 0);
    r = mesa("00");             /* atoi 0 but not "0": a tag */
    CHECK(r.kind == GLMUX_REQUEST_TAG);
}

int main(void)
{
    glmux_gpu_forms();
    dri_prime_forms();
    return 0;
}
