// SPDX-License-Identifier: MIT
/*
 * import_diskspd_text.c: DiskSpd's default text output (-Rtext; 2.0.x, 2.1 and 2.2) as results:
 * what Windows administrators paste into tickets and blogs.  The layout is ResultParser.cpp of
 * microsoft/diskspd (v2.0.21a, v2.1 and v2.2 read side by side):
 *
 *   Command Line: ...                         (optional in pasted text)
 *   Input parameters:   timespan: N / duration / warm up time / random seed / measuring
 *                       latency / gathering IOPS / path: '...' and its target lines
 *   System information: computer name / start time / (2.2) cpu count ...
 *   Results for timespan N:                   (one result each; "The test was interrupted
 *                                              before the measurements began." instead)
 *     actual test time (%.2f s) / thread count / (2.0, 2.1) proc count
 *     CPU table ending in "avg.|  Usage% |  User% |  Kernel% |  Idle%"
 *     Total IO / Read IO / Write IO: "thread | bytes | I/Os | MiB/s | I/O per s [| AvgLat]
 *       [| IopsStdDev] [| LatStdDev] | file" rows per thread and target, then "total: ..."
 *     with -L: per-target latency charts (>1 target), then the total one: "total:" (2.0, 2.1)
 *       or "Total latency distribution:" (2.2), "%-ile | Read (ms) | Write (ms) | Total (ms)",
 *       rows min, 25th ... 99th, 3-nines ... 9-nines, max (N/A where a direction had no I/O)
 *
 * Reads -> database reads, writes -> database writes, as the XML importer does, and with the
 * same arithmetic (IOPS and MB/s from the counts and the actual test time) so one run gives the
 * same numbers from its XML and from its text.  The text carries no per-interval data (no
 * timeline) and no version (the version is the layout's: "2.0.x", "2.1" or "2.2").  Text whose
 * rows do not add up to its totals, whose rates disagree with its counts and time, or whose
 * rows cover fewer threads than it ran was cut or edited: refused.
 */
#include "compare/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/import_diskspd_textP.h"
#include "lib/msg.h"
#include "lib/strbuf.h"

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

static size_t distinct(unsigned int *v, size_t n)
{
	size_t d = 0;

	qsort(v, n, sizeof(*v), cmp_uint);
	for (size_t i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	return d;
}

/*
 * The layout's DiskSpd version (the text names none), or NULL when it does not tell, from
 * lines only some versions print: 2.2 alone has "cpu count" in System information and "Total
 * latency distribution:", and no "proc count" in the results; 2.1 and 2.2 say "number of
 * outstanding I/O operations per thread" (or "relative IO weight in thread pool"), 2.0.x
 * "number of outstanding I/O operations".
 */
static const char *layout_version(const struct dt_lines *ls)
{
	bool per_thread = false, plain_qd = false, proc = false, results = false;

	for (size_t i = 0; i < ls->n; i++) {
		const char *l = ls->l[i];

		if (dt_starts(l, "cpu count:") || dt_is_line(l, "Total latency distribution:"))
			return "2.2";
		per_thread |= dt_starts(l, "number of outstanding I/O operations per thread:") ||
			      dt_starts(l, "relative IO weight in thread pool:");
		plain_qd |= dt_starts(l, "number of outstanding I/O operations:");
		proc |= dt_starts(l, "proc count:");
		results |= dt_starts(l, "actual test time:");
	}
	if (per_thread)
		return proc ? "2.1" : results ? "2.2" : NULL;
	if (plain_qd)
		return "2.0.x";
	return proc || !results ? NULL : "2.2";
}

static char *workload_name(const struct dt_params *p)
{
	int w = p->write_pct;

	if (p->random < 0 || w < 0)
		return NULL;
	if (p->random == 1)
		return xstrdup(!w ? "randread" : w == 100 ? "randwrite" : "randrw");
	if (p->random == 2)
		return xasprintf("diskspd:mixed-r%u-w%d", p->random_pct, w);
	return w == 100 ? xstrdup("seqwrite") : xasprintf("diskspd:sequential-w%d", w);
}

/* What the lines of one "Results for timespan N:" block say. */
struct dt_span {
	double secs, cpu[3];      /* actual test time; CPU avg. total, user, kernel (%) */
	uint64_t threads, procs;
	bool interrupted, cpu_seen;
	struct dt_section sec[3]; /* Total IO, Read IO, Write IO */
	struct dt_chart ch;
};

/* The lines (i, end) of a timespan into sp. */
static int read_timespan(struct dt_text *t, size_t i, size_t end, struct dt_span *sp)
{
	static const char *const titles[3] = { "Total IO", "Read IO", "Write IO" };
	struct strbuf v = STRBUF_INIT;
	int ret = 0;

	for (i++; i < end && !ret; i++) {
		const char *l = t->ls.l[i];

		if (dt_starts(l, "The test was interrupted before the measurements began")) {
			sp->interrupted = true;
		} else if (dt_value_of(l, "actual test time", &v)) {
			if (!dt_num_d(v.buf, "s", &sp->secs) || !(sp->secs > 0))
				ret = dt_damaged(t, i, "an actual test time that is not a positive number");
		} else if (dt_value_of(l, "thread count", &v)) {
			if (!dt_num_u64(v.buf, &sp->threads) || !sp->threads || sp->threads > 1u << 20)
				ret = dt_damaged(t, i, "a thread count that is not a number");
		} else if (dt_value_of(l, "proc count", &v)) {
			if (!dt_num_u64(v.buf, &sp->procs) || sp->procs > 1u << 16)
				ret = dt_damaged(t, i, "a proc count that is not a number");
		} else if (dt_starts(l, "avg.|")) {
			char *row = xstrdup(dt_skip_ws(l)), *f[6];

			sp->cpu_seen = dt_fields(row, f, ARRAY_SIZE(f)) == 5 &&
				       dt_num_d(f[1], "%", &sp->cpu[0]) && dt_num_d(f[2], "%", &sp->cpu[1]) &&
				       dt_num_d(f[3], "%", &sp->cpu[2]);
			free(row);
			if (!sp->cpu_seen)
				ret = dt_damaged(t, i, "a CPU average line that is not DiskSpd's");
		} else if (dt_is_line(l, "Total IO") || dt_is_line(l, "Read IO") || dt_is_line(l, "Write IO")) {
			int s = dt_is_line(l, "Total IO") ? 0 : dt_is_line(l, "Read IO") ? 1 : 2;
			size_t next = i + 1;

			if (sp->sec[s].present)
				ret = dt_damaged(t, i, "an IO table twice in one timespan");
			else if (!(sp->secs > 0))
				ret = dt_damaged(t, i, "an IO table before the actual test time");
			else if (!(ret = dt_read_section(t, i, titles[s], sp->secs, &sp->sec[s], &next)))
				i = next - 1;
		} else if (dt_is_line(l, "Total latency distribution:") || dt_is_line(l, "total:")) {
			if (sp->ch.present)
				ret = dt_damaged(t, i, "two total latency charts in one timespan");
			else
				ret = dt_read_chart(t, i, &sp->ch);
		}
	}
	strbuf_release(&v);
	return ret;
}

/* Does a finished timespan (lines [start, end)) hold what DiskSpd prints, consistently? */
static int check_timespan(const struct dt_text *t, const struct dt_span *sp, size_t start,
			  size_t end)
{
	const struct dt_section *sec = sp->sec;

	/* what every finished timespan prints */
	if (!(sp->secs > 0) || !sp->threads || !sp->cpu_seen || !sec[0].present ||
	    !sec[1].present || !sec[2].present)
		return dt_damaged(t, end - 1, !(sp->secs > 0) ? "a timespan without its actual test time"
			       : !sp->threads ? "a timespan without its thread count"
			       : !sp->cpu_seen ? "a timespan without the CPU table's avg. line"
			       : "a timespan without all three IO tables (Total IO, Read IO, Write IO)");
	if (sec[0].bytes != sec[1].bytes + sec[2].bytes || sec[0].ios != sec[1].ios + sec[2].ios)
		return dt_damaged(t, start, "Total IO is not Read IO + Write IO");
	for (int s = 0; s < 3; s++) {
		if (!dt_rates_fit(&sec[s], sp->secs))
			return dt_damaged(t, start, "MiB/s or I/O per s of a total line disagree with "
				       "its bytes, I/Os and the actual test time");
		if (sec[s].rows != sec[0].rows || sec[s].has_lat != sec[0].has_lat)
			return dt_damaged(t, start, "IO tables of different shapes");
	}
	/* DiskSpd prints a row for every thread and target: fewer threads means rows were cut */
	if (distinct(sec[0].threads, sec[0].rows) != sp->threads) {
		char *what = xasprintf("the IO tables have rows of %zu threads but the thread count "
				       "is %llu", distinct(sec[0].threads, sec[0].rows),
				       (unsigned long long)sp->threads);
		int ret = dt_damaged(t, start, what);

		free(what);
		return ret;
	}
	if (sec[0].has_lat && !sp->ch.present)
		return dt_damaged(t, end - 1, "latencies measured (-L: AvgLat columns) but no total "
			       "latency chart");
	/* isnan() is any nonzero int (mingw's is not 1): compared as bool */
	for (int d = 0; d < 2; d++)
		if (sec[1 + d].has_lat && (bool)isnan(sp->ch.v[d][0]) != !sec[1 + d].ios)
			return dt_damaged(t, start, "a latency chart with N/A for a direction that has "
				       "I/O, or values for one that has none");
	return 0;
}

/* The Input parameters of the timespan (p, or NULL: none) into r's config. */
static void params_config(struct fslab_result *r, const struct dt_params *p)
{
	r->config.engine = xstrdup("diskspd");
	r->config.databases = 1;
	if (p) {
		r->config.workload = workload_name(p);
		r->config.duration_s = isfinite(p->duration) ? p->duration : 0;
		r->config.warmup_s = isfinite(p->warmup) ? p->warmup : 0;
		r->config.seed = p->seed;
		r->config.bs = p->bs_exact ? p->bs : 0;
		r->config.iodepth = p->qd;
		/* what the Input parameters say; a field they do not give is not recorded */
		import_recorded(r, workload);
		import_recorded(r, bs);
		import_recorded(r, iodepth);
		import_recorded(r, duration_s);
		import_recorded(r, warmup_s);
		import_recorded(r, seed);
	}
	import_recorded(r, engine);
}

/* A checked timespan's measurements into r. */
static void span_result(struct fslab_result *r, const struct dt_text *t, const struct dt_span *sp)
{
	const struct dt_section *sec = sp->sec;

	r->duration_s = sp->secs;
	r->config.threads = (unsigned int)sp->threads;
	r->config.db_size = sec[0].file_size;
	import_recorded(r, threads);
	import_recorded(r, db_size);
	for (int d = 0; d < 2; d++) {
		const struct dt_section *s = &sec[1 + d];
		struct class_result *c = &r->classes[d ? CLS_DB_WRITE : CLS_DB_READ];

		c->ops = s->ios;
		c->bytes = s->bytes;
		c->iops = (double)s->ios / sp->secs;
		c->mbps = (double)s->bytes / sp->secs / 1e6;
		c->avg_bytes = s->ios ? (double)s->bytes / (double)s->ios : NAN;
		import_lat_na(c);
		if (!s->has_lat || !s->ios)
			continue;
		c->lat_us.mean = s->avglat * 1e3;
		c->lat_us.stddev = s->latsd * 1e3;
		c->lat_us.min = sp->ch.v[d][0] * 1e3;
		c->lat_us.p50 = sp->ch.v[d][1] * 1e3;
		c->lat_us.p90 = sp->ch.v[d][2] * 1e3;
		c->lat_us.p99 = sp->ch.v[d][3] * 1e3;
		c->lat_us.p99_9 = sp->ch.v[d][4] * 1e3;
		c->lat_us.p99_99 = sp->ch.v[d][5] * 1e3;
		c->lat_us.max = sp->ch.v[d][6] * 1e3;
	}
	for (int c = CLS_LOG_WRITE; c < CLS_NR; c++)
		r->classes[c].iops = r->classes[c].mbps = 0;
	r->host.cpu_pct_avg = sp->cpu[0];
	r->host.cpu_user_pct = sp->cpu[1];
	r->host.cpu_sys_pct = sp->cpu[2];
	r->host.ncpus = (int)(sp->procs ? sp->procs : t->cpu_count);
	result_add_note(r, "imported from %s (%s)%s; the text has no per-interval data: no "
			"timeline", t->file, r->src.format, sec[0].has_lat ? ""
			: "; no -L: latencies n/a");
}

/* One "Results for timespan N:" block, lines [i, end): the k-th of nts. */
static int one_timespan(struct dt_text *t, size_t i, size_t end, size_t k, size_t nts,
			struct import_list *out)
{
	struct dt_span sp = { .secs = NAN, .cpu = { NAN, NAN, NAN } };
	struct fslab_result *r;
	char sfx[32];
	int ret = read_timespan(t, i, end, &sp);

	if (!ret && !sp.interrupted)
		ret = check_timespan(t, &sp, i, end);
	if (ret)
		goto out;
	snprintf(sfx, sizeof(sfx), "ts%zu", k + 1);
	r = import_add(out, nts > 1 ? sfx : NULL, "diskspd", t->version, NULL, t->file,
		       t->host && *t->host ? t->host : NULL);
	r->src.format = t->version ? xasprintf("DiskSpd text, %s layout", t->version)
				   : xstrdup("DiskSpd text");
	r->started_at = t->start ? xstrdup(t->start) : NULL;
	params_config(r, k < t->nparams ? &t->params[k] : NULL);
	if (t->cmdline)
		result_add_note(r, "DiskSpd command line: %.300s", t->cmdline);
	if (sp.interrupted) {
		r->aborted = true;
		r->abort_reason = xstrdup("DiskSpd: The test was interrupted before the measurements "
					  "began. No results are displayed.");
		r->config.threads = 1;
	} else {
		span_result(r, t, &sp);
	}
	import_finish(r);
out:
	for (int s = 0; s < 3; s++)
		free(sp.sec[s].threads);
	return ret;
}

/* ---- the importer ---- */

static bool diskspd_text_sniff(const char *buf, size_t len)
{
	const char *p = dt_skip_ws(buf);

	(void)len;
	while (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')
		p++;
	if (*p == '{' || *p == '<')
		return false;
	/* DiskSpd's section titles at the start of a line */
	for (const char *s = buf; s; s = strchr(s, '\n')) {
		s += *s == '\n';
		if (dt_starts(s, "Command Line:") || dt_starts(s, "Input parameters:") ||
		    dt_starts(s, "Results for timespan "))
			return true;
	}
	return false;
}

static int diskspd_text_parse(const char *buf, size_t len, const char *file,
			      struct import_list *out)
{
	struct dt_text t = { .file = file };
	char *copy = dt_split_lines(buf, len, &t.ls);
	struct strbuf v = STRBUF_INIT;

	size_t i = 0, nts = 0, k = 0, *at = NULL;
	bool params = false;
	int ret = 0;

	t.version = layout_version(&t.ls);
	for (i = 0; i < t.ls.n; i++) {
		const char *l = t.ls.l[i];

		if (dt_value_of(l, "Command Line", &v) && !t.cmdline) {
			t.cmdline = xstrdup(v.buf);
		} else if (dt_starts(l, "Input parameters:") && !params) {
			params = true;
			i = dt_read_params(&t, i + 1) - 1;
		} else if (dt_starts(l, "System information:")) {
			i = dt_read_system(&t, i) - 1;
		} else if (dt_starts(l, "Results for timespan ")) {
			if (i + 1 >= t.ls.n || strspn(dt_skip_ws(t.ls.l[i + 1]), "*") < 10) {
				ret = dt_damaged(&t, i, "\"Results for timespan\" without its line of "
					      "asterisks");
				break;
			}
			at = xrealloc(at, (nts + 1) * sizeof(size_t));
			at[nts++] = i;
		} else if (dt_is_line(l, "Totals:")) {
			/* the sum over timespans: each timespan is a result already */
			at = xrealloc(at, (nts + 1) * sizeof(size_t));
			at[nts] = i;
			break;
		}
	}
	if (!ret && !nts)
		ret = input_error("%s: DiskSpd text output without \"Results for timespan\": the run "
				  "did not finish or the output was cut; save its whole output again "
				  "(diskspd ... > FILE)", file);
	else if (!ret && nts > IMPORT_MAX_RESULTS)
		ret = input_error("%s: DiskSpd text output of %zu timespans, more than the %d results "
				  "fslab reads from one file; the file is damaged", file, nts,
				  IMPORT_MAX_RESULTS);
	for (k = 0; k < nts && !ret; k++)
		ret = one_timespan(&t, at[k], k + 1 < nts ? at[k + 1]
					      : (i < t.ls.n ? i : t.ls.n), k, nts, out);
	strbuf_release(&v);
	free(at);
	free(t.params);
	free(t.cmdline);
	free(t.host);
	free(t.start);
	free(t.ls.l);
	free(copy);
	return ret;
}

const struct importer import_diskspd_text = {
	.tool = "diskspd",
	.name = "DiskSpd text",
	.format = "DiskSpd text output (-Rtext, the default)",
	.sniff = diskspd_text_sniff,
	.parse = diskspd_text_parse,
};
