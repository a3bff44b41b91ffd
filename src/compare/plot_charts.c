// SPDX-License-Identifier: MIT
/* plot_charts.c: the comparison's charts, each its data file and its template's placeholders:
 * the means, bars per class, timelines, percentiles, the thread sweep, hosts (drawn by
 * plot.c); plot_all(), where they go. */
#include "compare/plotP.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/hosts_section.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "os/share.h"
#include "lib/strbuf.h"

/* the means' chart: smaller, as the one it was before it moved under Charts */
#define HEADLINE_SIZE "900,400"
#define GNUPLOT_PACKAGE "gnuplot-nox"

struct bars {
	const char *name, *title, *ylabel, *unit, *limit_name;
	bool logy;
	size_t ncat;
	const char *cats[6];
	const char *ids[6];     /* metric row per category */
	double limits[6];
};

static int bars(struct plot_ctx *x, const struct bars *b)
{
	const struct compare *c = x->c;
	double ymin = INFINITY, ymax = 0;
	char *buf = NULL, *lim, *title, *ylabel, ns[16], nc[16], lo[32], hi[32];
	size_t len = 0;
	struct os_memstream ms;
	FILE *m = os_memstream_open(&ms, &buf, &len);
	int ret = 0;

	fprintf(m, "# category, then mean, 95 %% CI low, CI high per label\n");
	for (size_t k = 0; k < b->ncat; k++) {
		const struct cmp_row *row = compare_row(c, b->ids[k]);

		fprintf(m, "\"%s\"", b->cats[k]);
		for (size_t g = 0; g < c->ngroups; g++) {
			const struct cmp_cell *cell = row ? &row->cells[g] : NULL;
			double v = cell && cell->kind != CELL_NONE ? cell->s.mean : NAN;
			double h = cell && isfinite(cell->s.half) ? cell->s.half : 0;

			if (b->logy && !(v > 0))
				v = NAN;
			plot_put_num(m, v);
			plot_put_num(m, v - h);
			plot_put_num(m, v + h);
			if (isfinite(v)) {
				ymin = fmin(ymin, fmax(v - h, v / 2));
				ymax = fmax(ymax, v + h);
			}
		}
		fputc('\n', m);
		ymax = fmax(ymax, b->limits[k]);
	}
	os_memstream_done(&ms);
	if (!(ymax > 0))
		goto out; /* nothing to draw */
	if (b->logy) {
		snprintf(lo, sizeof(lo), "%g", pow(10, floor(log10(ymin))));
		snprintf(hi, sizeof(hi), "%g", pow(10, ceil(log10(ymax * 1.5))));
	} else {
		snprintf(lo, sizeof(lo), "0");
		snprintf(hi, sizeof(hi), "%g", ymax * 1.15);
	}
	snprintf(ns, sizeof(ns), "%zu", c->ngroups);
	snprintf(nc, sizeof(nc), "%zu", b->ncat);
	lim = plot_gp_num_array(b->limits, b->ncat);
	title = plot_gp_escape(b->title);
	ylabel = plot_gp_escape(b->ylabel);
	{
		const char *kv[] = {
			"TITLE", title, "YLABEL", ylabel, "N", ns, "LABELS", x->labels, "NCAT", nc,
			"LOGY", b->logy ? "1" : "0", "YMIN", lo, "YMAX", hi, "LIMITS", lim,
			"LIMIT_NAME", b->limit_name ? b->limit_name : "limit", "UNIT", b->unit, NULL,
		};

		ret = plot_draw(x, b->name, b->title, "bars", buf, len, kv);
	}
	free(lim);
	free(title);
	free(ylabel);
out:
	free(buf);
	return ret;
}

/*
 * The lead metric (transactional IOPS, or the database read MB/s of a workload judged by
 * throughput) per label with its 95 % interval: the means, under Charts (the answer's chart
 * is the decisions', plot_forest.c).
 */
static int means(struct plot_ctx *x)
{
	const struct compare *c = x->c;
	const struct cmp_row *row = compare_row(c, "trans_iops");
	const struct cmp_row *tp = compare_row(c, "db_read_throughput");
	const bool rep = c->method == CMP_REPEATS, iops = !(row && row->m->hidden && tp);
	double ymax = 0, base = NAN;
	char *buf = NULL, *title, *t, *y, *bn, hi[32], bs[32], ns[16];
	size_t len = 0;
	struct os_memstream ms;
	FILE *m;
	int ret;

	if (!iops)
		row = tp;
	if (!row)
		return 0;
	m = os_memstream_open(&ms, &buf, &len);
	fprintf(m, "# label, mean, 95 %% CI low, CI high\n");
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_cell *cell = &row->cells[g];
		double v = cell->kind != CELL_NONE ? cell->s.mean : NAN;
		double h = isfinite(cell->s.half) ? cell->s.half : 0;
		char *e = plot_gp_escape(c->groups[g].label);

		/* a label is a data string here: quotes cannot occur (the label rule) */
		fprintf(m, "\"%s\"", e);
		free(e);
		plot_put_num(m, v);
		plot_put_num(m, v - h);
		plot_put_num(m, v + h);
		fputc('\n', m);
		if (isfinite(v))
			ymax = fmax(ymax, v + h);
		if ((int)g == c->baseline)
			base = v;
	}
	os_memstream_done(&ms);
	if (!(ymax > 0)) {
		free(buf);
		return 0;
	}
	snprintf(hi, sizeof(hi), "%g", ymax * 1.18);
	snprintf(ns, sizeof(ns), "%zu", c->ngroups);
	snprintf(bs, sizeof(bs), "%g", isfinite(base) && c->ngroups > 1 ? base : 0.0);
	title = xasprintf("%s per label (%s)", iops ? "Transactional IOPS" :
			  "Database read throughput, MB/s", rep ? "mean of the runs, 95 % CI" :
			  "one run each, 95 % interval within the run");
	t = plot_gp_escape(title);
	y = plot_gp_escape(iops ? "transactional IOPS (database reads + writes per second)" : "MB/s");
	bn = plot_gp_escape(c->groups[c->baseline].label);
	{
		const char *kv[] = {
			"TITLE", t, "YLABEL", y, "YMAX", hi, "BASE", bs, "BASE_NAME", bn,
			"FMT", iops ? "%.0f" : "%.1f", "N", ns, NULL,
		};

		ret = plot_draw_sized(x, "means", title, "means", HEADLINE_SIZE, buf, len, kv);
	}
	free(title);
	free(t);
	free(y);
	free(bn);
	free(buf);
	return ret;
}

/*
 * A chart's series has at most this many points: a chart is about a thousand pixels wide, and
 * gnuplot with millions of points takes minutes.  A longer timeline is drawn from the means of
 * consecutive seconds (docs/COMPARE.md).
 */
#define PLOT_MAX_POINTS 2000
/*
 * Labels a chart draws: a bar per label and class stays readable up to about this many, and
 * gnuplot's time grows fast beyond (measured here: 100 labels 2 s, 500 labels 8 s, 2000
 * labels 96 s for all charts).  More labels: the charts are skipped, said in the report.
 */
#define PLOT_MAX_LABELS 100

/* The series of a metric for a group, npts points of per seconds each: the mean per-second
 * value over its runs and those seconds, NaN where none has one. */
static double *group_series(const struct compare *c, const struct cmp_group *g,
			    const struct metric_def *m, size_t per, size_t npts)
{
	double *sum = xcalloc(npts, sizeof(double)), *cnt = xcalloc(npts, sizeof(double));

	for (size_t i = 0; i < g->nruns; i++)
		(void)compare_timeline_fold(&c->results[g->runs[i]].timeline, m, 0, per, npts,
					    true, sum, cnt);
	for (size_t r = 0; r < npts; r++)
		sum[r] = cnt[r] ? sum[r] / cnt[r] : NAN;
	free(cnt);
	return sum;
}

/* The most steady windows a chart marks (one bar per run that held). */
#define PLOT_MAX_STEADY 200

/*
 * The steady windows of the runs (compare_steady_windows(); which: 0 transactional IOPS,
 * 1 database read latency, -1 none) as gnuplot array literals into kv's values: SN the count,
 * SFROM and STO the seconds, SG the label's number (its line colour).  Heap strings in out[4].
 */
static void steady_marks(const struct compare *c, int which, char **out)
{
	double from[PLOT_MAX_STEADY], to[PLOT_MAX_STEADY];
	size_t grp[PLOT_MAX_STEADY];
	size_t n = which < 0 ? 0 : compare_steady_windows(c, which == 1, from, to, grp,
							    PLOT_MAX_STEADY);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, g = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&a, "%s%.10g", i ? "," : "", from[i]);
		strbuf_addf(&b, "%s%.10g", i ? "," : "", to[i]);
		strbuf_addf(&g, "%s%zu", i ? "," : "", grp[i] + 1);
	}
	out[0] = xasprintf("%zu", n);
	out[1] = xasprintf("[%s]", n ? a.buf : "0");
	out[2] = xasprintf("[%s]", n ? b.buf : "0");
	out[3] = xasprintf("[%s]", n ? g.buf : "1");
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&g);
}

static int timeline(struct plot_ctx *x, const char *name, const char *title, const char *id,
		    const char *ylabel, double limit, int steady)
{
	const struct compare *c = x->c;
	const struct cmp_row *row = compare_row(c, id);
	double **series = xcalloc(c->ngroups, sizeof(double *)), ymax = 0;
	size_t nrows = 0, len = 0, per, npts;
	char *buf = NULL, *t, *y, ns[16], lim[32];
	struct os_memstream ms;
	FILE *m;
	int ret = 0;

	for (size_t i = 0; i < c->nresults; i++)
		nrows = MAX(nrows, c->results[i].timeline.nrows);
	if (!row || !nrows)
		goto out;
	per = (nrows + PLOT_MAX_POINTS - 1) / PLOT_MAX_POINTS;
	npts = (nrows + per - 1) / per;
	for (size_t g = 0; g < c->ngroups; g++)
		series[g] = group_series(c, &c->groups[g], row->m, per, npts);
	m = os_memstream_open(&ms, &buf, &len);
	if (per > 1)
		fprintf(m, "# second (the middle of %zu seconds averaged), then one column per "
			"label\n", per);
	else
		fprintf(m, "# second, then one column per label\n");
	for (size_t r = 0; r < npts; r++) {
		fprintf(m, "%.10g", (double)(r * per) + (double)(per + 1) / 2);
		for (size_t g = 0; g < c->ngroups; g++) {
			plot_put_num(m, series[g][r]);
			if (isfinite(series[g][r]))
				ymax = fmax(ymax, series[g][r]);
		}
		fputc('\n', m);
	}
	os_memstream_done(&ms);
	/* a limit far above the data would flatten it: draw it only when it is in sight */
	snprintf(lim, sizeof(lim), "%g", limit > 0 && ymax * 3 >= limit ? limit : 0.0);
	snprintf(ns, sizeof(ns), "%zu", c->ngroups);
	t = plot_gp_escape(title);
	y = plot_gp_escape(ylabel);
	{
		char *sm[4];

		steady_marks(c, steady, sm);
		const char *kv[] = {
			"TITLE", t, "YLABEL", y, "N", ns, "LABELS", x->labels, "LIMIT", lim,
			"LIMIT_NAME", "Jetstress limit", "SN", sm[0], "SFROM", sm[1], "STO", sm[2],
			"SG", sm[3], NULL,
		};

		ret = plot_draw(x, name, title, "timeline", buf, len, kv);
		for (int i = 0; i < 4; i++)
			free(sm[i]);
	}
	free(t);
	free(y);
out:
	for (size_t g = 0; g < c->ngroups; g++)
		free(series[g]);
	free(series);
	free(buf);
	return ret;
}

/* Mean over a group's runs of one latency percentile (ms), NaN when the class did no I/O. */
static double group_pct(const struct compare *c, const struct cmp_group *g, int cls, int which)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct class_result *cl = &c->results[g->runs[i]].classes[cls];
		const double v[] = { cl->lat_us.p50, cl->lat_us.p90, cl->lat_us.p99, cl->lat_us.p99_9,
				     cl->lat_us.p99_99 };

		if (cl->ops && v[which] > 0) {
			sum += v[which] / 1e3;
			n++;
		}
	}
	return n ? sum / n : NAN;
}

static int percentiles(struct plot_ctx *x)
{
	static const char *const names[] = { "p50", "p90", "p99", "p99.9", "p99.99" };
	static const double nines[] = { 0.30103, 1, 2, 3, 4 }; /* -log10(1 - p) */
	const struct compare *c = x->c;
	double has[CLS_NR] = { 0 };
	char *buf = NULL, *hs, ns[16];
	size_t len = 0;
	struct os_memstream ms;
	FILE *m = os_memstream_open(&ms, &buf, &len);
	int ret;

	for (int cls = 0; cls < CLS_NR; cls++) {
		fprintf(m, "# %s: nines, percentile, then ms per label\n", io_class_names[cls]);
		for (size_t p = 0; p < ARRAY_SIZE(names); p++) {
			fprintf(m, "%g %s", nines[p], names[p]);
			for (size_t g = 0; g < c->ngroups; g++) {
				double v = group_pct(c, &c->groups[g], cls, (int)p);

				plot_put_num(m, v);
				if (isfinite(v))
					has[cls] = 1;
			}
			fputc('\n', m);
		}
		fputs("\n\n", m);
	}
	os_memstream_done(&ms);
	hs = plot_gp_num_array(has, CLS_NR);
	snprintf(ns, sizeof(ns), "%zu", c->ngroups);
	{
		const char *kv[] = {
			"TITLE", "Latency percentiles (log scale)", "N", ns, "LABELS", x->labels,
			"HAS", hs, NULL,
		};

		ret = plot_draw(x, "percentiles", "Latency percentiles p50 ... p99.99 per class",
			   "percentiles", buf, len, kv);
	}
	free(hs);
	free(buf);
	return ret;
}

static int sweep(struct plot_ctx *x)
{
	const struct compare *c = x->c;
	const struct cmp_row *iops = compare_row(c, "trans_iops");
	const char **fs = xcalloc(c->nsweeps, sizeof(char *));
	char *buf = NULL, *fsa, ns[16];
	size_t len = 0;
	struct os_memstream ms;
	FILE *m = os_memstream_open(&ms, &buf, &len);
	int ret;

	for (size_t s = 0; s < c->nsweeps; s++) {
		const struct cmp_sweep *sw = &c->sweeps[s];
		double i0 = iops->cells[sw->groups[0]].s.mean;
		double t0 = c->groups[sw->groups[0]].threads;

		fs[s] = sw->fs;
		fprintf(m, "# %s: threads, IOPS, CI low, CI high, linear, efficiency %%, "
			"db read ms, log write ms\n", sw->fs);
		for (size_t k = 0; k < sw->n; k++) {
			size_t g = sw->groups[k];
			const struct cmp_cell *cell = &iops->cells[g];
			double h = isfinite(cell->s.half) ? cell->s.half : 0;

			fprintf(m, "%u", c->groups[g].threads);
			plot_put_num(m, cell->s.mean);
			plot_put_num(m, cell->s.mean - h);
			plot_put_num(m, cell->s.mean + h);
			plot_put_num(m, t0 > 0 ? i0 * c->groups[g].threads / t0 : NAN);
			plot_put_num(m, sw->eff[k]);
			plot_put_num(m, compare_mean(c, "db_read_lat_avg", g));
			plot_put_num(m, compare_mean(c, "log_write_lat_avg", g));
			fputc('\n', m);
		}
		fputs("\n\n", m);
	}
	os_memstream_done(&ms);
	fsa = plot_gp_str_array(fs, c->nsweeps);
	snprintf(ns, sizeof(ns), "%zu", c->nsweeps);
	{
		const char *kv[] = {
			"TITLE", "Thread sweep: scaling against linear", "NFS", ns, "FS", fsa, NULL,
		};

		ret = plot_draw(x, "sweep", "Thread sweep: IOPS and latency against threads, scaling "
			   "efficiency against linear", "sweep", buf, len, kv);
	}
	free(fsa);
	free(fs);
	free(buf);
	return ret;
}

/*
 * Cluster results (fslab merge): one bar per host and label (plots/bars.gp with the hosts as
 * categories), whiskers over the label's runs: transactional IOPS and database read average
 * latency, so that a straggler shows.
 */
static int host_bars(struct plot_ctx *x, const struct cmp_hosts *h, const char *name,
		     const char *title, const char *ylabel, int which)
{
	const struct compare *c = x->c;
	double ymax = 0;
	char *buf = NULL, *t, *y, *lim, ns[16], nc[16], hi[32];
	double *zeros = xcalloc(h->n, sizeof(double));
	size_t len = 0;
	struct os_memstream ms;
	FILE *m = os_memstream_open(&ms, &buf, &len);
	int ret;

	fprintf(m, "# host, then mean, 95 %% CI low, CI high per label\n");
	for (size_t k = 0; k < h->n; k++) {
		char *e = plot_gp_escape(h->names[k]);

		fprintf(m, "\"%s\"", e);
		free(e);
		for (size_t g = 0; g < c->ngroups; g++) {
			const struct cmp_host_cell *cell = cmp_host_cell(h, g, k);
			const struct sample *s = which ? &cell->db_read_ms : &cell->iops;
			double v = s->n ? s->mean : NAN, half = isfinite(s->half) ? s->half : 0;

			plot_put_num(m, v);
			plot_put_num(m, v - half);
			plot_put_num(m, v + half);
			if (isfinite(v))
				ymax = fmax(ymax, v + half);
		}
		fputc('\n', m);
	}
	os_memstream_done(&ms);
	if (!(ymax > 0)) {
		free(buf);
		free(zeros);
		return 0;
	}
	snprintf(ns, sizeof(ns), "%zu", c->ngroups);
	snprintf(nc, sizeof(nc), "%zu", h->n);
	snprintf(hi, sizeof(hi), "%g", ymax * 1.15);
	t = plot_gp_escape(title);
	y = plot_gp_escape(ylabel);
	lim = plot_gp_num_array(zeros, h->n);
	{
		const char *kv[] = {
			"TITLE", t, "YLABEL", y, "N", ns, "LABELS", x->labels, "NCAT", nc, "LOGY", "0",
			"YMIN", "0", "YMAX", hi, "LIMITS", lim, "LIMIT_NAME", "limit", "UNIT", "", NULL,
		};

		ret = plot_draw(x, name, title, "bars", buf, len, kv);
	}
	free(t);
	free(y);
	free(lim);
	free(buf);
	free(zeros);
	return ret;
}

static int host_charts(struct plot_ctx *x)
{
	struct cmp_hosts h;
	int ret = 0;

	compare_hosts_build(x->c, &h);
	if (h.n) {
		ret = host_bars(x, &h, "hosts-iops", "Transactional IOPS per host (cluster "
				"results; 95 % CI over the runs)", "operations per second", 0);
		if (!ret)
			ret = host_bars(x, &h, "hosts-latency", "Database read average latency per "
					"host (cluster results)", "ms", 1);
	}
	compare_hosts_release(&h);
	return ret;
}

/* Every chart of the comparison, in the report's order. */
static int draw_all(struct plot_ctx *x)
{
	const struct compare *c = x->c;
	/* whiskers: between runs with repeats; with one run per label only the noise inside it */
	const bool rep = c->method == CMP_REPEATS;
	const struct bars charts[] = {
		{ "iops", rep ? "IOPS per class (95 % CI over the runs)" :
		  "IOPS per class (95 % interval within one run: not run-to-run)",
		  "operations per second", "", NULL, false, 5,
		  { "transactional", "database reads", "database writes", "log writes", "BDM reads" },
		  { "trans_iops", "db_read_iops", "db_write_iops", "log_write_iops",
		    "bdm_read_iops" }, { 0 } },
		{ "latency-avg", rep ? "Average latency per class (95 % CI over the runs, log scale)" :
		  "Average latency per class (95 % within-run interval, log scale)", "ms", "ms",
		  "Jetstress limit", true, 4,
		  { "database reads", "database writes", "log writes", "BDM reads" },
		  { "db_read_lat_avg", "db_write_lat_avg", "log_write_lat_avg", "bdm_read_lat_avg" },
		  { compare_limit(c, "db_read_avg_latency", 20), 0,
		    compare_limit(c, "log_write_avg_latency", 10), 0 } },
		{ "latency-p99", "p99 latency per class (log scale)", "ms", "ms",
		  "Jetstress maximum (judged on sample averages)", true, 4,
		  { "database reads", "database writes", "log writes", "BDM reads" },
		  { "db_read_lat_p99", "db_write_lat_p99", "log_write_lat_p99", "bdm_read_lat_p99" },
		  { compare_limit(c, "db_read_max_latency", 100), 0,
		    compare_limit(c, "log_write_max_latency", 100), 0 } },
		{ "throughput", rep ? "Throughput (MB/s, 95 % CI over the runs)" :
		  "Throughput (MB/s, 95 % within-run interval)", "MB/s", "MB/s", NULL, false, 5,
		  { "total", "database reads", "database writes", "log writes", "BDM reads" },
		  { "total_mbps", "db_read_mbps", "db_write_mbps", "log_write_mbps",
		    "bdm_read_mbps" }, { 0 } },
		{ "write-amplification", "Write amplification (device bytes written / bytes "
		  "written by the workload)", "ratio", "", NULL, false, 2,
		  { "database volume", "log volume" }, { "db_wa", "log_wa" }, { 0 } },
	};
	int ret = plot_forest(x);

	if (!ret)
		ret = means(x);
	for (size_t i = 0; i < ARRAY_SIZE(charts) && !ret; i++)
		ret = bars(x, &charts[i]);
	if (!ret)
		ret = timeline(x, "timeline-iops", "Transactional IOPS over time", "trans_iops",
			       "IOPS", 0, 0);
	if (!ret)
		ret = timeline(x, "timeline-db-read-latency",
			       "Database read average latency over time", "db_read_lat_avg", "ms",
			       compare_limit(c, "db_read_avg_latency", 20), 1);
	if (!ret)
		ret = timeline(x, "timeline-log-write-latency",
			       "Log write average latency over time", "log_write_lat_avg", "ms",
			       compare_limit(c, "log_write_avg_latency", 10), -1);
	if (!ret)
		ret = percentiles(x);
	if (!ret && c->nsweeps)
		ret = sweep(x);
	if (!ret && compare_any_tuned(c))
		ret = plot_tuning(x);
	if (!ret)
		ret = host_charts(x);
	return ret;
}

/*
 * Where the charts go (outdir/charts, created) and where their templates are, and the labels
 * as a gnuplot array.  0 with x->ps->skipped set when no chart can be drawn here (no gnuplot,
 * no templates); -errno or -FSLAB_EINPUT when charts/ cannot be the report's own.
 */
static int ctx_open(struct plot_ctx *x, const char *outdir)
{
	const struct compare *c = x->c;
	const char **labels;
	int ret;

	if (c->ngroups > PLOT_MAX_LABELS) {
		x->ps->skipped = xasprintf("charts skipped: %zu labels, more than a chart can show "
					   "(at most %d); the tables have them all", c->ngroups,
					   PLOT_MAX_LABELS);
		return 0;
	}
	if (!os_have_program("gnuplot")) {
		x->ps->skipped = xstrdup("charts skipped: gnuplot not found; install the Debian "
					 "package " GNUPLOT_PACKAGE);
		return 0;
	}
	x->tdir = plot_templates_dir();
	if (!x->tdir) {
		x->ps->skipped = xstrdup("charts skipped: the gnuplot templates (plots/*.gp) were "
					 "not found " SHARE_PLACES "; set FSLAB_PLOTS_DIR to their "
					 "directory");
		return 0;
	}
	x->dir = path_join(outdir, "charts");
	ret = mkdir_p(x->dir, 0755);
	if (ret) {
		fslab_err("%s: cannot create (%s)", x->dir, strerror(-ret));
		return ret;
	}
	/* charts/ is compare's own: a link there would send the charts somewhere else */
	if (os_is_symlink(x->dir))
		return input_error("%s is a symbolic link, not the report's own directory: remove "
				   "it (fslab compare creates charts/ itself)", x->dir);
	labels = xcalloc(c->ngroups, sizeof(char *));
	for (size_t g = 0; g < c->ngroups; g++)
		labels[g] = c->groups[g].label;
	x->labels = plot_gp_str_array(labels, c->ngroups);
	free(labels);
	return 0;
}

int plot_all(const struct compare *c, const char *outdir, struct plot_set *ps)
{
	struct plot_ctx x = { .c = c, .ps = ps };
	int ret;

	memset(ps, 0, sizeof(*ps));
	ret = ctx_open(&x, outdir);
	if (!ret && !ps->skipped)
		ret = draw_all(&x);
	free(x.dir);
	free(x.tdir);
	free(x.labels);
	return ret;
}
