// SPDX-License-Identifier: MIT
/* report.c: the comparison as documents: the results tables, the Markdown/HTML article with
 * its verdicts and sizing sections. */
#include "compare/reportP.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

/* ---- pieces shared by the tables and the article ---- */

char *report_title(const struct compare *c, const struct report_opts *o)
{
	struct strbuf t = STRBUF_INIT;

	if (o && o->title)
		return xstrdup(o->title);
	strbuf_addstr(&t, "fslab comparison:");
	for (size_t g = 0; g < c->ngroups; g++)
		strbuf_addf(&t, "%s%s", g ? " vs " : " ", c->groups[g].label);
	return strbuf_detach(&t, NULL);
}

static void warnings(struct doc *d, const struct compare *c)
{
	if (c->aa_alarm >= 0)
		doc_item(d, "WARNING: the A/A check failed: %s and %s are the same setup, yet they "
			 "differ significantly; this machine is too noisy for the claims below (see "
			 "the Summary).", c->groups[c->aa_alarm].label,
			 c->groups[c->groups[c->aa_alarm].aa_of].label);
	for (size_t i = 0; i < c->warnings.nr; i++)
		doc_item(d, "WARNING (--allow-mismatch): %s", c->warnings.v[i]);
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].aborted)
			doc_item(d, "ABORTED: %s is an aborted run (%s), shown for reference only: it "
				 "is not pooled with complete runs and no difference is tested for it.",
				 c->groups[g].label,
				 c->results[c->groups[g].runs[0]].abort_reason ?
				 c->results[c->groups[g].runs[0]].abort_reason : "no reason recorded");
}

/* A printed row's name and its value per label, in a new row of t (a label per column from
 * column 1); the row's index. */
static size_t values_row(struct doc_table *t, const struct compare *c, const struct cmp_row *row)
{
	size_t tr = doc_table_row(t);

	doc_table_set(t, tr, 0, "%s", row->m->name);
	for (size_t g = 0; g < c->ngroups; g++) {
		char *s = report_cell_text(row, g);

		doc_table_set(t, tr, 1 + g, "%s", s);
		free(s);
	}
	return tr;
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
		tr = values_row(t, c, row);
		col = 1 + c->ngroups;
		for (size_t g = 0; g < c->ngroups; g++) {
			char *a, *b;

			if (c->groups[g].base < 0)
				continue;
			a = report_delta_text(row, g);
			b = report_sig_text(row, g);
			doc_table_set(t, tr, col, "%s", a);
			doc_table_set(t, tr, col + 1, "%s", b);
			if (compare_delta_marked(&row->deltas[g])) {
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
			char *cell = report_cell_text(iops, g);

			doc_table_set(t, r, 0, "%s", sw->fs);
			doc_table_set(t, r, 1, "%u", c->groups[g].threads);
			doc_table_set(t, r, 2, "%s", c->groups[g].label);
			doc_table_set(t, r, 3, "%s", cell);
			if (c->groups[g].threads)
				doc_table_set(t, r, 4, "%.0f",
					      iops->cells[g].s.mean / c->groups[g].threads);
			else
				doc_table_set(t, r, 4, "-");
			doc_table_set(t, r, 5, "%.0f %%", sw->eff[k]);
			doc_table_set(t, r, 6, "%.3f", compare_mean(c, "db_read_lat_avg", g));
			doc_table_set(t, r, 7, "%.3f", compare_mean(c, "log_write_lat_avg", g));
			free(cell);
		}
	}
	return t;
}

/* The values of every printed row: a metric per row, a label per column. */
static struct doc_table *values_table(const struct compare *c)
{
	struct doc_table *t = doc_table_new(1 + c->ngroups, true);

	doc_table_set(t, 0, 0, "Metric");
	for (size_t g = 0; g < c->ngroups; g++)
		doc_table_set(t, 0, 1 + g, "%s", c->groups[g].label);
	for (size_t r = 0; r < c->nrows; r++)
		if (!c->rows[r].m->hidden)
			values_row(t, c, &c->rows[r]);
	return t;
}

/* One comparison (group g against its base) on every printed numeric row. */
static struct doc_table *difference_table(const struct compare *c, size_t g)
{
	struct doc_table *t = doc_table_new(3, true);

	doc_table_set(t, 0, 0, "Metric");
	doc_table_set(t, 0, 1, "%s vs %s", c->groups[g].label,
		      c->groups[c->groups[g].base].label);
	doc_table_set(t, 0, 2, c->method == CMP_REPEATS ? "significance" : "test");
	t->text_cols = 1 << 2; /* the test's words: read left to right */
	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];
		char *a, *b;
		size_t tr;

		if (row->m->hidden || compare_metric_is_text(row->m))
			continue;
		tr = doc_table_row(t);
		a = report_delta_text(row, g);
		b = report_sig_text(row, g);
		doc_table_set(t, tr, 0, "%s", row->m->name);
		doc_table_set(t, tr, 1, "%s", a);
		doc_table_set(t, tr, 2, "%s", b);
		if (compare_delta_marked(&row->deltas[g])) {
			doc_table_strong(t, tr, 1);
			doc_table_strong(t, tr, 2);
		}
		free(a);
		free(b);
	}
	return t;
}

static void summary(struct doc *d, const struct compare *c)
{
	struct strvec v = STRVEC_INIT;

	report_summary(c, &v);
	for (size_t i = 0; i < v.nr; i++)
		doc_item(d, "%s", v.v[i]);
	strvec_clear(&v);
}

/* What `fslab compare` prints: the method, warnings, the table, the sweep table. */
static void results(struct doc *d, const struct compare *c, int level)
{
	struct doc_table *t;

	report_method_para(d, c);
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
	results(&d, c, 2);
	report_hosts(&d, c, 2);
	if (c->have_noise || (o && o->stop_note)) {
		doc_heading(&d, 2, "Noise and precision");
		report_noise(&d, c, o);
	}
	doc_heading(&d, 2, "Summary");
	summary(&d, c);
	doc_end(&d);
	free(title);
}

/* ---- sizing ---- */

static struct doc_table *sizing_table(const struct compare *c, const struct sizing_opts *s)
{
	const struct cmp_row *iops = compare_row(c, "trans_iops");
	size_t ncols = 2, col;
	struct doc_table *t;
	bool low;

	for (size_t g = 0; g < c->ngroups; g++)
		ncols += !c->groups[g].aborted;
	t = doc_table_new(ncols, true);
	doc_table_set(t, 0, 0, "Messages/day per mailbox");
	doc_table_set(t, 0, 1, "IOPS per mailbox");
	col = 2;
	for (size_t g = 0; g < c->ngroups; g++) {
		double plan = compare_sizing_iops(c, g, &low);

		if (c->groups[g].aborted)
			continue;
		/* a tuned label: its capacity, planned at the lower end of its interval */
		if (low)
			doc_table_set(t, 0, col++, "Mailboxes, %s (capacity %.0f IOPS, planned at "
				      "%.0f: the lower end of its 95 %% interval)", c->groups[g].label,
				      iops->cells[g].s.mean, plan);
		else
			doc_table_set(t, 0, col++, "Mailboxes, %s (%.0f IOPS%s)", c->groups[g].label,
				      plan, c->groups[g].tuned ? " capacity, one value" : "");
	}
	for (size_t p = 0; p < s->nprofiles; p++) {
		size_t r = doc_table_row(t);

		doc_table_set(t, r, 0, "%llu", (unsigned long long)s->profiles[p]);
		doc_table_set(t, r, 1, "%.4f", sizing_iops_per_mailbox(s, s->profiles[p]));
		col = 2;
		for (size_t g = 0; g < c->ngroups; g++)
			if (!c->groups[g].aborted)
				doc_table_set(t, r, col++, "%llu", (unsigned long long)
					      sizing_mailboxes(s, s->profiles[p],
							       compare_sizing_iops(c, g, &low)));
	}
	return t;
}

/*
 * Whether the figures sized were at the volume's limit: the labels at a thread count given
 * ("This run was not at the volume's limit: the mailbox counts are what 4 threads
 * achieved"), the tuned labels' capacity (the figure to plan with: the lower end of its
 * interval).
 */
static void sizing_limit(struct doc *d, const struct compare *c, const struct sizing_opts *s)
{
	struct strbuf fixed = STRBUF_INIT, tuned = STRBUF_INIT;
	size_t nfixed = 0, nruns = 0, ntuned = 0;
	unsigned int t0 = 0;
	bool same = true;

	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];

		if (grp->aborted)
			continue;
		if (grp->tuned) {
			strbuf_add_sep(&tuned, ", ");
			strbuf_addstr(&tuned, grp->label);
			ntuned++;
			continue;
		}
		same = same && (!nfixed || grp->threads == t0);
		t0 = grp->threads;
		nfixed++;
		nruns += grp->nruns;
		strbuf_add_sep(&fixed, ", ");
		strbuf_addf(&fixed, "%s %u", grp->label, grp->threads);
	}
	if (nfixed && same)
		doc_para(d, "%s not at the volume's limit: the mailbox counts are what %u thread%s "
			 "achieved (fslab run --threads auto finds the largest load that passes).",
			 nruns == 1 ? "This run was" : "These runs were", t0, t0 == 1 ? "" : "s");
	else if (nfixed)
		doc_para(d, "These runs were not at the volume's limit: the mailbox counts are what "
			 "their thread counts achieved (%s; fslab run --threads auto finds the "
			 "largest load that passes).", fixed.buf);
	if (tuned.len)
		doc_para(d, "The mailbox counts of %s are from %s capacity (fslab run --threads auto: "
			 "the transactional IOPS at the largest thread count that passed), planned at "
			 "the lower end of its 95 %% interval over the runs: the figure to plan with, "
			 "as the table's headings say; the %g %% overhead on each mailbox's IOPS is "
			 "the head room, as for any label.", tuned.buf, ntuned > 1 ? "their" : "its",
			 s->overhead_pct);
	strbuf_release(&fixed);
	strbuf_release(&tuned);
}

/*
 * The target check of each label whose runs had one (--target-iops, or --mailboxes with
 * --iops-per-mailbox): the target, where it came from, the achieved mean and the runs that
 * reached it.
 */
static void target_items(struct doc *d, const struct compare *c)
{
	const struct cmp_row *iops = compare_row(c, "trans_iops");

	for (size_t g = 0; g < c->ngroups; g++) {
		const struct run_config *cf = &c->results[c->groups[g].runs[0]].config;
		size_t met = 0, n = c->groups[g].nruns;
		char from[96];

		if (!(cf->target_iops > 0) || c->groups[g].aborted)
			continue;
		for (size_t i = 0; i < n; i++)
			met += c->results[c->groups[g].runs[i]].transactional_iops >= cf->target_iops;
		if (cf->mailboxes)
			snprintf(from, sizeof(from), "%u mailboxes x %g IOPS per mailbox", cf->mailboxes,
				 cf->iops_per_mailbox);
		else
			snprintf(from, sizeof(from), "--target-iops");
		doc_item(d, "Target check, %s: %.0f transactional IOPS (%s); achieved %.0f on "
			 "average, the target reached in %zu of %zu run(s): %s", c->groups[g].label,
			 cf->target_iops, from, iops ? iops->cells[g].s.mean : NAN, met, n,
			 met == n ? "PASS" : "FAIL");
	}
}

static void sizing_body(struct doc *d, const struct compare *c, const struct sizing_opts *s)
{
	struct doc_table *t = sizing_table(c, s);

	target_items(d, c);

	doc_para(d, "Mailboxes supported = achieved transactional IOPS / (messages per day x %g "
		 "IOPS per message/day per mailbox x (1 + %g %% overhead)). Factor source: %s. A "
		 "planning estimate for an Exchange mailbox server's database volume, not a "
		 "measurement; use the lower end of the confidence interval for head room.",
		 s->iops_per_message, s->overhead_pct,
		 s->iops_per_message == SIZING_IOPS_PER_MESSAGE ? SIZING_SOURCE :
		 "set with --iops-per-message (the Exchange 2013 default is 0.00067)");
	sizing_limit(d, c, s);
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

/* The chart named name, if drawn. */
static const struct chart *find_chart(const struct report_opts *o, const char *name)
{
	for (size_t i = 0; o->charts && i < o->charts->n; i++)
		if (!strcmp(o->charts->charts[i].name, name))
			return &o->charts->charts[i];
	return NULL;
}

static void chart(struct doc *d, const struct chart *ch)
{
	char *png = xasprintf("charts/%s.png", ch->name);
	char *svg = xasprintf("charts/%s.svg", ch->name);

	doc_chart(d, ch->title, png, svg);
	free(png);
	free(svg);
}

/*
 * The full results: the claims in words, the warnings, the values (a label per column, at most
 * four per table), then one table per comparison (its difference and test per metric), the
 * thread scaling.  Narrow enough for a page at any number of labels.
 */
static void results_in_full(struct doc *d, const struct compare *c)
{
	struct doc_table *t;

	summary(d, c);
	if (c->method == CMP_REPEATS)
		doc_para(d, "Cells: mean ± half width of the 95 %% confidence interval (see the "
			 "Method's statistics); differences that pass the test on independent "
			 "repeats (Holm-corrected for the headline metrics) and are not inside the "
			 "equivalence margin are in bold; a significant difference inside it is "
			 "negligible, and nothing else is a difference.");
	else
		doc_para(d, "Cells: mean ± half width of the 95 %% confidence interval (see the "
			 "Method's statistics). With one run per label nothing is tested: no "
			 "difference here is a claim.");
	warnings(d, c);
	t = values_table(c);
	doc_table_split(d, t, 4);
	doc_table_free(t);
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].base < 0)
			continue;
		t = difference_table(c, g);
		doc_table(d, t);
		doc_table_free(t);
	}
	if (c->nsweeps) {
		doc_heading(d, 3, "Thread scaling");
		doc_para(d, "Scaling against linear: IOPS at n threads / (IOPS at the first thread "
			 "count x n / first thread count).");
		t = sweep_table(c);
		doc_table(d, t);
		doc_table_free(t);
	}
}

/* The answer's sections below its key table and chart: verdicts, load shape, steady state,
 * qualification and capacity, each when a result has it. */
static void answer_details(struct doc *d, const struct compare *c)
{
	if (report_has_verdicts(c)) {
		doc_heading(d, 3, "Verdicts (Jetstress-style)");
		report_verdict_lines(d, c);
	}
	if (compare_any_shape(c)) {
		doc_heading(d, 3, "Load shape (Jetstress's ratios)");
		report_shape_lines(d, c);
	}
	if (compare_any_steady(c)) {
		doc_heading(d, 3, "Steady state");
		report_steady_lines(d, c);
	}
	if (c->nquals) {
		doc_heading(d, 3, "Qualification (Jetstress's own test: one long run per "
			    "filesystem)");
		report_qualification(d, c);
	}
	if (compare_any_tuned(c)) {
		doc_heading(d, 3, "Capacity (--threads auto)");
		report_capacity(d, c);
	}
}

void report_article(FILE *f, enum doc_format fmt, const struct compare *c,
		    const struct report_opts *o)
{
	char *title = report_title(c, o);
	const struct chart *lead = find_chart(o, "headline");
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
	/* the answer first: a line per label, the key figures, the chart, the verdicts */
	doc_heading(&d, 2, "The answer");
	report_answer(&d, c, o);
	if (c->warnings.nr)
		doc_item_lead(&d, "Warning", ": the results differ in what a comparison needs equal "
			      "and were compared only because of --allow-mismatch (see Results in "
			      "full).");
	report_key_table(&d, c);
	if (lead)
		chart(&d, lead);
	answer_details(&d, c);
	/* where the I/O went: the volumes as their devices saw them, the host beside them */
	if (report_has_volumes(c)) {
		doc_heading(&d, 2, "The volumes");
		report_volumes(&d, c);
	}
	/* a cluster's hosts (fslab merge) beside the volumes, before the rigour */
	report_hosts(&d, c, 2);
	/* the rigour, one level down */
	doc_heading(&d, 2, "Charts");
	if (o->charts && o->charts->skipped)
		doc_para(&d, "%s.", o->charts->skipped);
	else if (!o->charts || !o->charts->n)
		doc_para(&d, "No charts (--no-charts).");
	for (size_t i = 0; o->charts && i < o->charts->n; i++)
		if (&o->charts->charts[i] != lead)
			chart(&d, &o->charts->charts[i]);
	doc_heading(&d, 2, "Method");
	report_method(&d, c, o);
	doc_heading(&d, 2, "Setup");
	report_setup(&d, c);
	doc_heading(&d, 2, "Results in full");
	results_in_full(&d, c);
	if (c->have_noise || o->stop_note) {
		doc_heading(&d, 2, "Noise and precision");
		report_noise(&d, c, o);
	}
	doc_heading(&d, 2, "Sizing");
	sizing_body(&d, c, o->sizing ? o->sizing : &defaults);
	/* the detail of every run, folded: the sections above aggregate it per label */
	doc_heading(&d, 2, "Per-run detail");
	report_run_detail(&d, c);
	doc_end(&d);
	free(title);
}
