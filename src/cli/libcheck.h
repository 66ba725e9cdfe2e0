/* SPDX-License-Identifier: MIT */
/*
 * glmux tool: whether a vendor library a manifest names could be loaded by programs like this
 * one, found and judged without loading it (`glmux check`): the file is looked up as the dynamic
 * loader would look it up for dlopen(), and only its ELF header is read.
 */
#ifndef GLMUX_CLI_LIBCHECK_H
#define GLMUX_CLI_LIBCHECK_H

#include <stddef.h>

enum glmux_libcheck {
    GLMUX_LIBCHECK_OK,      /* found: a shared object of this process's class and machine */
    GLMUX_LIBCHECK_MISSING, /* no such file (a path), or nowhere the loader looks (a name) */
    GLMUX_LIBCHECK_BAD,     /* found, but not loadable here: not ELF, another class, byte order
                               or machine, not a shared object, not a regular file */
};

/*
 * Judges the library a manifest names, as dlopen(library) would find it: a path with a '/' as
 * it is; a bare file name in LD_LIBRARY_PATH, the loader's cache (/etc/ld.so.cache) and the
 * default directories, where files of another class or machine are passed over as the loader
 * passes them. found gets the file judged ("" when none); why says what is wrong.
 */
enum glmux_libcheck glmux_cli_libcheck(const char *library, char *found, size_t found_size,
                                       char *why, size_t why_size);

#endif
