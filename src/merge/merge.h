/* SPDX-License-Identifier: MIT */
/*
 * merge.h: the exact merge of one cell's per-host results into a cluster result (fslab
 * merge; the lab's [host] sections): operations and bytes summed, latency histograms summed
 * bucket by bucket (percentiles from the merged histogram, never averaged), timelines aligned
 * on wall-clock seconds, device counters and verdicts kept per host, a hosts[] list; a host
 * without a complete result makes the result partial (aborted), never a full cluster.
 * docs/HOSTS.md "The cluster result" is the contract.
 */
#ifndef FSLAB_MERGE_H
#define FSLAB_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "result/result.h"

/* Clock disagreement (and start spread) above which a cluster result warns: see
 * docs/HOSTS.md "Clocks" for why half a second. */
#define MERGE_CLOCK_LIMIT_S 0.5

/* One member host of the cell. */
struct merge_input {
	const char *name;    /* host name: 1-32 characters of the label rule */
	const char *file;    /* its result file; NULL when the host has none */
	const char *missing; /* with file NULL: why (the host was lost, its step failed) */
	double offset_s;     /* its clock minus the controller's; NaN: not measured */
	double rtt_s;        /* round trip of the measurement; NaN: not measured */
};

struct merge_opts {
	const char *label;    /* the cluster result's label; NULL: the hosts' own (must agree) */
	double clock_limit_s; /* MERGE_CLOCK_LIMIT_S when 0 */
};

/*
 * merge_results - read every member's file with the result reader (result_from_json: a
 * damaged, hostile or implausible file, one that compare would refuse, fails that host,
 * never the merge), check that no run is given for two hosts (result_identity()) and that
 * the complete ones are one cell (label, workload, threads, databases, database size,
 * duration, seed, fslab version) and merge them into out (result_init()ed here;
 * result_release() it in every case).  Returns 0 (out->cluster.partial says whether a host
 * is missing or failed), or -FSLAB_EINPUT after a message: hosts that disagree, a name used
 * twice, one run for two hosts, no host with a complete result.
 */
int merge_results(const struct merge_input *in, size_t n, const struct merge_opts *o,
		  struct fslab_result *out) __attribute__((warn_unused_result));

/* merge_name_problem - NULL when name is a usable host name (it names files
 * results/<cell>.<name>.json), else what is wrong with it. */
const char *merge_name_problem(const char *name);

#endif
