// SPDX-License-Identifier: MIT
/*
 * test_comparable.c: comparability from the option table (src/compare/comparable.c), driven
 * by the table itself over a real fixture result edited with jansson: results differing only
 * in any one load-shaping option are refused naming it, and with --allow-mismatch compared
 * with the WARNING row naming it; results differing in what describes the run are compared
 * without a word; the sweep axis may differ between labels, not between repeats; a value one
 * result does not record is not compared, and the Method says so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "compare/compare.h"
#include "run/options.h"

static char errors[8192];
static char dir[] = "/tmp/fslab-cmp.XXXXXX";

static char *fixture(const char *name)
{
	const char *top = getenv("FSLAB_TOP");

	return xasprintf("%s/tests/fixtures/%s", top ? top : ".", name);
}

/* The fixture everything starts from: a real result as fslab run writes it. */
static json_t *base_result(void)
{
	char *path = fixture("ext4-1.json");
	json_t *j = json_load_file(path, 0, NULL);

	assert_non_null(j);
	free(path);
	return j;
}

static char *save(json_t *j, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);

	assert_int_equal(json_dump_file(j, path, JSON_INDENT(1)), 0);
	return path;
}

/* compare_build of files a and b with stderr captured into errors[]. */
static int build2(struct compare *c, const struct compare_opts *o, char *a, char *b)
{
	char errpath[] = "/tmp/fslab-cmp-err.XXXXXX";
	char *files[] = { a, b };
	int fd = mkstemp(errpath), saved = dup(2), ret;
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	ret = compare_build(c, files, 2, o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, errors, sizeof(errors) - 1, 0);
	errors[n > 0 ? n : 0] = 0;
	close(fd);
	unlink(errpath);
	return ret;
}

/* A value for the key when the fixture has none (null or absent), by the option's type. */
static json_t *some_value(const struct run_option *o)
{
	switch (o->type) {
	case ROT_STR:
	case ROT_CHOICE:
		return json_string("a");
	case ROT_FLAG:
		return json_false();
	case ROT_TIME:
	case ROT_REAL:
		return json_real(10.5);
	default:
		return json_integer(10);
	}
}

/* Another value of the same JSON type. */
static json_t *other_value(json_t *v)
{
	if (json_is_string(v))
		return json_sprintf("%s-other", json_string_value(v));
	if (json_is_boolean(v))
		return json_boolean(!json_is_true(v));
	if (json_is_integer(v))
		return json_integer(json_integer_value(v) + 1);
	return json_real(json_number_value(v) + 0.5);
}

/* Results a and b of the fixture that differ in option o's value only (b labelled "other"). */
static void pair(const struct run_option *o, char **a, char **b)
{
	json_t *ja = base_result(), *jb;
	json_t *cfg = json_object_get(ja, "config");
	const char *key = run_config_key(o->off);
	json_t *v = json_object_get(cfg, key);

	/* both must record it: a value where the fixture has none (jetstress's rwmixread) */
	if (!v || json_is_null(v))
		json_object_set_new(cfg, key, some_value(o));
	jb = json_deep_copy(ja);
	json_object_set_new(json_object_get(jb, "config"), key,
			    other_value(json_object_get(cfg, key)));
	json_object_set_new(jb, "label", json_string("other"));
	*a = save(ja, "a.json");
	*b = save(jb, "b.json");
	json_decref(ja);
	json_decref(jb);
}

/* Every option carries its mark; every load-shaping one has a field in the result. */
static void test_marks(void **state)
{
	size_t nload = 0;

	(void)state;
	for (size_t i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];

		assert_true(o->cmp == ROC_LOAD || o->cmp == ROC_RUN || o->cmp == ROC_SWEEP);
		if (o->cmp == ROC_LOAD) {
			nload++;
			if (!run_config_key(o->off)) {
				fprintf(stderr, "--%s shapes the load but the result has no field "
					"for it\n", o->name);
				fail();
			}
		}
	}
	assert_true(nload >= 20);
	/* the lab's per-cell options describe the run, threads is the sweep axis */
	assert_int_equal(run_options[RO_LABEL].cmp, ROC_RUN);
	assert_int_equal(run_options[RO_OUTPUT].cmp, ROC_RUN);
	assert_int_equal(run_options[RO_PROGRESS_FD].cmp, ROC_RUN);
	assert_int_equal(run_options[RO_THREADS].cmp, ROC_SWEEP);
	assert_int_equal(run_options[RO_CACHE].cmp, ROC_LOAD);
}

/* Differing only in one load-shaping option: refused naming it; --allow-mismatch: warned. */
static void test_load_option_refused(void **state)
{
	(void)state;
	for (size_t i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];
		struct compare_opts opts = { 0 };
		struct compare c;
		char *a, *b, *want = xasprintf(": %s ", o->name), *cellwant;
		const struct cmp_row *row;

		if (o->cmp != ROC_LOAD) {
			free(want);
			continue;
		}
		pair(o, &a, &b);
		if (build2(&c, &opts, a, b) != -FSLAB_EINPUT || !strstr(errors, want) ||
		    !strstr(errors, " vs ") || !strstr(errors, "--allow-mismatch")) {
			fprintf(stderr, "--%s differing: not refused naming it: %s\n", o->name,
				errors);
			fail();
		}
		compare_release(&c);
		opts.allow_mismatch = true;
		assert_int_equal(build2(&c, &opts, a, b), 0);
		assert_int_equal(c.warnings.nr, 1);
		cellwant = xasprintf("%s ", o->name);
		assert_non_null(strstr(c.warnings.v[0], want));
		row = compare_row(&c, "mismatch");
		assert_non_null(row);
		assert_int_equal(strncmp(row->cells[1].text, cellwant, strlen(cellwant)), 0);
		assert_string_equal(row->cells[0].text, "-");
		compare_release(&c);
		unlink(a);
		unlink(b);
		free(a);
		free(b);
		free(want);
		free(cellwant);
	}
}

/* What describes the run (label, directories) may differ: compared without a word. */
static void test_run_options_silent(void **state)
{
	json_t *ja = base_result(), *jb = json_deep_copy(ja);
	json_t *cfg = json_object_get(jb, "config");
	struct compare_opts opts = { 0 };
	struct compare c;
	char *a, *b;
	size_t edited = 0;

	(void)state;
	json_object_set_new(jb, "label", json_string("other"));
	for (size_t i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];
		const char *key = run_config_key(o->off);

		if (o->cmp != ROC_RUN || !key)
			continue;
		/* every run-describing option the file records (--db, --log) is edited */
		json_object_set_new(cfg, key, json_pack("[s]", "/elsewhere/on/another/volume"));
		edited++;
	}
	assert_true(edited >= 2);
	a = save(ja, "a.json");
	b = save(jb, "b.json");
	assert_int_equal(build2(&c, &opts, a, b), 0);
	assert_int_equal(c.warnings.nr, 0);
	assert_string_equal(errors, "");
	compare_release(&c);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	json_decref(ja);
	json_decref(jb);
}

/* threads: between labels a sweep, between repeats of one label a mismatch. */
static void test_sweep_axis(void **state)
{
	json_t *ja = base_result(), *jb = json_deep_copy(ja);
	struct compare_opts opts = { 0 };
	struct compare c;
	char *a, *b;

	(void)state;
	json_object_set_new(json_object_get(jb, "config"), "threads", json_integer(16));
	/* another run (a copy of the same one is refused as that run given twice) */
	json_object_set_new(jb, "started_at", json_string("2026-12-01T11:00:00Z"));
	a = save(ja, "a.json");
	b = save(jb, "b.json");
	/* same label: refused naming threads */
	assert_int_equal(build2(&c, &opts, a, b), -FSLAB_EINPUT);
	assert_non_null(strstr(errors, "threads 16 vs 4 within label 'ext4'"));
	compare_release(&c);
	free(b);
	json_object_set_new(jb, "label", json_string("ext4-16t"));
	b = save(jb, "b.json");
	assert_int_equal(build2(&c, &opts, a, b), 0);
	assert_int_equal(c.warnings.nr, 0);
	compare_release(&c);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	json_decref(ja);
	json_decref(jb);
}

/* A value one result does not record (an older file, another tool) is not compared, and
 * the Method names it for that label. */
static void test_unrecorded(void **state)
{
	json_t *ja = base_result(), *jb = json_deep_copy(ja);
	json_t *cfg = json_object_get(jb, "config");
	struct compare_opts opts = { 0 };
	struct compare c;
	char *a, *b;
	struct strvec v = STRVEC_INIT;

	(void)state;
	json_object_set_new(jb, "label", json_string("old"));
	json_object_del(cfg, "cache_size");
	json_object_del(cfg, "no_verify");
	a = save(ja, "a.json");
	b = save(jb, "b.json");
	assert_int_equal(build2(&c, &opts, a, b), 0);
	assert_int_equal(c.warnings.nr, 0);
	compare_method_unrecorded(&c, &v);
	assert_int_equal(v.nr, 1);
	assert_string_equal(v.v[0], "old (fslab): cache, no-verify");
	strvec_clear(&v);
	compare_method_differences(&c, &v);
	assert_int_equal(v.nr, 0);
	strvec_clear(&v);
	compare_release(&c);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	json_decref(ja);
	json_decref(jb);
}

/* With --allow-mismatch the Method says per label what differs. */
static void test_method_per_label(void **state)
{
	struct compare_opts opts = { .allow_mismatch = true };
	struct compare c;
	char *a, *b;
	struct strvec v = STRVEC_INIT;

	json_t *ja = base_result(), *jb = json_deep_copy(ja);

	(void)state;
	json_object_set_new(jb, "label", json_string("other"));
	json_object_set_new(json_object_get(jb, "config"), "cache_size", json_integer(8 << 20));
	a = save(ja, "a.json");
	b = save(jb, "b.json");
	json_decref(ja);
	json_decref(jb);
	assert_int_equal(build2(&c, &opts, a, b), 0);
	assert_non_null(strstr(c.warnings.v[0], "cache 8 MiB vs 256 MiB"));
	compare_method_differences(&c, &v);
	assert_int_equal(v.nr, 1);
	assert_string_equal(v.v[0], "cache: ext4 256 MiB, other 8 MiB");
	strvec_clear(&v);
	compare_release(&c);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_load_option_refused),
		cmocka_unit_test(test_run_options_silent),
		cmocka_unit_test(test_sweep_axis),
		cmocka_unit_test(test_unrecorded),
		cmocka_unit_test(test_method_per_label),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
