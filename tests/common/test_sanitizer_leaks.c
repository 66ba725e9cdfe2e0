/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: the test programs' AddressSanitizer defaults (sanitizer_options.c) leave
 * LeakSanitizer whole. The program runs itself as a child that loads a library with __thread
 * data (tls_keep.c), keeps a block that only the library's dynamic TLS points at, loses
 * another and exits: LeakSanitizer must fail the child naming the lost block, not the kept one,
 * and must not die scanning. ASan builds only (tests/CMakeLists.txt).
 *   test_sanitizer_leaks TLS_LIBRARY
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "glmux_test.h"

void *volatile glmux_test_sink;

static void child(const char *library)
{
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    void (*keep)(size_t);

    CHECK_MSG(lib != NULL, "%s", dlerror());
    keep = (void (*)(size_t))dlsym(lib, "glmux_test_tls_keep");
    CHECK(keep != NULL);
    keep(4321);
    glmux_test_sink = malloc(1234);
    glmux_test_sink = NULL;
    exit(0);
}

int main(int argc, char **argv)
{
    char path[4096], *text;
    FILE *err;
    pid_t pid;
    int status;
    long n;

    CHECK(argc >= 2);
    if (argc == 3 && strcmp(argv[2], "child") == 0)
        child(argv[1]);
    err = tmpfile();
    CHECK(err != NULL);
    CHECK(readlink("/proc/self/exe", path, sizeof(path) - 1) > 0 ||
          snprintf(path, sizeof(path), "%s", argv[0]) > 0);
    path[sizeof(path) - 1] = '\0';
    fflush(NULL);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        dup2(fileno(err), STDERR_FILENO);
        execl(path, path, argv[1], "child", (char *)NULL);
        _exit(127);
    }
    CHECK(waitpid(pid, &status, 0) == pid);
    n = ftell(err);
    CHECK(n >= 0 && (text = calloc(1, (size_t)n + 1)) != NULL);
    rewind(err);
    CHECK(fread(text, 1, (size_t)n, err) == (size_t)n);
    fclose(err);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 127,
              "child: status 0x%x: %s", status, text);
    CHECK_MSG(strstr(text, "Direct leak of 1234 byte") != NULL, "the lost block: %s", text);
    CHECK_MSG(strstr(text, "4321 byte") == NULL, "the block TLS keeps, called a leak: %s", text);
    CHECK_MSG(strstr(text, "Tracer caught signal") == NULL, "%s", text);
    printf("ok: LeakSanitizer reports the lost block and not the one a library's TLS keeps\n");
    free(text);
    return 0;
}
