/* SPDX-License-Identifier: MIT */
/*
 * glmux unit tests: hostile files where discovery expects small regular files.
 * A manifest that is a symlink to a FIFO, a FIFO and a directory named *.json and a manifest
 * over the size limit must all be refused at once with a clear message instead of blocking the
 * process. An alarm turns a hang into a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "glmux_test.h"
#include "select/json.h"
#include "select/manifest.h"
#include "tree.h"
#include "util/file.h"

static char last_message[512];

static void report(void *data, enum glmux_manifest_severity severity, const char *path,
                   int line, const char *message)
{
    (void)data;
    (void)severity;
    (void)path;
    (void)line;
    snprintf(last_message, sizeof(last_message), "%s", message);
}

static void on_alarm(int sig)
{
    static const char msg[] = "test_fifo: blocked on a FIFO (hang)\n";
    (void)sig;
    (void)!write(2, msg, sizeof(msg) - 1);
    _exit(1);
}

int main(void)
{
    const char *root = tree_new("fifo");
    char path[512], fifo[512], buf[64];
    struct glmux_file_error err;
    struct glmux_manifest m;
    size_t len;
    char *text;

    signal(SIGALRM, on_alarm);
    alarm(60); /* a guard against hanging for ever, not a timing assertion */

    /* The helper itself: regular file, FIFO, directory, size bound. */
    tree_file(root, "ok.txt", "hello\n");
    snprintf(path, sizeof(path), "%s/ok.txt", root);
    text = glmux_file_read(path, 64, &len, &err);
    CHECK(text != NULL && len == 6 && strcmp(text, "hello\n") == 0);
    free(text);
    CHECK(glmux_file_read(path, 5, &len, &err) == NULL && err.code == EFBIG);
    CHECK(glmux_file_read_small(path, buf, sizeof(buf)) == 0 && strcmp(buf, "hello") == 0);

    snprintf(fifo, sizeof(fifo), "%s/pipe", root);
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK(glmux_file_read(fifo, 64, &len, &err) == NULL && err.code == EINVAL);
    CHECK_MSG(strstr(err.message, "FIFO") != NULL, "message: %s", err.message);
    CHECK(glmux_file_read_small(fifo, buf, sizeof(buf)) == EINVAL);
    CHECK(glmux_file_read(root, 64, &len, &err) == NULL && err.code == EINVAL);

    /* A *.json symlink to a FIFO, as in a vendor directory: refused, with the reason. */
    tree_link(root, "egl_vendor.d/10_evil.json", fifo);
    snprintf(path, sizeof(path), "%s/egl_vendor.d/10_evil.json", root);
    CHECK(!glmux_manifest_load(path, &m, report, NULL));
    CHECK_MSG(strstr(last_message, "not a regular file") != NULL, "message: %s", last_message);

    /* A manifest over the size limit is refused with the limit in the message. */
    {
        size_t big = GLMUX_JSON_MAX_SIZE + 1;
        char *blob = malloc(big + 1);
        CHECK(blob != NULL);
        memset(blob, ' ', big);
        blob[big] = '\0';
        tree_file(root, "egl_vendor.d/20_big.json", blob);
        free(blob);
        snprintf(path, sizeof(path), "%s/egl_vendor.d/20_big.json", root);
        CHECK(!glmux_manifest_load(path, &m, report, NULL));
        CHECK_MSG(strstr(last_message, "larger than") != NULL, "message: %s", last_message);
    }

    tree_remove(root);
    return 0;
}
