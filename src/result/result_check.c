// SPDX-License-Identifier: MIT
/* result_check.c: what a result may hold (numbers a run can produce, a histogram that counts
 * the I/Os, a timeline within the duration) and what makes two results one run (result.h). */
#include "result/result.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/sha256.h"

_Static_assert(RESULT_ID_LEN == SHA256_HEX_LEN, "an identity is a SHA-256 in hex");

/* Largest start difference the merge aligns on the wall clock (merge_timeline.c): a cluster
 * result's timeline may be this much longer than its longest host's. */
#define CLUSTER_MAX_SHIFT_S 86400

static bool in_range(double v, double max)
{
	return isnan(v) || (v >= 0 && v <= max);
}

const char *result_implausible(const struct fslab_result *r)
{
	const double max_iops = 1e9;

	/* NAN: a value an imported report does not give (n/a), never out of range */
	if (!in_range(r->transactional_iops, max_iops) || !in_range(r->transactions_per_s, max_iops))
		return "transactional IOPS outside 0..1e9";
	if (!in_range(r->duration_s, TIMELINE_MAX_ROWS))
		return "a duration outside 0..4194304 s (48 days)";
	if (!r->config.threads)
		return "0 threads";
	if (!in_range(r->host.cpu_pct_avg, 1e4))
		return "a CPU share outside 0..10000 %";
	for (int i = 0; i < CLS_NR; i++) {
		const struct class_result *cl = &r->classes[i];

		if (!in_range(cl->iops, max_iops) || !in_range(cl->mbps, 1e9))
			return "a class's IOPS or MB/s outside 0..1e9";
		if (!in_range(cl->lat_us.mean, 1e12) || !in_range(cl->lat_us.max, 1e12) ||
		    !in_range(cl->lat_us.p99, 1e12) || !in_range(cl->lat_us.p99_9, 1e12) ||
		    !in_range(cl->avg_bytes, 1e12))
			return "a latency outside 0..1e12 us";
	}
	return NULL;
}

/* The most timeline rows a result of r's duration can have (one per measured second). */
static double max_rows(const struct fslab_result *r)
{
	double d = r->duration_s;

	if (r->cluster.present) {
		/* the hosts' rows on one wall-clock axis: the longest host plus the start shift */
		for (size_t i = 0; i < r->nhosts; i++)
			if (r->hosts[i].duration_s > d)
				d = r->hosts[i].duration_s;
		d += CLUSTER_MAX_SHIFT_S;
	}
	return ceil(d) + 2;
}

const char *result_inconsistent(const struct fslab_result *r, char *buf, size_t len)
{
	for (int i = 0; i < CLS_NR; i++) {
		const struct class_result *cl = &r->classes[i];
		uint64_t sum = 0;

		if (!cl->hist)
			continue;
		for (unsigned int k = 0; k < HIST_NR; k++)
			sum += cl->hist->buckets[k];
		if (cl->hist->n != cl->ops || sum != cl->hist->n) {
			snprintf(buf, len, "%s's latency histogram counts %llu I/Os in buckets summing "
				 "to %llu, but the class did %llu: its percentiles would be wrong",
				 io_class_names[i], (unsigned long long)cl->hist->n,
				 (unsigned long long)sum, (unsigned long long)cl->ops);
			return buf;
		}
	}
	if (isfinite(r->duration_s) && (double)r->timeline.nrows > max_rows(r)) {
		snprintf(buf, len, "a timeline of %zu rows for a run of %.0f s (one row per second)",
			 r->timeline.nrows, r->duration_s);
		return buf;
	}
	/* --threads auto measures at the count its tuner chose (an interrupted one may not) */
	if (r->tuning.present && !r->aborted && r->tuning.threads != r->config.threads) {
		snprintf(buf, len, "a tuned run measured at %u threads, its tuner chose %u",
			 r->config.threads, r->tuning.threads);
		return buf;
	}
	return NULL;
}

static void add_str(struct sha256 *h, const char *s)
{
	/* the terminating NUL too: "ab" + "c" is not "a" + "bc"; NULL differs from "" */
	if (s)
		sha256_update(h, s, strlen(s) + 1);
	else
		sha256_update(h, "\xff", 1);
}

static void add_num(struct sha256 *h, const void *v, size_t n)
{
	sha256_update(h, v, n);
}

void result_identity(const struct fslab_result *r, char hex[RESULT_ID_LEN + 1])
{
	const char *host = json_string_value(json_object_get(r->environment, "hostname"));
	struct sha256 h;
	uint8_t d[SHA256_LEN];

	sha256_init(&h);
	/* the run: where and when it ran, under what label, its place in a lab */
	add_str(&h, host);
	add_str(&h, r->label);
	add_str(&h, r->started_at);
	add_str(&h, r->load_started_at);
	add_str(&h, r->lab.id);
	add_str(&h, r->lab.cell);
	add_num(&h, &r->lab.round, sizeof(r->lab.round));
	/* what it measured: no two runs count the same I/Os into the same buckets */
	add_num(&h, &r->duration_s, sizeof(r->duration_s));
	add_num(&h, &r->transactions, sizeof(r->transactions));
	add_num(&h, &r->transactional_iops, sizeof(r->transactional_iops));
	for (int i = 0; i < CLS_NR; i++) {
		const struct class_result *cl = &r->classes[i];

		add_num(&h, &cl->ops, sizeof(cl->ops));
		add_num(&h, &cl->bytes, sizeof(cl->bytes));
		add_num(&h, &cl->errors, sizeof(cl->errors));
		add_num(&h, &cl->iops, sizeof(cl->iops));
		add_num(&h, &cl->lat_us, sizeof(cl->lat_us));
		for (unsigned int k = 0; cl->hist && k < HIST_NR; k++)
			if (cl->hist->buckets[k]) {
				add_num(&h, &k, sizeof(k));
				add_num(&h, &cl->hist->buckets[k], sizeof(cl->hist->buckets[k]));
			}
	}
	sha256_final(&h, d);
	sha256_to_hex(d, hex);
}
