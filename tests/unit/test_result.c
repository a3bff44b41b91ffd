// SPDX-License-Identifier: MIT
/* test_result.c: fslab-result/1 JSON round trip, every fixture rewritten byte-identical, the
 * errors for bad files (integers out of range, malformed histograms), long timelines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/resource.h>
#endif
#include <unistd.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"
#include "result/result.h"

static void fill(struct fslab_result *r)
{
	static const char *const cols[] = { "t_s", "db_read_ops", "db_read_lat_mean_us" };
	char *dirs[] = { xstrdup("/mnt/a/db") };
	double row[3];

	result_init(r);
	r->label = xstrdup("ext4");
	r->fslab_version = xstrdup("0.1.0 (test)");
	r->started_at = xstrdup("2026-12-02T10:00:00Z");
	r->duration_s = 10;
	r->config.workload = xstrdup("jetstress");
	r->config.engine = xstrdup("io_uring");
	r->config.threads = 8;
	r->config.databases = 1;
	r->config.db_size = 1 * GiB;
	r->config.seed = 42;
	r->config.db_dirs = xcalloc(1, sizeof(char *));
	r->config.db_dirs[0] = dirs[0];
	r->config.ndb_dirs = 1;
	r->environment = json_pack("{s:s}", "kernel", "6.1.0");
	for (int c = 0; c < CLS_NR; c++) {
		struct class_result *cr = &r->classes[c];

		cr->hist = xmalloc(sizeof(*cr->hist));
		hist_init(cr->hist);
		for (uint64_t i = 1; i <= 1000; i++)
			hist_add(cr->hist, i * 1000 * (c + 1));
		cr->ops = 1000;
		cr->bytes = 1000 * 32768;
		class_result_finish(cr, r->duration_s);
	}
	r->transactional_iops = r->classes[CLS_DB_READ].iops + r->classes[CLS_DB_WRITE].iops;
	timeline_init(&r->timeline, cols, 3);
	for (int i = 0; i < 10; i++) {
		row[0] = i;
		row[1] = 100 + i;
		row[2] = 500.5;
		timeline_add_row(&r->timeline, row);
	}
	verdict_add(&r->verdict, "overall", "db_read_avg_latency", 1.5, 20, "ms", true, NULL);
	r->verdict.pass = true;
	result_add_note(r, "hello %d", 1);
}

static void test_round_trip(void **state)
{
	char path[] = "/tmp/fslab-result.XXXXXX";
	struct fslab_result a, b;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	fill(&a);
	assert_int_equal(result_write(&a, path), 0);
	assert_int_equal(result_read(path, &b), 0);
	assert_string_equal(b.label, "ext4");
	assert_string_equal(b.config.workload, "jetstress");
	assert_int_equal(b.config.threads, 8);
	assert_int_equal(b.config.db_size, GiB);
	assert_int_equal(b.config.ndb_dirs, 1);
	assert_string_equal(b.config.db_dirs[0], "/mnt/a/db");
	for (int c = 0; c < CLS_NR; c++) {
		assert_int_equal(b.classes[c].ops, 1000);
		assert_true(fabs(b.classes[c].iops - 100) < 1e-9);
		assert_true(fabs(b.classes[c].lat_us.p99 - a.classes[c].lat_us.p99) < 1e-6);
		assert_non_null(b.classes[c].hist);
		assert_memory_equal(b.classes[c].hist->buckets, a.classes[c].hist->buckets,
				    sizeof(a.classes[c].hist->buckets));
		assert_int_equal(hist_percentile(b.classes[c].hist, 99.9),
				 hist_percentile(a.classes[c].hist, 99.9));
	}
	/* p50 of 1..1000 ms-ish values is ~500 us for class 0 (values in us) */
	assert_true(fabs(b.classes[0].lat_us.p50 - 500) / 500 < 0.01);
	assert_int_equal(b.timeline.nrows, 10);
	assert_int_equal(timeline_col(&b.timeline, "db_read_ops"), 1);
	assert_true(b.timeline.data[9 * 3 + 1] == 109);
	assert_true(b.verdict.present && b.verdict.pass);
	assert_int_equal(b.verdict.nchecks, 1);
	assert_string_equal(b.verdict.checks[0].name, "db_read_avg_latency");
	assert_string_equal(json_string_value(json_object_get(b.environment, "kernel")), "6.1.0");
	assert_string_equal(json_string_value(json_array_get(b.notes, 0)), "hello 1");
	result_release(&a);
	result_release(&b);
	unlink(path);
}

/* A spilled timeline (fslab run's) writes and reads back the same rows. */
static void test_spilled_timeline(void **state)
{
	static const char *const cols[] = { "t_s", "x" };
	char path[] = "/tmp/fslab-result.XXXXXX";
	struct fslab_result a, b;
	int fd = mkstemp(path);
	double row[2];

	(void)state;
	close(fd);
	fill(&a);
	a.duration_s = 5001; /* one row a second */
	timeline_release(&a.timeline);
	timeline_init(&a.timeline, cols, 2);
	row[0] = 1;
	row[1] = 0.5;
	timeline_add_row(&a.timeline, row); /* in memory, then moved to the file */
	assert_int_equal(timeline_spill(&a.timeline), 0);
	assert_null(a.timeline.data);
	for (int i = 2; i <= 5000; i++) {
		row[0] = i;
		row[1] = i * 1.25;
		timeline_add_row(&a.timeline, row);
	}
	row[1] = NAN;
	timeline_add_row(&a.timeline, row);
	assert_int_equal(a.timeline.nrows, 5001);
	assert_int_equal(timeline_row(&a.timeline, 1, row), 0);
	assert_true(row[0] == 2 && row[1] == 2.5);
	assert_int_equal(result_write(&a, path), 0);
	assert_int_equal(result_read(path, &b), 0);
	assert_int_equal(b.timeline.nrows, 5001);
	assert_int_equal(b.timeline.ncols, 2);
	assert_string_equal(b.timeline.cols[1], "x");
	assert_true(b.timeline.data[0] == 1 && b.timeline.data[1] == 0.5);
	assert_true(b.timeline.data[2 * 4999] == 5000 && b.timeline.data[2 * 4999 + 1] == 6250);
	assert_true(isnan(b.timeline.data[2 * 5000 + 1])); /* NaN travels as null */
	assert_string_equal(b.label, "ext4");
	assert_int_equal(b.classes[0].ops, 1000);
	result_release(&a);
	result_release(&b);
	unlink(path);
}

static int read_text(const char *text)
{
	char path[] = "/tmp/fslab-result.XXXXXX";
	struct fslab_result r;
	int fd = mkstemp(path), ret;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ret = result_read(path, &r);
	result_release(&r);
	unlink(path);
	return ret;
}

static void test_bad_files(void **state)
{
	struct fslab_result r;

	(void)state;
	assert_int_equal(result_read("/nonexistent/r.json", &r), -FSLAB_EINPUT);
	result_release(&r);
	assert_int_equal(read_text(""), -FSLAB_EINPUT);
	assert_int_equal(read_text("{\"schema\": \"fslab-result/1\", \"label\": "), -FSLAB_EINPUT);
	assert_int_equal(read_text("[1,2,3]"), -FSLAB_EINPUT);
	assert_int_equal(read_text("{\"hello\": 1}"), -FSLAB_EINPUT);
	assert_int_equal(read_text("{\"schema\": \"fslab-result/9\", \"label\": \"x\"}"),
			 -FSLAB_EINPUT);
	/* no classes */
	assert_int_equal(read_text("{\"schema\": \"fslab-result/1\", \"label\": \"x\", "
				   "\"config\": {\"workload\": \"jetstress\"}}"), -FSLAB_EINPUT);
	/* wrong type */
	assert_int_equal(read_text("{\"schema\": \"fslab-result/1\", \"label\": \"x\", "
				   "\"config\": {\"workload\": \"jetstress\", \"threads\": \"8\"},"
				   "\"classes\": {}}"), -FSLAB_EINPUT);
}

/* A valid result with its "lab" set to lab (stolen), read back: result_read()'s status. */
static int with_lab(json_t *lab)
{
	char path[] = "/tmp/fslab-test-lab.XXXXXX";
	struct fslab_result r;
	json_t *j;
	int fd = mkstemp(path), ret;

	assert_true(fd >= 0);
	close(fd);
	fill(&r);
	j = result_to_json(&r);
	result_release(&r);
	json_object_set_new(j, "lab", lab);
	assert_int_equal(json_dump_file(j, path, 0), 0);
	json_decref(j);
	fslab_set_quiet(true);
	ret = result_read(path, &r);
	fslab_set_quiet(false);
	result_release(&r);
	unlink(path);
	return ret;
}

/* A lab run's provenance round trip; a hand run has no "lab"; damaged ones refused. */
static void test_lab_provenance(void **state)
{
	char path[] = "/tmp/fslab-test-lab.XXXXXX";
	struct fslab_result r, back;
	json_t *j;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	fill(&r);
	j = result_to_json(&r);
	assert_null(json_object_get(j, "lab")); /* a hand run: no key at all */
	json_decref(j);
	r.lab.id = xstrdup("20261203T222518-3f2a9c1b");
	r.lab.cell = xstrdup("xfs-8t-r3");
	r.lab.round = 3;
	r.lab.position = 14;
	r.lab.volume_formatted = true;
	r.lab.database_created = true;
	assert_int_equal(result_write(&r, path), 0);
	assert_int_equal(result_read(path, &back), 0);
	assert_string_equal(back.lab.id, "20261203T222518-3f2a9c1b");
	assert_string_equal(back.lab.cell, "xfs-8t-r3");
	assert_int_equal(back.lab.round, 3);
	assert_int_equal(back.lab.position, 14);
	assert_true(back.lab.volume_formatted && back.lab.database_created);
	result_release(&back);
	result_release(&r);
	unlink(path);
	/* a complete result with "lab" replaced: no id, round 0, an id that is no plain text,
	 * not an object; and the same result with a good one reads */
	assert_int_equal(with_lab(json_pack("{s:s, s:i, s:i}", "id", "L", "round", 1,
					    "position", 1)), 0);
	assert_int_equal(with_lab(json_pack("{s:i, s:i}", "round", 1, "position", 1)),
			 -FSLAB_EINPUT);
	assert_int_equal(with_lab(json_pack("{s:s, s:i, s:i}", "id", "L", "round", 0,
					    "position", 1)), -FSLAB_EINPUT);
	assert_int_equal(with_lab(json_pack("{s:s, s:i, s:i}", "id", "<b>x</b>", "round", 1,
					    "position", 1)), -FSLAB_EINPUT);
	assert_int_equal(with_lab(json_integer(7)), -FSLAB_EINPUT);
}

/* The fixture ext4-1.json with one value replaced (a jansson path of keys), read back. */
static int read_edited(const char *k1, const char *k2, const char *k3, json_t *v)
{
	json_t *root = json_load_file("tests/fixtures/ext4-1.json", 0, NULL), *o = root;
	struct fslab_result r;
	int ret;

	assert_non_null(root);
	if (k2)
		o = json_object_get(o, k1);
	if (k3)
		o = json_object_get(o, k2);
	assert_non_null(o);
	json_object_set_new(o, k3 ? k3 : k2 ? k2 : k1, v);
	ret = result_from_json(root, "edited.json", &r);
	result_release(&r);
	json_decref(root);
	return ret;
}

/* Integers beyond a field's width are refused, never cut (2^32 + 1 threads read as 1). */
static void test_out_of_range(void **state)
{
	(void)state;
	assert_int_equal(read_edited("config", "threads", NULL, json_integer(8)), 0);
	assert_int_equal(read_edited("config", "threads", NULL, json_integer(4294967297LL)),
			 -FSLAB_EINPUT);
	assert_int_equal(read_edited("config", "databases", NULL, json_integer(1LL << 32)),
			 -FSLAB_EINPUT);
	assert_int_equal(read_edited("host", "ncpus", NULL, json_integer(1LL << 31)),
			 -FSLAB_EINPUT);
	assert_int_equal(read_edited("host", "ncpus", NULL, json_integer(-1)), -FSLAB_EINPUT);
}

/* Histogram bucket pairs are [integer index, integer count]: 1.5 or "7" is not bucket 0. */
static void test_hist_buckets(void **state)
{
	static const char *const bad[] = {
		"[[1.5, 3]]", "[[\"7\", 3]]", "[[7, 3.5]]", "[[7, \"3\"]]", "[[7]]", "[[7, 3, 1]]",
		"[[-1, 3]]", "[[2048, 3]]", "[7]", "{\"7\": 3}",
	};
	(void)state;
	/* the fixture's 179603 database reads, all in one bucket */
	assert_int_equal(read_edited("classes", "db_read", "hist",
				     json_pack("{s:i, s:i, s:s, s:i, s:i, s:i, s:f, s:f, s:[[i,i]]}",
					       "bits", 6, "groups", 32, "unit", "ns", "n", 179603,
					       "min", 1000, "max", 1000, "mean", 1000.0, "m2", 0.0,
					       "buckets", 700, 179603)), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		json_t *b = json_loads(bad[i], 0, NULL);

		assert_non_null(b);
		assert_int_equal(read_edited("classes", "db_read", "hist",
					     json_pack("{s:i, s:i, s:s, s:i, s:i, s:i, s:f, s:f, s:o}",
						       "bits", 6, "groups", 32, "unit", "ns", "n", 3,
						       "min", 1000, "max", 1000, "mean", 1000.0, "m2",
						       0.0, "buckets", b)), -FSLAB_EINPUT);
	}
}

/* Text with every `from` replaced by `to` (heap). */
static char *replace_all(const char *text, const char *from, const char *to)
{
	size_t n = 0, lf = strlen(from), lt = strlen(to);
	char *out, *o;

	for (const char *p = text; (p = strstr(p, from)); p += lf)
		n++;
	o = out = xmalloc(strlen(text) + n * lt + 1);
	for (const char *p = text, *q; ; p = q + lf) {
		q = strstr(p, from);
		if (!q) {
			strcpy(o, p);
			break;
		}
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		memcpy(o, to, lt);
		o += lt;
	}
	return out;
}

/*
 * A long timeline (more rows than TIMELINE_MEM_ROWS) is read one row at a time into a
 * temporary file: the same rows come back; an escaped key ("time\u006cine") and a repeated
 * key (jansson keeps the last) are followed as jansson follows them.
 */
static void test_long_timeline(void **state)
{
	static const char *const cols[] = { "t_s", "db_read_ops" };
	const size_t n = TIMELINE_MEM_ROWS + 4000;
	char path[] = "/tmp/fslab-result.XXXXXX";
	struct fslab_result a, b;
	int fd = mkstemp(path);
	double row[2], *rows = xmalloc(n * 2 * sizeof(double));
	char *text, *edited;
	size_t len;

	(void)state;
	close(fd);
	fill(&a);
	a.duration_s = (double)n; /* one row a second */
	timeline_release(&a.timeline);
	timeline_init(&a.timeline, cols, 2);
	for (size_t i = 0; i < n; i++) {
		row[0] = (double)i + 1;
		row[1] = i % 7 ? 100.0 + i : NAN;
		timeline_add_row(&a.timeline, row);
	}
	assert_int_equal(result_write(&a, path), 0);
	assert_int_equal(result_read(path, &b), 0);
	assert_int_equal(b.timeline.nrows, n);
	assert_non_null(b.timeline.spill); /* not in memory */
	assert_null(b.timeline.data);
	assert_int_equal(timeline_rows(&b.timeline, 0, n, rows), 0);
	for (size_t i = 0; i < n; i += 997) {
		assert_true(rows[2 * i] == (double)i + 1);
		assert_true(i % 7 ? rows[2 * i + 1] == 100.0 + i : isnan(rows[2 * i + 1]));
	}
	assert_int_equal(timeline_rows(&b.timeline, n - 1, 2, rows), -ERANGE);
	assert_string_equal(b.label, "ext4");
	result_release(&b);

	/* the same file with the key escaped: still streamed, still the same rows */
	assert_int_equal(read_file(path, &text, &len), 0);
	edited = replace_all(text, "\"timeline\"", "\"time\\u006cine\"");
	assert_int_equal(result_from_buffer(edited, strlen(edited), "escaped.json", &b), 0);
	assert_int_equal(b.timeline.nrows, n);
	assert_non_null(b.timeline.spill);
	result_release(&b);
	free(edited);
	/* a second "timeline" before the first: the last one counts, as in jansson */
	edited = xasprintf("{\"timeline\": {\"columns\": [\"x\"], \"rows\": [[1], [2]]}, %s",
			   strchr(text, '{') + 1);
	assert_int_equal(result_from_buffer(edited, strlen(edited), "twice.json", &b), 0);
	assert_int_equal(b.timeline.nrows, n);
	assert_int_equal(b.timeline.ncols, 2);
	result_release(&b);
	free(edited);
	/* a row of the wrong shape deep in the streamed rows is named */
	edited = replace_all(text, "[69000.0, ", "[69000.0, 1, ");
	assert_int_equal(result_from_buffer(edited, strlen(edited), "bad-row.json", &b),
			 -FSLAB_EINPUT);
	result_release(&b);
	free(edited);
#ifndef _WIN32
	/* the temporary file system full (a file size limit here): refused, exit 1, never a
	 * timeline silently short of the rows that could not be written */
	{
		struct rlimit old, lim;
		void (*h)(int) = signal(SIGXFSZ, SIG_IGN);

		assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
		lim = old;
		lim.rlim_cur = TIMELINE_MEM_ROWS * 2 * sizeof(double) + 16384;
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
		assert_int_equal(result_from_buffer(text, len, "full.json", &b), -EIO);
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
		signal(SIGXFSZ, h);
		result_release(&b);
	}
#endif
	free(text);
	free(rows);
	result_release(&a);
	unlink(path);
}

/* a equals b; a histogram's m2 within 1e-8 (the reader rebuilds it from integer sums) */
static bool same_json(json_t *a, json_t *b, const char *key)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_real(a) && json_is_real(b) && key && !strcmp(key, "m2"))
		return fabs(json_real_value(a) - json_real_value(b)) <=
		       1e-8 * fabs(json_real_value(a));
	if (json_is_object(a) && json_is_object(b)) {
		if (json_object_size(a) != json_object_size(b))
			return false;
		json_object_foreach(a, k, v)
			if (!same_json(v, json_object_get(b, k), k)) {
				fprintf(stderr, "key \"%s\" differs\n", k);
				return false;
			}
		return true;
	}
	if (json_is_array(a) && json_is_array(b)) {
		if (json_array_size(a) != json_array_size(b))
			return false;
		json_array_foreach(a, i, v)
			if (!same_json(v, json_array_get(b, i), key))
				return false;
		return true;
	}
	return json_equal(a, b);
}

/*
 * Numbers no run makes and a file that contradicts itself are refused by the reader (every
 * command that reads results: compare, merge, a resumed lab), naming the problem.
 */
static void test_implausible(void **state)
{
	json_t *rows = json_array();

	(void)state;
	assert_int_equal(read_edited("transactional_iops", NULL, NULL, json_real(-300)),
			 -FSLAB_EINPUT);
	assert_int_equal(read_edited("transactional_iops", NULL, NULL, json_real(1e308)),
			 -FSLAB_EINPUT);
	assert_int_equal(read_edited("classes", "db_write", "iops", json_real(-1)), -FSLAB_EINPUT);
	assert_int_equal(read_edited("duration_s", NULL, NULL, json_real(-60)), -FSLAB_EINPUT);
	assert_int_equal(read_edited("duration_s", NULL, NULL, json_real(1e12)), -FSLAB_EINPUT);
	/* not reported (null) is never out of range */
	assert_int_equal(read_edited("duration_s", NULL, NULL, json_null()), 0);
	/* a histogram that does not count the class's I/Os: a wrong p99 */
	assert_int_equal(read_edited("classes", "db_read", "ops", json_integer(179602)),
			 -FSLAB_EINPUT);
	assert_int_equal(read_edited("classes", "db_read", "ops", json_integer(179603)), 0);
	/* its latencies in a unit fslab does not write */
	assert_int_equal(read_edited("classes", "db_read", "hist",
				     json_pack("{s:i, s:i, s:s, s:i, s:i, s:i, s:f, s:f, s:[[i,i]]}",
					       "bits", 6, "groups", 32, "unit", "us", "n", 179603,
					       "min", 1000, "max", 1000, "mean", 1000.0, "m2", 0.0,
					       "buckets", 700, 179603)), -FSLAB_EINPUT);
	/* a 60 s run has at most 62 rows of one second */
	for (int i = 0; i < 62; i++)
		json_array_append_new(rows, json_pack("[i]", i + 1));
	assert_int_equal(read_edited("timeline", NULL, NULL,
				     json_pack("{s:[s], s:O}", "columns", "t_s", "rows", rows)), 0);
	json_array_append_new(rows, json_pack("[i]", 63));
	assert_int_equal(read_edited("timeline", NULL, NULL,
				     json_pack("{s:[s], s:O}", "columns", "t_s", "rows", rows)),
			 -FSLAB_EINPUT);
	json_decref(rows);
}

/* One run's identity: the same for a copy however formatted, another for another label or
 * another run. */
static void test_identity(void **state)
{
	struct fslab_result a, b;
	char ia[RESULT_ID_LEN + 1], ib[RESULT_ID_LEN + 1];
	json_t *root = json_load_file("tests/fixtures/ext4-1.json", 0, NULL);

	(void)state;
	assert_int_equal(result_read("tests/fixtures/ext4-1.json", &a), 0);
	result_identity(&a, ia);
	assert_int_equal(strlen(ia), RESULT_ID_LEN);
	/* the same JSON indented otherwise, keys in another order */
	assert_int_equal(result_from_json(root, "copy", &b), 0);
	result_identity(&b, ib);
	assert_string_equal(ia, ib);
	result_release(&b);
	json_object_set_new(root, "label", json_string("ext4-again"));
	assert_int_equal(result_from_json(root, "relabelled", &b), 0);
	result_identity(&b, ib);
	assert_string_not_equal(ia, ib);
	result_release(&b);
	result_release(&a);
	/* ext4-2: the same host, start and label (fixtures), another measurement */
	assert_int_equal(result_read("tests/fixtures/ext4-2.json", &b), 0);
	result_identity(&b, ib);
	assert_string_not_equal(ia, ib);
	result_release(&b);
	json_decref(root);
}

/*
 * Reader and writer walk one field table (src/result/result_fields.c): every fixture (written by the
 * writer, tests/fixtures/regen.sh) read back and written again holds the same keys, in the same
 * order, with the same values (histogram m2 within 1e-8), so the reader takes every field the
 * writer writes.
 */
static void test_fixtures_rewrite_identical(void **state)
{
	static const char *const names[] = {
		"ext4-1", "ext4-2", "ext4-4t", "ext4-8t", "ext4-12t", "xfs-1", "xfs-2", "xfs-4t",
		"xfs-8t", "xfs-12t", "xfs-aborted", "xfs-seed7", "ntfs-cached",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *in = xasprintf("tests/fixtures/%s.json", names[i]);
		char out[] = "/tmp/fslab-result-rewrite.XXXXXX";
		struct fslab_result r;
		json_t *a, *b;
		int fd = mkstemp(out);

		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(result_read(in, &r), 0);
		assert_int_equal(result_write(&r, out), 0);
		a = json_load_file(in, JSON_PRESERVE_ORDER, NULL);
		b = json_load_file(out, JSON_PRESERVE_ORDER, NULL);
		assert_non_null(a);
		assert_non_null(b);
		if (!same_json(a, b, NULL)) {
			fprintf(stderr, "%s read and written again differs\n", in);
			fail();
		}
		/* and the keys in the writer's order */
		{
			const char *k;
			json_t *v;
			void *it = json_object_iter(b);

			json_object_foreach(a, k, v) {
				assert_non_null(it);
				assert_string_equal(k, json_object_iter_key(it));
				it = json_object_iter_next(b, it);
			}
		}
		json_decref(a);
		json_decref(b);
		result_release(&r);
		unlink(out);
		free(in);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_spilled_timeline),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_lab_provenance),
		cmocka_unit_test(test_fixtures_rewrite_identical),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_hist_buckets),
		cmocka_unit_test(test_long_timeline),
		cmocka_unit_test(test_implausible),
		cmocka_unit_test(test_identity),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
