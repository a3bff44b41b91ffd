// SPDX-License-Identifier: MIT
/* strvec.c: the growable NULL-terminated string array of strvec.h (git's strvec). */
#include "lib/strvec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/base.h"
#include "lib/strbuf.h"

const char *empty_strvec[] = { NULL };

void strvec_init(struct strvec *sv)
{
	sv->v = empty_strvec;
	sv->nr = sv->alloc = 0;
}

/* Append s, which sv now owns. */
static const char *push_nodup(struct strvec *sv, char *s)
{
	if (sv->nr + 2 > sv->alloc) {
		size_t n = MAX(sv->nr + 2, (sv->alloc + 16) * 3 / 2);

		if (n > SIZE_MAX / sizeof(*sv->v)) {
			fprintf(stderr, "fslab: error: string array overflow (%zu entries)\n", n);
			abort();
		}
		sv->v = xrealloc(sv->alloc ? sv->v : NULL, n * sizeof(*sv->v));
		sv->alloc = n;
	}
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
	return s;
}

const char *strvec_push(struct strvec *sv, const char *s)
{
	return push_nodup(sv, xstrdup(s));
}

const char *strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return push_nodup(sv, strbuf_detach(&sb, NULL));
}

void strvec_pushl(struct strvec *sv, ...)
{
	const char *s;
	va_list ap;

	va_start(ap, sv);
	while ((s = va_arg(ap, const char *)))
		strvec_push(sv, s);
	va_end(ap);
}

void strvec_pushv(struct strvec *sv, const char *const *items)
{
	for (; *items; items++)
		strvec_push(sv, *items);
}

void strvec_pop(struct strvec *sv)
{
	if (!sv->nr)
		return;
	free((char *)sv->v[--sv->nr]);
	sv->v[sv->nr] = NULL;
}

void strvec_clear(struct strvec *sv)
{
	if (sv->alloc) {
		for (size_t i = 0; i < sv->nr; i++)
			free((char *)sv->v[i]);
		free(sv->v);
	}
	strvec_init(sv);
}

const char **strvec_detach(struct strvec *sv)
{
	const char **v;

	if (!sv->alloc) {
		v = xcalloc(1, sizeof(*v));
	} else {
		v = sv->v;
	}
	strvec_init(sv);
	return v;
}
