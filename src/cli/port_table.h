/* SPDX-License-Identifier: MIT */
/*
 * glmux port-check: the GLX -> EGL table, generated at build time from data/glx-to-egl.tsv by
 * scripts/gen/gen_port_table.py (port_table.c in the build tree), sorted by name (strcmp).
 */
#ifndef GLMUX_CLI_PORT_TABLE_H
#define GLMUX_CLI_PORT_TABLE_H

#include <stddef.h>

enum glmux_port_kind {
    GLMUX_PORT_KIND_FUNCTION,
    GLMUX_PORT_KIND_TOKEN,
    GLMUX_PORT_KIND_TYPE,
    GLMUX_PORT_KIND_EXTENSION,
    GLMUX_PORT_KIND_HEADER,
    GLMUX_PORT_KIND_MACRO,
    GLMUX_PORT_KIND_COUNT
};

enum glmux_port_match {
    GLMUX_PORT_DIRECT,  /* the counterpart does the same job */
    GLMUX_PORT_CHANGED, /* a counterpart that behaves differently */
    GLMUX_PORT_NONE,    /* no counterpart */
    GLMUX_PORT_MATCH_COUNT
};

struct glmux_port_entry {
    const char *name;
    const char *origin;   /* GLX version or extension */
    const char *egl;      /* counterpart(s), or "none" */
    const char *requires; /* "EGL 1.x", extension names, or "-" */
    const char *note;
    unsigned char kind;  /* enum glmux_port_kind */
    unsigned char match; /* enum glmux_port_match */
};

/* A glxext.h function-pointer type (PFNGLXSWAPINTERVALEXTPROC) and its function's entry. */
struct glmux_port_pfn {
    const char *name;
    unsigned short entry;
};

extern const struct glmux_port_entry glmux_port_entries[];
extern const size_t glmux_port_entry_count;
extern const struct glmux_port_pfn glmux_port_pfns[];
extern const size_t glmux_port_pfn_count;

#endif
