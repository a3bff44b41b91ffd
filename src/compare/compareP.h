/* SPDX-License-Identifier: MIT */
/* compareP.h: what compare.c and load.c share (not for other modules). */
#ifndef FSLAB_COMPAREP_H
#define FSLAB_COMPAREP_H

#include "compare/compare.h"
#include "compare/import.h"

/* compare_load - read files (importers included) into c->results/c->files and check each;
 * the tool-per-label rule.  0 or -FSLAB_EINPUT (every problem printed). */
int compare_load(struct compare *c, char *const *files, size_t n, const struct compare_opts *o);
/* compare_guard - refuse (or with --allow-mismatch warn about) results that differ in what a
 * comparison needs equal.  0 or -FSLAB_EINPUT. */
int compare_guard(struct compare *c, const struct compare_opts *o);

/* The half width of the 95 % interval of a Welch delta (d->base set, cells filled). */
void compare_welch_half(const struct cmp_row *row, size_t gi, struct cmp_delta *d);

/* Shared helpers of compare.c: the group of result ri (created when new); a string vector;
 * ", <formatted>" appended to *s. */
size_t compare_group_of(struct compare *c, size_t ri);
void compare_strv_push(char ***v, size_t *n, char *s);
void compare_appendf(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
