// SPDX-License-Identifier: MIT
/*
 * answer.c: what a reader of the report wants first: one line per label against
 * its base with the word the statistics allow, the key table, the verdicts once per label,
 * the volumes as their devices saw them (the notes of many runs said once per label:
 * notes.c); and the per-run detail folded below.  Reads the model only.
 */
#include "compare/reportP.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/strbuf.h"

/* Append ", " before the next item of a list (nothing before the first). */
static void list_sep(struct strbuf *sb)
{
	if (sb->len)
		strbuf_addstr(sb, ", ");
}

/* ---- the answer ---- */

/* The margin of a delta in words: "±5 %". */
static const char *margin_words(char *buf, size_t len, const struct cmp_delta *d)
{
	snprintf(buf, len, "±%g %%", d->margin_pct);
	return buf;
}

/* "Other claims: database read latency 10 % lower (better); log write latency undecided;
 * ..." for the other headline claims, each with its outcome. */
static char *other_claims(const struct compare *c, size_t g, const struct cmp_row *lead)
{
	struct strbuf sb = STRBUF_INIT;
	char pc[16], mg[32];

	for (size_t k = 0; k < COMPARE_NHEADLINE; k++) {
		const struct cmp_row *row = compare_row(c, compare_headline[k]);
		const struct cmp_delta *d = row ? &row->deltas[g] : NULL;

		if (!d || row == lead || row->m->hidden || !d->present || d->outcome == OUT_NONE)
			continue;
		if (sb.len)
			strbuf_addstr(&sb, "; ");
		switch (d->outcome) {
		case OUT_DIFFERENT:
			strbuf_addf(&sb, "%s %s %% %s (%s)", row->m->what,
				    report_pct_size(pc, sizeof(pc), d->pct),
				    d->abs > 0 ? "higher" : "lower", d->better > 0 ? "better" :
				    d->better < 0 ? "worse" : "a difference");
			break;
		case OUT_NEGLIGIBLE:
			strbuf_addf(&sb, "%s negligible (%s %% %s, inside %s)", row->m->what,
				    report_pct_size(pc, sizeof(pc), d->pct),
				    d->abs > 0 ? "higher" : "lower", margin_words(mg, sizeof(mg), d));
			break;
		case OUT_EQUIVALENT:
			strbuf_addf(&sb, "%s equivalent within %s", row->m->what,
				    margin_words(mg, sizeof(mg), d));
			break;
		default:
			strbuf_addf(&sb, "%s %s", row->m->what, d->floor_only ?
				    "not significantly different" : "undecided");
			break;
		}
	}
	return sb.len ? strbuf_detach(&sb, NULL) : NULL;
}

/* The answer line of a difference that decides nothing: within one run, or not tested.
 * Returns its lead (heap). */
static char *untested_line(struct doc *d, const char *label, const char *base,
			   const struct cmp_delta *dl, const char *what, const char *iv)
{
	const char *more = dl->abs > 0 ? "more" : "fewer";
	char pc[16], *lead;

	if (dl->sig == SIG_WITHIN) {
		lead = xasprintf("%s vs %s: %s %% %s %s within one run", label, base,
				 report_pct_size(pc, sizeof(pc), dl->pct), more, what);
		doc_item_lead(d, lead, ", %s (the noise inside one run): no claim; a claim needs at "
			      "least 2 independent runs per label, 3 or more recommended.", iv);
		return lead;
	}
	lead = xasprintf("%s vs %s: %s %% %s %s, not tested", label, base,
			 report_pct_size(pc, sizeof(pc), dl->pct), more, what);
	doc_item_lead(d, lead, " (%s).", dl->na_why ? dl->na_why : "no test");
	return lead;
}

/* One label against its base, on the lead metric: the answer line, one of four outcomes. */
static void answer_line(struct doc *d, const struct compare *c, size_t g,
			const struct cmp_row *row)
{
	const struct cmp_group *grp = &c->groups[g];
	const struct cmp_delta *dl = &row->deltas[g];
	const char *base = c->groups[grp->base].label, *what = row->m->what;
	const char *more = dl->abs > 0 ? "more" : "fewer";
	char *lead, *iv, *runs, *others, *oth, pc[16], p[96], q[64], mg[32], mde[64] = "";
	char nx[192], lo[16], hi[16];

	if (!dl->present) {
		lead = xasprintf("%s vs %s: no %s to compare", grp->label, base, what);
		doc_item_lead(d, lead, ".");
		free(lead);
		return;
	}
	iv = report_interval_text(dl);
	runs = report_runs_text(c, g, (size_t)dl->base);
	others = other_claims(c, g, row);
	oth = others ? xasprintf(" Other claims: %s.", others) : xstrdup("");
	if (isfinite(dl->mde_pct))
		snprintf(mde, sizeof(mde), "; differences below %s %% cannot be seen",
			 report_pct_size(pc, sizeof(pc), dl->mde_pct));
	margin_words(mg, sizeof(mg), dl);
	switch (dl->sig == SIG_YES || dl->sig == SIG_NO ? dl->outcome : OUT_NONE) {
	case OUT_DIFFERENT:
		lead = xasprintf("%s vs %s: %s %% %s %s", grp->label, base,
				 report_pct_size(pc, sizeof(pc), dl->pct), more, what);
		doc_item_lead(d, lead, ", %s: different (significant, %s, %s; %s).%s", iv,
			      report_test_name(dl), report_p_words(p, sizeof(p), dl), runs, oth);
		break;
	case OUT_NEGLIGIBLE:
		lead = xasprintf("%s vs %s: a negligible difference in %s", grp->label, base, what);
		doc_item_lead(d, lead, ", %s: significant (%s, %s), but inside %s (%s): a real "
			      "difference, smaller than the margin%s (%s).%s", iv,
			      report_test_name(dl), report_p_words(p, sizeof(p), dl), mg,
			      report_p_eq_words(q, sizeof(q), dl), dl->floor_only ? " of practical "
			      "interest" : " set for this comparison", runs, oth);
		break;
	case OUT_EQUIVALENT:
		lead = xasprintf("%s vs %s: equivalent within %s", grp->label, base, mg);
		doc_item_lead(d, lead, " in %s, %s: both one-sided tests reject, its 90 %% interval "
			      "[%s %%, %s %%] lies inside %s (%s; %s).%s", what, iv,
			      report_signed_pct(lo, sizeof(lo), dl->eq_lo_pct),
			      report_signed_pct(hi, sizeof(hi), dl->eq_hi_pct), mg,
			      report_p_eq_words(q, sizeof(q), dl), runs, oth);
		break;
	case OUT_UNDECIDED:
		/* an interval that excludes 0 but a claim that fails Holm's correction: say why,
		 * or the reader sees a contradiction */
		if (dl->corrected && dl->p < STATS_ALPHA) {
			char own[32];
			char *why = xasprintf("%s; on its own %s, but not after Holm's correction over "
					      "the %zu claims (%s)", runs,
					      report_p_text(own, sizeof(own), dl->p), c->nclaims,
					      report_p_words(p, sizeof(p), dl));

			free(runs);
			runs = why;
		}
		if (dl->floor_only) {
			lead = xasprintf("%s vs %s: no significant difference", grp->label, base);
			doc_item_lead(d, lead, " in %s, %s (%s%s).%s", what, iv, runs, mde, oth);
			break;
		}
		lead = xasprintf("%s vs %s: undecided", grp->label, base);
		doc_item_lead(d, lead, " in %s, %s: no significant difference (%s, %s), nor "
			      "equivalent within %s (%s; %s%s)%s.%s", what, iv, report_test_name(dl),
			      report_p_words(p, sizeof(p), dl), mg,
			      report_p_eq_words(q, sizeof(q), dl), runs, mde,
			      report_more_text(nx, sizeof(nx), dl), oth);
		break;
	default:
		lead = untested_line(d, grp->label, base, dl, what, iv);
		break;
	}
	free(lead);
	free(iv);
	free(runs);
	free(others);
	free(oth);
}

/* The A/A copy's headline differences that fired: "log write latency +5.4 % [+1.2 %,
 * +9.8 %] (Holm-adjusted p = 0.028)", heap, or NULL. */
static char *aa_fired(const struct compare *c, size_t g)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < COMPARE_NHEADLINE; k++) {
		const struct cmp_row *row = compare_row(c, compare_headline[k]);
		const struct cmp_delta *d = row ? &row->deltas[g] : NULL;
		char p[96], *iv;

		if (!d || !d->present || d->sig != SIG_YES)
			continue;
		iv = report_interval_text(d);
		strbuf_add_sep(&sb, ", ");
		strbuf_addf(&sb, "%s %s (%s)", row->m->what, iv, report_p_words(p, sizeof(p), d));
		free(iv);
	}
	return strbuf_detach_or_null(&sb);
}

/* The A/A check on the lead metric: the noise floor, or the alarm naming what fired. */
static void aa_line(struct doc *d, const struct compare *c, size_t g, const struct cmp_row *row)
{
	const struct cmp_group *grp = &c->groups[g];
	const struct cmp_delta *dl = &row->deltas[g];
	const char *base = c->groups[grp->aa_of].label;
	char *iv, *lead, mg[32];

	if ((int)g == c->aa_alarm) {
		char *fired = aa_fired(c, g);

		lead = xasprintf("WARNING: the A/A check failed: %s and %s are the same setup, yet "
				 "they differ significantly", grp->label, base);
		doc_item_lead(d, lead, " in %s. A lab with nothing to find raises this alarm by "
			      "chance in about %s of labs (measured by relabelling real cells of one "
			      "filesystem, docs/COMPARE.md): run the lab again. If it fires again, "
			      "this machine's noise is larger than these repeats absorb and the "
			      "answers above are not trustworthy: quieten the machine or run more "
			      "rounds.", fired ? fired : "a headline metric", COMPARE_AA_CHANCE);
		free(lead);
		free(fired);
		return;
	}
	if (!dl->present)
		return;
	iv = report_interval_text(dl);
	if (dl->outcome == OUT_EQUIVALENT) {
		lead = xasprintf("%s vs %s, the A/A check: equivalent within %s", grp->label, base,
				 margin_words(mg, sizeof(mg), dl));
		doc_item_lead(d, lead, ", %s in %s, as it should be: the same setup run again in "
			      "every round, the lab's noise floor.", iv, row->m->what);
	} else if (dl->sig == SIG_NO || dl->sig == SIG_YES) {
		lead = xasprintf("%s vs %s, the A/A check: no significant difference", grp->label,
				 base);
		doc_item_lead(d, lead, ", %s in %s, as it should be: the same setup run again in "
			      "every round, the lab's noise floor.", iv, row->m->what);
	} else {
		lead = xasprintf("%s vs %s, the A/A check", grp->label, base);
		doc_item_lead(d, lead, ": %s in %s (%s), the same setup run again: the noise "
			      "between two copies.", iv, row->m->what, dl->sig == SIG_WITHIN ?
			      "within one run, not tested" : dl->na_why ? dl->na_why : "not tested");
	}
	free(lead);
	free(iv);
}

void report_answer(struct doc *d, const struct compare *c, const struct report_opts *o)
{
	const struct cmp_row *row = report_lead_row(c);

	if (c->aa_alarm >= 0)
		aa_line(d, c, (size_t)c->aa_alarm, row);
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];

		if (grp->base < 0 || grp->aa_of >= 0)
			continue;
		if (grp->aborted) {
			doc_item_lead(d, grp->label, ": an aborted run, shown for reference only, not "
				      "compared.");
			continue;
		}
		/* the same filesystem at another thread count: its scaling line says it */
		if (!strcmp(grp->fs, c->groups[grp->base].fs) &&
		    grp->threads != c->groups[grp->base].threads)
			continue;
		answer_line(d, c, g, row);
	}
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].aa_of >= 0 && (int)g != c->aa_alarm && !c->groups[g].aborted)
			aa_line(d, c, g, row);
	for (size_t s = 0; s < c->nsweeps; s++) {
		const struct cmp_sweep *sw = &c->sweeps[s];
		size_t a = sw->groups[0], b = sw->groups[sw->n - 1];
		char *lead = xasprintf("%s, %u to %u threads", sw->fs, c->groups[a].threads,
				       c->groups[b].threads);

		doc_item_lead(d, lead, ": %.0f to %.0f transactional IOPS, %.0f %% of linear "
			      "scaling.", compare_mean(c, "trans_iops", a),
			      compare_mean(c, "trans_iops", b), sw->eff[sw->n - 1]);
		free(lead);
	}
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].cache_served)
			doc_item_lead(d, "Warning", ": on %s a cache served the database reads (the "
				      "device read %.0f %% of what the workload read): its numbers measure "
				      "the cache, not the device.", c->groups[g].label,
				      c->groups[g].read_ratio * 100);
	report_qualification_line(d, c);
	if (o && o->stop_note)
		doc_item_lead(d, "Why the lab stopped", ": %s.", o->stop_note);
}

/* ---- the key table ---- */

/* A column of the key table: the row, its short title (its line broken where the page is
 * narrow: the table stays no wider than its numbers). */
struct key_col {
	const char *id, *title;
};

static const struct key_col key_cols[] = {
	{ NULL, NULL }, /* the lead metric (transactional IOPS, or a backup's MB/s) */
	{ "db_read_lat_avg", "DB read avg\n(ms)" },
	{ "log_write_lat_avg", "Log write avg\n(ms)" },
	{ "total_mbps", "Throughput\n(MB/s)" },
	{ "cpu", "CPU\n(%)" },
	{ "mem", "Memory used\n(GiB)" },
	{ "verdict", "Verdict" },
	{ "shape", "Load shape\n(Jetstress)" },
};

/* The verdict of a group in a word or three: "PASS", "FAIL", "FAIL in 1 of 3", "-". */
static char *verdict_short(const struct compare *c, const struct cmp_group *g)
{
	size_t judged = 0, failed = 0;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct verdict *v = &c->results[g->runs[i]].verdict;

		judged += v->present;
		failed += v->present && !v->pass;
	}
	if (!judged)
		return xstrdup("-");
	if (!failed)
		return xstrdup(judged == g->nruns ? "PASS" : "PASS (judged runs)");
	if (failed == g->nruns)
		return xstrdup("FAIL");
	return xasprintf("FAIL in %zu of %zu", failed, g->nruns);
}

bool report_has_verdicts(const struct compare *c)
{
	for (size_t i = 0; i < c->nresults; i++)
		if (c->results[i].verdict.present)
			return true;
	return false;
}

/* Is some label's load out of Jetstress's bands?  Only then has the key table room for the
 * shape column (the full table always shows it). */
static bool shape_off_band(const struct compare *c)
{
	bool off = false;

	for (size_t g = 0; g < c->ngroups && !off; g++) {
		char *t = compare_shape_text(c, &c->groups[g]);

		off = strcmp(t, "in band") && strcmp(t, "-");
		free(t);
	}
	return off;
}

/* The row of each key column into rows[] (NULL: the column is left out); how many there are. */
static size_t key_rows(const struct compare *c, const struct cmp_row **rows)
{
	const struct cmp_row *lead = report_lead_row(c);
	bool verdicts = report_has_verdicts(c);
	size_t n = 0;

	for (size_t k = 0; k < ARRAY_SIZE(key_cols); k++) {
		const struct cmp_row *row = k ? compare_row(c, key_cols[k].id) : lead;

		if (row && row->m->hidden)
			row = NULL;
		if (row && row->m->kind == MK_VERDICT && !verdicts)
			row = NULL;
		if (row && row->m->kind == MK_SHAPE && !shape_off_band(c))
			row = NULL;
		/* a workload judged by throughput leads with it: the total would repeat it */
		if (row && row->m->kind == MK_TOTAL_MBPS && lead->m->kind != MK_TRANS_IOPS)
			row = NULL;
		rows[k] = row;
		n += row != NULL;
	}
	return n;
}

/* What the key table's cells mean: aa, an A/A copy is among the labels; claims, a difference
 * was a claim; marked, one held. */
static void key_legend(struct doc *d, const struct compare *c, bool aa, bool claims, bool marked)
{
	char *outcomes = NULL;

	if (claims && c->margin_pct > 0)
		outcomes = xasprintf("Each claim (Holm-corrected over the claims) ends in one of four "
				     "outcomes against the equivalence margin ±%g %%%s: different "
				     "(significant and not inside the margin%s), equivalent (its 90 %% "
				     "interval inside ±%g %%), negligible (significant, but inside the "
				     "margin: never marked) or undecided (neither yet).", c->margin_pct,
				     c->margin_default ? " (the default; --equivalence or [lab] "
				     "equivalence sets another)" : "", marked ? "; ▲ better, ▼ worse "
				     "and bold" : "", c->margin_pct);
	else if (claims)
		outcomes = xstrdup(marked ? "▲ better, ▼ worse and bold: a significant difference, "
				   "Holm-corrected over the claims, of at least 1 %; a smaller "
				   "significant one is negligible." : "No difference is "
				   "significant (Holm-corrected over the claims): every difference "
				   "here is within the noise these runs can resolve.");
	if (c->method == CMP_REPEATS)
		doc_para(d, "Mean of the runs ± the half width of its 95 %% confidence interval; in "
			 "brackets the difference from the label it is compared with (%s%s)%s. %s CPU "
			 "and memory are the whole host's (busy %% of all CPUs; memory in use), tested "
			 "one by one in the full table, not claims.", c->groups[c->baseline].label,
			 aa ? "; the A/A copy with its original" : "", c->blocked ? ", compared "
			 "within each round (the blocked model: where rounds lack a cell or drifted, "
			 "it differs from the ratio of the means)" : "", outcomes ? outcomes : "");
	else
		doc_para(d, "The run's value ± the half width of a 95 %% interval over its seconds "
			 "(the noise inside one run, not between runs); in brackets the difference "
			 "from %s. With one run per label nothing is tested or marked: a claim needs "
			 "at least 2 independent runs per label. CPU and memory are the whole host's.",
			 c->groups[c->baseline].label);
	free(outcomes);
}

void report_key_table(struct doc *d, const struct compare *c)
{
	const struct cmp_row *rows[ARRAY_SIZE(key_cols)];
	size_t col;
	struct doc_table *t;
	bool marked = false, claims = false, aa = false;

	t = doc_table_new(1 + key_rows(c, rows), true);
	doc_table_set(t, 0, 0, "Label");
	col = 1;
	for (size_t k = 0; k < ARRAY_SIZE(key_cols); k++) {
		if (!rows[k])
			continue;
		if (k)
			doc_table_set(t, 0, col++, "%s", key_cols[k].title);
		else
			doc_table_set(t, 0, col++, "%s", rows[k]->m->kind != MK_TRANS_IOPS ?
				      rows[k]->m->name : strcmp(rows[k]->m->id, "capacity") ?
				      "Transactional\nIOPS" : "Capacity\n(IOPS)");
	}
	for (size_t g = 0; g < c->ngroups; g++) {
		size_t r = doc_table_row(t);

		doc_table_set(t, r, 0, "%s", c->groups[g].label);
		aa |= c->groups[g].aa_of >= 0;
		col = 1;
		for (size_t k = 0; k < ARRAY_SIZE(key_cols); k++) {
			const struct cmp_row *row = rows[k];
			const struct cmp_delta *dl;
			char *cell, pc[16];

			if (!row)
				continue;
			if (row->m->kind == MK_VERDICT || row->m->kind == MK_SHAPE) {
				cell = row->m->kind == MK_VERDICT ? verdict_short(c, &c->groups[g])
								  : compare_shape_text(c, &c->groups[g]);
				doc_table_set(t, r, col++, "%s", cell);
				free(cell);
				continue;
			}
			cell = report_cell_text(row, g);
			dl = &row->deltas[g];
			if (!dl->present || !isfinite(dl->pct)) {
				doc_table_set(t, r, col++, "%s", cell);
			} else if (compare_delta_marked(dl) && dl->corrected) {
				/* a claim that held (Holm over the claims) and is larger than the
				 * margin: marked, the direction said */
				doc_table_set(t, r, col, "%s %s\n(%c%s %%, different)",
					      dl->better >= 0 ? "▲" : "▼", cell, dl->pct < 0 ? '-' : '+',
					      report_pct_size(pc, sizeof(pc), dl->pct));
				doc_table_strong(t, r, col++);
				marked = true;
			} else if (dl->corrected && dl->outcome != OUT_NONE) {
				/* a claim: its outcome said, never marked */
				doc_table_set(t, r, col++, "%s\n(%c%s %%, %s)", cell,
					      dl->pct < 0 ? '-' : '+',
					      report_pct_size(pc, sizeof(pc), dl->pct), dl->floor_only &&
					      dl->outcome == OUT_UNDECIDED ? "not significant" :
					      compare_outcome_name(dl->outcome));
			} else {
				doc_table_set(t, r, col++, "%s\n(%c%s %%)", cell, dl->pct < 0 ? '-' : '+',
					      report_pct_size(pc, sizeof(pc), dl->pct));
			}
			claims |= dl->present && dl->corrected;
			free(cell);
		}
	}
	doc_table(d, t);
	doc_table_free(t);
	key_legend(d, c, aa, claims, marked);
}

/* ---- verdicts, one line per label ---- */

/* A verdict check in words, for people ("database page-fault stalls"). */
static const char *check_words(const char *name)
{
	static const struct {
		const char *name, *words;
	} w[] = {
		{ "db_read_avg_latency", "database read average latency" },
		{ "db_read_max_latency", "database read maximum latency (highest sample average)" },
		{ "log_write_avg_latency", "log write average latency" },
		{ "log_write_max_latency", "log write maximum latency (highest sample average)" },
		{ "db_page_fault_stalls", "database page-fault stalls" },
		{ "io_errors", "I/O errors" },
		{ "checksum_errors", "checksum errors" },
		{ "load_failures", "load failures" },
		{ "target_iops", "achieved transactional IOPS against the target" },
		{ "db_read_io_tail", "database reads above the maximum (single I/Os)" },
		{ "log_write_io_tail", "log writes above the maximum (single I/Os)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(w); i++)
		if (!strcmp(w[i].name, name))
			return w[i].words;
	return name;
}

/* "2.4" or "2.1-3.4": a range of values, as few digits as they need. */
static char *range_text(double lo, double hi)
{
	int prec = fmax(fabs(lo), fabs(hi)) >= 100 ? 0 : fmax(fabs(lo), fabs(hi)) >= 10 ? 1 : 2;

	if (lo == hi || !(hi - lo >= pow(10, -prec) / 2))
		return xasprintf("%.*f", prec, lo);
	return xasprintf("%.*f-%.*f", prec, lo, prec, hi);
}

/* One failing check of a group, over its runs. */
struct failed_check {
	const struct verdict_check *first;
	double lo, hi;
	size_t runs;   /* runs in which it failed (any scope) */
	struct strbuf scopes; /* the scopes that failed, other than "overall" */
	size_t last_run;
};

static void verdict_line(struct doc *d, const struct compare *c, const struct cmp_group *g)
{
	struct failed_check *fc = NULL;
	size_t nfc = 0, judged = 0, failed = 0;
	struct strbuf fails = STRBUF_INIT;
	bool several = false;
	char *lead;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct verdict *v = &c->results[g->runs[i]].verdict;

		several |= c->results[g->runs[i]].ninstances > 1;
		if (!v->present)
			continue;
		judged++;
		failed += !v->pass;
		for (size_t k = 0; k < v->nchecks; k++) {
			const struct verdict_check *ck = &v->checks[k];
			size_t j;

			if (ck->pass)
				continue;
			for (j = 0; j < nfc && strcmp(fc[j].first->name, ck->name); j++)
				;
			if (j == nfc) {
				fc = xrealloc(fc, (nfc + 1) * sizeof(*fc));
				fc[nfc++] = (struct failed_check){ .first = ck, .lo = ck->value,
								   .hi = ck->value, .last_run = SIZE_MAX,
								   .scopes = STRBUF_INIT };
			}
			fc[j].lo = fmin(fc[j].lo, ck->value);
			fc[j].hi = fmax(fc[j].hi, ck->value);
			if (fc[j].last_run != i) {
				fc[j].runs++;
				fc[j].last_run = i;
			}
			if (ck->scope && strcmp(ck->scope, "overall") &&
			    !strstr(fc[j].scopes.buf, ck->scope)) {
				list_sep(&fc[j].scopes);
				strbuf_addstr(&fc[j].scopes, ck->scope);
			}
		}
	}
	for (size_t j = 0; j < nfc; j++) {
		const struct verdict_check *ck = fc[j].first;
		char *v = range_text(fc[j].lo, fc[j].hi);

		if (fails.len)
			strbuf_addstr(&fails, "; ");
		/* the databases named only when there are several (one is "overall" itself) */
		strbuf_addf(&fails, "%s %s %s, limit %g %s (%s%s%s) in %zu of %zu runs",
			    check_words(ck->name), v, ck->unit ? ck->unit : "", ck->limit,
			    ck->unit ? ck->unit : "", ck->rule ? ck->rule : "value <= limit",
			    several && fc[j].scopes.len ? "; " : "", several ? fc[j].scopes.buf : "",
			    fc[j].runs,
			    judged);
		free(v);
		strbuf_release(&fc[j].scopes);
	}
	free(fc);
	if (!judged) {
		doc_item_lead(d, g->label, ": no verdict%s.", g->aborted ? " (aborted)" :
			      " (its workload is not judged)");
	} else if (!failed) {
		lead = xasprintf("%s: PASS", g->label);
		doc_item_lead(d, lead, " in %zu of %zu runs%s.", judged, g->nruns,
			      judged < g->nruns ? " (the others have no verdict)" : "");
		free(lead);
	} else {
		lead = xasprintf("%s: FAIL in %zu of %zu runs", g->label, failed, judged);
		/* each failing check once: which, how far past its limit, in how many runs */
		doc_item_lead(d, lead, ": %s.", fails.len ? fails.buf : "no failing check recorded");
		free(lead);
	}
	strbuf_release(&fails);
}

void report_verdict_lines(struct doc *d, const struct compare *c)
{
	for (size_t g = 0; g < c->ngroups; g++)
		verdict_line(d, c, &c->groups[g]);
}

/* ---- the volumes as their devices saw them ---- */

static const char *const volume_rows[] = {
	"db_dev_iops", "db_dev_mbps", "db_dev_util", "log_dev_iops", "log_dev_mbps", "log_dev_util",
	"cpu", "mem",
};

bool report_has_volumes(const struct compare *c)
{
	for (size_t i = 0; i < c->nresults; i++)
		if (c->results[i].ndevices)
			return true;
	return false;
}

/* Does any result have one device under both the database and the log directories? */
static bool shared_device(const struct compare *c)
{
	for (size_t i = 0; i < c->nresults; i++)
		for (size_t k = 0; k < c->results[i].ndevices; k++)
			if (c->results[i].devices[k].role &&
			    !strcmp(c->results[i].devices[k].role, "db+log"))
				return true;
	return false;
}

void report_volumes(struct doc *d, const struct compare *c)
{
	struct doc_table *t = doc_table_new(1 + c->ngroups, true);
	struct strbuf share = STRBUF_INIT;

	doc_table_set(t, 0, 0, "Volume, host");
	for (size_t g = 0; g < c->ngroups; g++)
		doc_table_set(t, 0, 1 + g, "%s", c->groups[g].label);
	for (size_t k = 0; k < ARRAY_SIZE(volume_rows); k++) {
		const struct cmp_row *row = compare_row(c, volume_rows[k]);
		size_t r;
		bool any = false;

		for (size_t g = 0; row && g < c->ngroups; g++)
			any |= row->cells[g].kind != CELL_NONE;
		if (!any)
			continue;
		r = doc_table_row(t);
		doc_table_set(t, r, 0, "%s", row->m->name);
		for (size_t g = 0; g < c->ngroups; g++) {
			char *cell = report_cell_text(row, g);

			doc_table_set(t, r, 1 + g, "%s", cell);
			free(cell);
		}
	}
	/* how the I/O split between the volumes (the seed article's point) */
	for (size_t g = 0; g < c->ngroups; g++) {
		double db = compare_mean(c, "db_dev_iops", g), log = compare_mean(c, "log_dev_iops", g);

		if (isfinite(db) && isfinite(log) && db + log > 0) {
			list_sep(&share);
			strbuf_addf(&share, "%s %.0f %%", c->groups[g].label, db / (db + log) * 100);
		}
	}
	doc_para(d, "What the devices under the database and the log directories counted over the "
		 "measured seconds (/sys/block, reads and writes together, including what the "
		 "filesystem added: journal, metadata, copy-on-write); busy is the share of the "
		 "time the device had I/O in flight. %s%s%s%s%s", c->method == CMP_REPEATS ?
		 "Mean of the runs ± its 95 % interval." : "Each label's run (the counters are read "
		 "once, before and after: no interval).", share.len ? " The database volume's share of the device I/Os: " : "",
		 share.buf, share.len ? "." : "", shared_device(c) ? " Where one device "
		 "holds both directories, it is counted once, under the database." : "");
	doc_table_split(d, t, 4);
	doc_table_free(t);
	strbuf_release(&share);
}

/* ---- per-run detail, folded ---- */

static void run_verdicts(struct doc *d, const struct compare *c)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		for (size_t i = 0; i < c->groups[g].nruns; i++) {
			size_t ri = c->groups[g].runs[i];
			const struct verdict *v = &c->results[ri].verdict;
			struct strbuf fails = STRBUF_INIT;

			if (!v->present) {
				doc_item(d, "%s (%s): no verdict%s", c->groups[g].label, c->files[ri],
					 c->results[ri].aborted ? " (aborted)" : "");
				continue;
			}
			for (size_t k = 0; k < v->nchecks; k++) {
				const struct verdict_check *ck = &v->checks[k];

				if (ck->pass)
					continue;
				/* value, limit, unit and the rule that compared them (older results
				 * have no rule: the limit was a maximum) */
				if (fails.len)
					strbuf_addstr(&fails, "; ");
				strbuf_addf(&fails, "%s %g %s, limit %g %s, rule %s (%s%s%s)", ck->name,
					    ck->value, ck->unit, ck->limit, ck->unit,
					    ck->rule ? ck->rule : "value <= limit", ck->scope,
					    ck->note ? ", " : "", ck->note ? ck->note : "");
			}
			if (v->pass)
				doc_item(d, "%s (%s): PASS, %zu checks", c->groups[g].label, c->files[ri],
					 v->nchecks);
			else
				doc_item(d, "%s (%s): FAIL: %s", c->groups[g].label, c->files[ri],
					 fails.len ? fails.buf : "no failing check recorded");
			strbuf_release(&fails);
		}
	}
}

void report_run_detail(struct doc *d, const struct compare *c)
{
	char *sum;
	bool notes = false;

	for (size_t i = 0; i < c->nresults && !notes; i++) {
		json_t *n[2];

		report_result_notes(&c->results[i], n);
		notes = json_array_size(n[0]) || json_array_size(n[1]);
	}
	if (notes) {
		doc_details_begin(d, "Notes of each run");
		for (size_t g = 0; g < c->ngroups; g++) {
			for (size_t i = 0; i < c->groups[g].nruns; i++) {
				size_t ri = c->groups[g].runs[i], k;
				json_t *n[2], *v;

				report_result_notes(&c->results[ri], n);
				for (int j = 0; j < 2; j++)
					json_array_foreach(n[j], k, v)
						if (json_is_string(v))
							doc_item(d, "%s (%s): %s", c->groups[g].label,
								 c->files[ri], json_string_value(v));
			}
		}
		doc_details_end(d);
	}
	if (report_has_verdicts(c)) {
		sum = xasprintf("Verdict of each run (%zu runs: every failing check with its "
				"value, limit and rule)", c->nresults);
		doc_details_begin(d, sum);
		run_verdicts(d, c);
		doc_details_end(d);
		free(sum);
	}
	sum = xasprintf("Input files (%zu)", c->nresults);
	doc_details_begin(d, sum);
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].nruns; i++)
			doc_item(d, "%s: %s", c->groups[g].label, c->files[c->groups[g].runs[i]]);
	doc_details_end(d);
	free(sum);
}
