// SPDX-License-Identifier: MIT
/*
 * test_proc.c: child processes through the platform layer, the same suite on Linux and under
 * Wine (make windows-unit): the Windows command-line quoter against hand-written command
 * lines and parsed back (the C runtime's rules: a reference parser here, CommandLineToArgvW
 * and a real child's argv on Windows); os_proc_spawn with every special character reaching
 * the child unchanged, stdout and stderr kept apart, exit statuses, stdin's end as a stop
 * request (os_stop_on_stdin_eof), a hard kill, a program that does not exist.  The children
 * are this test binary itself, started with --proc-child MODE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h>
#include <shellapi.h>
#endif

#include "lib/base.h"
#include "lib/argv_quote.h"
#include "os/os.h"
#include "lib/strbuf.h"

/* ---- the quoter ---- */

static char *quoted(const char *arg)
{
	struct strbuf sb = STRBUF_INIT;

	argv_quote_win_arg(&sb, arg, false);
	return strbuf_detach(&sb, NULL);
}

/* Every special case, written out by hand from the MSVCRT rules. */
static void test_quote_cases(void **state)
{
	static const struct {
		const char *arg, *want;
	} cases[] = {
		{ "plain", "plain" },
		{ "", "\"\"" },
		{ "two words", "\"two words\"" },
		{ "tab\there", "\"tab\there\"" },
		{ "new\nline", "\"new\nline\"" },
		{ "say \"hi\"", "\"say \\\"hi\\\"\"" },
		{ "\"", "\"\\\"\"" },
		{ "C:\\dir\\file", "C:\\dir\\file" },           /* backslashes alone: literal */
		{ "C:\\dir with space\\", "\"C:\\dir with space\\\\\"" }, /* trailing: doubled */
		{ "a\\\"b", "\"a\\\\\\\"b\"" },                 /* backslash before a quote: 2n+1 */
		{ "a\\\\\"b", "\"a\\\\\\\\\\\"b\"" },
		{ "end\\\\", "end\\\\" },                       /* no quotes needed: untouched */
		{ "sp \\\\", "\"sp \\\\\\\\\"" },
		{ "$(id);`x`|&<>^%!", "$(id);`x`|&<>^%!" },      /* no shell: data */
		{ "$(rm -rf /)", "\"$(rm -rf /)\"" },
		{ "\xc3\xa9t\xc3\xa9 x", "\"\xc3\xa9t\xc3\xa9 x\"" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *q = quoted(cases[i].arg);

		if (strcmp(q, cases[i].want))
			fail_msg("quote of [%s]: got [%s], want [%s]", cases[i].arg, q, cases[i].want);
		free(q);
	}
}

/*
 * The C runtime's parse of the arguments after the program name (MSVCRT rules as documented
 * in "Parsing C command-line arguments"): the reference the quoter must satisfy on Linux.
 */
static char **msvcrt_parse(const char *s, int *n)
{
	char **v = xcalloc(strlen(s) + 2, sizeof(char *));
	struct strbuf cur = STRBUF_INIT;

	*n = 0;
	for (;;) {
		bool inq = false;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		for (; *s && (inq || (*s != ' ' && *s != '\t')); s++) {
			size_t bs = 0;

			while (*s == '\\') {
				bs++;
				s++;
			}
			if (*s == '"') {
				for (size_t i = 0; i < bs / 2; i++)
					strbuf_addch(&cur, '\\');
				if (bs % 2) {
					strbuf_addch(&cur, '"');
				} else if (inq && s[1] == '"') {
					strbuf_addch(&cur, '"'); /* "" inside quotes (post-2008 rule) */
					s++;
				} else {
					inq = !inq;
				}
				continue;
			}
			for (size_t i = 0; i < bs; i++)
				strbuf_addch(&cur, '\\');
			if (!*s || (!inq && (*s == ' ' || *s == '\t')))
				break; /* the backslashes ended the argument */
			strbuf_addch(&cur, *s);
		}
		v[(*n)++] = strbuf_detach(&cur, NULL);
		if (!*s)
			break;
	}
	strbuf_release(&cur);
	return v;
}

static const char *const nasty[] = {
	"fslab.exe", "run", "", "two words", "  lead and trail  ", "tab\tin", "q\"uote",
	"\"", "\"\"", "\\", "\\\\", "trail\\", "trail space\\", "two\\\\", "a\\\"b", "a\\\\\"b",
	"C:\\fslab lab\\out dir\\", "--label=x y", "$(id);`id`|&<>^%!", "new\nline", "v\vt",
	"caf\xc3\xa9 \xe2\x80\x98q\xe2\x80\x99", NULL,
};

static void test_quote_roundtrip(void **state)
{
	struct strbuf line = STRBUF_INIT;
	char **v;
	int n;

	(void)state;
	assert_int_equal(argv_quote_win(&line, nasty), 0);
	/* argv[0]: no whitespace, so it is the first word as written */
	assert_int_equal(strncmp(line.buf, "fslab.exe ", 10), 0);
	v = msvcrt_parse(line.buf + 10, &n);
	if (n != (int)ARRAY_SIZE(nasty) - 2)
		for (int i = 0; i < n; i++)
			print_message("parsed [%s]\n", v[i]);
	assert_int_equal(n, (int)ARRAY_SIZE(nasty) - 2);
	for (int i = 0; i < n; i++) {
		assert_string_equal(v[i], nasty[i + 1]);
		free(v[i]);
	}
	free(v);
#ifdef _WIN32
	{
		/* the system's own parser gives back every argument, the program name too */
		wchar_t *w = xcalloc(line.len * 2 + 2, sizeof(wchar_t));
		wchar_t **wv;
		int wn;

		MultiByteToWideChar(CP_UTF8, 0, line.buf, -1, w, (int)line.len * 2 + 2);
		wv = CommandLineToArgvW(w, &wn);
		assert_non_null(wv);
		assert_int_equal(wn, (int)ARRAY_SIZE(nasty) - 1);
		for (int i = 0; i < wn; i++) {
			char u[512];

			WideCharToMultiByte(CP_UTF8, 0, wv[i], -1, u, sizeof(u), NULL, NULL);
			assert_string_equal(u, nasty[i]);
		}
		LocalFree(wv);
		free(w);
	}
#endif
	strbuf_release(&line);
}

static void test_cmdline_program(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *spaced[] = { "C:\\Program Files\\fslab\\fslab.exe", "lab", NULL };
	const char *quote[] = { "bad\"name", NULL };
	const char *empty[] = { NULL };

	(void)state;
	assert_int_equal(argv_quote_win(&sb, spaced), 0);
	assert_string_equal(sb.buf, "\"C:\\Program Files\\fslab\\fslab.exe\" lab");
	strbuf_reset(&sb);
	assert_int_equal(argv_quote_win(&sb, quote), -EINVAL);
	assert_int_equal(argv_quote_win(&sb, empty), -EINVAL);
	strbuf_release(&sb);
}

/* ---- processes: this binary is the child ---- */

static char *self;

struct out {
	struct strbuf o, e;
};

static void on_out(void *ctx, int stream, const char *buf, size_t len)
{
	struct out *x = ctx;
	struct strbuf *sb = stream == OS_PROC_STDOUT ? &x->o : &x->e;

	/* a Windows child's stdout and stderr are text mode: "\n" arrives as "\r\n" */
	for (size_t i = 0; i < len; i++)
		if (buf[i] != '\r')
			strbuf_addch(sb, buf[i]);
}

/* Run until it ends (at most 30 s); its status. */
static int finish(struct os_proc *p, struct out *x)
{
	uint64_t end = now_ns() + 30 * NSEC_PER_SEC;
	int st = -1, r;

	while ((r = os_proc_poll(p, 200, on_out, x, &st)) == 0 && now_ns() < end)
		;
	assert_int_equal(r, 1);
	return st;
}

static const char *child_argv[64];

static void child_args(const char *mode, const char *const *extra)
{
	size_t n = 0;

	child_argv[n++] = self;
	child_argv[n++] = "--proc-child";
	child_argv[n++] = mode;
	for (; extra && *extra; extra++)
		child_argv[n++] = *extra;
	child_argv[n] = NULL;
}

/* Every argument arrives as it was given (hex-encoded by the child, one per line). */
static void test_spawn_args(void **state)
{
	struct out x = { STRBUF_INIT, STRBUF_INIT };
	struct strbuf want = STRBUF_INIT;
	struct os_proc *p;

	(void)state;
	/* the child's narrow argv on Windows is in the ANSI code page: ASCII arguments only */
	child_args("echo", nasty + 1);
	child_argv[ARRAY_SIZE(nasty)] = NULL; /* not the last (non-ASCII) one */
	assert_int_equal(os_proc_spawn(child_argv, OS_PROC_OWN_GROUP | OS_PROC_DIE_WITH_PARENT,
				       &p), 0);
	assert_true(os_proc_pid(p) > 0);
	assert_int_equal(finish(p, &x), 5);
	for (size_t i = 3; child_argv[i]; i++) {
		for (const unsigned char *c = (const unsigned char *)child_argv[i]; *c; c++)
			strbuf_addf(&want, "%02x", *c);
		strbuf_addch(&want, '\n');
	}
	assert_string_equal(x.o.buf, want.buf);
	assert_string_equal(x.e.buf, "to stderr\n");
	os_proc_free(p);
	strbuf_release(&want);
	strbuf_release(&x.o);
	strbuf_release(&x.e);
}

/* Closing the child's stdin is its stop request: the stop handler says why. */
static void test_stdin_eof_stops(void **state)
{
	struct out x = { STRBUF_INIT, STRBUF_INIT };
	struct os_proc *p;
	uint64_t t0;

	(void)state;
	child_args("stop", NULL);
	assert_int_equal(os_proc_spawn(child_argv, OS_PROC_STDIN_PIPE | OS_PROC_OWN_GROUP |
				       OS_PROC_DIE_WITH_PARENT, &p), 0);
	/* it is waiting: nothing has stopped it */
	for (int i = 0; i < 100 && !strstr(x.o.buf, "waiting"); i++) {
		int st;

		assert_int_equal(os_proc_poll(p, 100, on_out, &x, &st), 0);
	}
	assert_non_null(strstr(x.o.buf, "waiting"));
	t0 = now_ns();
	assert_int_equal(os_proc_close_stdin(p), 0);
	assert_int_equal(finish(p, &x), 3);
	assert_true(now_ns() - t0 < 10 * NSEC_PER_SEC);
	assert_non_null(strstr(x.o.buf, "stopped by the end of standard input"));
	os_proc_free(p);
	strbuf_release(&x.o);
	strbuf_release(&x.e);
}

/* Without a stdin pipe, stdin is the null device: EOF at once. */
static void test_null_stdin(void **state)
{
	struct out x = { STRBUF_INIT, STRBUF_INIT };
	struct os_proc *p;

	(void)state;
	child_args("cat", NULL);
	assert_int_equal(os_proc_spawn(child_argv, 0, &p), 0);
	assert_int_equal(finish(p, &x), 0);
	assert_string_equal(x.o.buf, "read 0 bytes\n");
	os_proc_free(p);
	strbuf_release(&x.o);
	strbuf_release(&x.e);
}

/* A hard stop: the child (asleep for a minute) ends at once with OS_PROC_KILLED. */
static void test_kill(void **state)
{
	struct out x = { STRBUF_INIT, STRBUF_INIT };
	struct os_proc *p;
	uint64_t t0;

	(void)state;
	child_args("sleep", NULL);
	assert_int_equal(os_proc_spawn(child_argv, OS_PROC_STDIN_PIPE | OS_PROC_OWN_GROUP |
				       OS_PROC_DIE_WITH_PARENT, &p), 0);
	for (int i = 0; i < 100 && !strstr(x.o.buf, "asleep"); i++) {
		int st;

		assert_int_equal(os_proc_poll(p, 100, on_out, &x, &st), 0);
	}
	assert_non_null(strstr(x.o.buf, "asleep"));
	t0 = now_ns();
	assert_int_equal(os_proc_kill(p), 0);
	assert_int_equal(finish(p, &x), OS_PROC_KILLED);
	assert_true(now_ns() - t0 < 10 * NSEC_PER_SEC);
	os_proc_free(p);
	strbuf_release(&x.o);
	strbuf_release(&x.e);
}

/* A program that does not exist: refused at the start (Windows) or exit 127 (POSIX: the exec
 * fails in the child, which says so on its stderr). */
static void test_missing_program(void **state)
{
	struct out x = { STRBUF_INIT, STRBUF_INIT };
	const char *argv[] = { "fslab-no-such-program-here", "x", NULL };
	struct os_proc *p = NULL;
	int ret;

	(void)state;
	ret = os_proc_spawn(argv, 0, &p);
	if (ret) {
		assert_int_equal(ret, -ENOENT);
	} else {
		assert_int_equal(finish(p, &x), 127);
		assert_non_null(strstr(x.e.buf, "cannot run fslab-no-such-program-here"));
		os_proc_free(p);
	}
	strbuf_release(&x.o);
	strbuf_release(&x.e);
}

/* ---- the child side ---- */

static volatile int stop_why;

static void on_stop(int why)
{
	if (!stop_why)
		stop_why = why;
}

static int child(int argc, char **argv)
{
	const char *mode = argv[2];

	if (!strcmp(mode, "echo")) {
		for (int i = 3; i < argc; i++) {
			for (const unsigned char *c = (const unsigned char *)argv[i]; *c; c++)
				printf("%02x", *c);
			printf("\n");
		}
		fprintf(stderr, "to stderr\n");
		return 5;
	}
	if (!strcmp(mode, "cat")) {
		size_t n = 0;
		char buf[256];

		while (fread(buf, 1, sizeof(buf), stdin) > 0)
			n++;
		printf("read %zu bytes\n", n);
		return 0;
	}
	if (!strcmp(mode, "sleep")) {
		printf("asleep\n");
		fflush(stdout);
		sleep_until_ns(now_ns() + 60 * NSEC_PER_SEC);
		return 0;
	}
	if (!strcmp(mode, "stop")) {
		uint64_t end = now_ns() + 30 * NSEC_PER_SEC;

		os_stop_handler_set(on_stop);
		if (os_stop_on_stdin_eof())
			return 2;
		printf("waiting\n");
		fflush(stdout);
		while (!stop_why && now_ns() < end)
			sleep_until_ns(now_ns() + 1000 * NSEC_PER_MSEC);
		printf("stopped by %s\n", stop_why ? os_stop_name(stop_why) : "nothing");
		return stop_why == OS_STOP_EOF && os_stdin_eof_seen() ? 3 : 4;
	}
	return 99;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_cases),
		cmocka_unit_test(test_quote_roundtrip),
		cmocka_unit_test(test_cmdline_program),
		cmocka_unit_test(test_spawn_args),
		cmocka_unit_test(test_stdin_eof_stops),
		cmocka_unit_test(test_null_stdin),
		cmocka_unit_test(test_kill),
		cmocka_unit_test(test_missing_program),
	};
	int ret;

	if (argc >= 3 && !strcmp(argv[1], "--proc-child"))
		return child(argc, argv);
	self = os_exe_path();
	if (!self)
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	free(self);
	return ret;
}
