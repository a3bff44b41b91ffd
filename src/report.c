// SPDX-License-Identifier: MIT
/* report.c: render a comparison model as tables, an article, CSV, JSON and sizing tables. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

/* The key metrics of the generated sentences, the lead one first: the headline claims. */
#define key_metrics compare_headline
#define NKEY COMPARE_NHEADLINE

/* ---- number formatting ---- */

static char *num(double v, int prec)
{
	return isfinite(v) ? xasprintf("%.*f", prec, v) : xstrdup("-");
}

/* "p = 0.003", "p < 0.001" */
static const char *p_text(char *buf, size_t len, double p)
{
	if (p < 0.001)
		snprintf(buf, len, "p < 0.001");
	else
		snprintf(buf, len, "p = %.3f", p);
	return buf;
}

/* Size of a percentage for prose: "12" or "4.5". */
static const char *pct_text(char *buf, size_t len, double pct)
{
	pct = fabs(pct);
	snprintf(buf, len, pct >= 9.95 ? "%.0f" : "%.1f", pct);
	return buf;
}

static char *cell_text(const struct cmp_row *row, size_t g)
{
	const struct cmp_cell *cell = &row->cells[g];
	int prec = row->m->prec;

	switch (cell->kind) {
	case CELL_TEXT:
		return xstrdup(cell->text);
	case CELL_NONE:
		return xstrdup("-");
	case CELL_REPEATS:
	case CELL_BATCH:
		if (isfinite(cell->s.half))
			return xasprintf("%.*f ± %.*f", prec, cell->s.mean, prec, cell->s.half);
		/* fall through */
	default:
		return num(cell->s.mean, prec);
	}
}

static char *delta_text(const struct cmp_row *row, size_t g)
{
	const struct cmp_delta *d = &row->deltas[g];
	int prec = row->m->prec;

	if (!d->present)
		return xstrdup(compare_metric_is_text(row->m) ? "" : "-");
	if (!isfinite(d->pct))
		return xasprintf("%+.*f", prec, d->abs);
	if (isfinite(d->half) && d->sig != SIG_NA)
		return xasprintf("%+.*f ± %.*f (%+.1f %%)", prec, d->abs, prec, d->half, d->pct);
	return xasprintf("%+.*f (%+.1f %%)", prec, d->abs, d->pct);
}

/* "p = 0.004, Holm" or "p = 0.004, uncorrected": which p decided. */
static const char *p_decided(char *buf, size_t len, const struct cmp_delta *d)
{
	char p[32];

	if (d->corrected)
		snprintf(buf, len, "Holm-adjusted %s", p_text(p, sizeof(p), d->p_holm));
	else
		snprintf(buf, len, "%s, uncorrected", p_text(p, sizeof(p), d->p));
	return buf;
}

/* "differences below 8.2 % cannot be seen" for a tested delta, "" when unknown. */
static const char *mde_text(char *buf, size_t len, const struct cmp_delta *d)
{
	char pc[16];

	if (isfinite(d->mde_pct))
		snprintf(buf, len, "differences below %s %% cannot be seen",
			 pct_text(pc, sizeof(pc), d->mde_pct));
	else
		buf[0] = 0;
	return buf;
}

/* The word for a significant difference: better/worse, or higher/lower for neutral metrics. */
static const char *direction_word(const struct cmp_delta *d)
{
	if (d->better)
		return d->better > 0 ? "better" : "worse";
	return d->abs > 0 ? "higher" : "lower";
}

static char *sig_text(const struct cmp_row *row, size_t g)
{
	const struct cmp_delta *d = &row->deltas[g];
	char p[64], m[64], pc[16];

	if (!d->present)
		return xstrdup("");
	switch (d->sig) {
	case SIG_YES:
		return xasprintf("%s (%s)", direction_word(d), p_decided(p, sizeof(p), d));
	case SIG_NO:
		if (isfinite(d->mde_pct))
			snprintf(m, sizeof(m), "; MDE %s %%", pct_text(pc, sizeof(pc), d->mde_pct));
		else
			m[0] = 0;
		return xasprintf("no significant difference (%s%s)", p_decided(p, sizeof(p), d), m);
	case SIG_WITHIN:
		return xstrdup("within one run: not tested");
	default:
		return xasprintf("n/a (%s)", d->na_why);
	}
}

static const char *cell_method(enum cell_kind k)
{
	switch (k) {
	case CELL_TEXT: return "text";
	case CELL_VALUE: return "single value";
	case CELL_REPEATS: return "repeats";
	case CELL_BATCH: return "batch means";
	default: return "none";
	}
}

static const char *sig_name(enum cmp_sig s)
{
	switch (s) {
	case SIG_YES: return "yes";
	case SIG_NO: return "no";
	case SIG_WITHIN: return "within one run";
	default: return "n/a";
	}
}

/* ---- pieces shared by the tables and the article ---- */

char *report_title(const struct compare *c, const struct report_opts *o)
{
	char *t;

	if (o && o->title)
		return xstrdup(o->title);
	t = xstrdup("fslab comparison:");
	for (size_t g = 0; g < c->ngroups; g++) {
		char *tmp = xasprintf("%s%s%s", t, g ? " vs " : " ", c->groups[g].label);

		free(t);
		t = tmp;
	}
	return t;
}

static size_t max_runs(const struct compare *c, size_t *min)
{
	size_t mx = 0;

	*min = SIZE_MAX;
	for (size_t g = 0; g < c->ngroups; g++) {
		/* aborted runs do not count, unless there is nothing else (the baseline is one) */
		if (c->groups[g].aborted && !c->groups[c->baseline].aborted)
			continue;
		mx = MAX(mx, c->groups[g].nruns);
		*min = MIN(*min, c->groups[g].nruns);
	}
	return mx;
}

/* The statistics method in one paragraph. */
static void method_para(struct doc *d, const struct compare *c)
{
	const struct batch_plan *bp = &c->groups[c->baseline].plan;
	size_t mn, mx = max_runs(c, &mn);
	char runs[64], batches[160];

	if (c->method == CMP_REPEATS) {
		if (mn == mx)
			snprintf(runs, sizeof(runs), "%zu", mx);
		else
			snprintf(runs, sizeof(runs), "%zu to %zu", mn, mx);
		doc_para(d, "Statistics: each label was run %s times, each run on a freshly "
			 "formatted and initialised volume, and each run is one sample: a cell is the "
			 "mean of the runs ± the half width of its 95 %% confidence interval (Student "
			 "t). A difference is tested with Welch's t-test on the per-run values, so it "
			 "is judged against the spread between independent runs, not the noise inside "
			 "one. The claims of the summary (%zu tests: labels x the headline metrics "
			 "transactional IOPS, database read latency, log write latency and total "
			 "throughput) are corrected for multiple comparisons with Holm-Bonferroni: a "
			 "difference is significant only when its Holm-adjusted p < %g. Other rows are "
			 "tested one by one (uncorrected, shown as such): read them as exploration, "
			 "not as claims. For every tested difference the table gives the minimum "
			 "detectable difference (MDE): the smallest difference these runs could detect "
			 "(95 %% confidence, %.0f %% power, from the observed spread); a \"no "
			 "significant difference\" means no difference above that size, not "
			 "equality.", runs, c->nclaims, STATS_ALPHA, STATS_POWER * 100);
		return;
	}
	if (c->plans_differ || !bp->k)
		snprintf(batches, sizeof(batches), "%d batches of equal length per run (the runs "
			 "differ in length, so the batch lengths differ)", STATS_BATCHES);
	else if (bp->skip)
		snprintf(batches, sizeof(batches), "%zu batches of %zu s per run, the first %zu s "
			 "left out", bp->k, bp->len, bp->skip);
	else
		snprintf(batches, sizeof(batches), "%zu batches of %zu s per run", bp->k, bp->len);
	doc_para(d, "Statistics: at least one label has a single run, so nothing here is a claim. "
		 "Each cell is the run's value ± the half width of a 95 %% interval from batch "
		 "means over its per-second timeline (%s%s): that interval measures the noise "
		 "within one run only. The run-to-run spread of a shared machine is usually larger "
		 "(10-30 %% on this lab's loop devices), so a difference between single runs is "
		 "shown with its within-run interval and is not tested. A claim needs independent "
		 "repeats: run every label at least 2 times, 3 or more recommended ([lab] repeats "
		 "= 3, or several fslab run results per label), interleaved. Rows without per-second data (percentiles, maxima, write "
		 "amplification) show n/a.", batches,
		 mx > 1 ? "; labels with several runs pool the batches of all their runs" : "");
}

static void warnings(struct doc *d, const struct compare *c)
{
	if (c->aa_alarm >= 0)
		doc_item(d, "WARNING: the A/A check failed: %s and %s are the same setup, yet they "
			 "differ significantly; this machine is too noisy for the claims below (see "
			 "the Summary).", c->groups[c->aa_alarm].label,
			 c->groups[c->groups[c->aa_alarm].aa_of].label);
	for (size_t i = 0; i < c->nwarnings; i++)
		doc_item(d, "WARNING (--allow-mismatch): %s", c->warnings[i]);
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].aborted)
			doc_item(d, "ABORTED: %s is an aborted run (%s), shown for reference only: it "
				 "is not pooled with complete runs and no difference is tested for it.",
				 c->groups[g].label,
				 c->results[c->groups[g].runs[0]].abort_reason ?
				 c->results[c->groups[g].runs[0]].abort_reason : "no reason recorded");
}

static struct doc_table *results_table(const struct compare *c)
{
	size_t ncols = 1 + c->ngroups, col;
	struct doc_table *t;

	for (size_t g = 0; g < c->ngroups; g++)
		ncols += c->groups[g].base >= 0 ? 2 : 0;
	t = doc_table_new(ncols, true);
	doc_table_set(t, 0, 0, "Metric");
	for (size_t g = 0; g < c->ngroups; g++)
		doc_table_set(t, 0, 1 + g, "%s", c->groups[g].label);
	col = 1 + c->ngroups;
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].base < 0)
			continue;
		doc_table_set(t, 0, col++, "%s vs %s", c->groups[g].label,
			      c->groups[c->groups[g].base].label);
		doc_table_set(t, 0, col++, c->method == CMP_REPEATS ? "significance" : "test");
	}
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];
		size_t tr;

		if (row->m->hidden)
			continue;
		tr = doc_table_row(t);
		doc_table_set(t, tr, 0, "%s", row->m->name);
		for (size_t g = 0; g < c->ngroups; g++) {
			char *s = cell_text(row, g);

			doc_table_set(t, tr, 1 + g, "%s", s);
			free(s);
		}
		col = 1 + c->ngroups;
		for (size_t g = 0; g < c->ngroups; g++) {
			char *a, *b;

			if (c->groups[g].base < 0)
				continue;
			a = delta_text(row, g);
			b = sig_text(row, g);
			doc_table_set(t, tr, col, "%s", a);
			doc_table_set(t, tr, col + 1, "%s", b);
			if (row->deltas[g].sig == SIG_YES) {
				doc_table_strong(t, tr, col);
				doc_table_strong(t, tr, col + 1);
			}
			col += 2;
			free(a);
			free(b);
		}
	}
	return t;
}

static struct doc_table *sweep_table(const struct compare *c)
{
	struct doc_table *t = doc_table_new(8, true);
	static const char *const head[] = {
		"Filesystem", "Threads", "Label", "Transactional IOPS", "IOPS per thread",
		"Scaling vs linear", "DB read avg (ms)", "Log write avg (ms)",
	};
	const struct cmp_row *iops = compare_row(c, "trans_iops");

	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		doc_table_set(t, 0, i, "%s", head[i]);
	for (size_t s = 0; s < c->nsweeps; s++) {
		const struct cmp_sweep *sw = &c->sweeps[s];

		for (size_t k = 0; k < sw->n; k++) {
			size_t g = sw->groups[k], r = doc_table_row(t);
			char *cell = cell_text(iops, g);

			doc_table_set(t, r, 0, "%s", sw->fs);
			doc_table_set(t, r, 1, "%u", c->groups[g].threads);
			doc_table_set(t, r, 2, "%s", c->groups[g].label);
			doc_table_set(t, r, 3, "%s", cell);
			doc_table_set(t, r, 4, "%.0f", iops->cells[g].s.mean / c->groups[g].threads);
			doc_table_set(t, r, 5, "%.0f %%", sw->eff[k]);
			doc_table_set(t, r, 6, "%.3f", compare_mean(c, "db_read_lat_avg", g));
			doc_table_set(t, r, 7, "%.3f", compare_mean(c, "log_write_lat_avg", g));
			free(cell);
		}
	}
	return t;
}

/* ---- generated sentences ---- */

static void push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = s;
}

/* " with 3 vs 3 runs": the evidence behind a tested difference */
static char *runs_text(const struct compare *c, size_t g, size_t base)
{
	if (c->groups[g].nruns == c->groups[base].nruns)
		return xasprintf("%zu runs each", c->groups[g].nruns);
	return xasprintf("%zu vs %zu runs", c->groups[g].nruns, c->groups[base].nruns);
}

/* "; differences below 8.2 % cannot be seen with 3 runs each on this machine" or "" */
static char *mde_clause(const struct compare *c, const struct cmp_delta *d, size_t g)
{
	char m[64], *r, *out;

	if (!mde_text(m, sizeof(m), d)[0])
		return xstrdup("");
	r = runs_text(c, g, (size_t)d->base);
	out = xasprintf("; %s with %s on this machine", m, r);
	free(r);
	return out;
}

/* "database read latency was 9.6 % lower (significant, p = 0.002)" and friends. */
static char *clause(const struct compare *c, const struct cmp_row *row, size_t g)
{
	const struct cmp_delta *d = &row->deltas[g];
	char p[64], pc[16], hc[16], m[64];
	const char *word = d->abs > 0 ? "higher" : "lower";

	if (!d->present)
		return xasprintf("%s has no data", row->m->what);
	if (d->sig == SIG_NO)
		return xasprintf("%s showed no significant difference (%s%s%s)", row->m->what,
				 p_decided(p, sizeof(p), d), mde_text(m, sizeof(m), d)[0] ? "; " : "",
				 m);
	if (!isfinite(d->pct))
		return xasprintf("%s was %s by %.*f (%s)", row->m->what, word, row->m->prec,
				 fabs(d->abs), d->sig == SIG_YES ? "significant" : "not tested");
	if (d->sig == SIG_YES)
		return xasprintf("%s was %s %% %s (significant, %s)", row->m->what,
				 pct_text(pc, sizeof(pc), d->pct), word, p_decided(p, sizeof(p), d));
	if (d->sig == SIG_WITHIN)
		return xasprintf("%s was %s %% %s within one run (± %s %%)", row->m->what,
				 pct_text(pc, sizeof(pc), d->pct), word,
				 pct_text(hc, sizeof(hc), d->half_pct));
	(void)c;
	return xasprintf("%s was %s %% %s (not tested: %s)", row->m->what,
			 pct_text(pc, sizeof(pc), d->pct), word, d->na_why);
}

static char *lead(const struct compare *c, const struct cmp_row *row, size_t g)
{
	const struct cmp_delta *d = &row->deltas[g];
	const char *a = c->groups[g].label, *b = c->groups[d->base].label;
	const char *more = d->abs > 0 ? "more" : "fewer";
	char p[64], pc[16], hc[16], *r, *m, *out;

	if (!d->present)
		return xasprintf("On this setup %s and %s cannot be compared on transactional IOPS "
				 "(no data)", a, b);
	if (d->sig == SIG_NO || d->sig == SIG_YES) {
		r = runs_text(c, g, (size_t)d->base);
		m = mde_clause(c, d, g);
		if (d->sig == SIG_NO)
			out = xasprintf("On this setup %s and %s showed no significant difference in "
					"transactional IOPS (%+.1f %%, %s, Welch's t-test %s%s)", a, b,
					d->pct, r, p_decided(p, sizeof(p), d), m);
		else
			out = xasprintf("On this setup %s delivered %s %% %s transactional IOPS than "
					"%s (%+.0f IOPS, %s; significant, Welch's t-test %s)", a,
					pct_text(pc, sizeof(pc), d->pct), more, b, d->abs, r,
					p_decided(p, sizeof(p), d));
		free(r);
		free(m);
		return out;
	}
	if (d->sig == SIG_WITHIN)
		return xasprintf("Within one run per label, %s delivered %s %% %s transactional IOPS "
				 "than %s (%+.0f ± %.0f IOPS, the within-run interval; this is no "
				 "claim: it needs at least 2 independent runs per label, 3 or more "
				 "recommended)",
				 a, pct_text(pc, sizeof(pc), d->pct), more, b, d->abs, d->half);
	(void)hc;
	return xasprintf("On this setup %s delivered %s %% %s transactional IOPS than %s (not "
			 "tested: %s)", a, pct_text(pc, sizeof(pc), d->pct), more, b, d->na_why);
}

static void comparison_sentences(const struct compare *c, char ***v, size_t *n)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];
		char *s;

		if (grp->base < 0 || grp->aborted || grp->aa_of >= 0)
			continue;
		/* the same filesystem at another thread count: the scaling sentence says it */
		if (!strcmp(grp->fs, c->groups[grp->base].fs) &&
		    grp->threads != c->groups[grp->base].threads)
			continue;
		s = lead(c, compare_row(c, key_metrics[0]), g);
		for (size_t k = 1; k < NKEY; k++) {
			char *cl = clause(c, compare_row(c, key_metrics[k]), g);
			char *tmp = xasprintf("%s; %s", s, cl);

			free(cl);
			free(s);
			s = tmp;
		}
		push(v, n, xasprintf("%s.", s));
		free(s);
	}
}

/* The A/A check: two copies of the same setup, the lab's noise floor. */
static char *aa_sentence(const struct compare *c, size_t g)
{
	const struct cmp_group *grp = &c->groups[g];
	const char *base = c->groups[grp->aa_of].label;
	bool alarm = false, tested = false;
	char *s = NULL, *tmp, pc[16], p[64];

	for (size_t k = 0; k < NKEY; k++) {
		const struct cmp_row *row = compare_row(c, key_metrics[k]);
		const struct cmp_delta *d = row ? &row->deltas[g] : NULL;

		if (!d || !d->present || !isfinite(d->pct))
			continue;
		tested |= d->sig == SIG_YES || d->sig == SIG_NO;
		alarm |= d->sig == SIG_YES;
		if (d->sig == SIG_YES || d->sig == SIG_NO)
			tmp = xasprintf("%s%s%s %c%s %% (%s%s)", s ? s : "", s ? ", " : "",
					row->m->what, d->pct < 0 ? '-' : '+',
					pct_text(pc, sizeof(pc), d->pct), p_decided(p, sizeof(p), d),
					d->sig == SIG_YES ? ", SIGNIFICANT" : "");
		else
			tmp = xasprintf("%s%s%s %c%s %%%s", s ? s : "", s ? ", " : "", row->m->what,
					d->pct < 0 ? '-' : '+', pct_text(pc, sizeof(pc), d->pct),
					d->sig == SIG_WITHIN ? " (within one run)" : "");
		free(s);
		s = tmp;
	}
	if (alarm)
		tmp = xasprintf("WARNING: the A/A check failed. %s is the same setup as %s, run again "
				"in every round, yet it differs significantly (%s): this machine's "
				"run-to-run noise is larger than these repeats can absorb, so the "
				"claims above are not trustworthy; re-run on a quieter machine or with "
				"more repeats.", grp->label, base, s ? s : "no data");
	else if (tested)
		tmp = xasprintf("A/A check (the lab's noise floor): %s, the same setup as %s run again "
				"in every round, differed by %s: no significant difference, as it "
				"should be; differences of this size between other labels are noise.",
				grp->label, base, s ? s : "no data");
	else
		tmp = xasprintf("A/A check (the lab's noise floor): %s, the same setup as %s, differed "
				"by %s; not tested: it needs at least 2 runs of each.", grp->label,
				base, s ? s : "no data");
	free(s);
	return tmp;
}

static void verdict_sentence(const struct compare *c, char ***v, size_t *n)
{
	const struct cmp_row *row = compare_row(c, "verdict");
	char *s = xstrdup("Jetstress-style verdict:");

	for (size_t g = 0; g < c->ngroups; g++) {
		char *tmp = xasprintf("%s%s %s %s", s, g ? "," : "", c->groups[g].label,
				      row->cells[g].text);

		free(s);
		s = tmp;
	}
	push(v, n, xasprintf("%s.", s));
	free(s);
}

static void sweep_sentences(const struct compare *c, char ***v, size_t *n)
{
	for (size_t s = 0; s < c->nsweeps; s++) {
		const struct cmp_sweep *sw = &c->sweeps[s];
		size_t a = sw->groups[0], b = sw->groups[sw->n - 1];

		push(v, n, xasprintf("%s scaled from %.0f transactional IOPS at %u threads to %.0f "
				     "at %u threads, %.0f %% of linear scaling; database read latency "
				     "went from %.2f to %.2f ms and log write latency from %.2f to "
				     "%.2f ms.", sw->fs, compare_mean(c, "trans_iops", a),
				     c->groups[a].threads, compare_mean(c, "trans_iops", b),
				     c->groups[b].threads, sw->eff[sw->n - 1],
				     compare_mean(c, "db_read_lat_avg", a), compare_mean(c, "db_read_lat_avg", b),
				     compare_mean(c, "log_write_lat_avg", a),
				     compare_mean(c, "log_write_lat_avg", b)));
	}
}

static void cache_sentences(const struct compare *c, char ***v, size_t *n)
{
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].cache_served)
			push(v, n, xasprintf("Warning: on %s a cache served the database reads (the "
					     "device read %.0f %% of what the workload read): its numbers "
					     "measure the cache, not the device, so no difference is "
					     "tested against it.", c->groups[g].label,
					     c->groups[g].read_ratio * 100));
}

char **report_summary(const struct compare *c, size_t *n)
{
	char **v = NULL;

	*n = 0;
	if (c->aa_alarm >= 0)
		push(&v, n, aa_sentence(c, (size_t)c->aa_alarm)); /* first, loudly */
	comparison_sentences(c, &v, n);
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].aa_of >= 0 && (int)g != c->aa_alarm)
			push(&v, n, aa_sentence(c, g));
	sweep_sentences(c, &v, n);
	verdict_sentence(c, &v, n);
	cache_sentences(c, &v, n);
	return v;
}

static void summary(struct doc *d, const struct compare *c)
{
	size_t n;
	char **v = report_summary(c, &n);

	for (size_t i = 0; i < n; i++) {
		doc_item(d, "%s", v[i]);
		free(v[i]);
	}
	free(v);
}

/* The results: method (or a pointer to it), warnings, table, sweep table. */
static void results(struct doc *d, const struct compare *c, int level, bool with_method)
{
	struct doc_table *t;

	if (with_method)
		method_para(d, c);
	else
		doc_para(d, "Cells: mean ± half width of the 95 %% confidence interval (see Method); "
			 "differences that pass Welch's t-test on independent repeats (Holm-corrected "
			 "for the headline metrics) are in bold, all others are not differences.");
	warnings(d, c);
	t = results_table(c);
	doc_table(d, t);
	doc_table_free(t);
	if (c->nsweeps) {
		doc_heading(d, level, "Thread scaling");
		doc_para(d, "Scaling against linear: IOPS at n threads / (IOPS at the first thread "
			 "count x n / first thread count).");
		t = sweep_table(c);
		doc_table(d, t);
		doc_table_free(t);
	}
}

void report_tables(FILE *f, enum doc_format fmt, const struct compare *c,
		   const struct report_opts *o)
{
	char *title = report_title(c, o);
	struct doc d;

	doc_begin(&d, fmt, f, title);
	results(&d, c, 2, true);
	doc_heading(&d, 2, "Summary");
	summary(&d, c);
	doc_end(&d);
	free(title);
}

/* ---- setup facts ---- */

static json_t *jpath(json_t *o, const char *path)
{
	char *copy = xstrdup(path), *save = NULL;

	for (char *k = strtok_r(copy, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = json_object_get(o, k);
	free(copy);
	return o;
}

static char *jtext(json_t *o, const char *path)
{
	json_t *v = jpath(o, path);

	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return xasprintf("%g", json_real_value(v));
	if (json_is_boolean(v))
		return xstrdup(json_is_true(v) ? "yes" : "no");
	return NULL;
}

static json_t *volume(const struct fslab_result *r, const char *role)
{
	json_t *vols = json_object_get(r->environment, "volumes"), *v;
	size_t i;

	json_array_foreach(vols, i, v)
		if (json_is_string(json_object_get(v, "role")) &&
		    !strcmp(json_string_value(json_object_get(v, "role")), role))
			return v;
	return NULL;
}

static char *or_dash(char *s)
{
	return s ? s : xstrdup("-");
}

static char *device_fact(const struct fslab_result *r, const char *role)
{
	json_t *v = volume(r, role), *rot = json_object_get(v, "rotational");
	const struct device_result *dev = compare_device(r, role);
	char *src = jtext(v, "source"), *model = jtext(v, "device_model");
	char *ls = jtext(v, "logical_sector"), *ps = jtext(v, "physical_sector"), *out;
	char sectors[64] = "";

	if (!model && dev && dev->model)
		model = xstrdup(dev->model);
	if (ls)
		snprintf(sectors, sizeof(sectors), ", %s/%s-byte sectors", ls, ps ? ps : "?");
	if (!src && !model)
		out = xstrdup("-");
	else
		out = xasprintf("%s, %s%s%s", src ? src : "?",
				model && *model ? model : "model unknown",
				!json_is_boolean(rot) ? "" : json_is_true(rot) ? ", rotational"
									  : ", non-rotational",
				sectors);
	free(src);
	free(model);
	free(ls);
	free(ps);
	return out;
}

static char *mkfs_fact(const struct fslab_result *r, const char *role)
{
	char *path = xasprintf("prep.volumes.%s.mkfs.command", role);
	char *s = jtext(r->environment, path);

	free(path);
	return s ? s : xstrdup("not formatted by fslab prep");
}

static char *alignment_fact(const struct fslab_result *r)
{
	json_t *t = jpath(r->environment, "prep.volumes.db.topology");
	char *ps = jtext(t, "partition_start"), *off = jtext(t, "alignment_offset");
	char *opt = jtext(t, "opt_io"), *out;
	json_t *al = json_object_get(t, "aligned");

	if (!t)
		return xstrdup("-");
	out = xasprintf("partition start sector %s, alignment offset %s, optimal I/O %s: %s",
			ps ? ps : "?", off ? off : "?", opt ? opt : "?",
			json_is_true(al) ? "aligned" : "NOT aligned");
	free(ps);
	free(off);
	free(opt);
	return out;
}

static char *blocks_fact(const struct fslab_result *r)
{
	json_t *v = jpath(r->environment, "prep.volumes.db.verified");
	char *bs = jtext(v, "block_size"), *cs = jtext(v, "cluster_size"), *out;

	if (!bs)
		bs = jtext(volume(r, "db"), "block_size");
	if (!bs)
		out = xstrdup("-");
	else if (!cs)
		out = xasprintf("%s B block", bs);
	else
		out = xasprintf("%s B block, %s B cluster", bs, cs);
	free(bs);
	free(cs);
	return out;
}

static char *direct_fact(const struct fslab_result *r)
{
	json_t *db = json_object_get(volume(r, "db"), "o_direct");
	json_t *log = json_object_get(volume(r, "log"), "o_direct");

	if (!db && !log)
		return xstrdup("-");
	if (json_is_true(db) && json_is_true(log))
		return xstrdup("yes, database and log");
	return xasprintf("database %s, log %s", json_is_true(db) ? "yes" : "REFUSED (buffered)",
			 json_is_true(log) ? "yes" : "REFUSED (buffered)");
}

static char *cache_fix_fact(const struct fslab_result *r)
{
	json_t *fix = jpath(r->environment, "prep.ntfs_cache_fix");
	char *m = jtext(fix, "method"), *out;
	json_t *lim = json_object_get(fix, "limit_bytes");
	char sz[32];

	if (!fix || json_is_null(fix))
		return xstrdup("none");
	out = xasprintf("%s, %s limit", m ? m : "?",
			json_is_integer(lim) ? fmt_size(sz, sizeof(sz), json_integer_value(lim))
					     : "?");
	free(m);
	return out;
}

static char *mem_fact(const struct fslab_result *r)
{
	json_t *v = json_object_get(r->environment, "mem_total");
	char sz[32];

	return json_is_integer(v) ? xstrdup(fmt_size(sz, sizeof(sz), json_integer_value(v)))
				  : xstrdup("-");
}

static char *cpu_fact(const struct fslab_result *r)
{
	char *m = jtext(r->environment, "cpu_model"), *n = jtext(r->environment, "ncpus"), *out;

	out = xasprintf("%s, %s CPUs", m ? m : "?", n ? n : "?");
	free(m);
	free(n);
	return out;
}

static char *fs_fact(const struct fslab_result *r)
{
	char *db = jtext(volume(r, "db"), "fstype"), *log = jtext(volume(r, "log"), "fstype");
	char *out;

	if (db && log && strcmp(db, log))
		out = xasprintf("%s (database), %s (log)", db, log);
	else
		out = xstrdup(compare_result_fs(r));
	free(db);
	free(log);
	return out;
}

static char *engine_fact(const struct fslab_result *r)
{
	char *e = jtext(r->environment, "engine");

	return e ? e : xstrdup(r->config.engine ? r->config.engine : "-");
}

static char *version_fact(const struct fslab_result *r)
{
	char *v = jtext(r->environment, "fslab_version"), *g = jtext(r->environment, "fslab_git");
	char *out = xasprintf("%s (%s)", v ? v : r->fslab_version ? r->fslab_version : "?",
			      g ? g : "?");

	free(v);
	free(g);
	return out;
}

enum fact {
	F_HOST, F_OS, F_KERNEL, F_CPU, F_MEM, F_FSLAB, F_ENGINE, F_DIRECT, F_DBDEV, F_LOGDEV, F_FS,
	F_MKFS_DB, F_MKFS_LOG, F_MKFS_VER, F_BLOCKS, F_ALIGN, F_MOUNT_DB, F_MOUNT_LOG, F_DISCARD,
	F_CACHEFIX, F_DROPPED, F_NR,
};

static const char *const fact_names[F_NR] = {
	"Host", "OS", "Kernel", "CPU", "Memory", "fslab", "I/O engine", "O_DIRECT",
	"Database device", "Log device", "Filesystem", "mkfs, database volume", "mkfs, log volume",
	"mkfs version", "Block / cluster size", "Alignment, database volume",
	"Mount options, database volume", "Mount options, log volume", "Discarded before mkfs",
	"NTFS cache fix", "Page cache dropped before the run",
};

static char *fact(const struct fslab_result *r, enum fact f)
{
	json_t *env = r->environment;

	switch (f) {
	case F_HOST: return or_dash(jtext(env, "hostname"));
	case F_OS: return or_dash(jtext(env, "os"));
	case F_KERNEL: return or_dash(jtext(env, "kernel"));
	case F_CPU: return cpu_fact(r);
	case F_MEM: return mem_fact(r);
	case F_FSLAB: return version_fact(r);
	case F_ENGINE: return engine_fact(r);
	case F_DIRECT: return direct_fact(r);
	case F_DBDEV: return device_fact(r, "db");
	case F_LOGDEV: return device_fact(r, "log");
	case F_FS: return fs_fact(r);
	case F_MKFS_DB: return mkfs_fact(r, "db");
	case F_MKFS_LOG: return mkfs_fact(r, "log");
	case F_MKFS_VER: return or_dash(jtext(env, "prep.volumes.db.mkfs.tool_version"));
	case F_BLOCKS: return blocks_fact(r);
	case F_ALIGN: return alignment_fact(r);
	case F_MOUNT_DB: return or_dash(jtext(volume(r, "db"), "mount_options"));
	case F_MOUNT_LOG: return or_dash(jtext(volume(r, "log"), "mount_options"));
	case F_DISCARD: return or_dash(jtext(env, "prep.volumes.db.discarded"));
	case F_CACHEFIX: return cache_fix_fact(r);
	case F_DROPPED: return or_dash(jtext(env, "caches_dropped"));
	default: return xstrdup("-");
	}
}

/* Facts equal for every label go into one list, the others into a table by label. */
static void setup(struct doc *d, const struct compare *c)
{
	struct doc_table *t = doc_table_new(1 + c->ngroups, false);
	char **v = xcalloc(c->ngroups, sizeof(char *));
	bool any = false;

	doc_table_set(t, 0, 0, "Setup");
	for (size_t g = 0; g < c->ngroups; g++)
		doc_table_set(t, 0, 1 + g, "%s", c->groups[g].label);
	doc_para(d, "Common to all runs:");
	for (int f = 0; f < F_NR; f++) {
		bool same = true;

		for (size_t g = 0; g < c->ngroups; g++) {
			v[g] = fact(&c->results[c->groups[g].runs[0]], f);
			same &= !strcmp(v[g], v[0]);
		}
		if (same) {
			doc_item(d, "%s: %s", fact_names[f], v[0]);
		} else {
			size_t r = doc_table_row(t);

			doc_table_set(t, r, 0, "%s", fact_names[f]);
			for (size_t g = 0; g < c->ngroups; g++)
				doc_table_set(t, r, 1 + g, "%s", v[g]);
			any = true;
		}
		for (size_t g = 0; g < c->ngroups; g++)
			free(v[g]);
	}
	if (any) {
		doc_para(d, "Per label (from the first run of each):");
		doc_table(d, t);
	}
	doc_table_free(t);
	free(v);
	any = false;
	for (size_t i = 0; i < c->nresults; i++) {
		json_t *notes[2] = { c->results[i].notes, jpath(c->results[i].environment,
								"prep.notes") }, *n;
		size_t k;

		for (int j = 0; j < 2; j++) {
			json_array_foreach(notes[j], k, n) {
				if (!json_is_string(n))
					continue;
				if (!any)
					doc_para(d, "Notes recorded in the results:");
				any = true;
				doc_item(d, "%s (%s): %s", c->results[i].label, c->files[i],
					 json_string_value(n));
			}
		}
	}
}

/* One run in start-time order. */
struct order_run {
	const char *at;
	size_t ri, g, rank; /* result, group, its k-th run of the group (1-based) */
};

static int cmp_order(const void *a, const void *b)
{
	const struct order_run *x = a, *y = b;
	int r = strcmp(x->at, y->at);

	return r ? r : (x->ri > y->ri) - (x->ri < y->ri);
}

/*
 * The order the runs were made in, from their start times: interleaved when every label's k-th
 * run started before any label's (k+1)-th.  Heap text, or NULL when the results do not tell
 * (a start time missing, or all equal).
 */
char *report_run_order(const struct compare *c, bool *interleaved)
{
	struct order_run *v = xcalloc(c->nresults, sizeof(*v));
	size_t n = 0, *seen = xcalloc(c->ngroups, sizeof(size_t)), rounds = 0;
	char *out = NULL, *tmp;

	*interleaved = true;
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].aborted)
			continue;
		for (size_t i = 0; i < c->groups[g].nruns; i++) {
			size_t ri = c->groups[g].runs[i];

			if (!c->results[ri].started_at)
				goto unknown;
			v[n++] = (struct order_run){ .at = c->results[ri].started_at, .ri = ri, .g = g };
		}
	}
	if (n < 2 || !strcmp(v[0].at, v[n - 1].at))
		goto unknown;
	for (size_t i = 1; i < n; i++)
		if (!strcmp(v[i].at, v[0].at))
			goto unknown; /* a second run at the first's time: not a real order */
	qsort(v, n, sizeof(*v), cmp_order);
	for (size_t i = 0; i < n; i++) {
		v[i].rank = ++seen[v[i].g];
		if (i && v[i].rank < v[i - 1].rank)
			*interleaved = false;
		rounds = MAX(rounds, v[i].rank);
	}
	for (size_t i = 0; i < n; i++) {
		bool new_round = *interleaved && i && v[i].rank != v[i - 1].rank;

		tmp = xasprintf("%s%s%s", out ? out : "", !i ? "" : new_round ? " | " : ", ",
				c->groups[v[i].g].label);
		free(out);
		out = tmp;
	}
	if (*interleaved && rounds > 1)
		tmp = xasprintf("interleaved in %zu rounds, every label's k-th run before any "
				"label's next (%s)", rounds, out);
	else if (*interleaved)
		tmp = xasprintf("one run per label (%s)", out);
	else
		tmp = xasprintf("NOT interleaved (%s): runs of a label partly back to back, so drift "
				"of a shared machine during the experiment can fall on some labels more "
				"than on others; the lab's default order (shuffled rounds) avoids that",
				out);
	free(out);
	out = tmp;
	goto done;
unknown:
	*interleaved = false;
	out = NULL;
done:
	free(v);
	free(seen);
	return out;
}

static void method(struct doc *d, const struct compare *c, const struct report_opts *o)
{
	const struct run_config *cf = &c->results[c->groups[c->baseline].runs[0]].config;
	char db[32], cache[32], bs[32], *threads = NULL;

	for (size_t g = 0; g < c->ngroups; g++) {
		char *tmp, num[16];
		bool dup = false;

		snprintf(num, sizeof(num), "%u", c->groups[g].threads);
		for (size_t h = 0; h < g; h++)
			dup |= c->groups[h].threads == c->groups[g].threads;
		if (dup)
			continue;
		tmp = threads ? xasprintf("%s, %s", threads, num) : xstrdup(num);
		free(threads);
		threads = tmp;
	}
	doc_item(d, "Workload: %s, %s threads%s, I/O depth %u", cf->workload, threads,
		 c->nsweeps ? " (a thread sweep)" : "", cf->iodepth);
	doc_item(d, "Databases: %u of %s each, %s pages, database cache %s per database",
		 cf->databases, fmt_size(db, sizeof(db), cf->db_size), fmt_size(bs, sizeof(bs), cf->bs),
		 fmt_size(cache, sizeof(cache), cf->cache_size));
	doc_item(d, "Duration: %g s measured after a %g s warm-up%s", cf->duration_s, cf->warmup_s,
		 cf->duration_s < 7200 ? " (shorter than Jetstress's 2-hour performance test: "
		 "short cells show how filesystems differ under this load, they do not qualify "
		 "a volume)" : "");
	doc_item(d, "Seed %llu, data compressibility %u %%, background database maintenance %s",
		 (unsigned long long)cf->seed, cf->compressibility,
		 cf->bdm_mbps > 0 ? "on" : "off");
	if (cf->bdm_mbps > 0)
		doc_item(d, "BDM throttle: %g MB/s per database", cf->bdm_mbps);
	doc_item(d, "Comparability: %s", c->nwarnings ?
		 "the results DIFFER in configuration and were compared only because of "
		 "--allow-mismatch (see the warnings below)" :
		 "every result has the same workload, duration, database count and size, seed and "
		 "fslab version");
	free(threads);
	{
		bool il;
		char *order = report_run_order(c, &il);

		if (o && o->order_note)
			doc_item(d, "Order: %s; start times: %s", o->order_note,
				 order ? order : "not recorded");
		else
			doc_item(d, "Order (from the results' start times): %s",
				 order ? order : "not recorded in the results");
		free(order);
	}
	method_para(d, c);
}

static void verdicts(struct doc *d, const struct compare *c)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		for (size_t i = 0; i < c->groups[g].nruns; i++) {
			size_t ri = c->groups[g].runs[i];
			const struct verdict *v = &c->results[ri].verdict;
			char *fails = NULL;

			if (!v->present) {
				doc_item(d, "%s (%s): no verdict%s", c->groups[g].label, c->files[ri],
					 c->results[ri].aborted ? " (aborted)" : "");
				continue;
			}
			for (size_t k = 0; k < v->nchecks; k++) {
				const struct verdict_check *ck = &v->checks[k];
				char *tmp;

				if (ck->pass)
					continue;
				tmp = xasprintf("%s%s%s %g %s > limit %g %s (%s%s%s)", fails ? fails : "",
						fails ? "; " : "", ck->name, ck->value, ck->unit,
						ck->limit, ck->unit, ck->scope, ck->note ? ", " : "",
						ck->note ? ck->note : "");
				free(fails);
				fails = tmp;
			}
			if (v->pass)
				doc_item(d, "%s (%s): PASS, %zu checks", c->groups[g].label, c->files[ri],
					 v->nchecks);
			else
				doc_item(d, "%s (%s): FAIL: %s", c->groups[g].label, c->files[ri],
					 fails ? fails : "no failing check recorded");
			free(fails);
		}
	}
}

/* ---- sizing ---- */

static struct doc_table *sizing_table(const struct compare *c, const struct sizing_opts *s)
{
	const struct cmp_row *iops = compare_row(c, "trans_iops");
	size_t ncols = 2, col;
	struct doc_table *t;

	for (size_t g = 0; g < c->ngroups; g++)
		ncols += !c->groups[g].aborted;
	t = doc_table_new(ncols, true);
	doc_table_set(t, 0, 0, "Messages/day per mailbox");
	doc_table_set(t, 0, 1, "IOPS per mailbox");
	col = 2;
	for (size_t g = 0; g < c->ngroups; g++)
		if (!c->groups[g].aborted)
			doc_table_set(t, 0, col++, "Mailboxes, %s (%.0f IOPS)", c->groups[g].label,
				      iops->cells[g].s.mean);
	for (size_t p = 0; p < s->nprofiles; p++) {
		size_t r = doc_table_row(t);

		doc_table_set(t, r, 0, "%llu", (unsigned long long)s->profiles[p]);
		doc_table_set(t, r, 1, "%.4f", sizing_iops_per_mailbox(s, s->profiles[p]));
		col = 2;
		for (size_t g = 0; g < c->ngroups; g++)
			if (!c->groups[g].aborted)
				doc_table_set(t, r, col++, "%llu", (unsigned long long)
					      sizing_mailboxes(s, s->profiles[p], iops->cells[g].s.mean));
	}
	return t;
}

static void sizing_body(struct doc *d, const struct compare *c, const struct sizing_opts *s)
{
	struct doc_table *t = sizing_table(c, s);

	doc_para(d, "Mailboxes supported = achieved transactional IOPS / (messages per day x %g "
		 "IOPS per message/day per mailbox x (1 + %g %% overhead)). Factor source: %s. A "
		 "planning estimate for an Exchange mailbox server's database volume, not a "
		 "measurement; use the lower end of the confidence interval for head room.",
		 s->iops_per_message, s->overhead_pct,
		 s->iops_per_message == SIZING_IOPS_PER_MESSAGE ? SIZING_SOURCE :
		 "set with --iops-per-message (the Exchange 2013 default is 0.00067)");
	doc_table(d, t);
	doc_table_free(t);
}

void report_sizing(FILE *f, enum doc_format fmt, const struct compare *c,
		   const struct sizing_opts *s)
{
	struct doc d;

	doc_begin(&d, fmt, f, "fslab sizing: Exchange mailboxes from achieved transactional IOPS");
	sizing_body(&d, c, s);
	doc_end(&d);
}

/* ---- the article ---- */

void report_article(FILE *f, enum doc_format fmt, const struct compare *c,
		    const struct report_opts *o)
{
	char *title = report_title(c, o);
	struct sizing_opts defaults;
	struct doc d;

	sizing_opts_default(&defaults);
	doc_begin(&d, fmt, f, title);
	d.svg_root = o->out_dir;
	if (o->generated >= 0) {
		time_t t = (time_t)o->generated;
		struct tm tm;
		char when[32];

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
		doc_para(&d, "Generated by fslab %s on %s from %zu result files.", FSLAB_VERSION, when,
			 c->nresults);
	}
	doc_heading(&d, 2, "Summary");
	summary(&d, c);
	doc_heading(&d, 2, "Setup");
	setup(&d, c);
	doc_heading(&d, 2, "Method");
	method(&d, c, o);
	doc_heading(&d, 2, "Results");
	results(&d, c, 3, false);
	doc_heading(&d, 2, "Charts");
	if (o->charts && o->charts->skipped)
		doc_para(&d, "%s.", o->charts->skipped);
	else if (!o->charts || !o->charts->n)
		doc_para(&d, "No charts (--no-charts).");
	for (size_t i = 0; o->charts && i < o->charts->n; i++) {
		char *png = xasprintf("charts/%s.png", o->charts->charts[i].name);
		char *svg = xasprintf("charts/%s.svg", o->charts->charts[i].name);

		doc_chart(&d, o->charts->charts[i].title, png, svg);
		free(png);
		free(svg);
	}
	doc_heading(&d, 2, "Verdicts");
	verdicts(&d, c);
	doc_heading(&d, 2, "Sizing");
	sizing_body(&d, c, o->sizing ? o->sizing : &defaults);
	doc_heading(&d, 2, "Input files");
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].nruns; i++)
			doc_item(&d, "%s: %s", c->groups[g].label, c->files[c->groups[g].runs[i]]);
	doc_end(&d);
	free(title);
}

/* ---- CSV ---- */

static void csv_field(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double v, bool last)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
	fputc(last ? '\n' : ',', f);
}

void report_csv(FILE *f, const struct compare *c)
{
	fputs("metric_id,metric,label,runs,method,n,mean,sd,ci_low,ci_high,text,against,delta,"
	      "delta_pct,significance,p,p_holm,delta_ci_half,mde,mde_pct\n", f);
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];

		for (size_t g = 0; g < c->ngroups; g++) {
			const struct cmp_cell *cell = &row->cells[g];
			const struct cmp_delta *d = &row->deltas[g];
			bool numeric = cell->kind != CELL_TEXT && cell->kind != CELL_NONE;
			double h = isfinite(cell->s.half) ? cell->s.half : NAN;

			csv_field(f, row->m->id, false);
			csv_field(f, row->m->name, false);
			csv_field(f, c->groups[g].label, false);
			fprintf(f, "%zu,", c->groups[g].nruns);
			csv_field(f, cell_method(cell->kind), false);
			if (numeric) {
				fprintf(f, "%zu,", cell->s.n);
				csv_num(f, cell->s.mean, false);
				csv_num(f, cell->s.sd, false);
				csv_num(f, cell->s.mean - h, false);
				csv_num(f, cell->s.mean + h, false);
			} else {
				fputs(",,,,,", f);
			}
			csv_field(f, cell->kind == CELL_TEXT ? cell->text : "", false);
			csv_field(f, d->base >= 0 ? c->groups[d->base].label : "", false);
			if (d->present) {
				csv_num(f, d->abs, false);
				csv_num(f, d->pct, false);
				csv_field(f, sig_name(d->sig), false);
				csv_num(f, d->p, false);
				csv_num(f, d->p_holm, false);
				csv_num(f, d->half, false);
				csv_num(f, d->mde, false);
				csv_num(f, d->mde_pct, true);
			} else {
				fputs(",,,,,,,\n", f);
			}
		}
	}
}

/* ---- JSON ---- */

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *json_rows(const struct compare *c)
{
	json_t *rows = json_array();

	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];
		json_t *cells = json_array();

		for (size_t g = 0; g < c->ngroups; g++) {
			const struct cmp_cell *cell = &row->cells[g];
			const struct cmp_delta *d = &row->deltas[g];
			double h = cell->s.half;
			json_t *o = json_pack("{s:s, s:s}", "label", c->groups[g].label,
					      "method", cell_method(cell->kind));

			if (cell->kind == CELL_TEXT) {
				json_object_set_new(o, "text", json_string(cell->text));
			} else if (cell->kind != CELL_NONE) {
				json_object_set_new(o, "n", json_integer((json_int_t)cell->s.n));
				json_object_set_new(o, "mean", jnum(cell->s.mean));
				json_object_set_new(o, "sd", jnum(cell->s.sd));
				json_object_set_new(o, "ci_low", jnum(cell->s.mean - h));
				json_object_set_new(o, "ci_high", jnum(cell->s.mean + h));
			}
			if (d->present)
				json_object_set_new(o, "delta", json_pack(
					"{s:s, s:o, s:o, s:o, s:s, s:o, s:o, s:b, s:o, s:o, s:o, s:s?}",
					"against", c->groups[d->base].label, "abs", jnum(d->abs),
					"pct", jnum(d->pct), "ci_half", jnum(d->half),
					"significant", sig_name(d->sig), "p", jnum(d->p),
					"p_holm", jnum(d->p_holm), "corrected", d->corrected,
					"mde", jnum(d->mde), "mde_pct", jnum(d->mde_pct),
					"better", d->sig == SIG_YES ? json_integer(d->better) : json_null(),
					"not_tested_because", d->na_why));
			json_array_append_new(cells, o);
		}
		json_array_append_new(rows, json_pack("{s:s, s:s, s:i, s:b, s:o}", "id", row->m->id,
						      "name", row->m->name, "direction",
						      (int)row->m->dir, "hidden", row->m->hidden,
						      "cells", cells));
	}
	return rows;
}

json_t *report_json(const struct compare *c, const struct report_opts *o)
{
	const struct batch_plan *bp = &c->groups[c->baseline].plan;
	json_t *root, *groups = json_array(), *sweeps = json_array(), *sum = json_array();
	json_t *charts = json_array(), *warn = json_array();
	char *title = report_title(c, o);
	size_t n;
	char **sentences = report_summary(c, &n);
	struct sizing_opts defaults;

	sizing_opts_default(&defaults);
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *x = &c->groups[g];
		json_t *files = json_array();

		for (size_t i = 0; i < x->nruns; i++)
			json_array_append_new(files, json_string(c->files[x->runs[i]]));
		json_array_append_new(groups, json_pack("{s:s, s:s, s:i, s:b, s:o, s:o, s:o, s:o}",
			"label", x->label, "filesystem", x->fs, "threads", (int)x->threads,
			"aborted", x->aborted, "files", files,
			"against", x->base >= 0 ? json_string(c->groups[x->base].label) : json_null(),
			"mismatch", x->mismatch ? json_string(x->mismatch) : json_null(),
			"aa_check_of", x->aa_of >= 0 ? json_string(c->groups[x->aa_of].label)
						     : json_null()));
	}
	for (size_t s = 0; s < c->nsweeps; s++) {
		json_t *pts = json_array();

		for (size_t k = 0; k < c->sweeps[s].n; k++) {
			size_t g = c->sweeps[s].groups[k];

			json_array_append_new(pts, json_pack("{s:s, s:i, s:o, s:o}", "label",
				c->groups[g].label, "threads", (int)c->groups[g].threads,
				"transactional_iops", jnum(compare_mean(c, "trans_iops", g)),
				"efficiency_pct", jnum(c->sweeps[s].eff[k])));
		}
		json_array_append_new(sweeps, json_pack("{s:s, s:o}", "filesystem", c->sweeps[s].fs,
							"points", pts));
	}
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(sum, json_string(sentences[i]));
		free(sentences[i]);
	}
	free(sentences);
	for (size_t i = 0; o->charts && i < o->charts->n; i++)
		json_array_append_new(charts, json_string(o->charts->charts[i].name));
	for (size_t i = 0; i < c->nwarnings; i++)
		json_array_append_new(warn, json_string(c->warnings[i]));
	root = json_pack("{s:s, s:s, s:s, s:{s:s, s:f, s:f, s:f, s:s, s:s, s:i, s:b, s:i, s:i,"
			 " s:i}, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "schema", COMPARE_SCHEMA, "title", title, "fslab_version", FSLAB_VERSION,
			 "method", "name", c->method == CMP_REPEATS ? "repeats" : "within one run",
			 "confidence", STATS_CONF, "alpha", STATS_ALPHA, "power", STATS_POWER,
			 "test", c->method == CMP_REPEATS ? "Welch's t-test on per-run values" :
			 "none (batch means give within-run intervals only)",
			 "multiple_comparisons", "Holm-Bonferroni over labels x headline metrics",
			 "claims", (int)c->nclaims, "aa_alarm", c->aa_alarm >= 0,
			 "batches", (int)bp->k, "batch_seconds", (int)bp->len,
			 "skipped_seconds", (int)bp->skip,
			 "baseline", c->groups[c->baseline].label, "groups", groups,
			 "warnings", warn, "rows", json_rows(c), "sweeps", sweeps, "summary", sum,
			 "sizing", report_sizing_json(c, o->sizing ? o->sizing : &defaults),
			 "charts", charts, "charts_skipped",
			 o->charts && o->charts->skipped ? json_string(o->charts->skipped)
							 : json_null());
	free(title);
	return root;
}

json_t *report_sizing_json(const struct compare *c, const struct sizing_opts *s)
{
	const struct cmp_row *iops = compare_row(c, "trans_iops");
	json_t *labels = json_array(), *profiles = json_array();

	for (size_t p = 0; p < s->nprofiles; p++)
		json_array_append_new(profiles, json_pack("{s:I, s:f}", "messages_per_day",
			(json_int_t)s->profiles[p], "iops_per_mailbox",
			sizing_iops_per_mailbox(s, s->profiles[p])));
	for (size_t g = 0; g < c->ngroups; g++) {
		json_t *mb = json_array();

		if (c->groups[g].aborted)
			continue;
		for (size_t p = 0; p < s->nprofiles; p++)
			json_array_append_new(mb, json_integer((json_int_t)sizing_mailboxes(
				s, s->profiles[p], iops->cells[g].s.mean)));
		json_array_append_new(labels, json_pack("{s:s, s:o, s:o}", "label",
			c->groups[g].label, "transactional_iops", jnum(iops->cells[g].s.mean),
			"mailboxes", mb));
	}
	return json_pack("{s:f, s:f, s:s, s:o, s:o}", "iops_per_message", s->iops_per_message,
			 "overhead_pct", s->overhead_pct, "source",
			 s->iops_per_message == SIZING_IOPS_PER_MESSAGE ? SIZING_SOURCE
									: "--iops-per-message",
			 "profiles", profiles, "labels", labels);
}

void report_sizing_csv(FILE *f, const struct compare *c, const struct sizing_opts *s)
{
	const struct cmp_row *iops = compare_row(c, "trans_iops");

	fputs("label,transactional_iops,messages_per_day,iops_per_message,overhead_pct,"
	      "iops_per_mailbox,mailboxes\n", f);
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].aborted)
			continue;
		for (size_t p = 0; p < s->nprofiles; p++) {
			csv_field(f, c->groups[g].label, false);
			fprintf(f, "%.10g,%llu,%g,%g,%.10g,%llu\n", iops->cells[g].s.mean,
				(unsigned long long)s->profiles[p], s->iops_per_message,
				s->overhead_pct, sizing_iops_per_mailbox(s, s->profiles[p]),
				(unsigned long long)sizing_mailboxes(s, s->profiles[p],
								     iops->cells[g].s.mean));
		}
	}
}
