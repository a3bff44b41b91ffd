// SPDX-License-Identifier: MIT
/*
 * test_os.c: the platform layer (src/os/) and the I/O back ends through it, the same suite on
 * Linux and, cross-built, on Windows (make windows-unit runs it under Wine): files opened
 * unbuffered and write-through, every back end's data verified page by page, error paths,
 * in-flight I/O drained when a context is released, locks, absolute sleeps, renames, UTF-16,
 * dates and canonical paths.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <direct.h>
#include <windows.h>
#else
#include <unistd.h>
#endif

#include "lib/base.h"
#include "os/files.h"
#include "io/ioengine.h"
#include "os/os.h"
#include "os/osP.h"
#include "lib/random.h"
#include "os/scratch.h"
#include "workloads/dbfile.h"

#define NPAGES 64
#define DEPTH 8

static int rmdir_for_test(const char *dir)
{
#ifdef _WIN32
	return _rmdir(dir) ? -errno : 0;
#else
	return rmdir(dir) ? -errno : 0;
#endif
}

/* A directory for the test files: $FSLAB_TEST_DIR, else "." (a real filesystem: the tmpfs
 * of /tmp may refuse O_DIRECT). */
static const char *test_dir(void)
{
	const char *d = getenv("FSLAB_TEST_DIR");

	return d && *d ? d : ".";
}

static char *test_path(const char *what)
{
	static int seq;

	return xasprintf("%s/fslab-test-os.%lu.%d.%s", test_dir(), os_pid(), seq++, what);
}

/* Open path unbuffered and write-through as the database is; buffered where the filesystem
 * has no O_DIRECT (*direct says which). */
static struct os_file *open_db(const char *path, bool *direct)
{
	struct os_file *f;
	int ret = os_open(path, OS_RDWR | OS_CREATE | OS_TRUNC | OS_DIRECT | OS_WRITE_THROUGH, &f);

	*direct = !ret;
	if (ret == -EINVAL)
		ret = os_open(path, OS_RDWR | OS_CREATE | OS_TRUNC | OS_WRITE_THROUGH, &f);
	assert_int_equal(ret, 0);
	return f;
}

static void test_direct_roundtrip(void **state)
{
	char *path = test_path("rt");
	void *a = os_alloc_aligned(4096, 2 * DB_PAGE_SIZE), *b = os_alloc_aligned(4096, 2 * DB_PAGE_SIZE);
	struct os_file *f;
	uint64_t size = 0;
	bool direct;

	(void)state;
	f = open_db(path, &direct);
	assert_true(os_file_sector(f) >= 512);
	assert_int_equal(os_file_sector(f) & (os_file_sector(f) - 1), 0);
	db_stamp_page(a, 7, 0, 1);
	db_stamp_page((char *)a + DB_PAGE_SIZE, 7, 1, 1);
	assert_int_equal(os_pwrite(f, a, 2 * DB_PAGE_SIZE, 0), 2 * DB_PAGE_SIZE);
	assert_int_equal(os_file_sync(f), 0);
	assert_int_equal(os_file_datasync(f), 0);
	memset(b, 0, 2 * DB_PAGE_SIZE);
	assert_int_equal(os_pread(f, b, 2 * DB_PAGE_SIZE, 0), 2 * DB_PAGE_SIZE);
	assert_null(db_verify_page(b, 7, 0));
	assert_null(db_verify_page((char *)b + DB_PAGE_SIZE, 7, 1));
	assert_string_equal(db_verify_page(b, 7, 1), "wrong page number");
	/* at the end: 0 bytes */
	assert_int_equal(os_pread(f, b, DB_PAGE_SIZE, 2 * DB_PAGE_SIZE), 0);
	assert_int_equal(os_file_size(f, &size), 0);
	assert_int_equal(size, 2 * DB_PAGE_SIZE);
	assert_int_equal(os_close(f), 0);
	assert_int_equal(os_unlink(path), 0);
	assert_int_equal(os_stat(path, NULL, NULL), -ENOENT);
	os_free_aligned(a);
	os_free_aligned(b);
	free(path);
}

/* Write NPAGES stamped pages in a shuffled order, DEPTH in flight; read them back the same
 * way and verify each.  Returns the number of pages that did not verify. */
static unsigned int write_read_verify(const char *engine, struct os_file *f, uint64_t dbid,
				      bool corrupt_page5)
{
	struct io_u ios[DEPTH], *fr[DEPTH], *done[DEPTH];
	char *bufs = os_alloc_aligned(4096, (size_t)DEPTH * DB_PAGE_SIZE);
	unsigned int order[NPAGES], nfree = DEPTH, bad = 0;
	struct io_ctx ctx;
	struct rng r;

	assert_non_null(bufs);
	rng_seed(&r, dbid);
	for (unsigned int i = 0; i < NPAGES; i++)
		order[i] = i;
	for (unsigned int i = NPAGES - 1; i > 0; i--) {
		unsigned int j = (unsigned int)rng_below(&r, i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	assert_int_equal(io_ctx_init(&ctx, engine, DEPTH), 0);
	for (int pass = 0; pass < 2; pass++) {
		unsigned int next = 0;

		for (unsigned int i = 0; i < DEPTH; i++) {
			ios[i] = (struct io_u){ .file = f, .op = pass ? IO_READ : IO_WRITE,
						.buf = bufs + (size_t)i * DB_PAGE_SIZE,
						.len = DB_PAGE_SIZE };
			fr[i] = &ios[i];
		}
		while (next < NPAGES || nfree < DEPTH) {
			int k;

			while (nfree && next < NPAGES) {
				struct io_u *io = fr[--nfree];
				uint64_t pg = order[next++];

				io->off = pg * DB_PAGE_SIZE;
				if (!pass)
					db_stamp_page(io->buf, dbid, pg, 1);
				else
					memset(io->buf, 0, DB_PAGE_SIZE);
				assert_int_equal(io_submit(&ctx, &io, 1), 0);
			}
			k = io_reap(&ctx, done, 1, DEPTH);
			assert_true(k > 0);
			for (int i = 0; i < k; i++) {
				assert_int_equal(done[i]->res, DB_PAGE_SIZE);
				if (pass && db_verify_page(done[i]->buf, dbid,
							   done[i]->off / DB_PAGE_SIZE))
					bad++;
				fr[nfree++] = done[i];
			}
		}
		assert_int_equal(ctx.inflight, 0);
		if (!pass) {
			assert_int_equal(os_file_sync(f), 0);
			if (corrupt_page5) {
				/* one byte of page 5's payload, behind the engine's back */
				char *pg = os_alloc_aligned(4096, DB_PAGE_SIZE);

				assert_int_equal(os_pread(f, pg, DB_PAGE_SIZE, 5 * DB_PAGE_SIZE),
						 DB_PAGE_SIZE);
				pg[DB_PAGE_SIZE / 2] ^= 0x40;
				assert_int_equal(os_pwrite(f, pg, DB_PAGE_SIZE, 5 * DB_PAGE_SIZE),
						 DB_PAGE_SIZE);
				os_free_aligned(pg);
			}
		}
	}
	io_ctx_release(&ctx);
	os_free_aligned(bufs);
	return bad;
}

/* Every back end of this build (win32 and psync on Windows) writes and reads back stamped
 * pages intact, and a page damaged behind its back is the one that fails. */
static void test_engines_verify_data(void **state)
{
	(void)state;
	for (size_t e = 0; ioengine_at(e); e++) {
		const char *name = ioengine_at(e)->name;
		char *path = test_path(name);
		struct io_ctx probe;
		struct os_file *f;
		bool direct;

		if (io_ctx_init(&probe, name, 1)) {
			assert_string_equal(name, "io_uring"); /* io_uring may be off here */
			free(path);
			continue;
		}
		io_ctx_release(&probe);
		f = open_db(path, &direct);
		assert_int_equal(write_read_verify(name, f, 0x1234 + e, false), 0);
		assert_int_equal(write_read_verify(name, f, 0x5678 + e, true), 1);
		assert_int_equal(os_close(f), 0);
		assert_int_equal(os_unlink(path), 0);
		free(path);
	}
}

/* Errors arrive as the I/O's result, one per I/O, never as a crash or a hang: a write to a
 * file opened read-only; an unaligned I/O on an unbuffered file (refused by the win32 back
 * end itself, so the rule holds under Wine too, which would accept it); a read past the end
 * is 0 bytes. */
static void test_engine_errors(void **state)
{
	(void)state;
	for (size_t e = 0; ioengine_at(e); e++) {
		const char *name = ioengine_at(e)->name;
		char *path = test_path("err");
		char *buf = os_alloc_aligned(4096, 2 * DB_PAGE_SIZE);
		struct os_file *f, *ro;
		struct io_ctx ctx;
		struct io_u io;
		bool direct;

		if (io_ctx_init(&ctx, name, 4)) {
			free(path);
			os_free_aligned(buf);
			continue;
		}
		f = open_db(path, &direct);
		db_stamp_page(buf, 1, 0, 1);
		assert_int_equal(os_pwrite(f, buf, DB_PAGE_SIZE, 0), DB_PAGE_SIZE);
		assert_int_equal(os_open(path, OS_RDONLY, &ro), 0);
		io = (struct io_u){ .file = ro, .op = IO_WRITE, .buf = buf, .len = DB_PAGE_SIZE };
		assert_true(io_sync(&ctx, &io) < 0);
		assert_int_equal(ctx.inflight, 0);
		io = (struct io_u){ .file = f, .op = IO_READ, .buf = buf, .len = DB_PAGE_SIZE,
				    .off = 4 * DB_PAGE_SIZE };
		assert_int_equal(io_sync(&ctx, &io), 0);
		if (direct && !strcmp(name, "win32")) {
			io = (struct io_u){ .file = f, .op = IO_READ, .buf = buf + 1, .len = 4096 };
			assert_int_equal(io_sync(&ctx, &io), -EINVAL);
			io = (struct io_u){ .file = f, .op = IO_WRITE, .buf = buf, .len = 4096,
					    .off = 100 };
			assert_int_equal(io_sync(&ctx, &io), -EINVAL);
			io = (struct io_u){ .file = f, .op = IO_READ, .buf = buf, .len = 1000 };
			assert_int_equal(io_sync(&ctx, &io), -EINVAL);
		}
		/* the context still works after its errors */
		io = (struct io_u){ .file = f, .op = IO_READ, .buf = buf, .len = DB_PAGE_SIZE };
		assert_int_equal(io_sync(&ctx, &io), DB_PAGE_SIZE);
		assert_null(db_verify_page(buf, 1, 0));
		io_ctx_release(&ctx);
		assert_int_equal(os_close(ro), 0);
		assert_int_equal(os_close(f), 0);
		assert_int_equal(os_unlink(path), 0);
		os_free_aligned(buf);
		free(path);
	}
}

/*
 * A run that stops releases its contexts with I/Os still in flight.  The back end must drain
 * them before it returns (win32: cancel and wait for every completion routine, which writes
 * into the context's slots): afterwards nothing completes into the buffers or the freed slots.
 */
static void test_release_drains(void **state)
{
	(void)state;
	for (size_t e = 0; ioengine_at(e); e++) {
		const char *name = ioengine_at(e)->name;
		char *path = test_path("drain");
		char *bufs = os_alloc_aligned(4096, (size_t)DEPTH * DB_PAGE_SIZE);
		struct io_u ios[DEPTH], *p[DEPTH];
		struct os_file *f;
		struct io_ctx ctx;
		bool direct;

		if (!strcmp(name, "io_uring") || io_ctx_init(&ctx, name, DEPTH)) {
			/* io_uring: io_uring_queue_exit() hands in-flight requests to the kernel,
			 * which owns their completion; fslab's callers reap before releasing */
			free(path);
			os_free_aligned(bufs);
			continue;
		}
		f = open_db(path, &direct);
		for (unsigned int i = 0; i < DEPTH; i++)
			db_stamp_page(bufs + (size_t)i * DB_PAGE_SIZE, 3, i, 1);
		assert_int_equal(os_pwrite(f, bufs, (size_t)DEPTH * DB_PAGE_SIZE, 0),
				 DEPTH * DB_PAGE_SIZE);
		for (unsigned int i = 0; i < DEPTH; i++) {
			ios[i] = (struct io_u){ .file = f, .op = IO_READ, .len = DB_PAGE_SIZE,
						.buf = bufs + (size_t)i * DB_PAGE_SIZE,
						.off = (uint64_t)i * DB_PAGE_SIZE };
			p[i] = &ios[i];
		}
		assert_int_equal(io_submit(&ctx, p, DEPTH), 0);
		assert_int_equal(ctx.inflight, DEPTH);
		io_ctx_release(&ctx);
		memset(bufs, 0x5a, (size_t)DEPTH * DB_PAGE_SIZE);
#ifdef _WIN32
		SleepEx(100, TRUE); /* alertable: a completion routine left over would run now */
#else
		usleep(100 * 1000);
#endif
		for (size_t i = 0; i < (size_t)DEPTH * DB_PAGE_SIZE; i++)
			if ((unsigned char)bufs[i] != 0x5a)
				fail_msg("%s: byte %zu written after the context was released", name, i);
		assert_int_equal(os_close(f), 0);
		assert_int_equal(os_unlink(path), 0);
		os_free_aligned(bufs);
		free(path);
	}
}

static void test_lock_path(void **state)
{
	char *dir = test_path("lockdir");
	struct os_id a, b;
	long holder = -1;
	int l1, l2;

	(void)state;
	assert_int_equal(os_mkdir(dir, 0755), 0);
	assert_int_equal(os_path_id(dir, &a), 0);
	assert_int_equal(os_path_id(dir, &b), 0);
	assert_true(a.dev == b.dev && a.ino == b.ino);
	assert_int_equal(os_path_id(".", &b), 0);
	assert_false(a.dev == b.dev && a.ino == b.ino);
	l1 = os_lock_path(dir, &holder);
	assert_true(l1 >= 0);
	assert_int_equal(holder, 0);
	/* a second holder is refused while the first holds it (also from this process: another
	 * descriptor, another mutex handle) */
	l2 = os_lock_path(dir, &holder);
	assert_int_equal(l2, -EWOULDBLOCK);
	os_unlock(l1);
	l2 = os_lock_path(dir, &holder);
	assert_true(l2 >= 0);
	os_unlock(l2);
	assert_true(os_lock_path("./fslab-no-such-dir", &holder) < 0);
	assert_int_equal(rmdir_for_test(dir), 0);
	free(dir);
}

static void test_sleep_until(void **state)
{
	uint64_t t0 = now_ns(), due = t0 + 30 * NSEC_PER_MSEC;

	(void)state;
	assert_int_equal(sleep_until_ns(due), 0);
	assert_true(now_ns() >= due);
	assert_true(now_ns() < due + 2 * NSEC_PER_SEC);
	/* in the past: at once */
	assert_int_equal(sleep_until_ns(t0), 0);
}

static void test_rename_replace(void **state)
{
	char *a = test_path("a"), *b = test_path("b"), *text = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(write_file_atomic(a, "new", 3), 0);
	assert_int_equal(write_file_atomic(b, "old contents", 12), 0);
	assert_int_equal(os_rename_replace(a, b), 0);
	assert_int_equal(os_stat(a, NULL, NULL), -ENOENT);
	assert_int_equal(read_file(b, &text, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(text, "new", 3);
	free(text);
	assert_int_equal(os_unlink(b), 0);
	free(a);
	free(b);
}

static void test_utf16(void **state)
{
	/* "Zürich €1" in UTF-16LE */
	static const unsigned char in[] = { 'Z', 0, 0xfc, 0, 'r', 0, 'i', 0, 'c', 0, 'h', 0, ' ', 0,
					    0xac, 0x20, '1', 0 };
	static const unsigned char lone[] = { 'a', 0, 0x00, 0xd8, 'b', 0 }; /* lone surrogate */
	size_t len = 0;
	char *out = os_utf16le_to_utf8(in, sizeof(in), &len);

	(void)state;
	assert_non_null(out);
	assert_string_equal(out, "Z\xc3\xbcrich \xe2\x82\xac" "1");
	assert_int_equal(len, strlen(out));
	free(out);
	assert_null(os_utf16le_to_utf8(lone, sizeof(lone), &len));
	assert_null(os_utf16le_to_utf8(in, 3, &len)); /* half a character */
}

static void test_dates(void **state)
{
	(void)state;
	assert_int_equal(os_strptime_utc("12/3/2026 10:04:12 AM", "%m/%d/%Y %I:%M:%S %p"),
			 1796292252);
	assert_int_equal(os_strptime_utc("12/3/2026 10:04:12 PM", "%m/%d/%Y %I:%M:%S %p"),
			 1796292252 + 12 * 3600);
	assert_int_equal(os_strptime_utc("12/3/2026 12:04:12 AM", "%m/%d/%Y %I:%M:%S %p"),
			 1796292252 - 10 * 3600);
	assert_int_equal(os_strptime_utc("12/3/2026 22:04:12", "%m/%d/%Y %H:%M:%S"),
			 1796292252 + 12 * 3600);
	assert_int_equal(os_strptime_utc("Thursday", "%m/%d/%Y %H:%M:%S"), -1);
	assert_int_equal(os_strptime_utc("13/3/2026 10:04:12", "%m/%d/%Y %H:%M:%S"), -1);
}

static void test_paths(void **state)
{
	char *dir = test_path("real"), *sub, *r1, *r2;

	(void)state;
	assert_int_equal(os_mkdir(dir, 0755), 0);
	sub = xasprintf("%s/../%s", dir, strrchr(dir, '/') + 1);
	r1 = os_realpath(dir);
	r2 = os_realpath(sub);
	assert_non_null(r1);
	assert_non_null(r2);
	assert_string_equal(r1, r2);
	assert_null(strchr(r1, '\\'));
	assert_true(os_fnmatch("fslab-*.edb", "fslab-db1.edb"));
	assert_false(os_fnmatch("fslab-*.edb", "result.json"));
	assert_int_equal(os_dir_can_create(dir), 0);
	assert_true(os_is_dir(dir));
	assert_int_equal(rmdir_for_test(dir), 0);
	assert_null(os_realpath(dir));
	free(r1);
	free(r2);
	free(sub);
	free(dir);
}

/*
 * A directory by handle (os.h "directories someone else may write"), the same on both
 * systems: a subdirectory made and opened, files created exclusively (a second create of a
 * name is -EEXIST), opened, renamed, listed and removed relative to the handles, identities
 * that tell files apart, a scratch file known by its header and a copy of it not, and an
 * output refused over a directory.
 */
static void test_dir_handles(void **state)
{
	char *top = test_path("dirh"), *name;
	struct os_dirh *d, *sub, *again;
	struct os_file *f, *g;
	struct os_entry e;
	struct os_id a, b;
	struct os_dir *l;
	bool created = false;
	size_t n = 0;

	(void)state;
	assert_int_equal(os_mkdir(top, 0755), 0);
	assert_int_equal(os_dirh_open(top, &d), 0);
	assert_int_equal(os_dirh_sub(d, "logs", false, NULL, &sub), -ENOENT);
	assert_int_equal(os_dirh_sub(d, "logs", true, &created, &sub), 0);
	assert_true(created);
	assert_int_equal(os_dirh_sub(d, "logs", true, &created, &again), 0);
	assert_false(created);
	assert_int_equal(os_dirh_id(sub, &a), 0);
	assert_int_equal(os_dirh_id(again, &b), 0);
	assert_true(a.dev == b.dev && a.ino == b.ino);
	os_dirh_close(again);
	assert_int_equal(os_dirh_open_file(sub, "E00.log", OS_RDWR | OS_CREATE, &f), 0);
	assert_int_equal(os_pwrite(f, "fslab", 5, 0), 5);
	assert_int_equal(os_dirh_open_file(sub, "E00.log", OS_RDWR | OS_CREATE, &g), -EEXIST);
	assert_int_equal(os_dirh_open_file(sub, "E00.log", OS_RDWR | OS_TRUNC, &g), -EINVAL);
	assert_int_equal(os_dirh_open_file(sub, "../x", OS_RDONLY, &g), -EINVAL);
	assert_int_equal(os_dirh_open_file(d, "logs", OS_RDONLY, &g), -EINVAL);
	assert_int_equal(os_dirh_open_file(sub, "E00.log", OS_RDONLY, &g), 0);
	assert_int_equal(os_file_id(f, &a), 0);
	assert_int_equal(os_file_id(g, &b), 0);
	assert_true(a.ino == b.ino);
	os_close(g);
	os_close(f);
	assert_int_equal(os_dirh_stat(sub, "E00.log", &e), 0);
	assert_int_equal(e.kind, OS_KIND_FILE);
	assert_int_equal(e.size, 5);
	assert_true(e.id.ino == a.ino);
#ifndef _WIN32
	assert_true(e.mine);
#endif
	assert_int_equal(os_dirh_stat(d, "logs", &e), 0);
	assert_int_equal(e.kind, OS_KIND_DIR);
	assert_int_equal(os_dirh_stat(sub, "nope", &e), -ENOENT);
	assert_int_equal(os_dirh_rename(sub, "E00.log", "E0000000001.log"), 0);
	assert_int_equal(os_dirh_stat(sub, "E00.log", &e), -ENOENT);
	assert_int_equal(os_dirh_stat(sub, "E0000000001.log", &e), 0);
	assert_true(e.id.ino == a.ino);
	/* a scratch file is fslab's by its header; a copy of it is not */
	assert_int_equal(scratch_create(sub, "s1", 0, &f), 0);
	os_close(f);
	assert_true(scratch_is_ours(sub, "s1"));
	assert_false(scratch_is_ours(sub, "E0000000001.log"));
	{
		char *buf = xmalloc_aligned(SCRATCH_HDR);

		assert_int_equal(os_dirh_open_file(sub, "s1", OS_RDONLY, &f), 0);
		assert_int_equal(os_pread(f, buf, SCRATCH_HDR, 0), SCRATCH_HDR);
		os_close(f);
		assert_int_equal(os_dirh_open_file(sub, "s2", OS_RDWR | OS_CREATE, &f), 0);
		assert_int_equal(os_pwrite(f, buf, SCRATCH_HDR, 0), SCRATCH_HDR);
		os_close(f);
		free_aligned(buf);
	}
	assert_false(scratch_is_ours(sub, "s2"));
	assert_int_equal(os_dirh_list(sub, &l), 0);
	while (os_readdir(l))
		n++;
	os_closedir(l);
	assert_int_equal(n, 3);
	assert_int_equal(os_dirh_rmdir(d, "logs"), -ENOTEMPTY);
	assert_int_equal(os_dirh_unlink(sub, "E0000000001.log"), 0);
	/* removed only while it is the file found */
	assert_int_equal(os_dirh_stat(sub, "s1", &e), 0);
	assert_int_equal(os_dirh_remove_file(sub, "s1", e.id.ino + 1), -ESTALE);
	assert_int_equal(os_dirh_remove_file(sub, "s1", e.id.ino), 0);
	assert_int_equal(os_dirh_remove_file(sub, "s1", e.id.ino), -ENOENT);
	assert_int_equal(os_dirh_unlink(sub, "s2"), 0);
	os_dirh_close(sub);
	assert_int_equal(os_dirh_rmdir(d, "logs"), 0);
	/* an output is never written over a directory */
	assert_int_equal(os_mkdir(name = path_join(top, "out"), 0755), 0);
	assert_int_equal(write_file_atomic(name, "x", 1), -FSLAB_EINPUT);
	assert_true(os_is_dir(name));
	assert_int_equal(os_rmdir(name), 0);
	free(name);
	os_dirh_close(d);
	assert_int_equal(rmdir_for_test(top), 0);
	free(top);
}

/*
 * A small file of fslab's made by a directory's handle: written whole under a temporary name,
 * renamed only onto a free name (a file or a link someone put there stays as it was), read
 * back only as a regular file of bounded size, never through a link.
 */
static void test_dir_exclusive(void **state)
{
	char *top = test_path("dirx"), *text = NULL;
	struct os_dirh *d;
	struct os_entry e;
	struct os_id id, rid;
	struct os_file *f;
	size_t len = 0;

	(void)state;
	assert_int_equal(os_mkdir(top, 0755), 0);
	assert_int_equal(os_dirh_open(top, &d), 0);
	assert_int_equal(dirh_write_new(d, "c.tmp", "c", "fslab\n", 6, &id), 0);
	assert_int_equal(os_dirh_stat(d, "c.tmp", &e), -ENOENT);
	assert_int_equal(dirh_read_small(d, "c", 64, &text, &len, &rid), 0);
	assert_int_equal(len, 6);
	assert_string_equal(text, "fslab\n");
	assert_true(rid.ino == id.ino);
	free(text);
	assert_int_equal(dirh_read_small(d, "c", 5, &text, &len, NULL), -EFBIG);
	/* the name is taken: nothing replaced, the temporary file gone again */
	assert_int_equal(dirh_write_new(d, "c.tmp", "c", "other", 5, NULL), -EEXIST);
	assert_int_equal(os_dirh_stat(d, "c.tmp", &e), -ENOENT);
	assert_int_equal(dirh_read_small(d, "c", 64, &text, &len, NULL), 0);
	assert_string_equal(text, "fslab\n");
	free(text);
	/* a temporary name someone took is not written through */
	assert_int_equal(os_dirh_open_file(d, "t", OS_RDWR | OS_CREATE, &f), 0);
	os_close(f);
	assert_int_equal(dirh_write_new(d, "t", "c2", "x", 1, NULL), -EEXIST);
	assert_int_equal(os_dirh_stat(d, "t", &e), 0);
	assert_int_equal(e.size, 0);
	assert_int_equal(os_dirh_stat(d, "c2", &e), -ENOENT);
	assert_int_equal(os_dirh_rename_new(d, "t", "c"), -EEXIST);
	assert_int_equal(os_dirh_rename_new(d, "t", "c2"), 0);
	assert_int_equal(os_dirh_stat(d, "t", &e), -ENOENT);
#ifndef _WIN32
	{
		char *link = path_join(top, "l");

		/* a link at the name stays a link; one read is refused, never followed */
		assert_int_equal(symlink("c", link), 0);
		assert_int_equal(os_dirh_rename_new(d, "c2", "l"), -EEXIST);
		assert_int_equal(os_dirh_stat(d, "l", &e), 0);
		assert_int_equal(e.kind, OS_KIND_LINK);
		assert_int_equal(dirh_read_small(d, "l", 64, &text, &len, NULL), -ELOOP);
		assert_int_equal(os_dirh_unlink(d, "l"), 0);
		free(link);
	}
#endif
	assert_int_equal(os_dirh_unlink(d, "c"), 0);
	assert_int_equal(os_dirh_unlink(d, "c2"), 0);
	os_dirh_close(d);
	assert_int_equal(rmdir_for_test(top), 0);
	free(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_roundtrip),
		cmocka_unit_test(test_engines_verify_data),
		cmocka_unit_test(test_engine_errors),
		cmocka_unit_test(test_release_drains),
		cmocka_unit_test(test_lock_path),
		cmocka_unit_test(test_sleep_until),
		cmocka_unit_test(test_rename_replace),
		cmocka_unit_test(test_utf16),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_dir_handles),
		cmocka_unit_test(test_dir_exclusive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
