/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: the help texts. `glmux --help` lists the commands; `glmux COMMAND --help` (or
 * `glmux help COMMAND`) prints that command's own usage, options and exit status; a command
 * name or an option that is not known gets the nearest known one as a suggestion ("did you
 * mean 'gpus'?"). docs/man/glmux.1 says the same at length.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define SPEC_TEXT                                                                              \
    "SPEC is what GLMUX_GPU accepts: default, integrated, discrete, N (the N-th GPU that is\n"  \
    "not the display's, in PCI order), pci-0000_01_00_0 or 0000:01:00.0 (a PCI address) or\n" \
    "another tag 'glmux gpus' shows, vvvv:dddd (PCI vendor:device in hex); a trailing '!'\n"  \
    "keeps only that GPU's vendors. See glmux(1), GPU SPECIFICATIONS.\n"

/* The options and SPEC of env and run. */
#define GPU_OPTIONS_TEXT                                                                       \
    "Options:\n"                                                                               \
    "  --gpu SPEC   the GPU (default: discrete; with --layer alone, none is chosen)\n"         \
    "  --layer NAME a GL layer for the program (GLMUX_LAYERS; repeat it, first on top)\n"     \
    "  --help       print this help\n"                                                         \
    "\n" SPEC_TEXT "\n"

#define DEBUG_TEXT                                                                             \
    "Debugging: GLMUX_DEBUG=warn,select,vendor logs every decision (keep 'warn': the list\n"    \
    "replaces the default one, errors and warnings). See glmux(1).\n"

static const struct glmux_cli_help {
    const char *name;
    const char *usage;
} commands[] = {
    { "gpus",
      "Usage: glmux gpus [--json] [--watch]\n"
      "\n"
      "Lists the GPUs, PCI devices in address order first: the tag DRI_PRIME understands, the\n"
      "PCI vendor:device id, kernel driver, kind, whether it is the default GPU and by which\n"
      "rule, the vendor that serves it, its power state and device nodes. Opens no device node,\n"
      "so a sleeping GPU stays asleep.\n"
      "\n"
      "Options:\n"
      "  --json    one JSON object (the keys are in glmux(1))\n"
      "  --watch   then follow udev and print every GPU added, removed or changed and the new\n"
      "            default GPU, until Ctrl-C (with --json, one object per line)\n"
      "  --help    print this help\n"
      "\n"
      "Exit status: 0 success, 1 udev cannot be watched (--watch), 2 usage error.\n" },
    { "vendors",
      "Usage: glmux vendors [--json] [--no-load]\n"
      "\n"
      "Lists the vendor directories searched, every vendor found in them (once, whatever the\n"
      "number of manifests), its EGL and GLX libraries and kernel drivers, and whether each\n"
      "library loads and exports its entry point (__egl_Main, __glx_Main).\n"
      "\n"
      "Options:\n"
      "  --json      one JSON object\n"
      "  --no-load   do not load the libraries (loading runs their constructors)\n"
      "  --help      print this help\n"
      "\n"
      "Exit status: 0 success, 2 usage error.\n" },
    { "explain",
      "Usage: glmux explain [--json]\n"
      "\n"
      "Shows which GPU and which EGL and GLX vendors a program started in this environment\n"
      "would get, and every rule that decided it: the functions libEGL calls give the EGL\n"
      "vendor order, libEGL itself says which vendor owns the default display, and with\n"
      "DISPLAY set libGLX itself decides each X screen, each in a child process (a vendor of a\n"
      "sleeping GPU is not loaded: explain names the step it did not take).\n"
      "\n"
      "Options:\n"
      "  --json   one JSON object (the keys are in glmux(1))\n"
      "  --help   print this help\n"
      "\n"
      "Exit status: 0 success, 2 usage error.\n" },
    { "check",
      "Usage: glmux check [FILE...]\n"
      "\n"
      "Validates vendor manifests: each problem as FILE:LINE: error: MESSAGE (or warning) on\n"
      "standard error, one \"ok\" line on standard output for each valid file. Without FILE,\n"
      "every *.json file of the vendor directories this system searches (GLMUX_VENDOR_DIRS or\n"
      "the built-in list), then which GL libraries a program started here would load:\n"
      "glmux's, libglvnd's, or a mix of both, which is an error (docs/prefix.md).\n"
      "\n"
      "Options:\n"
      "  --help   print this help\n"
      "\n"
      "Exit status: 0 every manifest is valid, 1 a manifest has errors or the GL libraries\n"
      "would be a mix, 2 usage error.\n" },
    { "manifest",
      "Usage: glmux manifest --vendor NAME [--egl LIB] [--glx LIB] [--drivers DRV,...]\n"
      "                      [--priority N] [--description TEXT]\n"
      "       glmux manifest --layer NAME --library LIB --apis API,... [--type TYPE]\n"
      "                      [--arch 32|64] [--description TEXT] [--enable-env VAR=VALUE]\n"
      "                      [--disable-env VAR=VALUE] [--secure-execution]\n"
      "\n"
      "Prints a vendor manifest, the file a vendor package installs as\n"
      "$(pkg-config --variable=vendordir glmux)/NN_NAME.json (NN its priority). It is checked\n"
      "with libEGL's parser first: bad options print nothing. With --layer, a GL layer\n"
      "manifest instead, for ${libdir}/glvnd/explicit_layer.d/NAME.json (implicit_layer.d\n"
      "with --type implicit: the folder must match the type; glmux(1), LAYERS), checked\n"
      "with the layer loader's parser first; LIB is a bare name, or a path (relative: to the\n"
      "manifest's folder).\n"
      "\n"
      "Options:\n"
      "  --vendor NAME        the vendor's name: 1-64 characters of A-Z a-z 0-9 _ . -\n"
      "  --egl LIB            its EGL library (the manifest's ICD.library_path)\n"
      "  --glx LIB            its GLX library; at least one of --egl and --glx\n"
      "  --drivers DRV,...    the kernel DRM drivers it drives (default: the built-in table)\n"
      "  --priority N         0 to 999, default 50\n"
      "  --description TEXT   a description\n"
      "  --layer NAME         a GL layer manifest, for a layer of this name, with:\n"
      "  --library LIB        the layer's library\n"
      "  --apis API,...       what it intercepts: gl, gles1, gles2, glx, egl\n"
      "  --type TYPE          explicit (default) or implicit\n"
      "  --arch 32|64         the library's word size\n"
      "  --enable-env VAR=VALUE   an implicit layer loads only while VAR is VALUE\n"
      "  --disable-env VAR=VALUE  the variable that switches it off (implicit: required)\n"
      "  --secure-execution   an implicit layer may load in setuid programs\n"
      "  --help               print this help\n"
      "\n"
      "Example: glmux manifest --vendor mesa --egl libEGL_mesa.so.0 --glx libGLX_mesa.so.0 \\\n"
      "           --drivers i915,xe,amdgpu --priority 50\n"
      "\n"
      "Exit status: 0 success, 2 usage error.\n" },
    { "layers",
      "Usage: glmux layers [--json]\n"
      "\n"
      "Lists the GL layer folders in the order read (the explicit_layer.d folders too, and\n"
      "whether a program started here would read them), every layer found there with its\n"
      "kind, manifest, library and the library's architecture (read from its ELF header:\n"
      "nothing is loaded), the variables it names and their values now, and a verdict: would\n"
      "load, off because ..., wrong architecture, library missing, ignored in secure\n"
      "execution, duplicate of ..., wrong folder, broken manifest; then the chain a program\n"
      "started here gets, program -> layer -> ... -> glmux -> vendor. Variables:\n"
      "GLMUX_LAYERS, GLMUX_LAYERS_ENABLE, GLMUX_LAYERS_DISABLE, GLMUX_LAYER_PATH (glmux(1),\n"
      "LAYERS).\n"
      "\n"
      "Options:\n"
      "  --json   one JSON object (the keys are in glmux(1))\n"
      "  --help   print this help\n"
      "\n"
      "Exit status: 0 success, 2 usage error.\n" },
    { "env",
      "Usage: glmux env [--gpu SPEC] [--layer NAME]...\n"
      "\n"
      "Prints shell lines (export, unset) that put a new program on a GPU: GLMUX_GPU and the\n"
      "variables the GPU's vendor reads (DRI_PRIME for Mesa, the offload variables for\n"
      "NVIDIA's driver). When no GPU matches SPEC, a warning and nothing else.\n"
      "Use as: eval \"$(glmux env --gpu discrete)\"\n"
      "\n"
      GPU_OPTIONS_TEXT
      "Exit status: 0 success (no GPU matching SPEC is a warning), 2 usage error.\n" },
    { "run",
      "Usage: glmux run [--gpu SPEC] [--layer NAME]... [--] COMMAND [ARG...]\n"
      "\n"
      "Runs COMMAND with the variables 'glmux env' prints set; when no GPU matches SPEC, with\n"
      "a warning and its environment unchanged. Options after COMMAND are COMMAND's.\n"
      "\n"
      GPU_OPTIONS_TEXT
      "Exit status: COMMAND's; 1 COMMAND cannot be run, 2 usage error.\n" },
    { "port-check",
      "Usage: glmux port-check [--json] [--] PATH...\n"
      "\n"
      "Lists each GLX use (function, token, type, header) in the C and C++ sources under PATH\n"
      "with its EGL counterpart, then a summary. The porting guide is\n"
      "docs/porting-glx-to-egl.md in the glmux sources.\n"
      "\n"
      "Options:\n"
      "  --json   one JSON object (uses, errors, summary)\n"
      "  --help   print this help\n"
      "\n"
      "Exit status: 0 no GLX use found, 1 uses found, 2 usage error or a path that cannot be\n"
      "read.\n" },
};

static const char overview[] =
    "Usage: glmux COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  gpus [--json] [--watch]       list the GPUs, the default one, drivers and vendors;\n"
    "                                --watch: then follow udev (GPU added or removed, driver\n"
    "                                bound or unbound) and print each change and the new\n"
    "                                default, until Ctrl-C (--json: one object per line)\n"
    "  vendors [--json] [--no-load]  list vendor manifests and whether their libraries load\n"
    "  explain [--json]              show which GPU and vendors this environment selects, and why\n"
    "  check [FILE...]               validate vendor manifests (file:line: error: ...); no FILE:\n"
    "                                every manifest in the vendor directories\n"
    "  manifest --vendor NAME [--egl LIB] [--glx LIB] [--drivers DRV,...] [--priority N]\n"
    "           [--description TEXT] print a vendor manifest for a package to install\n"
    "  layers [--json]               list GL layers, their verdicts and the chain\n"
    "  env [--gpu SPEC]              print shell 'export' lines that select a GPU\n"
    "  run [--gpu SPEC] [--layer NAME] -- CMD [ARG...]  run CMD on a GPU (with GL layers)\n"
    "  port-check [--json] PATH...   name the EGL counterpart of each GLX use in C/C++ sources\n"
    "                                (exit 0 none found, 1 found, 2 error; see\n"
    "                                docs/porting-glx-to-egl.md)\n"
    "\n" SPEC_TEXT
    "\n"
    "Options: --help, --version. 'glmux COMMAND --help' (or 'glmux help COMMAND') prints one\n"
    "command's options. Exit status: 0 success, 1 failure, 2 usage error.\n" DEBUG_TEXT;

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct glmux_cli_help *find(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

bool glmux_cli_is_command(const char *name)
{
    return find(name) != NULL;
}

bool glmux_cli_help(const char *name)
{
    const struct glmux_cli_help *c = name != NULL ? find(name) : NULL;

    if (name != NULL && c == NULL)
        return false;
    fputs(c != NULL ? c->usage : overview, stdout);
    if (c != NULL)
        fputs("\n" DEBUG_TEXT, stdout);
    return true;
}

/*
 * The edit distance of a and b, a swap of two neighbours counting as one edit (optimal string
 * alignment), or limit + 1 when it is above limit. Short words only: longer ones get limit + 1.
 */
static size_t distance(const char *a, const char *b, size_t limit)
{
    enum { MAX = 32 };
    size_t la = strlen(a), lb = strlen(b);
    size_t d[MAX + 1][MAX + 1];

    if (la > MAX || lb > MAX)
        return limit + 1;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb] <= limit ? d[la][lb] : limit + 1;
}

const char *glmux_cli_nearest(const char *word, const char *const *known, size_t n)
{
    /* Two edits at most, and fewer than the word has letters: "x" suggests nothing. */
    size_t len = strlen(word), limit = len > 2 ? 2 : len > 0 ? len - 1 : 0;
    size_t best = limit + 1;
    const char *choice = NULL;

    for (size_t i = 0; i < n; i++) {
        size_t d = distance(word, known[i], limit);
        /* A unique beginning of a name is as good as one edit ("port" for port-check). */
        if (d > 1 && len >= 3 && strncmp(word, known[i], len) == 0)
            d = 1;
        if (d < best) {
            best = d;
            choice = known[i];
        } else if (d == best) {
            choice = NULL;   /* two names as near: suggest neither */
        }
    }
    return best <= limit ? choice : NULL;
}

const char *glmux_cli_nearest_command(const char *word)
{
    const char *names[N_COMMANDS + 1];

    for (size_t i = 0; i < N_COMMANDS; i++)
        names[i] = commands[i].name;
    names[N_COMMANDS] = "help";
    return glmux_cli_nearest(word, names, N_COMMANDS + 1);
}
