// SPDX-License-Identifier: MIT
/*
 * test_argv_quote.c: arguments sent to another host's shell arrive as data.  POSIX: the
 * quoted command is run by real shells (sh, and bash when there) printing its argv back.
 * Windows: the command line goes through a model of the receiving side - cmd.exe /c as
 * OpenSSH for Windows starts it (the outer quotes stripped, %VAR% expanded, carets and
 * quotes as cmd.exe reads them, operators refused) and then the C runtime's argument
 * parsing - and must give the same argv.  The words: spaces, quotes, $(...), backquotes, ;,
 * newlines, %VAR%, ^, !, &, |, <, >, backslashes before quotes and at the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/argv_quote.h"
#include "lib/base.h"
#include "os/os.h"
#include "lib/strvec.h"

static const char *const words[] = {
	"plain", "", "two words", "it's", "say \"hi\"", "$(touch /tmp/fslab-pwned)",
	"`touch /tmp/fslab-pwned`", "a; touch /tmp/fslab-pwned", "line1\nline2", "%PATH%",
	"100%", "^caret^", "bang!", "!PATH!", "a & b | c < d > e", "(group)", "C:\\dir\\",
	"C:\\dir\\\\", "back\\\"slash", "\\\\server\\share", "tab\there", "*", "~", "=zsh",
	"$HOME", "--label=x y", "é ü 漢字", "'", "\"", "\\", "\\\"", "-", "a\\b\"c\\\\\"d",
};

/* ---- POSIX: real shells ---- */

static void sh_round_trip(const char *shell)
{
	struct strbuf cmd = STRBUF_INIT;
	const char *argv[ARRAY_SIZE(words) + 3];
	char *out = NULL;
	size_t n = 0;

	argv[n++] = "printf";
	argv[n++] = "%s\\0";
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		argv[n++] = words[i];
	argv[n] = NULL;
	strbuf_addstr(&cmd, "exec ");
	argv_quote_sh(&cmd, argv);
	{
		const char *run[] = { shell, "-c", cmd.buf, NULL };
		size_t off = 0;

		remove("/tmp/fslab-pwned");
		assert_int_equal(os_run(run, &out), 0);
		for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
			if (strcmp(out + off, words[i]))
				fail_msg("%s: word %zu came back as '%s', sent '%s'", shell, i, out + off,
					 words[i]);
			off += strlen(words[i]) + 1;
		}
		assert_int_not_equal(access("/tmp/fslab-pwned", F_OK), 0);
	}
	free(out);
	strbuf_release(&cmd);
}

static void test_posix_shells(void **state)
{
	(void)state;
	sh_round_trip("/bin/sh");
	if (!access("/bin/bash", X_OK))
		sh_round_trip("/bin/bash");
	if (!access("/bin/zsh", X_OK) || !access("/usr/bin/zsh", X_OK))
		sh_round_trip(!access("/bin/zsh", X_OK) ? "/bin/zsh" : "/usr/bin/zsh");
}

/* ---- Windows: cmd.exe /c, then the C runtime ---- */

/* %NAME% of a defined variable replaced (cmd.exe's first phase); undefined ones stay */
static void expand_vars(struct strbuf *out, const char *s)
{
	static const char *const env[][2] = {
		{ "PATH", "C:\\Windows" }, { "OS", "Windows_NT" }, { "USERPROFILE", "C:\\Users\\a" },
	};

	for (const char *p = s; *p; p++) {
		const char *end = *p == '%' ? strchr(p + 1, '%') : NULL;
		size_t i;

		if (!end) {
			strbuf_addch(out, *p);
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(env); i++)
			if (strlen(env[i][0]) == (size_t)(end - p - 1) &&
			    !strncmp(env[i][0], p + 1, (size_t)(end - p - 1)))
				break;
		if (i < ARRAY_SIZE(env)) {
			strbuf_addstr(out, env[i][1]);
			p = end;
		} else {
			/* left as it is; the scan goes on at the second % */
			strbuf_add(out, p, (size_t)(end - p));
			p = end - 1;
		}
	}
}

/*
 * What cmd.exe /c passes on for `"cmd.exe" /c "LINE"` (OpenSSH for Windows, w32-doexec.c):
 * more than two quotes, so the first and the last quote of the line are stripped; %VAR%
 * expanded; then outside quotes '^' escapes the next character (removed) and an unescaped
 * operator would end or redirect the command (refused here); an unescaped quote switches
 * quoting.  Returns the program's command line, or NULL when cmd.exe would not pass it.
 */
static char *cmd_exe(const char *line)
{
	struct strbuf in = STRBUF_INIT, exp = STRBUF_INIT, out = STRBUF_INIT;
	const char *last;
	bool quoted = false;

	strbuf_addf(&in, "\"%s\"", line);
	last = strrchr(in.buf, '"');
	strbuf_add(&exp, in.buf + 1, (size_t)(last - in.buf - 1));
	strbuf_addstr(&exp, last + 1);
	strbuf_reset(&in);
	expand_vars(&in, exp.buf);
	for (const char *p = in.buf; *p; p++) {
		if (*p == '"') {
			quoted = !quoted;
		} else if (!quoted && *p == '^') {
			p++;
			if (!*p)
				break;
		} else if (!quoted && strchr("&|<>()\n", *p)) {
			strbuf_release(&in);
			strbuf_release(&exp);
			strbuf_release(&out);
			return NULL;
		}
		strbuf_addch(&out, *p);
	}
	strbuf_release(&in);
	strbuf_release(&exp);
	return strbuf_detach(&out, NULL);
}

/* The C runtime's argv (2008 rules): argv[0] up to the next quote or blank; then arguments
 * split at blanks outside quotes, 2n backslashes + '"' = n and a quote switch, 2n+1 + '"' =
 * n and a '"', "" inside quotes a literal '"'. */
static void crt_argv(const char *s, struct strvec *v)
{
	struct strbuf a = STRBUF_INIT;
	const char *p = s;

	if (*p == '"') {
		const char *q = strchr(p + 1, '"');

		strbuf_add(&a, p + 1, q ? (size_t)(q - p - 1) : strlen(p + 1));
		p = q ? q + 1 : p + strlen(p);
	} else {
		while (*p && *p != ' ' && *p != '\t')
			strbuf_addch(&a, *p++);
	}
	strvec_push(v, a.buf);
	for (;;) {
		bool quoted = false;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		strbuf_reset(&a);
		while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
			size_t bs = 0;

			while (*p == '\\') {
				bs++;
				p++;
			}
			if (*p == '"') {
				for (size_t i = 0; i < bs / 2; i++)
					strbuf_addch(&a, '\\');
				if (bs % 2) {
					strbuf_addch(&a, '"');
				} else if (quoted && p[1] == '"') {
					strbuf_addch(&a, '"');
					p++;
				} else {
					quoted = !quoted;
				}
				p++;
				continue;
			}
			for (size_t i = 0; i < bs; i++)
				strbuf_addch(&a, '\\');
			if (*p)
				strbuf_addch(&a, *p++);
		}
		strvec_push(v, a.buf);
	}
	strbuf_release(&a);
}

static void test_windows_cmd(void **state)
{
	const char *argv[ARRAY_SIZE(words) + 2];
	struct strbuf line = STRBUF_INIT;
	struct strvec got = STRVEC_INIT;
	const char *why = NULL;
	size_t n = 0;
	char *passed;

	(void)state;
	argv[n++] = "C:\\Program Files\\fslab\\fslab.exe";
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strchr(words[i], '\n'))
			argv[n++] = words[i];
	argv[n] = NULL;
	assert_int_equal(argv_quote_cmd(&line, argv, &why), 0);
	passed = cmd_exe(line.buf);
	if (!passed)
		fail_msg("cmd.exe would see an operator in: %s", line.buf);
	crt_argv(passed, &got);
	assert_int_equal(got.nr, n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(got.v[i], argv[i]))
			fail_msg("argument %zu came back as '%s', sent '%s' (line %s)", i, got.v[i],
				 argv[i], line.buf);
	free(passed);
	strbuf_release(&line);
	strvec_clear(&got);
}

/* What cmd.exe cannot carry is refused, and nothing is appended. */
static void test_windows_refusals(void **state)
{
	struct strbuf line = STRBUF_INIT;
	const char *why = NULL;
	char big[9000];

	(void)state;
	strbuf_addstr(&line, "keep");
	assert_int_equal(argv_quote_cmd(&line, (const char *[]){ "fslab.exe", "a\nb", NULL }, &why),
			 -EINVAL);
	assert_non_null(strstr(why, "line break"));
	assert_int_equal(argv_quote_cmd(&line, (const char *[]){ "fslab.exe", "a\rb", NULL }, &why),
			 -EINVAL);
	assert_int_equal(argv_quote_cmd(&line, (const char *[]){ "C:\\a&b\\fslab.exe", NULL }, &why),
			 -EINVAL);
	assert_int_equal(argv_quote_cmd(&line, (const char *[]){ "C:\\\"x\".exe", NULL }, &why),
			 -EINVAL);
	assert_int_equal(argv_quote_cmd(&line, (const char *[]){ "", NULL }, &why), -EINVAL);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	assert_int_equal(argv_quote_cmd(&line, (const char *[]){ "fslab.exe", big, NULL }, &why),
			 -EINVAL);
	assert_string_equal(line.buf, "keep");
	/* what is sent, exactly (docs/HOSTS.md shows this line) */
	strbuf_reset(&line);
	assert_int_equal(argv_quote_cmd(&line, (const char *[]){ "C:\\fslab\\fslab.exe", "run",
			 "--label=ntfs 50%", "--db=D:\\db\\", NULL }, &why), 0);
	assert_string_equal(line.buf, "\"C:\\fslab\\fslab.exe\" ^\"run^\" ^\"--label=ntfs 50^%^\" "
			    "^\"--db=D:\\db\\\\^\"");
	strbuf_release(&line);
}

static void test_sh_quote_words(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	argv_quote_sh(&sb, (const char *[]){ "fslab", "run", "--db=/mnt/a b", "it's", "=x", "",
					     NULL });
	assert_string_equal(sb.buf, "fslab run '--db=/mnt/a b' 'it'\\''s' '=x' ''");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_posix_shells),
		cmocka_unit_test(test_windows_cmd),
		cmocka_unit_test(test_windows_refusals),
		cmocka_unit_test(test_sh_quote_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
