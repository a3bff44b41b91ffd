/* SPDX-License-Identifier: MIT */
/* mergeP.h: the state of one merge, shared by merge.c and merge_timeline.c (not elsewhere). */
#ifndef FSLAB_MERGEP_H
#define FSLAB_MERGEP_H

#include <stdbool.h>
#include <stdint.h>

#include "merge/merge.h"
#include "lib/sha256.h"

struct member {
	const struct merge_input *in;
	struct fslab_result r;  /* its result, as read */
	bool loaded;            /* r was read (even when it failed a check) */
	bool complete;          /* read, one of the cell's, not aborted: in the sums */
	const char *status;     /* "ok", "aborted", "failed", "missing" */
	char *why;              /* why not ok (heap) */
	char sha256[SHA256_HEX_LEN + 1];
	bool has_sha;
	int64_t ctrl_start_ns;  /* its load start on the controller's clock */
	bool has_ctrl_start;
};

struct merge {
	const struct merge_input *in;
	size_t n;
	const struct merge_opts *o;
	struct fslab_result *out;
	struct member *m;
	unsigned int complete;
	int64_t t0_start_ns;    /* the earliest load start (controller's clock) */
};

/* merge_timeline.c: the members' timelines on one wall-clock axis into out->timeline, with a
 * "hosts" column; sets out->cluster.timeline. */
void merge_timeline(struct merge *mg);

/* merge.c: classes without their histograms (a host's own, in its entry); a device's record. */
void merge_copy_classes_nohist(struct class_result *dst, const struct class_result *src);
void merge_copy_device(struct device_result *d, const struct device_result *s);

/* merge_members.c: member m's entry h in the cluster record; the load starts on the
 * controller's clock (spread = latest - earliest); the environment from the first member
 * and the hosts'; the notes (the members' own, then the merge's). */
void merge_member_entry(struct merge *mg, struct member *m, struct host_member *h);
void merge_starts(struct merge *mg);
void merge_environment(struct merge *mg, const struct fslab_result *first);
void merge_notes(struct merge *mg);

#endif
