/* SPDX-License-Identifier: MIT */
/*
 * glmux: lazy table filling (lazy.c, assembly builds): the trampolines of glmux_lazy.S in the
 * table of threads without a context, and the resolver they call. Pure-C builds have no
 * trampolines: the no-op table is the generated glmux_noop.c and a new slot needs nothing.
 */
#ifndef GLMUX_DISPATCH_LAZY_H
#define GLMUX_DISPATCH_LAZY_H

/* Makes a slot about to be handed out valid in the table of threads without a context. */
void glmux_slot_prepare(unsigned slot);

#endif /* GLMUX_DISPATCH_LAZY_H */
