/* SPDX-License-Identifier: MIT */
/*
 * glmux fuzz target: the parsers of what the user sets in the environment. The input is lines:
 *   1 GLMUX_GPU   2 DRI_PRIME   3 __NV_PRIME_RENDER_OFFLOAD   4 __NV_PRIME_RENDER_OFFLOAD_PROVIDER
 *   5 GLMUX_DEBUG   6 GLMUX_DRIVER_VENDORS   7 a kernel driver name   8 `glmux --gpu` value
 * (a missing line is an unset variable). Each value goes through glmux_gpu_request_parse (with
 * and without GLMUX_GPU's keywords), the selector's reading of the variables and their
 * precedence (glmux_select_new with a getenv of these lines; it touches no sysfs),
 * glmux_log_parse and the GLMUX_DRIVER_VENDORS table.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "select/select.h"
#include "util/log.h"

enum { F_GPU, F_PRIME, F_NV, F_NV_PROVIDER, F_DEBUG, F_DRIVER_VENDORS, F_DRIVER, F_SPEC, F_COUNT };

static const char *const names[F_COUNT] = {
    "GLMUX_GPU", "DRI_PRIME", "__NV_PRIME_RENDER_OFFLOAD", "__NV_PRIME_RENDER_OFFLOAD_PROVIDER",
    "GLMUX_DEBUG", "GLMUX_DRIVER_VENDORS", NULL, NULL,
};

static char *fields[F_COUNT];

static const char *fake_getenv(const char *name)
{
    for (int i = 0; i < F_COUNT; i++)
        if (names[i] != NULL && strcmp(names[i], name) == 0)
            return fields[i];
    return NULL;
}

GLMUX_FUZZ_QUIET_INITIALIZE()

static void check_request(const char *value)
{
    for (int mesa = 0; mesa < 2; mesa++) {
        struct glmux_gpu_request req;
        char err[200];

        err[0] = '\0';
        if (mesa) {
            /* DRI_PRIME as Mesa reads it: never refused, never a glmux keyword. */
            glmux_gpu_request_parse_dri_prime(value, &req);
            GLMUX_FUZZ_CHECK(req.mesa_rules && req.kind != GLMUX_REQUEST_NONE &&
                             req.kind != GLMUX_REQUEST_NVIDIA &&
                             req.kind != GLMUX_REQUEST_INTEGRATED &&
                             req.kind != GLMUX_REQUEST_DISCRETE);
            GLMUX_FUZZ_CHECK(memchr(req.tag, '\0', sizeof(req.tag)) != NULL);
            GLMUX_FUZZ_CHECK(memchr(req.note, '\0', sizeof(req.note)) != NULL);
            GLMUX_FUZZ_CHECK(req.kind != GLMUX_REQUEST_INDEX || req.index >= 1);
        } else if (glmux_gpu_request_parse(value, &req, err, sizeof(err))) {
            GLMUX_FUZZ_CHECK(req.kind != GLMUX_REQUEST_NONE && req.kind != GLMUX_REQUEST_NVIDIA);
            GLMUX_FUZZ_CHECK(memchr(req.tag, '\0', sizeof(req.tag)) != NULL);
            GLMUX_FUZZ_CHECK(req.kind != GLMUX_REQUEST_TAG || req.tag[0] != '\0');
            GLMUX_FUZZ_CHECK(req.kind != GLMUX_REQUEST_INDEX || (req.index >= 1 && req.index <= 64));
        } else {
            GLMUX_FUZZ_CHECK(err[0] != '\0');
        }
        GLMUX_FUZZ_CHECK(strncmp(req.value, value, sizeof(req.value) - 1) == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    char *line;
    struct glmux_select_config config = { 0 };
    struct glmux_select *sel;

    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    memset(fields, 0, sizeof(fields));
    line = text;
    for (int i = 0; i < F_COUNT && line != NULL; i++) {
        char *nl = strchr(line, '\n');

        if (nl != NULL)
            *nl = '\0';
        fields[i] = line;
        line = nl ? nl + 1 : NULL;
    }

    for (int i = 0; i < F_COUNT; i++)
        if (fields[i] != NULL && i != F_DEBUG && i != F_DRIVER_VENDORS)
            check_request(fields[i]);

    config.getenv = fake_getenv;
    config.gpu_spec = fields[F_SPEC];
    config.keep_reasons = size % 2 == 0;
    sel = glmux_select_new(&config);
    if (sel != NULL) {
        const struct glmux_gpu_request *req = glmux_select_request(sel);

        GLMUX_FUZZ_CHECK(req != NULL);
        GLMUX_FUZZ_CHECK(req->kind == GLMUX_REQUEST_NONE || req->variable != NULL);
        for (size_t i = 0; i < glmux_select_reason_count(sel); i++)
            (void)strlen(glmux_select_reason(sel, i));
        GLMUX_FUZZ_CHECK(!glmux_select_enumerated(sel));
        glmux_select_free(sel);
    }

    if (fields[F_DEBUG] != NULL) {
        char bad[64];
        unsigned mask = glmux_log_parse(fields[F_DEBUG], bad, sizeof(bad));

        GLMUX_FUZZ_CHECK(mask & GLMUX_LOG_ERROR);
        GLMUX_FUZZ_CHECK(memchr(bad, '\0', sizeof(bad)) != NULL);
    }

    if (fields[F_DRIVER_VENDORS] != NULL)
        setenv("GLMUX_DRIVER_VENDORS", fields[F_DRIVER_VENDORS], 1);
    else
        unsetenv("GLMUX_DRIVER_VENDORS");
    {
        const char *drivers[] = { fields[F_DRIVER] ? fields[F_DRIVER] : "", "i915", "nvidia",
                                  "amdgpu", "" };
        char buf[GLMUX_DRIVER_VENDOR_MAX];
        for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
            const char *vendor = glmux_driver_default_vendor(drivers[i], buf);

            GLMUX_FUZZ_CHECK(vendor == NULL || strlen(vendor) <= 64);
        }
    }
    free(text);
    return 0;
}
