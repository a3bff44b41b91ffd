// SPDX-License-Identifier: MIT
/* test_import.c: the importers' pure parts: labels from file names, the format dispatch,
 * json+ bins re-bucketed exactly (merged percentiles = those of all samples), n/a values,
 * text before fio's JSON, UTF-16, DiskSpd's top-level TimeSpan and <Error>. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "compare/import.h"
#include "msg.h"

static void test_label_from_file(void **state)
{
	static const char *const cases[][2] = {
		{ "ntfs.xml", "ntfs" },           { "dir/ntfs-2.xml", "ntfs" },
		{ "/a/b/refs_r3.html", "refs" },  { "ext4.1.json", "ext4" },
		{ "xfs-12t.json", "xfs-12t" },    { "run2.json", "run2" },
		{ "5", "5" },                     { "Performance_x.html", "Performance_x" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *l = import_label_from_file(cases[i][0]);

		assert_non_null(l);
		assert_string_equal(l, cases[i][1]);
		free(l);
	}
	assert_null(import_label_from_file("dir/"));
}

/* A fio json+ file of two jobs whose bins are given; values in ns. */
static char *fio_two_jobs(const char *bins1, uint64_t n1, const char *bins2, uint64_t n2)
{
	return xasprintf(
		"fio: a note before the JSON\n{ \"fio version\" : \"fio-3.33\", \"jobs\" : [\n"
		"{ \"jobname\": \"a\", \"error\": 0, \"job options\": { \"rw\": \"randread\" },\n"
		"  \"read\": { \"io_bytes\": %llu, \"total_ios\": %llu, \"iops\": 100, \"bw_bytes\": 409600,"
		" \"runtime\": 2000, \"clat_ns\": { \"min\": 1000, \"max\": 900000, \"mean\": 5000,"
		" \"stddev\": 10, \"N\": %llu, \"bins\": { %s } } },\n"
		"  \"write\": { \"total_ios\": 0, \"io_bytes\": 0, \"iops\": 0, \"bw_bytes\": 0 } },\n"
		"{ \"jobname\": \"a\", \"error\": 0, \"job options\": { \"rw\": \"randread\" },\n"
		"  \"read\": { \"io_bytes\": %llu, \"total_ios\": %llu, \"iops\": 50, \"bw_bytes\": 204800,"
		" \"runtime\": 2000, \"clat_ns\": { \"min\": 2000, \"max\": 800000, \"mean\": 8000,"
		" \"stddev\": 20, \"N\": %llu, \"bins\": { %s } } },\n"
		"  \"write\": { \"total_ios\": 0, \"io_bytes\": 0, \"iops\": 0, \"bw_bytes\": 0 } } ] }\n",
		(unsigned long long)n1 * 4096, (unsigned long long)n1, (unsigned long long)n1, bins1,
		(unsigned long long)n2 * 4096, (unsigned long long)n2, (unsigned long long)n2, bins2);
}

static void test_fio_bins_merged_exactly(void **state)
{
	/* job 1: 90 samples in the bucket of 1000 ns, 10 in that of 80000; job 2: 50 in that of
	 * 800000.  Of all 150, 60 % are in the first bucket (p50) and the 90th percentile is
	 * in the third: neither job alone has these percentiles. */
	char bins1[64], bins2[64], *buf;
	struct import_list l;
	struct class_result *c;
	uint64_t v1 = hist_bucket_value(hist_index(1000)), v2 = hist_bucket_value(hist_index(80000));
	uint64_t v3 = hist_bucket_value(hist_index(800000));

	(void)state;
	snprintf(bins1, sizeof(bins1), "\"%llu\": 90, \"%llu\": 10", (unsigned long long)v1,
		 (unsigned long long)v2);
	snprintf(bins2, sizeof(bins2), "\"%llu\": 50", (unsigned long long)v3);
	buf = fio_two_jobs(bins1, 100, bins2, 50);
	assert_int_equal(import_buffer(buf, strlen(buf), "two.json", NULL, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.r[0].label, "two");
	assert_string_equal(l.r[0].src.tool, "fio");
	assert_string_equal(l.r[0].src.version, "3.33");
	c = &l.r[0].classes[CLS_DB_READ];
	assert_int_equal(c->ops, 150);
	assert_true(fabs(c->iops - 150) < 1e-9);
	assert_true(fabs(c->lat_us.p50 - (double)v1 / 1e3) < 1e-9);
	assert_true(fabs(c->lat_us.p90 - (double)v3 / 1e3) < 1e-9);
	/* N-weighted mean of the jobs' means: (100 x 5000 + 50 x 8000) / 150 ns */
	assert_true(fabs(c->lat_us.mean - 6.0) < 1e-9);
	assert_true(fabs(c->lat_us.max - 900.0) < 1e-9);
	assert_non_null(c->hist);
	assert_int_equal(c->hist->n, 150);
	/* fio has no host CPU, no log writes: n/a and zero, not invented */
	assert_true(isnan(l.r[0].host.cpu_pct_avg));
	assert_int_equal(l.r[0].classes[CLS_LOG_WRITE].ops, 0);
	assert_true(isnan(l.r[0].classes[CLS_LOG_WRITE].lat_us.mean));
	import_list_release(&l);
	free(buf);
}

static void test_fio_no_bins_merged_na(void **state)
{
	char *buf = fio_two_jobs("", 100, "", 50);
	struct import_list l;

	(void)state;
	/* empty bins objects: a job with I/O and no usable histogram */
	assert_int_equal(import_buffer(buf, strlen(buf), "x.json", "lbl", &l), 0);
	assert_string_equal(l.r[0].label, "lbl");
	assert_true(isnan(l.r[0].classes[CLS_DB_READ].lat_us.p99));
	import_list_release(&l);
	free(buf);
}

static void test_diskspd_error_and_utf16(void **state)
{
	static const char xml[] =
		"<Results><System><ComputerName>W1</ComputerName><Tool><Version>2.2</Version></Tool>"
		"</System><Profile><TimeSpans><TimeSpan><Duration>10</Duration><Targets><Target>"
		"<BlockSize>4096</BlockSize><Random>4096</Random><WriteRatio>0</WriteRatio>"
		"</Target></Targets></TimeSpan></TimeSpans></Profile>"
		"<TimeSpan><Error>The test was interrupted before the measurements began.</Error>"
		"</TimeSpan></Results>";
	size_t n = strlen(xml), k = 2;
	char *u16 = xcalloc(1, 2 * n + 4);
	struct import_list l;

	(void)state;
	u16[0] = (char)0xff;
	u16[1] = (char)0xfe;
	for (size_t i = 0; i < n; i++, k += 2)
		u16[k] = xml[i];
	assert_int_equal(import_buffer(u16, k, "d/ntfs-1.xml", NULL, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.r[0].label, "ntfs");
	assert_string_equal(l.r[0].src.tool, "diskspd");
	assert_string_equal(l.r[0].src.host, "W1");
	assert_true(l.r[0].aborted);
	assert_non_null(strstr(l.r[0].abort_reason, "interrupted"));
	assert_string_equal(l.r[0].config.workload, "randread");
	import_list_release(&l);
	free(u16);
}

static void test_malformed_refused(void **state)
{
	static const char *const bad[] = {
		"{ \"fio version\" : \"fio-3.33\", \"jobs\" : [ { \"read\" : ",
		"{ \"fio version\" : \"fio-3.33\" }",
		"<Results><System></System><TimeSpan><TestTimeSeconds>1",
		"<Results><System></System></Results>",
		"<html><body><table><tr><td>Jetstress</td></tr></table></body></html>",
		"<html><body>Jetstress<table><tr><td class=\"grid_row_header\">Overall Test Result"
		"</td><td>Maybe</td></tr></table></body></html>",
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct import_list l;

		assert_int_equal(import_buffer(bad[i], strlen(bad[i]), "bad", NULL, &l),
				 -FSLAB_EINPUT);
		import_list_release(&l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_from_file),
		cmocka_unit_test(test_fio_bins_merged_exactly),
		cmocka_unit_test(test_fio_no_bins_merged_na),
		cmocka_unit_test(test_diskspd_error_and_utf16),
		cmocka_unit_test(test_malformed_refused),
	};

	fslab_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
