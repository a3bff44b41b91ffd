// SPDX-License-Identifier: MIT
/* text_cells.c: the text cells of the table model (runs, threads, tool, mismatch, cache, steady
 * state, load shape, verdict): what a group's runs say in words rather than a number. */
#include "compare/compareP.h"

#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/strbuf.h"

static char *verdict_text(const struct compare *c, const struct cmp_group *g)
{
	struct strbuf names = STRBUF_INIT;
	size_t nfail = 0, nverdict = 0;
	const char *failed;
	char *out;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct verdict *v = &c->results[g->runs[i]].verdict;

		if (!v->present)
			continue;
		nverdict++;
		nfail += !v->pass;
		for (size_t k = 0; k < v->nchecks; k++) {
			const char *n = v->checks[k].name;

			if (v->checks[k].pass || strstr(names.buf, n))
				continue;
			strbuf_add_sep(&names, ", ");
			strbuf_addstr(&names, n);
		}
	}
	failed = names.len ? names.buf : "see the verdict";
	if (!nverdict)
		out = xstrdup("no verdict");
	else if (!nfail)
		out = xstrdup("PASS");
	else if (nfail == nverdict)
		out = xasprintf("FAIL (%s)", failed);
	else
		out = xasprintf("FAIL in %zu of %zu runs (%s)", nfail, nverdict, failed);
	strbuf_release(&names);
	return out;
}

void compare_find_cache(const struct compare *c, struct cmp_group *g)
{
	for (size_t i = 0; i < g->nruns; i++) {
		const struct device_result *d = compare_device(&c->results[g->runs[i]], "db");

		if (d && d->cache_served_reads && !g->cache_served) {
			g->cache_served = true;
			g->read_ratio = d->read_ratio;
		}
	}
}

static char *cache_text(const struct compare *c, const struct cmp_group *g)
{
	size_t yes = 0, known = 0;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct device_result *d = compare_device(&c->results[g->runs[i]], "db");

		known += d != NULL;
		yes += d && d->cache_served_reads;
	}
	if (!known)
		return xstrdup("-");
	if (!yes)
		return xstrdup("no");
	if (yes == known)
		return xasprintf("YES (device read ratio %.2f)", g->read_ratio);
	return xasprintf("YES in %zu of %zu runs", yes, known);
}

char *compare_text_cell(const struct compare *c, const struct cmp_group *g,
			const struct metric_def *m)
{
	switch (m->kind) {
	case MK_RUNS:
		return g->aborted ? xasprintf("%zu ABORTED", g->nruns) : xasprintf("%zu", g->nruns);
	case MK_THREADS:
		return g->tuned ? compare_tuned_threads_text(c, g) : xasprintf("%u", g->threads);
	case MK_TOOL:
		return compare_tool_text(&c->results[g->runs[0]]);
	case MK_MISMATCH:
		return xstrdup(g->mismatch ? g->mismatch : "-");
	case MK_CACHE:
		return cache_text(c, g);
	case MK_STEADY:
		return compare_steady_text(c, g);
	case MK_SHAPE:
		return compare_shape_text(c, g);
	default:
		return verdict_text(c, g);
	}
}
