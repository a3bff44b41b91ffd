// SPDX-License-Identifier: MIT
/* test_jetstress.c: transaction mix, log roll naming, cache and lazy-writer sizing, page
 * stamps and CRC32C verification (a flipped bit is caught), database header detection.  The
 * verdict: test_verdict.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/base.h"
#include "os/files.h"
#include "os/os.h"
#include "lib/random.h"
#include "result/result.h"
#include "workloads/dbfile.h"
#include "workloads/jetstress.h"
#include "workloads/workload.h"

static void test_mix_converges(void **state)
{
	const unsigned int n = 1000000;
	unsigned int count[JS_TXN_NR] = { 0 };
	unsigned int sum = 0;
	struct rng r;

	(void)state;
	for (int t = 0; t < JS_TXN_NR; t++)
		sum += js_txn_weights[t];
	assert_int_equal(sum, 100);
	assert_int_equal(js_txn_weights[JS_INSERT], 40);
	assert_int_equal(js_txn_weights[JS_DELETE], 20);
	assert_int_equal(js_txn_weights[JS_REPLACE], 5);
	assert_int_equal(js_txn_weights[JS_READ], 35);
	rng_seed(&r, 2026);
	for (unsigned int i = 0; i < n; i++)
		count[js_pick_txn(&r)]++;
	/* binomial sd at n = 1e6 is at most 0.05 percentage points: 0.3 is > 6 sd */
	for (int t = 0; t < JS_TXN_NR; t++) {
		double pct = 100.0 * count[t] / n;

		assert_true(fabs(pct - js_txn_weights[t]) < 0.3);
	}
	/* the same seed gives the same sequence */
	{
		struct rng a, b;

		rng_seed(&a, 5);
		rng_seed(&b, 5);
		for (int i = 0; i < 1000; i++)
			assert_int_equal(js_pick_txn(&a), js_pick_txn(&b));
	}
}

/* The default cache, the sessions per database, the writer's depth and the cache's pages. */
static void test_cache_sizing(void **state)
{
	(void)state;
	/* 1 % of the database between 32M and 256M, never above an eighth of it */
	assert_true(js_cache_default(4 * GiB) == 4 * GiB / 100);
	assert_true(js_cache_default(200 * GiB) == 256 * MiB);
	assert_true(js_cache_default(1 * GiB) == 32 * MiB);
	assert_true(js_cache_default(512 * MiB) == 32 * MiB);
	assert_true(js_cache_default(256 * MiB) == 32 * MiB);
	assert_true(js_cache_default(128 * MiB) == 16 * MiB);
	assert_true(js_cache_default(16 * MiB) == 2 * MiB);
	for (uint64_t sz = 16 * MiB; sz <= 1024 * GiB; sz = sz * 3 / 2) {
		uint64_t c = js_cache_default(sz);

		assert_true(c <= sz / 8 && c <= 256 * MiB);
		assert_true(c >= MIN(32 * MiB, sz / 8));
	}

	/* threads round-robin over databases: every session counted once */
	assert_int_equal(js_sessions_of(8, 1, 0), 8);
	assert_int_equal(js_sessions_of(8, 3, 0), 3);
	assert_int_equal(js_sessions_of(8, 3, 1), 3);
	assert_int_equal(js_sessions_of(8, 3, 2), 2);
	for (unsigned int t = 1; t <= 40; t++)
		for (unsigned int d = 1; d <= t; d++) {
			unsigned int sum = 0;

			for (unsigned int i = 0; i < d; i++)
				sum += js_sessions_of(t, d, i);
			assert_int_equal(sum, t);
		}

	/* 4 writes per session, 16 .. 96 (ESE's JET_paramCheckpointIOMax) */
	assert_int_equal(js_writer_depth(1), 16);
	assert_int_equal(js_writer_depth(4), 16);
	assert_int_equal(js_writer_depth(8), 32);
	assert_int_equal(js_writer_depth(12), 48);
	assert_int_equal(js_writer_depth(24), 96);
	assert_int_equal(js_writer_depth(256), 96);

	/* one writer thread with an asynchronous back end, one per write with psync */
	assert_int_equal(js_writer_threads("io_uring", 48), 1);
	assert_int_equal(js_writer_threads("win32", 48), 1);
	assert_int_equal(js_writer_threads("psync", 48), 48);
	assert_int_equal(js_writer_threads("psync", 0), 1);
	assert_int_equal(js_writer_threads(NULL, 16), 1);

	/* pages: the asked size, at most half the database, at least 4 per session plus the
	 * writes in flight */
	assert_int_equal(js_cache_slots(32 * MiB, 16384, 4, 16), 1024);
	assert_int_equal(js_cache_slots(5 * MiB, 16384, 4, 16), 160);
	assert_int_equal(js_cache_slots(5 * MiB, 16384, 12, 48), 160);
	assert_int_equal(js_cache_slots(2 * MiB, 16384, 12, 48), 96);
	assert_int_equal(js_cache_slots(1 * GiB, 16384, 4, 16), 8192);
	assert_int_equal(js_cache_slots(0, 512, 1, 16), 20);
	assert_int_equal(js_cache_slots(64 * MiB, 512, 256, 96), 256 * 4 + 96);
}

static void test_log_names(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(js_log_name(b, sizeof(b), 1), "E0000000001.log");
	assert_string_equal(js_log_name(b, sizeof(b), 0x1A), "E000000001A.log");
	assert_string_equal(js_log_name(b, sizeof(b), 0xFFFFFFFF), "E00FFFFFFFF.log");
	assert_int_equal(js_log_gen("E0000000001.log"), 1);
	assert_int_equal(js_log_gen("E000000001A.log"), 0x1A);
	for (uint64_t g = 1; g < 5000; g += 37)
		assert_int_equal(js_log_gen(js_log_name(b, sizeof(b), g)), g);
	/* the current and spare files, and anything else, are not rolled generations */
	assert_int_equal(js_log_gen(JS_LOG_CURRENT), 0);
	assert_int_equal(js_log_gen(JS_LOG_SPARE), 0);
	assert_int_equal(js_log_gen("E000000001a.log"), 0);
	assert_int_equal(js_log_gen("E01000000001.log"), 0);
	assert_int_equal(js_log_gen("E0000000001.chk"), 0);
	assert_int_equal(js_log_gen("notes.txt"), 0);
	/* ESE geometry */
	assert_int_equal(JS_LOG_FILE_SIZE, 1024 * 1024);
	assert_int_equal(JS_LOG_MAX_WRITE, 64 * 1024);
	assert_int_equal(DB_PAGE_SIZE, 32 * 1024);
}

static void test_page_stamp_and_crc(void **state)
{
	uint8_t *page = xmalloc_aligned(DB_PAGE_SIZE), *copy = xmalloc_aligned(DB_PAGE_SIZE);
	struct rng r;

	(void)state;
	rng_seed(&r, 9);
	db_fill_payload(page, DB_PAGE_SIZE, &r, 0);
	db_stamp_page(page, 0x1234, 77, 3);
	assert_null(db_verify_page(page, 0x1234, 77));
	assert_null(db_verify_page(page, 0, 77)); /* dbid 0: not checked */
	assert_string_equal(db_verify_page(page, 0x1234, 78), "wrong page number");
	assert_string_equal(db_verify_page(page, 0x9999, 77), "page from another database");
	/* every single flipped bit, anywhere in the page, is caught */
	memcpy(copy, page, DB_PAGE_SIZE);
	for (size_t bit = 0; bit < DB_PAGE_SIZE * 8; bit += 97) {
		copy[bit / 8] ^= (uint8_t)(1 << (bit % 8));
		assert_non_null(db_verify_page(copy, 0x1234, 77));
		copy[bit / 8] ^= (uint8_t)(1 << (bit % 8));
	}
	copy[DB_PAGE_SIZE - 1] ^= 0x80;
	assert_string_equal(db_verify_page(copy, 0x1234, 77), "crc mismatch");
	/* no two 4 KiB blocks repeat across pages or generations (non-deduplicable) */
	memcpy(copy, page, DB_PAGE_SIZE);
	db_stamp_page(copy, 0x1234, 78, 3);
	for (int b = 0; b < DB_PAGE_SIZE / 4096; b++)
		assert_memory_not_equal(page + b * 4096, copy + b * 4096, 4096);
	memcpy(copy, page, DB_PAGE_SIZE);
	db_stamp_page(copy, 0x1234, 77, 4);
	for (int b = 0; b < DB_PAGE_SIZE / 4096; b++)
		assert_memory_not_equal(page + b * 4096, copy + b * 4096, 4096);
	for (int b = 1; b < DB_PAGE_SIZE / 4096; b++)
		assert_memory_not_equal(page, page + b * 4096, 4096);
	free(page);
	free(copy);
}

static void test_compressibility(void **state)
{
	uint8_t *buf = xmalloc_aligned(8192);
	struct rng r;
	size_t zeros = 0;

	(void)state;
	rng_seed(&r, 3);
	db_fill_payload(buf, 8192, &r, 50);
	for (size_t i = 0; i < 8192; i++)
		zeros += buf[i] == 0;
	/* 50 % zeros plus ~1/256 of the random half */
	assert_true(zeros >= 4096 && zeros < 4096 + 64);
	db_fill_payload(buf, 8192, &r, 0);
	zeros = 0;
	for (size_t i = 0; i < 8192; i++)
		zeros += buf[i] == 0;
	assert_true(zeros < 100);
	free(buf);
}

/* Flip bit 0 of the byte at off in path. */
static void flip_bit(const char *path, off_t off)
{
	int fd = open(path, O_RDWR);
	uint8_t b;

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &b, 1, off), 1);
	b ^= 1;
	assert_int_equal(pwrite(fd, &b, 1, off), 1);
	close(fd);
}

static void test_db_create_and_inspect(void **state)
{
	char dir[] = "/tmp/fslab-db.XXXXXX";
	struct db_create_stats st;
	struct db_info info, info2;
	struct db_place pl = { 0 }, po = { 0 }, pd = { 0 }, pk = { 0 }, pc = { 0 };
	struct os_dirh *dh;
	char *path, *other, *sub, *link, *copy;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(os_dirh_open(dir, &dh), 0);
	path = path_join(dir, "fslab-db1.edb");
	other = path_join(dir, "other.bin");
	sub = path_join(dir, "fslab-db3.edb");
	link = path_join(dir, "fslab-db2.edb");
	copy = path_join(dir, "fslab-db4.edb");
	pl = (struct db_place){ .path = path, .d = dh, .name = "fslab-db1.edb" };
	po = (struct db_place){ .path = other, .d = dh, .name = "other.bin" };
	pd = (struct db_place){ .path = sub, .d = dh, .name = "fslab-db3.edb" };
	pk = (struct db_place){ .path = link, .d = dh, .name = "fslab-db2.edb" };
	pc = (struct db_place){ .path = copy, .d = dh, .name = "fslab-db4.edb" };
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(db_inspect(&pl, 64, 0, &info), DB_MISSING);
	/* buffered (tmpfs-like dirs may refuse O_DIRECT) and psync: no kernel features needed */
	assert_int_equal(db_create(&pl, 64, 42, 0, false, "psync", NULL, &info, &st), 0);
	assert_int_equal(st.bytes, 64 * DB_PAGE_SIZE);
	assert_int_equal(db_inspect(&pl, 64, 0, &info2), DB_VALID);
	assert_int_equal(info2.dbid, info.dbid);
	assert_int_equal(info2.npages, 64);
	/* another geometry or compressibility: ours, to recreate */
	assert_int_equal(db_inspect(&pl, 128, 0, &info2), DB_OTHER_FSLAB);
	assert_int_equal(db_inspect(&pl, 64, 30, &info2), DB_OTHER_FSLAB);
	/* every page verifies; a corrupted one does not */
	{
		uint8_t *page = xmalloc_aligned(DB_PAGE_SIZE);

		fd = open(path, O_RDWR);
		assert_true(fd >= 0);
		for (uint64_t p = 1; p < 64; p++) {
			assert_int_equal(pread(fd, page, DB_PAGE_SIZE, p * DB_PAGE_SIZE), DB_PAGE_SIZE);
			assert_null(db_verify_page(page, info.dbid, p));
		}
		{
			uint8_t b;

			assert_int_equal(pread(fd, &b, 1, 10 * DB_PAGE_SIZE + 5000), 1);
			b ^= 0x10; /* one flipped bit on disk */
			assert_int_equal(pwrite(fd, &b, 1, 10 * DB_PAGE_SIZE + 5000), 1);
		}
		assert_int_equal(pread(fd, page, DB_PAGE_SIZE, 10 * DB_PAGE_SIZE), DB_PAGE_SIZE);
		assert_non_null(db_verify_page(page, info.dbid, 10));
		close(fd);
		free(page);
	}
	/* a file that is not an fslab database */
	fd = open(other, O_CREAT | O_WRONLY, 0644);
	assert_int_equal(write(fd, "hello world\n", 12), 12);
	close(fd);
	assert_int_equal(db_inspect(&po, 64, 0, &info2), DB_FOREIGN);
	assert_int_equal(db_inspect(&pd, 64, 0, &info2), DB_FOREIGN);
	/* a link to fslab's database is never followed; a copy of it is not the database
	 * fslab made there (its header names another file) */
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(db_inspect(&pk, 64, 0, &info2), DB_FOREIGN);
	{
		char *cmd = xasprintf("cp '%s' '%s'", path, copy);

		assert_int_equal(system(cmd), 0);
		free(cmd);
	}
	assert_int_equal(db_inspect(&pc, 64, 0, &info2), DB_FOREIGN);
	assert_int_equal(pc.id, 0);
	assert_int_equal(db_inspect(&pl, 64, 0, &info2), DB_VALID);
	/* db_open() acts on the file db_inspect() found only */
	{
		struct os_file *f;
		struct db_place moved = pl;

		assert_int_equal(db_open(&pl, OS_RDONLY, &f), 0);
		os_close(f);
		moved.name = "fslab-db4.edb"; /* another file under the name now */
		assert_int_equal(db_open(&moved, OS_RDONLY, &f), -ESTALE);
	}
	/* a damaged header is corruption, never "not an fslab database", never reused or
	 * silently overwritten: one bit in the payload, in the magic, in the signature */
	{
		static const off_t where[] = { 100, 4, sizeof(struct page_hdr) + 2 };

		for (size_t i = 0; i < ARRAY_SIZE(where); i++) {
			flip_bit(path, where[i]);
			assert_int_equal(db_inspect(&pl, 64, 0, &info2), DB_CORRUPT);
			flip_bit(path, where[i]);
			assert_int_equal(db_inspect(&pl, 64, 0, &info2), DB_VALID);
		}
	}
	/* a page-sized file of someone else's bytes stays foreign */
	{
		uint8_t *junk = xmalloc_aligned(2 * DB_PAGE_SIZE);

		memset(junk, 0x5a, 2 * DB_PAGE_SIZE);
		fd = open(other, O_WRONLY | O_TRUNC);
		assert_int_equal(write(fd, junk, 2 * DB_PAGE_SIZE), 2 * DB_PAGE_SIZE);
		close(fd);
		assert_int_equal(db_inspect(&po, 64, 0, &info2), DB_FOREIGN);
		free(junk);
	}
	unlink(path);
	unlink(other);
	unlink(link);
	unlink(copy);
	rmdir(sub);
	os_dirh_close(dh);
	assert_int_equal(rmdir(dir), 0);
	free(path);
	free(other);
	free(sub);
	free(link);
	free(copy);
}

/*
 * An initialisation killed part-way is recognised as such (DB_INTERRUPTED, recreated) from
 * the moment its header exists: the "incomplete" header written first, some pages written;
 * and, from versions that wrote the header last, a zeroed header page before fslab pages.
 * A file without anything fslab wrote in it (empty, zeros) is not fslab's (DB_FOREIGN): a
 * user's file of that name is never taken for an interrupted database.  A real kill -9 is in
 * t_run_faults.
 */
static void test_db_interrupted(void **state)
{
	char dir[] = "/tmp/fslab-dbi.XXXXXX";
	struct db_create_stats st;
	struct db_info info;
	struct db_place pl = { 0 };
	struct os_dirh *dh;
	uint8_t *page = xmalloc_aligned(DB_PAGE_SIZE);
	char *path;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(os_dirh_open(dir, &dh), 0);
	path = path_join(dir, "fslab-db1.edb");
	pl = (struct db_place){ .path = path, .d = dh, .name = "fslab-db1.edb" };
	/* empty, or zeros: nothing of fslab's */
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	close(fd);
	assert_int_equal(db_inspect(&pl, 64, 0, &info), DB_FOREIGN);
	assert_int_equal(truncate(path, 64 * DB_PAGE_SIZE), 0);
	assert_int_equal(db_inspect(&pl, 64, 0, &info), DB_FOREIGN);
	/* never created over a file that is not fslab's */
	assert_int_equal(db_create(&pl, 64, 7, 0, false, "psync", NULL, &info, &st), -EEXIST);
	assert_int_equal(unlink(path), 0);
	/* a whole database whose header says incomplete: what db_create writes first */
	assert_int_equal(db_inspect(&pl, 64, 0, &info), DB_MISSING);
	assert_int_equal(db_create(&pl, 64, 7, 0, false, "psync", NULL, &info, &st), 0);
	fd = open(path, O_RDWR);
	assert_int_equal(pread(fd, page, DB_PAGE_SIZE, 0), DB_PAGE_SIZE);
	((struct db_info *)(page + sizeof(struct page_hdr)))->complete = 0;
	db_stamp_page(page, 0, 0, 1);
	assert_int_equal(pwrite(fd, page, DB_PAGE_SIZE, 0), DB_PAGE_SIZE);
	assert_int_equal(db_inspect(&pl, 64, 0, &info), DB_INTERRUPTED);
	/* older versions: the header page still zero, data pages written */
	memset(page, 0, DB_PAGE_SIZE);
	assert_int_equal(pwrite(fd, page, DB_PAGE_SIZE, 0), DB_PAGE_SIZE);
	close(fd);
	assert_int_equal(db_inspect(&pl, 64, 0, &info), DB_INTERRUPTED);
	/* db_create over it gives a valid database again (the old file removed first) */
	assert_int_equal(db_create(&pl, 64, 7, 0, false, "psync", NULL, &info, &st), 0);
	assert_int_equal(db_inspect(&pl, 64, 0, &info), DB_VALID);
	unlink(path);
	os_dirh_close(dh);
	rmdir(dir);
	free(path);
	free(page);
}

/*
 * A check that fails on the first of two databases releases only what it set up: before, the
 * second database's fd (0 from calloc) was closed and its never-initialised mutexes destroyed.
 */
static void test_check_failure_cleanup(void **state)
{
	char dir[] = "/tmp/fslab-jsc.XXXXXX";
	struct volume vol = { 0 };
	struct run_config o = { 0 };
	struct run_ctx rc = { 0 };
	struct fslab_result res;
	atomic_int stop = 0;
	char *dirs[1], *foreign;
	int fd, nul;

	(void)state;
	assert_non_null(mkdtemp(dir));
	foreign = path_join(dir, "fslab-db1.edb");
	fd = open(foreign, O_CREAT | O_WRONLY, 0644);
	assert_int_equal(write(fd, "not a database\n", 15), 15);
	close(fd);
	/* fd 0 must be open and stay open */
	nul = open("/dev/null", O_RDONLY);
	assert_true(nul >= 0);
	if (fcntl(0, F_GETFD) < 0)
		assert_int_equal(dup2(nul, 0), 0);
	dirs[0] = dir;
	vol.dir = dir;
	assert_int_equal(os_dirh_open(dir, &vol.dh), 0);
	vol.fsname = (char *)"ext4";
	o.db_dirs = o.log_dirs = dirs;
	o.ndb_dirs = o.nlog_dirs = 1;
	o.databases = 2;
	o.threads = 2;
	o.db_size = 64ULL << 20;
	o.engine = (char *)"psync";
	result_init(&res);
	rc.o = &o;
	rc.res = &res;
	rc.db_vols = rc.log_vols = &vol;
	rc.stop = &stop;
	assert_int_equal(workload_jetstress.check(&rc), -FSLAB_EINPUT);
	workload_jetstress.cleanup(&rc);
	assert_null(rc.priv);
	assert_true(fcntl(0, F_GETFD) >= 0);
	result_release(&res);
	close(nul);
	os_dirh_close(vol.dh);
	unlink(foreign);
	rmdir(dir);
	free(foreign);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mix_converges),
		cmocka_unit_test(test_log_names),
		cmocka_unit_test(test_cache_sizing),
		cmocka_unit_test(test_page_stamp_and_crc),
		cmocka_unit_test(test_compressibility),
		cmocka_unit_test(test_db_create_and_inspect),
		cmocka_unit_test(test_db_interrupted),
		cmocka_unit_test(test_check_failure_cleanup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
