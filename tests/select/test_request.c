/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: parsing GLMUX_GPU and DRI_PRIME values: Mesa's forms, the '!' suffix, glmux's
 * keywords (only where allowed), PCI addresses, and malformed values.
 */
#include <string.h>

#include "glmux_test.h"
#include "select/select.h"

static struct glmux_gpu_request ok(const char *v, bool keywords)
{
    struct glmux_gpu_request r;
    char err[200];

    CHECK_MSG(glmux_gpu_request_parse(v, keywords, &r, err, sizeof(err)), "%s: %s", v, err);
    return r;
}

static void bad(const char *v, bool keywords)
{
    struct glmux_gpu_request r;
    char err[200] = "";

    CHECK_MSG(!glmux_gpu_request_parse(v, keywords, &r, err, sizeof(err)), "%s accepted", v);
    CHECK(err[0] != '\0');
}

int main(void)
{
    struct glmux_gpu_request r;

    r = ok("1", false);
    CHECK(r.kind == GLMUX_REQUEST_INDEX && r.index == 1 && !r.exclusive);
    r = ok("2!", false);
    CHECK(r.kind == GLMUX_REQUEST_INDEX && r.index == 2 && r.exclusive);
    r = ok("pci-0000_01_00_0", false);
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_01_00_0") == 0);
    r = ok("PCI-0000_C4_00_0!", false);
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_c4_00_0") == 0 && r.exclusive);
    /* udev's tag of a USB device behind a PCI controller; Mesa's tag of a SoC GPU. */
    r = ok("pci-0000_00_14_0-usb-0_1_1_0", false);
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_00_14_0-usb-0_1_1_0") == 0);
    r = ok("platform-7ec04000_v3d", true);
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "platform-7ec04000_v3d") == 0);
    r = ok("0000:01:00.0", false);
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_01_00_0") == 0);
    r = ok("01:00.0", true);
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "pci-0000_01_00_0") == 0);
    r = ok("10de:25A2", false);
    CHECK(r.kind == GLMUX_REQUEST_PCI_ID && r.vendor_id == 0x10de && r.device_id == 0x25a2);
    r = ok("1002:73ef!", false);
    CHECK(r.kind == GLMUX_REQUEST_PCI_ID && r.exclusive);
    r = ok("platform-fd00000.gpu", false);
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "platform-fd00000_gpu") == 0);
    r = ok("platform-fd00000_gpu", true);
    CHECK(r.kind == GLMUX_REQUEST_TAG && strcmp(r.tag, "platform-fd00000_gpu") == 0);
    r = ok("discrete", true);
    CHECK(r.kind == GLMUX_REQUEST_DISCRETE);
    r = ok("Integrated", true);
    CHECK(r.kind == GLMUX_REQUEST_INTEGRATED);
    r = ok("default", true);
    CHECK(r.kind == GLMUX_REQUEST_DEFAULT);
    /* DRI_PRIME has no keywords: "discrete" is read as a tag, as Mesa would. */
    r = ok("discrete", false);
    CHECK(r.kind == GLMUX_REQUEST_TAG);

    bad("", false);
    bad("!", false);
    bad("0", false);
    bad("-1", false);
    bad("100", false);
    bad("pci-0000_01", false);
    bad("pci-0000_01_00_9", false);
    bad("10de:25a2:1", false);
    bad("hello world", true);
    bad("fastest", true);
    bad("1.5", false);
    bad("%", true);
    return 0;
}
