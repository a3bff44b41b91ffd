// SPDX-License-Identifier: MIT
/* path.c: paths as strings (no file system touched: os/files.c has the files). */
#include "lib/path.h"

#include <string.h>

#include "lib/base.h"

char *path_join(const char *a, const char *b)
{
	size_t l = strlen(a);

	if (l && a[l - 1] == '/')
		return xasprintf("%s%s", a, b);
	return xasprintf("%s/%s", a, b);
}
