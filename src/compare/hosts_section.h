/* SPDX-License-Identifier: MIT */
/*
 * hosts_section.h: the per-host view of cluster results (fslab merge) in a comparison: for each
 * label and each member host, its IOPS and latencies over the label's runs, its start and
 * clock, its verdicts, so that a straggler shows (the report's "Hosts" table and the
 * hosts-iops and hosts-latency charts).
 */
#ifndef FSLAB_COMPARE_HOSTS_SECTION_H
#define FSLAB_COMPARE_HOSTS_SECTION_H

#include <stddef.h>

#include "compare/compare.h"

/* One host of one label: its values over the label's runs where it was complete. */
struct cmp_host_cell {
	size_t runs;     /* runs of the label that list this host */
	size_t ok;       /* of them, runs where its result was complete ("ok") */
	struct sample iops, db_read_ms, db_read_p99_ms, log_write_ms, start_ms, offset_ms;
	size_t pass, fail; /* its verdicts */
};

struct cmp_hosts {
	size_t n;          /* host names: every label's members, in the order first seen */
	char **names;      /* borrowed from the results */
	struct cmp_host_cell *cells; /* [group * n + host] */
	double *start_spread_s, *clock_spread_s; /* per group: the largest over its runs (NaN) */
	size_t *partial;   /* per group: its partial runs */
	double clock_limit_s;
};

/* compare_hosts_build - the per-host view of c; h->n is 0 when no result is a cluster
 * result.  compare_hosts_release() h in every case. */
void compare_hosts_build(const struct compare *c, struct cmp_hosts *h);
void compare_hosts_release(struct cmp_hosts *h);
static inline const struct cmp_host_cell *cmp_host_cell(const struct cmp_hosts *h, size_t g,
							size_t host)
{
	return &h->cells[g * h->n + host];
}

#endif
