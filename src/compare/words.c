// SPDX-License-Identifier: MIT
/* words.c: the words and numbers of a comparison: cells, deltas, p-values and
 * minimum detectable differences as text, and the generated summary sentences. */
#include "compare/reportP.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

/* The key metrics of the generated sentences, the lead one first: the headline claims. */
#define key_metrics compare_headline
#define NKEY COMPARE_NHEADLINE

/* ---- number formatting ---- */

static char *num(double v, int prec)
{
	return isfinite(v) ? xasprintf("%.*f", prec, v) : xstrdup("-");
}

const char *report_p_text(char *buf, size_t len, double p)
{
	if (p < 0.001) {
		snprintf(buf, len, "p < 0.001");
		return buf;
	}
	/* as many digits as it takes for the number to fall on p's side of alpha, never on it
	 * unless p is alpha: 0.04999 is not "p = 0.050" beside "significant" */
	for (int prec = 3; prec <= 6; prec++) {
		double shown;

		snprintf(buf, len, "p = %.*f", prec, p);
		shown = strtod(buf + 4, NULL);
		if ((shown < STATS_ALPHA) == (p < STATS_ALPHA) &&
		    (shown != STATS_ALPHA || p == STATS_ALPHA))
			return buf;
	}
	snprintf(buf, len, "p %s %g", p < STATS_ALPHA ? "<" : ">", STATS_ALPHA);
	return buf;
}

/* Size of a percentage for prose: "12" or "4.5". */
static const char *pct_text(char *buf, size_t len, double pct)
{
	pct = fabs(pct);
	snprintf(buf, len, pct >= 9.95 ? "%.0f" : "%.1f", pct);
	return buf;
}

/* A signed percentage for intervals: "+3.0", "-19". */
static const char *spct_text(char *buf, size_t len, double pct)
{
	snprintf(buf, len, fabs(pct) >= 9.95 ? "%+.0f" : "%+.1f", pct);
	return buf;
}

/* A blocked difference as a ratio with its interval: "-8.6 % [-19 %, +3.0 %]". */
static char *ratio_text(const struct cmp_delta *d)
{
	char a[16], lo[16], hi[16];

	return xasprintf("%s %% [%s %%, %s %%]", spct_text(a, sizeof(a), d->pct),
			 spct_text(lo, sizeof(lo), d->lo_pct), spct_text(hi, sizeof(hi), d->hi_pct));
}

/* The test that decided: "the blocked t-test" or "Welch's t-test". */
static const char *test_name(const struct cmp_delta *d)
{
	return d->blocked ? "blocked t-test" : "Welch's t-test";
}

char *report_cell_text(const struct cmp_row *row, size_t g)
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

char *report_delta_text(const struct cmp_row *row, size_t g)
{
	const struct cmp_delta *d = &row->deltas[g];
	int prec = row->m->prec;

	if (!d->present)
		return xstrdup(compare_metric_is_text(row->m) ? "" : "-");
	if (d->blocked)
		return ratio_text(d);
	if (!isfinite(d->pct))
		return xasprintf("%+.*f", prec, d->abs);
	if (isfinite(d->half) && d->sig != SIG_NA)
		return xasprintf("%+.*f ± %.*f (%+.1f %%)", prec, d->abs, prec, d->half, d->pct);
	return xasprintf("%+.*f (%+.1f %%)", prec, d->abs, d->pct);
}

/* "p = 0.004, Holm" or "p = 0.004, uncorrected": which p decided; a claim of a lab that
 * stopped when decided names the boundary it was held against when that is below 0.05 (an
 * early look; the last one spends nearly the whole 5 %). */
static const char *p_decided(char *buf, size_t len, const struct cmp_delta *d)
{
	char p[32];

	if (d->corrected)
		snprintf(buf, len, "Holm-adjusted %s", report_p_text(p, sizeof(p), d->p_holm));
	else
		snprintf(buf, len, "%s, uncorrected", report_p_text(p, sizeof(p), d->p));
	if (isfinite(d->level) && d->level < STATS_ALPHA * 0.99) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ", sequential boundary %.2g", d->level);
	}
	return buf;
}

/* The equivalence test's p: "TOST Holm-adjusted p = 0.004", "TOST p = 0.03, uncorrected". */
static const char *p_eq_decided(char *buf, size_t len, const struct cmp_delta *d)
{
	char p[32];

	if (d->corrected)
		snprintf(buf, len, "TOST Holm-adjusted %s", report_p_text(p, sizeof(p), d->p_eq_holm));
	else
		snprintf(buf, len, "TOST %s, uncorrected", report_p_text(p, sizeof(p), d->p_eq));
	return buf;
}

/* Both tests' p in a table cell: "p = 0.113, TOST p = 0.794, uncorrected", "Holm-adjusted
 * p = 0.613, TOST Holm-adjusted p = 0.410". */
static const char *p_both(char *buf, size_t len, const struct cmp_delta *d)
{
	char p[32], q[32];

	if (d->corrected)
		snprintf(buf, len, "Holm-adjusted %s, TOST Holm-adjusted %s",
			 report_p_text(p, sizeof(p), d->p_holm), report_p_text(q, sizeof(q), d->p_eq_holm));
	else
		snprintf(buf, len, "%s, TOST %s, uncorrected", report_p_text(p, sizeof(p), d->p),
			 report_p_text(q, sizeof(q), d->p_eq));
	if (isfinite(d->level) && d->level < STATS_ALPHA * 0.99) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ", sequential boundary %.2g", d->level);
	}
	return buf;
}

/* The margin a delta was judged against: "±5 %". */
static const char *margin_text(char *buf, size_t len, const struct cmp_delta *d)
{
	snprintf(buf, len, "±%g %%", d->margin_pct);
	return buf;
}

/* "; about 9 more rounds would decide it if ..." for an undecided delta, or "". */
static const char *more_text(char *buf, size_t len, const struct cmp_delta *d)
{
	const char *unit = d->blocked ? "rounds" : "runs per label";

	if (d->outcome != OUT_UNDECIDED || isnan(d->more) || d->floor_only)
		buf[0] = 0;
	else if (isinf(d->more))
		snprintf(buf, len, "; even %d more %s would not decide it at this noise",
			 COMPARE_MAX_MORE, unit);
	else
		snprintf(buf, len, "; about %.0f more %s would decide it if the estimate and the "
			 "noise stayed as they are", d->more, unit);
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

char *report_sig_text(const struct cmp_row *row, size_t g)
{
	const struct cmp_delta *d = &row->deltas[g];
	char p[128], q[64], m[64], pc[16], mg[32];

	if (!d->present)
		return xstrdup("");
	switch (d->sig) {
	case SIG_YES:
		if (d->outcome == OUT_NEGLIGIBLE)
			return xasprintf("negligible, inside %s (%s)", margin_text(mg, sizeof(mg), d),
					 p_both(p, sizeof(p), d));
		return xasprintf("%s (%s)", direction_word(d), p_decided(p, sizeof(p), d));
	case SIG_NO:
		if (d->outcome == OUT_EQUIVALENT)
			return xasprintf("equivalent within %s (%s)", margin_text(mg, sizeof(mg), d),
					 p_eq_decided(q, sizeof(q), d));
		if (isfinite(d->mde_pct))
			snprintf(m, sizeof(m), "; MDE %s %%", pct_text(pc, sizeof(pc), d->mde_pct));
		else
			m[0] = 0;
		if (!d->floor_only && d->outcome == OUT_UNDECIDED)
			return xasprintf("undecided (%s%s)", p_both(p, sizeof(p), d), m);
		return xasprintf("no significant difference (%s%s)", p_decided(p, sizeof(p), d), m);
	case SIG_WITHIN:
		return xstrdup("within one run: not tested");
	default:
		return xasprintf("n/a (%s)", d->na_why);
	}
}

const char *report_cell_method(enum cell_kind k)
{
	switch (k) {
	case CELL_TEXT: return "text";
	case CELL_VALUE: return "single value";
	case CELL_REPEATS: return "repeats";
	case CELL_BATCH: return "batch means";
	default: return "none";
	}
}

const char *report_sig_name(enum cmp_sig s)
{
	switch (s) {
	case SIG_YES: return "yes";
	case SIG_NO: return "no";
	case SIG_WITHIN: return "within one run";
	default: return "n/a";
	}
}

static char *runs_text(const struct compare *c, size_t g, size_t base);

/* ---- for the answer (answer.c) ---- */

const char *report_pct_size(char *buf, size_t len, double pct)
{
	return pct_text(buf, len, pct);
}

const char *report_p_words(char *buf, size_t len, const struct cmp_delta *d)
{
	return p_decided(buf, len, d);
}

const char *report_test_name(const struct cmp_delta *d)
{
	return test_name(d);
}

const char *report_p_eq_words(char *buf, size_t len, const struct cmp_delta *d)
{
	return p_eq_decided(buf, len, d);
}

const char *report_signed_pct(char *buf, size_t len, double pct)
{
	return spct_text(buf, len, pct);
}

const char *report_more_text(char *buf, size_t len, const struct cmp_delta *d)
{
	return more_text(buf, len, d);
}

char *report_interval_text(const struct cmp_delta *d)
{
	char a[16], lo[16], hi[16];

	if (d->blocked)
		return ratio_text(d);
	if (!isfinite(d->pct))
		return xstrdup("-");
	if (!isfinite(d->half_pct))
		return xasprintf("%s %%", spct_text(a, sizeof(a), d->pct));
	/* the difference's interval in % of the base (Welch, or within one run) */
	return xasprintf("%s %% [%s %%, %s %%]", spct_text(a, sizeof(a), d->pct),
			 spct_text(lo, sizeof(lo), d->pct - d->half_pct),
			 spct_text(hi, sizeof(hi), d->pct + d->half_pct));
}

char *report_runs_text(const struct compare *c, size_t g, size_t base)
{
	return runs_text(c, g, base);
}

/* ---- generated sentences ---- */

/* s, a heap string, into v (the copy strvec makes, and s freed). */
static void push_owned(struct strvec *v, char *s)
{
	strvec_push(v, s);
	free(s);
}

/* " with 3 vs 3 runs": the evidence behind a tested difference */
static char *runs_text(const struct compare *c, size_t g, size_t base)
{
	const char *in = c->blocked ? " in " : "";
	char rounds[32] = "";

	if (c->blocked)
		snprintf(rounds, sizeof(rounds), "%u round%s", c->nrounds, c->nrounds == 1 ? "" : "s");
	if (c->groups[g].nruns == c->groups[base].nruns)
		return xasprintf("%zu runs each%s%s", c->groups[g].nruns, in, rounds);
	return xasprintf("%zu vs %zu runs%s%s", c->groups[g].nruns, c->groups[base].nruns, in,
			 rounds);
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

/*
 * What the equivalence test adds to a tested clause: ", a negligible difference: inside ±5 %
 * (TOST ...)", "" for a difference outside the margin; an undecided one says how far it is.
 */
static char *decision_tail(const struct cmp_delta *d)
{
	char q[64], mg[32], more[160];

	switch (d->outcome) {
	case OUT_NEGLIGIBLE:
		return xasprintf(", a negligible difference: inside %s (%s)",
				 margin_text(mg, sizeof(mg), d), p_eq_decided(q, sizeof(q), d));
	case OUT_UNDECIDED:
		if (d->floor_only)
			return xstrdup("");
		return xasprintf(", nor shown equivalent within %s (%s): undecided%s",
				 margin_text(mg, sizeof(mg), d), p_eq_decided(q, sizeof(q), d),
				 more_text(more, sizeof(more), d));
	default:
		return xstrdup("");
	}
}

/* "equivalent within ±5 % (-0.4 % [-3.1 %, +2.4 %]; TOST ...: the 90 % interval [-2.6 %,
 * +1.9 %] lies inside ±5 %)" */
static char *equivalent_text(const struct cmp_delta *d, const char *evidence)
{
	char q[64], mg[32], lo[16], hi[16];
	char *iv = report_interval_text(d), *out;

	out = xasprintf("equivalent within %s (%s%s%s; %s: the 90 %% interval [%s %%, %s %%] lies "
			"inside %s)", margin_text(mg, sizeof(mg), d), iv, evidence ? ", " : "",
			evidence ? evidence : "", p_eq_decided(q, sizeof(q), d),
			spct_text(lo, sizeof(lo), d->eq_lo_pct), spct_text(hi, sizeof(hi), d->eq_hi_pct),
			mg);
	free(iv);
	return out;
}

/* "database read latency was 9.6 % lower (significant, p = 0.002)" and friends. */
static char *clause(const struct compare *c, const struct cmp_row *row, size_t g)
{
	const struct cmp_delta *d = &row->deltas[g];
	char p[96], pc[16], hc[16], m[64];
	const char *word = d->abs > 0 ? "higher" : "lower";
	char *tail, *out;

	if (!d->present)
		return xasprintf("%s has no data", row->m->what);
	if (d->outcome == OUT_EQUIVALENT) {
		char *e = equivalent_text(d, NULL);

		out = xasprintf("%s was %s", row->m->what, e);
		free(e);
		return out;
	}
	tail = decision_tail(d);
	if (d->blocked) {
		char *r = ratio_text(d);

		if (d->sig == SIG_NO)
			out = xasprintf("%s showed no significant difference (%s, %s%s%s)%s",
					row->m->what, r, p_decided(p, sizeof(p), d),
					mde_text(m, sizeof(m), d)[0] ? "; " : "", m, tail);
		else
			out = xasprintf("%s was %s %% %s (%s; significant, %s)%s", row->m->what,
					pct_text(pc, sizeof(pc), d->pct), word, r,
					p_decided(p, sizeof(p), d), tail);
		free(r);
		free(tail);
		return out;
	}
	if (d->sig == SIG_NO)
		out = xasprintf("%s showed no significant difference (%s%s%s)%s", row->m->what,
				p_decided(p, sizeof(p), d), mde_text(m, sizeof(m), d)[0] ? "; " : "",
				m, tail);
	else if (!isfinite(d->pct))
		out = xasprintf("%s was %s by %.*f (%s)", row->m->what, word, row->m->prec,
				fabs(d->abs), d->sig == SIG_YES ? "significant" : "not tested");
	else if (d->sig == SIG_YES)
		out = xasprintf("%s was %s %% %s (significant, %s)%s", row->m->what,
				pct_text(pc, sizeof(pc), d->pct), word, p_decided(p, sizeof(p), d),
				tail);
	else if (d->sig == SIG_WITHIN)
		out = xasprintf("%s was %s %% %s within one run (± %s %%)", row->m->what,
				pct_text(pc, sizeof(pc), d->pct), word,
				pct_text(hc, sizeof(hc), d->half_pct));
	else
		out = xasprintf("%s was %s %% %s (not tested: %s)", row->m->what,
				pct_text(pc, sizeof(pc), d->pct), word, d->na_why);
	(void)c;
	free(tail);
	return out;
}

static char *lead(const struct compare *c, const struct cmp_row *row, size_t g)
{
	const struct cmp_delta *d = &row->deltas[g];
	const char *a = c->groups[g].label, *b = c->groups[d->base].label;
	const char *more = d->abs > 0 ? "more" : "fewer", *what = row->m->what;
	/* the lead metric: transactional IOPS, a throughput workload's MB/s, a replay's seconds
	 * per log file (a time: "took", "more"/"less", in ms) */
	bool time = row->m->kind == MK_REPLAY;
	const char *unit = row->m->kind == MK_TRANS_IOPS ? "IOPS" : time ? "ms" : "MB/s";
	const char *verb = time ? "took" : "delivered";
	double abs = time ? d->abs * 1000 : d->abs, half = time ? d->half * 1000 : d->half;
	char p[96], pc[16], *r, *m, *out, *tail;

	if (time)
		more = d->abs > 0 ? "more" : "less";
	if (!d->present)
		return xasprintf("On this setup %s and %s cannot be compared on %s (no data)", a, b,
				 what);
	if (d->outcome == OUT_EQUIVALENT) {
		char *ev, *e;

		r = runs_text(c, g, (size_t)d->base);
		ev = xasprintf("%s, %s", r, test_name(d));
		e = equivalent_text(d, ev);
		out = xasprintf("On this setup %s and %s are %s in %s", a, b, e, what);
		free(r);
		free(ev);
		free(e);
		return out;
	}
	if (d->sig == SIG_NO || d->sig == SIG_YES) {
		char *rt = d->blocked ? ratio_text(d) : xasprintf("%+.1f %%", d->pct);

		r = runs_text(c, g, (size_t)d->base);
		m = mde_clause(c, d, g);
		tail = decision_tail(d);
		if (d->sig == SIG_NO)
			out = xasprintf("On this setup %s and %s showed no significant difference in "
					"%s (%s, %s, %s %s%s)%s", a, b, what, rt, r,
					test_name(d), p_decided(p, sizeof(p), d), m, tail);
		else if (d->blocked)
			out = xasprintf("On this setup %s %s %s %% %s %s than %s (%+.0f %s, "
					"%s, %s; significant, %s %s)%s", a, verb,
					pct_text(pc, sizeof(pc), d->pct), more, what, b, abs, unit, rt,
					r, test_name(d), p_decided(p, sizeof(p), d), tail);
		else
			out = xasprintf("On this setup %s %s %s %% %s %s than %s (%+.0f %s, "
					"%s; significant, %s %s)%s", a, verb,
					pct_text(pc, sizeof(pc), d->pct), more, what, b, abs, unit,
					r, test_name(d), p_decided(p, sizeof(p), d), tail);
		free(rt);
		free(r);
		free(m);
		free(tail);
		return out;
	}
	if (d->sig == SIG_WITHIN)
		return xasprintf("Within one run per label, %s %s %s %% %s %s than %s "
				 "(%+.0f ± %.0f %s, the within-run interval; this is no claim: it needs "
				 "at least 2 independent runs per label, 3 or more recommended)",
				 a, verb, pct_text(pc, sizeof(pc), d->pct), more, what, b, abs, half,
				 unit);
	return xasprintf("On this setup %s %s %s %% %s %s than %s (not tested: %s)", a, verb,
			 pct_text(pc, sizeof(pc), d->pct), more, what, b, d->na_why);
}

/*
 * The metric the sentence leads with: transactional IOPS, or where no result has any (a
 * workload judged by throughput: the backup) its database read throughput, a replay's time
 * per log file.
 */
const struct cmp_row *report_lead_row(const struct compare *c)
{
	const struct cmp_row *row = compare_row(c, key_metrics[0]);
	const struct cmp_row *tp = compare_row(c, "db_read_throughput");
	const struct cmp_row *rp = compare_row(c, "replay_per_log");

	if (row->m->hidden && rp && !rp->m->hidden)
		return rp;
	return row->m->hidden && tp ? tp : row;
}

static void comparison_sentences(const struct compare *c, struct strvec *v)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];
		char *s;

		if (grp->base < 0 || grp->aborted || grp->aa_of >= 0)
			continue;
		/* the same filesystem at another thread count: the scaling sentence says it */
		if (!strcmp(grp->fs, c->groups[grp->base].fs) &&
		    grp->threads != c->groups[grp->base].threads)
			continue;
		s = lead(c, report_lead_row(c), g);
		strbuf_addstr(&sb, s);
		free(s);
		for (size_t k = 1; k < NKEY; k++) {
			const struct cmp_row *row = compare_row(c, key_metrics[k]);
			char *cl;

			if (row->m->hidden) /* nothing to say: a backup's log writes */
				continue;
			cl = clause(c, row, g);
			strbuf_addf(&sb, "; %s", cl);
			free(cl);
		}
		strvec_pushf(v, "%s.", sb.buf);
		strbuf_reset(&sb);
	}
	strbuf_release(&sb);
}

/* The A/A check: two copies of the same setup, the lab's noise floor. */
static char *aa_sentence(const struct compare *c, size_t g)
{
	const struct cmp_group *grp = &c->groups[g];
	const char *base = c->groups[grp->aa_of].label;
	bool alarm = false, tested = false;
	struct strbuf sb = STRBUF_INIT;
	char *s, *tmp, pc[16], p[64];

	for (size_t k = 0; k < NKEY; k++) {
		const struct cmp_row *row = compare_row(c, key_metrics[k]);
		const struct cmp_delta *d = row ? &row->deltas[g] : NULL;

		if (!d || !d->present || !isfinite(d->pct))
			continue;
		tested |= d->sig == SIG_YES || d->sig == SIG_NO;
		alarm |= d->sig == SIG_YES;
		strbuf_add_sep(&sb, ", ");
		if (d->sig == SIG_YES || d->sig == SIG_NO)
			strbuf_addf(&sb, "%s %c%s %% (%s%s)", row->m->what, d->pct < 0 ? '-' : '+',
				    pct_text(pc, sizeof(pc), d->pct), p_decided(p, sizeof(p), d),
				    d->sig == SIG_YES ? ", SIGNIFICANT" : "");
		else
			strbuf_addf(&sb, "%s %c%s %%%s", row->m->what, d->pct < 0 ? '-' : '+',
				    pct_text(pc, sizeof(pc), d->pct),
				    d->sig == SIG_WITHIN ? " (within one run)" : "");
	}
	s = strbuf_detach_or_null(&sb);
	if (alarm)
		tmp = xasprintf("WARNING: the A/A check failed. %s is the same setup as %s, run again "
				"in every round, yet it differs significantly (%s). A lab with nothing "
				"to find raises this alarm by chance in about %s of labs (measured by "
				"relabelling real cells of one filesystem): run the lab again. If it "
				"fires again, this machine's run-to-run noise is larger than these "
				"repeats can absorb and the claims above are not trustworthy: re-run on "
				"a quieter machine or with more rounds.", grp->label, base,
				s ? s : "no data", COMPARE_AA_CHANCE);
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

static void verdict_sentence(const struct compare *c, struct strvec *v)
{
	const struct cmp_row *row = compare_row(c, "verdict");
	struct strbuf sb = STRBUF_INIT;
	bool any = false;

	for (size_t i = 0; i < c->nresults; i++)
		any |= c->results[i].verdict.present;
	if (!any) /* no result was judged (a backup, a simple pattern, fio): nothing to say */
		return;
	strbuf_addstr(&sb, "Jetstress-style verdict:");
	for (size_t g = 0; g < c->ngroups; g++)
		strbuf_addf(&sb, "%s %s %s", g ? "," : "", c->groups[g].label, row->cells[g].text);
	strvec_pushf(v, "%s.", sb.buf);
	strbuf_release(&sb);
}

/*
 * A label that failed Jetstress's page-fault stall check, in plain words: what it means about
 * the storage (its database writes did not keep up, so the cache ran out of clean pages) and
 * what would pass (faster writes, more cache, fewer threads).
 */
static void stall_sentences(const struct compare *c, struct strvec *v)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		double worst = 0;
		size_t nfail = 0;

		for (size_t i = 0; i < c->groups[g].nruns; i++) {
			const struct verdict *vd = &c->results[c->groups[g].runs[i]].verdict;

			for (size_t k = 0; vd->present && k < vd->nchecks; k++) {
				const struct verdict_check *ck = &vd->checks[k];

				if (ck->pass || strcmp(ck->name, "db_page_fault_stalls") ||
				    strcmp(ck->scope, "overall"))
					continue;
				nfail++;
				worst = MAX(worst, ck->value);
			}
		}
		if (!nfail)
			continue;
		strvec_pushf(v, "%s failed the page-fault stall check in %zu of %zu runs (up to "
			     "%.*f stalls/s, limit 1/s): sessions found the database cache "
			     "without a clean page because the database writes (%.2f ms on "
			     "average) did not keep up with the changes, which Jetstress fails "
			     "as storage that cannot sustain this load; faster database writes, "
			     "a larger cache or fewer threads would pass.", c->groups[g].label,
			     nfail, c->groups[g].nruns, worst < 10 ? 1 : 0, worst,
			     compare_mean(c, "db_write_lat_avg", g));
	}
}

static void sweep_sentences(const struct compare *c, struct strvec *v)
{
	for (size_t s = 0; s < c->nsweeps; s++) {
		const struct cmp_sweep *sw = &c->sweeps[s];
		size_t a = sw->groups[0], b = sw->groups[sw->n - 1];

		strvec_pushf(v, "%s scaled from %.0f transactional IOPS at %u threads to %.0f "
			     "at %u threads, %.0f %% of linear scaling; database read latency "
			     "went from %.2f to %.2f ms and log write latency from %.2f to "
			     "%.2f ms.", sw->fs, compare_mean(c, "trans_iops", a),
			     c->groups[a].threads, compare_mean(c, "trans_iops", b),
			     c->groups[b].threads, sw->eff[sw->n - 1],
			     compare_mean(c, "db_read_lat_avg", a), compare_mean(c, "db_read_lat_avg", b),
			     compare_mean(c, "log_write_lat_avg", a),
			     compare_mean(c, "log_write_lat_avg", b));
	}
}

static void cache_sentences(const struct compare *c, struct strvec *v)
{
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].cache_served)
			strvec_pushf(v, "Warning: on %s a cache served the database reads (the "
				     "device read %.0f %% of what the workload read): its numbers "
				     "measure the cache, not the device, so no difference is "
				     "tested against it.", c->groups[g].label,
				     c->groups[g].read_ratio * 100);
}

void report_summary(const struct compare *c, struct strvec *v)
{
	if (c->aa_alarm >= 0)
		push_owned(v, aa_sentence(c, (size_t)c->aa_alarm)); /* first, loudly */
	comparison_sentences(c, v);
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].aa_of >= 0 && (int)g != c->aa_alarm)
			push_owned(v, aa_sentence(c, g));
	sweep_sentences(c, v);
	verdict_sentence(c, v);
	report_qualification_sentence(c, v);
	stall_sentences(c, v);
	cache_sentences(c, v);
}
