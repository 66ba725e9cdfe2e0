/* SPDX-License-Identifier: MIT */
/*
 * glmux: a main() for the fuzz targets when libFuzzer is not used (gcc, or GLMUX_FUZZ=OFF): runs
 * LLVMFuzzerTestOneInput once on each file named, and on each file of each directory named
 * (sorted, not recursive), the way libFuzzer replays inputs. The regression replay tests
 * (run_fuzz.py replay) use it, so the saved crashes are checked by every build, under ASan and
 * UBSan in the sanitizer configurations.
 */
#define _GNU_SOURCE
#define GLMUX_FUZZ_ENTRY /* calls the entry point of fuzz_common.c, which counts descriptors */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0;

    if (f == NULL) {
        fprintf(stderr, "fuzz driver: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    for (;;) {
        if (size == cap) {
            uint8_t *grown = realloc(buf, cap ? cap * 2 : 4096);

            if (grown == NULL) {
                fprintf(stderr, "fuzz driver: out of memory reading %s\n", path);
                free(buf);
                fclose(f);
                return 1;
            }
            buf = grown;
            cap = cap ? cap * 2 : 4096;
        }
        size_t got = fread(buf + size, 1, cap - size, f);

        if (got == 0)
            break;
        size += got;
    }
    fclose(f);
    /* An exact-size copy, so that ASan sees a read past the input's end. */
    uint8_t *exact = malloc(size ? size : 1);
    if (exact == NULL) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, size);
    free(buf);
    fprintf(stderr, "running %s (%zu bytes)\n", path, size);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    int failures = 0, count = 0;

    LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat st;

        if (argv[i][0] == '-')
            continue; /* libFuzzer options, accepted and ignored */
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "fuzz driver: %s: %s\n", argv[i], strerror(errno));
            failures++;
        } else if (S_ISDIR(st.st_mode)) {
            struct dirent **names;
            int n = scandir(argv[i], &names, NULL, by_name);

            if (n < 0) {
                fprintf(stderr, "fuzz driver: %s: %s\n", argv[i], strerror(errno));
                failures++;
                continue;
            }
            for (int k = 0; k < n; k++) {
                char path[4096];

                snprintf(path, sizeof(path), "%s/%s", argv[i], names[k]->d_name);
                if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                    failures += run_file(path);
                    count++;
                }
                free(names[k]);
            }
            free(names);
        } else {
            failures += run_file(argv[i]);
            count++;
        }
    }
    fprintf(stderr, "fuzz driver: %d input(s) run, %d unreadable\n", count, failures);
    return failures ? 1 : 0;
}
