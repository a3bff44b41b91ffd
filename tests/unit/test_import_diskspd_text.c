// SPDX-License-Identifier: MIT
/*
 * test_import_diskspd_text.c: DiskSpd's text output (src/compare/import_diskspd_text.c) read
 * from every fixture in tests/fixtures/interop/diskspd-text-*.txt (README there: where each
 * came from), every value the importer takes checked against the numbers in the text; text
 * that was cut or edited (real files among them), damaged in any one line, or not DiskSpd's
 * refused.  Runs on Linux and under Wine (make windows-unit).
 */
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
#include "compare/import.h"
#include "os/files.h"
#include "lib/msg.h"
#include "lib/strbuf.h"

static char *fixture(const char *name, size_t *len)
{
	const char *top = getenv("FSLAB_TOP");
	char *path = xasprintf("%s/tests/fixtures/interop/%s", top ? top : ".", name), *buf;

	assert_int_equal(read_file(path, &buf, len), 0);
	free(path);
	return buf;
}

static void load(const char *name, struct import_list *l)
{
	size_t len;
	char *buf = fixture(name, &len);

	assert_int_equal(import_buffer(buf, len, name, NULL, l), 0);
	free(buf);
}

#define NA NAN
/* a == b, both n/a, or within the printed precision (relative 1e-9) */
static void near(double got, double want)
{
	if (isnan(want)) {
		assert_true(isnan(got));
		return;
	}
	if (!(fabs(got - want) <= 1e-9 * fabs(want) + 1e-12)) {
		print_error("got %.12g, want %.12g\n", got, want);
		fail();
	}
}

/* A class as the text gives it: counts, and in ms mean, stddev, min, p50, p90, p99, p99.9,
 * p99.99, max (NA: not printed). */
static void class_is(const struct class_result *c, uint64_t ops, uint64_t bytes, double secs,
		     const double ms[9])
{
	const double us[9] = { c->lat_us.mean, c->lat_us.stddev, c->lat_us.min, c->lat_us.p50,
			       c->lat_us.p90, c->lat_us.p99, c->lat_us.p99_9, c->lat_us.p99_99,
			       c->lat_us.max };

	assert_int_equal(c->ops, ops);
	assert_int_equal(c->bytes, bytes);
	/* the XML importer's arithmetic: counts over the actual test time */
	near(c->iops, (double)ops / secs);
	near(c->mbps, (double)bytes / secs / 1e6);
	near(c->avg_bytes, ops ? (double)bytes / (double)ops : NA);
	for (int i = 0; i < 9; i++)
		near(us[i], ms[i] * 1e3);
	assert_null(c->hist);
}

static const double no_lat[9] = { NA, NA, NA, NA, NA, NA, NA, NA, NA };

struct want {
	const char *version, *format, *host, *start, *workload;
	uint64_t bs, db_size;
	unsigned int iodepth, threads;
	double cfg_duration, warmup, secs;
	int ncpus;
	double cpu, user, sys;
};

static void result_is(const struct fslab_result *r, const struct want *w)
{
	assert_string_equal(r->src.tool, "diskspd");
	if (w->version)
		assert_string_equal(r->src.version, w->version);
	else
		assert_null(r->src.version);
	assert_string_equal(r->src.format, w->format);
	assert_string_equal(r->src.host, w->host);
	assert_string_equal(r->started_at, w->start);
	assert_string_equal(r->config.workload, w->workload);
	assert_string_equal(r->config.engine, "diskspd");
	assert_int_equal(r->config.bs, w->bs);
	assert_int_equal(r->config.db_size, w->db_size);
	assert_int_equal(r->config.iodepth, w->iodepth);
	assert_int_equal(r->config.threads, w->threads);
	assert_int_equal(r->config.databases, 1);
	assert_int_equal(r->config.seed, 0);
	near(r->config.duration_s, w->cfg_duration);
	near(r->config.warmup_s, w->warmup);
	near(r->duration_s, w->secs);
	assert_int_equal(r->host.ncpus, w->ncpus);
	near(r->host.cpu_pct_avg, w->cpu);
	near(r->host.cpu_user_pct, w->user);
	near(r->host.cpu_sys_pct, w->sys);
	/* not in DiskSpd's text: n/a, zero or absent, never invented */
	assert_true(isnan(r->host.cpu_pct_max) && isnan(r->host.cpu_iowait_pct));
	assert_false(r->aborted);
	assert_false(r->verdict.present);
	assert_int_equal(r->timeline.nrows, 0);
	assert_int_equal(r->ndevices, 0);
	for (int c = CLS_LOG_WRITE; c < CLS_NR; c++) {
		assert_int_equal(r->classes[c].ops, 0);
		near(r->classes[c].iops, 0);
		assert_true(isnan(r->classes[c].lat_us.mean));
	}
	near(r->transactional_iops, r->classes[CLS_DB_READ].iops + r->classes[CLS_DB_WRITE].iops);
	assert_string_equal(json_string_value(json_object_get(r->environment, "hostname")), w->host);
}

static bool has_note(const struct fslab_result *r, const char *text)
{
	size_t i;
	json_t *n;

	json_array_foreach(r->notes, i, n)
		if (json_is_string(n) && strstr(json_string_value(n), text))
			return true;
	return false;
}

/* microsoft/VirtualClient's DiskSpdExample-ReadWrite.txt: 2.0.x, no "Command Line:", -L -D */
static void test_vc_readwrite(void **state)
{
	static const struct want w = {
		"2.0.x", "DiskSpd text, 2.0.x layout", "QuickTest2", "2021/04/16 19:03:38 UTC",
		"randrw", 4096, 1024 * MiB, 1, 1, 30, 15, 30.01, 4, 0.82, 0.10, 0.72,
	};
	static const double rd[9] = { 0.272, 0.185, 0.036, 0.232, 0.458, 0.877, 1.608, 4.753, 7.990 };
	static const double wr[9] = { 2.179, 1.037, 1.209, 1.833, 3.378, 6.107, 8.378, 11.561,
				      35.257 };
	struct import_list l;

	(void)state;
	load("diskspd-text-2.0-vc-readwrite.txt", &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.r[0].label, "diskspd-text-2.0-vc-readwrite");
	result_is(&l.r[0], &w);
	class_is(&l.r[0].classes[CLS_DB_READ], 25060, 102645760, 30.01, rd);
	class_is(&l.r[0].classes[CLS_DB_WRITE], 10626, 43524096, 30.01, wr);
	assert_false(has_note(&l.r[0], "command line"));
	assert_true(has_note(&l.r[0], "no timeline"));
	import_list_release(&l);
}

/* VirtualClient's DiskSpdExample-WriteOnly.txt: DiskSpd 2.0.21, 32 threads, 900 s */
static void test_vc_write32t(void **state)
{
	static const struct want w = {
		"2.0.x", "DiskSpd text, 2.0.x layout", "ybbyjdahh", "2023/10/13 06:22:25 UTC",
		"randwrite", 8192, 150 * GiB, 16, 32, 900, 30, 900.01, 16, 6.15, 0.33, 5.82,
	};
	static const double wr[9] = { 6.696, 14.719, 0.074, 0.943, 41.609, 57.658, 58.623, 93.636,
				      159.270 };
	struct import_list l;

	(void)state;
	load("diskspd-text-2.0-vc-write32t.txt", &l);
	assert_int_equal(l.n, 1);
	result_is(&l.r[0], &w);
	class_is(&l.r[0].classes[CLS_DB_READ], 0, 0, 900.01, no_lat);
	class_is(&l.r[0].classes[CLS_DB_WRITE], 68813396, 563719340032ULL, 900.01, wr);
	assert_true(has_note(&l.r[0], "DiskSpd command line: C:\\\\Users\\\\vc-user"));
	import_list_release(&l);
}

/* VirtualClient's Write8k.txt: 5 targets x 23 threads, a UTF-8 byte order mark, the
 * per-target latency charts before the total one */
static void test_vc_write5targets(void **state)
{
	static const struct want w = {
		"2.0.x", "DiskSpd text, 2.0.x layout", "B50L1157RC4ST32", "2024/01/08 04:54:01 UTC",
		"randwrite", 8192, 496 * GiB, 22, 115, 60, 15, 60.02, 112, 39.69, 0.27, 39.43,
	};
	static const double wr[9] = { 7.681, 42.583, 0.015, 1.520, 7.472, 368.150, 398.986,
				      444.879, 3134.107 };
	struct import_list l;

	(void)state;
	load("diskspd-text-2.0-vc-write5targets.txt", &l);
	assert_int_equal(l.n, 1);
	result_is(&l.r[0], &w);
	class_is(&l.r[0].classes[CLS_DB_READ], 0, 0, 60.02, no_lat);
	class_is(&l.r[0].classes[CLS_DB_WRITE], 19812174, 162301329408ULL, 60.02, wr);
	import_list_release(&l);
}

/* VirtualClient's DiskSpdExample-WriteOnly-v2.2.0-SingleGroup.txt: the 2.2 layout */
static void test_vc_write4t_22(void **state)
{
	static const struct want w = {
		"2.2", "DiskSpd text, 2.2 layout", "alexwill-dskspd", "2026/06/22 22:16:45 UTC",
		"randwrite", 4096, 1 * GiB, 16, 4, 10, 5, 10.00, 4, 1.13, 0.31, 0.82,
	};
	static const double wr[9] = { 125.800, 25.418, 86.700, 140.008, 157.727, 161.752, 163.759,
				      164.312, 164.312 };
	struct import_list l;

	(void)state;
	load("diskspd-text-2.2-vc-write4t.txt", &l);
	assert_int_equal(l.n, 1);
	result_is(&l.r[0], &w);
	class_is(&l.r[0].classes[CLS_DB_READ], 0, 0, 10.00, no_lat);
	class_is(&l.r[0].classes[CLS_DB_WRITE], 5083, 20819968, 10.00, wr);
	import_list_release(&l);
}

/* written from ResultParser.cpp 2.2: two targets, no -L (no latency columns, no chart), no -D */
static void test_randrw_2targets_no_lat(void **state)
{
	static const struct want w = {
		"2.2", "DiskSpd text, 2.2 layout", "EXCH-LAB07", "2026/11/30 14:02:11 UTC",
		"randrw", 32768, 2 * GiB, 4, 4, 10, 2, 10.00, 4, 30.12, 3.87, 26.25,
	};
	struct import_list l;

	(void)state;
	load("diskspd-text-2.2-randrw-2targets.txt", &l);
	assert_int_equal(l.n, 1);
	result_is(&l.r[0], &w);
	class_is(&l.r[0].classes[CLS_DB_READ], 78099, 2559148032ULL, 10.00, no_lat);
	class_is(&l.r[0].classes[CLS_DB_WRITE], 33424, 1095237632ULL, 10.00, no_lat);
	assert_true(has_note(&l.r[0], "no -L: latencies n/a"));
	assert_true(has_note(&l.r[0], "DiskSpd command line: diskspd.exe -c2G -b32K -r -w30"));
	import_list_release(&l);
}

/* written from ResultParser.cpp 2.1: an XML profile of two timespans, then "Totals:" */
static void test_two_timespans_21(void **state)
{
	struct want w = {
		"2.1", "DiskSpd text, 2.1 layout", "FILESRV-02", "2026/12/03 08:41:55 UTC",
		"diskspd:sequential-w0", 65536, 8 * GiB, 8, 1, 5, 1, 5.00, 2, 10.62, 1.25, 9.38,
	};
	static const double rd[9] = { 0.812, 0.094, 0.201, 0.801, 0.930, 1.142, 2.310, 4.087, 6.512 };
	static const double wr[9] = { 1.001, 0.212, 0.388, 0.977, 1.243, 1.905, 3.777, 7.034, 9.880 };
	struct import_list l;

	(void)state;
	load("diskspd-text-2.1-seq-2timespans.txt", &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.r[0].label, "diskspd-text-2.1-seq-2timespans-ts1");
	assert_string_equal(l.r[1].label, "diskspd-text-2.1-seq-2timespans-ts2");
	result_is(&l.r[0], &w);
	class_is(&l.r[0].classes[CLS_DB_READ], 24571, 1610285056ULL, 5.00, rd);
	class_is(&l.r[0].classes[CLS_DB_WRITE], 0, 0, 5.00, no_lat);
	w.workload = "seqwrite";
	w.cpu = 12.35, w.user = 1.25, w.sys = 11.09;
	result_is(&l.r[1], &w);
	class_is(&l.r[1].classes[CLS_DB_READ], 0, 0, 5.00, no_lat);
	class_is(&l.r[1].classes[CLS_DB_WRITE], 19960, 1308098560ULL, 5.00, wr);
	import_list_release(&l);
}

/* More timespans than one file gives results (IMPORT_MAX_RESULTS): refused, named, before
 * any is read (issue 16: a hostile file cannot grow compare's tables without end). */
static void test_too_many_timespans(void **state)
{
	size_t len, n = IMPORT_MAX_RESULTS + 1;
	char *text = fixture("diskspd-text-2.1-seq-2timespans.txt", &len);
	const char *ts1 = strstr(text, "Results for timespan 1:");
	const char *ts2 = strstr(text, "Results for timespan 2:");
	struct strbuf sb = STRBUF_INIT;
	struct import_list l;

	(void)state;
	assert_non_null(ts1);
	assert_non_null(ts2);
	strbuf_add(&sb, text, (size_t)(ts1 - text));
	for (size_t i = 0; i < n; i++)
		strbuf_add(&sb, ts1, (size_t)(ts2 - ts1));
	strbuf_addstr(&sb, strstr(ts2, "Totals:"));
	assert_int_equal(import_buffer(sb.buf, sb.len, "many.txt", NULL, &l), -FSLAB_EINPUT);
	import_list_release(&l);
	strbuf_release(&sb);
	free(text);
}

/* written from ResultParser.cpp 2.2: interrupted before measuring: an aborted result */
static void test_interrupted(void **state)
{
	struct import_list l;

	(void)state;
	load("diskspd-text-2.2-interrupted.txt", &l);
	assert_int_equal(l.n, 1);
	assert_true(l.r[0].aborted);
	assert_non_null(strstr(l.r[0].abort_reason, "interrupted before the measurements began"));
	assert_string_equal(l.r[0].src.host, "WIN-REFS01");
	assert_string_equal(l.r[0].src.version, "2.2");
	assert_string_equal(l.r[0].config.workload, "randrw");
	assert_int_equal(l.r[0].config.bs, 32768);
	assert_int_equal(l.r[0].classes[CLS_DB_READ].ops, 0);
	assert_true(isnan(l.r[0].classes[CLS_DB_READ].iops));
	import_list_release(&l);
}

/* stderr away while hundreds of refusals are tested (each prints its one line) */
static int saved_stderr = -1;

static void mute(bool on)
{
	fflush(stderr);
	if (on) {
		saved_stderr = dup(2);
#ifdef _WIN32
		assert_non_null(freopen("NUL", "w", stderr));
#else
		assert_non_null(freopen("/dev/null", "w", stderr));
#endif
	} else if (saved_stderr >= 0) {
		dup2(saved_stderr, 2);
		close(saved_stderr);
		saved_stderr = -1;
	}
}

static void refused(const char *what, const char *text, size_t len)
{
	struct import_list l;
	int ret = import_buffer(text, len, what, NULL, &l);

	if (ret != -FSLAB_EINPUT) {
		mute(false);
		print_error("%s: accepted (%d)\n", what, ret);
		fail();
	}
	import_list_release(&l);
}

/* Real files that VirtualClient cut by hand (800 and 4 threads shown as 2 rows): refused */
static void test_vc_cut_refused(void **state)
{
	static const char *const names[] = { "diskspd-text-2.2-vc-rowscut.txt",
					     "diskspd-text-2.2-vc-threadscut.txt" };
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		size_t len;
		char *buf = fixture(names[i], &len);

		refused(names[i], buf, len);
		free(buf);
	}
}

/* Replace the first occurrence of from in a copy of s. */
static char *edit(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);

	assert_non_null(at);
	return xasprintf("%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
}

/* Every kind of damage to a good file, one at a time, and every cut: refused, never a
 * result with wrong numbers. */
static void test_damage_refused(void **state)
{
	static const char *const edits[][2] = {
		{ "|        25060 |", "|        25061 |" },   /* a read row off by one */
		{ "total:         102645760", "total:         102645761" }, /* a total */
		{ "     834.98 |", "     934.98 |" },       /* a row's rate */
		{ "actual test time:       30.01s", "actual test time:       31.01s" },
		{ "actual test time:       30.01s", "actual test time:       soon" },
		{ "thread count:           1", "thread count:           2" },
		{ "avg.|   0.82%|", "avg.|   x.82%|" },
		{ "   50th |      0.232 |", "   50th |      0.032 |" }, /* percentiles decrease */
		{ "   90th |      0.458 |", "   90th |        N/A |" },
		{ "3-nines |", "2-nines |" },
		{ "thread |       bytes", "thread |       octets" },
		{ "Read IO\n", "Read I/O\n" },
		{ "*******************************************************************************\n\nactual", "\nactual" },
	};
	size_t len, cut;
	char *good = fixture("diskspd-text-2.0-vc-readwrite.txt", &len);
	struct import_list l;

	(void)state;
	mute(true);
	for (size_t i = 0; i < ARRAY_SIZE(edits); i++) {
		char *bad = edit(good, edits[i][0], edits[i][1]);

		refused(edits[i][1], bad, strlen(bad));
		free(bad);
	}
	/* cut anywhere from the results on (a cut inside the last chart row's digits can only
	 * shorten a number, which the percentile order or the format then refuses, or not: the
	 * cut is kept from the row's end) */
	for (cut = (size_t)(strstr(good, "Results for timespan") - good); cut < len - 40; cut += 7)
		refused("a cut file", good, cut);
	/* not DiskSpd's at all: the fslab reader's refusal */
	refused("prose", "Input was fine.\nNothing here.\n", 30);
	mute(false);
	assert_int_equal(import_buffer(good, len, "ok.txt", NULL, &l), 0);
	import_list_release(&l);
	free(good);
}

/* Windows line ends and UTF-16 with a byte order mark (PowerShell's >) read the same */
static void test_crlf_and_utf16(void **state)
{
	size_t len, k = 2, n = 0;
	char *good = fixture("diskspd-text-2.2-vc-write4t.txt", &len);
	char *crlf = xmalloc(2 * len + 1), *u16;
	struct import_list l;

	(void)state;
	for (size_t i = 0; i < len; i++) {
		if (good[i] == '\n')
			crlf[n++] = '\r';
		crlf[n++] = good[i];
	}
	u16 = xcalloc(1, 2 * n + 4);
	u16[0] = (char)0xff;
	u16[1] = (char)0xfe;
	for (size_t i = 0; i < n; i++, k += 2)
		u16[k] = crlf[i];
	assert_int_equal(import_buffer(u16, k, "ps.txt", NULL, &l), 0);
	assert_int_equal(l.r[0].classes[CLS_DB_WRITE].ops, 5083);
	near(l.r[0].classes[CLS_DB_WRITE].lat_us.p99, 161752);
	assert_string_equal(l.r[0].src.host, "alexwill-dskspd");
	import_list_release(&l);
	free(u16);
	free(crlf);
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vc_readwrite),
		cmocka_unit_test(test_vc_write32t),
		cmocka_unit_test(test_vc_write5targets),
		cmocka_unit_test(test_vc_write4t_22),
		cmocka_unit_test(test_randrw_2targets_no_lat),
		cmocka_unit_test(test_two_timespans_21),
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_too_many_timespans),
		cmocka_unit_test(test_vc_cut_refused),
		cmocka_unit_test(test_damage_refused),
		cmocka_unit_test(test_crlf_and_utf16),
	};

	fslab_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
