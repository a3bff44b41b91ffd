// SPDX-License-Identifier: MIT
/*
 * noise.c: the statistics paragraph of every comparison (repeats, batch means, blocked: the
 * results table and the Method share it), and the words of a blocked comparison: where the
 * noise is (within a run, between runs, drift between rounds), the extreme cells, the
 * allocation advice, and why an adaptive lab stopped.
 */
#include "compare/reportP.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/precision.h"
#include "lib/strbuf.h"

/* A coefficient of variation in % from a variance on the log scale: "8.1". */
static const char *cv_text(char *buf, size_t len, double var)
{
	double cv = sqrt(fmax(var, 0)) * 100;

	snprintf(buf, len, cv >= 9.95 ? "%.0f" : "%.1f", cv);
	return buf;
}

/* How the claims are decided: the margin, the four outcomes, and for a lab that stopped when
 * decided the boundary of its last look (heap). */
static char *decision_text(const struct compare *c)
{
	char *seq = NULL, *out;

	if (c->sequential)
		seq = xasprintf(" The lab stopped when every claim was decided, looking after every "
				"round from round %u on; looking again and again is paid for by a "
				"group-sequential boundary (Lan-DeMets alpha spending, O'Brien-Fleming "
				"type, over at most %u rounds%s): at its last look, after %u rounds, a "
				"claim is different only when its Holm-adjusted p < %.2g and equivalent "
				"only when its TOST Holm-adjusted p < %.2g.", c->seq.min_rounds,
				c->seq.max_rounds, c->seq.final ? "; that look was its last, so it "
				"spent what was left of the 5 %" : "", c->nrounds, c->level_diff,
				c->level_eq);
	if (c->margin_pct > 0)
		out = xasprintf(" Every claim ends in one of four outcomes against the equivalence "
				"margin ±%g %%%s: different (significant, and not inside the margin), "
				"equivalent within ±%g %% (two one-sided tests against -%g %% and +%g %% "
				"both reject at 5 %%, Holm-corrected over the claims as the differences "
				"are: its 90 %% interval lies inside the margin), negligible (significant, "
				"but inside the margin: a real difference, smaller than it matters; "
				"never bold or marked) or undecided (neither yet, with the rounds a "
				"decision would still need if the estimate and the noise stayed as they "
				"are).%s", c->margin_pct, c->margin_default ? " (the default: a "
				"difference below 5 % rarely changes a choice of filesystem; "
				"--equivalence or [lab] equivalence sets another)" : "", c->margin_pct,
				c->margin_pct, c->margin_pct, seq ? seq : "");
	else
		out = xasprintf(" No equivalence margin was set (--equivalence none): a significant "
				"difference below %g %% is negligible, never bold or marked.%s",
				COMPARE_FLOOR_PCT, seq ? seq : "");
	free(seq);
	return out;
}

/* The statistics paragraph of a blocked comparison (runs: "3", "5 to 7"). */
static void blocked_para(struct doc *d, const struct compare *c, const char *runs)
{
	const struct cmp_row *iops = compare_row(c, "trans_iops");
	struct strbuf rows = STRBUF_INIT;
	char *unblocked, df[64] = "", *decision = decision_text(c);
	size_t labels = 0;

	for (size_t g = 0; g < c->ngroups; g++)
		labels += !c->groups[g].aborted && !c->groups[g].cache_served;
	if (iops && iops->blocked)
		snprintf(df, sizeof(df), " (%.0f degrees of freedom for transactional IOPS)",
			 iops->df);
	for (size_t r = 0; r < c->nrows; r++)
		if (c->rows[r].unblocked_why && !c->rows[r].m->hidden) {
			strbuf_add_sep(&rows, ", ");
			strbuf_addf(&rows, "%s (%s)", c->rows[r].m->name, c->rows[r].unblocked_why);
		}
	unblocked = strbuf_detach_or_null(&rows);
	doc_para(d, "Statistics: each label was run %s times (%s). The results come from one lab's "
		 "rounds (lab %s, %u rounds, every label once per round), so each "
		 "round is a block of a randomized complete block design, and it is analysed as one: "
		 "every metric on the log scale (ratios, not differences: IOPS and latencies are "
		 "multiplicative), with the additive model value ~ label + round fitted by least "
		 "squares and its residual variance pooled over all %zu labels%s. The round term "
		 "takes out what a shared machine does to a whole round (a slow minute hits every "
		 "label of that round alike), and the pooled residual gives every comparison more "
		 "degrees of freedom than a pair of labels alone. A difference is the ratio of the "
		 "label's to its base's (geometric mean) value, in %%, with its 95 %% interval in "
		 "brackets, tested with a t-test on that model (\"blocked t-test\"). A missing or "
		 "aborted cell is simply absent: least squares on the unbalanced model uses every "
		 "other cell exactly, no round is dropped. The claims of the summary (%zu tests: "
		 "labels x the headline metrics transactional IOPS, database read latency, log "
		 "write latency and total throughput) are corrected with Holm-Bonferroni: a claim "
		 "is significant only when its Holm-adjusted p < %g. Other rows are tested one by "
		 "one (uncorrected, shown as such). For every tested difference the table gives the "
		 "minimum detectable difference (MDE): the smallest ratio these rounds detect with "
		 "%.0f %% power, at the level its decision is made at (a claim: %g / %zu, Holm's "
		 "first step; another row: %g); a \"no significant difference\" means no difference "
		 "above that size, not equality.%s%s%s%s", runs,
		 report_all_fresh(c) ? "each on a volume the lab formatted for it, with a database "
		 "the run created" : "how each label's runs were made: see Runs in the Method",
		 c->lab_id, c->nrounds, labels, df, c->nclaims, STATS_ALPHA, STATS_POWER * 100,
		 STATS_ALPHA, MAX(c->nclaims, (size_t)1), STATS_ALPHA,
		 decision, unblocked ? " Rows without a blocked model keep Welch's t-test: " : "",
		 unblocked ? unblocked : "", unblocked ? "." : "");
	free(unblocked);
	free(decision);
}

/* The largest (and in *min the smallest) number of runs of a label that counts. */
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
void report_method_para(struct doc *d, const struct compare *c)
{
	const struct batch_plan *bp = &c->groups[c->baseline].plan;
	size_t mn, mx = max_runs(c, &mn);
	char runs[64], batches[160];

	if (c->method == CMP_REPEATS) {
		char *decision;

		if (mn == mx)
			snprintf(runs, sizeof(runs), "%zu", mx);
		else
			snprintf(runs, sizeof(runs), "%zu to %zu", mn, mx);
		if (c->blocked) {
			blocked_para(d, c, runs);
			return;
		}
		decision = decision_text(c);
		doc_para(d, "Statistics: each label was run %s times (%s), and each run is one "
			 "sample: a cell is the mean of the runs ± the half width of its 95 %% "
			 "confidence interval (Student t). The runs are not one lab's rounds (%s), so "
			 "a difference is tested with Welch's t-test on the per-run values: it is "
			 "judged against the spread between the runs, not the noise inside one. The "
			 "claims of the summary (%zu tests: labels x the headline metrics "
			 "transactional IOPS, database read latency, log write latency and total "
			 "throughput) are corrected for multiple comparisons with Holm-Bonferroni: a "
			 "difference is significant only when its Holm-adjusted p < %g. Other rows are "
			 "tested one by one (uncorrected, shown as such): read them as exploration, "
			 "not as claims. For every tested difference the table gives the minimum "
			 "detectable difference (MDE): the smallest difference these runs detect with "
			 "%.0f %% power from the observed spread, at the level its decision is made at "
			 "(a claim: %g / %zu, Holm's first step; another row: %g); a \"no significant "
			 "difference\" means no difference above that size, not equality.%s", runs,
			 report_all_fresh(c) ? "each on a volume the lab formatted for it, with a "
			 "database the run created" : "how each label's runs were made: see Runs in the "
			 "Method", c->design, c->nclaims, STATS_ALPHA, STATS_POWER * 100, STATS_ALPHA,
			 MAX(c->nclaims, (size_t)1), STATS_ALPHA, decision);
		free(decision);
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
	if (c->foreign) {
		bool untimed = false;

		for (size_t i = 0; i < c->nresults; i++)
			untimed |= !c->results[i].timeline.nrows;
		if (untimed)
			doc_para(d, "Results read from other tools' files without a per-interval "
				 "timeline (fio JSON, DiskSpd text or XML without -D, Jetstress reports) "
				 "show their single value with "
				 "no interval; values a tool does not report show n/a "
				 "(docs/INTEROP.md).");
	}
}

/* ", 40-second cells: longer than the 10 s measured, ..." when the advice leaves the cell
 * lengths these results measured (heap, "" when it stays near them). */
static char *stretch_text(const struct compare *c, const struct allocation *a)
{
	double t = c->noise.t_s;

	if (!(t > 0) || (a->t_s <= t * 1.2 && a->t_s >= t / 1.2))
		return xstrdup("");
	return xasprintf(" Cells of %.0f s are %s than the %.0f s these results measured: the "
			 "advice assumes that the noise inside a run %s as 1 / length, which these "
			 "cells could not show%s.", a->t_s, a->t_s > t ? "longer" : "shorter", t,
			 a->t_s > t ? "keeps averaging out" : "grows", a->t_s >= t * ADVICE_MAX_STRETCH ?
			 " (the advice goes no further than that)" : "");
}

/* The advice for one precision target; none when every claim already meets it. */
static void advice_item(struct doc *d, const struct compare *c, double target, bool theirs)
{
	struct precision_check pc;
	struct allocation a;
	char tgt[64], min[32], *stretch;

	snprintf(tgt, sizeof(tgt), theirs ? "your precision, %g %%" : "a %g %% target; [lab] "
		 "precision sets yours", target);
	if (!compare_precision(c, &pc) && pc.worst_pct <= target) {
		doc_item(d, "Advice (%s): none needed, the target is met: every claim's MDE is "
			 "already at most %g %% (the widest %.1f %%, %s).", tgt, target, pc.worst_pct,
			 pc.metric);
		return;
	}
	if (compare_advice(c, target, 100, &a))
		return;
	snprintf(min, sizeof(min), a.minutes < 9.95 ? "%.1f" : "%.0f", a.minutes);
	stretch = stretch_text(c, &a);
	if (a.mde_pct > target)
		doc_item(d, "Advice (%s): even 100 rounds of %.0f-second cells would only reach an "
			 "MDE of %.1f %% for the claims (about %s minutes): this machine is too noisy "
			 "for that; quieten it, or accept a wider precision.%s", tgt, a.t_s, a.mde_pct,
			 min, stretch);
	else
		doc_item(d, "Advice (%s): on this machine, %u rounds of %.0f-second cells would reach "
			 "an MDE of %.1f %% for the claims in about %s minutes (Kalibera and Jones's "
			 "allocation from the components above, planning with the upper bound of the "
			 "spread between runs, and this lab's own timing: %.0f s per cell beyond the "
			 "measured seconds, for prep, initialisation, warm-up, checksum pass and "
			 "teardown%s).%s", tgt, a.rounds, a.t_s, a.mde_pct, min, c->noise.fixed_s,
			 isfinite(c->noise.within) ? "" : "; the runs were too short to measure the "
			 "noise inside one, so all of it is counted between runs", stretch);
	free(stretch);
}

/* The advice on the decisions: none when every claim is decided, else the further rounds
 * the undecided ones need at this noise, in this lab's time. */
static void decision_advice(struct doc *d, const struct compare *c)
{
	struct decided_check dc;
	const struct cmp_group *g;
	double round_s = NAN;
	unsigned int cells = 0;
	char t[64] = "";

	if (c->margin_pct <= 0 || compare_decided(c, &dc, false))
		return;
	if (dc.decided == dc.claims) {
		doc_item(d, "Advice (decisions): none needed, every claim is decided (%zu different, "
			 "%zu equivalent, %zu negligible).", dc.different, dc.equivalent,
			 dc.negligible);
		return;
	}
	g = &c->groups[dc.group];
	for (size_t k = 0; k < c->ngroups; k++)
		cells += !c->groups[k].aborted;
	if (isfinite(c->noise.fixed_s) && c->noise.t_s > 0)
		round_s = cells * (c->noise.t_s + c->noise.fixed_s);
	if (isfinite(dc.more) && isfinite(round_s))
		snprintf(t, sizeof(t), ", about %.0f minutes of rounds like these",
			 dc.more * round_s / 60);
	if (isfinite(dc.more))
		doc_item(d, "Advice (decisions): %zu of %zu claims are undecided; the furthest, %s vs "
			 "%s in %s, would need about %.0f more rounds%s if its estimate and the noise "
			 "stayed as they are.", dc.claims - dc.decided, dc.claims, g->label,
			 c->groups[g->base].label, dc.metric, dc.more, t);
	else
		doc_item(d, "Advice (decisions): %zu of %zu claims are undecided; the furthest, %s vs "
			 "%s in %s, would not be decided within %d more rounds at this noise (a "
			 "quieter machine, or an estimate further from the margin, decides sooner).",
			 dc.claims - dc.decided, dc.claims, g->label, c->groups[g->base].label,
			 dc.metric, COMPARE_MAX_MORE);
}

/* Each label's spread around the model, and whether the widest is too wide to pool. */
static void spread_item(struct doc *d, const struct compare *c)
{
	struct strbuf list = STRBUF_INIT;
	int lo = -1, hi = -1;

	for (size_t g = 0; g < c->ngroups; g++) {
		char v[16];

		if (!isfinite(c->spread[g]))
			continue;
		snprintf(v, sizeof(v), c->spread[g] >= 9.95 ? "%.0f" : "%.1f", c->spread[g]);
		strbuf_add_sep(&list, ", ");
		strbuf_addf(&list, "%s %s %%", c->groups[g].label, v);
		if (lo < 0 || c->spread[g] < c->spread[lo])
			lo = (int)g;
		if (hi < 0 || c->spread[g] > c->spread[hi])
			hi = (int)g;
	}
	if (list.len && lo >= 0 && c->spread[lo] > 0 && c->spread[hi] > 3 * c->spread[lo]) {
		size_t n = MIN(c->groups[lo].nruns, c->groups[hi].nruns);

		/* a variance ratio of 9 is rare for a dozen cells a label, not for three */
		doc_item(d, "Spread by label (transactional IOPS, each label's cells around the "
			 "model): %s. The model pools these, which assumes they are alike; the "
			 "widest is more than three times the narrowest (%s), so its cells widen "
			 "every claim's interval: a label that noisy compares better in a lab of its "
			 "own.", list.buf, n >= 12 ? "chance alone rarely does that" : "with so few "
			 "cells a label, chance alone may still do that");
	} else if (list.len) {
		doc_item(d, "Spread by label (transactional IOPS, each label's cells around the "
			 "model): %s.", list.buf);
	}
	strbuf_release(&list);
}

/* One item per extreme cell, with every metric in which it is extreme. */
static void outlier_items(struct doc *d, const struct compare *c)
{
	if (!c->noutliers)
		doc_item(d, "Extreme cells: none (every |standardised residual| <= 3 in the headline "
			 "metrics).");
	for (size_t i = 0; i < c->noutliers; i++) {
		const struct fslab_result *r = &c->results[c->outliers[i].ri];
		struct strbuf what = STRBUF_INIT;
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = c->outliers[k].ri == c->outliers[i].ri;
		if (seen)
			continue;
		for (size_t k = i; k < c->noutliers; k++) {
			if (c->outliers[k].ri != c->outliers[i].ri)
				continue;
			strbuf_add_sep(&what, ", ");
			strbuf_addf(&what, "%s %+.2f", c->outliers[k].metric, c->outliers[k].z);
		}
		doc_item(d, "Extreme cell (kept in the analysis): %s, round %u (%s): standardised "
			 "residual %s", r->label, r->lab.round, c->files[c->outliers[i].ri], what.buf);
		strbuf_release(&what);
	}
}

/* Where the noise is: one cell's, inside a run, between runs (its point estimate and the
 * upper bound the advice plans with). */
static void where_item(struct doc *d, const struct compare *c)
{
	const struct noise *nz = &c->noise;
	const struct cmp_row *iops = compare_row(c, "trans_iops");
	char cell[16], w[16], b[16], u[16], *est;

	if (!isfinite(nz->within)) {
		doc_item(d, "Where the noise is (transactional IOPS): one cell varies by %s %% around "
			 "its label and round (the blocked residual); the runs have no timeline to "
			 "split it into the noise inside a run and between runs.",
			 cv_text(cell, sizeof(cell), nz->cell));
		return;
	}
	cv_text(b, sizeof(b), nz->between);
	cv_text(u, sizeof(u), nz->between_ucb);
	if (nz->between > 0)
		est = xasprintf("%s %% comes from one run to the next (a fresh format and database, "
				"another moment of the shared machine; up to %s %% at the %.0f %% upper "
				"confidence bound from %.0f degrees of freedom, which the advice plans "
				"with)", b, u, NOISE_UCB_CONF * 100, nz->df);
	else
		est = xasprintf("nothing measurable comes from one run to the next (the residual is "
				"below the noise inside a run, so the estimate is 0), but from %.0f "
				"degrees of freedom it may be up to %s %% (the %.0f %% upper confidence "
				"bound, which the advice plans with)", nz->df, u, NOISE_UCB_CONF * 100);
	doc_item(d, "Where the noise is (transactional IOPS, as coefficients of variation): one "
		 "cell varies by %s %% around its label and round (the blocked residual, %.0f "
		 "degrees of freedom). Of that, %s %% is the noise inside a run (its per-second "
		 "wobble over %.0f s, from batch means of its timeline) and %s%s",
		 cv_text(cell, sizeof(cell), nz->cell), iops->df, cv_text(w, sizeof(w), nz->within),
		 nz->t_s, est, nz->between_ucb > nz->within ? ": so more, shorter cells buy "
		 "precision faster than fewer, longer ones." : ": so longer cells may pay, within "
		 "what the advice says about lengths not measured.");
	free(est);
}

void report_noise(struct doc *d, const struct compare *c, const struct report_opts *o)
{
	const struct noise *nz = &c->noise;
	struct allocation a;
	char dr[16];

	if (o && o->stop_note)
		doc_item(d, "Adaptive lab: %s.", o->stop_note);
	if (!c->have_noise)
		return;
	where_item(d, c);
	if (c->spread)
		spread_item(d, c);
	if (isfinite(nz->drift) && sqrt(nz->drift) >= 0.0005)
		doc_item(d, "Drift between rounds: the rounds themselves moved by %s %% (the whole "
			 "machine faster or slower from one round to the next); blocking takes it out "
			 "of every comparison.", cv_text(dr, sizeof(dr), nz->drift));
	else if (isfinite(nz->drift))
		doc_item(d, "Drift between rounds: none measurable (the rounds' means differ no more "
			 "than their cells' spread explains): blocking had nothing to take out and "
			 "cost %zu degrees of freedom.", c->nrounds > 1 ? (size_t)c->nrounds - 1 : 0);
	outlier_items(d, c);
	decision_advice(d, c);
	if (o && o->precision_pct > 0)
		advice_item(d, c, o->precision_pct, true);
	else if (c->margin_pct <= 0)
		advice_item(d, c, 10, false);
	if (compare_advice(c, 0, 2, &a))
		doc_item(d, "Advice: none (the cells' timing is not known from the results: it "
			 "needs the start times of consecutive cells).");
}
