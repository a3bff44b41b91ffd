// SPDX-License-Identifier: MIT
/* hosts_section.c: cluster results (fslab merge) host by host in a comparison: the model (hosts_section.h)
 * and the report's "Hosts" section (the charts are plot.c's). */
#include "compare/hosts_section.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/reportP.h"

static size_t name_index(struct cmp_hosts *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->names[i], name))
			return i;
	h->names = xrealloc(h->names, (h->n + 1) * sizeof(char *));
	h->names[h->n] = (char *)name;
	return h->n++;
}

/* the values of one host over a group's runs, then their samples */
struct acc {
	double *v[6];
	size_t n;
};

void compare_hosts_build(const struct compare *c, struct cmp_hosts *h)
{
	struct acc *acc;

	memset(h, 0, sizeof(*h));
	h->clock_limit_s = NAN;
	for (size_t i = 0; i < c->nresults; i++)
		for (size_t k = 0; k < c->results[i].nhosts; k++)
			if (c->results[i].hosts[k].name)
				name_index(h, c->results[i].hosts[k].name);
	if (!h->n)
		return;
	h->cells = xcalloc(c->ngroups * h->n, sizeof(*h->cells));
	h->start_spread_s = xcalloc(c->ngroups, sizeof(double));
	h->clock_spread_s = xcalloc(c->ngroups, sizeof(double));
	h->partial = xcalloc(c->ngroups, sizeof(size_t));
	acc = xcalloc(c->ngroups * h->n, sizeof(*acc));
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];

		h->start_spread_s[g] = h->clock_spread_s[g] = NAN;
		for (size_t r = 0; r < grp->nruns; r++) {
			const struct fslab_result *res = &c->results[grp->runs[r]];
			const struct cluster_info *ci = &res->cluster;

			if (!ci->present)
				continue;
			h->partial[g] += ci->partial;
			if (!isnan(ci->start_spread_s))
				h->start_spread_s[g] = isnan(h->start_spread_s[g]) ? ci->start_spread_s :
						       fmax(h->start_spread_s[g], ci->start_spread_s);
			if (!isnan(ci->clock_spread_s))
				h->clock_spread_s[g] = isnan(h->clock_spread_s[g]) ? ci->clock_spread_s :
						       fmax(h->clock_spread_s[g], ci->clock_spread_s);
			if (ci->clock_limit_s > 0)
				h->clock_limit_s = ci->clock_limit_s;
			for (size_t k = 0; k < res->nhosts; k++) {
				const struct host_member *m = &res->hosts[k];
				size_t hi;
				struct cmp_host_cell *cell;
				struct acc *a;
				const double v[6] = {
					m->transactional_iops,
					m->classes[CLS_DB_READ].ops ? m->classes[CLS_DB_READ].lat_us.mean / 1e3 : NAN,
					m->classes[CLS_DB_READ].ops ? m->classes[CLS_DB_READ].lat_us.p99 / 1e3 : NAN,
					m->classes[CLS_LOG_WRITE].ops ? m->classes[CLS_LOG_WRITE].lat_us.mean / 1e3 : NAN,
					m->start_offset_s * 1e3, m->clock_offset_s * 1e3,
				};

				if (!m->name)
					continue;
				hi = name_index(h, m->name);
				cell = &h->cells[g * h->n + hi];
				a = &acc[g * h->n + hi];
				cell->runs++;
				if (!m->status || strcmp(m->status, "ok"))
					continue;
				cell->ok++;
				if (m->verdict)
					*(strcmp(m->verdict, "PASS") ? &cell->fail : &cell->pass) += 1;
				for (int j = 0; j < 6; j++) {
					a->v[j] = xrealloc(a->v[j], (a->n + 1) * sizeof(double));
					a->v[j][a->n] = v[j];
				}
				a->n++;
			}
		}
	}
	for (size_t i = 0; i < c->ngroups * h->n; i++) {
		struct cmp_host_cell *cell = &h->cells[i];
		struct sample *s[6] = { &cell->iops, &cell->db_read_ms, &cell->db_read_p99_ms,
					&cell->log_write_ms, &cell->start_ms, &cell->offset_ms };

		for (int j = 0; j < 6; j++) {
			stats_sample(acc[i].v[j], acc[i].n, s[j]);
			free(acc[i].v[j]);
		}
	}
	free(acc);
}

void compare_hosts_release(struct cmp_hosts *h)
{
	free(h->names);
	free(h->cells);
	free(h->start_spread_s);
	free(h->clock_spread_s);
	free(h->partial);
	memset(h, 0, sizeof(*h));
}

/* "1234" or "1234 ± 56" from a sample, with prec decimals; "-" without values */
static void cell_text(struct doc_table *t, size_t r, size_t col, const struct sample *s,
		      int prec)
{
	if (!s->n || !isfinite(s->mean))
		doc_table_set(t, r, col, "-");
	else if (s->n > 1 && isfinite(s->half))
		doc_table_set(t, r, col, "%.*f ± %.*f", prec, s->mean, prec, s->half);
	else
		doc_table_set(t, r, col, "%.*f", prec, s->mean);
}

/*
 * The Hosts tables: one row per label and host, in two tables so that each fits the page:
 * the load (IOPS, how far from the label's hosts, verdicts), then latencies and starts.
 * Label and Host lead both.
 */
enum { HT_LOAD, HT_TIMES, HT_N };

static struct doc_table *hosts_table(int which)
{
	static const char *const head[HT_N][6] = {
		{ "Label", "Host", "Runs", "Transactional IOPS", "vs the label's hosts", "Verdict" },
		{ "Label", "Host", "DB read avg (ms)", "DB read p99 (ms)", "Log write avg (ms)",
		  "Start (ms after the first)" },
	};
	struct doc_table *t = doc_table_new(which == HT_LOAD ? 6 : 7, true);

	for (size_t i = 0; i < 6; i++)
		doc_table_set(t, 0, i, "%s", head[which][i]);
	/* words, read left to right: the host, the verdict */
	t->text_cols = UINT64_C(1) << 1 | (which == HT_LOAD ? UINT64_C(1) << 5 : 0);
	if (which == HT_TIMES)
		doc_table_set(t, 0, 6, "Clock offset (ms)");
	return t;
}

/* Per label: how close together its hosts started and how far their clocks were apart;
 * its partial runs. */
static void spread_items(struct doc *d, const struct compare *c, const struct cmp_hosts *h)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		double lim = isnan(h->clock_limit_s) ? 0.5 : h->clock_limit_s;
		char clk[48];

		if (isnan(h->clock_spread_s[g]))
			snprintf(clk, sizeof(clk), "not measured");
		else
			snprintf(clk, sizeof(clk), "within %.1f ms", h->clock_spread_s[g] * 1e3);
		if (!isnan(h->start_spread_s[g]))
			doc_item(d, "%s: loads started within %.1f ms (the largest spread of its runs), "
				 "clocks %s (limit %.0f ms)%s", c->groups[g].label,
				 h->start_spread_s[g] * 1e3, clk, lim * 1e3,
				 h->start_spread_s[g] > lim || h->clock_spread_s[g] > lim ?
				 ": WARNING, above the limit: the hosts did not run together for the "
				 "whole measurement, or their clocks disagree (run chrony or NTP)" : "");
		if (h->partial[g])
			doc_item(d, "%s: %zu partial run(s): a host was missing or failed; those runs "
				 "are not full clusters (marked ABORTED above)", c->groups[g].label,
				 h->partial[g]);
	}
}

/* A host's verdicts over its runs in column col of row r. */
static void verdict_cell(struct doc_table *t, size_t r, size_t col,
			 const struct cmp_host_cell *cell)
{
	if (!cell->ok)
		doc_table_set(t, r, col, "no result");
	else if (!cell->pass && !cell->fail)
		doc_table_set(t, r, col, "-");
	else if (!cell->fail)
		doc_table_set(t, r, col, "PASS");
	else
		doc_table_set(t, r, col, "FAIL in %zu of %zu", cell->fail, cell->pass + cell->fail);
}

void report_hosts(struct doc *d, const struct compare *c, int level)
{
	struct cmp_hosts h;
	struct doc_table *t[HT_N];

	compare_hosts_build(c, &h);
	if (!h.n) {
		compare_hosts_release(&h);
		return;
	}
	doc_heading(d, level, "Hosts");
	doc_para(d, "Each label's results are cluster results (fslab merge): every member host ran "
		 "the same cell at once, and the label's numbers above are the cluster's (operations "
		 "summed, percentiles from the hosts' merged histograms). Host by host, over the "
		 "label's runs (mean ± 95 %% interval with several runs): a host far below its "
		 "label's mean is a straggler, and the cluster's total is held back by it. Starts and "
		 "clock offsets are on the lab machine's clock.");
	spread_items(d, c, &h);
	for (int k = 0; k < HT_N; k++)
		t[k] = hosts_table(k);
	for (size_t g = 0; g < c->ngroups; g++) {
		double sum = 0;
		size_t nh = 0;

		for (size_t k = 0; k < h.n; k++) {
			const struct cmp_host_cell *cell = cmp_host_cell(&h, g, k);

			if (cell->ok && isfinite(cell->iops.mean)) {
				sum += cell->iops.mean;
				nh++;
			}
		}
		for (size_t k = 0; k < h.n; k++) {
			const struct cmp_host_cell *cell = cmp_host_cell(&h, g, k);
			size_t r, q;

			if (!cell->runs)
				continue;
			r = doc_table_row(t[HT_LOAD]);
			q = doc_table_row(t[HT_TIMES]);
			doc_table_set(t[HT_LOAD], r, 0, "%s", c->groups[g].label);
			doc_table_set(t[HT_LOAD], r, 1, "%s", h.names[k]);
			doc_table_set(t[HT_TIMES], q, 0, "%s", c->groups[g].label);
			doc_table_set(t[HT_TIMES], q, 1, "%s", h.names[k]);
			if (cell->ok == cell->runs)
				doc_table_set(t[HT_LOAD], r, 2, "%zu", cell->runs);
			else
				doc_table_set(t[HT_LOAD], r, 2, "%zu of %zu", cell->ok, cell->runs);
			cell_text(t[HT_LOAD], r, 3, &cell->iops, 0);
			if (nh && cell->ok && sum > 0 && isfinite(cell->iops.mean)) {
				double pct = (cell->iops.mean / (sum / nh) - 1) * 100;

				doc_table_set(t[HT_LOAD], r, 4, "%+.1f %%", pct);
				/* a straggler: 10 % below the label's hosts */
				if (pct <= -10) {
					doc_table_strong(t[HT_LOAD], r, 1);
					doc_table_strong(t[HT_LOAD], r, 4);
					doc_table_strong(t[HT_TIMES], q, 1);
				}
			} else {
				doc_table_set(t[HT_LOAD], r, 4, "-");
			}
			verdict_cell(t[HT_LOAD], r, 5, cell);
			cell_text(t[HT_TIMES], q, 2, &cell->db_read_ms, 3);
			cell_text(t[HT_TIMES], q, 3, &cell->db_read_p99_ms, 3);
			cell_text(t[HT_TIMES], q, 4, &cell->log_write_ms, 3);
			cell_text(t[HT_TIMES], q, 5, &cell->start_ms, 1);
			cell_text(t[HT_TIMES], q, 6, &cell->offset_ms, 2);
		}
	}
	for (int k = 0; k < HT_N; k++) {
		doc_table(d, t[k]);
		doc_table_free(t[k]);
	}
	compare_hosts_release(&h);
}
