// SPDX-License-Identifier: MIT
/*
 * test_tune.c: the thread-count tuner of --threads auto (src/engine/tune.h): the slope test against
 * hand-computed windows; a step's judgement on recorded samples (stable and passing, stable
 * and failing, a latency that jumps and is not stable until the jump leaves the window, the
 * step cap, a partial verdict sample, stalls); the search (doubling, bisection, the caps,
 * noise, a count that must hold one thread per database); the tuning record in a result file.
 *
 * The recorded samples are per-second timeline rows of real runs, kernel 6.18, 2026-12-06:
 * ext4 on a 1 GiB loop device (direct I/O), its reads throttled by cgroup v1
 * (blkio.throttle.read_iops_device) in a cgroup holding the run, log on its own loop device:
 *   fslab run --db DB --log LOG --db-size 256M --no-checksum-pass --threads N --duration 40s
 *             --warmup 3s --sample-interval 5s
 * Each row: database reads, their latency sum (ms), database writes, log writes, their
 * latency sum (ms), over one second.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "result/result.h"
#include "engine/tune.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

struct rec {
	unsigned int reads;
	double read_ms;
	unsigned int writes, logs;
	double log_ms;
};

/* 5 threads, reads throttled to 286/s: about 17.5 ms a read */
static const struct rec rec5[] = {
	{ 276, 3936.3, 173, 36, 497.9 },
	{ 276, 4050.7, 182, 36, 403.8 },
	{ 277, 4578.6, 161, 37, 76.8 },
	{ 276, 4885.6, 178, 39, 65.1 },
	{ 276, 4849.2, 171, 38, 118.9 },
	{ 276, 4868.1, 187, 45, 51.5 },
	{ 277, 4797.7, 164, 42, 142.4 },
	{ 276, 4785.8, 188, 42, 133.7 },
	{ 261, 4011.3, 157, 32, 382.8 },
	{ 291, 4631.0, 181, 42, 51.8 },
	{ 276, 4759.0, 190, 37, 101.0 },
	{ 277, 4861.7, 181, 39, 74.5 },
	{ 276, 4878.5, 187, 44, 65.4 },
	{ 276, 4844.1, 187, 46, 73.7 },
	{ 253, 4831.5, 153, 35, 259.8 },
	{ 295, 3882.0, 200, 45, 394.6 },
	{ 265, 3765.7, 193, 39, 322.9 },
	{ 277, 4679.2, 194, 42, 157.9 },
	{ 276, 4717.3, 178, 43, 188.9 },
	{ 276, 4667.5, 202, 45, 88.5 },
	{ 276, 4826.0, 184, 41, 78.9 },
	{ 276, 4844.5, 175, 42, 71.0 },
	{ 277, 4841.2, 196, 45, 68.7 },
	{ 276, 4867.2, 197, 42, 81.0 },
	{ 276, 4845.4, 169, 40, 78.8 },
	{ 276, 4674.7, 173, 39, 111.9 },
	{ 276, 4735.5, 188, 41, 253.8 },
	{ 276, 4411.8, 166, 40, 204.8 },
	{ 237, 3995.2, 148, 31, 578.1 },
	{ 288, 4012.0, 209, 45, 663.8 },
	{ 276, 4222.4, 183, 33, 306.6 },
	{ 276, 4589.2, 168, 36, 186.5 },
	{ 276, 4870.5, 173, 41, 72.7 },
	{ 277, 4845.7, 192, 37, 70.7 },
	{ 276, 4828.5, 181, 45, 80.3 },
	{ 276, 4845.3, 183, 38, 73.7 },
	{ 276, 4760.0, 167, 37, 120.9 },
	{ 276, 4874.2, 186, 49, 45.9 },
	{ 276, 4765.8, 176, 33, 129.1 },
	{ 277, 4795.9, 182, 39, 88.0 },
};

/* 8 threads, the same throttle: about 28.5 ms a read */
static const struct rec rec8[] = {
	{ 276, 7642.2, 165, 27, 265.3 },
	{ 267, 4261.4, 158, 19, 873.0 },
	{ 223, 3915.6, 171, 19, 791.7 },
	{ 306, 6608.8, 179, 30, 388.3 },
	{ 276, 7301.1, 186, 28, 75.7 },
	{ 304, 8668.1, 189, 34, 30.9 },
	{ 249, 6512.2, 154, 24, 376.5 },
	{ 276, 6363.8, 185, 25, 402.2 },
	{ 276, 7935.2, 178, 31, 34.3 },
	{ 276, 7922.7, 190, 31, 26.2 },
	{ 276, 7933.4, 160, 29, 27.8 },
	{ 249, 7136.3, 165, 27, 24.1 },
	{ 202, 8690.8, 133, 21, 253.1 },
	{ 276, 7888.8, 183, 28, 30.6 },
	{ 276, 7909.7, 167, 31, 25.7 },
	{ 146, 7453.5, 86, 14, 106.0 },
	{ 276, 7465.6, 170, 31, 154.9 },
	{ 277, 8054.0, 176, 28, 102.5 },
	{ 276, 7464.9, 191, 32, 76.7 },
	{ 276, 7760.9, 172, 25, 91.2 },
	{ 276, 7845.2, 201, 33, 26.5 },
	{ 276, 7959.5, 178, 30, 23.2 },
	{ 277, 7714.6, 178, 35, 153.4 },
	{ 276, 7916.3, 195, 35, 25.0 },
	{ 276, 7727.9, 165, 34, 127.3 },
	{ 276, 7861.2, 173, 33, 150.1 },
	{ 276, 7359.5, 198, 33, 106.0 },
	{ 276, 8068.5, 189, 28, 52.5 },
	{ 277, 7641.6, 186, 34, 26.2 },
	{ 276, 7945.8, 172, 30, 66.1 },
	{ 276, 7709.0, 170, 34, 160.0 },
	{ 276, 7148.9, 194, 31, 198.5 },
	{ 276, 7937.3, 214, 38, 28.9 },
	{ 277, 7881.9, 172, 29, 30.6 },
	{ 276, 7952.1, 173, 32, 24.6 },
	{ 276, 7912.2, 166, 30, 23.1 },
	{ 276, 7883.1, 189, 26, 33.7 },
	{ 276, 7846.2, 192, 34, 29.9 },
	{ 277, 7855.2, 195, 33, 44.3 },
	{ 276, 7938.4, 188, 35, 19.8 },
};

/* 4 threads, reads throttled to 500/s, then to 150/s from about second 14: 8 ms, then 27 ms */
static const struct rec recstep[] = {
	{ 497, 3920.1, 322, 84, 44.4 },
	{ 496, 3911.8, 318, 84, 50.2 },
	{ 496, 3834.5, 332, 79, 59.5 },
	{ 496, 3925.8, 319, 86, 53.8 },
	{ 496, 3860.9, 345, 95, 81.5 },
	{ 497, 3860.9, 338, 92, 67.8 },
	{ 496, 3901.4, 334, 93, 45.5 },
	{ 496, 3935.6, 312, 89, 37.3 },
	{ 496, 3924.1, 323, 98, 44.5 },
	{ 496, 3923.3, 306, 93, 40.2 },
	{ 496, 4084.2, 314, 92, 132.2 },
	{ 492, 3617.8, 318, 77, 321.5 },
	{ 501, 3444.0, 342, 76, 154.3 },
	{ 446, 3525.3, 286, 83, 40.1 },
	{ 136, 4452.0, 85, 21, 8.7 },
	{ 146, 3991.9, 100, 28, 13.4 },
	{ 146, 3955.8, 90, 28, 17.8 },
	{ 147, 3972.8, 103, 27, 13.4 },
	{ 146, 3975.9, 94, 28, 12.8 },
	{ 146, 3974.9, 91, 27, 13.0 },
	{ 146, 3980.1, 104, 28, 13.6 },
	{ 146, 3978.4, 93, 28, 14.0 },
	{ 147, 3976.8, 106, 30, 16.4 },
	{ 146, 3962.0, 96, 30, 16.2 },
	{ 146, 3926.2, 102, 29, 62.8 },
	{ 146, 3666.6, 99, 30, 155.4 },
	{ 146, 3978.0, 111, 31, 14.5 },
	{ 147, 3976.2, 94, 27, 11.8 },
	{ 146, 3974.2, 96, 32, 15.6 },
	{ 146, 3949.2, 86, 22, 39.5 },
};


/* A tick from a recorded row (one second), its read latency scaled by read_scale. */
static struct tune_tick tick_of(const struct rec *r, double read_scale)
{
	return (struct tune_tick){ .secs = 1, .db_reads = r->reads, .db_writes = r->writes,
				   .log_writes = r->logs, .db_read_lat_ms = r->read_ms * read_scale,
				   .log_write_lat_ms = r->log_ms };
}

/* The strict set's limits, Jetstress's tolerance, 5 s verdict samples; the tuning parts
 * small, as the integration tests run them. */
static void rule_small(struct tune_rule *r, unsigned int window, double judge_s, double cap_s)
{
	tune_rule_default(r);
	r->window = window;
	r->interval_s = 1;
	r->slope_pct = 10;
	r->judge_s = judge_s;
	r->step_cap_s = cap_s;
	r->db_read_avg_ms = 20;
	r->log_write_avg_ms = 10;
	r->db_read_max_ms = r->log_write_max_ms = 100;
	r->max_latency_errors = 6;
	r->sample_interval_s = 5;
	r->stalls_per_s = 1;
}

/* Rows [first, n) fed to a step at threads until it is done (it must be); the step out. */
static void run_rows(const struct tune_rule *r, const struct rec *rows, size_t first, size_t n,
		     double read_scale, unsigned int threads, struct tune_step *out)
{
	struct tune_track t;
	enum tune_phase ph = TUNE_SETTLING;

	tune_track_init(&t, r, threads);
	for (size_t i = first; i < n && ph != TUNE_DONE; i++) {
		struct tune_tick k = tick_of(&rows[i], read_scale);

		ph = tune_track_tick(&t, &k);
	}
	assert_int_equal(ph, TUNE_DONE);
	tune_track_take(&t, out);
	tune_track_release(&t);
}

/*
 * Windows worked by hand: samples x = 0..4 (x - mean = -2..2, Sxx = 10), slope = Sxy / Sxx,
 * the line's movement across the window |slope| x 4 in % of the mean.
 */
static void test_slope(void **state)
{
	static const struct {
		double y[5], excursion;
		bool holds;
	} tab[] = {
		{ { 20, 20, 20, 20, 20 }, 0, true },
		/* Sxy = -2 x 19 + 2 x 21 - 0 = 4 - 0: slope 0.4, 1.6 of 20 = 8 % */
		{ { 19, 20, 20, 20, 21 }, 8, true },
		/* slope 0.5: 2 of 20 = 10 %, exactly the limit, holds */
		{ { 19, 19.5, 20, 20.5, 21 }, 10, true },
		/* Sxy = 2.02 + 0.5 + 0.5 + 2.02 = 5.04, slope 0.504, 2.016 of 20: 10.08 % */
		{ { 18.99, 19.5, 20, 20.5, 21.01 }, 10.08, false },
		/* a rise from 8 ms to 27 ms inside the window (recorded above): Sxy = 57,
		 * slope 5.7, 22.8 of 15.6 */
		{ { 8, 8, 8, 27, 27 }, 146.153846154, false },
		/* one spike: slope 0 (the line does not move), the test holds: the window's mean
		 * is judged, and a spike inside it counts there */
		{ { 20, 20, 60, 20, 20 }, 0, true },
	};
	double e;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(tab); i++) {
		assert_int_equal(tune_slope_holds(tab[i].y, 5, 10, &e), tab[i].holds);
		assert_near(e, tab[i].excursion, 1e-6);
	}
	/* no value, a mean of 0, a single sample: never stable */
	assert_false(tune_slope_holds((double[]){ 1, NAN, 1 }, 3, 10, &e));
	assert_true(isnan(e));
	assert_false(tune_slope_holds((double[]){ 0, 0, 0 }, 3, 10, &e));
	assert_false(tune_slope_holds((double[]){ 5 }, 1, 10, &e));
}

/* 5 threads under the throttle: stable after 7 samples, judged on the next 10 s, passes. */
static void test_step_recorded_pass(void **state)
{
	struct tune_rule r;
	struct tune_step st;

	(void)state;
	rule_small(&r, 5, 10, 40);
	run_rows(&r, rec5, 0, ARRAY_SIZE(rec5), 1, 5, &st);
	assert_int_equal(st.threads, 5);
	assert_true(st.stable);
	assert_true(st.pass);
	assert_null(st.why);
	/* worked out on the rows: the window of samples 2..6 (16.53 .. 17.32 ms) moves 3.5 % */
	assert_near(st.settle_s, 7, 1e-9);
	assert_near(st.excursion_pct, 3.5006215, 1e-6);
	assert_near(st.seconds, 17, 1e-9);
	/* rows 7..16: 4563 database I/Os in 10 s, 2692 reads in 44361.4 ms */
	assert_near(st.iops, 456.3, 1e-9);
	assert_near(st.db_read_ms, 16.4787327, 1e-6);
	assert_near(st.log_write_ms, 4.6389027, 1e-6);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.above, 0);
	assert_near(st.stalls_per_s, 0, 0);
}

/* 8 threads under the same throttle: stable at once, and over the database read limit. */
static void test_step_recorded_fail(void **state)
{
	struct tune_rule r;
	struct tune_step st;

	(void)state;
	rule_small(&r, 5, 10, 40);
	run_rows(&r, rec8, 0, ARRAY_SIZE(rec8), 1, 8, &st);
	assert_true(st.stable);
	assert_false(st.pass);
	assert_near(st.settle_s, 5, 1e-9);
	assert_near(st.db_read_ms, 28.9327068, 1e-6);
	assert_near(st.iops, 436.4, 1e-9);
	assert_string_equal(st.why, "database reads averaged 28.93 ms (limit 20 ms)");
	free(st.why);
	/* the lenient set has the same averages: it fails the same way */
}

/*
 * The throttle tightened while the step ran (8 ms reads, then 27 ms): no window that holds
 * the jump is stable; the step is judged only once the jump has left the window, on the
 * slow device, and fails there.  With a cap that ends it before, it is not stable and
 * fails for that, its figures those of the last window.
 */
static void test_step_recorded_jump(void **state)
{
	struct tune_rule r;
	struct tune_step st;

	(void)state;
	rule_small(&r, 5, 10, 40);
	/* from row 11: 7.35, 6.87, 7.90, 32.74, 27.34, 27.09, 27.03, 27.23, 27.23 ms */
	run_rows(&r, recstep, 11, ARRAY_SIZE(recstep), 1, 4, &st);
	assert_true(st.stable);
	assert_near(st.settle_s, 9, 1e-9); /* the first window after the jump's first second */
	assert_near(st.excursion_pct, 0.1400908, 1e-6);
	assert_near(st.db_read_ms, 26.9272914, 1e-6);
	assert_false(st.pass);
	free(st.why);

	rule_small(&r, 5, 10, 6);
	run_rows(&r, recstep, 11, ARRAY_SIZE(recstep), 1, 4, &st);
	assert_false(st.stable);
	assert_false(st.pass);
	assert_near(st.settle_s, 6, 1e-9);
	assert_near(st.excursion_pct, 117.4654163, 1e-6);
	assert_string_equal(st.why, "database read latency not stable within 6 s (the window's "
			    "line moved 117.5 %, at most 10 %)");
	/* the last window's figures: rows 12..16 */
	assert_near(st.db_read_ms, (recstep[12].read_ms + recstep[13].read_ms + recstep[14].read_ms +
				    recstep[15].read_ms + recstep[16].read_ms) /
				   (recstep[12].reads + recstep[13].reads + recstep[14].reads +
				    recstep[15].reads + recstep[16].reads), 1e-9);
	free(st.why);
	/* a cap shorter than the window: not stable, with fewer samples than the window */
	rule_small(&r, 5, 10, 3);
	run_rows(&r, rec5, 0, ARRAY_SIZE(rec5), 1, 5, &st);
	assert_false(st.stable);
	assert_string_equal(st.why, "database read latency not stable within 3 s (fewer samples "
			    "than the window)");
	assert_near(st.settle_s, 3, 1e-9);
	free(st.why);
}

/* A judged window shorter than a whole number of verdict samples: the rest is one partial
 * sample; samples above the maximum beyond the tolerance fail; so do stalls; so does a
 * load without log writes. */
static void test_step_samples_stalls(void **state)
{
	struct tune_rule r;
	struct tune_step st;
	struct tune_track t;

	(void)state;
	rule_small(&r, 5, 7, 40);
	run_rows(&r, rec5, 0, ARRAY_SIZE(rec5), 1, 5, &st);
	assert_true(st.pass);
	assert_int_equal(st.samples, 2); /* 5 s and a partial 2 s */
	assert_near(st.seconds, 14, 1e-9);

	/* reads 7 times as slow: every 5 s sample above 100 ms; none tolerated */
	rule_small(&r, 5, 10, 40);
	r.max_latency_errors = 1;
	r.db_read_avg_ms = 1000;
	run_rows(&r, rec5, 0, ARRAY_SIZE(rec5), 7, 5, &st);
	assert_false(st.pass);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.above, 2);
	assert_non_null(strstr(st.why, "2 of 2 samples (5 s averages) above the maximum"));
	free(st.why);

	/* 2 stalls a second */
	rule_small(&r, 3, 3, 40);
	tune_track_init(&t, &r, 2);
	for (int i = 0; i < 6; i++) {
		struct tune_tick k = { .secs = 1, .db_reads = 100, .db_read_lat_ms = 500,
				       .db_writes = 60, .log_writes = 20, .log_write_lat_ms = 40,
				       .stalls = 2 };

		assert_int_equal(tune_track_tick(&t, &k), i < 5 ? (i < 2 ? TUNE_SETTLING
								   : TUNE_JUDGING) : TUNE_DONE);
	}
	tune_track_take(&t, &st);
	tune_track_release(&t);
	assert_false(st.pass);
	assert_near(st.iops, 160, 1e-9);
	assert_near(st.db_read_ms, 5, 1e-9);
	assert_near(st.log_write_ms, 2, 1e-9);
	assert_near(st.stalls_per_s, 2, 1e-9);
	assert_string_equal(st.why, "2.00 database page fault stalls per second (limit 1)");
	free(st.why);

	/* no log writes measured: it cannot pass (a class without I/O fails the verdict too) */
	tune_track_init(&t, &r, 2);
	for (int i = 0; i < 6; i++)
		tune_track_tick(&t, &(struct tune_tick){ .secs = 1, .db_reads = 100,
							 .db_read_lat_ms = 500 });
	tune_track_take(&t, &st);
	tune_track_release(&t);
	assert_false(st.pass);
	assert_string_equal(st.why, "no log write was measured");
	free(st.why);
}

/* The search alone: the counts it tries for a volume whose limit is known. */
static unsigned int search(unsigned int min, unsigned int max, unsigned int limit,
			   unsigned int *tried, size_t *n, char **reason)
{
	struct tune_search s;
	unsigned int t;

	*n = 0;
	tune_search_init(&s, min, max);
	for (t = tune_search_first(&s); t; t = tune_search_next(&s, t, t <= limit))
		tried[(*n)++] = t;
	return tune_search_choice(&s, false, reason);
}

static void test_search(void **state)
{
	unsigned int tried[32];
	size_t n;
	char *why;

	(void)state;
	/* doubling to the first failure, then bisection between 4 (passed) and 8 (failed) */
	assert_int_equal(search(1, 64, 5, tried, &n, &why), 5);
	assert_int_equal(n, 6);
	assert_memory_equal(tried, ((unsigned int[]){ 1, 2, 4, 8, 6, 5 }), 6 * sizeof(unsigned int));
	assert_string_equal(why, "the largest count that passed: 5 passed, 6 failed");
	free(why);
	/* every limit from 1 to 64 found exactly, in at most 2 log2(64) + 1 steps */
	for (unsigned int lim = 1; lim < 64; lim++) {
		assert_int_equal(search(1, 64, lim, tried, &n, &why), lim);
		assert_true(n <= 13);
		free(why);
	}
	/* the cap passes: measured at the cap, said so; a cap that is not a power of two */
	assert_int_equal(search(1, 12, 100, tried, &n, &why), 12);
	assert_memory_equal(tried, ((unsigned int[]){ 1, 2, 4, 8, 12 }), 5 * sizeof(unsigned int));
	assert_string_equal(why, "every count up to the cap passed (12): the volume may carry more "
			    "(raise --tune-max-threads)");
	free(why);
	/* the fewest fails: measured there, said so */
	assert_int_equal(search(1, 64, 0, tried, &n, &why), 1);
	assert_int_equal(n, 1);
	assert_string_equal(why, "no count passed: measured at the fewest, 1");
	free(why);
	/* one thread per database: from 3, doubling 3, 6, 12, then 9, 10 */
	assert_int_equal(search(3, 64, 10, tried, &n, &why), 10);
	assert_memory_equal(tried, ((unsigned int[]){ 3, 6, 12, 9, 10, 11 }),
			    6 * sizeof(unsigned int));
	free(why);
	/* a cap below the fewest is the fewest */
	assert_int_equal(search(4, 2, 10, tried, &n, &why), 4);
	assert_int_equal(n, 1);
	free(why);
}

/* Noise: a count above one that failed passes after all.  The bracket closes on it. */
static void test_search_noise(void **state)
{
	struct tune_search s;
	char *why;

	(void)state;
	tune_search_init(&s, 1, 64);
	assert_int_equal(tune_search_next(&s, 1, true), 2);
	assert_int_equal(tune_search_next(&s, 2, true), 4);
	assert_int_equal(tune_search_next(&s, 4, false), 3);
	/* 3 passes... */
	assert_int_equal(tune_search_next(&s, 3, true), 0);
	assert_int_equal(tune_search_choice(&s, false, &why), 3);
	free(why);
	/* a count above the failing one reported passing: the bracket is above it, done */
	tune_search_init(&s, 1, 64);
	assert_int_equal(tune_search_next(&s, 1, true), 2);
	assert_int_equal(tune_search_next(&s, 2, false), 0);
	assert_int_equal(tune_search_choice(&s, false, &why), 1);
	free(why);
	tune_search_init(&s, 1, 64);
	s.hi = 3;
	assert_int_equal(tune_search_next(&s, 5, true), 0);
	assert_int_equal(s.hi, 6);
	assert_int_equal(tune_search_choice(&s, true, &why), 5);
	assert_string_equal(why, "the time cap ended the search: the largest count that passed: "
			    "5 passed, 6 failed");
	free(why);
	/* the time cap while doubling */
	tune_search_init(&s, 1, 64);
	assert_int_equal(tune_search_next(&s, 1, true), 2);
	assert_int_equal(tune_search_choice(&s, true, &why), 1);
	assert_string_equal(why, "the time cap ended the search: the largest count that passed so "
			    "far: 1");
	free(why);
}

/*
 * The whole search on recorded samples: a closed loop against a read throttle spends its
 * sessions' time waiting for reads, so N threads see about N/8 of the recorded 8-thread read
 * latency at the same rate (rec5 and rec8: 3.3 and 3.6 ms a thread).  From 1, doubling,
 * then bisecting: 5 passes (5/8 of 28.93 ms: 18.1 ms), 6 fails (21.7 ms), as the real device
 * did (fslab run --threads auto on it chose 5: 17.7 ms at 5, 20.7 ms at 6).
 */
static void test_search_recorded(void **state)
{
	struct tune_rule r;
	struct tune_search s;
	unsigned int t, tried[16];
	size_t n = 0;
	char *why;

	(void)state;
	rule_small(&r, 5, 10, 40);
	tune_search_init(&s, 1, 64);
	for (t = tune_search_first(&s); t; n++) {
		struct tune_step st;

		tried[n] = t;
		run_rows(&r, rec8, 0, ARRAY_SIZE(rec8), t / 8.0, t, &st);
		assert_true(st.stable); /* the window's slope does not depend on the scale */
		free(st.why);
		t = tune_search_next(&s, t, st.pass);
	}
	assert_int_equal(tune_search_choice(&s, false, &why), 5);
	free(why);
	assert_int_equal(n, 6);
	assert_memory_equal(tried, ((unsigned int[]){ 1, 2, 4, 8, 6, 5 }), 6 * sizeof(unsigned int));
}

/* The record in a result file: written, read back the same, and left out without it. */
static void test_record(void **state)
{
	struct fslab_result r, back;
	json_t *j;
	char *path = xstrdup("/tmp/fslab-test-tune-XXXXXX");
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	result_init(&r);
	r.label = xstrdup("ext4");
	r.config.workload = xstrdup("jetstress");
	r.config.threads = 5;
	r.duration_s = 10;
	run_config_set_untuned(&r.config);
	j = result_to_json(&r);
	assert_null(json_object_get(j, "tuning"));
	assert_null(json_object_get(json_object_get(j, "config"), "threads_auto"));
	assert_null(json_object_get(json_object_get(j, "config"), "tune_window"));
	json_decref(j);
	assert_false(run_config_tuned(&r.config));

	run_config_clear_na(&r.config, offsetof(struct run_config, threads_auto));
	run_config_clear_na(&r.config, offsetof(struct run_config, tune_window));
	r.config.threads_auto = true;
	r.config.tune_window = 5;
	r.tuning.present = true;
	r.tuning.threads = 5;
	r.tuning.reason = xstrdup("the largest count that passed: 5 passed, 6 failed");
	r.tuning.seconds = 94.3;
	r.tuning.nsteps = 2;
	r.tuning.steps = xcalloc(2, sizeof(struct tune_step));
	r.tuning.steps[0] = (struct tune_step){ .threads = 1, .seconds = 15, .settle_s = 5,
		.stable = true, .pass = true, .iops = 455, .db_read_ms = 3.47, .log_write_ms = 1.12,
		.stalls_per_s = 0, .samples = 2, .excursion_pct = 7.3 };
	r.tuning.steps[1] = (struct tune_step){ .threads = 8, .seconds = 40, .settle_s = 40,
		.iops = 421.9, .db_read_ms = NAN, .log_write_ms = 2.2, .stalls_per_s = 0,
		.excursion_pct = 40.1, .why = xstrdup("database read latency not stable") };
	assert_true(run_config_tuned(&r.config));
	assert_int_equal(result_write(&r, path), 0);
	assert_int_equal(result_read(path, &back), 0);
	assert_true(back.tuning.present);
	assert_true(run_config_tuned(&back.config));
	assert_int_equal(back.config.tune_window, 5);
	/* not written: not recorded */
	assert_false(run_config_has(&back.config, offsetof(struct run_config, tune_cap_s)));
	assert_int_equal(back.tuning.threads, 5);
	assert_string_equal(back.tuning.reason, r.tuning.reason);
	assert_int_equal(back.tuning.nsteps, 2);
	assert_int_equal(back.tuning.steps[0].threads, 1);
	assert_true(back.tuning.steps[0].stable && back.tuning.steps[0].pass);
	assert_near(back.tuning.steps[0].db_read_ms, 3.47, 1e-12);
	assert_null(back.tuning.steps[0].why);
	assert_false(back.tuning.steps[1].stable || back.tuning.steps[1].pass);
	assert_true(isnan(back.tuning.steps[1].db_read_ms));
	assert_string_equal(back.tuning.steps[1].why, "database read latency not stable");
	result_release(&back);
	/* a tuned run measured at another count than its tuner chose contradicts itself */
	r.config.threads = 6;
	assert_int_equal(result_write(&r, path), 0);
	assert_int_equal(result_read(path, &back), -FSLAB_EINPUT);
	result_release(&back);
	result_release(&r);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slope),
		cmocka_unit_test(test_step_recorded_pass),
		cmocka_unit_test(test_step_recorded_fail),
		cmocka_unit_test(test_step_recorded_jump),
		cmocka_unit_test(test_step_samples_stalls),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_search_noise),
		cmocka_unit_test(test_search_recorded),
		cmocka_unit_test(test_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
