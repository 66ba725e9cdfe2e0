/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: argument parsing and the commands that act rather than report: `env` prints the
 * variables that put a program on a GPU, `run` executes a program with them (`check` and
 * `manifest` are in manifest.c, the help texts in help.c). Exit status: 0 success, 1 failure,
 * 2 usage error; `run` exits with the program's status, or as env(1) and shells do when it
 * cannot be started: 127 not found, 126 found but not executable. See docs/man/glmux.1.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/layers.h"
#include "port_check.h"
#include "safe_out.h"
#include "select/manifest.h"
#include "select/select.h"

#ifndef GLMUX_VERSION
#define GLMUX_VERSION "unknown"
#endif

/* The command being run, for the hint after a usage error (NULL: none yet). */
static const char *current_command;

/* Ends a usage error whose first words are printed: the suggestion near, if any, and the hint. */
static int usage_error_near(const char *near)
{
    if (near != NULL)
        fprintf(stderr, "; did you mean '%s'?", near);
    fprintf(stderr, "\nTry 'glmux %s%s--help'.\n", current_command ? current_command : "",
            current_command ? " " : "");
    return GLMUX_EXIT_USAGE;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "glmux: ");
    fprintf(stderr, fmt, arg);
    return usage_error_near(NULL);
}

/*
 * Resolves --gpu SPEC into what the new process is given; returns the count, or a negative exit
 * status. When no GPU matches (none at all, or not of the kind asked for) it warns and returns
 * 0: `run` runs the command with the environment it has, on the default GPU, as glmux(1) says;
 * `env` prints nothing.
 */
static int gpu_env(const char *spec, bool run, struct glmux_select_env *env)
{
    struct glmux_select_config cfg = { .gpu_spec = spec, .quiet = true };
    struct glmux_gpu_request req;
    struct glmux_select_choice c;
    struct glmux_select *sel;
    char err[200];
    int n = 0;

    if (!glmux_gpu_request_parse(spec, &req, err, sizeof(err))) {
        fprintf(stderr, "glmux: --gpu %s: %s\n", spec, err);
        return -GLMUX_EXIT_USAGE;
    }
    sel = glmux_select_new(&cfg);
    if (sel == NULL)
        return -GLMUX_EXIT_FAIL;
    /* The GPU the spec names: the new process is told, so no vendor needs to know already. */
    glmux_select_choose(sel, NULL, NULL, 0, &c);
    if (c.asked == NULL)
        fprintf(stderr, "glmux: warning: --gpu %s: %s; %s; see 'glmux gpus'\n",
                glmux_cli_esc(spec), glmux_cli_esc(c.why[0] ? c.why : "no GPU matches"),
                run ? "the command runs with its environment unchanged (the default GPU)"
                    : "nothing to set: programs stay on the default GPU");
    else
        n = (int)glmux_select_launch_env(sel, c.asked, env);
    glmux_select_free(sel);
    return n;
}

static void shell_quote(const char *s)
{
    putchar('\'');
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", stdout);
        else
            putchar(*s);
    }
    putchar('\'');
}

static int cmd_env_or_run(bool run, int argc, char **argv)
{
    struct glmux_select_env env[GLMUX_SELECT_ENV_MAX];
    const char *spec = "discrete", *layers[32];
    int i = 0, n, n_layers = 0;
    bool gpu_given = false;
    char *layers_value = NULL;

    for (; i < argc; i++) {
        if (strcmp(argv[i], "--gpu") == 0) {
            if (i + 1 >= argc)
                return usage_error("%s", "--gpu needs a SPEC");
            spec = argv[++i];
            gpu_given = true;
        } else if (strncmp(argv[i], "--gpu=", 6) == 0) {
            spec = argv[i] + 6;
            gpu_given = true;
        } else if (strcmp(argv[i], "--layer") == 0 || strncmp(argv[i], "--layer=", 8) == 0) {
            /* GL layers (glmux layers): GLMUX_LAYERS for the program, first named on top. */
            const char *name = argv[i][7] == '=' ? argv[i] + 8 : i + 1 < argc ? argv[++i] : NULL;
            if (name == NULL || !glmux_cli_layer_name_ok(name) || n_layers == 32)
                return usage_error("--layer '%s': give a layer's name ('glmux layers' lists "
                                   "them; at most 32)", name != NULL ? name : "");
            layers[n_layers++] = name;
        } else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (run && argv[i][0] != '-') {
            break;
        } else {
            return usage_error("unknown option '%s'", argv[i]);
        }
    }
    if (run && i >= argc)
        return usage_error("%s", "run: no command given (glmux run --gpu SPEC -- CMD)");
    if (!run && i < argc)
        return usage_error("env: unexpected argument '%s'", argv[i]);
    /* --layer alone changes the layers only; with --gpu too, both. */
    n = n_layers > 0 && !gpu_given ? 0 : gpu_env(spec, run, env);
    if (n < 0)
        return -n;
    if (n_layers > 0 && (layers_value = glmux_cli_layers_value(layers, n_layers)) == NULL)
        return GLMUX_EXIT_FAIL;
    if (!run) {
        if (layers_value != NULL) {
            printf("export GLMUX_LAYERS=");
            shell_quote(layers_value);
            putchar('\n');
            free(layers_value);
        }
        for (int j = 0; j < n; j++) {
            if (env[j].unset) {
                printf("unset %s\n", env[j].name);
                continue;
            }
            printf("export %s=", env[j].name);
            shell_quote(env[j].value);
            putchar('\n');
        }
        return GLMUX_EXIT_OK;
    }
    for (int j = 0; j < n; j++) {
        if (env[j].unset)
            unsetenv(env[j].name);
        else
            setenv(env[j].name, env[j].value, 1);
    }
    if (layers_value != NULL)
        setenv("GLMUX_LAYERS", layers_value, 1);
    fflush(NULL);
    execvp(argv[i], argv + i);
    n = errno;
    fprintf(stderr, "glmux: cannot run %s: %s\n", glmux_cli_esc(argv[i]), strerror(n));
    /* As env(1), nohup and shells: 127 when there is no such program, 126 when it cannot be
     * executed, so that a caller tells these from the program's own exit status 1. */
    return n == ENOENT || n == ENOTDIR ? GLMUX_EXIT_NOT_FOUND : GLMUX_EXIT_CANNOT_RUN;
}

/* Parses [--json] [--no-load] [--watch] for the report commands; flag: the extra option the
 * command takes ("--no-load", "--watch" or NULL), *extra says whether it was given. */
static int report_flags(int argc, char **argv, bool *json, bool *extra, const char *flag)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            *json = true;
        } else if (flag != NULL && strcmp(argv[i], flag) == 0) {
            *extra = true;
        } else {
            const char *known[] = { "--json", flag };

            fprintf(stderr, "glmux: %s: unknown option '%s'", current_command, argv[i]);
            return usage_error_near(glmux_cli_nearest(argv[i], known, flag != NULL ? 2 : 1));
        }
    }
    return GLMUX_EXIT_OK;
}

/* Whether argv (after the command) asks for the command's help: --help or -h before "--" and,
 * for run, before the command to run (whose options they are). */
static bool wants_help(const char *cmd, int argc, char **argv)
{
    bool run = strcmp(cmd, "run") == 0;

    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return false;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
        if (run && (strcmp(argv[i], "--gpu") == 0 || strcmp(argv[i], "--layer") == 0))
            i++;   /* its value, even "--help", is a SPEC or a layer's name */
        else if (run && argv[i][0] != '-')
            return false;
    }
    return false;
}

int main(int argc, char **argv)
{
    const char *cmd;
    bool json = false, extra = false;
    int rc;

    /* Sysfs, manifest and environment strings reach the terminal escaped: they are outside
     * text, and a control sequence in one could rewrite the user's terminal. */
    glmux_cli_safe_streams();
    if (argc < 2)
        return usage_error("%s", "no command given");
    cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        if (argc > 2 && !glmux_cli_help(argv[2])) {
            fprintf(stderr, "glmux: help: no command '%s'", argv[2]);
            return usage_error_near(glmux_cli_nearest_command(argv[2]));
        }
        if (argc <= 2)
            glmux_cli_help(NULL);
        return GLMUX_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("glmux %s\n", GLMUX_VERSION);
        return GLMUX_EXIT_OK;
    }
    if (!glmux_cli_is_command(cmd)) {
        fprintf(stderr, "glmux: unknown command '%s'", cmd);
        return usage_error_near(glmux_cli_nearest_command(cmd));
    }
    current_command = cmd;
    if (wants_help(cmd, argc - 2, argv + 2)) {
        glmux_cli_help(cmd);
        return GLMUX_EXIT_OK;
    }
    if (strcmp(cmd, "gpus") == 0 || strcmp(cmd, "explain") == 0 ||
        strcmp(cmd, "vendors") == 0) {
        rc = report_flags(argc - 2, argv + 2, &json, &extra,
                          strcmp(cmd, "vendors") == 0 ? "--no-load"
                          : strcmp(cmd, "gpus") == 0  ? "--watch" : NULL);
        if (rc != GLMUX_EXIT_OK)
            return rc;
        if (strcmp(cmd, "gpus") == 0)
            return extra ? glmux_cli_gpus_watch(json) : glmux_cli_gpus(json);
        if (strcmp(cmd, "vendors") == 0)
            return glmux_cli_vendors(json, !extra);
        return glmux_cli_explain(json);
    }
    if (strcmp(cmd, "check") == 0)
        return glmux_cli_check(argc - 2, argv + 2);
    if (strcmp(cmd, "manifest") == 0)
        return glmux_cli_is_layer_manifest(argc - 2, argv + 2)
                   ? glmux_cli_layer_manifest(argc - 2, argv + 2)
                   : glmux_cli_manifest(argc - 2, argv + 2);
    if (strcmp(cmd, "layers") == 0)
        return glmux_cli_layers(argc - 2, argv + 2);
    if (strcmp(cmd, "env") == 0)
        return cmd_env_or_run(false, argc - 2, argv + 2);
    if (strcmp(cmd, "run") == 0)
        return cmd_env_or_run(true, argc - 2, argv + 2);
    return glmux_cli_port_check(argc - 2, argv + 2);
}
