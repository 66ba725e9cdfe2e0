/* SPDX-License-Identifier: MIT */
/*
 * glmux: parsing what the user asked for. DRI_PRIME is read exactly as Mesa's OpenGL loader reads
 * it, because Mesa reads it too and the two must name the same GPU: vendor:device when
 * sscanf("%hx:%hx") finds two numbers, else atoi(): a positive N, an invalid "0" or negative
 * number, or (atoi 0) a tag compared exactly. Values Mesa reads in a way a user may not expect
 * ("0000:01:00.0", "PCI-…", "pci-…!") get a note for the one warning. GLMUX_GPU, glmux's own
 * variable, is lenient: keywords default, integrated and discrete, any case of "pci-", udev's
 * tags, PCI addresses, and every form rejected with a message listing the valid ones.
 */
#define _GNU_SOURCE
#include "select.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* True when the n bytes at s are 1 to max hex digits. */
static bool all_hex(const char *s, size_t n, size_t max)
{
    if (n == 0 || n > max)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]))
            return false;
    return true;
}

/* "0000:01:00.0", "0000_01_00_0" or "01:00.0" → canonical pci tag. */
static bool pci_to_tag(const char *s, char *tag, size_t size)
{
    unsigned dom = 0, bus, dev, fn;
    char tail;
    char buf[64];

    if (strlen(s) >= sizeof(buf))
        return false;
    snprintf(buf, sizeof(buf), "%s", s);
    for (char *p = buf; *p; p++)
        if (*p == '_' || *p == '.')
            *p = ':';
    if (sscanf(buf, "%x:%x:%x:%x%c", &dom, &bus, &dev, &fn, &tail) != 4) {
        dom = 0;
        if (sscanf(buf, "%x:%x:%x%c", &bus, &dev, &fn, &tail) != 3)
            return false;
    }
    if (dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
        return false;
    snprintf(tag, size, "pci-%04x_%02x_%02x_%x", dom, bus, dev, fn);
    return true;
}

/* Starts out: the raw value kept for messages, '!' noted; v gets the value without it. */
static size_t begin(const char *value, struct glmux_gpu_request *out, char *v, size_t size)
{
    size_t n;

    memset(out, 0, sizeof(*out));
    snprintf(out->value, sizeof(out->value), "%s", value);
    snprintf(v, size, "%s", value);
    n = strlen(v);
    if (n > 0 && v[n - 1] == '!') {
        out->exclusive = true;
        v[--n] = '\0';
    }
    return n;
}

bool glmux_gpu_request_parse(const char *value, struct glmux_gpu_request *out, char *err,
                             size_t err_size)
{
    char v[128];
    size_t n;

    if (strlen(value) >= sizeof(v)) {
        begin(value, out, v, sizeof(v));   /* refused; its start kept for messages */
        snprintf(err, err_size, "value too long");
        return false;
    }
    n = begin(value, out, v, sizeof(v));
    if (n == 0) {
        snprintf(err, err_size, "empty value");
        return false;
    }
    if (strcasecmp(v, "default") == 0) {
        out->kind = GLMUX_REQUEST_DEFAULT;
        return true;
    }
    if (strcasecmp(v, "integrated") == 0) {
        out->kind = GLMUX_REQUEST_INTEGRATED;
        return true;
    }
    if (strcasecmp(v, "discrete") == 0) {
        out->kind = GLMUX_REQUEST_DISCRETE;
        return true;
    }
    {
        /*
         * vvvv:dddd. A PCI id has 16 bits: a longer or negative number ("10de:-1",
         * "10de:12345") is out of range, never wrapped.
         */
        const char *colon = strchr(v, ':');
        if (colon != NULL && strchr(colon + 1, ':') == NULL) {
            const char *ven = v + (v[0] == '-'), *dev = colon + 1 + (colon[1] == '-');
            size_t ven_len = (size_t)(colon - ven), dev_len = strlen(dev);
            if (all_hex(ven, ven_len, 8) && all_hex(dev, dev_len, 8)) {
                if (ven != v || dev != colon + 1 || ven_len > 4 || dev_len > 4) {
                    snprintf(err, err_size, "PCI id out of range: vendor and device are 0 to "
                                            "ffff (vvvv:dddd, e.g. 10de:1c8d)");
                    return false;
                }
                out->kind = GLMUX_REQUEST_PCI_ID;
                out->vendor_id = (uint16_t)strtoul(ven, NULL, 16);
                out->device_id = (uint16_t)strtoul(dev, NULL, 16);
                return true;
            }
        }
    }
    if (v[0] == '-' || isdigit((unsigned char)v[0])) {
        char *end;
        long idx;

        errno = 0;
        idx = strtol(v, &end, 10);
        if (*end == '\0' && errno == ERANGE) {
            snprintf(err, err_size, "GPU number %.24s%s is out of range (1 to 64)", v,
                     strlen(v) > 24 ? "..." : "");
            return false;
        }
        if (*end == '\0') {
            if (idx <= 0) {
                snprintf(err, err_size, "a GPU number must be 1 or more (1 = the first GPU "
                                        "that is not the default one)");
                return false;
            }
            if (idx > 64) {
                snprintf(err, err_size, "GPU number %ld is out of range (1 to 64)", idx);
                return false;
            }
            out->kind = GLMUX_REQUEST_INDEX;
            out->index = (unsigned)idx;
            return true;
        }
        if (pci_to_tag(v, out->tag, sizeof(out->tag))) {
            out->kind = GLMUX_REQUEST_TAG;
            return true;
        }
    }
    /* "pci-..." is a PCI tag, unless it goes on (udev's tag of a USB device behind a PCI
     * controller: pci-0000_00_14_0-usb-0_1_1_0), which the generic form below takes. */
    if (strncasecmp(v, "pci-", 4) == 0 && strchr(v + 4, '-') == NULL) {
        if (!pci_to_tag(v + 4, out->tag, sizeof(out->tag))) {
            snprintf(err, err_size, "bad PCI tag: write pci-DDDD_BB_DD_F, e.g. pci-0000_01_00_0");
            return false;
        }
        out->kind = GLMUX_REQUEST_TAG;
        return true;
    }
    if (isalpha((unsigned char)v[0])) {
        bool ok = strchr(v, '-') != NULL;   /* tags are "<bus>-<address>"; a bare word is a typo */

        for (size_t i = 0; i < n; i++)
            ok &= isalnum((unsigned char)v[i]) || strchr("_-.:", v[i]) != NULL;
        if (ok && n < sizeof(out->tag)) {
            out->kind = GLMUX_REQUEST_TAG;
            memcpy(out->tag, v, n);
            out->tag[n] = '\0';
            glmux_gpu_tag_normalize(out->tag);   /* "platform-x.gpu" is "platform-x_gpu" */
            return true;
        }
    }
    snprintf(err, err_size, "not understood; valid forms: default, integrated, discrete, N (1 = "
                            "first non-default GPU), pci-0000_01_00_0, vvvv:dddd, each "
                            "optionally followed by '!'");
    return false;
}

/* sscanf's %hx: blanks, a sign, an optional 0x, hex digits; the value cut to 16 bits. */
static bool scan_hx(const char *s, const char **end, unsigned long *value)
{
    char *e;

    errno = 0;
    *value = strtoul(s, &e, 16);
    *end = e;
    return e != s;
}

void glmux_gpu_request_parse_dri_prime(const char *value, struct glmux_gpu_request *out)
{
    char v[128];
    unsigned long ven, dev;
    const char *end;
    long number;

    begin(value, out, v, sizeof(v));
    out->mesa_rules = true;
    /* sscanf(value, "%hx:%hx"): on the whole value, '!' and anything after the numbers
     * included. */
    if (scan_hx(value, &end, &ven) && *end == ':' && scan_hx(end + 1, &end, &dev)) {
        out->kind = GLMUX_REQUEST_PCI_ID;
        out->vendor_id = (uint16_t)ven;
        out->device_id = (uint16_t)dev;
        if (ven > 0xffff || dev > 0xffff || errno == ERANGE)
            snprintf(out->note, sizeof(out->note), "Mesa keeps the low 16 bits of each number "
                     "(%04x:%04x)", out->vendor_id, out->device_id);
        else if (strchr(value, '.') != NULL)
            snprintf(out->note, sizeof(out->note), "Mesa reads it as vendor:device %04x:%04x, "
                     "not as a PCI address; write DRI_PRIME=pci-DDDD_BB_DD_F", out->vendor_id,
                     out->device_id);
        return;
    }
    /* atoi(value). A number beyond int (glibc's atoi keeps its low bits: -1 for
     * 99999999999999999999) is out of range: Mesa then takes it for invalid too. */
    errno = 0;
    number = strtol(value, NULL, 10);
    if (errno == ERANGE || number > INT_MAX || number < INT_MIN) {
        out->kind = GLMUX_REQUEST_DEFAULT;
        snprintf(out->note, sizeof(out->note), "the number is out of range; Mesa stays on the "
                 "default GPU");
        return;
    }
    if (number < 0 || strcmp(value, "0") == 0) {
        out->kind = GLMUX_REQUEST_DEFAULT;
        snprintf(out->note, sizeof(out->note), "Mesa takes it for an invalid GPU number (1 or "
                 "more is the N-th GPU other than the display's) and stays on the default GPU");
        return;
    }
    if (number > 0) {
        out->kind = GLMUX_REQUEST_INDEX;
        out->index = (unsigned)number;
        return;
    }
    /* A tag, compared with Mesa's tags as written: '!' and case included. */
    out->kind = GLMUX_REQUEST_TAG;
    out->exclusive = false;
    snprintf(out->tag, sizeof(out->tag), "%s", value);
    if (strlen(value) >= sizeof(out->tag))
        out->tag[0] = '\0';
    if (v[0] != '\0' && strcmp(v, value) != 0)
        snprintf(out->note, sizeof(out->note), "Mesa's OpenGL loader takes no '!' after a tag "
                 "(only Vulkan's device-select does) and stays on the default GPU; write "
                 "DRI_PRIME=%.60s", v);
    else if (strncasecmp(value, "pci-", 4) == 0 && strncmp(value, "pci-", 4) != 0)
        snprintf(out->note, sizeof(out->note), "Mesa compares tags exactly: write \"pci-\" in "
                 "lower case");
}
