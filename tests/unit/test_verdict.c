// SPDX-License-Identifier: MIT
/* test_verdict.c: the Jetstress-style verdict on synthetic per-second timelines: latency
 * samples (full intervals, one partial sample, intervals without I/O), tolerated maximum-latency
 * errors, strict vs lenient, the opt-in per-I/O tail, page-fault stall rate and its note,
 * target IOPS, and
 * the JSON round trip of latency_samples and the new check and config fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "lib/strbuf.h"
#include "result/result.h"
#include "workloads/verdict.h"

/* A synthetic measurement: one sampler plus the whole-measurement totals it implies. */
struct scen {
	struct lat_sampler ls;
	uint64_t ops[LS_NR];
	double lat_ns[LS_NR];
	uint64_t above[LS_NR][2]; /* I/Os in seconds slower than 100 ms, 200 ms */
	uint64_t seconds;
	struct latency_series series;
	struct class_result cls[CLS_NR];
};

static void scen_init(struct scen *sc, unsigned int interval_s)
{
	memset(sc, 0, sizeof(*sc));
	lat_sampler_init(&sc->ls, interval_s);
}

/* One second: db_ops reads at db_ms each, log_ops log writes at log_ms each. */
static void second(struct scen *sc, uint64_t db_ops, double db_ms, uint64_t log_ops, double log_ms)
{
	uint64_t ops[LS_NR] = { db_ops, log_ops };
	double ms[LS_NR] = { db_ms, log_ms };
	uint64_t lat[LS_NR];

	for (int k = 0; k < LS_NR; k++) {
		lat[k] = (uint64_t)llround(ops[k] * ms[k] * 1e6);
		sc->ops[k] += ops[k];
		sc->lat_ns[k] += (double)lat[k];
		if (ms[k] > 100)
			sc->above[k][0] += ops[k];
		if (ms[k] > 200)
			sc->above[k][1] += ops[k];
	}
	sc->seconds++;
	lat_sampler_add(&sc->ls, ops, lat);
}

/* n seconds alike. */
static void seconds(struct scen *sc, unsigned int n, uint64_t db_ops, double db_ms,
		    uint64_t log_ops, double log_ms)
{
	for (unsigned int i = 0; i < n; i++)
		second(sc, db_ops, db_ms, log_ops, log_ms);
}

/* End: samples into sc->series, whole-measurement classes into sc->cls (tail counted at the
 * maximum of th). */
static void scen_finish(struct scen *sc, const struct js_thresholds *th)
{
	lat_sampler_finish(&sc->ls, "db1", &sc->series);
	memset(sc->cls, 0, sizeof(sc->cls));
	for (int k = 0; k < LS_NR; k++) {
		struct class_result *c = &sc->cls[lat_series_cls[k]];

		c->ops = sc->ops[k];
		c->lat_us.mean = sc->ops[k] ? sc->lat_ns[k] / sc->ops[k] / 1e3 : 0;
		c->ios_above_max_limit = sc->above[k][th->max_ms[k] > 100];
	}
}

static void scen_release(struct scen *sc)
{
	latency_series_release(&sc->series);
	lat_sampler_release(&sc->ls);
}

static const struct verdict_check *find(const struct verdict *v, const char *scope,
					const char *name)
{
	for (size_t i = 0; i < v->nchecks; i++)
		if (!strcmp(v->checks[i].name, name) && !strcmp(v->checks[i].scope, scope))
			return &v->checks[i];
	return NULL;
}

static void free_verdict(struct verdict *v)
{
	struct fslab_result r;

	result_init(&r);
	r.verdict = *v;
	result_release(&r);
	memset(v, 0, sizeof(*v));
}

static struct js_verdict_opts opts(const char *set, unsigned int tolerated, unsigned int interval)
{
	return (struct js_verdict_opts){ .th = js_thresholds_find(set),
					 .max_latency_errors = tolerated,
					 .interval_s = interval };
}

/* Judge sc as scope "db1" with o; the verdict into v. */
static bool judge(struct verdict *v, const struct js_verdict_opts *o, const struct scen *sc,
		  uint64_t stalls)
{
	struct js_scope_data d = { .cls = sc->cls, .samples = &sc->series,
				   .page_fault_stalls = stalls, .seconds = (double)sc->seconds };

	return js_verdict_scope(v, "db1", o, &d);
}

static void test_threshold_sets(void **state)
{
	const struct js_thresholds *s = js_thresholds_find("strict");
	const struct js_thresholds *l = js_thresholds_find("lenient");

	(void)state;
	assert_non_null(s);
	assert_non_null(l);
	assert_null(js_thresholds_find("loose"));
	assert_null(js_thresholds_find(NULL));
	assert_true(s->avg_ms[LS_DB_READ] == 20 && s->max_ms[LS_DB_READ] == 100);
	assert_true(s->avg_ms[LS_LOG_WRITE] == 10 && s->max_ms[LS_LOG_WRITE] == 100);
	assert_true(l->avg_ms[LS_DB_READ] == 20 && l->max_ms[LS_DB_READ] == 200);
	assert_true(l->avg_ms[LS_LOG_WRITE] == 10 && l->max_ms[LS_LOG_WRITE] == 200);
	assert_int_equal(JS_SAMPLE_INTERVAL_S, 15);
	assert_int_equal(JS_MAX_LATENCY_ERRORS, 6);
}

/* One 1-second 300 ms spike inside a 15 s sample otherwise at 2 ms passes the maximum check:
 * Jetstress judges the 15 s average (~21.9 ms), not single I/Os. */
static void test_spike_inside_sample(void **state)
{
	struct js_verdict_opts o = opts("strict", 6, 15);
	const struct verdict_check *c;
	struct verdict v = { 0 };
	struct scen sc;

	(void)state;
	scen_init(&sc, 15);
	seconds(&sc, 7, 100, 2, 50, 1);
	second(&sc, 100, 300, 50, 1);
	seconds(&sc, 7, 100, 2, 50, 1);
	seconds(&sc, 45, 100, 2, 50, 1); /* 60 s: 4 samples */
	scen_finish(&sc, o.th);
	assert_int_equal(sc.series.n[LS_DB_READ], 4);
	assert_int_equal(sc.series.n[LS_LOG_WRITE], 4);
	assert_true(fabs(sc.series.avg_ms[LS_DB_READ][0] - (14 * 2 + 300) / 15.0) < 1e-9);
	assert_true(fabs(sc.series.avg_ms[LS_DB_READ][1] - 2) < 1e-9);

	assert_true(judge(&v, &o, &sc, 0));
	assert_int_equal(v.nchecks, 7); /* 2 x (avg, max), stalls, io and checksum errors */
	c = find(&v, "db1", "db_read_max_latency");
	assert_non_null(c);
	assert_true(c->pass);
	assert_true(fabs(c->value - 21.8667) < 1e-3); /* the highest sample average */
	assert_true(c->limit == 100);
	assert_string_equal(c->unit, "ms");
	assert_string_equal(c->rule, "samples above limit <= 6");
	assert_string_equal(c->note, "0 of 4 samples (15 s averages) above 100 ms; 6 tolerated");
	c = find(&v, "db1", "db_read_avg_latency");
	assert_true(c->pass && c->limit == 20 && fabs(c->value - (59 * 2 + 300) / 60.0) < 1e-9);
	assert_string_equal(c->rule, "avg <= limit");
	assert_null(find(&v, "db1", "db_read_io_tail"));
	free_verdict(&v);

	/* the 100 single I/Os at 300 ms stay information, unless --strict-io-tail */
	assert_int_equal(sc.cls[CLS_DB_READ].ios_above_max_limit, 100);
	o.strict_io_tail = true;
	assert_false(judge(&v, &o, &sc, 0));
	assert_int_equal(v.nchecks, 9);
	c = find(&v, "db1", "db_read_io_tail");
	assert_non_null(c);
	assert_false(c->pass);
	assert_true(c->value == 100 && c->limit == 6);
	assert_string_equal(c->unit, "count");
	assert_string_equal(c->rule, "I/Os above 100 ms <= limit");
	assert_true(find(&v, "db1", "log_write_io_tail")->pass);
	assert_true(find(&v, "db1", "db_read_max_latency")->pass);
	free_verdict(&v);
	scen_release(&sc);
}

/* k samples (15 s each, all at ms) breaching among 20; the rest at 2 ms. */
static void breaching(struct scen *sc, unsigned int k, double ms)
{
	scen_init(sc, 15);
	for (unsigned int i = 0; i < 20; i++)
		seconds(sc, 15, 50, i < k ? ms : 2, 20, 1);
}

static void test_tolerated_samples(void **state)
{
	struct js_verdict_opts o = opts("strict", 6, 15);
	const struct verdict_check *c;
	struct verdict v = { 0 };
	struct scen sc;

	(void)state;
	/* 6 breaching samples pass (the average is then judged on its own) */
	breaching(&sc, 6, 150);
	scen_finish(&sc, o.th);
	judge(&v, &o, &sc, 0);
	c = find(&v, "db1", "db_read_max_latency");
	assert_true(c->pass);
	assert_true(fabs(c->value - 150) < 1e-9);
	assert_string_equal(c->note, "6 of 20 samples (15 s averages) above 100 ms; 6 tolerated");
	free_verdict(&v);
	scen_release(&sc);

	/* 7 fail */
	breaching(&sc, 7, 150);
	scen_finish(&sc, o.th);
	assert_false(judge(&v, &o, &sc, 0));
	c = find(&v, "db1", "db_read_max_latency");
	assert_false(c->pass);
	assert_string_equal(c->note, "7 of 20 samples (15 s averages) above 100 ms; 6 tolerated");
	assert_true(find(&v, "db1", "log_write_max_latency")->pass);
	free_verdict(&v);

	/* --max-latency-errors moves the line */
	o.max_latency_errors = 7;
	judge(&v, &o, &sc, 0);
	assert_true(find(&v, "db1", "db_read_max_latency")->pass);
	assert_string_equal(find(&v, "db1", "db_read_max_latency")->rule,
			    "samples above limit <= 7");
	free_verdict(&v);

	/* strict vs lenient on the same data: 150 ms is above 100, not above 200 */
	o = opts("lenient", 6, 15);
	judge(&v, &o, &sc, 0);
	c = find(&v, "db1", "db_read_max_latency");
	assert_true(c->pass);
	assert_true(c->limit == 200);
	assert_string_equal(c->note, "0 of 20 samples (15 s averages) above 200 ms; 6 tolerated");
	free_verdict(&v);
	scen_release(&sc);

	/* lenient still fails seven samples above 200 ms */
	breaching(&sc, 7, 250);
	scen_finish(&sc, o.th);
	judge(&v, &o, &sc, 0);
	assert_false(find(&v, "db1", "db_read_max_latency")->pass);
	free_verdict(&v);
	/* no tolerance: a single sample over fails */
	o = opts("strict", 0, 15);
	scen_release(&sc);
	breaching(&sc, 1, 101);
	scen_finish(&sc, o.th);
	judge(&v, &o, &sc, 0);
	assert_false(find(&v, "db1", "db_read_max_latency")->pass);
	free_verdict(&v);
	scen_release(&sc);
}

static void test_partial_and_trailing(void **state)
{
	struct js_verdict_opts o = opts("strict", 6, 15);
	const struct verdict_check *c;
	struct verdict v = { 0 };
	struct scen sc;

	(void)state;
	/* shorter than one interval: the whole measurement is one partial sample */
	scen_init(&sc, 15);
	seconds(&sc, 5, 100, 4, 10, 1);
	seconds(&sc, 5, 100, 8, 10, 3);
	scen_finish(&sc, o.th);
	assert_true(sc.ls.partial);
	assert_int_equal(sc.ls.intervals, 0);
	assert_int_equal(sc.series.n[LS_DB_READ], 1);
	assert_int_equal(sc.series.n[LS_LOG_WRITE], 1);
	assert_true(fabs(sc.series.avg_ms[LS_DB_READ][0] - 6) < 1e-9);
	assert_true(fabs(sc.series.avg_ms[LS_LOG_WRITE][0] - 2) < 1e-9);
	assert_string_equal(sc.series.scope, "db1");
	o.partial = true;
	judge(&v, &o, &sc, 0);
	c = find(&v, "db1", "db_read_max_latency");
	assert_true(c->pass);
	assert_string_equal(c->note, "0 of 1 samples (one partial sample: the whole 10 s "
			    "measurement) above 100 ms; 6 tolerated");
	free_verdict(&v);
	scen_release(&sc);

	/* once an interval is complete, an unfinished one at the end is dropped */
	scen_init(&sc, 15);
	seconds(&sc, 15, 100, 4, 10, 1);
	seconds(&sc, 14, 100, 400, 10, 1); /* 29 s: the slow 14 s are not a sample */
	scen_finish(&sc, o.th);
	assert_false(sc.ls.partial);
	assert_int_equal(sc.ls.intervals, 1);
	assert_int_equal(sc.series.n[LS_DB_READ], 1);
	assert_true(fabs(sc.series.avg_ms[LS_DB_READ][0] - 4) < 1e-9);
	scen_release(&sc);
	scen_init(&sc, 15);
	seconds(&sc, 30, 100, 4, 10, 1);
	scen_finish(&sc, o.th);
	assert_int_equal(sc.ls.intervals, 2);
	assert_int_equal(sc.series.n[LS_DB_READ], 2);
	scen_release(&sc);

	/* interval 1 s: one sample a second */
	scen_init(&sc, 1);
	seconds(&sc, 3, 10, 1, 0, 0);
	scen_finish(&sc, o.th);
	assert_int_equal(sc.series.n[LS_DB_READ], 3);
	assert_int_equal(sc.series.n[LS_LOG_WRITE], 0);
	scen_release(&sc);

	/* nothing fed: no sample, not partial */
	scen_init(&sc, 15);
	scen_finish(&sc, o.th);
	assert_false(sc.ls.partial);
	assert_int_equal(sc.series.n[LS_DB_READ], 0);
	scen_release(&sc);
}

static void test_samples_without_io(void **state)
{
	struct js_verdict_opts o = opts("strict", 6, 5);
	const struct verdict_check *c;
	struct verdict v = { 0 };
	struct scen sc;

	(void)state;
	/* 4 intervals of 5 s; log writes only in the 1st and 4th, reads only in the 2nd-4th */
	scen_init(&sc, 5);
	seconds(&sc, 5, 0, 0, 10, 2);
	seconds(&sc, 5, 10, 3, 0, 0);
	seconds(&sc, 5, 10, 5, 0, 0);
	seconds(&sc, 4, 10, 7, 0, 0);
	second(&sc, 10, 7, 5, 4); /* one second of log writes: a sample of its own, at 4 ms */
	scen_finish(&sc, o.th);
	assert_int_equal(sc.series.n[LS_DB_READ], 3);
	assert_int_equal(sc.series.n[LS_LOG_WRITE], 2);
	assert_true(fabs(sc.series.avg_ms[LS_DB_READ][0] - 3) < 1e-9);
	assert_true(fabs(sc.series.avg_ms[LS_LOG_WRITE][1] - 4) < 1e-9);
	assert_true(judge(&v, &o, &sc, 0));
	assert_string_equal(find(&v, "db1", "log_write_max_latency")->note,
			    "0 of 2 samples (5 s averages) above 100 ms; 6 tolerated");
	free_verdict(&v);
	scen_release(&sc);

	/* no log write at all: no sample, and both log checks fail (nothing measured) */
	scen_init(&sc, 5);
	seconds(&sc, 10, 10, 3, 0, 0);
	scen_finish(&sc, o.th);
	assert_int_equal(sc.series.n[LS_LOG_WRITE], 0);
	assert_false(judge(&v, &o, &sc, 0));
	c = find(&v, "db1", "log_write_max_latency");
	assert_false(c->pass);
	assert_string_equal(c->note, "no I/O of this class was measured");
	assert_false(find(&v, "db1", "log_write_avg_latency")->pass);
	assert_true(find(&v, "db1", "db_read_max_latency")->pass);
	free_verdict(&v);

	/* no samples passed in (NULL): the maximum checks cannot pass */
	{
		struct js_scope_data d = { .cls = sc.cls, .seconds = 10 };

		sc.cls[CLS_LOG_WRITE].ops = 10;
		sc.cls[CLS_LOG_WRITE].lat_us.mean = 1000;
		assert_false(js_verdict_scope(&v, "overall", &o, &d));
		c = find(&v, "overall", "db_read_max_latency");
		assert_false(c->pass);
		assert_string_equal(c->note, "no latency samples were taken");
		free_verdict(&v);
	}
	scen_release(&sc);
}

static void test_page_fault_stalls(void **state)
{
	static const struct {
		uint64_t stalls;
		uint64_t secs;
		bool pass;
	} cases[] = {
		{ 0, 60, true },    { 60, 60, true },   { 61, 60, false }, { 100, 100, true },
		{ 100, 99, false }, { 100, 60, false }, { 1, 1, true },    { 2, 1, false },
	};
	struct js_verdict_opts o = opts("strict", 6, 15);

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct verdict_check *c;
		struct verdict v = { 0 };
		struct scen sc;
		bool all;

		scen_init(&sc, 15);
		seconds(&sc, (unsigned int)cases[i].secs, 100, 2, 20, 1);
		scen_finish(&sc, o.th);
		all = judge(&v, &o, &sc, cases[i].stalls);
		c = find(&v, "db1", "db_page_fault_stalls");
		assert_non_null(c);
		assert_int_equal(c->pass, cases[i].pass);
		assert_int_equal(all, cases[i].pass); /* everything else passes here */
		assert_true(fabs(c->value - (double)cases[i].stalls / cases[i].secs) < 1e-12);
		assert_true(c->limit == 1);
		assert_string_equal(c->unit, "/s");
		assert_string_equal(c->rule, "stalls/s <= 1");
		free_verdict(&v);
		scen_release(&sc);
	}
}

/* The stall check's note: the count always; on a failure, why and what would fix it. */
static void test_stall_note(void **state)
{
	struct class_result cls[CLS_NR] = { 0 };
	struct js_scope_data d = { .cls = cls, .page_fault_stalls = 60, .seconds = 60,
				   .cache_pages = 1310 };
	struct strbuf note = STRBUF_INIT;

	(void)state;
	cls[CLS_DB_WRITE].iops = 276.1;
	cls[CLS_DB_WRITE].lat_us.mean = 116324;
	js_stall_note(&note, &d);
	assert_string_equal(note.buf, "60 waits for a free cache page in 60 s"); /* 1/s passes */
	d.page_fault_stalls = 2047;
	d.seconds = 20;
	strbuf_reset(&note);
	js_stall_note(&note, &d);
	assert_string_equal(note.buf, "2047 waits for a free cache page in 20 s: the database cache "
			    "(1310 pages) had no clean page left (all dirty or being read or "
			    "written) because the database writes (276/s, 116.32 ms on average) did "
			    "not keep up with the changes; faster database writes, a larger --cache "
			    "or fewer --threads would fix it");
	d.cache_pages = 0; /* not known: no page count */
	strbuf_reset(&note);
	js_stall_note(&note, &d);
	assert_non_null(strstr(note.buf, "the database cache had no clean page left"));
	d.seconds = 0; /* nothing measured: only the count */
	strbuf_reset(&note);
	js_stall_note(&note, &d);
	assert_string_equal(note.buf, "2047 waits for a free cache page in 0 s");
	strbuf_release(&note);
}

static void test_errors(void **state)
{
	struct js_verdict_opts o = opts("strict", 6, 15);
	struct verdict v = { 0 };
	struct js_scope_data d;
	struct scen sc;

	(void)state;
	scen_init(&sc, 15);
	seconds(&sc, 30, 100, 2, 20, 1);
	scen_finish(&sc, o.th);
	d = (struct js_scope_data){ .cls = sc.cls, .samples = &sc.series, .seconds = 30 };
	assert_true(js_verdict_scope(&v, "db1", &o, &d));
	assert_string_equal(find(&v, "db1", "io_errors")->rule, "count == 0");
	free_verdict(&v);
	d.io_errors = 1;
	assert_false(js_verdict_scope(&v, "db1", &o, &d));
	assert_false(find(&v, "db1", "io_errors")->pass);
	assert_null(find(&v, "db1", "io_errors")->note);
	free_verdict(&v);
	/* the check names the first failed I/O (as the kernel reported it) */
	d.first_io_error = "db1 db_read at offset 32768 (32768 bytes) on /db/x.edb: No data available";
	assert_false(js_verdict_scope(&v, "db1", &o, &d));
	assert_string_equal(find(&v, "db1", "io_errors")->note,
			    "first: db1 db_read at offset 32768 (32768 bytes) on /db/x.edb: No data available");
	free_verdict(&v);
	d.io_errors = 0;
	assert_true(js_verdict_scope(&v, "db1", &o, &d));
	assert_null(find(&v, "db1", "io_errors")->note);
	free_verdict(&v);
	d.first_io_error = NULL;
	d.checksum_errors = 2;
	assert_false(js_verdict_scope(&v, "db1", &o, &d));
	assert_true(find(&v, "db1", "checksum_errors")->value == 2);
	free_verdict(&v);
	/* a thread that stopped the run: a load_failures check naming it, only then */
	d.checksum_errors = 0;
	assert_true(js_verdict_scope(&v, "db1", &o, &d));
	assert_null(find(&v, "db1", "load_failures"));
	free_verdict(&v);
	d.load_failures = 2;
	d.load_failure = "db1 session 3: cannot set up the io_uring I/O engine: Too many open files";
	assert_false(js_verdict_scope(&v, "db1", &o, &d));
	assert_non_null(find(&v, "db1", "load_failures"));
	assert_false(find(&v, "db1", "load_failures")->pass);
	assert_true(find(&v, "db1", "load_failures")->value == 2);
	assert_string_equal(find(&v, "db1", "load_failures")->note, d.load_failure);
	free_verdict(&v);
	d.load_failures = 0;
	d.load_failure = NULL;
	/* an average above its limit fails on its own; log writes: 10 ms */
	d.checksum_errors = 0;
	sc.cls[CLS_LOG_WRITE].lat_us.mean = 10010;
	assert_false(js_verdict_scope(&v, "db1", &o, &d));
	assert_false(find(&v, "db1", "log_write_avg_latency")->pass);
	assert_true(find(&v, "db1", "log_write_max_latency")->pass);
	free_verdict(&v);
	scen_release(&sc);
}

static void test_target_iops(void **state)
{
	const struct verdict_check *c;
	struct verdict v = { 0 };

	(void)state;
	assert_true(fabs(js_target_from_mailboxes(5000, 0.1) - 500) < 1e-9);
	assert_true(fabs(js_target_from_mailboxes(2400, 0.06) - 144) < 1e-9);
	assert_true(js_target_from_mailboxes(1, 100) == 100);

	assert_false(js_verdict_target(&v, 499.9, 500, "5000 mailboxes x 0.1 IOPS per mailbox"));
	c = find(&v, "overall", "target_iops");
	assert_non_null(c);
	assert_true(c->value == 499.9 && c->limit == 500);
	assert_string_equal(c->unit, "IOPS");
	assert_string_equal(c->rule, "achieved >= target");
	assert_string_equal(c->note, "5000 mailboxes x 0.1 IOPS per mailbox");
	free_verdict(&v);
	assert_true(js_verdict_target(&v, 500, 500, NULL));
	assert_null(v.checks[0].note);
	free_verdict(&v);
	assert_true(js_verdict_target(&v, 651.2, 500, "--target-iops"));
	free_verdict(&v);
	assert_false(js_verdict_target(&v, NAN, 500, NULL));
	free_verdict(&v);
}

/* ---- JSON ---- */

static void fill(struct fslab_result *r)
{
	static const double db1_dbr[] = { 3.5, 4.25, 121.0 }, db1_log[] = { 0.75, 1.5 };
	struct latency_samples *ls = &r->latency_samples;

	result_init(r);
	r->label = xstrdup("ext4");
	r->duration_s = 45;
	r->config.workload = xstrdup("jetstress");
	r->config.engine = xstrdup("io_uring");
	r->config.threads = 2; /* the reader refuses a run of 0 threads */
	r->config.sample_interval_s = 15;
	r->config.thresholds = xstrdup("lenient");
	r->config.max_latency_errors = 4;
	r->config.strict_io_tail = true;
	r->config.target_iops = 144;
	r->config.target_iops_origin = xstrdup("mailboxes");
	r->config.mailboxes = 2400;
	r->config.iops_per_mailbox = 0.06;
	r->classes[CLS_DB_READ].ops = 1000;
	r->classes[CLS_DB_READ].ios_above_max_limit = 7;
	r->classes[CLS_LOG_WRITE].ios_above_max_limit = 1;
	r->db_page_fault_stalls = 12;
	r->instances = xcalloc(1, sizeof(*r->instances));
	r->ninstances = 1;
	r->instances[0].name = xstrdup("db1");
	r->instances[0].db_page_fault_stalls = 12;
	r->instances[0].classes[CLS_DB_READ].ios_above_max_limit = 7;

	ls->present = true;
	ls->interval_s = 15;
	ls->intervals = 3;
	ls->scopes = xcalloc(2, sizeof(*ls->scopes));
	ls->nscopes = 2;
	ls->scopes[0].scope = xstrdup("db1");
	ls->scopes[0].n[LS_DB_READ] = 3;
	ls->scopes[0].avg_ms[LS_DB_READ] = xmalloc(sizeof(db1_dbr));
	memcpy(ls->scopes[0].avg_ms[LS_DB_READ], db1_dbr, sizeof(db1_dbr));
	ls->scopes[0].n[LS_LOG_WRITE] = 2;
	ls->scopes[0].avg_ms[LS_LOG_WRITE] = xmalloc(sizeof(db1_log));
	memcpy(ls->scopes[0].avg_ms[LS_LOG_WRITE], db1_log, sizeof(db1_log));
	ls->scopes[1].scope = xstrdup("overall"); /* no samples of either class */

	verdict_add_rule(&r->verdict, "db1", "db_read_max_latency", 121, 200, "ms",
			 "samples above limit <= 4", true,
			 "0 of 3 samples (15 s averages) above 200 ms; 4 tolerated");
	verdict_add_rule(&r->verdict, "overall", "db_page_fault_stalls", 12 / 45.0, 1, "/s",
			 "stalls/s <= 1", true, NULL);
	verdict_add_rule(&r->verdict, "overall", "target_iops", 150.5, 144, "IOPS",
			 "achieved >= target", true, "2400 mailboxes x 0.06 IOPS per mailbox");
	verdict_add(&r->verdict, "overall", "io_errors", 0, 0, "count", true, NULL);
	r->verdict.pass = true;
}

static void check_same(const struct fslab_result *a, const struct fslab_result *b)
{
	const struct latency_samples *x = &a->latency_samples, *y = &b->latency_samples;

	assert_true(y->present);
	assert_true(y->interval_s == x->interval_s);
	assert_int_equal(y->intervals, x->intervals);
	assert_int_equal(y->partial, x->partial);
	assert_int_equal(y->nscopes, x->nscopes);
	for (size_t i = 0; i < x->nscopes; i++) {
		assert_string_equal(y->scopes[i].scope, x->scopes[i].scope);
		for (int k = 0; k < LS_NR; k++) {
			assert_int_equal(y->scopes[i].n[k], x->scopes[i].n[k]);
			for (size_t j = 0; j < x->scopes[i].n[k]; j++)
				assert_true(y->scopes[i].avg_ms[k][j] == x->scopes[i].avg_ms[k][j]);
		}
	}
	assert_non_null(latency_samples_find(y, "overall"));
	assert_null(latency_samples_find(y, "db2"));

	assert_true(b->config.sample_interval_s == 15);
	assert_string_equal(b->config.thresholds, "lenient");
	assert_int_equal(b->config.max_latency_errors, 4);
	assert_true(b->config.strict_io_tail);
	assert_true(b->config.target_iops == 144);
	assert_string_equal(b->config.target_iops_origin, "mailboxes");
	assert_int_equal(b->config.mailboxes, 2400);
	assert_true(b->config.iops_per_mailbox == 0.06);

	assert_int_equal(b->classes[CLS_DB_READ].ios_above_max_limit, 7);
	assert_int_equal(b->classes[CLS_LOG_WRITE].ios_above_max_limit, 1);
	assert_int_equal(b->instances[0].classes[CLS_DB_READ].ios_above_max_limit, 7);
	assert_int_equal(b->db_page_fault_stalls, 12);
	assert_int_equal(b->instances[0].db_page_fault_stalls, 12);

	assert_int_equal(b->verdict.nchecks, a->verdict.nchecks);
	for (size_t i = 0; i < a->verdict.nchecks; i++) {
		const struct verdict_check *p = &a->verdict.checks[i], *q = &b->verdict.checks[i];

		assert_string_equal(q->scope, p->scope);
		assert_string_equal(q->name, p->name);
		assert_true(fabs(q->value - p->value) < 1e-9);
		assert_true(q->limit == p->limit);
		assert_string_equal(q->unit, p->unit);
		assert_int_equal(q->pass, p->pass);
		if (p->rule)
			assert_string_equal(q->rule, p->rule);
		else
			assert_null(q->rule);
		if (p->note)
			assert_string_equal(q->note, p->note);
		else
			assert_null(q->note);
	}
}

static void test_json_round_trip(void **state)
{
	char path[] = "/tmp/fslab-verdict.XXXXXX";
	struct fslab_result a, b;
	json_t *j, *c;
	int fd;

	(void)state;
	fill(&a);
	j = result_to_json(&a);
	/* the shape the report reads */
	assert_true(json_is_object(json_object_get(j, "latency_samples")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "config"),
							    "max_latency_errors")), 4);
	c = json_array_get(json_object_get(json_object_get(j, "verdict"), "checks"), 0);
	assert_string_equal(json_string_value(json_object_get(c, "rule")),
			    "samples above limit <= 4");
	c = json_array_get(json_object_get(json_object_get(j, "latency_samples"), "scopes"), 0);
	assert_int_equal(json_array_size(json_object_get(c, "db_read_avg_ms")), 3);
	assert_int_equal(result_from_json(j, "mem", &b), 0);
	check_same(&a, &b);
	result_release(&b);
	json_decref(j);

	/* through the streaming file writer and the reader */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(result_write(&a, path), 0);
	assert_int_equal(result_read(path, &b), 0);
	check_same(&a, &b);
	result_release(&b);
	unlink(path);
	result_release(&a);
}

/* A file written before latency samples (no latency_samples, no rule, no new config fields)
 * still loads; "latency_samples": null is the same; a malformed one is refused. */
static void test_json_old_files(void **state)
{
	struct fslab_result a, b;
	json_t *j, *cf, *ck;
	size_t i;

	(void)state;
	fill(&a);
	j = result_to_json(&a);
	json_object_del(j, "latency_samples");
	json_object_del(j, "db_page_fault_stalls");
	cf = json_object_get(j, "config");
	json_object_del(cf, "sample_interval_s");
	json_object_del(cf, "thresholds");
	json_object_del(cf, "max_latency_errors");
	json_object_del(cf, "strict_io_tail");
	json_object_del(cf, "target_iops");
	json_object_del(cf, "target_iops_origin");
	json_object_del(cf, "mailboxes");
	json_object_del(cf, "iops_per_mailbox");
	json_object_del(json_object_get(json_object_get(j, "classes"), "db_read"),
			"ios_above_max_limit");
	json_array_foreach(json_object_get(json_object_get(j, "verdict"), "checks"), i, ck)
		json_object_del(ck, "rule");
	assert_int_equal(result_from_json(j, "old", &b), 0);
	assert_false(b.latency_samples.present);
	assert_int_equal(b.latency_samples.nscopes, 0);
	assert_null(b.config.thresholds);
	assert_true(b.config.sample_interval_s == 0 && b.config.target_iops == 0);
	assert_null(b.config.target_iops_origin);
	assert_int_equal(b.classes[CLS_DB_READ].ios_above_max_limit, 0);
	assert_int_equal(b.db_page_fault_stalls, 0);
	assert_int_equal(b.verdict.nchecks, 4);
	assert_null(b.verdict.checks[0].rule);
	result_release(&b);

	/* null is "none", as written for workloads without a verdict */
	json_object_set_new(j, "latency_samples", json_null());
	json_object_set_new(cf, "target_iops", json_null());
	assert_int_equal(result_from_json(j, "null", &b), 0);
	assert_false(b.latency_samples.present);
	assert_true(b.config.target_iops == 0);
	result_release(&b);

	/* a damaged one is an input error, not a crash */
	json_object_set_new(j, "latency_samples",
			    json_pack("{s:i, s:[{s:s, s:[s]}]}", "interval_s", 15, "scopes",
				      "scope", "db1", "db_read_avg_ms", "fast"));
	assert_int_equal(result_from_json(j, "bad", &b), -FSLAB_EINPUT);
	result_release(&b);
	json_object_set_new(j, "latency_samples", json_pack("{s:i}", "interval_s", 15));
	assert_int_equal(result_from_json(j, "bad", &b), -FSLAB_EINPUT);
	result_release(&b);
	json_decref(j);

	/* an absent verdict writes "latency_samples": null too */
	result_release(&a);
	result_init(&a);
	a.label = xstrdup("x");
	a.config.workload = xstrdup("randread");
	j = result_to_json(&a);
	assert_true(json_is_null(json_object_get(j, "latency_samples")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "config"), "thresholds")));
	json_decref(j);
	result_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threshold_sets),
		cmocka_unit_test(test_spike_inside_sample),
		cmocka_unit_test(test_tolerated_samples),
		cmocka_unit_test(test_partial_and_trailing),
		cmocka_unit_test(test_samples_without_io),
		cmocka_unit_test(test_page_fault_stalls),
		cmocka_unit_test(test_stall_note),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_target_iops),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_old_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
