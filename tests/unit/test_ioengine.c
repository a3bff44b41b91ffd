// SPDX-License-Identifier: MIT
/* test_ioengine.c: the I/O back ends agree on what one event means: whole transfers, a short
 * transfer continued until it is whole, a read that meets the end of the file. */
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

#include "io/ioengine.h"
#include "util.h"

static const char *const engines[] = { "io_uring", "psync" };

/* A regular file of n bytes, byte i = i % 251; returns its fd (the name is unlinked). */
static int data_file(size_t n)
{
	char path[] = "/tmp/fslab-test-io.XXXXXX";
	int fd = mkstemp(path);
	unsigned char *b = malloc(n);

	assert_true(fd >= 0);
	unlink(path);
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i % 251);
	assert_int_equal(pwrite(fd, b, n, 0), (ssize_t)n);
	free(b);
	return fd;
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
	for (size_t e = 0; e < ARRAY_SIZE(engines); e++) {
		struct io_ctx ctx;
		int fd = data_file(12288);
		unsigned char buf[8192];
		struct io_u io = { .fd = fd, .op = IO_READ, .buf = buf, .len = sizeof(buf) };

		if (io_ctx_init(&ctx, engines[e], 4)) {
			assert_string_equal(engines[e], "io_uring"); /* io_uring may be off here */
			close(fd);
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
		close(fd);
	}
}

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
	struct feeder f;
	pthread_t t;
	int n;

	(void)state;
	if (io_ctx_init(&ctx, "io_uring", 4))
		skip();
	assert_int_equal(pipe(p), 0);
	memset(first, 0xa1, sizeof(first));
	assert_int_equal(write(p[1], first, sizeof(first)), (ssize_t)sizeof(first));
	io.fd = p[0];
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eof_same_everywhere),
		cmocka_unit_test(test_short_read_continued),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
