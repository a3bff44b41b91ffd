// SPDX-License-Identifier: MIT
/* test_fidelity.c: a load's shape against Jetstress's bands: the three ratios from a result's
 * classes, in or out of band and by how much, and the cause named only when the log stream
 * explains it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "result/fidelity.h"

static void classes(struct class_result c[CLS_NR], double rd, double wr, double lg, double lgb)
{
	memset(c, 0, sizeof(struct class_result) * CLS_NR);
	c[CLS_DB_READ].iops = rd;
	c[CLS_DB_WRITE].iops = wr;
	c[CLS_LOG_WRITE].iops = lg;
	c[CLS_LOG_WRITE].avg_bytes = lgb;
}

static void test_in_band(void **state)
{
	struct class_result c[CLS_NR];
	struct fidelity f = { 0 };

	(void)state;
	/* the demo's shape: 1650 reads, 1000 writes, 265 log writes of 7.5 KiB */
	classes(c, 1650, 1000, 265, 7.5 * 1024);
	fidelity_compute(&f, c);
	assert_true(f.present);
	assert_true(fabs(f.r[FID_DB_LOG].value - 10) < 1e-9);
	assert_true(fabs(f.r[FID_READ_WRITE].value - 1.65) < 1e-9);
	assert_true(fabs(f.r[FID_LOG_KIB].value - 7.5) < 1e-9);
	for (int k = 0; k < FID_NR; k++) {
		assert_true(f.r[k].in_band);
		assert_true(f.r[k].off_pct == 0);
	}
	fidelity_explain(&f);
	assert_null(f.why);
	/* the band's edges are inside it */
	classes(c, 1600, 800, 200, 8 * 1024);
	fidelity_compute(&f, c);
	assert_true(f.r[FID_DB_LOG].in_band && f.r[FID_READ_WRITE].in_band &&
		    f.r[FID_LOG_KIB].in_band);
	fidelity_release(&f);
}

/* Out of band: how far, signed, against the nearer bound; the cause only when the log stream
 * was busy or grouped commits. */
static void test_out_of_band(void **state)
{
	struct class_result c[CLS_NR];
	struct fidelity f = { 0 };

	(void)state;
	/* 12 threads on one database: 18 transfers per log write of 12 KiB */
	classes(c, 1125, 675, 100, 12 * 1024);
	fidelity_compute(&f, c);
	assert_false(f.r[FID_DB_LOG].in_band);
	assert_true(fabs(f.r[FID_DB_LOG].off_pct - 50) < 1e-9);   /* 18 against 12 */
	assert_true(fabs(f.r[FID_LOG_KIB].off_pct - 50) < 1e-9);  /* 12 against 8 */
	assert_true(f.r[FID_READ_WRITE].in_band);
	/* without what the run knows of its log stream (an import): named, no cause */
	fidelity_explain(&f);
	assert_non_null(strstr(f.why, "database:log transfers 18.0:1 is 50 % above Jetstress's "
				      "8-12:1 (cause not identified)"));
	/* with a busy log stream and grouped commits: the cause, once for both ratios */
	f.log_busy_pct = 88;
	f.commits_per_write = 2.4;
	fidelity_explain(&f);
	assert_non_null(strstr(f.why, "the log stream was busy 88 % of the time and each log "
				      "write carried 2.4 durable commits; ESE writes one log I/O"));
	assert_non_null(strstr(f.why, "log write size 12.0 KiB is 50 % above Jetstress's 6-8 KiB "
				      "(the same cause)"));
	/* below a band: signed negative, "below"; a grouped log does not explain it */
	classes(c, 1000, 1000, 400, 4 * 1024);
	fidelity_compute(&f, c);
	f.log_busy_pct = 95;
	fidelity_explain(&f);
	assert_true(fabs(f.r[FID_DB_LOG].off_pct + 37.5) < 1e-9); /* 5 against 8 */
	assert_true(fabs(f.r[FID_READ_WRITE].off_pct + 100.0 / 3) < 1e-9);
	assert_non_null(strstr(f.why, "database:log transfers 5.0:1 is 38 % below Jetstress's "
				      "8-12:1 (cause not identified)"));
	assert_non_null(strstr(f.why, "database reads:writes 1.00 is 33 % below"));
	fidelity_release(&f);
}

/* No database or no log I/O: no shape to judge. */
static void test_no_shape(void **state)
{
	struct class_result c[CLS_NR];
	struct fidelity f = { 0 };

	(void)state;
	classes(c, 5000, 0, 0, 0); /* randread */
	fidelity_compute(&f, c);
	assert_false(f.present);
	fidelity_explain(&f);
	assert_null(f.why);
	/* counts serve as well as rates (an older result) */
	classes(c, 0, 0, 0, 8192);
	c[CLS_DB_READ].ops = 33000;
	c[CLS_DB_WRITE].ops = 20000;
	c[CLS_LOG_WRITE].ops = 5300;
	fidelity_compute(&f, c);
	assert_true(f.present && fabs(f.r[FID_DB_LOG].value - 10) < 1e-9);
	fidelity_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_band),
		cmocka_unit_test(test_out_of_band),
		cmocka_unit_test(test_no_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
