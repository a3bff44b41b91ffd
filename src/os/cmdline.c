// SPDX-License-Identifier: MIT
/*
 * cmdline.c: an argv as one Windows command line.  Windows hands a process one string;
 * the C runtime's startup code (and CommandLineToArgvW) splits it back into argv by the
 * MSVCRT rules: whitespace separates arguments outside quotes, 2n backslashes before a quote
 * are n backslashes and the quote delimits, 2n+1 are n backslashes and a literal quote,
 * backslashes anywhere else are literal.  The program name (argv[0]) follows a simpler rule:
 * up to the next quote when it starts with one, else up to whitespace, with no escapes.
 * Pure string work, built and tested on both systems (tests/unit/test_proc.c); win32.c's
 * CreateProcessW and the step runner's Windows hosts (issue 20) use it.
 */
#include <errno.h>
#include <string.h>

#include "os/os.h"
#include "strbuf.h"

/* Characters that make an argument need quotes (space and tab split; the rest to be safe). */
static const char special[] = " \t\n\v\"";

void os_win_quote_arg(struct strbuf *sb, const char *arg)
{
	if (*arg && !strpbrk(arg, special)) {
		strbuf_addstr(sb, arg);
		return;
	}
	strbuf_addch(sb, '"');
	for (const char *p = arg;; p++) {
		size_t bs = 0;

		while (*p == '\\') {
			p++;
			bs++;
		}
		if (!*p) {
			/* backslashes before the closing quote: doubled, or they would escape it */
			for (size_t i = 0; i < 2 * bs; i++)
				strbuf_addch(sb, '\\');
			break;
		}
		if (*p == '"') {
			/* each backslash doubled, then one more for the quote itself */
			for (size_t i = 0; i < 2 * bs + 1; i++)
				strbuf_addch(sb, '\\');
		} else {
			for (size_t i = 0; i < bs; i++)
				strbuf_addch(sb, '\\');
		}
		strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '"');
}

int os_win_cmdline(struct strbuf *sb, const char *const argv[])
{
	if (!argv[0] || !*argv[0] || strchr(argv[0], '"'))
		return -EINVAL; /* a program name cannot hold a quote: it has no escape */
	if (strpbrk(argv[0], " \t")) {
		strbuf_addch(sb, '"');
		strbuf_addstr(sb, argv[0]);
		strbuf_addch(sb, '"');
	} else {
		strbuf_addstr(sb, argv[0]);
	}
	for (size_t i = 1; argv[i]; i++) {
		strbuf_addch(sb, ' ');
		os_win_quote_arg(sb, argv[i]);
	}
	return 0;
}
