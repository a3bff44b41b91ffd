// SPDX-License-Identifier: MIT
/* test_steady.c: the SNIA PTS steady-state rule (src/engine/steady.h) against hand-computed windows,
 * the rule a second at a time, on a timeline, and its record in a result file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "engine/engine.h"
#include "result/result.h"
#include "engine/steady.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/*
 * Windows of five means, worked by hand.  Rounds x = 0..4 (x - mean x = -2..2, Sxx = 10);
 * slope = Sxy / Sxx; excursion = |slope| x 4; both in % of the mean.
 */
static void test_judge_hand_computed(void **state)
{
	static const struct {
		double y[5];
		double mean, range_pct, slope, excursion_pct;
		bool holds;
	} tab[] = {
		/* flat: nothing moves */
		{ { 100, 100, 100, 100, 100 }, 100, 0, 0, 0, true },
		/* range 20 of 100: exactly the limit holds; Sxy = 20 - 10 = 10, slope 1, 4 % */
		{ { 90, 110, 100, 100, 100 }, 100, 20, 1, 4, true },
		/* range 21 of 100: over; Sxy = 22 - 10 + 2 = 14, slope 1.4, 5.6 % */
		{ { 89, 110, 100, 100, 101 }, 100, 21, 1.4, 5.6, false },
		/* a climb: range 20 of 105 (19.05 %) holds, slope 5, excursion 20 of 105 fails */
		{ { 95, 100, 105, 110, 115 }, 105, 20.0 / 105 * 100, 5, 20.0 / 105 * 100, false },
		/* one jump: Sxy = -40 + 20 = -20, slope -2 (8 %) holds, range 40 % fails */
		{ { 120, 80, 100, 100, 100 }, 100, 40, -2, 8, false },
		/* slope 2.5: excursion 10 of 100, exactly the limit, holds; range 10 % */
		{ { 95, 97.5, 100, 102.5, 105 }, 100, 10, 2.5, 10, true },
		/* Sxy = 10.2 + 2.5 + 2.5 + 10.2 = 25.4, slope 2.54, excursion 10.16 %: fails */
		{ { 94.9, 97.5, 100, 102.5, 105.1 }, 100, 10.2, 2.54, 10.16, false },
	};
	struct steady_rule r;
	struct steady_fit f;

	(void)state;
	steady_rule_default(&r);
	assert_int_equal(r.window, 5);
	assert_int_equal(r.interval_s, 60);
	for (size_t i = 0; i < ARRAY_SIZE(tab); i++) {
		bool h = steady_judge(tab[i].y, 5, &r, &f);

		assert_int_equal(h, tab[i].holds);
		assert_int_equal(f.holds, tab[i].holds);
		assert_near(f.mean, tab[i].mean, 1e-9);
		assert_near(f.range_pct, tab[i].range_pct, 1e-9);
		assert_near(f.slope, tab[i].slope, 1e-9);
		assert_near(f.excursion_pct, tab[i].excursion_pct, 1e-9);
	}
	/* W = 2: mean 105, range 10 (9.52 %), slope 10, excursion 10 (9.52 %) */
	{
		double y[2] = { 100, 110 };

		assert_true(steady_judge(y, 2, &r, &f));
		assert_near(f.excursion_pct, 10.0 / 105 * 100, 1e-9);
		/* tighter limits (--steady-range 9): the same window fails */
		r.range_pct = 9;
		assert_false(steady_judge(y, 2, &r, &f));
		r.range_pct = 20;
	}
	/* no value, no judgement: NaN, a non-positive mean, a single point */
	{
		double y[5] = { 100, NAN, 100, 100, 100 }, z[5] = { 0 };

		assert_false(steady_judge(y, 5, &r, &f));
		assert_true(isnan(f.mean));
		assert_false(steady_judge(z, 5, &r, &f));
		assert_true(isnan(f.range_pct));
		assert_false(steady_judge(z, 1, &r, &f));
	}
}

/* Interval means a second at a time: 2-second intervals, a window of 3. */
static void test_track(void **state)
{
	struct steady_rule r = { .window = 3, .interval_s = 2, .range_pct = 20,
				 .excursion_pct = 10 };
	/* interval means 100, 300, 100, 100, 100, 100: intervals 2-4 (seconds 4-10) are the
	 * first window to hold */
	static const double ops[] = { 100, 100, 300, 300, 90, 110, 100, 100, 100, 100, 100, 100 };
	struct steady_metric m = { 0 };
	struct steady_track t;
	int holds = 0;

	(void)state;
	steady_track_init(&t, &r);
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		bool h = steady_track_second(&t, ops[i], 1);

		/* only the end of an interval judges; intervals 4 and 5 end at seconds 10 and 12 */
		if (h)
			assert_true(i == 9 || i == 11);
		holds += h;
		/* after 5 seconds: 2 intervals, fewer than the window */
		if (i == 4) {
			steady_track_result(&t, &m);
			assert_int_equal(m.state, STEADY_TOO_SHORT);
			assert_true(isnan(m.from_s));
		}
	}
	assert_int_equal(holds, 2);
	steady_track_result(&t, &m);
	assert_int_equal(m.state, STEADY_ATTAINED);
	assert_near(m.from_s, 4, 0);
	assert_near(m.to_s, 10, 0);
	assert_true(m.holds_at_end);
	assert_int_equal(m.n, 3);
	assert_near(m.means[0], 100, 0);
	assert_near(m.mean, 100, 0);
	assert_near(m.range_pct, 0, 0);
	steady_track_release(&t);

	/* a load that never settles: the last window's figures */
	steady_track_init(&t, &r);
	for (int i = 0; i < 12; i++)
		(void)steady_track_second(&t, i / 2 % 2 ? 200 : 100, 1);
	steady_track_result(&t, &m);
	assert_int_equal(m.state, STEADY_NOT_ATTAINED);
	assert_near(m.from_s, 6, 0);
	assert_near(m.to_s, 12, 0);
	assert_false(m.holds_at_end);
	assert_near(m.means[0], 200, 0); /* intervals 3, 4, 5: 200, 100, 200 */
	assert_near(m.means[1], 100, 0);
	assert_near(m.range_pct, 100.0 / (500.0 / 3) * 100, 1e-9);
	steady_track_release(&t);

	/* a mean latency: the sums' ratio (20 + 60 ms over 10 + 10 reads = 4 ms); no reads at
	 * all is no data */
	steady_track_init(&t, &r);
	for (int i = 0; i < 6; i++)
		(void)steady_track_second(&t, i % 2 ? 60 : 20, 10);
	steady_track_result(&t, &m);
	assert_int_equal(m.state, STEADY_ATTAINED);
	assert_near(m.mean, 4, 1e-12);
	steady_track_release(&t);
	steady_track_init(&t, &r);
	for (int i = 0; i < 6; i++)
		(void)steady_track_second(&t, 0, 0);
	steady_track_result(&t, &m);
	assert_int_equal(m.state, STEADY_NO_DATA);
	steady_track_release(&t);
	steady_metric_release(&m);
}

/* The rule on a result's timeline, and its record through the file format. */
static void test_timeline_and_file(void **state)
{
	struct steady_rule r = { .window = 5, .interval_s = 1, .range_pct = 20,
				 .excursion_pct = 10 };
	struct fslab_result res, back;
	double row[TIMELINE_NCOLS];
	json_t *j;
	char *text;

	(void)state;
	result_init(&res);
	res.label = xstrdup("steady");
	res.config.workload = xstrdup("randread");
	res.config.threads = 1; /* the reader refuses a run of 0 threads */
	res.duration_s = 30; /* and a timeline longer than the run */
	timeline_init(&res.timeline, timeline_columns, TIMELINE_NCOLS);
	/* 10 seconds of 1000 reads/s at 1 ms, then 20 at 400 reads/s (and 2.5 ms) */
	for (int s = 0; s < 30; s++) {
		memset(row, 0, sizeof(row));
		row[0] = s + 1;
		row[1 + 4 * CLS_DB_READ] = s < 10 ? 1000 : 400;
		row[3 + 4 * CLS_DB_READ] = s < 10 ? 1000 : 2500;
		timeline_add_row(&res.timeline, row);
	}
	assert_int_equal(steady_from_timeline(&res.timeline, &r, &res.steady), 0);
	assert_true(res.steady.present);
	/* the first window, seconds 0-5, holds before the change; the change breaks it */
	assert_int_equal(res.steady.iops.state, STEADY_ATTAINED);
	assert_near(res.steady.iops.from_s, 0, 0);
	assert_near(res.steady.iops.mean, 1000, 0);
	assert_true(res.steady.iops.holds_at_end);
	assert_near(res.steady.db_read_lat.mean, 1.0, 1e-12);
	/* a window longer than any stretch of the run: never */
	r.window = 25;
	assert_int_equal(steady_from_timeline(&res.timeline, &r, &res.steady), 0);
	assert_int_equal(res.steady.iops.state, STEADY_NOT_ATTAINED);
	assert_near(res.steady.iops.from_s, 5, 0);
	/* a window longer than the first phase: only after the change */
	r.window = 12;
	assert_int_equal(steady_from_timeline(&res.timeline, &r, &res.steady), 0);
	assert_int_equal(res.steady.iops.state, STEADY_ATTAINED);
	assert_near(res.steady.iops.from_s, 10, 0);
	assert_near(res.steady.db_read_lat.from_s, 10, 0);
	assert_near(res.steady.db_read_lat.mean, 2.5, 1e-12);

	/* written and read back: the same figures */
	res.warmup = (struct steady_stage){ .present = true, .attained = true, .seconds = 42,
					    .cap_s = 1500, .bytes_read = 7 };
	res.precondition = (struct precondition_result){ .present = true, .passes = 2,
							 .files = 1, .bytes_written = 1 << 20,
							 .seconds = 3 };
	j = result_to_json(&res);
	text = json_dumps(j, JSON_COMPACT);
	assert_int_equal(result_from_buffer(text, strlen(text), "mem", &back), 0);
	assert_true(back.steady.present);
	assert_int_equal(back.steady.window, 12);
	assert_int_equal(back.steady.iops.state, STEADY_ATTAINED);
	assert_near(back.steady.iops.from_s, 10, 0);
	assert_int_equal(back.steady.iops.n, 12);
	assert_near(back.steady.iops.means[11], 400, 0);
	assert_true(back.warmup.present && back.warmup.attained);
	assert_near(back.warmup.seconds, 42, 0);
	assert_true(back.precondition.present);
	assert_int_equal(back.precondition.passes, 2);
	assert_false(back.precondition.load.present);
	result_release(&back);
	free(text);
	json_decref(j);

	/* an unknown state is refused */
	j = result_to_json(&res);
	json_object_set_new(json_object_get(json_object_get(j, "steady_state"),
					    "transactional_iops"), "state", json_string("maybe"));
	text = json_dumps(j, JSON_COMPACT);
	assert_int_not_equal(result_from_buffer(text, strlen(text), "mem", &back), 0);
	result_release(&back);
	free(text);
	json_decref(j);
	result_release(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_hand_computed),
		cmocka_unit_test(test_track),
		cmocka_unit_test(test_timeline_and_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
