// SPDX-License-Identifier: MIT
/* test_options.c: the option table of fslab run drives all its forms: every option in --help,
 * every [workload] key accepted by a lab config, lab config -> lab argv -> fslab run parse
 * giving the same values, one error text for a bad value on either side, and every option's
 * comparability mark (test_comparable.c tests what compare does with it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "lab/labcfg.h"
#include "run/options.h"

static char errors[8192];

/* fn(arg) with stderr into errors[]. */
static int capture(int (*fn)(void *), void *arg)
{
	char errpath[] = "/tmp/fslab-options-err.XXXXXX";
	int fd = mkstemp(errpath), saved = dup(2), ret;
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	ret = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, errors, sizeof(errors) - 1, 0);
	errors[n > 0 ? n : 0] = 0;
	close(fd);
	unlink(errpath);
	return ret;
}

struct load_arg {
	const char *text;
	struct lab_cfg *cfg;
};

static int do_load(void *p)
{
	struct load_arg *a = p;
	char path[] = "/tmp/fslab-options-cfg.XXXXXX";
	FILE *f = fdopen(mkstemp(path), "w");
	int ret;

	fputs(a->text, f);
	fclose(f);
	ret = lab_cfg_load(a->cfg, path);
	unlink(path);
	return ret;
}

static int load(const char *text, struct lab_cfg *cfg)
{
	struct load_arg a = { text, cfg };

	return capture(do_load, &a);
}

struct parse_arg {
	struct run_params *p;
	int argc;
	char **argv;
};

static int do_parse(void *x)
{
	struct parse_arg *a = x;

	return run_params_parse_argv(a->p, a->argc, a->argv);
}

static int parse(struct run_params *p, struct run_config *c, int argc, char **argv)
{
	struct parse_arg a = { p, argc, argv };

	run_params_init(p, c);
	return capture(do_parse, &a);
}

/* A good value, not the default, for every option (the test fails for one without). */
static const char *good_value(enum run_opt_id id)
{
	static const char *const v[RO_NR] = {
		[RO_DB] = "/tmp/db", [RO_LOG] = "/tmp/log", [RO_WORKLOAD] = "jetstress",
		[RO_THREADS] = "12", [RO_DATABASES] = "3", [RO_DB_SIZE] = "96M",
		[RO_DURATION] = "1h30m", [RO_WARMUP] = "7s", [RO_SEED] = "42", [RO_LABEL] = "x.y",
		[RO_OUTPUT] = "/tmp/r.json", [RO_BS] = "8k", [RO_IODEPTH] = "16",
		[RO_RWMIXREAD] = "70", [RO_ENGINE] = "psync", [RO_CACHE] = "48M",
		[RO_BDM_RATE] = "0.25", [RO_COMPRESSIBILITY] = "30", [RO_PROGRESS_FD] = "9",
		[RO_SAMPLE_INTERVAL] = "5s", [RO_THRESHOLDS] = "lenient",
		[RO_MAX_LATENCY_ERRORS] = "3", [RO_TARGET_IOPS] = "1500.5", [RO_MAILBOXES] = "500",
		[RO_IOPS_PER_MAILBOX] = "0.06", [RO_SELFTEST] = "/tmp/selftest.json",
		[RO_LAB_ID] = "20261203T2225-1a2b3c4d",
		[RO_LAB_CELL] = "xfs-8t-r3", [RO_LAB_ROUND] = "3", [RO_LAB_POSITION] = "14",
		[RO_START_AT] = "2026-12-03T14:05:00.25Z",
		[RO_STEADY_WINDOW] = "4", [RO_STEADY_INTERVAL] = "10s", [RO_STEADY_RANGE] = "15",
		[RO_STEADY_EXCURSION] = "7.5", [RO_STEADY_CAP] = "20m", [RO_PRECONDITION] = "2",
		[RO_TUNE_WINDOW] = "12", [RO_TUNE_INTERVAL] = "2s", [RO_TUNE_SLOPE] = "7.5",
		[RO_TUNE_JUDGE] = "90s", [RO_TUNE_STEP_CAP] = "5m", [RO_TUNE_CAP] = "45m",
		[RO_TUNE_MAX_THREADS] = "32",
		[RO_RECOVERY_LOGS] = "40",
	};

	return run_options[id].type == ROT_FLAG ? "yes" : v[id];
}

/* A value each type refuses. */
static const char *bad_value(const struct run_option *o)
{
	switch (o->type) {
	case ROT_UINT: return "1.5x";
	case ROT_SIZE: return "lots";
	case ROT_TIME: return "soon";
	case ROT_REAL: return "nan";
	case ROT_CHOICE: return "zzz";
	case ROT_FLAG: return "maybe";
	case ROT_STR: return o->valid ? "a/b" : NULL;
	case ROT_DIRS: return NULL;
	}
	return NULL;
}

static void test_table(void **state)
{
	struct run_config c = { 0 };
	struct run_params p;

	(void)state;
	/* every default passes the table's own checks (run_params_init aborts otherwise) */
	run_params_init(&p, &c);
	for (int i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];

		assert_non_null(o->name);
		assert_non_null(o->help);
		assert_ptr_equal(run_option_find(o->name), o);
		assert_true(o->type == ROT_FLAG || o->metavar);
		assert_true(o->type == ROT_FLAG || o->type == ROT_DIRS || o->type == ROT_STR ||
			    o->fix);
		/* a [workload] key, or set by the lab for each cell */
		assert_true(!o->ini != !(o->flags & ROF_LAB));
		/* its comparability mark (compare's guard and Method come from it): what the lab
		 * sets per cell describes the run, its list key is the sweep axis */
		assert_true(o->cmp == ROC_LOAD || o->cmp == ROC_RUN || o->cmp == ROC_SWEEP);
		if (o->flags & ROF_LAB)
			assert_int_equal(o->cmp, ROC_RUN);
		assert_int_equal(o->cmp == ROC_SWEEP, !!(o->flags & ROF_SWEEP));
		/* the value's field is the size the table says */
		assert_true(o->type == ROT_DIRS || o->size == sizeof(bool) ||
			    o->size == sizeof(unsigned int) || o->size == sizeof(uint64_t));
		if (o->ini)
			assert_ptr_equal(run_option_by_ini(o->ini), o);
		assert_non_null(good_value(i));
	}
	assert_false(p.given);
	assert_int_equal(p.first_verdict, -1);
	assert_string_equal(c.workload, "jetstress");
	assert_int_equal(c.threads, 8);
	assert_int_equal(c.db_size, 4 * GiB);
	assert_true(c.duration_s == 2 * 3600);
	assert_true(c.sample_interval_s == 15);
	assert_int_equal(c.max_latency_errors, 6);
	assert_true(c.bdm_mbps == 1.0);
	run_params_release(&p);
	run_config_release(&c);
}

static void test_help_names_every_option(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	run_usage(f);
	fclose(f);
	for (int i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];
		char want[64];

		snprintf(want, sizeof(want), "\n  --%s%s%s ", o->name, o->metavar ? " " : "",
			 o->metavar ? o->metavar : "");
		if (!strstr(text, want)) {
			fprintf(stderr, "--help lacks '%s'\n", want + 1);
			fail();
		}
		/* every default is said */
		if (o->def) {
			char *line = strstr(text, want) + 1, *end = strstr(line, "\n  --"), *flat;
			size_t k = 0;

			assert_non_null(end);
			/* its lines as one, the wrapping undone */
			flat = xcalloc(1, (size_t)(end - line) + 1);
			for (char *s = line; s < end; s++)
				if (*s != '\n' && !(*s == ' ' && k && flat[k - 1] == ' '))
					flat[k++] = *s == '\n' ? ' ' : *s;
				else if (*s == '\n' && k && flat[k - 1] != ' ')
					flat[k++] = ' ';
			snprintf(want, sizeof(want), "default %s", o->def);
			if (!strstr(flat, want)) {
				fprintf(stderr, "--help of --%s does not say '%s': %s\n", o->name, want,
					flat);
				fail();
			}
			free(flat);
		}
	}
	/* lines fit a terminal */
	for (char *l = text, *n; l; l = n) {
		n = strchr(l, '\n');
		assert_true((n ? (size_t)(n - l) : strlen(l)) <= 92);
		if (n)
			n++;
	}
	free(text);
}

/* A lab config with every [workload] key (target_iops or mailboxes: either; with target,
 * threads = 12, else threads = auto and the tuner's keys). */
static char *config_with_every_key(bool target)
{
	char *text = xstrdup("[devices]\nimage_dir = /x\n[workload]\n"), *n;

	for (int i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];

		if (!o->ini || (target ? i == RO_MAILBOXES || i == RO_IOPS_PER_MAILBOX
				       : i == RO_TARGET_IOPS) ||
		    (target && (o->flags & ROF_TUNE)))
			continue;
		n = xasprintf("%s%s = %s\n", text, o->ini,
			      !target && i == RO_THREADS ? "auto" : good_value(i));
		free(text);
		text = n;
	}
	n = xasprintf("%s[fs ext4]\n", text);
	free(text);
	return n;
}

static bool same_value(const struct run_option *o, const struct run_config *a,
		       const struct run_config *b)
{
	const void *x = run_option_value(o, a), *y = run_option_value(o, b);

	switch (o->type) {
	case ROT_UINT:
		if (o->size == sizeof(unsigned int))
			return *(const unsigned int *)x == *(const unsigned int *)y;
		return *(const uint64_t *)x == *(const uint64_t *)y;
	case ROT_SIZE:
		return *(const uint64_t *)x == *(const uint64_t *)y;
	case ROT_TIME:
	case ROT_REAL:
		return *(const double *)x == *(const double *)y;
	case ROT_FLAG:
		return *(const bool *)x == *(const bool *)y;
	case ROT_STR:
	case ROT_CHOICE:
		return !strcmp(*(char *const *)x, *(char *const *)y);
	case ROT_DIRS:
		return true;
	}
	return false;
}

struct argvec {
	char *v[128];
	int n;
};

static void add(const char *arg, void *ctx)
{
	struct argvec *a = ctx;

	assert_true(a->n < 127);
	a->v[a->n++] = xstrdup(arg);
}

/* config -> the lab's argv for fslab run -> fslab run's parse: the same values. */
static void test_config_argv_roundtrip(void **state)
{
	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		char *text = config_with_every_key(pass);
		struct lab_cfg c;
		struct run_config rc = { 0 };
		struct run_params r;
		struct argvec a = { .n = 0 };
		int given = 0;

		if (load(text, &c)) {
			fprintf(stderr, "%s%s", text, errors);
			fail();
		}
		add("run", &a);
		add("--db=/tmp/db", &a);
		run_params_argv(&c.run, add, &a);
		if (parse(&r, &rc, a.n, a.v)) {
			fprintf(stderr, "%s", errors);
			fail();
		}
		for (int i = 0; i < RO_NR; i++) {
			const struct run_option *o = &run_options[i];

			if (!o->ini || (o->flags & ROF_SWEEP) || !run_params_given(&c.run, i))
				continue;
			given++;
			assert_true(run_params_given(&r, i));
			if (!same_value(o, &c.wl, &rc)) {
				fprintf(stderr, "--%s differs after the round trip\n", o->name);
				fail();
			}
			/* and not the default: the value really travelled (a flag: it is set) */
			if (o->type == ROT_FLAG)
				assert_true(*(const bool *)run_option_value(o, &rc));
			else
				assert_string_equal(r.text[i], good_value(i));
		}
		assert_true(given >= 20);
		/* threads = auto: one cell each, the count the tuner's (0) */
		assert_int_equal(c.threads[0], pass ? 12 : 0);
		assert_int_equal(c.nthreads, 1);
		assert_int_equal(c.wl.threads_auto, !pass);
		for (int i = 0; i < a.n; i++)
			free(a.v[i]);
		run_params_release(&r);
		run_config_release(&rc);
		lab_cfg_release(&c);
		free(text);
	}
}

/* A bad value names the same fix as --name 'v' on the command line and key = 'v' in a config. */
static void test_one_error_text(void **state)
{
	(void)state;
	for (int i = 0; i < RO_NR; i++) {
		const struct run_option *o = &run_options[i];
		const char *bad = bad_value(o), *fix;
		char want[512], *fixed;
		struct run_config c = { 0 };
		struct run_params p;

		if (!bad)
			continue;
		run_params_init(&p, &c);
		assert_int_equal(run_option_parse(&p, o, bad, &fix), -EINVAL);
		assert_false(run_params_given(&p, i));
		/* the fix may be p's own text: kept across the parses below */
		fix = fixed = xstrdup(fix);
		run_params_release(&p);
		if (o->type != ROT_FLAG) {
			char arg[128], *argv[] = { (char *)"run", arg, NULL };

			snprintf(arg, sizeof(arg), "--%s=%s", o->name, bad);
			assert_int_equal(parse(&p, &c, 2, argv), -FSLAB_EINPUT);
			snprintf(want, sizeof(want), "--%s '%s': %s", o->name, bad, fix);
			if (!strstr(errors, want)) {
				fprintf(stderr, "expected '%s' in: %s", want, errors);
				fail();
			}
		}
		if (o->ini && !(o->flags & ROF_SWEEP)) {
			char *text = xasprintf("[devices]\nimage_dir = /x\n[workload]\n%s = %s\n"
					       "[fs ext4]\n", o->ini, bad);
			struct lab_cfg lc;

			assert_int_equal(load(text, &lc), -FSLAB_EINPUT);
			snprintf(want, sizeof(want), ":4: %s = '%s': %s", o->ini, bad, fix);
			if (!strstr(errors, want)) {
				fprintf(stderr, "expected '%s' in: %s", want, errors);
				fail();
			}
			lab_cfg_release(&lc);
			free(text);
		}
		free(fixed);
		run_params_release(&p);
		run_config_release(&c);
	}
}

/* The limits are the table's: one past each end is refused on both sides. */
/* --warmup steady (warmup = steady): the flag set and the time 0; a time clears it again */
static void test_warmup_steady(void **state)
{
	const struct run_option *o = &run_options[RO_WARMUP];
	struct run_config c = { 0 };
	struct run_params p;
	const char *fix;

	(void)state;
	run_params_init(&p, &c);
	assert_false(c.warmup_steady);
	assert_int_equal(run_option_parse(&p, o, "steady", &fix), 0);
	assert_true(c.warmup_steady);
	assert_true(c.warmup_s == 0);
	assert_string_equal(p.text[RO_WARMUP], "steady");
	assert_int_equal(run_option_parse(&p, o, "30s", &fix), 0);
	assert_false(c.warmup_steady);
	assert_true(c.warmup_s == 30);
	run_params_release(&p);
	run_config_release(&c);
}

/* --threads auto: the word sets threads_auto (the count is the tuner's); a number clears it */
static void test_threads_auto(void **state)
{
	const struct run_option *o = &run_options[RO_THREADS];
	struct run_config c = { 0 };
	struct run_params p;
	const char *fix;

	(void)state;
	run_params_init(&p, &c);
	assert_false(c.threads_auto);
	assert_int_equal(c.threads, 8);
	assert_int_equal(run_option_parse(&p, o, "AUTO", &fix), 0);
	assert_true(c.threads_auto);
	assert_int_equal(c.threads, 0);
	assert_string_equal(p.text[RO_THREADS], "AUTO");
	assert_int_equal(run_option_parse(&p, o, "12", &fix), 0);
	assert_false(c.threads_auto);
	assert_int_equal(c.threads, 12);
	/* only threads takes it */
	assert_int_not_equal(run_option_parse(&p, &run_options[RO_DATABASES], "auto", &fix), 0);
	assert_int_not_equal(run_option_parse(&p, &run_options[RO_TUNE_MAX_THREADS], "auto", &fix),
			     0);
	run_params_release(&p);
	run_config_release(&c);
}

static void test_limits(void **state)
{
	static const struct {
		enum run_opt_id id;
		const char *ok, *bad;
	} cases[] = {
		{ RO_THREADS, "256", "257" }, { RO_THREADS, "1", "0" },
		{ RO_DATABASES, "64", "65" }, { RO_IODEPTH, "1024", "1025" },
		{ RO_DB_SIZE, "16M", "16352K" }, { RO_DB_SIZE, "1G", "1000000" },
		{ RO_DURATION, "1s", "999ms" }, { RO_DURATION, "30d", "31d" },
		{ RO_SAMPLE_INTERVAL, "1h", "61m" }, { RO_SAMPLE_INTERVAL, "2s", "1500ms" },
		{ RO_COMPRESSIBILITY, "100", "101" }, { RO_BDM_RATE, "0", "-0.1" },
		{ RO_TARGET_IOPS, "0.5", "0" }, { RO_IOPS_PER_MAILBOX, "100", "100.5" },
		{ RO_MAILBOXES, "10000000", "10000001" }, { RO_SEED, "9223372036854775807",
							      "9223372036854775808" },
		{ RO_WARMUP, "steady", "steadier" }, { RO_STEADY_WINDOW, "2", "1" },
		{ RO_STEADY_WINDOW, "100", "101" }, { RO_STEADY_INTERVAL, "1s", "1500ms" },
		{ RO_STEADY_RANGE, "100", "0" }, { RO_STEADY_EXCURSION, "0.5", "100.1" },
		{ RO_PRECONDITION, "100", "101" }, { RO_THREADS, "auto", "automatic" },
		{ RO_TUNE_WINDOW, "2", "1" }, { RO_TUNE_WINDOW, "600", "601" },
		{ RO_TUNE_INTERVAL, "10m", "601s" }, { RO_TUNE_INTERVAL, "1s", "1500ms" },
		{ RO_TUNE_SLOPE, "1000", "0" }, { RO_TUNE_JUDGE, "1s", "500ms" },
		{ RO_TUNE_MAX_THREADS, "256", "257" }, { RO_TUNE_MAX_THREADS, "1", "0" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct run_option *o = &run_options[cases[i].id];
		struct run_config c = { 0 };
		struct run_params p;
		const char *fix;

		run_params_init(&p, &c);
		assert_int_equal(run_option_parse(&p, o, cases[i].ok, &fix), 0);
		if (!run_option_parse(&p, o, cases[i].bad, &fix)) {
			fprintf(stderr, "--%s %s accepted\n", o->name, cases[i].bad);
			fail();
		}
		run_params_release(&p);
		run_config_release(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_help_names_every_option),
		cmocka_unit_test(test_config_argv_roundtrip),
		cmocka_unit_test(test_one_error_text),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_warmup_steady),
		cmocka_unit_test(test_threads_auto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
