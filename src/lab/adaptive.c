// SPDX-License-Identifier: MIT
/*
 * adaptive.c: an adaptive lab ([lab] precision, or stop = decided).  After every whole round
 * from min_rounds on, the lab runs compare's own analysis (in process, the same code as the
 * report) on the results so far.  stop = precision stops when every claim's minimum
 * detectable difference is at most the precision asked for: it looks at interval widths
 * only, never at p-values or at which label is ahead (docs/COMPARE.md, "Precision").
 * stop = decided stops when every claim is different, equivalent or negligible: it does look
 * at the tests, so each look is held to a group-sequential boundary that pays for looking
 * (compare/sequential.h; docs/COMPARE.md, "Deciding").  Either stops when the next round
 * would not fit the budget.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compare/compare.h"
#include "compare/precision.h"
#include "lab/labP.h"
#include "lib/random.h"

/* Time left for the final compare (tables, report, charts) when the budget is judged. */
#define COMPARE_RESERVE_S 30

/* What the budget keeps for what comes after the rounds: the qualification runs not yet
 * done ([lab] qualify, each as long plus a cell's overhead), the final compare. */
static double reserve_s(const struct lab *L)
{
	double one = L->cfg.qualify_ns / 1e9 + fmax(0, lab_cell_wall(L) - L->cfg.wl.duration_s);
	double s = COMPARE_RESERVE_S;

	for (unsigned int i = 0; i < L->ncells; i++)
		if (L->cells[i].qualify && L->cells[i].status != CELL_DONE)
			s += one;
	return s;
}

char *lab_new_id(void)
{
	struct timespec ts;
	struct tm tm;
	char when[32];
	uint64_t x;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y%m%dT%H%M%S", &tm);
	x = mix64((uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec +
		  ((uint64_t)getpid() << 40));
	return xasprintf("%s-%08x", when, (unsigned int)(x & 0xffffffffu));
}

double lab_elapsed(const struct lab *L)
{
	return L->elapsed_before + (L->t0 ? (now_ns() - L->t0) / 1e9 : 0);
}

double lab_cell_wall(const struct lab *L)
{
	double sum = 0;
	unsigned int n = 0;

	for (unsigned int i = 0; i < L->ncells; i++)
		if (L->cells[i].wall > 0) {
			sum += L->cells[i].wall;
			n++;
		}
	if (n)
		return sum / n;
	/* before the first cell: the load, the lab's running overhead estimate, a teardown */
	return L->cfg.wl.warmup_s + L->cfg.wl.duration_s + L->overhead_est + 2;
}

char *lab_compare_baseline(const struct lab *L)
{
	const struct lab_cfg *c = &L->cfg;
	bool section = false;

	if (!c->baseline && c->raw_baseline)
		/* every filesystem's overhead against the raw devices */
		return c->nthreads > 1 ? xasprintf("raw-%llut", (unsigned long long)c->threads[0])
				       : xstrdup("raw");
	if (!c->baseline)
		return NULL;
	for (int i = 0; i < c->nfs; i++)
		section = section || !strcmp(c->fs[i].name, c->baseline);
	/* in a thread sweep labels are NAME-Nt: name the baseline filesystem's first label;
	 * compare pairs every thread count with the baseline's at the same count */
	if (section && c->nthreads > 1)
		return xasprintf("%s-%llut", c->baseline, (unsigned long long)c->threads[0]);
	return xstrdup(c->baseline);
}

/*
 * compare's analysis of the finished results (claims only), with o's margin and looks.  0,
 * or -1 when compare refused them (logged).
 */
static int analyse(struct lab *L, struct compare *c, struct compare_opts *o)
{
	char **files = xcalloc(L->ncells + 1, sizeof(char *)), *base = lab_compare_baseline(L);
	size_t n = 0;
	int ret;

	/* config order, as the report's compare gets them (its default baseline is the first) */
	for (unsigned int i = 0; i < L->ncells; i++)
		if (L->cells[i].status == CELL_DONE)
			files[n++] = L->cells[i].result;
	o->baseline = base;
	o->claims_only = true;
	o->equivalence_pct = L->cfg.equivalence;
	fslab_set_quiet(true);
	ret = compare_build(c, files, n, o);
	fslab_set_quiet(false);
	free(files);
	free(base);
	o->baseline = NULL;
	if (ret) {
		lab_log(L, "%s: compare refused the results so far (the report's compare will say "
			"why); going on", L->cfg.stop == LAB_STOP_DECIDED ? "decided" : "precision");
		return -1;
	}
	return 0;
}

/* The claims' widest MDE from the finished results.  0 and *pc filled, or -1 when compare
 * refused them or nothing is tested (logged). */
static int look(struct lab *L, struct precision_check *pc, struct compare *c)
{
	struct compare_opts o = { 0 };

	if (analyse(L, c, &o))
		return -1;
	if (compare_precision(c, pc)) {
		lab_log(L, "precision: no claim can be tested yet (%s); going on", c->design);
		return -1;
	}
	return 0;
}

/* "xfs vs ext4, log write latency, about 9 more rounds at this noise": the undecided claim
 * furthest from a decision (heap). */
static char *undecided_words(const struct compare *c, const struct decided_check *dc)
{
	const struct cmp_group *g = &c->groups[dc->group];

	if (isinf(dc->more))
		return xasprintf("%s vs %s, %s, more than %d further rounds at this noise",
				 g->label, c->groups[g->base].label, dc->metric, COMPARE_MAX_MORE);
	if (isnan(dc->more))
		return xasprintf("%s vs %s, %s", g->label, c->groups[g->base].label, dc->metric);
	return xasprintf("%s vs %s, %s, about %.0f more round%s at this noise", g->label,
			 c->groups[g->base].label, dc->metric, dc->more, dc->more == 1 ? "" : "s");
}

/*
 * stop = decided: the look after done_rounds rounds.  Whether it is the lab's last is known
 * before looking (max_rounds, or a next round of `left` cells that would not fit the budget:
 * time only, never the data), and the last look spends what is left of the level.  Stops
 * when every claim is different, equivalent or negligible, or at the last look.
 */
static int decided_look(struct lab *L, unsigned int done_rounds, unsigned int left, bool last)
{
	const struct lab_cfg *cfg = &L->cfg;
	double next = left * lab_cell_wall(L), elapsed = lab_elapsed(L);
	bool budget = cfg->budget_ns && elapsed + next + reserve_s(L) > cfg->budget_ns / 1e9;
	bool final = last || done_rounds >= cfg->max_rounds || budget;
	struct seq_plan plan = { cfg->min_rounds, cfg->max_rounds, done_rounds, final };
	struct compare_opts o = { .seq = &plan };
	struct decided_check dc;
	struct compare c;
	char a[32], b[32], *who = NULL;

	compare_init(&c);
	L->final_look = final;
	if (analyse(L, &c, &o) || compare_decided(&c, &dc, true)) {
		compare_release(&c);
		if (!final) {
			lab_log(L, "decided: no claim can be tested after %u rounds; going on",
				done_rounds);
			return 0;
		}
		L->stop_reason = xasprintf("%s after %u rounds without a tested claim", budget &&
					   !last ? "budget spent" : "the last round ran",
					   done_rounds);
		return 1;
	}
	if (dc.group >= 0)
		who = undecided_words(&c, &dc);
	if (dc.decided == dc.claims)
		L->stop_reason = xasprintf("decided after %u rounds: %zu claim%s, %zu different, %zu "
					   "equivalent within ±%g %%, %zu negligible%s", done_rounds,
					   dc.claims, dc.claims == 1 ? "" : "s", dc.different,
					   dc.equivalent, c.margin_pct, dc.negligible, final ?
					   " (at the last look)" : "");
	else if (final && (last || done_rounds >= cfg->max_rounds))
		L->stop_reason = xasprintf("max_rounds %u reached: %zu of %zu claims decided; "
					   "undecided: %s", cfg->max_rounds, dc.decided, dc.claims,
					   who);
	else if (final)
		L->stop_reason = xasprintf("budget spent: %zu of %zu claims decided after %u rounds "
					   "(undecided: %s); the next round (about %s) would not "
					   "fit the %s budget", dc.decided, dc.claims, done_rounds,
					   who, fmt_hms(a, sizeof(a), next),
					   fmt_hms(b, sizeof(b), cfg->budget_ns / 1e9));
	else
		lab_log(L, "round %u of at most %u done: %zu of %zu claims decided (undecided: %s); "
			"one more round (about %s)%s", done_rounds, cfg->max_rounds, dc.decided,
			dc.claims, who, fmt_hms(a, sizeof(a), next), cfg->budget_ns ? ", within "
			"the budget" : "");
	free(who);
	compare_release(&c);
	if (!L->stop_reason)
		return 0;
	lab_log(L, "adaptive lab stops: %s", L->stop_reason);
	return 1;
}

/* stop = precision: the look after done_rounds rounds, on the claims' widest MDE. */
static int precision_look(struct lab *L, unsigned int done_rounds, unsigned int left, bool last)
{
	const struct lab_cfg *cfg = &L->cfg;
	double cell, next, elapsed;
	struct precision_check pc;
	struct compare c;
	char a[32], b[32], cpct[64];

	compare_init(&c);
	if (look(L, &pc, &c)) {
		compare_release(&c);
		L->worst_mde = NAN;
		if (!last)
			return 0;
		L->stop_reason = xasprintf("max_rounds %u reached without a tested claim",
					   cfg->max_rounds);
		return 1;
	}
	L->worst_mde = pc.worst_pct;
	snprintf(cpct, sizeof(cpct), "%.1f %%", pc.worst_pct);
	{
		const struct cmp_group *g = &c.groups[pc.group];
		char *who = xasprintf("%s vs %s, %s", g->label, c.groups[g->base].label, pc.metric);

		if (pc.worst_pct <= cfg->precision) {
			L->stop_reason = xasprintf("precision %g %% reached after %u rounds (the widest "
						   "claim MDE %s: %s)", cfg->precision, done_rounds,
						   cpct, who);
		} else if (last) {
			L->stop_reason = xasprintf("max_rounds %u reached: the widest claim MDE %s "
						   "(%s) is above the precision %g %%",
						   cfg->max_rounds, cpct, who, cfg->precision);
		} else {
			cell = lab_cell_wall(L);
			next = left * cell;
			elapsed = lab_elapsed(L);
			if (cfg->budget_ns && elapsed + next + reserve_s(L) > cfg->budget_ns / 1e9)
				L->stop_reason = xasprintf(
					"budget spent: the widest claim MDE %s (%s) > precision %g %% "
					"after %u rounds; the next round (about %s) would not fit the %s "
					"budget", cpct, who, cfg->precision, done_rounds,
					fmt_hms(a, sizeof(a), next),
					fmt_hms(b, sizeof(b), cfg->budget_ns / 1e9));
			else
				lab_log(L, "round %u of at most %u done: the widest claim MDE %s (%s) > "
					"precision %g %%: one more round (about %s)%s", done_rounds,
					cfg->max_rounds, cpct, who, cfg->precision,
					fmt_hms(a, sizeof(a), next), cfg->budget_ns ? ", within the "
					"budget" : "");
		}
		free(who);
	}
	compare_release(&c);
	if (!L->stop_reason)
		return 0;
	lab_log(L, "adaptive lab stops: %s", L->stop_reason);
	return 1;
}


int lab_adaptive_look(struct lab *L, bool last)
{
	const struct lab_cfg *cfg = &L->cfg;
	unsigned int round = last ? cfg->max_rounds + 1 : L->cells[L->order[L->cur]].round;
	unsigned int done_rounds = round - 1, left = 0;

	if (!cfg->adaptive || L->stop_reason || done_rounds < cfg->min_rounds ||
	    done_rounds <= L->checked_round)
		return 0;
	/* before the qualification runs: every round ran, this look is the last */
	last = last || done_rounds >= cfg->max_rounds;
	/* a round already begun (a resumed lab) was decided on before it began */
	for (unsigned int i = 0; i < L->ncells && !last; i++) {
		const struct cell *x = &L->cells[i];

		if (x->round == round && (x->status == CELL_DONE || x->status == CELL_FAILED))
			return 0;
		left += x->round == round;
	}
	L->checked_round = done_rounds;
	L->rounds_done = done_rounds;
	if (cfg->stop == LAB_STOP_DECIDED)
		return decided_look(L, done_rounds, left, last);
	return precision_look(L, done_rounds, left, last);
}

void lab_adaptive_dry_run(const struct lab *L)
{
	const struct lab_cfg *c = &L->cfg;
	unsigned int done = 0, whole = 0;
	double cell = lab_cell_wall(L), round = cell * L->nslots;
	bool measured = false;
	char a[32], b[32], e[32];

	if (L->ncells > L->nround_cells)
		printf("Then %u qualification run(s) of %llu s, one per filesystem label: the "
		       "Jetstress-style verdict of each storage, not part of the comparison\n",
		       L->ncells - L->nround_cells,
		       (unsigned long long)(c->qualify_ns / NSEC_PER_SEC));
	if (!c->adaptive)
		return;
	for (unsigned int i = 0; i < L->ncells; i++) {
		done += L->cells[i].status == CELL_DONE;
		measured |= L->cells[i].wall > 0;
	}
	for (unsigned int r = 1; r <= c->max_rounds; r++) {
		bool all = true;

		for (unsigned int i = 0; i < L->ncells; i++)
			if (L->cells[i].round == r && L->cells[i].status != CELL_DONE)
				all = false;
		if (!all)
			break;
		whole = r;
	}
	if (c->stop == LAB_STOP_DECIDED)
		printf("Adaptive: until every claim is decided (different, equivalent within ±%g %% "
		       "or negligible; group-sequential boundaries), rounds %u to %u%s%s\n",
		       c->equivalence > 0 ? c->equivalence : COMPARE_EQUIVALENCE_DEFAULT,
		       c->min_rounds, c->max_rounds, c->budget_ns ? ", budget " : "",
		       c->budget_ns ? fmt_hms(b, sizeof(b), c->budget_ns / 1e9) : "");
	else
		printf("Adaptive: precision %g %% (the widest claim MDE wanted), rounds %u to %u%s%s\n",
		       c->precision, c->min_rounds, c->max_rounds, c->budget_ns ? ", budget " : "",
		       c->budget_ns ? fmt_hms(b, sizeof(b), c->budget_ns / 1e9) : "");
	printf("  so far: %u whole round(s), %u cell(s) done, %s elapsed%s\n", whole, done,
	       fmt_hms(e, sizeof(e), L->elapsed_before), L->stop_reason ? "; stopped: " : "");
	if (L->stop_reason)
		printf("  %s\n", L->stop_reason);
	printf("  a cell: about %s (%s), a round of %u cell(s): about %s\n",
	       fmt_hms(a, sizeof(a), cell), measured ? "measured" : "estimated", L->nslots,
	       fmt_hms(b, sizeof(b), round));
	if (c->budget_ns) {
		double fit = (c->budget_ns / 1e9 - reserve_s(L)) / round;

		printf("  the budget holds about %.0f round(s)%s; rounds after min_rounds run only "
		       "while the next one fits\n", floor(fit > 0 ? fit : 0),
		       fit < c->min_rounds ? " (fewer than min_rounds: those run anyway)" : "");
	}
}
