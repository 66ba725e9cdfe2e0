/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: finding and judging a vendor library without loading it (see libcheck.h). The
 * ELF header's identification, type and machine are compared with those of the glmux program
 * itself (__ehdr_start, the header the static linker maps with every executable), so the rule
 * is right on every architecture without a table. The loader's cache is glibc's format 1.1
 * (the only one glibc writes since 2.32): a header, then entries of a flags word, the offsets
 * of the soname and of the path, and hardware-capability words.
 */
#define _GNU_SOURCE
#include "libcheck.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/env.h"
#include "util/file.h"

/* The ELF header of this program, placed there by the static linker (GNU ld, gold, lld). */
extern const ElfW(Ehdr) __ehdr_start __attribute__((visibility("hidden")));

#define CACHE_PATH "/etc/ld.so.cache"
#define CACHE_MAGIC "glibc-ld.so.cache1.1"
#define CACHE_HEADER 48     /* magic and version, nlibs, len_strings, flags, padding, unused */
#define CACHE_ENTRY 24      /* flags, key, value, osversion, hwcap */
#define CACHE_MAX (64u << 20)

static const char *machine_name(unsigned machine)
{
    switch (machine) {
    case EM_386: return "i386";
    case EM_X86_64: return "x86-64";
    case EM_ARM: return "32-bit ARM";
    case EM_AARCH64: return "AArch64";
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "64-bit PowerPC";
    case EM_S390: return "s390";
    case EM_RISCV: return "RISC-V";
    case EM_MIPS: return "MIPS";
    case EM_LOONGARCH: return "LoongArch";
    }
    return NULL;
}

static void describe(unsigned char cls, unsigned machine, char *out, size_t size)
{
    const char *name = machine_name(machine);

    if (name != NULL)
        snprintf(out, size, "%d-bit %s", cls == ELFCLASS64 ? 64 : 32, name);
    else
        snprintf(out, size, "%d-bit, ELF machine %u", cls == ELFCLASS64 ? 64 : 32, machine);
}

/* Reads the header of path: OK, MISSING (ENOENT) or BAD with why. */
static enum glmux_libcheck judge(const char *path, char *why, size_t why_size)
{
    const unsigned char *self = __ehdr_start.e_ident;
    struct glmux_file_error err;
    unsigned char h[EI_NIDENT + 4];
    uint16_t type, machine;
    char here[64], there[64];
    ssize_t n;
    int fd = glmux_file_open_regular(path, &err);

    if (fd < 0) {
        snprintf(why, why_size, "%s", err.message);
        return err.code == ENOENT || err.code == ENOTDIR ? GLMUX_LIBCHECK_MISSING
                                                          : GLMUX_LIBCHECK_BAD;
    }
    do
        n = pread(fd, h, sizeof(h), 0);
    while (n < 0 && errno == EINTR);
    close(fd);
    if (n < (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG) != 0) {
        snprintf(why, why_size, "not an ELF file%s", n >= 0 && n < 4 ? " (shorter than 4 bytes)"
                                                                   : "");
        return GLMUX_LIBCHECK_BAD;
    }
    /* e_type and e_machine follow e_ident in both classes; read in the file's byte order. */
    type = h[EI_DATA] == ELFDATA2MSB ? (uint16_t)(h[EI_NIDENT] << 8 | h[EI_NIDENT + 1])
                                     : (uint16_t)(h[EI_NIDENT + 1] << 8 | h[EI_NIDENT]);
    machine = h[EI_DATA] == ELFDATA2MSB ? (uint16_t)(h[EI_NIDENT + 2] << 8 | h[EI_NIDENT + 3])
                                        : (uint16_t)(h[EI_NIDENT + 3] << 8 | h[EI_NIDENT + 2]);
    describe(self[EI_CLASS], __ehdr_start.e_machine, here, sizeof(here));
    describe(h[EI_CLASS], machine, there, sizeof(there));
    if (h[EI_CLASS] != self[EI_CLASS] || machine != __ehdr_start.e_machine) {
        snprintf(why, why_size, "it is %s; programs here are %s", there, here);
        return GLMUX_LIBCHECK_BAD;
    }
    if (h[EI_DATA] != self[EI_DATA]) {
        snprintf(why, why_size, "it is %s-endian; programs here are not",
                 h[EI_DATA] == ELFDATA2MSB ? "big" : "little");
        return GLMUX_LIBCHECK_BAD;
    }
    if (type != ET_DYN) {
        snprintf(why, why_size, "not a shared library (ELF type %s)",
                 type == ET_EXEC ? "executable" : type == ET_REL ? "relocatable object"
                 : type == ET_CORE ? "core dump" : "unknown");
        return GLMUX_LIBCHECK_BAD;
    }
    return GLMUX_LIBCHECK_OK;
}

/*
 * One candidate of a search: the first loadable one wins; the first refused one is kept for the
 * message (the loader passes over a file of another class and goes on).
 */
struct search {
    const char *name;
    char *found;
    size_t found_size;
    char *why;
    size_t why_size;
    bool seen_bad;
};

static bool try_file(struct search *s, const char *path)
{
    char why[256];
    enum glmux_libcheck r = judge(path, why, sizeof(why));

    if (r == GLMUX_LIBCHECK_OK) {
        snprintf(s->found, s->found_size, "%s", path);
        return true;
    }
    if (r == GLMUX_LIBCHECK_BAD && !s->seen_bad) {
        s->seen_bad = true;
        snprintf(s->found, s->found_size, "%s", path);
        snprintf(s->why, s->why_size, "%s: %s", path, why);
    }
    return false;
}

static bool try_dir(struct search *s, const char *dir, size_t len)
{
    char path[4096];

    if (len == 0) /* an empty LD_LIBRARY_PATH entry is the current directory */
        dir = ".", len = 1;
    if (snprintf(path, sizeof(path), "%.*s/%s", (int)len, dir, s->name) >= (int)sizeof(path))
        return false;
    return try_file(s, path);
}

/* The cache's entries for s->name, in the cache's order. */
static bool try_cache(struct search *s)
{
    size_t len = 0;
    char *c = glmux_file_read(CACHE_PATH, CACHE_MAX, &len, NULL);
    uint32_t nlibs;
    bool found = false;

    if (c == NULL)
        return false;
    if (len >= CACHE_HEADER && memcmp(c, CACHE_MAGIC, strlen(CACHE_MAGIC)) == 0) {
        memcpy(&nlibs, c + strlen(CACHE_MAGIC), sizeof(nlibs));
        for (uint32_t i = 0; !found && i < nlibs; i++) {
            size_t at = CACHE_HEADER + (size_t)i * CACHE_ENTRY;
            uint32_t key, value;

            if (at + CACHE_ENTRY > len)
                break;
            memcpy(&key, c + at + 4, sizeof(key));
            memcpy(&value, c + at + 8, sizeof(value));
            /* Strings are NUL-terminated inside the file (glmux_file_read adds one at the end). */
            if (key < len && value < len && strcmp(c + key, s->name) == 0)
                found = try_file(s, c + value);
        }
    }
    free(c);
    return found;
}

enum glmux_libcheck glmux_cli_libcheck(const char *library, char *found, size_t found_size,
                                       char *why, size_t why_size)
{
    static const char *const defaults[] = { "/lib64", "/usr/lib64", "/lib", "/usr/lib" };
    struct search s = { library, found, found_size, why, why_size, false };
    const char *path = glmux_env_get("LD_LIBRARY_PATH");

    found[0] = why[0] = '\0';
    if (strchr(library, '/') != NULL) {
        snprintf(found, found_size, "%s", library);
        return judge(library, why, why_size);
    }
    for (const char *p = path; p != NULL && *p != '\0';) {
        size_t n = strcspn(p, ":;");
        if (try_dir(&s, p, n))
            return GLMUX_LIBCHECK_OK;
        p += n;
        p += *p != '\0';
    }
    if (try_cache(&s))
        return GLMUX_LIBCHECK_OK;
    for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
        if (try_dir(&s, defaults[i], strlen(defaults[i])))
            return GLMUX_LIBCHECK_OK;
    if (s.seen_bad)
        return GLMUX_LIBCHECK_BAD;
    snprintf(why, why_size, "not found where the dynamic loader looks (LD_LIBRARY_PATH, "
             CACHE_PATH ", /lib, /usr/lib)");
    return GLMUX_LIBCHECK_MISSING;
}
