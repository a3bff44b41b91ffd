// SPDX-License-Identifier: MIT
/*
 * comparable.c: which results may be compared, from the option table of fslab run
 * (src/run/options.c): every option says whether it shapes the load (results must agree),
 * describes the run (may differ) or is a sweep axis (may differ between labels, not between
 * repeats of one).  The comparability guard (load.c) and the Method text (setup.c) both ask
 * here; neither lists fields by hand.  A value a result does not record (an imported report,
 * an older fslab; run_config_has()) is never compared: the Method says who does not record
 * what.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/compareP.h"
#include "run/options.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/units.h"

/* Is o (ROF_AUTO) "auto" in c?  Not recorded: not auto (a run at a fixed count). */
static bool auto_of(const struct run_option *o, const struct run_config *c)
{
	return run_config_has(c, o->off_n) && *(const bool *)((const char *)c + o->off_n);
}

/* Does o's value agree in a and b?  (Both record it.) */
static bool same(const struct run_option *o, const struct run_config *a,
		 const struct run_config *b)
{
	const void *x = run_option_value(o, a), *y = run_option_value(o, b);

	/* --threads auto: the count is the tuner's, the word is what both must say */
	if ((o->flags & ROF_AUTO) && (auto_of(o, a) || auto_of(o, b)))
		return auto_of(o, a) == auto_of(o, b);
	switch (o->type) {
	case ROT_UINT:
		if (o->size == sizeof(unsigned int))
			return *(const unsigned int *)x == *(const unsigned int *)y;
		return *(const uint64_t *)x == *(const uint64_t *)y;
	case ROT_SIZE:
		return *(const uint64_t *)x == *(const uint64_t *)y;
	case ROT_TIME:
	case ROT_REAL: {
		double u = *(const double *)x, v = *(const double *)y;

		/* --warmup steady against a time: its bool decides too */
		if ((o->flags & ROF_STEADY) && *(const bool *)((const char *)a + o->off_n) !=
						*(const bool *)((const char *)b + o->off_n))
			return false;
		return u == v || (isnan(u) && isnan(v));
	}
	case ROT_FLAG:
		return *(const bool *)x == *(const bool *)y;
	case ROT_STR:
	case ROT_CHOICE: {
		const char *u = *(char *const *)x, *v = *(char *const *)y;

		return u == v || (u && v && !strcmp(u, v));
	}
	case ROT_DIRS:
		break;
	}
	return true;
}

static char *compare_option_text(const struct run_option *o, const struct run_config *c)
{
	const void *x = run_option_value(o, c);
	char buf[32];

	if ((o->flags & ROF_AUTO) && auto_of(o, c))
		return xstrdup("auto");
	switch (o->type) {
	case ROT_UINT:
		return xasprintf("%llu", o->size == sizeof(unsigned int)
					 ? (unsigned long long)*(const unsigned int *)x
					 : (unsigned long long)*(const uint64_t *)x);
	case ROT_SIZE:
		/* sizes that are no whole unit also in bytes: 41.0 MiB may be two values */
		fmt_size(buf, sizeof(buf), *(const uint64_t *)x);
		return strchr(buf, '.') ? xasprintf("%s (%llu B)", buf,
						    (unsigned long long)*(const uint64_t *)x)
					: xstrdup(buf);
	case ROT_TIME:
		if ((o->flags & ROF_STEADY) && *(const bool *)((const char *)c + o->off_n))
			return xstrdup("steady");
		return xasprintf("%gs", *(const double *)x);
	case ROT_REAL:
		return xasprintf("%g", *(const double *)x);
	case ROT_FLAG:
		return xstrdup(*(const bool *)x ? "yes" : "no");
	case ROT_STR:
	case ROT_CHOICE:
		return xstrdup(*(char *const *)x ? *(char *const *)x : "none");
	case ROT_DIRS:
		break;
	}
	return xstrdup("?");
}

/* Is option o compared between these two results?  Its mark, and both record it. */
static bool compared(const struct run_option *o, enum run_opt_cmp cmp,
		     const struct run_config *a, const struct run_config *b)
{
	return o->cmp == cmp && run_config_has(a, o->off) && run_config_has(b, o->off);
}

static char *diff_of(const struct fslab_result *r, const struct fslab_result *ref,
		     enum run_opt_cmp cmp)
{
	struct strbuf out = STRBUF_INIT;

	for (size_t i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];
		char *va, *vb;

		if (!compared(o, cmp, &r->config, &ref->config) ||
		    same(o, &r->config, &ref->config))
			continue;
		va = compare_option_text(o, &r->config);
		vb = compare_option_text(o, &ref->config);
		strbuf_add_sep(&out, ", ");
		strbuf_addf(&out, "%s %s vs %s", o->name, va, vb);
		free(va);
		free(vb);
	}
	return strbuf_detach_or_null(&out);
}

char *compare_load_diff(const struct fslab_result *r, const struct fslab_result *ref)
{
	struct strbuf out = STRBUF_INIT;
	char *d = diff_of(r, ref, ROC_LOAD);

	if (d)
		strbuf_addstr(&out, d);
	free(d);
	/* a load at the tuner's count against one at a count given: capacity against a fixed
	 * load, never like with like (between labels too, unlike two counts) */
	for (size_t i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];

		if (!(o->flags & ROF_AUTO) || auto_of(o, &r->config) == auto_of(o, &ref->config))
			continue;
		strbuf_add_sep(&out, ", ");
		strbuf_addf(&out, "%s %s vs %s", o->name, auto_of(o, &r->config) ? "auto" : "a count",
			    auto_of(o, &ref->config) ? "auto" : "a count");
	}
	return strbuf_detach_or_null(&out);
}

char *compare_sweep_diff(const struct fslab_result *r, const struct fslab_result *first)
{
	return diff_of(r, first, ROC_SWEEP);
}

char *compare_load_options(const struct compare *c)
{
	struct strbuf out = STRBUF_INIT;

	for (size_t i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];
		bool any = !c || !(o->flags & ROF_TUNE);

		/* the tuner's settings count only where a result was tuned (runs at a fixed count
		 * never record them) */
		for (size_t k = 0; k < (c ? c->nresults : 0) && !any; k++)
			any = run_config_tuned(&c->results[k].config);
		if (o->cmp == ROC_LOAD && any) {
			strbuf_add_sep(&out, ", ");
			strbuf_addstr(&out, o->name);
		}
	}
	return strbuf_detach_or_null(&out);
}

/* The values of o in group g's runs, distinct ones joined by '/' (heap). */
static char *group_values(const struct compare *c, size_t g, const struct run_option *o)
{
	const struct cmp_group *grp = &c->groups[g];
	struct strbuf out = STRBUF_INIT;

	for (size_t k = 0; k < grp->nruns; k++) {
		const struct run_config *rc = &c->results[grp->runs[k]].config;
		bool dup = false;
		char *val;

		if (!run_config_has(rc, o->off))
			continue;
		for (size_t j = 0; j < k && !dup; j++) {
			const struct run_config *pc = &c->results[grp->runs[j]].config;

			dup = run_config_has(pc, o->off) && same(o, rc, pc);
		}
		if (dup)
			continue;
		val = compare_option_text(o, rc);
		strbuf_add_sep(&out, "/");
		strbuf_addstr(&out, val);
		free(val);
	}
	return strbuf_detach_or_null(&out);
}

void compare_method_differences(const struct compare *c, struct strvec *out)
{
	for (size_t i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];
		struct strbuf line = STRBUF_INIT;
		bool differs = false;

		if (o->cmp != ROC_LOAD)
			continue;
		/* the results that record it: do they agree? */
		for (size_t a = 0; a < c->nresults && !differs; a++)
			for (size_t b = 0; b < a && !differs; b++)
				differs = compared(o, ROC_LOAD, &c->results[a].config,
						   &c->results[b].config) &&
					  !same(o, &c->results[a].config, &c->results[b].config);
		if (!differs)
			continue;
		for (size_t g = 0; g < c->ngroups; g++) {
			char *val = group_values(c, g, o);

			if (val) {
				strbuf_add_sep(&line, ", ");
				strbuf_addf(&line, "%s %s", c->groups[g].label, val);
			}
			free(val);
		}
		strvec_pushf(out, "%s: %s", o->name, line.len ? line.buf : "-");
		strbuf_release(&line);
	}
}

void compare_method_unrecorded(const struct compare *c, struct strvec *out)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];
		struct strbuf line = STRBUF_INIT;

		for (size_t i = 0; i < RO_NR; i++) {
			const struct run_option *o = &run_options[i];
			bool here = true, elsewhere = false;

			if (o->cmp != ROC_LOAD)
				continue;
			for (size_t k = 0; k < grp->nruns; k++)
				here = here && run_config_has(&c->results[grp->runs[k]].config, o->off);
			/* not recorded here but by another result: it could not be compared */
			for (size_t k = 0; k < c->nresults && !here && !elsewhere; k++)
				elsewhere = run_config_has(&c->results[k].config, o->off);
			if (!here && elsewhere) {
				strbuf_add_sep(&line, ", ");
				strbuf_addstr(&line, o->name);
			}
		}
		if (line.len)
			strvec_pushf(out, "%s (%s): %s", grp->label,
				     compare_tool(&c->results[grp->runs[0]]), line.buf);
		strbuf_release(&line);
	}
}
