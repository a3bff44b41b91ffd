// SPDX-License-Identifier: MIT
/* test_report_answer.c: the report's answer first (issue 21) on fixtures: verdicts once per
 * label with mixed verdicts ("FAIL in 2 of 3 runs", each failing check once with its range),
 * notes of many runs said once per label with the range of their numbers, the key table's
 * marks (claims only), the volume view from the device counters, the per-run detail folded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/reportP.h"
#include "lib/msg.h"

static char *fx(const char *name)
{
	const char *top = getenv("FSLAB_TOP");

	return xasprintf("%s/tests/fixtures/%s", top ? top : ".", name);
}

/* Build c from a NULL-terminated list of fixture names. */
static void build(struct compare *c, ...)
{
	struct compare_opts o = { 0 };
	char *files[16];
	size_t n = 0;
	const char *name;
	va_list ap;

	va_start(ap, c);
	while ((name = va_arg(ap, const char *)) && n < ARRAY_SIZE(files))
		files[n++] = fx(name);
	va_end(ap);
	assert_int_equal(compare_build(c, files, n, &o), 0);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
}

/* What one renderer writes as Markdown (heap). */
static char *render(const struct compare *c, void (*fn)(struct doc *, const struct compare *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct doc d;

	assert_non_null(m);
	doc_begin(&d, DOC_MD, m, "t");
	fn(&d, c);
	doc_end(&d);
	fclose(m);
	return buf;
}

static void has(const char *text, const char *want)
{
	if (!strstr(text, want)) {
		print_error("expected:\n%s\nin:\n%s\n", want, text);
		fail();
	}
}

static void has_not(const char *text, const char *unwanted)
{
	if (strstr(text, unwanted)) {
		print_error("did not expect:\n%s\nin:\n%s\n", unwanted, text);
		fail();
	}
}

/* ntfs fails on page-fault stalls in runs 1 and 3 (2.4/s each), passes in run 2: one line
 * per label, the failing check once, in how many runs; every run's own line folded. */
static void test_verdicts_mixed(void **state)
{
	struct compare c;
	char *v, *detail;

	(void)state;
	build(&c, "ext4-1.json", "ext4-2.json", "ntfs-1.json", "ntfs-2.json", "ntfs-3.json", NULL);
	v = render(&c, report_verdict_lines);
	has(v, "- **ext4: PASS** in 2 of 2 runs.\n");
	has(v, "- **ntfs: FAIL in 2 of 3 runs**: database page-fault stalls 2.40 /s, limit 1 /s "
	       "(stalls/s <= 1) in 2 of 3 runs.\n");
	/* the check once, though it failed in two runs and in every run's overall scope */
	assert_null(strstr(strstr(v, "page-fault") + 1, "page-fault"));
	detail = render(&c, report_run_detail);
	has(detail, "<details>\n<summary>Verdict of each run (5 runs");
	has(detail, "- ntfs (");
	has(detail, "ntfs-1.json): FAIL: db_page_fault_stalls 2.4 /s, limit 1 /s, rule "
		    "stalls/s <= 1 (overall, 144 session waits for a free cache page in 60 s)\n");
	has(detail, "ntfs-2.json): PASS, 7 checks\n");
	has(detail, "</details>\n");
	free(v);
	free(detail);
	compare_release(&c);
}

/* The fixtures' log-roll notes (fslab run's words) said once per label. */
static void test_notes_fixtures(void **state)
{
	struct compare c;
	char *n, *detail;

	(void)state;
	build(&c, "ext4-1.json", "ext4-2.json", "ntfs-1.json", "ntfs-2.json", "ntfs-3.json", NULL);
	n = render(&c, report_notes);
	has(n, "- ntfs: db1: 87-102 log rolls; close, renames and open took 1.03-1.42 ms on "
	       "average, 1.83-3.15 ms at most (counted in the log write that needed the new file) "
	       "(in 3 of 3 runs)\n");
	has_not(n, "- ext4:"); /* ext4's fixtures have no notes */
	/* each run's own note, under Per-run detail */
	detail = render(&c, report_run_detail);
	has(detail, "<summary>Notes of each run</summary>");
	has(detail, "ntfs-2.json): db1: 102 log rolls;");
	free(n);
	free(detail);
	compare_release(&c);
}

/* Notes of two runs of one label and what the report says of them. */
struct note_case {
	const char *run1[3], *run2[3];
	const char *want[3];
};

static const struct note_case note_cases[] = {
	/* numbers in words stay words (db1, ntfs-3g, a version, a path); free numbers range */
	{ { "ntfs-3g 2022.10.3 on /dev/loop12: 3 retries, 0.9 ms" },
	  { "ntfs-3g 2022.10.3 on /dev/loop12: 5 retries, 0.10 ms" },
	  { "- ext4: ntfs-3g 2022.10.3 on /dev/loop12: 3-5 retries, 0.10-0.9 ms (in 2 of 2 runs)\n" } },
	/* the same number in both: said once */
	{ { "the measurement (10 s) was shorter than one latency sample" },
	  { "the measurement (10 s) was shorter than one latency sample" },
	  { "- ext4: the measurement (10 s) was shorter than one latency sample (in 2 of 2 runs)\n" } },
	/* another database is another note; a note of one run says so */
	{ { "db1: 26 log rolls", "db2: 30 log rolls" }, { "db1: 28 log rolls" },
	  { "- ext4: db1: 26-28 log rolls (in 2 of 2 runs)\n",
	    "- ext4: db2: 30 log rolls (in 1 of 2 runs)\n" } },
	/* a note repeated inside one run counts that run once */
	{ { "checksum error during the load: db1 page 7", "checksum error during the load: db1 page 9" },
	  { "checksum pass skipped: the run was stopped early" },
	  { "- ext4: checksum error during the load: db1 page 7-9 (in 1 of 2 runs)\n",
	    "- ext4: checksum pass skipped: the run was stopped early (in 1 of 2 runs)\n" } },
	/* the template's marker byte in a note (a control character of a hostile file) is no
	 * number: it read past the note's numbers (fuzz_import_diskspd_text) */
	{ { "odd\x01 byte 3", "\x01\x01" }, { "odd\x01 byte 5" },
	  { "- ext4: odd  byte 3-5 (in 2 of 2 runs)\n" } },
};

static void test_note_templates(void **state)
{
	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(note_cases); k++) {
		const struct note_case *nc = &note_cases[k];
		const char *const *notes[2] = { nc->run1, nc->run2 };
		struct fslab_result r[2];
		struct compare_opts o = { 0 };
		struct compare c;
		char *text;

		for (int i = 0; i < 2; i++) {
			char *p = fx(i ? "ext4-2.json" : "ext4-1.json");

			assert_int_equal(result_read(p, &r[i]), 0);
			free(p);
			json_array_clear(r[i].notes);
			for (size_t j = 0; j < 3 && notes[i][j]; j++)
				json_array_append_new(r[i].notes, json_string(notes[i][j]));
		}
		assert_int_equal(compare_build_results(&c, r, 2, &o), 0);
		text = render(&c, report_notes);
		for (size_t j = 0; j < 3 && nc->want[j]; j++)
			has(text, nc->want[j]);
		free(text);
		compare_release(&c);
		for (int i = 0; i < 2; i++)
			result_release(&r[i]);
	}
}

/* The key table marks the claims that held (▲/▼, bold), never an uncorrected row. */
static void test_key_table(void **state)
{
	struct compare c;
	char *t;

	(void)state;
	build(&c, "ext4-1.json", "ext4-2.json", "xfs-1.json", "xfs-2.json", NULL);
	t = render(&c, report_key_table);
	has(t, "| Label | Transactional IOPS | DB read avg (ms) | Log write avg (ms) | Throughput "
	       "(MB/s) | CPU (%) | Memory used (GiB) | Verdict | Load shape (Jetstress) |\n");
	/* next to the verdict, the ratios outside Jetstress's bands (the fixtures' classes:
	 * 5 database transfers per log write, xfs's 1.49 reads per write) */
	has(t, "| PASS | db:log 5.0:1 |\n");
	has(t, "| PASS | db:log 5.0:1, reads:writes 1.49 |\n");
	/* every claim says its outcome; only a difference larger than the margin is marked */
	has(t, "| xfs | **▲ 5564 ± 103 (+12 %, different)** | **▲ 1.126 ± 0.049 (-10 %, "
	       "different)** | 0.995 ± 0.029 (-0.2 %, equivalent) | **▲ 192.2 ± 3.6 (+12 %, "
	       "different)** | 19.0 ± 2.1 (-9.8 %) |");
	has(t, "against the equivalence margin ±5 % (the default;");
	/* CPU differs significantly, uncorrected: exploration, not marked */
	has_not(t, "▼ 19.0");
	has_not(t, "▲ 19.0");
	free(t);
	compare_release(&c);

	/* one run each: nothing marked, said so */
	build(&c, "ext4-1.json", "xfs-1.json", NULL);
	t = render(&c, report_key_table);
	has_not(t, "▲");
	has_not(t, "**");
	has(t, "nothing is tested or marked");
	free(t);
	compare_release(&c);
}

/* The volume view: reads + writes per second and MB/s of a role's devices from their
 * counters, busy averaged; a device under both directories counted once, as the database. */
static void test_volumes(void **state)
{
	const struct metric_def *iops = NULL, *mbps = NULL, *util = NULL, *liops = NULL;
	struct fslab_result r;
	char *p = fx("ext4-1.json");
	double want;

	(void)state;
	for (size_t i = 0; i < compare_nmetrics; i++) {
		const struct metric_def *m = &compare_metrics[i];

		if (!strcmp(m->id, "db_dev_iops"))
			iops = m;
		else if (!strcmp(m->id, "db_dev_mbps"))
			mbps = m;
		else if (!strcmp(m->id, "db_dev_util"))
			util = m;
		else if (!strcmp(m->id, "log_dev_iops"))
			liops = m;
	}
	assert_non_null(iops);
	assert_non_null(liops);
	assert_int_equal(result_read(p, &r), 0);
	assert_int_equal(r.ndevices, 2);
	want = (double)(r.devices[0].read_ios + r.devices[0].write_ios) / r.duration_s;
	assert_true(fabs(compare_run_value(&r, iops) - want) < 1e-9);
	want = (double)(r.devices[0].read_bytes + r.devices[0].write_bytes) / 1e6 / r.duration_s;
	assert_true(fabs(compare_run_value(&r, mbps) - want) < 1e-9);
	assert_true(fabs(compare_run_value(&r, util) - r.devices[0].util_pct) < 1e-9);
	want = (double)(r.devices[1].read_ios + r.devices[1].write_ios) / r.duration_s;
	assert_true(fabs(compare_run_value(&r, liops) - want) < 1e-9);
	/* one disk under both directories: the database's, once; the log has none of its own */
	free(r.devices[0].role);
	r.devices[0].role = xstrdup("db+log");
	r.ndevices = 1;
	want = (double)(r.devices[0].read_ios + r.devices[0].write_ios) / r.duration_s;
	assert_true(fabs(compare_run_value(&r, iops) - want) < 1e-9);
	assert_true(isnan(compare_run_value(&r, liops)));
	r.ndevices = 2;
	result_release(&r);
	free(p);
}

/*
 * A p-value and the word beside it agree: the number shown stands on the same side of alpha
 * (0.05) as the p that decided, with the digits that takes (issue: 0.04999 read "significant
 * ... p = 0.050", 0.0501 "not significant ... p = 0.050").
 */
static void test_p_text(void **state)
{
	static const struct {
		double p;
		const char *text;
	} t[] = {
		{ 0.0004, "p < 0.001" }, { 0.003, "p = 0.003" }, { 0.69, "p = 0.690" },
		{ 0.04999, "p = 0.04999" }, { 0.0501, "p = 0.0501" }, { 0.0496, "p = 0.0496" },
		{ 0.04951, "p = 0.0495" }, { 0.05, "p = 0.050" }, { 0.0499999999, "p < 0.05" },
		{ 0.0500000001, "p > 0.05" }, { 0.049, "p = 0.049" }, { 0.051, "p = 0.051" },
	};
	struct cmp_delta d = { .present = true, .sig = SIG_YES, .corrected = true,
			       .level = STATS_ALPHA };
	char buf[64];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		assert_string_equal(report_p_text(buf, sizeof(buf), t[i].p), t[i].text);
		/* the number read back falls where the decision did */
		if (!strncmp(buf, "p = ", 4))
			assert_true((strtod(buf + 4, NULL) < STATS_ALPHA) == (t[i].p < STATS_ALPHA));
	}
	/* the words of a claim: the Holm-adjusted p that decided it */
	d.p = 0.01;
	d.p_holm = 0.04999;
	assert_string_equal(report_p_words(buf, sizeof(buf), &d), "Holm-adjusted p = 0.04999");
	d.corrected = false;
	d.p = 0.0501;
	assert_string_equal(report_p_words(buf, sizeof(buf), &d), "p = 0.0501, uncorrected");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts_mixed),
		cmocka_unit_test(test_notes_fixtures),
		cmocka_unit_test(test_note_templates),
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_volumes),
		cmocka_unit_test(test_p_text),
	};

	fslab_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
