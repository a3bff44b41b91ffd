// SPDX-License-Identifier: MIT
/* test_uring.c: how the io_uring back end chooses its ring set-up and its wait from what is
 * known of the files (the RWF_NOWAIT probe of their volume), and that the choice runs I/O. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lib/base.h"
#include "io/ioengine.h"
#include "io/uring.h"
#include "os/os.h"
#include "os/osP.h"
#include "platform/volume.h"
#include "workloads/workload.h"

#define TMPFS_MAGIC 0x01021994

static const unsigned int FIO_FLAGS = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
				      IORING_SETUP_COOP_TASKRUN;

/* Files that start I/O without blocking (or unknown): fio 3.33's flags first, fallbacks for
 * older kernels, no TASKRUN_FLAG, and the thread sleeps in io_uring_enter(). */
static void test_choose_default(void **state)
{
	struct uring_setup s;

	(void)state;
	uring_choose(0, &s);
	assert_int_equal(s.nflags, 3);
	assert_int_equal(s.flags[0], FIO_FLAGS);
	assert_int_equal(s.flags[1], IORING_SETUP_COOP_TASKRUN);
	assert_int_equal(s.flags[2], 0);
	assert_false(s.yield);
}

/* Files whose every I/O goes to io-wq: the same flags plus TASKRUN_FLAG at each step but the
 * last, and the thread yields before it sleeps. */
static void test_choose_no_nowait(void **state)
{
	struct uring_setup s;

	(void)state;
	uring_choose(IO_HINT_NO_NOWAIT, &s);
	assert_int_equal(s.nflags, 3);
	assert_int_equal(s.flags[0], FIO_FLAGS | IORING_SETUP_TASKRUN_FLAG);
	assert_int_equal(s.flags[1], IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG);
	assert_int_equal(s.flags[2], 0);
	assert_true(s.yield);
}

static void test_flags_name(void **state)
{
	static const struct { unsigned int flags; const char *name; } t[] = {
		{ 0, "none" },
		{ IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN,
		  "SINGLE_ISSUER|DEFER_TASKRUN|COOP_TASKRUN" },
		{ IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG, "COOP_TASKRUN|TASKRUN_FLAG" },
		{ IORING_SETUP_CQSIZE | 0x80000000u, "CQSIZE|0x80000000" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct strbuf sb = STRBUF_INIT;

		uring_flags_name(t[i].flags, &sb);
		assert_string_equal(sb.buf, t[i].name);
		strbuf_release(&sb);
	}
}

/* What preadv2(RWF_NOWAIT) answered, as a volume's nowait. */
static void test_nowait_of(void **state)
{
	static const struct { long ret; int err, nowait; } t[] = {
		{ 4096, 0, 1 },           /* read without blocking */
		{ 0, 0, 1 },              /* at the end of the file */
		{ -1, EAGAIN, 1 },        /* this read would block: the filesystem can say so */
		{ -1, EOPNOTSUPP, 0 },    /* no FMODE_NOWAIT: io_uring punts every I/O */
		{ -1, EIO, -1 },          /* says nothing */
		{ -1, EINVAL, -1 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		assert_int_equal(volume_nowait_of(t[i].ret, t[i].err), t[i].nowait);
}

/* Is there a kind of ring among those set up so far that was made for hints, and does it
 * yield? */
static int used_kind(unsigned int hints, bool *yield, unsigned int *flags)
{
	struct uring_used u[8];
	size_t n = uring_used(u, ARRAY_SIZE(u));

	for (size_t i = 0; i < n && i < ARRAY_SIZE(u); i++)
		if (u[i].hints == hints) {
			*yield = u[i].yield;
			*flags = u[i].flags;
			return 1;
		}
	return 0;
}

/* 256 reads of 4 KiB, 8 in flight, through io_submit_reap() as the simple workloads do; each
 * page holds its own number. */
static void read_back(struct io_ctx *ctx, struct os_file *f)
{
	unsigned char *buf = xmalloc_aligned(8 * 4096);
	struct io_u ios[8], *batch[8];
	unsigned int n = 8, done = 0, next = 0;

	for (int i = 0; i < 8; i++) {
		ios[i] = (struct io_u){ .file = f, .op = IO_READ, .buf = buf + i * 4096, .len = 4096 };
		batch[i] = &ios[i];
	}
	while (done < 256) {
		int k;

		for (unsigned int i = 0; i < n; i++)
			batch[i]->off = (uint64_t)(next++ % 64) * 4096;
		k = io_submit_reap(ctx, batch, n, batch, 1, 8);
		assert_true(k >= 1);
		for (int i = 0; i < k; i++) {
			assert_int_equal(batch[i]->res, 4096);
			assert_int_equal(((unsigned char *)batch[i]->buf)[100],
					 (unsigned char)(batch[i]->off / 4096));
		}
		done += (unsigned int)k;
		n = (unsigned int)k;
	}
	assert_int_equal(io_drain(ctx, batch, 8), 0);
	free_aligned(buf);
}

/*
 * On a real tmpfs: the volume probe finds whether its files take RWF_NOWAIT, the workload's
 * hint follows it, the ring is set up accordingly (yielding with TASKRUN_FLAG when they do
 * not, as on 6.18) and its I/O is right; a ring without the hint never yields.
 */
static void test_tmpfs_choice(void **state)
{
	char dir[] = "/dev/shm/fslab-test-uring.XXXXXX";
	struct volume v = { .dir = dir, .nowait = -1 };
	unsigned char *page = xmalloc_aligned(4096);
	struct statfs sf;
	struct io_ctx ctx;
	struct os_file *f;
	char *path;
	unsigned int hints, flags = 0;
	bool yield = false;

	(void)state;
	if (statfs("/dev/shm", &sf) || sf.f_type != TMPFS_MAGIC || !mkdtemp(dir)) {
		free_aligned(page);
		skip(); /* no tmpfs at /dev/shm here */
	}
	volume_probe_odirect(&v);
	path = xasprintf("%s/data", dir);
	assert_int_equal(os_open(path, OS_RDWR | OS_CREATE | OS_TRUNC, &f), 0);
	for (int p = 0; p < 64; p++) {
		memset(page, p, 4096);
		assert_int_equal(os_pwrite(f, page, 4096, (uint64_t)p * 4096), 4096);
	}
	hints = workload_io_hints(&v);
	assert_int_equal(hints, v.nowait == 0 ? IO_HINT_NO_NOWAIT : 0);
	if (io_ctx_open(&ctx, "io_uring", 8, hints)) {
		os_close(f);
		unlink(path);
		rmdir(dir);
		free(path);
		free_aligned(page);
		skip(); /* io_uring disabled here */
	}
	read_back(&ctx, f);
	io_ctx_release(&ctx);
	assert_true(used_kind(hints, &yield, &flags));
	if (v.o_direct == 1 && v.nowait == 0) { /* tmpfs without FMODE_NOWAIT (6.18) */
		assert_true(flags & IORING_SETUP_TASKRUN_FLAG);
		assert_true(yield);
	} else {
		assert_false(yield);
	}
	/* the same file with no hint: a sleeping ring without TASKRUN_FLAG */
	assert_int_equal(io_ctx_open(&ctx, "io_uring", 8, 0), 0);
	read_back(&ctx, f);
	io_ctx_release(&ctx);
	assert_true(used_kind(0, &yield, &flags));
	assert_false(yield);
	assert_false(flags & IORING_SETUP_TASKRUN_FLAG);
	os_close(f);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	free(path);
	free_aligned(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choose_default),
		cmocka_unit_test(test_choose_no_nowait),
		cmocka_unit_test(test_flags_name),
		cmocka_unit_test(test_nowait_of),
		cmocka_unit_test(test_tmpfs_choice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
