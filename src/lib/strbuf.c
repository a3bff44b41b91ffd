// SPDX-License-Identifier: MIT
/* strbuf.c: the growable byte string of strbuf.h (git's strbuf, the parts fslab uses). */
#include "lib/strbuf.h"
#include "lib/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char strbuf_slopbuf[1];

/* a + b, or a message and abort when it wraps: a size never silently becomes small */
static size_t st_add(size_t a, size_t b)
{
	size_t r;

	if (__builtin_add_overflow(a, b, &r)) {
		fprintf(stderr, "fslab: error: string size overflow (%zu + %zu)\n", a, b);
		abort();
	}
	return r;
}

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *s;

	if (len)
		*len = sb->len;
	if (!sb->alloc)
		strbuf_grow(sb, 0); /* the caller frees what it gets: never the shared "" */
	s = sb->buf;
	strbuf_init(sb, 0);
	return s;
}

char *strbuf_detach_or_null(struct strbuf *sb)
{
	if (!sb->len) {
		strbuf_release(sb);
		return NULL;
	}
	return strbuf_detach(sb, NULL);
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = st_add(st_add(sb->len, extra), 1);
	bool fresh = !sb->alloc;

	if (need <= sb->alloc)
		return;
	/* git's alloc_nr(): one and a half times, so n appends cost O(n) copies in all */
	sb->alloc = MAX(need, sb->alloc < SIZE_MAX / 3 ? (sb->alloc + 16) * 3 / 2 : need);
	sb->buf = xrealloc(fresh ? NULL : sb->buf, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) {
		/* only an empty strbuf has no allocation: nothing to cut */
		if (len)
			strbuf_grow(sb, len);
		else
			return;
	}
	if (len >= sb->alloc) {
		fprintf(stderr, "fslab: error: strbuf_setlen(%zu) past its allocation (%zu)\n",
			len, sb->alloc);
		abort();
	}
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;

	strbuf_add(sb, &ch, 1);
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *sb2)
{
	strbuf_add(sb, sb2->buf, sb2->len);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	/* try the room there is; when it is too small, grow once to the exact size */
	va_copy(cp, ap);
	n = vsnprintf(sb->alloc ? sb->buf + sb->len : NULL, sb->alloc ? strbuf_avail(sb) + 1 : 0,
		      fmt, cp);
	va_end(cp);
	if (n < 0) {
		fprintf(stderr, "fslab: error: bad format string '%s'\n", fmt);
		abort();
	}
	if ((size_t)n > strbuf_avail(sb)) {
		strbuf_grow(sb, (size_t)n);
		va_copy(cp, ap);
		n = vsnprintf(sb->buf + sb->len, strbuf_avail(sb) + 1, fmt, cp);
		va_end(cp);
	}
	strbuf_setlen(sb, sb->len + (size_t)n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_add_sq(struct strbuf *sb, const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789-_./=:,+@%^";

	/* a word starting with '=' is a command lookup in zsh (EQUALS): quoted */
	if (*s && *s != '=' && strspn(s, safe) == strlen(s)) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '\'');
}

void strbuf_add_argv_sq(struct strbuf *sb, const char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strbuf_addch(sb, ' ');
		strbuf_add_sq(sb, argv[i]);
	}
}

ssize_t strbuf_read_fd(struct strbuf *sb, int fd)
{
	size_t start = sb->len;

	for (;;) {
		ssize_t n;

		strbuf_grow(sb, 8192);
		n = read(fd, sb->buf + sb->len, strbuf_avail(sb));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return (ssize_t)(sb->len - start);
		strbuf_setlen(sb, sb->len + (size_t)n);
	}
}

int strbuf_read_stream(struct strbuf *sb, FILE *f)
{
	for (;;) {
		size_t n;

		strbuf_grow(sb, 65536);
		n = fread(sb->buf + sb->len, 1, strbuf_avail(sb), f);
		strbuf_setlen(sb, sb->len + n);
		if (n == 0)
			return ferror(f) ? (errno ? -errno : -EIO) : 0;
	}
}

void strbuf_add_wrapped(struct strbuf *sb, const char *text, size_t col, size_t indent,
			size_t width)
{
	const char *p = text;
	bool first = true;

	while (*p) {
		size_t gap = strspn(p, " "), len;

		if (p[gap] == '\n') {
			strbuf_addch(sb, '\n');
			strbuf_addf(sb, "%*s", (int)indent, "");
			col = indent;
			first = true;
			p += gap + 1;
			continue;
		}
		if (!p[gap])
			break;
		len = strcspn(p + gap, " \n");
		if (first) {
			gap = 0;
		} else if (col + gap + len > width) {
			strbuf_addch(sb, '\n');
			strbuf_addf(sb, "%*s", (int)indent, "");
			col = indent;
			gap = 0;
		}
		strbuf_addf(sb, "%*s%.*s", (int)gap, "", (int)len, p + strspn(p, " "));
		col += gap + len;
		first = false;
		p += strspn(p, " ") + len;
	}
}
