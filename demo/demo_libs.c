/* SPDX-License-Identifier: MIT */
/*
 * glmux demos: printing which GL libraries a process really loaded (see demo_libs.h).
 */
#define _GNU_SOURCE
#include "demo_libs.h"

#include <link.h>
#include <stdio.h>
#include <string.h>

static int print_one(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    for (const char *const *n = data; *n != NULL; n++) {
        if (strstr(info->dlpi_name, *n) != NULL) {
            printf("  loaded %s\n", info->dlpi_name);
            break;
        }
    }
    return 0;
}

void demo_print_loaded(const char *const *names)
{
    dl_iterate_phdr(print_one, (void *)names);
}
