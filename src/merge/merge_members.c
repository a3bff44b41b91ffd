// SPDX-License-Identifier: MIT
/* merge_members.c: a cluster result's members (one entry per host: status, start, clock),
 * their load starts on the controller's clock, the environment and the notes. */
#include "merge/mergeP.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/strbuf.h"
#include "lib/units.h"
#include "lib/utctime.h"

static double parse_or_nan(const char *s, int64_t *ns)
{
	return s && !utc_parse(s, ns) ? 0 : NAN;
}

void merge_member_entry(struct merge *mg, struct member *m, struct host_member *h)
{
	const struct fslab_result *r = &m->r;
	int64_t a, b;

	h->name = xstrdup(m->in->name);
	h->status = xstrdup(m->status);
	h->reason = m->why ? xstrdup(m->why) : NULL;
	h->file = m->in->file ? xstrdup(m->in->file) : NULL;
	h->sha256 = m->has_sha ? xstrdup(m->sha256) : NULL;
	h->clock_offset_s = m->in->offset_s;
	h->clock_rtt_s = m->in->rtt_s;
	h->start_delay_s = h->start_offset_s = h->duration_s = h->transactional_iops = NAN;
	if (!m->loaded || (!m->complete && strcmp(m->status, "aborted")))
		return;
	if (json_is_string(json_object_get(r->environment, "hostname")))
		h->hostname = xstrdup(json_string_value(json_object_get(r->environment, "hostname")));
	h->start_at = r->start_at ? xstrdup(r->start_at) : NULL;
	h->load_started_at = r->load_started_at ? xstrdup(r->load_started_at) : NULL;
	h->measure_started_at = r->measure_started_at ? xstrdup(r->measure_started_at) : NULL;
	if (!isnan(parse_or_nan(r->start_at, &a)) && !isnan(parse_or_nan(r->load_started_at, &b)))
		h->start_delay_s = (b - a) / 1e9;
	if (m->has_ctrl_start)
		h->start_offset_s = (m->ctrl_start_ns - mg->t0_start_ns) / 1e9;
	h->duration_s = r->duration_s;
	h->transactional_iops = r->transactional_iops;
	merge_copy_classes_nohist(h->classes, r->classes);
	h->verdict = r->verdict.present ? xstrdup(r->verdict.pass ? "PASS" : "FAIL") : NULL;
	if (r->ndevices) {
		h->devices = xcalloc(r->ndevices, sizeof(*h->devices));
		for (size_t k = 0; k < r->ndevices; k++)
			merge_copy_device(&h->devices[h->ndevices++], &r->devices[k]);
	}
}

/*
 * Load starts on the controller's clock: each host's own time minus its measured offset (0
 * when not measured: then its clock is taken as right).  Spread = latest - earliest.
 */
void merge_starts(struct merge *mg)
{
	struct cluster_info *ci = &mg->out->cluster;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	double olo = INFINITY, ohi = -INFINITY;

	for (size_t i = 0; i < mg->n; i++) {
		struct member *m = &mg->m[i];
		double off = isnan(m->in->offset_s) ? 0 : m->in->offset_s;
		int64_t t;

		if (!isnan(m->in->offset_s)) {
			olo = fmin(olo, m->in->offset_s);
			ohi = fmax(ohi, m->in->offset_s);
		}
		if (!m->complete || !m->r.load_started_at || utc_parse(m->r.load_started_at, &t))
			continue;
		m->ctrl_start_ns = t - (int64_t)llround(off * 1e9);
		m->has_ctrl_start = true;
		lo = MIN(lo, m->ctrl_start_ns);
		hi = MAX(hi, m->ctrl_start_ns);
	}
	mg->t0_start_ns = lo;
	ci->start_spread_s = lo <= hi ? (hi - lo) / 1e9 : NAN;
	ci->clock_spread_s = olo <= ohi ? ohi - olo : NAN;
}

void merge_environment(struct merge *mg, const struct fslab_result *first)
{
	struct fslab_result *out = mg->out;
	struct strbuf names = STRBUF_INIT;
	json_t *hosts = json_array();

	out->environment = json_deep_copy(first->environment);
	if (!json_is_object(out->environment)) {
		json_decref(out->environment);
		out->environment = json_object();
	}
	for (size_t i = 0; i < mg->n; i++) {
		const struct member *m = &mg->m[i];
		const char *hn = json_string_value(json_object_get(m->r.environment, "hostname"));

		json_array_append_new(hosts, json_string(m->in->name));
		if (!m->complete)
			continue;
		strbuf_addf(&names, "%s%s", names.len ? ", " : "", hn ? hn : m->in->name);
	}
	json_object_set_new(out->environment, "hostname", json_string(names.buf));
	json_object_set_new(out->environment, "cluster_hosts", hosts);
	strbuf_release(&names);
}

void merge_notes(struct merge *mg)
{
	struct fslab_result *out = mg->out;
	const struct cluster_info *ci = &out->cluster;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < mg->n; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", mg->m[i].in->name);
	result_add_note(out, "cluster result of %zu hosts (%s): operations and bytes summed, "
			"latency percentiles from the hosts' histograms summed bucket by bucket, "
			"timelines aligned on %s", mg->n, sb.buf,
			strcmp(ci->timeline, "wall-clock") ? "the second index (a host's result has no "
			"measure_started_at, or the starts are more than a day apart)"
			: "the wall clock (second 1 = the earliest host's first)");
	strbuf_release(&sb);
	if (ci->partial) {
		for (size_t i = 0; i < mg->n; i++)
			if (!mg->m[i].complete)
				strbuf_addf(&sb, "%s%s: %s (%s)", sb.len ? "; " : "", mg->m[i].in->name,
					    mg->m[i].status, mg->m[i].why);
		result_add_note(out, "PARTIAL: %u of %u hosts have a complete result, the sums are of "
				"those only: not a full cluster (%s)", ci->complete, ci->hosts, sb.buf);
		strbuf_release(&sb);
	}
	if (ci->clock_spread_s > ci->clock_limit_s)
		result_add_note(out, "the hosts' clocks disagree by %.3f s, more than the %.3f s "
				"limit: synchronise them (chrony or NTP on every host) before trusting "
				"the start times", ci->clock_spread_s, ci->clock_limit_s);
	if (ci->start_spread_s > ci->clock_limit_s)
		result_add_note(out, "the hosts' loads started %.3f s apart (limit %.3f s): they did "
				"not run together for the whole measurement", ci->start_spread_s,
				ci->clock_limit_s);
	for (size_t i = 0; i < mg->n; i++) {
		const struct member *m = &mg->m[i];
		size_t k;
		json_t *v;

		if (!m->complete)
			continue;
		json_array_foreach(m->r.notes, k, v)
			if (json_is_string(v))
				result_add_note(out, "%s: %s", m->in->name, json_string_value(v));
	}
}
