// SPDX-License-Identifier: MIT
/*
 * qualify.c: a lab's qualification runs ([lab] qualify; their cell ids end in "-qualify"):
 * Jetstress's own way to judge storage, one long run per filesystem and its pass/fail
 * verdict.  One run per label is no comparison, so they are set aside from it (no group, no
 * comparability guard: they are longer by design) and each verdict is reported on its own.
 */
#include "compare/compareP.h"

#include <string.h>

#include "lib/base.h"
#include "compare/reportP.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

bool compare_is_qualification(const struct fslab_result *r)
{
	size_t n = r->lab.cell ? strlen(r->lab.cell) : 0;

	return r->lab.id && n > 8 && !strcmp(r->lab.cell + n - 8, "-qualify");
}

void compare_split_quals(struct compare *c)
{
	size_t nq = 0;

	for (size_t i = 0; i < c->nresults; i++)
		nq += compare_is_qualification(&c->results[i]);
	/* only qualification runs: they are what there is to show, compared as ever */
	if (!nq || nq == c->nresults)
		return;
	c->quals = xcalloc(nq, sizeof(size_t));
	for (size_t i = 0; i < c->nresults; i++)
		if (compare_is_qualification(&c->results[i]))
			c->quals[c->nquals++] = i;
}

bool compare_is_qual_index(const struct compare *c, size_t i)
{
	for (size_t k = 0; k < c->nquals; k++)
		if (c->quals[k] == i)
			return true;
	return false;
}

/* A check that failed, in words: "db_read_avg_latency 23.1 ms (limit 20 ms)". */
static void failed_checks(const struct verdict *v, struct strbuf *sb)
{
	for (size_t k = 0; k < v->nchecks; k++) {
		const struct verdict_check *ck = &v->checks[k];

		if (ck->pass || (ck->scope && strcmp(ck->scope, "overall")))
			continue;
		strbuf_add_sep(sb, "; ");
		strbuf_addf(sb, "%s %.3g %s (limit %g %s)", ck->name, ck->value,
			    ck->unit ? ck->unit : "", ck->limit, ck->unit ? ck->unit : "");
	}
}

void report_qualification(struct doc *d, const struct compare *c)
{
	doc_para(d, "Jetstress qualifies storage with one long run of the load and a pass/fail "
		 "verdict on its latencies and stalls. That is a statement about this storage "
		 "under this load, not a comparison: one run per filesystem cannot say which is "
		 "faster (the answer above, from the lab's rounds, does). Each filesystem label "
		 "ran it once, after the rounds.");
	for (size_t k = 0; k < c->nquals; k++) {
		const struct fslab_result *r = &c->results[c->quals[k]];
		struct strbuf fails = STRBUF_INIT;
		char *lead;

		if (!r->verdict.present) {
			doc_item_lead(d, r->label, ": no verdict (%s).", r->aborted ? "aborted" :
				      "its workload is not judged");
			continue;
		}
		failed_checks(&r->verdict, &fails);
		lead = xasprintf("%s: %s", r->label, r->verdict.pass ? "PASS" : "FAIL");
		doc_item_lead(d, lead, " after %.0f s of the load: %.0f transactional IOPS, database "
			      "reads %.2f ms and log writes %.2f ms on average%s%s.",
			      r->duration_s, r->transactional_iops,
			      r->classes[CLS_DB_READ].lat_us.mean / 1000,
			      r->classes[CLS_LOG_WRITE].lat_us.mean / 1000,
			      fails.len ? "; failed: " : "", fails.buf);
		free(lead);
		strbuf_release(&fails);
	}
}

/* "ext4 PASS, xfs FAIL" (heap, NULL when there is none). */
static char *verdicts(const struct compare *c)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < c->nquals; k++) {
		const struct fslab_result *r = &c->results[c->quals[k]];

		strbuf_add_sep(&sb, ", ");
		strbuf_addf(&sb, "%s %s", r->label, !r->verdict.present ? "no verdict" :
			    r->verdict.pass ? "PASS" : "FAIL");
	}
	return strbuf_detach_or_null(&sb);
}

void report_qualification_line(struct doc *d, const struct compare *c)
{
	char *v = verdicts(c);

	if (v)
		doc_item_lead(d, "Qualification", " (Jetstress's own test, one long run per "
			      "filesystem): %s; a verdict on each storage, not a comparison "
			      "(below).", v);
	free(v);
}

void report_qualification_sentence(const struct compare *c, struct strvec *out)
{
	char *v = verdicts(c);

	if (v)
		strvec_pushf(out, "Qualification (Jetstress's own test: one run of %.0f s per "
			     "filesystem after the rounds, a verdict on each storage, not a "
			     "comparison): %s.", c->results[c->quals[0]].duration_s, v);
	free(v);
}
