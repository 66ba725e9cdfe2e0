/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: building small file trees (vendor directories) in a fresh
 * temporary directory of the test's own, and removing them afterwards.
 */
#ifndef GLMUX_TESTS_SELECT_TREE_H
#define GLMUX_TESTS_SELECT_TREE_H

/* Creates a fresh directory $TMPDIR/glmux-<tag>-XXXXXX (or under /tmp) and returns its path
 * (static storage). */
const char *tree_new(const char *tag);
/* Writes root/rel (creating parent directories) with the given text. */
void tree_file(const char *root, const char *rel, const char *text);
/* Creates the symlink root/rel → target (creating parent directories). */
void tree_link(const char *root, const char *rel, const char *target);
/* Creates the directory root/rel and its parents. */
void tree_dir(const char *root, const char *rel);
/* Removes root recursively. */
void tree_remove(const char *root);

#endif
