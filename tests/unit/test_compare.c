// SPDX-License-Identifier: MIT
/* test_compare.c: the comparison model from fixtures: grouping, method, significance and its
 * wording, baselines in thread sweeps, the comparability guard, aborted runs, sizing. */
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
#include "compare/compare.h"
#include "compare/report.h"
#include "compare/sizing.h"
#include "lib/msg.h"

/* Fixture paths relative to the tree top (tests/run.sh runs us there; FSLAB_TOP overrides). */
static char *fx(const char *name)
{
	const char *top = getenv("FSLAB_TOP");

	return xasprintf("%s/tests/fixtures/%s", top ? top : ".", name);
}

/* Build c from a NULL-terminated list of fixture names. */
static int build(struct compare *c, const struct compare_opts *o, ...)
{
	char *files[16];
	size_t n = 0;
	const char *name;
	va_list ap;
	int ret;

	va_start(ap, o);
	while ((name = va_arg(ap, const char *)) && n < ARRAY_SIZE(files))
		files[n++] = fx(name);
	va_end(ap);
	ret = compare_build(c, files, n, o);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	return ret;
}

static const struct cmp_delta *delta(const struct compare *c, const char *id, size_t g)
{
	const struct cmp_row *row = compare_row(c, id);

	assert_non_null(row);
	return &row->deltas[g];
}

static const struct cmp_cell *cell(const struct compare *c, const char *id, size_t g)
{
	const struct cmp_row *row = compare_row(c, id);

	assert_non_null(row);
	return &row->cells[g];
}

/* The first summary sentence, heap. */
static char *first_sentence(const struct compare *c)
{
	struct strvec v = STRVEC_INIT;
	char *s;

	report_summary(c, &v);
	assert_true(v.nr >= 1);
	s = xstrdup(v.v[0]);
	strvec_clear(&v);
	return s;
}

static void test_repeats(void **state)
{
	struct compare_opts o = { 0 };
	struct compare c;
	char *s;

	(void)state;
	assert_int_equal(build(&c, &o, "ext4-1.json", "xfs-1.json", "ext4-2.json", "xfs-2.json",
			       NULL), 0);
	/* same label = repeats, groups in first-appearance order */
	assert_int_equal(c.ngroups, 2);
	assert_string_equal(c.groups[0].label, "ext4");
	assert_string_equal(c.groups[1].label, "xfs");
	assert_int_equal(c.groups[0].nruns, 2);
	assert_int_equal(c.groups[0].runs[1], 2);
	assert_string_equal(c.groups[1].fs, "xfs");
	assert_int_equal(c.method, CMP_REPEATS);
	assert_int_equal(c.baseline, 0);
	assert_int_equal(c.groups[1].base, 0);
	assert_int_equal(c.groups[0].base, -1);
	assert_false(c.threads_differ);
	assert_null(compare_row(&c, "threads"));
	assert_null(compare_row(&c, "mismatch"));

	/* the cell is the mean of the two runs' values */
	assert_int_equal(cell(&c, "trans_iops", 0)->kind, CELL_REPEATS);
	assert_int_equal(cell(&c, "trans_iops", 0)->s.n, 2);
	assert_true(fabs(cell(&c, "trans_iops", 0)->s.mean -
			 (c.results[0].transactional_iops + c.results[2].transactional_iops) / 2) <
		    1e-9);
	/* xfs ~12 % more IOPS: significant and better; log write latency equal: not */
	assert_int_equal(delta(&c, "trans_iops", 1)->sig, SIG_YES);
	assert_int_equal(delta(&c, "trans_iops", 1)->better, 1);
	assert_true(delta(&c, "trans_iops", 1)->pct > 10 && delta(&c, "trans_iops", 1)->pct < 14);
	assert_int_equal(delta(&c, "db_read_lat_avg", 1)->sig, SIG_YES);
	assert_int_equal(delta(&c, "db_read_lat_avg", 1)->better, 1); /* lower latency */
	assert_int_equal(delta(&c, "log_write_lat_avg", 1)->sig, SIG_NO);
	assert_int_equal(delta(&c, "log_write_lat_avg", 1)->better, 0);
	/* with repeats, percentiles have samples too */
	assert_int_equal(cell(&c, "db_read_lat_p99", 0)->kind, CELL_REPEATS);
	assert_false(delta(&c, "trans_iops", 0)->present);

	/* the headline claims are one Holm family; other rows are uncorrected */
	assert_int_equal(c.nclaims, 4);
	{
		double p[COMPARE_NHEADLINE], adj[COMPARE_NHEADLINE];

		for (size_t k = 0; k < COMPARE_NHEADLINE; k++)
			p[k] = delta(&c, compare_headline[k], 1)->p;
		stats_holm(p, COMPARE_NHEADLINE, adj);
		for (size_t k = 0; k < COMPARE_NHEADLINE; k++) {
			const struct cmp_delta *d = delta(&c, compare_headline[k], 1);

			assert_true(d->corrected);
			assert_true(fabs(d->p_holm - adj[k]) < 1e-12);
			assert_true(d->p_holm >= d->p);
			assert_int_equal(d->sig, adj[k] < STATS_ALPHA ? SIG_YES : SIG_NO);
			/* a minimum detectable difference from the observed spread */
			assert_true(isfinite(d->mde) && d->mde >= 0);
		}
	}
	assert_false(delta(&c, "db_read_iops", 1)->corrected);
	assert_true(isnan(delta(&c, "db_read_iops", 1)->p_holm));
	assert_true(isfinite(delta(&c, "trans_iops", 1)->half));

	s = first_sentence(&c);
	assert_non_null(strstr(s, "On this setup xfs delivered 12 % more transactional IOPS than "
				  "ext4"));
	assert_non_null(strstr(s, "2 runs each; significant, Welch's t-test Holm-adjusted p"));
	/* -0.2 % with a 90 % interval inside ±5 %: equivalent, said with the test that showed it */
	assert_int_equal(delta(&c, "log_write_lat_avg", 1)->outcome, OUT_EQUIVALENT);
	assert_non_null(strstr(s, "log write latency was equivalent within ±5 % (-0.2 % ["));
	assert_non_null(strstr(s, "TOST Holm-adjusted p = "));
	assert_null(strstr(s, "log write latency showed no significant difference"));
	assert_non_null(strstr(s, "database read latency was 10 % lower (significant"));
	free(s);
	compare_release(&c);

	/* without a margin the old words stay: "no significant difference" with what could
	 * not be seen */
	o.equivalence_pct = -1;
	assert_int_equal(build(&c, &o, "ext4-1.json", "xfs-1.json", "ext4-2.json", "xfs-2.json",
			       NULL), 0);
	s = first_sentence(&c);
	assert_non_null(strstr(s, "log write latency showed no significant difference (Holm-adjusted "
				  "p = "));
	assert_non_null(strstr(s, "% cannot be seen"));
	assert_null(strstr(s, "equivalent"));
	free(s);
	compare_release(&c);
}

/* Every rendering of c (summary, text and Markdown tables, article) into one heap string. */
static char *all_text(const struct compare *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct strvec v = STRVEC_INIT;

	assert_non_null(f);
	report_summary(c, &v);
	for (size_t i = 0; i < v.nr; i++)
		fprintf(f, "%s\n", v.v[i]);
	strvec_clear(&v);
	report_tables(f, DOC_TEXT, c, NULL);
	report_tables(f, DOC_MD, c, NULL);
	fclose(f);
	return buf;
}

static void test_batch_means(void **state)
{
	struct compare_opts o = { 0 };
	struct compare c;

	(void)state;
	assert_int_equal(build(&c, &o, "ext4-1.json", "xfs-1.json", NULL), 0);
	assert_int_equal(c.method, CMP_BATCH);
	assert_int_equal(c.groups[0].plan.k, 10);
	assert_int_equal(c.groups[0].plan.len, 6);
	/* point estimate: the run's own value; spread: 10 batch means */
	assert_int_equal(cell(&c, "trans_iops", 0)->kind, CELL_BATCH);
	assert_int_equal(cell(&c, "trans_iops", 0)->s.n, 10);
	assert_true(cell(&c, "trans_iops", 0)->s.mean == c.results[0].transactional_iops);
	assert_true(cell(&c, "trans_iops", 0)->s.half > 0);
	assert_int_equal(cell(&c, "cpu", 0)->kind, CELL_BATCH);
	/* no per-second data: a value, never a win */
	assert_int_equal(cell(&c, "db_read_lat_p99", 1)->kind, CELL_VALUE);
	assert_int_equal(delta(&c, "db_read_lat_p99", 1)->sig, SIG_NA);
	assert_string_equal(delta(&c, "db_read_lat_p99", 1)->na_why, "single values");
	assert_int_equal(delta(&c, "db_read_lat_p99", 1)->better, 0);
	assert_int_equal(delta(&c, "db_wa", 1)->sig, SIG_NA);
	/* one run per label: a difference with its within-run interval, never a claim */
	assert_int_equal(delta(&c, "trans_iops", 1)->sig, SIG_WITHIN);
	assert_int_equal(delta(&c, "trans_iops", 1)->better, 0);
	assert_true(delta(&c, "trans_iops", 1)->half > 0);
	assert_true(isnan(delta(&c, "trans_iops", 1)->mde));
	assert_int_equal(delta(&c, "log_write_lat_avg", 1)->sig, SIG_WITHIN);
	assert_int_equal(c.nclaims, 0);
	{
		char *all = all_text(&c);

		assert_null(strstr(all, "significant,"));
		assert_null(strstr(all, "(significant"));
		assert_null(strstr(all, "no significant"));
		assert_null(strstr(all, "better"));
		assert_null(strstr(all, "worse"));
		assert_null(strstr(all, "**"));
		assert_non_null(strstr(all, "Within one run per label, xfs delivered"));
		assert_non_null(strstr(all, "at least 2 independent runs per label"));
		assert_non_null(strstr(all, "within one run"));
		free(all);
	}
	/* text rows */
	assert_string_equal(cell(&c, "verdict", 0)->text, "PASS");
	assert_string_equal(cell(&c, "cache_reads", 0)->text, "no");
	assert_string_equal(cell(&c, "runs", 1)->text, "1");
	compare_release(&c);
}

/* A copy of a fixture under another label and start time (NULL: unchanged). */
static char *relabel_at(const char *name, const char *label, const char *at);

/* A copy of a fixture under another label, for a pair with no real difference. */
static char *relabel(const char *name, const char *label)
{
	return relabel_at(name, label, NULL);
}

static char *relabel_at(const char *name, const char *label, const char *at)
{
	char *src = fx(name), path[] = "/tmp/fslab-test-relabel.XXXXXX";
	json_error_t err;
	json_t *root = json_load_file(src, 0, &err);
	int fd = mkstemp(path);

	assert_non_null(root);
	assert_true(fd >= 0);
	close(fd);
	json_object_set_new(root, "label", json_string(label));
	if (at)
		json_object_set_new(root, "started_at", json_string(at));
	assert_int_equal(json_dump_file(root, path, 0), 0);
	json_decref(root);
	free(src);
	return xstrdup(path);
}

static void test_no_difference_wording(void **state)
{
	struct compare_opts o = { 0 };
	char *files[4] = { fx("ext4-1.json"), fx("ext4-2.json"), relabel("ext4-1.json", "ext4-again"),
			   relabel("ext4-2.json", "ext4-again") };
	struct compare c;
	char *s;

	(void)state;
	assert_int_equal(compare_build(&c, files, 4, &o), 0);
	assert_int_equal(c.method, CMP_REPEATS);
	assert_int_equal(delta(&c, "trans_iops", 1)->sig, SIG_NO);
	/* the same runs again: equivalent, never "more" or "fewer" */
	assert_int_equal(delta(&c, "trans_iops", 1)->outcome, OUT_EQUIVALENT);
	s = first_sentence(&c);
	assert_non_null(strstr(s, "On this setup ext4-again and ext4 are equivalent within ±5 % "
				  "(+0.0 % [") && strstr(s, "in transactional IOPS"));
	assert_null(strstr(s, "more transactional"));
	assert_null(strstr(s, "fewer transactional"));
	free(s);
	compare_release(&c);
	/* without a margin: no significant difference, with what could not be seen */
	o.equivalence_pct = -1;
	assert_int_equal(compare_build(&c, files, 4, &o), 0);
	s = first_sentence(&c);
	assert_non_null(strstr(s, "On this setup ext4-again and ext4 showed no significant "
				  "difference in transactional IOPS"));
	assert_non_null(strstr(s, "cannot be seen with 2 runs each on this machine"));
	assert_null(strstr(s, "more transactional"));
	assert_null(strstr(s, "fewer transactional"));
	free(s);
	compare_release(&c);
	for (size_t i = 0; i < 4; i++) {
		if (i >= 2)
			unlink(files[i]);
		free(files[i]);
	}
}

/* The A/A check: runs labelled "ext4-aa" beside "ext4" are its noise floor. */
static void test_aa_check(void **state)
{
	struct compare_opts o = { 0 };
	char *files[6] = { fx("ext4-1.json"), fx("ext4-2.json"), fx("xfs-1.json"), fx("xfs-2.json"),
			   relabel("ext4-1.json", "ext4-aa"), relabel("ext4-2.json", "ext4-aa") };
	struct compare c;
	char *all;

	(void)state;
	/* ext4-aa = the same runs as ext4 again: the noise floor, no alarm, no claim */
	assert_int_equal(compare_build(&c, files, 6, &o), 0);
	assert_int_equal(c.ngroups, 3);
	assert_int_equal(c.baseline, 0);
	assert_int_equal(c.groups[2].aa_of, 0);
	assert_int_equal(c.groups[2].base, 0);
	assert_int_equal(compare_aa_of(&c, 0), 2);
	assert_int_equal(c.nclaims, 4); /* xfs only: the A/A check is its own family */
	assert_int_equal(c.aa_alarm, -1);
	assert_int_equal(delta(&c, "trans_iops", 2)->sig, SIG_NO);
	all = all_text(&c);
	assert_non_null(strstr(all, "A/A check (the lab's noise floor): ext4-aa, the same setup "
				    "as ext4"));
	assert_null(strstr(all, "A/A check failed"));
	assert_null(strstr(all, "ext4-aa delivered"));
	free(all);
	compare_release(&c);

	/* an "A/A" pair that differs (xfs's runs under ext4-aa): a loud warning, first */
	for (size_t i = 4; i < 6; i++) {
		unlink(files[i]);
		free(files[i]);
	}
	files[4] = relabel("xfs-1.json", "ext4-aa");
	files[5] = relabel("xfs-2.json", "ext4-aa");
	assert_int_equal(compare_build(&c, files, 6, &o), 0);
	assert_int_equal(c.aa_alarm, 2);
	assert_int_equal(delta(&c, "trans_iops", 2)->sig, SIG_YES);
	all = first_sentence(&c);
	assert_non_null(strstr(all, "WARNING: the A/A check failed. ext4-aa is the same setup as "
				    "ext4"));
	free(all);
	all = all_text(&c);
	assert_non_null(strstr(all, "this machine is too noisy for the claims"));
	free(all);
	compare_release(&c);
	for (size_t i = 0; i < 6; i++) {
		if (i >= 4)
			unlink(files[i]);
		free(files[i]);
	}
}

/* The Method's run order, from the start times. */
static void test_run_order(void **state)
{
	struct compare_opts o = { 0 };
	struct compare c;
	char *files[4], *txt;
	bool il;

	(void)state;
	/* the fixtures share one start time: the order is unknown, not invented */
	assert_int_equal(build(&c, &o, "ext4-1.json", "xfs-1.json", "ext4-2.json", "xfs-2.json",
			       NULL), 0);
	assert_null(report_run_order(&c, &il));
	assert_false(il);
	compare_release(&c);

	/* round 1: ext4, xfs; round 2: xfs, ext4 (shuffled): interleaved */
	files[0] = relabel_at("ext4-1.json", "ext4", "2026-12-01T10:00:00Z");
	files[1] = relabel_at("ext4-2.json", "ext4", "2026-12-01T10:03:00Z");
	files[2] = relabel_at("xfs-1.json", "xfs", "2026-12-01T10:01:00Z");
	files[3] = relabel_at("xfs-2.json", "xfs", "2026-12-01T10:02:00Z");
	assert_int_equal(compare_build(&c, files, 4, &o), 0);
	txt = report_run_order(&c, &il);
	assert_true(il);
	assert_non_null(txt);
	assert_non_null(strstr(txt, "interleaved in 2 rounds"));
	assert_non_null(strstr(txt, "(ext4, xfs | xfs, ext4)"));
	free(txt);
	compare_release(&c);
	for (size_t i = 0; i < 4; i++) {
		unlink(files[i]);
		free(files[i]);
	}

	/* all of ext4, then all of xfs: not interleaved, and said so */
	files[0] = relabel_at("ext4-1.json", "ext4", "2026-12-01T10:00:00Z");
	files[1] = relabel_at("ext4-2.json", "ext4", "2026-12-01T10:01:00Z");
	files[2] = relabel_at("xfs-1.json", "xfs", "2026-12-01T10:02:00Z");
	files[3] = relabel_at("xfs-2.json", "xfs", "2026-12-01T10:03:00Z");
	assert_int_equal(compare_build(&c, files, 4, &o), 0);
	txt = report_run_order(&c, &il);
	assert_false(il);
	assert_non_null(strstr(txt, "NOT interleaved (ext4, ext4, xfs, xfs)"));
	free(txt);
	compare_release(&c);
	for (size_t i = 0; i < 4; i++) {
		unlink(files[i]);
		free(files[i]);
	}
}

static void test_sweep(void **state)
{
	struct compare_opts o = { 0 };
	struct compare c;

	(void)state;
	assert_int_equal(build(&c, &o, "ext4-4t.json", "ext4-8t.json", "ext4-12t.json",
			       "xfs-4t.json", "xfs-8t.json", "xfs-12t.json", NULL), 0);
	assert_true(c.threads_differ);
	assert_non_null(compare_row(&c, "threads"));
	/* ext4 at 8 and 12 threads against the baseline; xfs against ext4 at its thread count */
	assert_int_equal(c.groups[1].base, 0);
	assert_int_equal(c.groups[2].base, 0);
	assert_int_equal(c.groups[3].base, 0);
	assert_int_equal(c.groups[4].base, 1);
	assert_int_equal(c.groups[5].base, 2);
	assert_int_equal(c.nsweeps, 2);
	assert_string_equal(c.sweeps[0].fs, "ext4");
	assert_int_equal(c.sweeps[0].n, 3);
	assert_true(fabs(c.sweeps[0].eff[0] - 100) < 1e-9);
	/* efficiency = IOPS(n) / (IOPS(4) * n / 4) */
	assert_true(fabs(c.sweeps[0].eff[2] - cell(&c, "trans_iops", 2)->s.mean /
			 (cell(&c, "trans_iops", 0)->s.mean * 3) * 100) < 1e-9);
	assert_true(c.sweeps[0].eff[2] > 80 && c.sweeps[0].eff[2] < 90);
	assert_non_null(strstr(cell(&c, "verdict", 2)->text, "FAIL (db_page_fault_stalls)"));
	compare_release(&c);

	/* a single-filesystem sweep in any order is sorted by threads */
	assert_int_equal(build(&c, &o, "ext4-12t.json", "ext4-4t.json", "ext4-8t.json", NULL), 0);
	assert_int_equal(c.nsweeps, 1);
	assert_int_equal(c.groups[c.sweeps[0].groups[0]].threads, 4);
	assert_int_equal(c.groups[c.sweeps[0].groups[2]].threads, 12);
	compare_release(&c);
}

static void test_baseline(void **state)
{
	struct compare_opts o = { .baseline = "xfs" };
	struct compare c;

	(void)state;
	assert_int_equal(build(&c, &o, "ext4-1.json", "xfs-1.json", "ext4-2.json", "xfs-2.json",
			       NULL), 0);
	assert_int_equal(c.baseline, 1);
	assert_int_equal(c.groups[0].base, 1);
	assert_int_equal(delta(&c, "trans_iops", 0)->better, -1);
	compare_release(&c);
	o.baseline = "btrfs";
	assert_int_equal(build(&c, &o, "ext4-1.json", "xfs-1.json", NULL), -FSLAB_EINPUT);
	compare_release(&c);
}

static void test_guard(void **state)
{
	struct compare_opts o = { 0 };
	struct compare c;

	(void)state;
	assert_int_equal(build(&c, &o, "ext4-1.json", "xfs-seed7.json", NULL), -FSLAB_EINPUT);
	compare_release(&c);
	o.allow_mismatch = true;
	assert_int_equal(build(&c, &o, "ext4-1.json", "xfs-seed7.json", NULL), 0);
	assert_int_equal(c.warnings.nr, 1);
	assert_non_null(strstr(c.warnings.v[0], "seed 7 vs 42"));
	assert_string_equal(cell(&c, "mismatch", 1)->text, "seed 7 vs 42");
	assert_string_equal(cell(&c, "mismatch", 0)->text, "-");
	compare_release(&c);
	/* threads may differ between labels (a sweep), not between repeats of one label */
	o.allow_mismatch = false;
	assert_int_equal(build(&c, &o, "ext4-4t.json", "ext4-8t.json", NULL), 0);
	compare_release(&c);
}

static void test_aborted(void **state)
{
	struct compare_opts o = { 0 };
	struct compare c;

	(void)state;
	assert_int_equal(build(&c, &o, "xfs-1.json", "xfs-aborted.json", NULL), -FSLAB_EINPUT);
	compare_release(&c);
	o.allow_aborted = true;
	assert_int_equal(build(&c, &o, "xfs-1.json", "xfs-aborted.json", NULL), 0);
	/* never pooled with the complete run of the same label */
	assert_int_equal(c.ngroups, 2);
	assert_int_equal(c.groups[0].nruns, 1);
	assert_true(c.groups[1].aborted);
	assert_string_equal(c.groups[1].label, "xfs [ABORTED]");
	assert_int_equal(delta(&c, "trans_iops", 1)->sig, SIG_NA);
	assert_string_equal(delta(&c, "trans_iops", 1)->na_why, "aborted run");
	assert_string_equal(cell(&c, "runs", 1)->text, "1 ABORTED");
	compare_release(&c);
}

static void test_bad_files(void **state)
{
	static const char *const bad[] = {
		"truncated.json", "not-fslab.json", "wrong-schema.json", "no-such-file.json",
	};
	struct compare_opts o = { 0 };
	struct compare c;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(build(&c, &o, "ext4-1.json", bad[i], NULL), -FSLAB_EINPUT);
		compare_release(&c);
	}
	assert_int_equal(compare_build(&c, NULL, 0, &o), -FSLAB_EINPUT);
	compare_release(&c);
}

static void test_cache_and_fs(void **state)
{
	struct compare_opts o = { .allow_mismatch = true };
	struct compare c;
	struct strvec v = STRVEC_INIT;
	bool warned = false;

	(void)state;
	assert_int_equal(build(&c, &o, "ext4-1.json", "ntfs-cached.json", NULL), 0);
	assert_non_null(strstr(cell(&c, "cache_reads", 1)->text, "YES"));
	report_summary(&c, &v);
	for (size_t i = 0; i < v.nr; i++)
		warned |= strstr(v.v[i], "Warning: on ntfs a cache served the database reads") != NULL;
	strvec_clear(&v);
	assert_true(warned);

	/* filesystem: db volume fstype, else prep.fs, else the label */
	assert_string_equal(compare_result_fs(&c.results[0]), "ext4");
	json_object_del(c.results[0].environment, "volumes");
	assert_string_equal(compare_result_fs(&c.results[0]), "ext4");
	json_object_del(c.results[0].environment, "prep");
	free(c.results[0].label);
	c.results[0].label = xstrdup("mylabel");
	assert_string_equal(compare_result_fs(&c.results[0]), "mylabel");
	compare_release(&c);
}

static void test_sizing(void **state)
{
	struct sizing_opts s;

	(void)state;
	sizing_opts_default(&s);
	assert_int_equal(s.nprofiles, 10);
	assert_int_equal(s.profiles[2], 150);
	/* 150 messages/day: 150 x 0.00067 = 0.1005 IOPS, + 20 % = 0.1206 */
	assert_true(fabs(sizing_iops_per_mailbox(&s, 150) - 0.1206) < 1e-12);
	assert_int_equal(sizing_mailboxes(&s, 150, 1206), 10000);
	assert_int_equal(sizing_mailboxes(&s, 150, 1205.9), 9999);
	assert_int_equal(sizing_mailboxes(&s, 150, 0), 0);
	/* hostile numbers: saturate, never an undefined double-to-integer conversion */
	assert_true(sizing_mailboxes(&s, 150, 1e308) == UINT64_MAX);
	assert_int_equal(sizing_mailboxes(&s, 150, NAN), 0);
	s.overhead_pct = 0;
	assert_int_equal(sizing_mailboxes(&s, 150, 5580), 55522);
}

/*
 * Tuned loads (--threads auto): the capacity row in transactional IOPS' place, a headline
 * claim of the blocked model like any other (the thread counts differ per cell: allowed); a
 * tuned label against one at a count given is refused; sizing plans with the lower end of
 * the capacity's interval.  The fixtures: one lab, three rounds, capacity 30 % apart.
 */
static void test_tuned(void **state)
{
	struct compare_opts o = { 0 };
	struct compare c;
	const struct cmp_row *row;
	const struct cmp_delta *d;
	bool low;
	double plan;

	(void)state;
	assert_int_equal(build(&c, &o, "slow-auto-r1.json", "slow-auto-r2.json", "slow-auto-r3.json",
			       "fast-auto-r1.json", "fast-auto-r2.json", "fast-auto-r3.json", NULL), 0);
	assert_true(c.tuned && c.blocked);
	assert_true(compare_any_tuned(&c));
	assert_true(c.groups[0].tuned && c.groups[1].tuned);
	/* one row of transactional IOPS, called capacity; trans_iops finds it */
	row = compare_row(&c, "trans_iops");
	assert_non_null(row);
	assert_string_equal(row->m->id, "capacity");
	assert_ptr_equal(row, compare_row(&c, "capacity"));
	for (size_t r = 0; r < c.nrows; r++)
		assert_string_not_equal(c.rows[r].m->id, "trans_iops");
	assert_true(compare_is_headline("capacity"));
	/* each label's counts: the same in every round, or by run */
	assert_string_equal(cell(&c, "threads", 0)->text, "auto: 5");
	assert_string_equal(cell(&c, "threads", 1)->text, "auto: 6-7 (6, 7, 6)");
	assert_false(c.threads_differ);
	assert_int_equal(c.nsweeps, 0);
	/* the claim: blocked, Holm over the four headline metrics of the one pair */
	d = delta(&c, "capacity", 1);
	assert_true(d->blocked && d->corrected);
	assert_int_equal(d->sig, SIG_YES);
	assert_int_equal(d->better, 1);
	assert_int_equal(c.nclaims, 4);
	assert_true(d->pct > 28 && d->pct < 34);
	assert_true(d->lo_pct < 30.5 && d->hi_pct > 30.5); /* the fixtures' 2600 : 2000 and so on */
	/* sizing: the lower end of the capacity's interval over the runs */
	plan = compare_sizing_iops(&c, 1, &low);
	assert_true(low);
	assert_true(fabs(plan - (row->cells[1].s.mean - row->cells[1].s.half)) < 1e-9);
	assert_true(plan < row->cells[1].s.mean);
	compare_release(&c);

	/* a tuned label against one run at a count given: not like with like */
	assert_int_equal(build(&c, &o, "ext4-1.json", "ext4-2.json", "slow-auto-r1.json",
			       "slow-auto-r2.json", NULL), -FSLAB_EINPUT);
	compare_release(&c);
	o.allow_mismatch = true;
	assert_int_equal(build(&c, &o, "ext4-1.json", "ext4-2.json", "slow-auto-r1.json",
			       "slow-auto-r2.json", NULL), 0);
	assert_non_null(strstr(c.warnings.v[0], "threads auto vs a count"));
	assert_false(c.tuned);
	assert_string_equal(compare_row(&c, "trans_iops")->m->id, "trans_iops");
	assert_null(compare_row(&c, "capacity"));
	plan = compare_sizing_iops(&c, 0, &low);
	assert_false(low); /* a count given: its mean, not at the limit */
	compare_release(&c);

	/* hand runs: nothing of it */
	o.allow_mismatch = false;
	assert_int_equal(build(&c, &o, "ext4-1.json", "xfs-1.json", NULL), 0);
	assert_false(compare_any_tuned(&c));
	assert_null(compare_row(&c, "capacity"));
	assert_null(compare_row(&c, "threads"));
	compare_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repeats),
		cmocka_unit_test(test_batch_means),
		cmocka_unit_test(test_no_difference_wording),
		cmocka_unit_test(test_aa_check),
		cmocka_unit_test(test_run_order),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_baseline),
		cmocka_unit_test(test_guard),
		cmocka_unit_test(test_aborted),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_cache_and_fs),
		cmocka_unit_test(test_sizing),
		cmocka_unit_test(test_tuned),
	};

	fslab_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
