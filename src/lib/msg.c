// SPDX-License-Identifier: MIT
/* msg.c: messages for the user on stderr, one line each, written at once, what they quote
 * escaped. */
#include "lib/msg.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/base.h"
#include "lib/strbuf.h"

static bool quiet;

void fslab_set_quiet(bool q)
{
	quiet = q;
}

size_t utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0; /* a continuation byte, an overlong lead (c0, c1) or beyond f4 */
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* cut short (the NUL ends it too) */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0; /* overlong, beyond Unicode, or a UTF-16 surrogate */
	return n;
}

/* The escaped form of s appended to sb (str_escape()); keep_nl keeps newlines (a message that
 * quotes a tool's output). */
static void escape_into(struct strbuf *sb, const char *s, bool keep_nl)
{
	static const char hex[] = "0123456789abcdef";

	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = utf8_len(s);
		/* C1 controls (U+0080..U+009F) are c2 80..c2 9f in UTF-8: CSI, OSC, ... */
		bool c1 = n == 2 && c == 0xc2 && (unsigned char)s[1] < 0xa0;

		if (n == 1 && (c >= 0x20 || (c == '\n' && keep_nl)) && c != 0x7f) {
			strbuf_addch(sb, *s++);
		} else if (n > 1 && !c1) {
			strbuf_add(sb, s, n);
			s += n;
		} else if (n == 1 && strchr("\n\r\t", c)) {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
			s++;
		} else {
			/* a control, DEL, each byte of a C1 control, a byte that is not UTF-8 */
			for (size_t i = 0; i < (n ? n : 1); i++, s++) {
				strbuf_addch(sb, '\\');
				strbuf_addch(sb, 'x');
				strbuf_addch(sb, hex[(unsigned char)*s >> 4]);
				strbuf_addch(sb, hex[(unsigned char)*s & 15]);
			}
		}
	}
}

char *str_escape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_grow(&sb, strlen(s));
	escape_into(&sb, s, false);
	return strbuf_detach(&sb, NULL);
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf text = STRBUF_INIT, sb = STRBUF_INIT;

	strbuf_vaddf(&text, fmt, ap);
	strbuf_addstr(&sb, "fslab: ");
	strbuf_addstr(&sb, prefix);
	/*
	 * Messages quote input (file names, fields of result files and reports): what a terminal
	 * would act on (ESC sequences, OSC 52, C1 controls, CR) is shown escaped, never sent; a
	 * newline too, unless the message's own format has one (a tool's output quoted whole).
	 */
	escape_into(&sb, text.buf, strchr(fmt, '\n'));
	strbuf_addch(&sb, '\n');
	/* One write, so concurrent messages do not interleave mid-line; flushed at once, since
	 * mingw's C runtime buffers stderr when it is not a console (a log file, a pipe). */
	fwrite(sb.buf, 1, sb.len, stderr);
	fflush(stderr);
	strbuf_release(&text);
	strbuf_release(&sb);
}

void fslab_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void fslab_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void fslab_info(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

int input_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
	return -FSLAB_EINPUT;
}
