/* SPDX-License-Identifier: MIT */
/* compareP.h: what load.c, comparable.c and precision.c give compare.c, and compare.c's helpers
 * for them (not for other modules).  load.c calls nothing of compare.c's. */
#ifndef FSLAB_COMPAREP_H
#define FSLAB_COMPAREP_H

#include <jansson.h>

#include "compare/compare.h"
#include "compare/import.h"

/* compare_load - read files (importers included) into c->results/c->files and check each;
 * the tool-per-label rule.  0 or -FSLAB_EINPUT (every problem printed). */
int compare_load(struct compare *c, char *const *files, size_t n, const struct compare_opts *o);
/*
 * compare_differences - how @r differs from @ref in what must be equal for a comparison: every
 * option that shapes the load (comparable.c, from the option table), then the tool and its
 * version (load.c).  Heap string, or NULL when they may be compared.
 */
char *compare_differences(const struct fslab_result *r, const struct fslab_result *ref);
/*
 * compare_first_of_label - the first result (of c->results[0..i]) with the label of result i,
 * through index (a jansson object, label -> index, filled as results are taken in order): a
 * hash table, so thousands of results (fio hosts, DiskSpd TimeSpans) are not compared pairwise.
 */
size_t compare_first_of_label(json_t *index, const struct compare *c, size_t i);

/* precision.c: the half width of the 95 % interval of a Welch delta (d->base set, cells
 * filled). */
void compare_welch_half(const struct cmp_row *row, size_t gi, struct cmp_delta *d);

/* decide.c: the levels the claims are decided at (c->level_diff, c->level_eq: STATS_ALPHA,
 * or with c->sequential the nominal levels of the lab's last look); before the correction. */
void compare_decide_levels(struct compare *c);

/* qualify.c: set a lab's qualification runs aside (c->quals), when there is a comparison
 * beside them; is result i one of them? */
void compare_split_quals(struct compare *c);
bool compare_is_qual_index(const struct compare *c, size_t i);

/* capacity.c: each group's tuned flag (every run --threads auto: its threads then 0) and
 * c->tuned (every label's); a tuned group's thread counts, "auto: 5" or "auto: 4-6 (4, 5,
 * 6)" by run (heap). */
void compare_find_tuned(struct compare *c);
char *compare_tuned_threads_text(const struct compare *c, const struct cmp_group *g);

/* text_cells.c: did a cache serve the database reads of any of group g's runs (g->cache_served,
 * g->read_ratio); the text of group g's cell of a text metric m (heap). */
void compare_find_cache(const struct compare *c, struct cmp_group *g);
char *compare_text_cell(const struct compare *c, const struct cmp_group *g,
			const struct metric_def *m);

/* compare.c: the group of result ri (created when new). */
size_t compare_group_of(struct compare *c, size_t ri);

#endif
