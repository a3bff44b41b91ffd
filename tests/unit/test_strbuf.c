// SPDX-License-Identifier: MIT
/* test_strbuf.c: the growable string (strbuf) and string array (strvec): content is kept
 * byte for byte (NUL included), growth has no cap, detach hands over ownership; the shell
 * quoter read back by a real POSIX shell, every byte but NUL; reading a file descriptor or a
 * stream to its end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "lib/random.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

static void test_strbuf_empty(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;
	size_t len = 99;

	(void)state;
	/* a fresh strbuf is a valid empty C string without an allocation */
	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.len, 0);
	assert_int_equal(strbuf_avail(&sb), 0);
	strbuf_reset(&sb);
	strbuf_add(&sb, "x", 0);
	assert_int_equal(sb.alloc, 0);
	/* detaching an empty one gives a string the caller may free */
	s = strbuf_detach(&sb, &len);
	assert_int_equal(len, 0);
	assert_string_equal(s, "");
	assert_ptr_not_equal(s, strbuf_slopbuf);
	free(s);
	assert_ptr_equal(sb.buf, strbuf_slopbuf);
	strbuf_release(&sb);
	strbuf_init(&sb, 100);
	assert_true(strbuf_avail(&sb) >= 100);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
}

static void test_strbuf_add(void **state)
{
	struct strbuf sb = STRBUF_INIT, other = STRBUF_INIT;
	char big[5000];

	(void)state;
	strbuf_addstr(&sb, "fslab");
	strbuf_addch(&sb, ' ');
	strbuf_addf(&sb, "%s=%d", "threads", 8);
	assert_string_equal(sb.buf, "fslab threads=8");
	assert_int_equal(sb.len, strlen("fslab threads=8"));
	/* a formatted piece far larger than the room left: grown once, all of it kept */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	strbuf_addf(&sb, "[%s]", big);
	assert_int_equal(sb.len, 15 + 2 + 4999);
	assert_int_equal(sb.buf[15], '[');
	assert_int_equal(sb.buf[sb.len - 1], ']');
	assert_int_equal(sb.buf[sb.len], 0);
	strbuf_addbuf(&other, &sb);
	assert_int_equal(other.len, sb.len);
	assert_memory_equal(other.buf, sb.buf, sb.len + 1);
	strbuf_setlen(&sb, 5);
	assert_string_equal(sb.buf, "fslab");
	strbuf_reset(&sb);
	assert_string_equal(sb.buf, "");
	strbuf_addf(&sb, "%s", "");
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
	strbuf_release(&other);
}

/* Every byte value, NUL and high bytes included, survives adds, growth and detach. */
static void test_strbuf_binary(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char bytes[256];
	size_t len;
	char *s;

	(void)state;
	for (int i = 0; i < 256; i++)
		bytes[i] = (unsigned char)i;
	for (int k = 0; k < 100; k++)
		strbuf_add(&sb, bytes, sizeof(bytes));
	strbuf_addch(&sb, 0);
	assert_int_equal(sb.len, 100 * 256 + 1);
	for (int k = 0; k < 100; k++)
		assert_memory_equal(sb.buf + k * 256, bytes, sizeof(bytes));
	assert_int_equal(sb.buf[sb.len - 1], 0);
	assert_int_equal(sb.buf[sb.len], 0); /* the terminator after the content */
	s = strbuf_detach(&sb, &len);
	assert_int_equal(len, 100 * 256 + 1);
	assert_memory_equal(s + 99 * 256, bytes, sizeof(bytes));
	assert_int_equal(sb.len, 0);
	assert_ptr_equal(sb.buf, strbuf_slopbuf);
	free(s);
}

static void test_strbuf_sq(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "configs/demo.ini", "configs/demo.ini" },
		{ "--output=/var/tmp/lab-1", "--output=/var/tmp/lab-1" },
		{ "my lab", "'my lab'" },
		{ "it's", "'it'\\''s'" },
		{ "$(rm -rf /)", "'$(rm -rf /)'" },
		{ "a\nb", "'a\nb'" },
		{ "", "''" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_add_sq(&sb, cases[i].in);
		assert_string_equal(sb.buf, cases[i].want);
		strbuf_release(&sb);
	}
}

static void test_strvec_basic(void **state)
{
	struct strvec sv = STRVEC_INIT;
	const char *const more[] = { "--force", "--title=A B", NULL };
	char name[] = "original";
	const char *p;

	(void)state;
	assert_non_null(sv.v);
	assert_null(sv.v[0]);
	strvec_pop(&sv); /* nothing to pop: still valid */
	assert_int_equal(sv.nr, 0);
	p = strvec_push(&sv, name);
	name[0] = 'X'; /* the strvec holds its own copy */
	assert_string_equal(p, "original");
	assert_ptr_not_equal(p, name);
	strvec_pushf(&sv, "--threads=%u", 8u);
	strvec_pushl(&sv, "a", "b", NULL);
	strvec_pushv(&sv, more);
	assert_int_equal(sv.nr, 6);
	assert_string_equal(sv.v[1], "--threads=8");
	assert_string_equal(sv.v[2], "a");
	assert_string_equal(sv.v[5], "--title=A B");
	assert_null(sv.v[6]);
	strvec_pop(&sv);
	assert_int_equal(sv.nr, 5);
	assert_null(sv.v[5]);
	strvec_clear(&sv);
	assert_int_equal(sv.nr, 0);
	assert_ptr_equal(sv.v, empty_strvec);
	strvec_push(&sv, "reused");
	assert_string_equal(sv.v[0], "reused");
	strvec_clear(&sv);
}

/* Far past any fixed argv (the lab's old 64 entries): every string kept, in order. */
static void test_strvec_growth(void **state)
{
	struct strvec sv = STRVEC_INIT;
	const char **v;
	size_t n = 20000;

	(void)state;
	for (size_t i = 0; i < n; i++)
		strvec_pushf(&sv, "results/cell-%zu.json", i);
	assert_int_equal(sv.nr, n);
	assert_null(sv.v[n]);
	for (size_t i = 0; i < n; i += 997) {
		char want[64];

		snprintf(want, sizeof(want), "results/cell-%zu.json", i);
		assert_string_equal(sv.v[i], want);
	}
	assert_string_equal(sv.v[n - 1], "results/cell-19999.json");
	/* detach: the caller owns the array and its strings; sv is empty and usable */
	v = strvec_detach(&sv);
	assert_int_equal(sv.nr, 0);
	assert_ptr_equal(sv.v, empty_strvec);
	assert_null(v[n]);
	assert_string_equal(v[12345], "results/cell-12345.json");
	for (size_t i = 0; i < n; i++)
		free((char *)v[i]);
	free(v);
	v = strvec_detach(&sv); /* empty: a fresh { NULL } */
	assert_null(v[0]);
	free(v);
}

/* A strbuf grown past thousands of appends is one contiguous, correct string. */
static void test_strbuf_growth(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t want = 0;

	(void)state;
	for (unsigned int i = 0; i < 50000; i++) {
		char tmp[32];
		int n = snprintf(tmp, sizeof(tmp), "%u,", i);

		strbuf_addf(&sb, "%u,", i);
		want += (size_t)n;
	}
	assert_int_equal(sb.len, want);
	assert_int_equal(strlen(sb.buf), want);
	assert_memory_equal(sb.buf, "0,1,2,3,", 8);
	assert_memory_equal(sb.buf + want - 6, "49999,", 6);
	strbuf_release(&sb);
}

/*
 * Words quoted by strbuf_add_argv_sq() and read back by /bin/sh (printf '%s\0' WORDS...):
 * each must come back byte for byte.  The words: every byte 1..255 alone and between letters,
 * quotes of every kind, newlines, "$(...)", backquotes, globs, tildes, options, the empty word,
 * and NUL-free random binary strings.
 */
static void test_sq_shell(void **state)
{
	static const char *const specials[] = {
		"", " ", "a b", "it's", "''", "'\\''", "\"", "\\", "\\'", "a\nb", "\n", "\r\n",
		"$(touch /tmp/fslab-sq-pwned)", "`touch /tmp/fslab-sq-pwned`", "$HOME", "${x:-y}",
		"$((1+1))", "*", "?", "[a]", "~", "~root", "-n", "-e", "--", "#x", "x#", "a;b", "a&b",
		"a|b", "a>b", "<a", "!x", "{a,b}", "%s", "^x", "a=b", "x\tb", "\x01\x7f\xff",
		"\xe2\x80\x98" "curly\xe2\x80\x99",
	};
	struct strvec words = STRVEC_INIT;
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	struct rng r;
	const char *p;
	size_t i;
	FILE *f;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(specials); i++)
		strvec_push(&words, specials[i]);
	for (int c = 1; c < 256; c++) {
		strvec_pushf(&words, "%c", c);
		strvec_pushf(&words, "a%cb", c);
	}
	rng_seed(&r, 19);
	for (int n = 0; n < 64; n++) {
		struct strbuf w = STRBUF_INIT;
		uint64_t len = rng_below(&r, 200);

		for (uint64_t k = 0; k < len; k++)
			strbuf_addch(&w, (int)(1 + rng_below(&r, 255)));
		strvec_push(&words, w.buf);
		strbuf_release(&w);
	}
	unlink("/tmp/fslab-sq-pwned");
	strbuf_addstr(&cmd, "printf '%s\\0' ");
	strbuf_add_argv_sq(&cmd, words.v);
	f = popen(cmd.buf, "r");
	assert_non_null(f);
	assert_int_equal(strbuf_read_stream(&out, f), 0);
	assert_int_equal(pclose(f), 0);
	p = out.buf;
	for (i = 0; i < words.nr; i++) {
		assert_true(p < out.buf + out.len);
		assert_string_equal(p, words.v[i]);
		p += strlen(p) + 1;
	}
	assert_ptr_equal(p, out.buf + out.len);
	assert_int_equal(access("/tmp/fslab-sq-pwned", F_OK), -1);
	strbuf_release(&out);
	strbuf_release(&cmd);
	strvec_clear(&words);
}

/* strbuf_read_fd() and strbuf_read_stream(): everything to the end, appended, binary kept. */
static void test_strbuf_read(void **state)
{
	char path[] = "/tmp/fslab-test-strbuf.XXXXXX";
	struct strbuf sb = STRBUF_INIT;
	struct strbuf want = STRBUF_INIT;
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	for (int i = 0; i < 100000; i++)
		strbuf_addch(&want, i % 256);
	assert_int_equal(write(fd, want.buf, want.len), (ssize_t)want.len);
	close(fd);
	strbuf_addstr(&sb, "before");
	fd = open(path, O_RDONLY);
	assert_int_equal(strbuf_read_fd(&sb, fd), (ssize_t)want.len);
	close(fd);
	assert_int_equal(sb.len, 6 + want.len);
	assert_memory_equal(sb.buf, "before", 6);
	assert_memory_equal(sb.buf + 6, want.buf, want.len);
	strbuf_reset(&sb);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(strbuf_read_stream(&sb, f), 0);
	fclose(f);
	assert_int_equal(sb.len, want.len);
	assert_memory_equal(sb.buf, want.buf, want.len);
	assert_int_equal(strbuf_read_fd(&sb, -1), -EBADF);
	unlink(path);
	strbuf_release(&sb);
	strbuf_release(&want);
}

/* A paragraph filled to a width: blanks kept where the line goes on, every break at a blank,
 * continuation lines indented, '\n' kept. */
static void test_wrapped(void **state)
{
	static const struct {
		const char *text;
		size_t col, indent, width;
		const char *want;
	} cases[] = {
		{ "a bb ccc", 0, 0, 80, "a bb ccc" },
		{ "a bb ccc", 0, 0, 4, "a bb\nccc" },
		{ "a bb ccc", 5, 2, 9, "a bb\n  ccc" },
		{ "one.  Two", 0, 0, 20, "one.  Two" },
		{ "one.  Two", 0, 3, 5, "one.\n   Two" },
		{ "  lead", 0, 0, 20, "lead" },
		{ "x\ny z", 0, 1, 20, "x\n y z" },
		{ "longerthanwidth w", 0, 0, 4, "longerthanwidth\nw" },
		{ "", 0, 0, 10, "" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_add_wrapped(&sb, cases[i].text, cases[i].col, cases[i].indent,
				   cases[i].width);
		assert_string_equal(sb.buf, cases[i].want);
		strbuf_release(&sb);
	}
}

/* strbuf_add_item: a list of 1, 2 and 3 items */
static void test_items(void **state)
{
	static const char *const items[] = { "a", "b", "c" };
	static const char *const want[] = { "a", "a or b", "a, b or c" };

	(void)state;
	for (size_t n = 1; n <= ARRAY_SIZE(items); n++) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < n; i++)
			strbuf_add_item(&sb, i, n, ", ", " or ", items[i]);
		assert_string_equal(sb.buf, want[n - 1]);
		strbuf_release(&sb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf_empty),
		cmocka_unit_test(test_strbuf_add),
		cmocka_unit_test(test_strbuf_binary),
		cmocka_unit_test(test_strbuf_sq),
		cmocka_unit_test(test_sq_shell),
		cmocka_unit_test(test_strbuf_read),
		cmocka_unit_test(test_strbuf_growth),
		cmocka_unit_test(test_wrapped),
		cmocka_unit_test(test_items),
		cmocka_unit_test(test_strvec_basic),
		cmocka_unit_test(test_strvec_growth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
