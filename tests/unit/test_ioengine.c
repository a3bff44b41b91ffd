// SPDX-License-Identifier: MIT
/* test_ioengine.c: the I/O back ends agree on what one event means: whole transfers, a short
 * transfer continued until it is whole, a read that meets the end of the file; io_drain()
 * leaves nothing in flight. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "io/ioengine.h"
#include "os/os.h"
#include "os/osP.h"

/* A regular file of n bytes, byte i = i % 251, opened through the platform layer (the name
 * is removed at once: Windows allows it, files are opened with FILE_SHARE_DELETE). */
static struct os_file *data_file(size_t n)
{
	static int seq;
	char *dir = os_tmp_dir();
	char *path = xasprintf("%s/fslab-test-io.%lu.%d", dir, os_pid(), seq++);
	unsigned char *b = malloc(n);
	struct os_file *f;

	assert_int_equal(os_open(path, OS_RDWR | OS_CREATE | OS_TRUNC, &f), 0);
	assert_int_equal(os_unlink(path), 0);
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i % 251);
	assert_int_equal(os_pwrite(f, b, n, 0), (ssize_t)n);
	free(b);
	free(path);
	free(dir);
	return f;
}

static int one(struct io_ctx *ctx, struct io_u *io)
{
	int ret = io_sync(ctx, io);

	assert_int_equal(ctx->inflight, 0);
	return ret;
}

/* Whole reads, and a read crossing the end of the file: the bytes before it, on both. */
static void test_eof_same_everywhere(void **state)
{
	(void)state;
	for (size_t e = 0; ioengine_at(e); e++) {
		const char *name = ioengine_at(e)->name;
		struct io_ctx ctx;
		struct os_file *f = data_file(12288);
		unsigned char buf[8192];
		struct io_u io = { .file = f, .op = IO_READ, .buf = buf, .len = sizeof(buf) };

		if (io_ctx_init(&ctx, name, 4)) {
			assert_string_equal(name, "io_uring"); /* io_uring may be off here */
			os_close(f);
			continue;
		}
		assert_int_equal(one(&ctx, &io), 8192);
		assert_int_equal(buf[100], 100 % 251);
		io.off = 8192; /* 4096 bytes left */
		assert_int_equal(one(&ctx, &io), 4096);
		assert_int_equal(buf[0], 8192 % 251);
		io.off = 12288; /* at the end */
		assert_int_equal(one(&ctx, &io), 0);
		io.op = IO_WRITE;
		io.off = 0;
		assert_int_equal(one(&ctx, &io), 8192);
		io_ctx_release(&ctx);
		os_close(f);
	}
}

/* Eight reads submitted and given up on: io_drain() reaps them all, on every back end. */
static void test_drain(void **state)
{
	(void)state;
	for (size_t e = 0; ioengine_at(e); e++) {
		struct os_file *f = data_file(8 * 4096);
		struct io_u ios[8], *batch[8], *out[2];
		unsigned char *buf = xmalloc_aligned(8 * 4096);
		struct io_ctx ctx;

		if (io_ctx_init(&ctx, ioengine_at(e)->name, 8)) {
			assert_string_equal(ioengine_at(e)->name, "io_uring");
			free_aligned(buf);
			os_close(f);
			continue;
		}
		for (int i = 0; i < 8; i++) {
			ios[i] = (struct io_u){ .file = f, .op = IO_READ, .buf = buf + i * 4096,
						.len = 4096, .off = (uint64_t)i * 4096 };
			batch[i] = &ios[i];
		}
		assert_int_equal(io_submit(&ctx, batch, 8), 0);
		/* out has room for 2: the drain reaps in as many rounds as it needs */
		assert_int_equal(io_drain(&ctx, out, 2), 0);
		assert_int_equal(ctx.inflight, 0);
		for (int i = 0; i < 8; i++)
			assert_int_equal(ios[i].res, 4096);
		assert_int_equal(buf[7 * 4096 + 1], (7 * 4096 + 1) % 251);
		/* nothing in flight: nothing to do */
		assert_int_equal(io_drain(&ctx, out, 2), 0);
		io_ctx_release(&ctx);
		/* a ctx whose set-up failed has nothing in flight either */
		assert_int_equal(io_drain(&ctx, out, 2), 0);
		free_aligned(buf);
		os_close(f);
	}
}

#ifndef _WIN32

struct feeder {
	int fd;
	size_t n;
};

static void *feed_later(void *arg)
{
	struct feeder *f = arg;
	unsigned char b[4096];

	usleep(100 * 1000);
	memset(b, 0xb2, sizeof(b));
	assert_int_equal(write(f->fd, b, f->n), (ssize_t)f->n);
	return NULL;
}

/*
 * A short transfer that the kernel really returns: an io_uring read of 8 KiB from a pipe that
 * holds 4 KiB completes with 4096.  The back end must continue it (as psync's loop does for a
 * short pread) and report 8192 once the rest arrived: before, io_uring passed 4096 through
 * while psync would have continued, two verdicts for one event.  (pread on a pipe is ESPIPE:
 * psync's continuation is its loop, tested by the regular-file cases.)
 */
static void test_short_read_continued(void **state)
{
	struct io_ctx ctx;
	int p[2];
	unsigned char buf[8192], first[4096];
	struct io_u io = { .op = IO_READ, .buf = buf, .len = sizeof(buf) }, *done;
	struct os_file pf = { .flags = OS_RDONLY };
	struct feeder f;
	pthread_t t;
	int n;

	(void)state;
	if (io_ctx_init(&ctx, "io_uring", 4))
		skip();
	assert_int_equal(pipe(p), 0);
	memset(first, 0xa1, sizeof(first));
	assert_int_equal(write(p[1], first, sizeof(first)), (ssize_t)sizeof(first));
	io.file = &pf;
	pf.fd = p[0];
	memset(buf, 0, sizeof(buf));
	f = (struct feeder){ .fd = p[1], .n = 4096 };
	assert_int_equal(pthread_create(&t, NULL, feed_later, &f), 0);
	assert_int_equal(io_submit(&ctx, (struct io_u *[]){ &io }, 1), 0);
	do {
		n = io_reap(&ctx, &done, 1, 1);
	} while (n == 0);
	assert_int_equal(n, 1);
	assert_ptr_equal(done, &io);
	assert_int_equal(io.res, 8192);
	assert_int_equal(buf[0], 0xa1);
	assert_int_equal(buf[4095], 0xa1);
	assert_int_equal(buf[4096], 0xb2);
	assert_int_equal(buf[8191], 0xb2);
	assert_int_equal(ctx.inflight, 0);
	pthread_join(t, NULL);

	/* the writer closes after 1 KiB more: the read ends at "end of file" with what it got */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(write(p[1], first, 1024), 1024);
	close(p[1]);
	assert_int_equal(io_sync(&ctx, &io), 1024);
	close(p[0]);
	io_ctx_release(&ctx);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eof_same_everywhere),
		cmocka_unit_test(test_drain),
#ifndef _WIN32
		cmocka_unit_test(test_short_read_continued),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
