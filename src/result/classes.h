/* SPDX-License-Identifier: MIT */
/*
 * classes.h: the measured I/O classes and one class's result, without JSON: what the engine
 * and the workloads' hot path need (result.h adds the whole result and its JSON).
 */
#ifndef FSLAB_CLASSES_H
#define FSLAB_CLASSES_H

#include <stdint.h>

#include "lib/hist.h"

/* The four measured I/O classes, in Jetstress's terms. */
enum io_class {
	CLS_DB_READ,   /* random 32 KiB database page reads (cache misses) */
	CLS_DB_WRITE,  /* random 32 KiB database page writes (checkpoint / lazy writer) */
	CLS_LOG_WRITE, /* sequential write-through log appends */
	CLS_BDM_READ,  /* background database maintenance: throttled sequential reads */
	CLS_NR,
};
/* "db_read", "db_write", "log_write", "bdm_read" */
extern const char *const io_class_names[CLS_NR];
/* Index of a class name, or -1. */
int io_class_from_name(const char *name);

/* Latency summary in microseconds. */
struct lat_summary {
	double min, mean, max, stddev;
	double p50, p90, p99, p99_9, p99_99;
};

struct class_result {
	uint64_t ops, bytes, errors;
	uint64_t ios_above_max_limit; /* completions slower than the threshold set's maximum
					 (config.thresholds); information, not in the default
					 verdict (see --strict-io-tail) */
	uint64_t min_bytes, max_bytes; /* smallest and largest single transfer */
	double iops, mbps, avg_bytes;
	struct lat_summary lat_us;
	struct hist *hist; /* owned, may be NULL (written to JSON as sparse [index, count] pairs) */
};

/* Fill ops/bytes-derived fields (iops, mbps, avg_bytes, lat_us from hist) for seconds. */
void class_result_finish(struct class_result *c, double seconds);
/* lat_us from hist alone (zeros without one): the merge's, whose rates are sums. */
void class_result_latency(struct class_result *c);

#endif
