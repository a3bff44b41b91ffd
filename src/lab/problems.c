// SPDX-License-Identifier: MIT
/* problems.c: what the preflight's parts share (preflight.c, its per-system parts,
 * prepared.c): a problem said and counted, a path's nearest existing ancestor. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"

/* The nearest existing ancestor of path (for checks before it exists). */
char *lab_existing_ancestor(const char *path)
{
	char *p = xstrdup(path);

	while (os_stat(p, NULL, NULL)) {
		char *a = strrchr(p, '/'), *b = strrchr(p, '\\'), *slash = a > b ? a : b;

		if (!slash || slash == p) {
			free(p);
			return xstrdup(slash == p ? "/" : ".");
		}
		*slash = 0;
	}
	return p;
}

void lab_problem(struct problems *p, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fslab_err("preflight: %s", buf);
	p->n++;
}
