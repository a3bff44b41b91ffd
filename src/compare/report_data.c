// SPDX-License-Identifier: MIT
/* report_data.c: the comparison as data: tables.csv, compare.json and sizing as CSV/JSON. */
#include "compare/reportP.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "compare/precision.h"
#include "lib/msg.h"
#include "lib/strvec.h"

/*
 * A string from input (a file name, --title, a host name, a warning quoting them): JSON
 * strings are UTF-8, and json_string() gives NULL for anything else, which
 * json_array_append_new() then drops without a word.  Such a string is written as fslab's
 * messages show it (str_escape(): each byte that is not UTF-8 as \xNN), so nothing is ever
 * left out.
 */
static json_t *jstr(const char *s)
{
	json_t *j = json_string(s);
	char *e;

	if (j)
		return j;
	e = str_escape(s);
	j = json_string(e);
	free(e);
	return j ? j : json_string("?");
}

/* Who measured a result: {tool, version, format, host} (provenance, src/compare/import.c). */
static json_t *source_json(const struct fslab_result *r)
{
	const struct provenance *p = &r->src;

	return json_pack("{s:s, s:o, s:o, s:o}", "tool", compare_tool(r), "version",
			 p->tool ? (p->version ? jstr(p->version) : json_null())
				 : (r->fslab_version ? jstr(r->fslab_version) : json_null()),
			 "format", p->format ? jstr(p->format) : json_string("fslab result"),
			 "host", p->host ? jstr(p->host) : json_null());
}

/* ---- CSV ---- */

static void csv_field(FILE *f, const char *s, bool last)
{
	/* RFC 4180: a field with a comma, quote, CR or LF is quoted, quotes doubled */
	if (strpbrk(s, ",\"\r\n")) {
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
	      "delta_pct,significance,p,p_holm,delta_ci_half,mde,mde_pct,delta_ci_low_pct,"
	      "delta_ci_high_pct,outcome,margin_pct,p_tost,p_tost_holm,more\n", f);
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
			csv_field(f, report_cell_method(cell->kind), false);
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
				csv_field(f, report_sig_name(d->sig), false);
				csv_num(f, d->p, false);
				csv_num(f, d->p_holm, false);
				csv_num(f, d->half, false);
				csv_num(f, d->mde, false);
				csv_num(f, d->mde_pct, false);
				/* a blocked difference: the ratio's interval, % of the base */
				csv_num(f, d->lo_pct, false);
				csv_num(f, d->hi_pct, false);
				/* the decision against the equivalence margin (decide.c) */
				csv_field(f, compare_outcome_name(d->outcome), false);
				csv_num(f, d->outcome ? d->margin_pct : NAN, false);
				csv_num(f, d->p_eq, false);
				csv_num(f, d->p_eq_holm, false);
				csv_num(f, isinf(d->more) ? NAN : d->more, true);
			} else {
				fputs(",,,,,,,,,,,,,,\n", f);
			}
		}
	}
}

/* ---- JSON ---- */

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A tested delta's decision against the margin: {outcome, margin_pct, p_tost, p_tost_holm,
 * tost_ci_low_pct, tost_ci_high_pct, level, more, more_unit}; null when nothing was tested. */
static json_t *decision_json(const struct cmp_delta *d)
{
	if (d->outcome == OUT_NONE)
		return json_null();
	return json_pack("{s:s, s:f, s:b, s:o, s:o, s:o, s:o, s:f, s:o, s:s}",
			 "outcome", compare_outcome_name(d->outcome), "margin_pct", d->margin_pct,
			 "floor_only", d->floor_only, "p_tost", jnum(d->p_eq),
			 "p_tost_holm", jnum(d->p_eq_holm), "tost_ci_low_pct", jnum(d->eq_lo_pct),
			 "tost_ci_high_pct", jnum(d->eq_hi_pct), "level", d->level,
			 "more", isinf(d->more) ? json_string("more than the look-ahead") : jnum(d->more),
			 "more_unit", d->blocked ? "rounds" : "runs per label");
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
					      "method", report_cell_method(cell->kind));

			if (cell->kind == CELL_TEXT) {
				json_object_set_new(o, "text", jstr(cell->text));
			} else if (cell->kind != CELL_NONE) {
				json_object_set_new(o, "n", json_integer((json_int_t)cell->s.n));
				json_object_set_new(o, "mean", jnum(cell->s.mean));
				json_object_set_new(o, "sd", jnum(cell->s.sd));
				json_object_set_new(o, "ci_low", jnum(cell->s.mean - h));
				json_object_set_new(o, "ci_high", jnum(cell->s.mean + h));
			}
			if (d->present) {
				json_object_set_new(o, "delta", json_pack(
					"{s:s, s:o, s:o, s:o, s:s, s:o, s:o, s:b, s:o, s:o, s:o, s:s?}",
					"against", c->groups[d->base].label, "abs", jnum(d->abs),
					"pct", jnum(d->pct), "ci_half", jnum(d->half),
					"significant", report_sig_name(d->sig), "p", jnum(d->p),
					"p_holm", jnum(d->p_holm), "corrected", d->corrected,
					"mde", jnum(d->mde), "mde_pct", jnum(d->mde_pct),
					"better", d->sig == SIG_YES ? json_integer(d->better) : json_null(),
					"not_tested_because", d->na_why));
				json_object_set_new(json_object_get(o, "delta"), "blocked",
						    json_boolean(d->blocked));
				json_object_set_new(json_object_get(o, "delta"), "ci_low_pct",
						    jnum(d->lo_pct));
				json_object_set_new(json_object_get(o, "delta"), "ci_high_pct",
						    jnum(d->hi_pct));
				json_object_set_new(json_object_get(o, "delta"), "decision",
						    decision_json(d));
			}
			json_array_append_new(cells, o);
		}
		json_array_append_new(rows, json_pack("{s:s, s:s, s:i, s:b, s:o}", "id", row->m->id,
						      "name", row->m->name, "direction",
						      (int)row->m->dir, "hidden", row->m->hidden,
						      "cells", cells));
	}
	return rows;
}

/* Where the noise is (blocked comparisons), as coefficients of variation; null otherwise. */
static json_t *noise_json(const struct compare *c, const struct report_opts *o)
{
	const struct noise *nz = &c->noise;
	json_t *out = json_array(), *adv = json_null();
	struct allocation a;
	double target = o->precision_pct > 0 ? o->precision_pct : 10;

	if (!c->have_noise) {
		json_decref(out);
		return json_null();
	}
	for (size_t i = 0; i < c->noutliers; i++) {
		const struct fslab_result *r = &c->results[c->outliers[i].ri];

		json_array_append_new(out, json_pack("{s:s, s:s, s:i, s:s, s:f}", "file",
			c->files[c->outliers[i].ri], "label", r->label, "round", (int)r->lab.round,
			"metric", c->outliers[i].metric, "standardised_residual", c->outliers[i].z));
	}
	if (!compare_advice(c, target, 100, &a))
		adv = json_pack("{s:f, s:f, s:i, s:f, s:f}", "target_pct", target, "cell_seconds",
				a.t_s, "rounds", (int)a.rounds, "mde_pct", a.mde_pct, "minutes",
				a.minutes);
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "metric",
			 "trans_iops", "cell_cv_pct", jnum(sqrt(nz->cell) * 100),
			 "cell_df", jnum(nz->df),
			 "within_run_cv_pct", jnum(sqrt(nz->within) * 100),
			 "between_runs_cv_pct", jnum(sqrt(nz->between) * 100),
			 "between_runs_ucb_cv_pct", jnum(sqrt(nz->between_ucb) * 100),
			 "drift_between_rounds_cv_pct", jnum(sqrt(nz->drift) * 100),
			 "cell_seconds", jnum(nz->t_s), "fixed_seconds_per_cell", jnum(nz->fixed_s),
			 "extreme_cells", out, "advice", adv);
}

/* "groups": each label's runs, what it is compared against and where it came from. */
static json_t *groups_json(const struct compare *c)
{
	json_t *groups = json_array();

	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *x = &c->groups[g];
		json_t *files = json_array();

		for (size_t i = 0; i < x->nruns; i++)
			json_array_append_new(files, jstr(c->files[x->runs[i]]));
		json_array_append_new(groups, json_pack("{s:s, s:s, s:i, s:b, s:o, s:o, s:o, s:o, s:o}",
			"label", x->label, "filesystem", x->fs, "threads", (int)x->threads,
			"aborted", x->aborted, "files", files,
			"against", x->base >= 0 ? json_string(c->groups[x->base].label) : json_null(),
			"mismatch", x->mismatch ? jstr(x->mismatch) : json_null(),
			"aa_check_of", x->aa_of >= 0 ? json_string(c->groups[x->aa_of].label)
						     : json_null(),
			"source", source_json(&c->results[x->runs[0]])));
		/* a tuned label (--threads auto): "threads" is 0, each run's count here */
		if (x->tuned) {
			json_t *t = json_array();

			for (size_t i = 0; i < x->nruns; i++)
				json_array_append_new(t, json_integer(
					c->results[x->runs[i]].config.threads));
			json_object_set_new(json_array_get(groups, g), "tuned_threads", t);
		}
	}
	return groups;
}

/* "sweeps": transactional IOPS and efficiency per thread count, per filesystem. */
static json_t *sweeps_json(const struct compare *c)
{
	json_t *sweeps = json_array();

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
	return sweeps;
}

/* "method": how the numbers were compared (repeats, one run's batches, or the blocked
 * model of a lab's rounds). */
static json_t *method_json(const struct compare *c)
{
	const struct batch_plan *bp = &c->groups[c->baseline].plan;
	json_t *m = json_pack("{s:s, s:f, s:f, s:f, s:s, s:s, s:i, s:b, s:i, s:i, s:i}",
			      "name", c->method == CMP_REPEATS ? "repeats" : "within one run",
			      "confidence", STATS_CONF, "alpha", STATS_ALPHA, "power", STATS_POWER,
			      "test", c->method == CMP_REPEATS ? "Welch's t-test on per-run values"
				      : "none (batch means give within-run intervals only)",
			      "multiple_comparisons", "Holm-Bonferroni over labels x headline metrics",
			      "claims", (int)c->nclaims, "aa_alarm", c->aa_alarm >= 0,
			      "batches", (int)bp->k, "batch_seconds", (int)bp->len,
			      "skipped_seconds", (int)bp->skip);

	json_object_set_new(m, "design", json_string(c->design));
	json_object_set_new(m, "equivalence_margin_pct", c->margin_pct > 0 ? json_real(c->margin_pct)
										: json_null());
	json_object_set_new(m, "equivalence_margin_default", json_boolean(c->margin_default));
	json_object_set_new(m, "equivalence_test", json_string("two one-sided tests (TOST), "
							       "Holm-Bonferroni over the claims"));
	json_object_set_new(m, "sequential", !c->sequential ? json_null() : json_pack(
		"{s:s, s:i, s:i, s:i, s:b, s:f, s:f}", "boundary", "Lan-DeMets alpha spending, "
		"O'Brien-Fleming type", "min_rounds", (int)c->seq.min_rounds, "max_rounds",
		(int)c->seq.max_rounds, "rounds", (int)c->nrounds, "final_look", c->seq.final,
		"level_difference", c->level_diff, "level_equivalence", c->level_eq));
	json_object_set_new(m, "blocked", json_boolean(c->blocked));
	if (c->blocked) {
		json_object_set_new(m, "name", json_string("blocked"));
		json_object_set_new(m, "test", json_string("t-test on the blocked model: log value ~ "
							   "label + round, least squares, residual "
							   "pooled over every label"));
		json_object_set_new(m, "lab_id", json_string(c->lab_id));
		json_object_set_new(m, "rounds", json_integer(c->nrounds));
	}
	return m;
}

json_t *report_json(const struct compare *c, const struct report_opts *o)
{
	json_t *root, *sum = json_array(), *charts = json_array(), *warn = json_array();
	char *title = report_title(c, o);
	struct strvec sentences = STRVEC_INIT;
	struct sizing_opts defaults;

	sizing_opts_default(&defaults);
	report_summary(c, &sentences);
	for (size_t i = 0; i < sentences.nr; i++)
		json_array_append_new(sum, jstr(sentences.v[i]));
	strvec_clear(&sentences);
	for (size_t i = 0; o->charts && i < o->charts->n; i++)
		json_array_append_new(charts, json_string(o->charts->charts[i].name));
	for (size_t i = 0; i < c->warnings.nr; i++)
		json_array_append_new(warn, jstr(c->warnings.v[i]));
	root = json_pack("{s:s, s:o, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "schema", COMPARE_SCHEMA, "title", jstr(title), "fslab_version", FSLAB_VERSION,
			 "method", method_json(c),
			 "baseline", c->groups[c->baseline].label, "groups", groups_json(c),
			 "warnings", warn, "rows", json_rows(c), "sweeps", sweeps_json(c),
			 "summary", sum,
			 "sizing", report_sizing_json(c, o->sizing ? o->sizing : &defaults),
			 "charts", charts, "charts_skipped",
			 o->charts && o->charts->skipped ? json_string(o->charts->skipped)
							 : json_null());
	json_object_set_new(root, "noise", noise_json(c, o));
	json_object_set_new(root, "adaptive", o->stop_note ? json_pack("{s:s, s:o}", "stop_reason",
		o->stop_note, "precision_pct", o->precision_pct > 0 ? json_real(o->precision_pct)
								    : json_null()) : json_null());
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
		bool low;
		double plan = compare_sizing_iops(c, g, &low);
		json_t *mb;

		if (c->groups[g].aborted)
			continue; /* aborted runs are not sized (and nothing was allocated for them) */
		mb = json_array();
		for (size_t p = 0; p < s->nprofiles; p++)
			json_array_append_new(mb, json_integer((json_int_t)MIN(sizing_mailboxes(
				s, s->profiles[p], plan), (uint64_t)INT64_MAX)));
		{
			const struct run_config *cf = &c->results[c->groups[g].runs[0]].config;

			/* at_limit: a tuned label's capacity (planned_iops: the lower end of its
			 * interval), not what a thread count given achieved */
			json_array_append_new(labels, json_pack("{s:s, s:o, s:o, s:o, s:b, s:o}",
				"label", c->groups[g].label, "transactional_iops",
				jnum(iops->cells[g].s.mean), "mailboxes", mb, "target_iops",
				cf->target_iops > 0 ? json_real(cf->target_iops) : json_null(),
				"at_limit", c->groups[g].tuned, "planned_iops", jnum(plan)));
		}
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
	      "iops_per_mailbox,mailboxes,at_limit,planned_iops\n", f);
	for (size_t g = 0; g < c->ngroups; g++) {
		bool low;
		double plan = compare_sizing_iops(c, g, &low);

		if (c->groups[g].aborted)
			continue;
		for (size_t p = 0; p < s->nprofiles; p++) {
			csv_field(f, c->groups[g].label, false);
			fprintf(f, "%.10g,%llu,%g,%g,%.10g,%llu,%s,%.10g\n", iops->cells[g].s.mean,
				(unsigned long long)s->profiles[p], s->iops_per_message,
				s->overhead_pct, sizing_iops_per_mailbox(s, s->profiles[p]),
				(unsigned long long)sizing_mailboxes(s, s->profiles[p], plan),
				c->groups[g].tuned ? "yes" : "no", plan);
		}
	}
}
