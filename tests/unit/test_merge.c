// SPDX-License-Identifier: MIT
/*
 * test_merge.c: the cluster merge (src/merge): sums and histograms bucket by bucket equal the
 * hosts' (checked against the fixtures, independently of the merge's own code path),
 * percentiles from the merged histogram, timelines aligned on the wall clock with offsets,
 * partial results for missing, aborted and damaged members (never a crash), hosts of
 * different cells refused, and the cluster result surviving write -> read -> write.
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
#include "cmds.h"
#include "compare/compare.h"
#include "compare/report.h"
#include "os/files.h"
#include "merge/merge.h"
#include "lib/sha256.h"

static char dir[] = "/tmp/fslab-test-merge.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	int rc = system(cmd);

	(void)state;
	free(cmd);
	return rc;
}

static struct merge_input host(const char *name, const char *file)
{
	return (struct merge_input){ .name = name, .file = file, .offset_s = NAN, .rtt_s = NAN };
}

static void load(const char *path, struct fslab_result *r)
{
	assert_int_equal(result_read(path, r), 0);
}

/* Two fixtures as two hosts: every sum and every histogram bucket is the two hosts' sum. */
static void test_sums_and_buckets(void **state)
{
	struct merge_input in[] = { host("node1", "tests/fixtures/ext4-1.json"),
				    host("node2", "tests/fixtures/ext4-2.json") };
	struct merge_opts o = { 0 };
	struct fslab_result a, b, c;
	char hex[SHA256_HEX_LEN + 1], *buf;
	size_t len;

	(void)state;
	load(in[0].file, &a);
	load(in[1].file, &b);
	assert_int_equal(merge_results(in, 2, &o, &c), 0);
	assert_true(c.cluster.present);
	assert_false(c.cluster.partial);
	assert_false(c.aborted);
	assert_int_equal(c.cluster.hosts, 2);
	assert_int_equal(c.nhosts, 2);
	assert_string_equal(c.label, "ext4");
	for (int k = 0; k < CLS_NR; k++) {
		const struct class_result *x = &a.classes[k], *y = &b.classes[k], *z = &c.classes[k];

		assert_int_equal(z->ops, x->ops + y->ops);
		assert_int_equal(z->bytes, x->bytes + y->bytes);
		assert_int_equal(z->errors, x->errors + y->errors);
		assert_true(fabs(z->iops - (x->iops + y->iops)) < 1e-6);
		assert_non_null(z->hist);
		assert_int_equal(z->hist->n, x->hist->n + y->hist->n);
		for (unsigned int i = 0; i < HIST_NR; i++)
			assert_int_equal(z->hist->buckets[i], x->hist->buckets[i] + y->hist->buckets[i]);
		/* the percentile of the merged histogram, not an average of the hosts' */
		assert_true(z->lat_us.p99 == hist_percentile(z->hist, 99) / 1e3);
		assert_int_equal(z->hist->min, MIN(x->hist->min, y->hist->min));
		assert_int_equal(z->hist->max, MAX(x->hist->max, y->hist->max));
	}
	assert_true(fabs(c.transactional_iops - (a.transactional_iops + b.transactional_iops)) < 1e-6);
	assert_int_equal(c.transactions, a.transactions + b.transactions);
	/* the members: names, files and the sha256 of their bytes */
	assert_string_equal(c.hosts[0].name, "node1");
	assert_string_equal(c.hosts[1].status, "ok");
	assert_int_equal(read_file(in[1].file, &buf, &len), 0);
	sha256_hex(buf, len, hex);
	free(buf);
	assert_string_equal(c.hosts[1].sha256, hex);
	assert_true(c.hosts[0].transactional_iops == a.transactional_iops);
	assert_int_equal(c.hosts[0].classes[CLS_DB_READ].ops, a.classes[CLS_DB_READ].ops);
	assert_int_equal(c.hosts[0].ndevices, a.ndevices);
	/* verdict: each host's checks under its name, then the cluster's */
	assert_true(c.verdict.present);
	assert_int_equal(c.verdict.nchecks, a.verdict.nchecks + b.verdict.nchecks + 2);
	assert_true(!strncmp(c.verdict.checks[0].scope, "node1:", 6));
	assert_string_equal(c.verdict.checks[c.verdict.nchecks - 1].name, "hosts_passed");
	assert_int_equal(c.verdict.pass, a.verdict.pass && b.verdict.pass);
	/* timelines without start times: aligned by row, both hosts in every second */
	assert_string_equal(c.cluster.timeline, "second index");
	assert_int_equal(c.timeline.nrows, MAX(a.timeline.nrows, b.timeline.nrows));
	{
		int h = timeline_col(&c.timeline, "hosts"), ops = timeline_col(&c.timeline, "db_read_ops");
		double r[64], ra[64], rb[64];

		assert_true(h > 0 && ops > 0);
		assert_int_equal(timeline_row(&c.timeline, 3, r), 0);
		assert_int_equal(timeline_row(&a.timeline, 3, ra), 0);
		assert_int_equal(timeline_row(&b.timeline, 3, rb), 0);
		assert_true(r[h] == 2);
		assert_true(r[ops] == ra[ops] + rb[ops]);
	}
	result_release(&a);
	result_release(&b);
	result_release(&c);
}

/* A small result of host name written to dir: 6 seconds from measure (offset) */
static char *small_result(const char *name, const char *measure_at, double ops_per_s,
			  double lat_us, const char *label)
{
	static const char *const cols[] = { "t_s", "db_read_ops", "db_read_bytes",
					    "db_read_lat_mean_us", "db_read_lat_max_us", "cpu_pct" };
	char *path = xasprintf("%s/cell.%s.json", dir, name);
	struct fslab_result r;
	struct class_result *c;

	result_init(&r);
	r.label = xstrdup(label);
	r.fslab_version = xstrdup("0.1.0 (test)");
	r.started_at = xstrdup("2026-12-03T14:00:00Z");
	r.ended_at = xstrdup("2026-12-03T14:01:00Z");
	r.start_at = xstrdup("2026-12-03T14:00:10.000000Z");
	r.load_started_at = xstrdup(measure_at);
	r.measure_started_at = xstrdup(measure_at);
	r.duration_s = 6;
	r.config.workload = xstrdup("randread");
	r.config.threads = 2;
	r.config.db_size = 64 * MiB;
	r.config.duration_s = 6;
	r.environment = json_pack("{s:s}", "hostname", name);
	c = &r.classes[CLS_DB_READ];
	c->hist = xmalloc(sizeof(*c->hist));
	hist_init(c->hist);
	timeline_init(&r.timeline, cols, ARRAY_SIZE(cols));
	for (int s = 0; s < 6; s++) {
		double row[] = { s + 1, ops_per_s, ops_per_s * 4096, lat_us, lat_us * 3, 20 };

		timeline_add_row(&r.timeline, row);
		for (int i = 0; i < (int)ops_per_s; i++)
			hist_add(c->hist, (uint64_t)(lat_us * 1000) + (uint64_t)i);
	}
	c->ops = c->hist->n;
	c->bytes = c->ops * 4096;
	class_result_finish(c, 6);
	r.transactional_iops = c->iops;
	assert_int_equal(result_write(&r, path), 0);
	result_release(&r);
	return path;
}

/*
 * node2 started its measurement 1.6 s after node1 on its own clock, whose offset is +0.5 s:
 * 1.1 s on the controller's clock, so its rows land one second later; the edges hold one host.
 */
static void test_wall_clock_alignment(void **state)
{
	char *f1 = small_result("node1", "2026-12-03T14:00:10.000000Z", 100, 1000, "x");
	char *f2 = small_result("node2", "2026-12-03T14:00:11.600000Z", 300, 2000, "x");
	struct merge_input in[] = { host("node1", f1), host("node2", f2) };
	struct merge_opts o = { .clock_limit_s = 0.25 };
	struct fslab_result c;
	int h, ops, lat, mx, cpu;
	double r[16];

	(void)state;
	in[0].offset_s = 0;
	in[0].rtt_s = 0.0003;
	in[1].offset_s = 0.5;
	in[1].rtt_s = 0.0004;
	assert_int_equal(merge_results(in, 2, &o, &c), 0);
	assert_string_equal(c.cluster.timeline, "wall-clock");
	assert_int_equal(c.timeline.nrows, 7);
	h = timeline_col(&c.timeline, "hosts");
	ops = timeline_col(&c.timeline, "db_read_ops");
	lat = timeline_col(&c.timeline, "db_read_lat_mean_us");
	mx = timeline_col(&c.timeline, "db_read_lat_max_us");
	cpu = timeline_col(&c.timeline, "cpu_pct");
	assert_int_equal(timeline_row(&c.timeline, 0, r), 0);
	assert_true(r[0] == 1 && r[h] == 1 && r[ops] == 100 && r[lat] == 1000);
	assert_int_equal(timeline_row(&c.timeline, 1, r), 0);
	/* both: ops summed, mean latency weighted by ops, the larger maximum, CPU averaged */
	assert_true(r[h] == 2 && r[ops] == 400);
	assert_true(fabs(r[lat] - (100 * 1000 + 300 * 2000) / 400.0) < 1e-9);
	assert_true(r[mx] == 6000 && r[cpu] == 20);
	assert_int_equal(timeline_row(&c.timeline, 6, r), 0);
	assert_true(r[0] == 7 && r[h] == 1 && r[ops] == 300);
	/* starts on the controller's clock: 1.1 s apart; offsets 0.5 s apart: both above 0.25 */
	assert_true(fabs(c.cluster.start_spread_s - 1.1) < 1e-6);
	assert_true(fabs(c.hosts[1].start_offset_s - 1.1) < 1e-6);
	assert_true(fabs(c.hosts[1].start_delay_s - 1.6) < 1e-6);
	assert_true(fabs(c.cluster.clock_spread_s - 0.5) < 1e-9);
	assert_true(c.hosts[1].clock_offset_s == 0.5 && c.hosts[1].clock_rtt_s == 0.0004);
	assert_true(c.hosts[0].clock_offset_s == 0);
	{
		size_t i, warned = 0;
		json_t *v;

		json_array_foreach(c.notes, i, v)
			warned += strstr(json_string_value(v), "clocks disagree by 0.500 s") != NULL ||
				  strstr(json_string_value(v), "started 1.100 s apart") != NULL;
		assert_int_equal(warned, 2);
	}
	/* the histograms: 6 x 100 + 6 x 300 values */
	assert_int_equal(c.classes[CLS_DB_READ].hist->n, 2400);
	result_release(&c);
	free(f2);
	/* a host claiming a start in 2199: aligned by row, not over 170 years of empty rows */
	f2 = small_result("node2", "2199-12-03T14:00:11.600000Z", 300, 2000, "x");
	in[1].file = f2;
	assert_int_equal(merge_results(in, 2, &o, &c), 0);
	assert_string_equal(c.cluster.timeline, "second index");
	assert_int_equal(c.timeline.nrows, 6);
	result_release(&c);
	free(f1);
	free(f2);
}

static char *write_text(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	return path;
}

/* Missing, aborted and damaged members make the result partial; none stops the merge. */
static void test_partial_and_hostile(void **state)
{
	static const char *const damaged[] = {
		"", "{", "[]", "null", "{\"schema\":\"fslab-result/1\"}",
		"{\"schema\":\"fslab-result/1\",\"label\":\"x\",\"config\":{\"workload\":\"randread\"},"
		"\"classes\":{\"db_read\":{\"hist\":{\"bits\":6,\"groups\":32,\"n\":1,"
		"\"buckets\":[[999999,1]]}}}}",
		"{\"schema\":\"fslab-result/1\",\"label\":\"x\",\"config\":{\"workload\":\"randread\"},"
		"\"timeline\":{\"columns\":[\"t_s\"],\"rows\":[[1,2,3]]}}",
		"{\"schema\":\"fslab-result/1\",\"label\":\"x\",\"config\":{\"workload\":\"randread\"},"
		"\"hosts\":[{\"name\":\"a\"}],\"cluster\":{\"hosts\":1}}",
		"{\"schema\":\"fslab-result/1\",\"label\":\"x\",\"config\":{\"workload\":\"randread\"},"
		"\"classes\":{\"db_read\":{\"hist\":{\"bits\":6,\"groups\":32,\"n\":1,\"mean\":1e300,"
		"\"m2\":1e300}}}}",
	};
	char *good = small_result("good", "2026-12-03T14:00:10.000000Z", 50, 500, "x");

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(damaged); i++) {
		char name[32];
		char *bad;
		struct merge_input in[3];
		struct merge_opts o = { 0 };
		struct fslab_result c;

		snprintf(name, sizeof(name), "bad%zu.json", i);
		bad = write_text(name, damaged[i]);
		in[0] = host("good", good);
		in[1] = host("bad", bad);
		in[2] = host("lost", NULL);
		in[2].missing = "ssh: Connection to node3 closed by remote host";
		assert_int_equal(merge_results(in, 3, &o, &c), 0);
		assert_true(c.cluster.partial);
		assert_true(c.aborted);
		assert_int_equal(c.cluster.complete, 1);
		assert_non_null(strstr(c.abort_reason, "1 of 3 hosts complete"));
		assert_non_null(strstr(c.abort_reason, "closed by remote host"));
		assert_string_equal(c.hosts[1].status, "failed");
		assert_string_equal(c.hosts[2].status, "missing");
		assert_null(c.hosts[2].sha256);
		assert_int_equal(c.classes[CLS_DB_READ].ops, 300);
		result_release(&c);
		free(bad);
	}
	{
		/* an aborted member: kept in hosts[] with its numbers, out of the sums */
		struct merge_input in[] = { host("good", good), host("xfs", "tests/fixtures/xfs-aborted.json") };
		struct merge_opts o = { 0 };
		struct fslab_result c;

		assert_int_equal(merge_results(in, 2, &o, &c), 0);
		assert_true(c.cluster.partial);
		assert_string_equal(c.hosts[1].status, "aborted");
		assert_true(c.hosts[1].transactional_iops > 0);
		assert_int_equal(c.classes[CLS_DB_READ].ops, 300);
		result_release(&c);
	}
	free(good);
}

static void test_refusals(void **state)
{
	char *a = small_result("a", "2026-12-03T14:00:10.000000Z", 10, 100, "x");
	char *b = small_result("b", "2026-12-03T14:00:10.000000Z", 10, 100, "y");
	struct merge_opts o = { 0 };
	struct fslab_result c;

	(void)state;
	{
		struct merge_input in[] = { host("a", a), host("b", b) };

		/* two labels: two cells, unless the cluster is given its own label */
		assert_int_equal(merge_results(in, 2, &o, &c), -FSLAB_EINPUT);
		result_release(&c);
		o.label = "cluster";
		assert_int_equal(merge_results(in, 2, &o, &c), 0);
		assert_string_equal(c.label, "cluster");
		result_release(&c);
		o.label = NULL;
	}
	{
		struct merge_input in[] = { host("a", a), host("a", b) };

		assert_int_equal(merge_results(in, 2, &o, &c), -FSLAB_EINPUT);
		result_release(&c);
	}
	{
		struct merge_input in[] = { host("a b", a) };

		assert_int_equal(merge_results(in, 1, &o, &c), -FSLAB_EINPUT);
		result_release(&c);
	}
	{
		struct merge_input in[] = { host("a", NULL) };

		in[0].missing = "lost";
		assert_int_equal(merge_results(in, 1, &o, &c), -FSLAB_EINPUT);
		result_release(&c);
	}
	{
		struct merge_input in[] = { host("a", a), host("e", "tests/fixtures/ext4-1.json") };

		o.label = "z";
		assert_int_equal(merge_results(in, 2, &o, &c), -FSLAB_EINPUT);
		result_release(&c);
		o.label = NULL;
	}
	free(a);
	free(b);
}

/* src's JSON with the value at the path k1[/k2[/k3]] replaced by v (stolen), as name. */
static char *edited(const char *src, const char *name, const char *k1, const char *k2,
		    const char *k3, json_t *v)
{
	json_t *root = json_load_file(src, 0, NULL), *o = root;
	char *path = xasprintf("%s/%s", dir, name);

	assert_non_null(root);
	if (k2)
		o = json_object_get(o, k1);
	if (k3)
		o = json_object_get(o, k2);
	assert_non_null(o);
	json_object_set_new(o, k3 ? k3 : k2 ? k2 : k1, v);
	assert_int_equal(json_dump_file(root, path, 0), 0);
	json_decref(root);
	return path;
}

/* A timeline of n one-column rows. */
static json_t *rows_timeline(size_t n)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(rows, json_pack("[i]", (int)i + 1));
	return json_pack("{s:[s], s:o}", "columns", "t_s", "rows", rows);
}

/*
 * A host's result that compare would refuse fails that host as the reader fails it (a
 * partial cluster result, never a full one); one run given for two hosts is refused.
 */
static void test_nonsense_hosts(void **state)
{
	char *good = small_result("good", "2026-12-03T14:00:10.000000Z", 50, 500, "x");
	char *other = small_result("other", "2026-12-03T14:00:10.000000Z", 60, 600, "x");
	char *copy = xasprintf("%s/copy.other.json", dir), *text;
	char *bad[] = {
		edited(other, "n1.json", "transactional_iops", NULL, NULL, json_real(-300)),
		edited(other, "n2.json", "classes", "db_read", "iops", json_real(1e308)),
		edited(other, "n3.json", "duration_s", NULL, NULL, json_real(-6)),
		edited(other, "n4.json", "classes", "db_read", "ops", json_integer(7)),
		edited(other, "n5.json", "classes", "db_read", "ops", json_integer(7)),
		edited(other, "n6.json", "timeline", NULL, NULL, rows_timeline(1000)),
	};
	struct merge_opts o = { 0 };
	struct fslab_result c;
	size_t len;

	(void)state;
	/* n5: a histogram in microseconds, not the nanoseconds it is read as */
	free(bad[4]);
	{
		json_t *root = json_load_file(other, 0, NULL);

		json_object_set_new(json_object_get(json_object_get(json_object_get(root, "classes"),
								      "db_read"), "hist"),
				    "unit", json_string("us"));
		bad[4] = xasprintf("%s/n5.json", dir);
		assert_int_equal(json_dump_file(root, bad[4], 0), 0);
		json_decref(root);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct merge_input in[] = { host("good", good), host("other", bad[i]) };

		assert_int_equal(merge_results(in, 2, &o, &c), 0);
		assert_true(c.cluster.partial && c.aborted);
		assert_int_equal(c.cluster.complete, 1);
		assert_string_equal(c.hosts[1].status, "failed");
		assert_int_equal(c.classes[CLS_DB_READ].ops, 300);
		result_release(&c);
	}
	/* the same file for two hosts, and a copy of it beside the original */
	assert_int_equal(read_file(other, &text, &len), 0);
	assert_int_equal(write_file_atomic(copy, text, len), 0);
	free(text);
	{
		struct merge_input in[] = { host("good", good), host("a", other), host("b", other) };

		assert_int_equal(merge_results(in, 3, &o, &c), -FSLAB_EINPUT);
		result_release(&c);
		in[2].file = copy;
		assert_int_equal(merge_results(in, 3, &o, &c), -FSLAB_EINPUT);
		result_release(&c);
		in[2].file = bad[0];
		assert_int_equal(merge_results(in, 3, &o, &c), 0);
		result_release(&c);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		free(bad[i]);
	free(copy);
	free(good);
	free(other);
}

/*
 * fslab merge itself, in this process: the cluster result written, exit 0.  A sanitizer
 * build (SANITIZE=address,undefined) of this suite also holds it to freeing what it took
 * (every merge once leaked 104 bytes: LeakSanitizer's exit 1 lost the summary line).
 */
static void test_cli(void **state)
{
	char *out = xasprintf("%s/cluster.json", dir);
	char *argv[] = { xstrdup("merge"), xstrdup("--output"), out, xstrdup("--host"),
			 xstrdup("a=tests/fixtures/ext4-1.json"), xstrdup("--host"),
			 xstrdup("b=tests/fixtures/ext4-2.json"), NULL };
	struct fslab_result r;

	(void)state;
	assert_int_equal(cmd_merge((int)ARRAY_SIZE(argv) - 1, argv), 0);
	assert_int_equal(result_read(out, &r), 0);
	assert_int_equal(r.cluster.hosts, 2);
	result_release(&r);
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
}

/* Equal JSON, reals within 1e-8 relative (a histogram's m2 is rebuilt from mean and m2). */
static bool json_close(json_t *a, json_t *b)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_number(a) && json_is_number(b)) {
		double x = json_number_value(a), y = json_number_value(b);

		return x == y || fabs(x - y) <= 1e-8 * fmax(fabs(x), fabs(y));
	}
	if (json_typeof(a) != json_typeof(b))
		return false;
	if (json_is_object(a)) {
		if (json_object_size(a) != json_object_size(b))
			return false;
		json_object_foreach(a, k, v)
			if (!json_object_get(b, k) || !json_close(v, json_object_get(b, k)))
				return false;
		return true;
	}
	if (json_is_array(a)) {
		if (json_array_size(a) != json_array_size(b))
			return false;
		json_array_foreach(a, i, v)
			if (!json_close(v, json_array_get(b, i)))
				return false;
		return true;
	}
	return json_equal(a, b);
}

/* Written and read back: every cluster field survives, written again identical. */
static void test_round_trip(void **state)
{
	struct merge_input in[] = { host("node1", "tests/fixtures/xfs-1.json"),
				    host("node2", "tests/fixtures/xfs-2.json"), host("node3", NULL) };
	struct merge_opts o = { 0 };
	struct fslab_result c, d;
	char *p1 = xasprintf("%s/c1.json", dir), *p2 = xasprintf("%s/c2.json", dir);

	(void)state;
	in[0].offset_s = -0.002;
	in[0].rtt_s = 0.001;
	in[2].missing = "lost";
	assert_int_equal(merge_results(in, 3, &o, &c), 0);
	assert_int_equal(result_write(&c, p1), 0);
	assert_int_equal(result_read(p1, &d), 0);
	assert_true(d.cluster.present && d.cluster.partial);
	assert_int_equal(d.nhosts, 3);
	assert_true(d.hosts[0].clock_offset_s == -0.002);
	assert_string_equal(d.hosts[2].reason, "lost");
	assert_int_equal(d.hosts[1].ndevices, c.hosts[1].ndevices);
	assert_int_equal(result_write(&d, p2), 0);
	{
		json_t *j1 = json_load_file(p1, JSON_PRESERVE_ORDER, NULL);
		json_t *j2 = json_load_file(p2, JSON_PRESERVE_ORDER, NULL);

		assert_non_null(j1);
		assert_non_null(j2);
		assert_true(json_close(j1, j2));
		json_decref(j1);
		json_decref(j2);
	}
	result_release(&c);
	result_release(&d);
	free(p1);
	free(p2);
}

/* Two runs of a 3-host cluster with a slow node3: compare shows each host, node3 marked as
 * the straggler; a cluster result beside one host's result is refused. */
static void test_compare_hosts(void **state)
{
	char *files[2], *text = NULL;
	size_t len = 0;
	struct compare c;
	struct compare_opts co = { 0 };
	struct report_opts ro = { .generated = -1 };
	FILE *f;

	(void)state;
	for (int r = 0; r < 2; r++) {
		char *f1 = small_result("node1", "2026-12-03T14:00:10.000000Z", 100 + r, 1000, "x");
		char *f2 = small_result("node2", "2026-12-03T14:00:10.002000Z", 100 - r, 1000, "x");
		char *f3 = small_result("node3", "2026-12-03T14:00:10.001000Z", 40 + r, 3000, "x");
		struct merge_input in[] = { host("node1", f1), host("node2", f2), host("node3", f3) };
		struct merge_opts o = { 0 };
		struct fslab_result m;

		files[r] = xasprintf("%s/x-%d.json", dir, r + 1);
		assert_int_equal(merge_results(in, 3, &o, &m), 0);
		assert_true(fabs(m.cluster.start_spread_s - 0.002) < 1e-9);
		assert_int_equal(result_write(&m, files[r]), 0);
		result_release(&m);
		free(f1);
		free(f2);
		free(f3);
	}
	compare_init(&c);
	assert_int_equal(compare_build(&c, files, 2, &co), 0);
	f = open_memstream(&text, &len);
	report_tables(f, DOC_MD, &c, &ro);
	fclose(f);
	assert_non_null(strstr(text, "## Hosts"));
	assert_non_null(strstr(text, "| x | node1 | 2 |"));
	/* node3 does half the IOPS of the hosts' mean: the straggler, in bold */
	assert_non_null(strstr(text, "**node3**"));
	assert_non_null(strstr(text, "loads started within 2.0 ms"));
	/* two tables that fit the page (issue 21): the load, then latencies and starts, each
	 * led by label and host; no row wider than 7 columns */
	{
		char *hosts = strstr(text, "## Hosts"), *times = strstr(text, "| Label | Host | DB read avg");
		int cols = 0;

		assert_non_null(strstr(hosts, "| Label | Host | Runs | Transactional IOPS |"));
		assert_non_null(times);
		assert_non_null(strstr(times, "Clock offset (ms) |"));
		assert_non_null(strstr(times, "| x | **node3** |")); /* the straggler in both */
		for (char *p = hosts; *p && strncmp(p, "\n## ", 5); p++) {
			if (*p == '\n') {
				assert_true(cols <= 8);
				cols = 0;
			}
			cols += *p == '|';
		}
	}
	free(text);
	compare_release(&c);
	{
		char *mixed[] = { files[0], (char *)"tests/fixtures/ext4-1.json" };

		compare_init(&c);
		co.allow_mismatch = false;
		assert_int_equal(compare_build(&c, mixed, 2, &co), -FSLAB_EINPUT);
		compare_release(&c);
	}
	free(files[0]);
	free(files[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_and_buckets),
		cmocka_unit_test(test_wall_clock_alignment),
		cmocka_unit_test(test_partial_and_hostile),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_nonsense_hosts),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_compare_hosts),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
