/* SPDX-License-Identifier: MIT */
/*
 * strvec.h: a growable NULL-terminated array of strings (git's strvec.h shape), for argv of
 * child processes and lists of names without a fixed cap.
 *
 *	struct strvec args = STRVEC_INIT;
 *
 *	strvec_pushl(&args, "compare", "--force", NULL);
 *	strvec_pushf(&args, "--output=%s", dir);
 *	run(args.v);
 *	strvec_clear(&args);
 *
 * Invariants: .v is never NULL and .v[.nr] is always NULL, so .v can be passed as argv at any
 * time.  The strvec owns its strings: every push copies (strvec_pushf formats into a copy).
 * Allocation cannot fail (aborts with a message), and no count has a cap.
 */
#ifndef FSLAB_STRVEC_H
#define FSLAB_STRVEC_H

#include <stddef.h>

#include "lib/base.h"

/* The shared empty array of every empty strvec (never written). */
extern const char *empty_strvec[];

struct strvec {
	const char **v;
	size_t nr;    /* strings in v, not counting the NULL after them */
	size_t alloc; /* slots allocated for v; 0 while it is empty_strvec */
};

#define STRVEC_INIT { .v = empty_strvec, .nr = 0, .alloc = 0 }

void strvec_init(struct strvec *sv);
/* Append a copy of s; returns the copy (owned by sv). */
const char *strvec_push(struct strvec *sv, const char *s);
/* Append printf-formatted text; returns it (owned by sv). */
const char *strvec_pushf(struct strvec *sv, const char *fmt, ...) __printf(2, 3);
/* Append copies of every argument up to a NULL. */
void strvec_pushl(struct strvec *sv, ...) __attribute__((sentinel));
/* Append copies of every string of a NULL-terminated array. */
void strvec_pushv(struct strvec *sv, const char *const *items);
/* Remove (and free) the last string; nothing when empty. */
void strvec_pop(struct strvec *sv);
/* Free everything; sv is empty again (and may be used again). */
void strvec_clear(struct strvec *sv);
/*
 * strvec_detach - hand over the array: NULL-terminated, heap allocated (an empty strvec gives
 * a fresh { NULL }); the caller frees each string and then the array.  sv is empty again.
 */
const char **strvec_detach(struct strvec *sv);

#endif
