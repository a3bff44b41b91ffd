// SPDX-License-Identifier: MIT
/* metrics.c: the rows of a comparison (Jetstress's terms) and what one result file says for
 * each: its value, its per-second series for batch means, its filesystem and devices. */
#include "compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "workloads/workload.h"

#define ROW(id, name, what, kind, cls, role, dir, prec) \
	{ id, name, what, kind, cls, role, dir, prec, false, 0 }
#define HIDDEN(id, name, kind, cls, dir, prec) \
	{ id, name, name, kind, cls, NULL, dir, prec, true, 0 }
/* a row of the volume view: hidden from the full table, which it would only repeat */
#define DEVICE(id, name, kind, role, dir, prec) \
	{ id, name, name, kind, -1, role, dir, prec, true, 0 }
/* a row only for workloads with flags (a backup's throughput) */
#define ROW_FOR(flags, id, name, what, kind, cls, dir, prec) \
	{ id, name, what, kind, cls, NULL, dir, prec, false, flags }
#define CLASS_ROWS(kind, prefix, suffix, dir, prec) \
	ROW(prefix "db_read" suffix, NULL, NULL, kind, CLS_DB_READ, NULL, dir, prec), \
	ROW(prefix "db_write" suffix, NULL, NULL, kind, CLS_DB_WRITE, NULL, dir, prec), \
	ROW(prefix "log_write" suffix, NULL, NULL, kind, CLS_LOG_WRITE, NULL, dir, prec), \
	ROW(prefix "bdm_read" suffix, NULL, NULL, kind, CLS_BDM_READ, NULL, dir, prec)

/*
 * The rows, in the order of the issue (Jetstress's report order).  Rows with a NULL name are
 * per-class percentile rows whose titles are built from class_titles[] below.
 */
const struct metric_def compare_metrics[] = {
	ROW("runs", "Runs", NULL, MK_RUNS, -1, NULL, DIR_NEUTRAL, 0),
	ROW("tool", "Measured by", NULL, MK_TOOL, -1, NULL, DIR_NEUTRAL, 0),
	ROW("threads", "Threads", NULL, MK_THREADS, -1, NULL, DIR_NEUTRAL, 0),
	ROW("mismatch", "WARNING: differs from the reference", NULL, MK_MISMATCH, -1, NULL,
	    DIR_NEUTRAL, 0),
	ROW("trans_iops", "Achieved transactional IOPS", "transactional IOPS", MK_TRANS_IOPS, -1,
	    NULL, DIR_HIGHER, 0),
	/* a comparison of tuned loads (--threads auto) has this row in trans_iops' place: the
	 * same figure, at the largest thread count that passed (compare_row() answers for
	 * trans_iops with it) */
	ROW("capacity", "Capacity: transactional IOPS at the tuned thread count", "capacity",
	    MK_TRANS_IOPS, -1, NULL, DIR_HIGHER, 0),
	/* Jetstress's soft recovery: the time to replay one log file */
	ROW_FOR(WL_REPLAY, "replay_per_log", "Log replay time per log file (s)",
		"time per log file", MK_REPLAY, -1, DIR_LOWER, 3),
	ROW_FOR(WL_REPLAY, "replay_per_log_p95", "Log replay time per log file, p95 (s)",
		"95th percentile of the time per log file", MK_REPLAY_P95, -1, DIR_LOWER, 3),
	/* Jetstress's backup report: MB read/s overall and per database */
	ROW_FOR(WL_THROUGHPUT, "db_read_throughput", "Database read throughput (MB/s)",
		"database read throughput", MK_MBPS, CLS_DB_READ, DIR_HIGHER, 1),
	ROW_FOR(WL_THROUGHPUT, "db_read_throughput_per_db",
		"Database read throughput per database (MB/s)",
		"database read throughput per database", MK_MBPS_PER_DB, CLS_DB_READ, DIR_HIGHER, 1),
	ROW("db_read_iops", "I/O database reads/s", "database reads/s", MK_IOPS, CLS_DB_READ, NULL,
	    DIR_HIGHER, 0),
	ROW("db_write_iops", "I/O database writes/s", "database writes/s", MK_IOPS, CLS_DB_WRITE,
	    NULL, DIR_HIGHER, 0),
	ROW("db_read_lat_avg", "I/O database reads average latency (ms)", "database read latency",
	    MK_LAT_MEAN, CLS_DB_READ, NULL, DIR_LOWER, 3),
	ROW("db_write_lat_avg", "I/O database writes average latency (ms)",
	    "database write latency", MK_LAT_MEAN, CLS_DB_WRITE, NULL, DIR_LOWER, 3),
	ROW("log_write_iops", "I/O log writes/s", "log writes/s", MK_IOPS, CLS_LOG_WRITE, NULL,
	    DIR_HIGHER, 0),
	ROW("log_write_lat_avg", "I/O log writes average latency (ms)", "log write latency",
	    MK_LAT_MEAN, CLS_LOG_WRITE, NULL, DIR_LOWER, 3),
	ROW("log_write_avg_bytes", "I/O log writes average bytes", "log write size", MK_AVG_BYTES,
	    CLS_LOG_WRITE, NULL, DIR_NEUTRAL, 0),
	ROW("bdm_read_iops", "BDM reads/s", "BDM reads/s", MK_IOPS, CLS_BDM_READ, NULL, DIR_HIGHER,
	    1),
	ROW("bdm_read_mbps", "BDM throughput (MB/s)", "BDM throughput", MK_MBPS, CLS_BDM_READ, NULL,
	    DIR_HIGHER, 2),
	ROW("total_mbps", "Total throughput (MB/s)", "total throughput", MK_TOTAL_MBPS, -1, NULL,
	    DIR_HIGHER, 1),
	CLASS_ROWS(MK_LAT_P99, "", "_lat_p99", DIR_LOWER, 3),
	CLASS_ROWS(MK_LAT_P999, "", "_lat_p99_9", DIR_LOWER, 3),
	CLASS_ROWS(MK_LAT_MAX, "", "_lat_max", DIR_LOWER, 3),
	ROW("db_wa", "Write amplification, database volume", "database volume write amplification",
	    MK_WA, -1, "db", DIR_LOWER, 2),
	ROW("log_wa", "Write amplification, log volume", "log volume write amplification", MK_WA,
	    -1, "log", DIR_LOWER, 2),
	ROW("cache_reads", "Cache-served reads (database volume)", NULL, MK_CACHE, -1, "db",
	    DIR_NEUTRAL, 0),
	ROW("cpu", "Host CPU (%)", "host CPU", MK_CPU, -1, NULL, DIR_LOWER, 1),
	ROW("mem", "Host memory used (GiB)", "host memory used", MK_MEM, -1, NULL, DIR_LOWER, 2),
	ROW("verdict", "Verdict", NULL, MK_VERDICT, -1, NULL, DIR_NEUTRAL, 0),
	ROW("shape", "Load shape (Jetstress's ratios)", NULL, MK_SHAPE, -1, NULL, DIR_NEUTRAL, 0),
	ROW("steady", "Steady state", NULL, MK_STEADY, -1, NULL, DIR_NEUTRAL, 0),
	/* for the charts */
	HIDDEN("db_read_mbps", "database read throughput (MB/s)", MK_MBPS, CLS_DB_READ, DIR_HIGHER,
	       2),
	HIDDEN("db_write_mbps", "database write throughput (MB/s)", MK_MBPS, CLS_DB_WRITE,
	       DIR_HIGHER, 2),
	HIDDEN("log_write_mbps", "log write throughput (MB/s)", MK_MBPS, CLS_LOG_WRITE, DIR_HIGHER,
	       2),
	HIDDEN("bdm_read_lat_avg", "BDM read average latency (ms)", MK_LAT_MEAN, CLS_BDM_READ,
	       DIR_LOWER, 3),
	/* the volumes as the devices saw them (the report's volume view, seed 001's ESX view) */
	DEVICE("db_dev_iops", "Database volume: device I/Os per second", MK_DEV_IOPS, "db",
	       DIR_HIGHER, 0),
	DEVICE("db_dev_mbps", "Database volume: device MB/s", MK_DEV_MBPS, "db", DIR_HIGHER, 1),
	DEVICE("db_dev_util", "Database volume: device busy (%)", MK_DEV_UTIL, "db", DIR_LOWER, 0),
	DEVICE("log_dev_iops", "Log volume: device I/Os per second", MK_DEV_IOPS, "log",
	       DIR_HIGHER, 0),
	DEVICE("log_dev_mbps", "Log volume: device MB/s", MK_DEV_MBPS, "log", DIR_HIGHER, 1),
	DEVICE("log_dev_util", "Log volume: device busy (%)", MK_DEV_UTIL, "log", DIR_LOWER, 0),
};
const size_t compare_nmetrics = ARRAY_SIZE(compare_metrics);

const char *const compare_headline[COMPARE_NHEADLINE] = {
	"trans_iops", "db_read_lat_avg", "log_write_lat_avg", "total_mbps",
};

bool compare_is_headline(const char *id)
{
	for (size_t i = 0; i < COMPARE_NHEADLINE; i++)
		if (!strcmp(compare_headline[i], id))
			return true;
	/* the first headline metric of a comparison of tuned loads */
	return !strcmp(id, "capacity");
}

/* Titles of the generated per-class rows (p99, p99.9, max) and their sentence nouns. */
static const char *const class_titles[CLS_NR] = {
	"database reads", "database writes", "log writes", "BDM reads",
};

static const char *kind_title(enum metric_kind k)
{
	switch (k) {
	case MK_LAT_P99: return "p99 latency";
	case MK_LAT_P999: return "p99.9 latency";
	default: return "Maximum latency";
	}
}

/* Row titles of the per-class rows are built once, on first use. */
static char *class_row_names[ARRAY_SIZE(compare_metrics)];

const struct metric_def *compare_metric_at(size_t i, struct metric_def *tmp)
{
	const struct metric_def *m = &compare_metrics[i];

	if (m->name)
		return m;
	if (!class_row_names[i])
		class_row_names[i] = xasprintf("%s, %s (ms)", kind_title(m->kind),
					       class_titles[m->cls]);
	*tmp = *m;
	tmp->name = class_row_names[i];
	tmp->what = class_row_names[i];
	return tmp;
}

bool compare_metric_is_text(const struct metric_def *m)
{
	switch (m->kind) {
	case MK_RUNS:
	case MK_TOOL:
	case MK_THREADS:
	case MK_MISMATCH:
	case MK_CACHE:
	case MK_VERDICT:
	case MK_STEADY:
	case MK_SHAPE:
		return true;
	default:
		return false;
	}
}


/* ---- facts of one result ---- */

const char *compare_tool(const struct fslab_result *r)
{
	return r->src.tool ? r->src.tool : "fslab";
}

char *compare_tool_text(const struct fslab_result *r)
{
	static const struct {
		const char *tool, *name;
	} names[] = {
		{ "fslab", "fslab" }, { "fio", "fio" }, { "diskspd", "DiskSpd" },
		{ "jetstress", "Jetstress" },
	};
	const char *t = compare_tool(r), *name = t;
	const char *v = r->src.tool ? r->src.version : r->fslab_version;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i].tool, t))
			name = names[i].name;
	return v ? xasprintf("%s %s", name, v) : xstrdup(name);
}

const char *compare_result_fs(const struct fslab_result *r)
{
	json_t *vols = json_object_get(r->environment, "volumes"), *v, *prep;
	size_t i;

	json_array_foreach(vols, i, v) {
		const char *role = json_string_value(json_object_get(v, "role"));
		const char *fs = json_string_value(json_object_get(v, "fstype"));

		if (role && fs && !strcmp(role, "db"))
			return fs;
	}
	prep = json_object_get(r->environment, "prep");
	if (json_is_string(json_object_get(prep, "fs")))
		return json_string_value(json_object_get(prep, "fs"));
	return r->label;
}

const struct device_result *compare_device(const struct fslab_result *r, const char *role)
{
	for (size_t i = 0; i < r->ndevices; i++)
		if (r->devices[i].role && !strcmp(r->devices[i].role, role))
			return &r->devices[i];
	for (size_t i = 0; i < r->ndevices; i++)
		if (r->devices[i].role && !strcmp(r->devices[i].role, "db+log"))
			return &r->devices[i];
	return NULL;
}

/* Did a class do I/O?  Imported reports without counts (Jetstress) have only rates. */
static bool did_io(const struct class_result *cl)
{
	return cl->ops || cl->iops > 0;
}

/* Milliseconds from microseconds, NAN for a class that did no I/O (or an n/a value). */
static double lat_ms(const struct class_result *cl, double us)
{
	return did_io(cl) ? us / 1e3 : NAN;
}

/*
 * A role's devices as their counters saw the measured seconds: every device of that role
 * summed (several --db volumes on several disks), utilisation averaged over them.  A device
 * that carried both ("db+log": one disk under both directories) answers for the database and
 * not for the log, so its I/O is counted once.  NAN when the result has no such device.
 */
static double device_value(const struct fslab_result *r, const struct metric_def *m)
{
	double sum = 0;
	size_t n = 0;

	for (int pass = 0; pass < 2 && !n; pass++) {
		for (size_t i = 0; i < r->ndevices; i++) {
			const struct device_result *d = &r->devices[i];

			if (!d->role || strcmp(d->role, pass ? "db+log" : m->role))
				continue;
			if (pass && strcmp(m->role, "db"))
				continue;
			n++;
			if (m->kind == MK_DEV_IOPS)
				sum += (double)(d->read_ios + d->write_ios);
			else if (m->kind == MK_DEV_MBPS)
				sum += (double)(d->read_bytes + d->write_bytes) / 1e6;
			else
				sum += d->util_pct;
		}
	}
	if (!n || !(r->duration_s > 0))
		return NAN;
	return m->kind == MK_DEV_UTIL ? sum / (double)n : sum / r->duration_s;
}

double compare_run_value(const struct fslab_result *r, const struct metric_def *m)
{
	const struct class_result *cl = m->cls >= 0 ? &r->classes[m->cls] : NULL;
	const struct device_result *d;
	double sum = 0;

	switch (m->kind) {
	case MK_TRANS_IOPS:
		return r->transactional_iops;
	case MK_IOPS:
		return cl->iops;
	case MK_MBPS:
		return cl->mbps;
	case MK_MBPS_PER_DB:
		if (!r->ninstances)
			return NAN;
		for (size_t i = 0; i < r->ninstances; i++)
			sum += r->instances[i].classes[m->cls].mbps;
		return sum / r->ninstances;
	case MK_TOTAL_MBPS: /* classes an imported report does not give are left out */
		sum = NAN;
		for (int i = 0; i < CLS_NR; i++)
			if (!isnan(r->classes[i].mbps))
				sum = (isnan(sum) ? 0 : sum) + r->classes[i].mbps;
		return sum;
	case MK_LAT_MEAN:
		return lat_ms(cl, cl->lat_us.mean);
	case MK_AVG_BYTES:
		return did_io(cl) ? cl->avg_bytes : NAN;
	case MK_LAT_P99:
		return lat_ms(cl, cl->lat_us.p99);
	case MK_LAT_P999:
		return lat_ms(cl, cl->lat_us.p99_9);
	case MK_LAT_MAX:
		return lat_ms(cl, cl->lat_us.max);
	case MK_WA:
		d = compare_device(r, m->role);
		return d && d->write_amplification > 0 ? d->write_amplification : NAN;
	case MK_CPU:
		return r->host.cpu_pct_avg;
	case MK_MEM: /* 0: not recorded (another tool's result) */
		return r->host.mem_used_avg ? r->host.mem_used_avg / (double)GiB : NAN;
	case MK_DEV_IOPS:
	case MK_DEV_MBPS:
	case MK_DEV_UTIL:
		return device_value(r, m);
	case MK_REPLAY:
		return r->recovery.present ? r->recovery.per_log_mean : NAN;
	case MK_REPLAY_P95:
		return r->recovery.present ? r->recovery.per_log_p95 : NAN;
	default:
		return NAN;
	}
}

double compare_limit(const struct compare *c, const char *check, double dflt)
{
	for (size_t i = 0; i < c->nresults; i++) {
		const struct verdict *v = &c->results[i].verdict;

		for (size_t k = 0; k < v->nchecks; k++)
			if (!strcmp(v->checks[k].name, check) && v->checks[k].limit > 0)
				return v->checks[k].limit;
	}
	return dflt;
}

/* ---- timeline series for batch means ---- */

static int tl_col(const struct timeline *t, const char *cls, const char *what)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_%s", cls, what);
	return timeline_col(t, name);
}

/* Which columns a metric's per-row value is made of, and how. */
struct tl_spec {
	int cols[CLS_NR][2], ncols;
	double scale;
	bool weighted;
	enum metric_kind kind;
};

/* 0, or -ENOENT when the metric has no timeline form or a column is missing. */
static int tl_spec(const struct timeline *t, const struct metric_def *m, struct tl_spec *sp)
{
	int (*cols)[2] = sp->cols, ncols = 0;
	double scale = 1;
	bool weighted = false;

	switch (m->kind) {
	case MK_TRANS_IOPS:
		cols[0][0] = tl_col(t, io_class_names[CLS_DB_READ], "ops");
		cols[1][0] = tl_col(t, io_class_names[CLS_DB_WRITE], "ops");
		ncols = 2;
		break;
	case MK_IOPS:
		cols[0][0] = tl_col(t, io_class_names[m->cls], "ops");
		ncols = 1;
		break;
	case MK_MBPS:
		cols[0][0] = tl_col(t, io_class_names[m->cls], "bytes");
		ncols = 1;
		scale = 1e-6;
		break;
	case MK_TOTAL_MBPS:
		for (int i = 0; i < CLS_NR; i++)
			cols[i][0] = tl_col(t, io_class_names[i], "bytes");
		ncols = CLS_NR;
		scale = 1e-6;
		break;
	case MK_LAT_MEAN: /* sum(ops * mean) / sum(ops), in ms */
		cols[0][0] = tl_col(t, io_class_names[m->cls], "lat_mean_us");
		cols[0][1] = tl_col(t, io_class_names[m->cls], "ops");
		ncols = 1;
		scale = 1e-3;
		weighted = true;
		break;
	case MK_AVG_BYTES: /* sum(bytes) / sum(ops) */
		cols[0][0] = tl_col(t, io_class_names[m->cls], "bytes");
		cols[0][1] = tl_col(t, io_class_names[m->cls], "ops");
		ncols = 1;
		weighted = true;
		break;
	case MK_CPU:
		cols[0][0] = timeline_col(t, "cpu_pct");
		ncols = 1;
		break;
	default:
		return -ENOENT;
	}
	for (int i = 0; i < ncols; i++)
		if (cols[i][0] < 0 || (weighted && cols[i][1] < 0))
			return -ENOENT;
	sp->ncols = ncols;
	sp->scale = scale;
	sp->weighted = weighted;
	sp->kind = m->kind;
	return 0;
}

/* One row's numerator and denominator. */
static void tl_eval(const struct tl_spec *sp, const double *row, double *num, double *den)
{
	double w = sp->weighted ? row[sp->cols[0][1]] : 1;

	*num = 0;
	*den = isfinite(w) ? w : 0;
	if (*den <= 0)
		return;
	for (int i = 0; i < sp->ncols; i++) {
		double v = row[sp->cols[i][0]];

		if (isfinite(v))
			*num += sp->scale * (sp->kind == MK_LAT_MEAN ? v * w : v);
	}
}

/* Rows read per pass step: a spilled timeline is read in chunks, never whole into memory. */
#define TL_CHUNK 4096

/*
 * Every row r in [first, last) of t through fn(ctx, r, num, den), in chunks of TL_CHUNK rows.
 * 0, -ENOENT (no timeline form), or -errno when a spilled timeline cannot be read.
 */
static int tl_walk(const struct timeline *t, const struct metric_def *m, size_t first,
		   size_t last, void (*fn)(void *ctx, size_t r, double num, double den), void *ctx)
{
	struct tl_spec sp;
	double *rows;
	int ret = tl_spec(t, m, &sp);

	if (ret)
		return ret;
	last = MIN(last, t->nrows);
	rows = xmalloc(TL_CHUNK * (t->ncols + 1) * sizeof(double));
	for (size_t r0 = first; r0 < last && !ret; r0 += TL_CHUNK) {
		size_t n = MIN((size_t)TL_CHUNK, last - r0);

		ret = timeline_rows(t, r0, n, rows);
		for (size_t i = 0; i < n && !ret; i++) {
			double num, den;

			tl_eval(&sp, rows + i * t->ncols, &num, &den);
			fn(ctx, r0 + i, num, den);
		}
	}
	free(rows);
	return ret;
}

struct series_ctx {
	double *num, *den;
};

static void to_series(void *ctx, size_t r, double num, double den)
{
	struct series_ctx *x = ctx;

	x->num[r] = num;
	x->den[r] = den;
}

int compare_timeline_series(const struct timeline *t, const struct metric_def *m, double *num,
			    double *den)
{
	struct series_ctx x = { num, den };

	return tl_walk(t, m, 0, t->nrows, to_series, &x);
}

struct fold_ctx {
	size_t skip, per;
	bool ratio;
	double *sum_num, *sum_den;
};

static void to_fold(void *ctx, size_t r, double num, double den)
{
	struct fold_ctx *x = ctx;
	size_t b = (r - x->skip) / x->per;

	if (!x->ratio) {
		x->sum_num[b] += num;
		x->sum_den[b] += den;
	} else if (den > 0) {
		x->sum_num[b] += num / den;
		x->sum_den[b] += 1;
	}
}

int compare_timeline_fold(const struct timeline *t, const struct metric_def *m, size_t skip,
			  size_t per, size_t nb, bool ratio, double *sum_num, double *sum_den)
{
	struct fold_ctx x = { skip, per ? per : 1, ratio, sum_num, sum_den };

	if (skip >= t->nrows)
		return tl_spec(t, m, &(struct tl_spec){ 0 });
	return tl_walk(t, m, skip, skip + MIN(nb * x.per, t->nrows - skip), to_fold, &x);
}

/*
 * Batch means of a metric pooled over a group's runs into out (room for nruns * STATS_BATCHES).
 * Returns the number of batch values, or -ENOENT when any run has no usable timeline.
 */

/* ---- rows by name ---- */

const struct cmp_row *compare_row(const struct compare *c, const char *id)
{
	for (size_t r = 0; r < c->nrows; r++)
		if (!strcmp(c->rows[r].m->id, id))
			return &c->rows[r];
	/* tuned loads: their transactional IOPS are the capacity row's */
	return strcmp(id, "trans_iops") ? NULL : compare_row(c, "capacity");
}

double compare_mean(const struct compare *c, const char *id, size_t g)
{
	const struct cmp_row *row = compare_row(c, id);

	return row && row->cells[g].kind != CELL_NONE ? row->cells[g].s.mean : NAN;
}
