// SPDX-License-Identifier: MIT
/* test_jetstress_log.c: the Jetstress workload's log records (seal, parse, every field and
 * every damage caught), a log file's scan (records in order, a fill, the end of the log),
 * ESE's redo rule on pages' histories and the spread of the replay's times per log file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/random.h"
#include "workloads/jetstress.h"

#define DBID 0x1234567890abcdefULL

/* A record of len bytes at lsn into buf, its body random. */
static void make(unsigned char *buf, uint32_t len, uint64_t lsn, uint64_t pgno, uint64_t before,
		 uint64_t after, struct rng *r)
{
	for (uint32_t i = JS_LREC_HDR; i < len; i++)
		buf[i] = (unsigned char)rng_next(r);
	js_lrec_seal(buf, &(struct js_lrec){ .type = JS_LR_UPDATE, .flags = JS_LRF_DURABLE,
					     .txn = JS_REPLACE, .session = 513, .len = len,
					     .lsn = lsn, .pgno = pgno, .before = before,
					     .after = after }, DBID);
}

static void test_record_round_trip(void **state)
{
	unsigned char buf[JS_LREC_MAX];
	struct js_lrec r;
	struct rng rng;

	(void)state;
	rng_seed(&rng, 7);
	make(buf, 700, 123456, 4242, 10, 11, &rng);
	assert_null(js_lrec_parse(buf, sizeof(buf), 123456, DBID, &r));
	assert_int_equal(r.len, 700);
	assert_int_equal(r.type, JS_LR_UPDATE);
	assert_int_equal(r.flags, JS_LRF_DURABLE);
	assert_int_equal(r.txn, JS_REPLACE);
	assert_int_equal(r.session, 513);
	assert_true(r.lsn == 123456 && r.pgno == 4242 && r.before == 10 && r.after == 11);
	/* little-endian on disk, whatever the host: the magic's bytes spell FLR1 */
	assert_memory_equal(buf + 4, "FLR1", 4);
	/* exactly as long as it says: one byte short of it is refused */
	assert_string_equal(js_lrec_parse(buf, 699, 123456, DBID, &r), "bad length");
	/* another database's log, another place in the stream */
	assert_string_equal(js_lrec_parse(buf, 700, 123456, DBID + 1, &r), "crc mismatch");
	assert_string_equal(js_lrec_parse(buf, 700, 123457, DBID, &r), "wrong lsn");
	/* zeros (the unwritten rest of a log file) are the end of the log */
	memset(buf, 0, sizeof(buf));
	assert_string_equal(js_lrec_parse(buf, sizeof(buf), 0, DBID, &r), "no record");
	assert_string_equal(js_lrec_parse(buf, JS_LREC_HDR - 1, 0, DBID, &r), "no record");
}

/* Every single bit flipped anywhere in a record is caught. */
static void test_record_bit_flips(void **state)
{
	unsigned char buf[300], copy[300];
	struct js_lrec r;
	struct rng rng;

	(void)state;
	rng_seed(&rng, 9);
	make(buf, sizeof(buf), 4096, 77, 5, 9, &rng);
	for (size_t bit = 0; bit < sizeof(buf) * 8; bit++) {
		memcpy(copy, buf, sizeof(buf));
		copy[bit / 8] ^= (unsigned char)(1 << bit % 8);
		assert_non_null(js_lrec_parse(copy, sizeof(copy), 4096, DBID, &r));
	}
	assert_null(js_lrec_parse(buf, sizeof(buf), 4096, DBID, &r));
	/* a record whose page times do not move forward is refused even with a good CRC */
	make(buf, sizeof(buf), 0, 77, 9, 9, &rng);
	assert_string_equal(js_lrec_parse(buf, sizeof(buf), 0, DBID, &r), "page times out of order");
}

struct seen {
	size_t n;
	uint64_t lsn[64], pgno[64];
	int stop_at; /* return 5 at this record (-1: never) */
};

static int collect(const struct js_lrec *r, void *ctx)
{
	struct seen *s = ctx;

	s->lsn[s->n] = r->lsn;
	s->pgno[s->n] = r->pgno;
	return (int)s->n++ == s->stop_at ? 5 : 0;
}

/*
 * A log file's data: records at their LSNs from the file's base, then (a) a fill to its end:
 * the file is whole; (b) zeros: the log ends inside it; (c) a damaged record: the scan stops
 * before it and says why; (d) fewer bytes left than a header: whole.
 */
static void test_log_scan(void **state)
{
	const size_t len = 8192;
	const uint64_t base = 3 * (uint64_t)JS_LOG_DATA;
	unsigned char *data = calloc(1, len);
	struct seen s = { .stop_at = -1 };
	uint32_t sizes[] = { 96, 2560, 700, 1500 };
	const char *why;
	uint64_t end, off = 0;
	struct rng rng;

	(void)state;
	rng_seed(&rng, 3);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		make(data + off, sizes[i], base + off, 100 + i, 1, 2, &rng);
		off += sizes[i];
	}
	/* (b) zeros after the last record: the end of the log, inside the file */
	assert_int_equal(js_log_scan(data, len, base, DBID, collect, &s, &end, &why), 0);
	assert_int_equal(s.n, 4);
	assert_true(end == base + off);
	assert_string_equal(why, "no record");
	for (size_t i = 0; i < 4; i++)
		assert_true(s.pgno[i] == 100 + i);
	assert_true(s.lsn[1] == base + 96 && s.lsn[3] == base + 96 + 2560 + 700);
	/* (a) a fill to the end: whole */
	js_lrec_seal(data + off, &(struct js_lrec){ .type = JS_LR_FILL, .len = (uint32_t)(len - off),
						    .lsn = base + off }, DBID);
	s.n = 0;
	assert_int_equal(js_log_scan(data, len, base, DBID, collect, &s, &end, &why), 1);
	assert_int_equal(s.n, 4);
	assert_true(end == base + len);
	/* fn's own stop is returned at once, the LSN past the record it stopped at */
	s.n = 0;
	s.stop_at = 1;
	assert_int_equal(js_log_scan(data, len, base, DBID, collect, &s, &end, &why), 5);
	assert_true(end == base + 96 + 2560);
	s.stop_at = -1;
	/* (c) the third record damaged: two records, then the reason */
	data[96 + 2560 + 100] ^= 1;
	s.n = 0;
	assert_int_equal(js_log_scan(data, len, base, DBID, collect, &s, &end, &why), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(why, "crc mismatch");
	assert_true(end == base + 96 + 2560);
	/* (d) records up to less than a header before the end: whole (the rest is zeros) */
	memset(data, 0, len);
	make(data, (uint32_t)(len - JS_LREC_HDR + 1), base, 1, 1, 2, &rng);
	s.n = 0;
	assert_int_equal(js_log_scan(data, len, base, DBID, collect, &s, &end, &why), 1);
	assert_int_equal(s.n, 1);
	/* a record of this file placed in another (the LSN says where it belongs) */
	assert_int_equal(js_log_scan(data, len, base + JS_LOG_DATA, DBID, collect, &s, &end, &why), 0);
	assert_string_equal(why, "wrong lsn");
	free(data);
}

/* ESE's redo rule on the page's time against the record's before and after. */
static void test_redo_rule(void **state)
{
	(void)state;
	assert_int_equal(js_redo_check(20, 10, 20), JS_REDO_SKIP);
	assert_int_equal(js_redo_check(25, 10, 20), JS_REDO_SKIP);
	assert_int_equal(js_redo_check(10, 10, 20), JS_REDO_APPLY);
	assert_int_equal(js_redo_check(9, 10, 20), JS_REDO_TOO_OLD);
	assert_int_equal(js_redo_check(0, 10, 20), JS_REDO_TOO_OLD);
	assert_int_equal(js_redo_check(15, 10, 20), JS_REDO_TOO_NEW);
	/* a change always moves a page past its own time and the database's clock */
	assert_true(js_next_dbtime(100, 5) == 101);
	assert_true(js_next_dbtime(5, 100) == 101);
	assert_true(js_next_dbtime(7, 7) == 8);
}

/*
 * The replay's logic on a page's history: the records of one page in log order applied to
 * what the database holds.  A page written after its second change takes the third only; a
 * replay run twice changes nothing the second time; a page a lost write left behind
 * contradicts the next record.
 */
static void test_redo_sequences(void **state)
{
	const uint64_t before[] = { 10, 11, 15, 16 }, after[] = { 11, 15, 16, 30 };
	const uint64_t on_disk[] = { 10, 15, 30, 11 };
	/* what happens to each record, per page time on disk */
	const enum js_redo want[][4] = {
		{ JS_REDO_APPLY, JS_REDO_APPLY, JS_REDO_APPLY, JS_REDO_APPLY }, /* never written */
		{ JS_REDO_SKIP, JS_REDO_SKIP, JS_REDO_APPLY, JS_REDO_APPLY },   /* 2 changes in */
		{ JS_REDO_SKIP, JS_REDO_SKIP, JS_REDO_SKIP, JS_REDO_SKIP },     /* all in */
		{ JS_REDO_SKIP, JS_REDO_APPLY, JS_REDO_APPLY, JS_REDO_APPLY },  /* 1 change in */
	};

	(void)state;
	for (size_t d = 0; d < ARRAY_SIZE(on_disk); d++) {
		uint64_t page = on_disk[d];

		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < 4; i++) {
				enum js_redo w = js_redo_check(page, before[i], after[i]);

				assert_int_equal(w, pass ? JS_REDO_SKIP : want[d][i]);
				if (w == JS_REDO_APPLY)
					page = after[i];
			}
		assert_true(page == 30);
	}
	/* a write that went to the storage and came back older (a lost flush): the page says
	 * 11 while the log has it at 15 before its next change */
	assert_int_equal(js_redo_check(11, 15, 16), JS_REDO_TOO_OLD);
}

/* The spread of the times per log file: mean, sample sd, min, interpolated median and p95, max. */
static void test_spread(void **state)
{
	const double v[] = { 0.5, 0.1, 0.4, 0.2, 0.3 };
	struct js_spread s;

	(void)state;
	js_spread(v, ARRAY_SIZE(v), &s);
	assert_true(fabs(s.mean - 0.3) < 1e-12);
	assert_true(fabs(s.sd - sqrt(0.025)) < 1e-12);
	assert_true(s.min == 0.1 && s.max == 0.5);
	assert_true(fabs(s.p50 - 0.3) < 1e-12);
	assert_true(fabs(s.p95 - 0.48) < 1e-12); /* 0.4 + 0.8 x (0.5 - 0.4) */
	js_spread(v, 1, &s);
	assert_true(s.mean == 0.5 && s.sd == 0 && s.p95 == 0.5);
	js_spread(v, 0, &s);
	assert_true(isnan(s.mean) && isnan(s.p95));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_round_trip),
		cmocka_unit_test(test_record_bit_flips),
		cmocka_unit_test(test_log_scan),
		cmocka_unit_test(test_redo_rule),
		cmocka_unit_test(test_redo_sequences),
		cmocka_unit_test(test_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
