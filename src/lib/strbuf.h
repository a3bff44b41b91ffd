/* SPDX-License-Identifier: MIT */
/*
 * strbuf.h: a growable byte string (git's strbuf.h shape): any bytes, NUL included, with a
 * NUL always kept after them so .buf is a C string whenever the content has no NUL.
 *
 *	struct strbuf sb = STRBUF_INIT;
 *
 *	strbuf_addf(&sb, "%s/%s.json", dir, id);
 *	use(sb.buf);
 *	strbuf_release(&sb);
 *
 * Invariants: .buf is never NULL (an empty strbuf points at a shared empty string, so a
 * fresh one needs no allocation), .buf[.len] == '\0', .len < .alloc once anything was added.
 * Allocation cannot fail (xrealloc aborts with a message), and a size that would wrap
 * size_t aborts the same way.
 */
#ifndef FSLAB_STRBUF_H
#define FSLAB_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/base.h"

struct strbuf {
	size_t alloc; /* bytes allocated for .buf; 0 while it is the shared empty string */
	size_t len;   /* bytes of content, not counting the NUL after them */
	char *buf;
};

/* The shared empty string of every empty strbuf: never written (strbuf_grow() leaves it). */
extern char strbuf_slopbuf[];
#define STRBUF_INIT { .alloc = 0, .len = 0, .buf = strbuf_slopbuf }

/* An empty strbuf with room for hint bytes (0: no allocation yet). */
void strbuf_init(struct strbuf *sb, size_t hint);
/* Free the content; sb is empty again (and may be used again). */
void strbuf_release(struct strbuf *sb);
/*
 * strbuf_detach - hand over the content: a NUL-terminated heap string the caller frees (an
 * empty strbuf gives a freshly allocated ""), its length in *len when len is not NULL.  sb is
 * empty again.
 */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* strbuf_detach(), or NULL (and sb released) when sb is empty: for "nothing to say". */
char *strbuf_detach_or_null(struct strbuf *sb);
/* Room for at least extra more bytes (and the NUL) without another allocation. */
void strbuf_grow(struct strbuf *sb, size_t extra);

/* Bytes that can be added before the next allocation. */
static inline size_t strbuf_avail(const struct strbuf *sb)
{
	return sb->alloc ? sb->alloc - sb->len - 1 : 0;
}

/* Cut (or, after writing into strbuf_avail() bytes, extend) the content to len bytes. */
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen(sb, 0)

/* Append len bytes of data (any bytes, NUL included). */
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
/* Append a C string. */
void strbuf_addstr(struct strbuf *sb, const char *s);
/* Append one byte. */
void strbuf_addch(struct strbuf *sb, int c);
/* Append sep unless sb is empty: before each item of a list ("a, b, c"). */
static inline void strbuf_add_sep(struct strbuf *sb, const char *sep)
{
	if (sb->len)
		strbuf_addstr(sb, sep);
}
/* Append item, the i-th of n items of a list, after sep (last before the last one): "a, b or
 * c" made from a table in one loop. */
static inline void strbuf_add_item(struct strbuf *sb, size_t i, size_t n, const char *sep,
				   const char *last, const char *item)
{
	if (i)
		strbuf_addstr(sb, i + 1 < n ? sep : last);
	strbuf_addstr(sb, item);
}
/* Append the content of another strbuf (sb2 may not be sb). */
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *sb2);
/* Append printf-formatted text. */
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __printf(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/*
 * strbuf_add_sq - append s quoted for a POSIX shell when it needs it (git's
 * sq_quote_buf_pretty): as it is when it is not empty and has only letters, digits and
 * "-_./=:,+@%^" (characters no POSIX shell treats specially), else in single quotes, each '
 * written as '\''.  Any bytes but NUL: a newline, "$(...)" or a backquote inside single quotes
 * is literal.  fslab's one shell quoter: the commands printed for the user to paste (how to
 * resume a lab, the lab's --dry-run) and recorded (prep.json's mkfs command).
 */
void strbuf_add_sq(struct strbuf *sb, const char *s);

/*
 * strbuf_add_argv_sq - the words of a NULL-terminated argv, each through strbuf_add_sq(),
 * separated by one blank: a command line a POSIX shell reads back into the same argv (git's
 * sq_quote_argv), for commands printed for the user and recorded (prep.json's mkfs command).
 */
void strbuf_add_argv_sq(struct strbuf *sb, const char *const *argv);

/*
 * strbuf_add_wrapped - append @text as a paragraph: its words (separated by blanks, kept as
 * they are: two after a full stop stay two) fill lines up to @width columns, the first line
 * going on from column @col (where the caller's text ends), every further line indented by
 * @indent blanks; a '\n' in @text starts a new line.  Adds no final newline.  For help texts
 * holding a list made from a table.
 */
void strbuf_add_wrapped(struct strbuf *sb, const char *text, size_t col, size_t indent,
			size_t width);

/* strbuf_read_fd - append everything read from fd up to its end (EINTR retried); the bytes
 * added, or -errno (what was read before the error stays). */
ssize_t strbuf_read_fd(struct strbuf *sb, int fd);
/* strbuf_read_stream - append everything read from f up to its end; 0 or -errno. */
int strbuf_read_stream(struct strbuf *sb, FILE *f);

#endif
