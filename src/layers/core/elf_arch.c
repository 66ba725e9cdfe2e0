/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layers: a library's architecture read from its ELF header, without loading it: the
 * class (32/64-bit), byte order and machine, compared with this process's own. A 32-bit
 * layer met by a 64-bit program (or the reverse) is then reported as "wrong architecture",
 * by `glmux layers` and before any dlopen, instead of as dlopen's "wrong ELF class".
 */
#define _GNU_SOURCE
#include "layers/core/layer_internal.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/file.h"

#if defined(__x86_64__)
#define OWN_MACHINE EM_X86_64
#define OWN_NAME "x86-64"
#elif defined(__i386__)
#define OWN_MACHINE EM_386
#define OWN_NAME "i386"
#elif defined(__aarch64__)
#define OWN_MACHINE EM_AARCH64
#define OWN_NAME "aarch64"
#elif defined(__arm__)
#define OWN_MACHINE EM_ARM
#define OWN_NAME "arm"
#elif defined(__powerpc64__)
#define OWN_MACHINE EM_PPC64
#define OWN_NAME "ppc64"
#elif defined(__powerpc__)
#define OWN_MACHINE EM_PPC
#define OWN_NAME "ppc"
#elif defined(__s390__)
#define OWN_MACHINE EM_S390
#define OWN_NAME "s390"
#elif defined(__riscv)
#define OWN_MACHINE EM_RISCV
#define OWN_NAME "riscv"
#elif defined(__mips__)
#define OWN_MACHINE EM_MIPS
#define OWN_NAME "mips"
#elif defined(__loongarch__)
#define OWN_MACHINE 258 /* EM_LOONGARCH */
#define OWN_NAME "loongarch"
#elif defined(__sparc__) && defined(__arch64__)
#define OWN_MACHINE EM_SPARCV9
#define OWN_NAME "sparc64"
#else
#define OWN_MACHINE 0 /* unknown here: the class and byte order are still compared */
#endif

static const char *machine_name(unsigned machine)
{
    switch (machine) {
    case EM_X86_64: return "x86-64";
    case EM_386: return "i386";
    case EM_AARCH64: return "aarch64";
    case EM_ARM: return "arm";
    case EM_PPC64: return "ppc64";
    case EM_PPC: return "ppc";
    case EM_S390: return "s390";
    case EM_RISCV: return "riscv";
    case EM_MIPS: return "mips";
    case 258: return "loongarch";
    case EM_SPARCV9: return "sparc64";
    default: return NULL;
    }
}

static void describe(char *what, size_t size, int bits, bool big, unsigned machine)
{
    const char *name = machine_name(machine);

    if (name != NULL)
        snprintf(what, size, "%d-bit %s", bits, name);
    else
        snprintf(what, size, "%d-bit %s-endian, ELF machine %u", bits, big ? "big" : "little",
                 machine);
}

int glmux_elf_own_bits(void)
{
    return (int)sizeof(void *) * 8;
}

static bool own_big_endian(void)
{
    return __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
}

const char *glmux_elf_own(void)
{
    /* A constant, so that any thread may ask (machine_name's words for OWN_MACHINE). */
#if OWN_MACHINE == 0
    return __SIZEOF_POINTER__ == 8 ? "64-bit (this machine)" : "32-bit (this machine)";
#else
    return __SIZEOF_POINTER__ == 8 ? "64-bit " OWN_NAME : "32-bit " OWN_NAME;
#endif
}

enum glmux_elf_result glmux_elf_check(const char *path, char *what, size_t size)
{
    struct glmux_file_error err;
    unsigned char h[20];
    size_t got = 0;
    unsigned machine;
    int fd, bits;
    bool big;

    fd = glmux_file_open_regular(path, &err);
    if (fd < 0) {
        snprintf(what, size, "%s", err.message);
        return GLMUX_ELF_UNREADABLE;
    }
    while (got < sizeof(h)) {
        ssize_t n = read(fd, h + got, sizeof(h) - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (got < sizeof(h) || memcmp(h, ELFMAG, SELFMAG) != 0) {
        snprintf(what, size, "not an ELF file (no ELF header)");
        return GLMUX_ELF_UNREADABLE;
    }
    if ((h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64) ||
        (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB)) {
        snprintf(what, size, "an ELF file of unknown class or byte order");
        return GLMUX_ELF_UNREADABLE;
    }
    bits = h[EI_CLASS] == ELFCLASS64 ? 64 : 32;
    big = h[EI_DATA] == ELFDATA2MSB;
    machine = big ? (unsigned)h[18] << 8 | h[19] : (unsigned)h[19] << 8 | h[18];
    describe(what, size, bits, big, machine);
    if (bits != glmux_elf_own_bits() || big != own_big_endian() ||
        (OWN_MACHINE != 0 && machine != OWN_MACHINE))
        return GLMUX_ELF_FOREIGN;
    return GLMUX_ELF_OURS;
}
