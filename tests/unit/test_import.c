// SPDX-License-Identifier: MIT
/* test_import.c: the importers' pure parts: labels from file names, the format dispatch,
 * json+ bins re-bucketed exactly (merged percentiles = those of all samples), n/a values,
 * text before fio's JSON, UTF-16, DiskSpd's top-level TimeSpan and <Error>; hostile input:
 * entities, counts out of range, fio latencies no run has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/import.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"

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

/* A fixture of tests/fixtures/interop read and imported into *l. */
static void import_fixture(const char *name, struct import_list *l)
{
	const char *top = getenv("FSLAB_TOP");
	char *path = xasprintf("%s/tests/fixtures/interop/%s", top ? top : ".", name), *buf;
	size_t len;

	assert_int_equal(read_file(path, &buf, &len), 0);
	assert_int_equal(import_buffer(buf, len, path, NULL, l), 0);
	free(buf);
	free(path);
}

/* fio 3.33 --steadystate: the job's "steadystate" object, as fio wrote it */
static void test_fio_steadystate(void **state)
{
	struct import_list l;
	const struct fio_steadystate *f;

	(void)state;
	import_fixture("fio-ss-attained.json", &l);
	assert_int_equal(l.r[0].nfio_ss, 1);
	f = &l.r[0].fio_ss[0];
	assert_string_equal(f->job, "ssjob");
	assert_string_equal(f->ss, "iops_slope:20.000000%");
	assert_string_equal(f->criterion, "-1.768649%");
	assert_true(f->attained);
	assert_true(f->duration_s == 4 && f->slope == -308.7 && f->max_deviation == 0);
	assert_true(f->iops_mean == 17454);
	import_list_release(&l);
	import_fixture("fio-ss-not-attained.json", &l);
	f = &l.r[0].fio_ss[0];
	assert_false(f->attained);
	assert_string_equal(f->ss, "iops:0.100000%");
	assert_true(f->max_deviation == 3523);
	import_list_release(&l);
	/* a job without --steadystate has none */
	import_fixture("fio-randread-2jobs.json", &l);
	assert_int_equal(l.r[0].nfio_ss, 0);
	import_list_release(&l);
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

/* UTF-16LE with a byte order mark, as PowerShell's '>' writes (heap; *len set). */
static char *utf16le(const char *text, size_t *len)
{
	size_t n = strlen(text), k = 2;
	char *u16 = xcalloc(1, 2 * n + 4);

	u16[0] = (char)0xff;
	u16[1] = (char)0xfe;
	for (size_t i = 0; i < n; i++, k += 2)
		u16[k] = text[i];
	*len = k;
	return u16;
}

/* A finished DiskSpd run of one thread: the TimeSpan's ThreadCount and ReadCount as given. */
static char *diskspd_run(const char *decl, const char *host, const char *threads,
			 const char *reads)
{
	return xasprintf(
		"%s<Results><System><ComputerName>%s</ComputerName><Tool><Version>2.2</Version>"
		"</Tool></System><Profile><TimeSpans><TimeSpan><Duration>10</Duration><Targets>"
		"<Target><BlockSize>4096</BlockSize><Random>4096</Random><WriteRatio>0</WriteRatio>"
		"</Target></Targets></TimeSpan></TimeSpans></Profile><TimeSpan>"
		"<TestTimeSeconds>10.00</TestTimeSeconds><ThreadCount>%s</ThreadCount>"
		"<Thread><Target><ReadCount>%s</ReadCount><ReadBytes>40960</ReadBytes>"
		"<WriteCount>0</WriteCount><WriteBytes>0</WriteBytes></Target></Thread></TimeSpan>"
		"</Results>", decl, host, threads, reads);
}

/*
 * A valid UTF-16 file that says so (encoding="UTF-16") is read, not refused as damaged;
 * counts beyond their field (2^32 + 1 threads) or not integers are refused, not cut.
 */
static void test_diskspd_encoding_and_counts(void **state)
{
	char *xml = diskspd_run("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n", "W2", "1", "10");
	char *u16;
	struct import_list l;
	size_t n;

	(void)state;
	u16 = utf16le(xml, &n);
	assert_int_equal(import_buffer(u16, n, "ntfs.xml", NULL, &l), 0);
	assert_string_equal(l.r[0].src.host, "W2");
	assert_int_equal(l.r[0].classes[CLS_DB_READ].ops, 10);
	assert_int_equal(l.r[0].config.threads, 1);
	import_list_release(&l);
	free(u16);
	free(xml);
	{
		static const char *const bad[][2] = {
			{ "4294967297", "10" }, { "1.5", "10" }, { "-1", "10" }, { "x", "10" },
			{ "1", "1.5" }, { "1", "-3" }, { "1", "1e30" },
		};
		for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
			xml = diskspd_run("", "W", bad[i][0], bad[i][1]);
			assert_int_equal(import_buffer(xml, strlen(xml), "ntfs.xml", NULL, &l),
					 -FSLAB_EINPUT);
			import_list_release(&l);
			free(xml);
		}
	}
}

/*
 * Entities declared in a DiskSpd XML are refused before anything reads the text: one
 * 100,000-character entity used 3000 times in <ComputerName> was expanded by the importer
 * (xmlNodeGetContent) to 300 MB, taking 9-17 s.  Jetstress's HTML parser expands none: fast.
 */
/* A Jetstress "Thread Count" beyond a million or not an integer is refused, not cut. */
static void test_jetstress_thread_count(void **state)
{
	static const char *const counts[] = { "4294967297", "1.5", "-2", "8", "8 (auto)" };
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
		char *html = xasprintf(
			"<html><body><p>Jetstress</p><table><tr><td class=\"grid_row_header\">"
			"Overall Test Result</td><td>Pass</td></tr><tr><td>Test Description</td>"
			"<td>DatabaseBackup</td></tr><tr><td>Thread Count</td><td>%s</td></tr></table>"
			"</body></html>", counts[i]);
		struct import_list l;
		int ret = import_buffer(html, strlen(html), "x.html", NULL, &l);

		assert_int_equal(ret, i < 3 ? -FSLAB_EINPUT : 0);
		if (!ret)
			assert_int_equal(l.r[0].config.threads, 8);
		import_list_release(&l);
		free(html);
	}
}

static void test_entities_refused(void **state)
{
	char *big = xmalloc(100001), *refs = xmalloc(3000 * 6 + 1), *decl, *xml;
	struct import_list l;
	uint64_t t0 = now_ns();

	(void)state;
	memset(big, 'x', 100000);
	big[100000] = 0;
	for (int i = 0; i < 3000; i++)
		memcpy(refs + 6 * i, "&big;", 6);
	refs[3000 * 6] = 0;
	for (int i = 0; i < 3000; i++)
		refs[6 * i + 5] = ' ';
	decl = xasprintf("<!DOCTYPE Results [<!ENTITY big \"%s\">]>\n", big);
	xml = diskspd_run(decl, refs, "1", "10");
	assert_int_equal(import_buffer(xml, strlen(xml), "laughs.xml", NULL, &l), -FSLAB_EINPUT);
	import_list_release(&l);
	free(xml);
	/* the same in an attribute (xmlGetProp expands it as well) and with an empty entity */
	free(decl);
	decl = xasprintf("<!DOCTYPE Results [<!ENTITY e \"\">]>\n");
	xml = diskspd_run(decl, "&e;W", "1", "10");
	assert_int_equal(import_buffer(xml, strlen(xml), "empty.xml", NULL, &l), -FSLAB_EINPUT);
	import_list_release(&l);
	free(xml);
	free(decl);
	decl = xasprintf("<!DOCTYPE html [<!ENTITY big \"%s\">]>\n<html><body><p>Jetstress</p>"
			 "<table><tr><td class=\"grid_row_header\">Overall Test Result</td>"
			 "<td>Pass</td></tr><tr><td>Machine Name</td><td>%s</td></tr></table>"
			 "</body></html>", big, refs);
	if (import_buffer(decl, strlen(decl), "Performance_x.html", NULL, &l) == 0)
		assert_true(strlen(l.r[0].src.host ? l.r[0].src.host : "") < 100000);
	import_list_release(&l);
	free(decl);
	/* 9 s and 320 MB before; a second here (a loose bound: the machine may be loaded) */
	assert_true(now_ns() - t0 < 5 * NSEC_PER_SEC);
	free(big);
	free(refs);
}

/* fio json+ with a mean or stddev no run has (1e300 ns: undefined behaviour when the sums
 * became the histogram's 128-bit integers) or numjobs beyond fio's own 4096: refused. */
static void test_fio_out_of_range(void **state)
{
	static const char *const bad[][4] = {
		{ "1e300", "10", "1", "1" }, { "5000", "1e300", "1", "1" }, { "1e16", "10", "1", "1" },
		{ "5000", "10", "4294967297", "1" }, { "5000", "10", "5000", "1" },
		{ "5000", "10", "1", "4294967297" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad) + 1; i++) {
		const char *const *b = i < ARRAY_SIZE(bad) ? bad[i] : (const char *[]){ "5000", "10",
											  "2", "8" };
		char *buf = xasprintf(
			"{ \"fio version\" : \"fio-3.33\", \"jobs\" : [\n"
			"{ \"jobname\": \"a\", \"error\": 0, \"job options\": { \"rw\": \"randread\","
			" \"numjobs\": \"%s\", \"iodepth\": \"%s\" },\n  \"read\": { \"io_bytes\": 409600,"
			" \"total_ios\": 100,"
			" \"iops\": 100, \"bw_bytes\": 409600, \"runtime\": 2000, \"clat_ns\": { \"min\":"
			" 1000, \"max\": 900000, \"mean\": %s, \"stddev\": %s, \"N\": 100, \"bins\": {"
			" \"1000\": 100 } } },\n  \"write\": { \"total_ios\": 0 } } ] }\n",
			b[2], b[3], b[0], b[1]);
		struct import_list l;

		assert_int_equal(import_buffer(buf, strlen(buf), "x.json", NULL, &l),
				 i < ARRAY_SIZE(bad) ? -FSLAB_EINPUT : 0);
		if (i == ARRAY_SIZE(bad)) {
			assert_int_equal(l.r[0].config.threads, 2);
			assert_int_equal(l.r[0].config.iodepth, 8);
		}
		import_list_release(&l);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_from_file),
		cmocka_unit_test(test_fio_bins_merged_exactly),
		cmocka_unit_test(test_fio_no_bins_merged_na),
		cmocka_unit_test(test_fio_steadystate),
		cmocka_unit_test(test_diskspd_error_and_utf16),
		cmocka_unit_test(test_malformed_refused),
		cmocka_unit_test(test_diskspd_encoding_and_counts),
		cmocka_unit_test(test_entities_refused),
		cmocka_unit_test(test_fio_out_of_range),
		cmocka_unit_test(test_jetstress_thread_count),
	};

	fslab_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
