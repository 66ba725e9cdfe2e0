/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: `glmux port-check`. Walks the paths given (directories recursively, in name
 * order, without following symbolic links to directories), reads each C or C++ source (chosen
 * by its extension) into one reused buffer, runs the tokenizer of port_lex.c over it and looks
 * every GLX-looking identifier up in the table generated from data/glx-to-egl.tsv. Nothing of a
 * file is kept after it is scanned, so memory does not grow with the size of the tree: one
 * buffer as large as the largest file, and the sorted names of the directories being walked.
 */
#define _GNU_SOURCE
#include "port_check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "json_writer.h"
#include "port_lex.h"
#include "port_table.h"

#define PORT_MAX_FILE (64u << 20)   /* larger "sources" are reported, not read */
#define PORT_MAX_JSON_ERRORS 1000    /* kept for the JSON "errors" array; all are counted */
#define PORT_MATCH_UNKNOWN GLMUX_PORT_MATCH_COUNT

static const char *const kind_names[] = { "function", "token", "type", "extension", "header",
                                          "macro" };
static const char *const match_names[] = { "direct", "changed", "none", "unknown" };

struct port_error {
    char *path;
    char *message;
};

struct port_state {
    bool json;
    struct glmux_jw jw;
    char *buf;
    size_t cap;
    const char *file;
    bool file_has_uses;
    unsigned long uses, files_scanned, files_with_uses, files_skipped, errors;
    unsigned long by[GLMUX_PORT_KIND_COUNT][GLMUX_PORT_MATCH_COUNT + 1];
    unsigned long *per_entry; /* uses of each table entry */
    struct port_error *error_list;
    size_t n_errors_kept;
};

static const char *const c_extensions[] = {
    "c", "h", "cc", "cp", "cpp", "cxx", "c++", "C", "H", "hh", "hpp", "hxx", "h++", "inl", "ipp",
    "tcc", "tpp", "ixx", "cppm", "m", "mm",
};

static bool is_c_name(const char *path)
{
    const char *base = strrchr(path, '/');
    const char *dot;

    base = base != NULL ? base + 1 : path;
    dot = strrchr(base, '.');
    if (dot == NULL || dot == base)
        return false;
    for (size_t i = 0; i < sizeof(c_extensions) / sizeof(c_extensions[0]); i++)
        if (strcmp(dot + 1, c_extensions[i]) == 0)
            return true;
    return false;
}

/* A copy of s that is valid UTF-8 (invalid bytes become '?'), for JSON; free it. */
static char *utf8_clean(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    if (out == NULL)
        return NULL;
    while (i < n) {
        size_t len = p[i] < 0x80 ? 1 : (p[i] >> 5) == 6 ? 2 : (p[i] >> 4) == 14 ? 3
                                     : (p[i] >> 3) == 30 ? 4 : 0;
        bool ok = len > 0 && i + len <= n;
        for (size_t k = 1; ok && k < len; k++)
            ok = (p[i + k] & 0xC0) == 0x80;
        if (!ok) {
            out[i++] = '?';
            continue;
        }
        memcpy(out + i, p + i, len);
        i += len;
    }
    out[n] = '\0';
    return out;
}

static void json_string(struct port_state *st, const char *key, const char *value)
{
    char *clean = value != NULL ? utf8_clean(value) : NULL;

    glmux_jw_string(&st->jw, key, clean != NULL ? clean : value);
    free(clean);
}

static void report_error(struct port_state *st, const char *path, const char *fmt, const char *arg)
{
    char message[512];

    snprintf(message, sizeof(message), fmt, arg);
    st->errors++;
    fprintf(stderr, "glmux: port-check: %s: %s\n", path, message);
    if (st->json && st->n_errors_kept < PORT_MAX_JSON_ERRORS) {
        struct port_error *e = &st->error_list[st->n_errors_kept];
        e->path = strdup(path);
        e->message = strdup(message);
        if (e->path != NULL && e->message != NULL) {
            st->n_errors_kept++;
        } else {
            free(e->path);
            free(e->message);
        }
    }
}

static int entry_cmp(const void *key, const void *elem)
{
    return strcmp(key, ((const struct glmux_port_entry *)elem)->name);
}

static int pfn_cmp(const void *key, const void *elem)
{
    return strcmp(key, ((const struct glmux_port_pfn *)elem)->name);
}

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool upper(char c)
{
    return c >= 'A' && c <= 'Z';
}

/* The kind of a GLX-looking name that is not in the table, or -1 for other names. */
static int unknown_kind(const char *s, size_t len)
{
    if (starts(s, "glX") && upper(s[3]))
        return GLMUX_PORT_KIND_FUNCTION;
    if (starts(s, "GLX_") && len > 4)
        return GLMUX_PORT_KIND_TOKEN;
    if (starts(s, "GLX") && upper(s[3]) && len > 4 && s[4] >= 'a' && s[4] <= 'z')
        return GLMUX_PORT_KIND_TYPE;
    if (starts(s, "PFNGLX") && len > 10 && strcmp(s + len - 4, "PROC") == 0)
        return GLMUX_PORT_KIND_TYPE;
    return -1;
}

static void print_use(struct port_state *st, const struct glmux_port_token *t,
                      const struct glmux_port_entry *e, int kind, int match)
{
    const bool pfn = e != NULL && strcmp(t->text, e->name) != 0;

    if (st->json) {
        glmux_jw_object(&st->jw, NULL);
        json_string(st, "file", st->file);
        glmux_jw_int(&st->jw, "line", (long)t->line);
        glmux_jw_int(&st->jw, "column", (long)t->column);
        json_string(st, "identifier", t->text);
        glmux_jw_string(&st->jw, "kind", kind_names[kind]);
        glmux_jw_string(&st->jw, "entry", e != NULL ? e->name : NULL);
        glmux_jw_string(&st->jw, "origin", e != NULL ? e->origin : NULL);
        glmux_jw_string(&st->jw, "match", match_names[match]);
        glmux_jw_string(&st->jw, "egl", e != NULL && match != GLMUX_PORT_NONE ? e->egl : NULL);
        glmux_jw_string(&st->jw, "requires",
                        e != NULL && match != GLMUX_PORT_NONE ? e->requires : NULL);
        glmux_jw_string(&st->jw, "note", e != NULL ? e->note : "not in the GLX registry");
        glmux_jw_bool(&st->jw, "in_directive", t->in_directive);
        glmux_jw_end(&st->jw, '}');
        return;
    }
    printf("%s:%lu:%lu: %s", st->file, t->line, t->column, t->text);
    if (pfn)
        printf(" (pointer to %s)", e->name);
    if (e == NULL)
        printf(" -> unknown: not in the GLX registry (a project macro or a vendor name?)\n");
    else if (match == GLMUX_PORT_NONE)
        printf(" -> no counterpart%s%s\n", e->note[0] ? ": " : "", e->note);
    else
        printf(" -> %s (%s; %s)%s%s\n", e->egl, e->requires, match_names[match],
               e->note[0] ? ": " : "", e->note);
}

static int on_token(void *ctx, const struct glmux_port_token *t)
{
    struct port_state *st = ctx;
    const struct glmux_port_entry *e = NULL;
    int kind, match;

    if (t->kind == GLMUX_PORT_HEADER) {
        if (!starts(t->text, "GL/glx"))
            return 0;
        e = bsearch(t->text, glmux_port_entries, glmux_port_entry_count,
                    sizeof(glmux_port_entries[0]), entry_cmp);
        if (e == NULL || e->kind != GLMUX_PORT_KIND_HEADER)
            return 0;
    } else {
        char c = t->text[0];
        if (c != 'g' && c != 'G' && c != 'P' && c != '_')
            return 0;
        e = bsearch(t->text, glmux_port_entries, glmux_port_entry_count,
                    sizeof(glmux_port_entries[0]), entry_cmp);
        if (e != NULL && e->kind == GLMUX_PORT_KIND_HEADER)
            e = NULL;
        if (e == NULL && starts(t->text, "PFNGLX")) {
            const struct glmux_port_pfn *p = bsearch(t->text, glmux_port_pfns,
                                                     glmux_port_pfn_count,
                                                     sizeof(glmux_port_pfns[0]), pfn_cmp);
            if (p != NULL)
                e = &glmux_port_entries[p->entry];
        }
        if (e == NULL && unknown_kind(t->text, t->len) < 0)
            return 0;
    }
    if (e != NULL) {
        kind = strcmp(t->text, e->name) != 0 ? GLMUX_PORT_KIND_TYPE : e->kind;
        match = e->match;
        st->per_entry[e - glmux_port_entries]++;
    } else {
        kind = unknown_kind(t->text, t->len);
        match = PORT_MATCH_UNKNOWN;
    }
    st->uses++;
    st->by[kind][match]++;
    if (!st->file_has_uses) {
        st->file_has_uses = true;
        st->files_with_uses++;
    }
    print_use(st, t, e, kind, match);
    return 0;
}

static void scan_file(struct port_state *st, const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat sb;
    size_t len = 0;

    if (fd < 0) {
        report_error(st, path, "cannot open: %s", strerror(errno));
        return;
    }
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        report_error(st, path, "%s", "not a regular file; skipped");
        close(fd);
        return;
    }
    if ((unsigned long long)sb.st_size > PORT_MAX_FILE) {
        report_error(st, path, "%s", "larger than 64 MiB, not scanned (no C source is that big: "
                                     "is it generated data?)");
        close(fd);
        return;
    }
    if ((size_t)sb.st_size + 1 > st->cap) {
        size_t cap = (size_t)sb.st_size + 1 < 65536 ? 65536 : (size_t)sb.st_size + 1;
        char *nb = realloc(st->buf, cap);
        if (nb == NULL) {
            report_error(st, path, "%s", "out of memory");
            close(fd);
            return;
        }
        st->buf = nb;
        st->cap = cap;
    }
    for (;;) { /* the file may grow or shrink while we read; read what is there */
        ssize_t r = read(fd, st->buf + len, st->cap - 1 - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            report_error(st, path, "cannot read: %s", strerror(errno));
            close(fd);
            return;
        }
        if (r == 0 || (len += (size_t)r) == st->cap - 1)
            break;
    }
    close(fd);
    /* A NUL byte anywhere (not only in the first block): no C source has one. */
    if (memchr(st->buf, '\0', len) != NULL) {
        st->files_skipped++;
        if (!st->json)
            fprintf(stderr, "glmux: port-check: %s: binary (a NUL byte); skipped\n", path);
        return;
    }
    st->files_scanned++;
    st->file = path;
    st->file_has_uses = false;
    glmux_port_lex(st->buf, len, on_token, st);
}

static const char *type_name(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    return "not a regular file";
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void scan_path(struct port_state *st, const char *path, bool explicit);

/* The entries of a directory (not . and ..), sorted, in one block: an array of pointers
 * followed by the names. NULL on error (errno set). */
static char **read_dir(const char *path, size_t *count)
{
    DIR *d = opendir(path);
    struct dirent *de;
    char *names = NULL, **list;
    size_t used = 0, cap = 0, n = 0;

    if (d == NULL)
        return NULL;
    errno = 0;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name) + 1;
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (used + len > cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            char *nn;
            while (ncap < used + len)
                ncap *= 2;
            nn = realloc(names, ncap);
            if (nn == NULL) {
                free(names);
                closedir(d);
                errno = ENOMEM;
                return NULL;
            }
            names = nn;
            cap = ncap;
        }
        memcpy(names + used, de->d_name, len);
        used += len;
        n++;
    }
    closedir(d);
    list = malloc((n + 1) * sizeof(char *) + used);
    if (list == NULL) {
        free(names);
        errno = ENOMEM;
        return NULL;
    }
    if (used > 0)
        memcpy((char *)(list + n + 1), names, used);
    free(names);
    for (size_t i = 0, off = 0; i < n; i++) {
        list[i] = (char *)(list + n + 1) + off;
        off += strlen(list[i]) + 1;
    }
    list[n] = NULL;
    qsort(list, n, sizeof(char *), name_cmp);
    *count = n;
    return list;
}

static void scan_dir(struct port_state *st, const char *path)
{
    size_t n = 0, plen = strlen(path);
    char **names = read_dir(path, &n);
    char *child;

    if (names == NULL) {
        report_error(st, path, "cannot read the directory: %s", strerror(errno));
        return;
    }
    for (size_t i = 0; i < n; i++) {
        struct stat sb;
        size_t len = plen + 1 + strlen(names[i]) + 1;

        child = malloc(len);
        if (child == NULL) {
            report_error(st, path, "%s", "out of memory");
            break;
        }
        snprintf(child, len, "%s%s%s", path, plen && path[plen - 1] == '/' ? "" : "/", names[i]);
        if (lstat(child, &sb) != 0) {
            report_error(st, child, "cannot access: %s", strerror(errno));
        } else if (S_ISLNK(sb.st_mode)) {
            struct stat target;
            if (stat(child, &target) != 0) {
                if (is_c_name(child))
                    report_error(st, child, "a symbolic link to nothing (%s); not scanned",
                                 strerror(errno));
            } else if (S_ISREG(target.st_mode)) {
                scan_path(st, child, false);
            } /* links to directories are not followed (no loops); other links are not code */
        } else {
            scan_path(st, child, false);
        }
        free(child);
    }
    free(names);
}

static void scan_path(struct port_state *st, const char *path, bool explicit)
{
    struct stat sb;

    if (stat(path, &sb) != 0) {
        struct stat lsb;
        if (lstat(path, &lsb) == 0 && S_ISLNK(lsb.st_mode))
            report_error(st, path, "a symbolic link to nothing (%s); not scanned", strerror(errno));
        else
            report_error(st, path, "cannot access: %s", strerror(errno));
        return;
    }
    if (S_ISDIR(sb.st_mode)) {
        scan_dir(st, path);
    } else if (!S_ISREG(sb.st_mode)) {
        if (explicit || is_c_name(path))
            report_error(st, path, "%s, not a regular file; not scanned", type_name(sb.st_mode));
    } else if (!is_c_name(path)) {
        st->files_skipped++;
        if (explicit && !st->json)
            fprintf(stderr, "glmux: port-check: %s: not a C or C++ source (by its extension); "
                            "skipped\n", path);
    } else {
        scan_file(st, path);
    }
}

static void print_summary(struct port_state *st)
{
    unsigned long m[PORT_MATCH_UNKNOWN + 1] = { 0 };
    unsigned long distinct = 0;

    for (size_t i = 0; i < glmux_port_entry_count; i++)
        distinct += st->per_entry[i] != 0;
    for (int k = 0; k < GLMUX_PORT_KIND_COUNT; k++)
        for (int j = 0; j <= PORT_MATCH_UNKNOWN; j++)
            m[j] += st->by[k][j];
    if (st->json) {
        glmux_jw_end(&st->jw, ']');
        glmux_jw_array(&st->jw, "errors");
        for (size_t i = 0; i < st->n_errors_kept; i++) {
            glmux_jw_object(&st->jw, NULL);
            json_string(st, "path", st->error_list[i].path);
            json_string(st, "message", st->error_list[i].message);
            glmux_jw_end(&st->jw, '}');
        }
        glmux_jw_end(&st->jw, ']');
        glmux_jw_object(&st->jw, "summary");
        glmux_jw_int(&st->jw, "files_scanned", (long)st->files_scanned);
        glmux_jw_int(&st->jw, "files_with_uses", (long)st->files_with_uses);
        glmux_jw_int(&st->jw, "files_skipped", (long)st->files_skipped);
        glmux_jw_int(&st->jw, "errors", (long)st->errors);
        glmux_jw_int(&st->jw, "uses", (long)st->uses);
        for (int j = 0; j <= PORT_MATCH_UNKNOWN; j++)
            glmux_jw_int(&st->jw, match_names[j], (long)m[j]);
        glmux_jw_int(&st->jw, "distinct_identifiers", (long)distinct);
        glmux_jw_object(&st->jw, "by_kind");
        for (int k = 0; k < GLMUX_PORT_KIND_COUNT; k++) {
            unsigned long total = 0;
            for (int j = 0; j <= PORT_MATCH_UNKNOWN; j++)
                total += st->by[k][j];
            glmux_jw_object(&st->jw, kind_names[k]);
            glmux_jw_int(&st->jw, "uses", (long)total);
            for (int j = 0; j <= PORT_MATCH_UNKNOWN; j++)
                glmux_jw_int(&st->jw, match_names[j], (long)st->by[k][j]);
            glmux_jw_end(&st->jw, '}');
        }
        glmux_jw_end(&st->jw, '}');
        glmux_jw_end(&st->jw, '}');
        glmux_jw_end(&st->jw, '}');
        glmux_jw_finish(&st->jw);
        return;
    }
    printf("\nglmux port-check: %lu GLX use%s (%lu distinct identifier%s) in %lu of %lu C/C++ "
           "files scanned; %lu other files skipped; %lu error%s\n",
           st->uses, st->uses == 1 ? "" : "s", distinct, distinct == 1 ? "" : "s",
           st->files_with_uses, st->files_scanned, st->files_skipped, st->errors,
           st->errors == 1 ? "" : "s");
    for (int k = 0; k < GLMUX_PORT_KIND_COUNT; k++) {
        unsigned long total = 0;
        for (int j = 0; j <= PORT_MATCH_UNKNOWN; j++)
            total += st->by[k][j];
        if (total == 0)
            continue;
        printf("  %-9s %6lu: %lu direct, %lu changed, %lu without a counterpart", kind_names[k],
               total, st->by[k][GLMUX_PORT_DIRECT], st->by[k][GLMUX_PORT_CHANGED],
               st->by[k][GLMUX_PORT_NONE]);
        if (st->by[k][PORT_MATCH_UNKNOWN])
            printf(", %lu unknown", st->by[k][PORT_MATCH_UNKNOWN]);
        putchar('\n');
    }
    printf("  %-9s %6lu: %lu with a direct counterpart, %lu changed, %lu without, %lu unknown\n",
           "total", st->uses, m[GLMUX_PORT_DIRECT], m[GLMUX_PORT_CHANGED], m[GLMUX_PORT_NONE],
           m[PORT_MATCH_UNKNOWN]);
    if (st->uses > 0)
        printf("See docs/porting-glx-to-egl.md for the semantic differences.\n");
}

/* Whether argv[i] is a PATH: options come before the first "--" (at dd, or argc), everything
 * after it is a path; "-" alone is a path too. */
static bool is_path_arg(char **argv, int dd, int i)
{
    return i > dd || (i < dd && (argv[i][0] != '-' || argv[i][1] == '\0'));
}

int glmux_cli_port_check(int argc, char **argv)
{
    struct port_state st;
    int paths = 0, rc, dd = argc;
    bool json = false;

    for (int i = 0; i < argc && dd == argc; i++)
        if (strcmp(argv[i], "--") == 0)
            dd = i;
    for (int i = 0; i < argc; i++) {
        if (is_path_arg(argv, dd, i)) {
            paths++;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (i != dd) {
            fprintf(stderr, "glmux: port-check: unknown option '%s'\n"
                            "Try 'glmux port-check --help'.\n", argv[i]);
            return GLMUX_EXIT_USAGE;
        }
    }
    if (paths == 0) {
        fprintf(stderr, "glmux: port-check: no PATH given (glmux port-check [--json] PATH...)\n"
                        "Try 'glmux port-check --help'.\n");
        return GLMUX_EXIT_USAGE;
    }
    memset(&st, 0, sizeof(st));
    st.json = json;
    st.per_entry = calloc(glmux_port_entry_count, sizeof(*st.per_entry));
    st.error_list = json ? calloc(PORT_MAX_JSON_ERRORS, sizeof(*st.error_list)) : NULL;
    if (st.per_entry == NULL || (json && st.error_list == NULL)) {
        fprintf(stderr, "glmux: port-check: out of memory\n");
        free(st.per_entry);
        free(st.error_list);
        return GLMUX_EXIT_USAGE;
    }
    if (json) {
        glmux_jw_init(&st.jw, stdout);
        glmux_jw_object(&st.jw, NULL);
        glmux_jw_array(&st.jw, "uses");
    }
    for (int i = 0; i < argc; i++)
        if (is_path_arg(argv, dd, i))
            scan_path(&st, argv[i], true);
    print_summary(&st);
    rc = st.errors > 0 ? GLMUX_EXIT_USAGE : st.uses > 0 ? GLMUX_EXIT_FAIL : GLMUX_EXIT_OK;
    for (size_t i = 0; i < st.n_errors_kept; i++) {
        free(st.error_list[i].path);
        free(st.error_list[i].message);
    }
    free(st.error_list);
    free(st.per_entry);
    free(st.buf);
    if (fflush(stdout) != 0)
        rc = GLMUX_EXIT_USAGE;
    return rc;
}
