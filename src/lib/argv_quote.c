// SPDX-License-Identifier: MIT
/* argv_quote.c: an argv as one command string: for a POSIX shell, a Windows command line (the
 * C runtime's rules), or that line through cmd.exe (argv_quote.h). */
#include "lib/argv_quote.h"

#include <errno.h>
#include <string.h>

void argv_quote_sh(struct strbuf *out, const char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strbuf_addch(out, ' ');
		strbuf_add_sq(out, argv[i]);
	}
}

/*
 * The Microsoft C runtime's rules (since 2008; CommandLineToArgvW reads quoted arguments the
 * same way): inside "...", 2n backslashes before a '"' are n backslashes and the quote ends
 * the argument, 2n+1 are n backslashes and a literal '"'; backslashes before anything else are
 * literal.  Outside quotes, blanks separate arguments.  An empty argument needs its quotes to
 * stay one; \n and \v are quoted too (the runtime keeps them, some parsers split there).
 */
void argv_quote_win_arg(struct strbuf *out, const char *arg, bool always)
{
	if (!always && *arg && !strpbrk(arg, " \t\n\v\"")) {
		strbuf_addstr(out, arg);
		return;
	}
	strbuf_addch(out, '"');
	for (const char *p = arg;; p++) {
		size_t bs = 0;

		while (*p == '\\') {
			bs++;
			p++;
		}
		if (!*p) {
			/* before the closing quote: each backslash doubled */
			for (size_t i = 0; i < 2 * bs; i++)
				strbuf_addch(out, '\\');
			break;
		}
		if (*p == '"') {
			/* each backslash doubled, then one more for the quote itself */
			for (size_t i = 0; i < 2 * bs + 1; i++)
				strbuf_addch(out, '\\');
		} else {
			for (size_t i = 0; i < bs; i++)
				strbuf_addch(out, '\\');
		}
		strbuf_addch(out, *p);
	}
	strbuf_addch(out, '"');
}

int argv_quote_win(struct strbuf *out, const char *const *argv)
{
	if (!argv[0] || !*argv[0] || strchr(argv[0], '"'))
		return -EINVAL; /* a program name cannot hold a quote: it has no escape */
	if (strpbrk(argv[0], " \t")) {
		strbuf_addch(out, '"');
		strbuf_addstr(out, argv[0]);
		strbuf_addch(out, '"');
	} else {
		strbuf_addstr(out, argv[0]);
	}
	for (size_t i = 1; argv[i]; i++) {
		strbuf_addch(out, ' ');
		argv_quote_win_arg(out, argv[i], false);
	}
	return 0;
}

/* cmd.exe's metacharacters: quotes (which would switch its quoting), variables (%, ! with
 * delayed expansion), the escape itself, redirections, pipes, command separators, groups */
static const char cmd_meta[] = "()%!^\"<>&|";

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 && *s != '\t')
			return 1;
	return 0;
}

int argv_quote_cmd(struct strbuf *out, const char *const *argv, const char **why)
{
	size_t start = out->len;
	struct strbuf arg = STRBUF_INIT;

	if (!argv[0] || !*argv[0]) {
		*why = "no program path";
		return -EINVAL;
	}
	/*
	 * The program path goes in plain quotes: cmd.exe must see them to find a program whose
	 * path has spaces ("C:\Program Files\fslab\fslab.exe"); it then has no character cmd.exe
	 * or the C runtime would treat specially, so nothing in it needs escaping.
	 */
	if (strpbrk(argv[0], cmd_meta) || has_control(argv[0])) {
		*why = "the fslab path of a Windows host may not hold a quote, a control character "
		       "or any of ( ) % ! ^ < > & |";
		return -EINVAL;
	}
	strbuf_addf(out, "\"%s\"", argv[0]);
	for (size_t i = 1; argv[i]; i++) {
		if (has_control(argv[i])) {
			*why = "cmd.exe ends a command at a line break: an argument for a Windows host "
			       "cannot hold a line break or another control character";
			strbuf_setlen(out, start);
			strbuf_release(&arg);
			return -EINVAL;
		}
		strbuf_reset(&arg);
		argv_quote_win_arg(&arg, argv[i], true);
		strbuf_addch(out, ' ');
		for (size_t k = 0; k < arg.len; k++) {
			if (strchr(cmd_meta, arg.buf[k]))
				strbuf_addch(out, '^');
			strbuf_addch(out, arg.buf[k]);
		}
	}
	strbuf_release(&arg);
	if (out->len - start > ARGV_QUOTE_CMD_MAX) {
		*why = "the command is longer than the 8191 characters cmd.exe takes";
		strbuf_setlen(out, start);
		return -EINVAL;
	}
	return 0;
}
