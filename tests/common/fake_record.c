/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the record file of the fake vendors (see fake_record.h).
 */
#include "fake_record.h"

#include <stdio.h>
#include <stdlib.h>

void glmux_fake_record(const char *record_env, const char *vendor, const char *what,
                       const char *const *vars)
{
    const char *path = getenv(record_env);
    FILE *f = path != NULL ? fopen(path, "ae") : NULL;

    if (f == NULL)
        return;
    fprintf(f, "%s %s", what, vendor);
    for (; vars != NULL && *vars != NULL; vars++) {
        const char *v = getenv(*vars);

        if (v != NULL)
            fprintf(f, " %s=%s", *vars, v);
    }
    fputc('\n', f);
    fclose(f);
}
