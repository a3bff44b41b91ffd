// SPDX-License-Identifier: MIT
/* msg.c: messages for the user on stderr, one line each, written at once. */
#include "msg.h"

#include <stdarg.h>
#include <stdio.h>

#include "base.h"
#include "strbuf.h"

static bool quiet;

void fslab_set_quiet(bool q)
{
	quiet = q;
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "fslab: ");
	strbuf_addstr(&sb, prefix);
	strbuf_vaddf(&sb, fmt, ap);
	strbuf_addch(&sb, '\n');
	/* One write, so concurrent messages do not interleave mid-line; flushed at once, since
	 * mingw's C runtime buffers stderr when it is not a console (a log file, a pipe). */
	fwrite(sb.buf, 1, sb.len, stderr);
	fflush(stderr);
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
