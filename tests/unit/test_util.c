// SPDX-License-Identifier: MIT
/* test_util.c: human units, durations, lists, CRC32C, PRNG, atomic writes, escaped messages,
 * regular files only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ext2fs/ext2fs.h>

#include "lib/base.h"
#include "lib/crc32c.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/random.h"
#include "lib/units.h"

static void test_parse_size(void **state)
{
	static const struct {
		const char *in;
		int ret;
		uint64_t want;
	} cases[] = {
		{ "4096", 0, 4096 },      { "512K", 0, 512 * KiB }, { "512k", 0, 512 * KiB },
		{ "512M", 0, 512 * MiB }, { "4G", 0, 4 * GiB },      { "8GiB", 0, 8 * GiB },
		{ "1T", 0, 1024 * GiB },  { "32KB", 0, 32 * KiB },   { "0", 0, 0 },
		{ "", -EINVAL, 0 },       { "-1G", -EINVAL, 0 },     { "1.5G", -EINVAL, 0 },
		{ "G", -EINVAL, 0 },      { "12Q", -EINVAL, 0 },     { "4 G", -EINVAL, 0 },
		{ "99999999999999999999", -EINVAL, 0 }, { "20000000000T", -EINVAL, 0 },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v = 12345;
		int ret = parse_size(cases[i].in, &v);

		assert_int_equal(ret, cases[i].ret);
		if (!ret)
			assert_int_equal(v, cases[i].want);
	}
	assert_int_equal(parse_size(NULL, &(uint64_t){ 0 }), -EINVAL);
}

static void test_parse_duration(void **state)
{
	static const struct {
		const char *in;
		int ret;
		uint64_t want_ms;
	} cases[] = {
		{ "90", 0, 90000 },     { "90s", 0, 90000 },   { "500ms", 0, 500 },
		{ "15m", 0, 900000 },   { "2h", 0, 7200000 },  { "1h30m", 0, 5400000 },
		{ "1d", 0, 86400000 },  { "0", 0, 0 },         { "1m30s", 0, 90000 },
		{ "", -EINVAL, 0 },     { "abc", -EINVAL, 0 }, { "-5s", -EINVAL, 0 },
		{ "5x", -EINVAL, 0 },   { "1h30", -EINVAL, 0 }, { "1.5h", -EINVAL, 0 },
		{ "s", -EINVAL, 0 },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t ns = 1;
		int ret = parse_duration(cases[i].in, &ns);

		assert_int_equal(ret, cases[i].ret);
		if (!ret)
			assert_int_equal(ns, cases[i].want_ms * NSEC_PER_MSEC);
	}
}

static void test_parse_u64_and_list(void **state)
{
	uint64_t v, l[8];

	(void)state;
	assert_int_equal(parse_u64("8", 1, 1024, &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(parse_u64("0", 1, 1024, &v), -ERANGE);
	assert_int_equal(parse_u64("5000", 1, 1024, &v), -ERANGE);
	assert_int_equal(parse_u64("8x", 1, 1024, &v), -EINVAL);
	assert_int_equal(parse_u64("", 1, 1024, &v), -EINVAL);
	assert_int_equal(parse_list_u64("4,8,12", l, 8), 3);
	assert_int_equal(l[0], 4);
	assert_int_equal(l[2], 12);
	assert_int_equal(parse_list_u64("4, 8", l, 8), 2);
	assert_int_equal(parse_list_u64("4,,8", l, 8), -EINVAL);
	assert_int_equal(parse_list_u64("4,8,", l, 8), -EINVAL);
	assert_int_equal(parse_list_u64("1,2,3", l, 2), -EINVAL);
}

static void test_fmt(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(fmt_size(b, sizeof(b), 512 * MiB), "512 MiB");
	assert_string_equal(fmt_size(b, sizeof(b), 1536 * MiB), "1.5 GiB");
	assert_string_equal(fmt_size(b, sizeof(b), 100), "100 B");
	assert_string_equal(fmt_duration(b, sizeof(b), 7200 * NSEC_PER_SEC), "2h");
	assert_string_equal(fmt_duration(b, sizeof(b), 90 * NSEC_PER_SEC), "1m30s");
	assert_string_equal(fmt_duration(b, sizeof(b), 45 * NSEC_PER_SEC), "45s");
	assert_string_equal(fmt_duration(b, sizeof(b), 250 * NSEC_PER_MSEC), "250ms");
	assert_string_equal(fmt_duration(b, sizeof(b), 5400 * NSEC_PER_SEC), "1h30m");
}

static void test_crc32c(void **state)
{
	/* RFC 3720 (iSCSI) B.4 test vectors use the final xor; ext2fs_crc32c_le does not. */
	static const char check[] = "123456789";
	uint8_t zeros[32] = { 0 };

	(void)state;
	assert_int_equal(~crc32c(~0U, check, 9), 0xe3069283);
	assert_int_equal(~crc32c(~0U, zeros, 32), 0x8a9136aa);
	/* RFC 3720 B.4: 32 bytes of 0xff, an incrementing and a decrementing series */
	{
		uint8_t ff[32], inc[32], dec[32];

		for (int i = 0; i < 32; i++) {
			ff[i] = 0xff;
			inc[i] = (uint8_t)i;
			dec[i] = (uint8_t)(31 - i);
		}
		assert_int_equal(~crc32c(~0U, ff, 32), 0x62a8ab43);
		assert_int_equal(~crc32c(~0U, inc, 32), 0x46dd794e);
		assert_int_equal(~crc32c(~0U, dec, 32), 0x113fdb5c);
		/* the same as the table version it replaced, and chained = whole */
		assert_int_equal(crc32c(1234, inc + 3, 20), ext2fs_crc32c_le(1234, inc + 3, 20));
		assert_int_equal(crc32c(crc32c(7, inc, 10), inc + 10, 22), crc32c(7, inc, 32));
	}
}

static void test_rng(void **state)
{
	struct rng a, b;
	uint64_t counts[10] = { 0 };

	(void)state;
	rng_seed(&a, 42);
	rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(rng_next(&a), rng_next(&b));
	rng_seed(&b, 43);
	assert_int_not_equal(rng_next(&a), rng_next(&b));
	for (int i = 0; i < 100000; i++) {
		uint64_t v = rng_below(&a, 10);

		assert_true(v < 10);
		counts[v]++;
	}
	for (int i = 0; i < 10; i++) /* 10000 expected, sd ~95 */
		assert_true(counts[i] > 9500 && counts[i] < 10500);
	for (int i = 0; i < 1000; i++) {
		double d = rng_double(&a);

		assert_true(d >= 0 && d < 1);
	}
}

static void test_write_file_atomic(void **state)
{
	char dir[] = "/tmp/fslab-unit.XXXXXX";
	char *path, *data;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = path_join(dir, "r.json");
	assert_int_equal(write_file_atomic(path, "old\n", 4), 0);
	assert_int_equal(write_file_atomic(path, "new contents\n", 13), 0);
	assert_int_equal(read_file(path, &data, &len), 0);
	assert_int_equal(len, 13);
	assert_string_equal(data, "new contents\n");
	free(data);
	/* no temporary file left behind */
	{
		char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());

		assert_int_not_equal(access(tmp, F_OK), 0);
		free(tmp);
	}
	/* a directory that does not exist: error, nothing written */
	{
		char *bad = path_join(dir, "nope/r.json");

		assert_int_equal(write_file_atomic(bad, "x", 1), -ENOENT);
		free(bad);
	}
	assert_int_equal(read_file("/nonexistent/x", &data, &len), -ENOENT);
	unlink(path);
	free(path);
	rmdir(dir);
}

/* Read path's content (it must exist). */
static char *slurp(const char *path)
{
	char *data;

	assert_int_equal(read_file(path, &data, NULL), 0);
	return data;
}

/*
 * A symbolic link planted at any temporary name the writer might use ("NAME.tmp.PID",
 * "NAME.tmp.PID.N") never receives the data and is left as it is; an output whose name is a
 * symbolic link, a FIFO or a directory is refused (-FSLAB_EINPUT, a message printed) and left
 * as it was, before anything is written and again when it became one while the output was
 * being written.
 */
static void test_write_file_atomic_links(void **state)
{
	char dir[] = "/tmp/fslab-unit.XXXXXX";
	char *path, *victim, *data, *links[3];
	struct atomic_file af;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = path_join(dir, "report.md");
	victim = path_join(dir, "victim");
	assert_int_equal(write_file_atomic(victim, "precious\n", 9), 0);
	links[0] = xasprintf("%s.tmp.%d", path, (int)getpid());
	links[1] = xasprintf("%s.tmp.%d.1", path, (int)getpid());
	links[2] = xasprintf("%s.tmp.%d.2", path, (int)getpid());
	for (size_t i = 0; i < ARRAY_SIZE(links); i++)
		assert_int_equal(symlink(victim, links[i]), 0);
	assert_int_equal(write_file_atomic(path, "report\n", 7), 0);
	data = slurp(victim);
	assert_string_equal(data, "precious\n");
	free(data);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	data = slurp(path);
	assert_string_equal(data, "report\n");
	free(data);
	for (size_t i = 0; i < ARRAY_SIZE(links); i++) {
		assert_int_equal(lstat(links[i], &st), 0);
		assert_true(S_ISLNK(st.st_mode));
	}
	/* written in pieces, then by another process through atomic_name() (as gnuplot is) */
	assert_int_equal(atomic_open(&af, path), 0);
	assert_non_null(atomic_name(&af));
	{
		char *cmd = xasprintf("printf 'from a child' > '%s'", atomic_name(&af));

		assert_int_equal(os_run((const char *[]){ "sh", "-c", cmd, NULL }, NULL), 0);
		free(cmd);
	}
	assert_int_equal(atomic_commit(&af), 0);
	data = slurp(path);
	assert_string_equal(data, "from a child");
	free(data);
	/* aborted: nothing appears, nothing is left */
	assert_int_equal(atomic_open(&af, path), 0);
	fputs("never", af.f);
	atomic_abort(&af);
	data = slurp(path);
	assert_string_equal(data, "from a child");
	free(data);
	/* the output's name a link, a FIFO, a directory: refused, left as it was */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(write_file_atomic(path, "x", 1), -FSLAB_EINPUT);
	assert_int_equal(output_check(path, "--output"), -FSLAB_EINPUT);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(write_file_atomic(path, "x", 1), -FSLAB_EINPUT);
	assert_int_equal(output_check(path, "--output"), -FSLAB_EINPUT);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(write_file_atomic(path, "x", 1), -FSLAB_EINPUT);
	assert_int_equal(rmdir(path), 0);
	/* a FIFO planted while the output was written: refused at the rename */
	assert_int_equal(atomic_open(&af, path), 0);
	fputs("late", af.f);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(atomic_commit(&af), -FSLAB_EINPUT);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(unlink(path), 0);
	assert_int_equal(output_check(path, "--output"), 0);
	data = slurp(victim);
	assert_string_equal(data, "precious\n");
	free(data);
	for (size_t i = 0; i < ARRAY_SIZE(links); i++) {
		unlink(links[i]);
		free(links[i]);
	}
	unlink(victim);
	free(victim);
	free(path);
	assert_int_equal(rmdir(dir), 0); /* nothing else was left in it */
}

static void test_mkdir_p_and_run_cmd(void **state)
{
	char dir[] = "/tmp/fslab-unit.XXXXXX";
	char *deep, *out = NULL;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	deep = path_join(dir, "a/b/c");
	assert_int_equal(mkdir_p(deep, 0755), 0);
	assert_int_equal(stat(deep, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(os_run((const char *[]){ "rm", "-r", dir, NULL }, NULL), 0);
	assert_int_equal(os_run((const char *[]){ "sh", "-c", "echo hi; exit 3", NULL }, &out), 3);
	assert_string_equal(out, "hi\n");
	free(out);
	assert_int_equal(os_run((const char *[]){ "/nonexistent-program", NULL }, NULL), 127);
	assert_true(os_have_program("sh"));
	assert_false(os_have_program("no-such-program-fslab"));
	free(deep);
}

/* What a terminal would act on, escaped; valid UTF-8 and printable text kept (issue 16). */
static void test_str_escape(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "plain text 1.5 GiB", "plain text 1.5 GiB" },
		{ "title\033]0;pwned\007", "title\\x1b]0;pwned\\x07" },   /* OSC 0: window title */
		{ "\033[2J\033[H", "\\x1b[2J\\x1b[H" },                       /* clear the screen */
		{ "\033]52;c;Zm9v\033\\", "\\x1b]52;c;Zm9v\\x1b\\" },         /* OSC 52 clipboard */
		{ "a\nb\rc\td", "a\\nb\\rc\\td" },
		{ "del\x7f", "del\\x7f" },
		{ "csi\xc2\x9b" "2J", "csi\\xc2\\x9b2J" },               /* C1 CSI as UTF-8 */
		{ "raw\x9b" "2J", "raw\\x9b2J" },                          /* C1 as a lone byte */
		{ "bad\xff\xfe", "bad\\xff\\xfe" },
		{ "overlong\xc0\xaf", "overlong\\xc0\\xaf" },
		{ "surrogate\xed\xa0\x80", "surrogate\\xed\\xa0\\x80" },
		{ "cut\xe6\x97", "cut\\xe6\\x97" },
		{ "\xc2\xb1 5 \xc2\xb5s \xc3\xbc \xe6\x97\xa5 \xf0\x9f\x98\x80 nbsp\xc2\xa0",
		  "\xc2\xb1 5 \xc2\xb5s \xc3\xbc \xe6\x97\xa5 \xf0\x9f\x98\x80 nbsp\xc2\xa0" },
		{ "D:\\fslab\\db", "D:\\fslab\\db" },
		{ "", "" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *e = str_escape(cases[i].in);

		assert_string_equal(e, cases[i].want);
		free(e);
	}
	assert_int_equal(utf8_len("\xf4\x8f\xbf\xbf"), 4); /* U+10FFFF */
	assert_int_equal(utf8_len("\xf4\x90\x80\x80"), 0); /* beyond Unicode */
	assert_int_equal(utf8_len("\xe0\x9f\xbf"), 0);      /* overlong */
}

/* stderr of fn() as a string (heap). */
static char *stderr_of(void (*fn)(void))
{
	char path[] = "/tmp/fslab-unit-err.XXXXXX", *out;
	int fd = mkstemp(path), saved = dup(2);
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	out = calloc(1, 65536);
	n = pread(fd, out, 65535, 0);
	out[n > 0 ? n : 0] = 0;
	close(fd);
	unlink(path);
	return out;
}

static void say_hostile(void)
{
	fslab_err("r.json: run was aborted (%s); re-run it", "x\033]0;owned\007\033[2J\nfslab: ok");
	fslab_warn("%s", "\033]52;c;cm0gLXJmIH4=\007");
	(void)input_error("%s: bad", "f\xc2\x9b" "31m\xff");
}

static void say_tool_output(void)
{
	fslab_err("mkfs failed; its output:\n%s", "line 1\nline 2 \033[31mred\n");
}

/* Every message escapes what it quotes: no ESC, C1 or stray byte reaches the terminal. */
static void test_message_escape(void **state)
{
	char *out;

	(void)state;
	out = stderr_of(say_hostile);
	assert_null(strchr(out, '\033'));
	assert_null(strstr(out, "\xc2\x9b"));
	assert_null(strchr(out, '\xff'));
	assert_string_equal(out,
		"fslab: error: r.json: run was aborted (x\\x1b]0;owned\\x07\\x1b[2J\\nfslab: ok); "
		"re-run it\n"
		"fslab: warning: \\x1b]52;c;cm0gLXJmIH4=\\x07\n"
		"fslab: error: f\\xc2\\x9b31m\\xff: bad\n");
	free(out);
	/* a format with a newline quotes a tool's output whole: its lines kept, ESC escaped */
	out = stderr_of(say_tool_output);
	assert_string_equal(out, "fslab: error: mkfs failed; its output:\nline 1\n"
				 "line 2 \\x1b[31mred\n\n");
	free(out);
}

/* read_file() reads regular files only, and never blocks on a FIFO or floods on a device. */
static void test_read_file_regular(void **state)
{
	char dir[] = "/tmp/fslab-unit.XXXXXX", *fifo, *data;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	fifo = path_join(dir, "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(read_file(fifo, &data, &len), -EINVAL);   /* no writer: would block */
	assert_int_equal(read_file("/dev/zero", &data, &len), -EINVAL); /* would never end */
	assert_int_equal(read_file(dir, &data, &len), -EINVAL);
	assert_string_equal(os_kind_name(OS_KIND_FIFO), "a FIFO");
	unlink(fifo);
	free(fifo);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_parse_u64_and_list),
		cmocka_unit_test(test_fmt),
		cmocka_unit_test(test_crc32c),
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_write_file_atomic),
		cmocka_unit_test(test_write_file_atomic_links),
		cmocka_unit_test(test_mkdir_p_and_run_cmd),
		cmocka_unit_test(test_str_escape),
		cmocka_unit_test(test_message_escape),
		cmocka_unit_test(test_read_file_regular),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
