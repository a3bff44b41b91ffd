// SPDX-License-Identifier: MIT
/* share.c: the files fslab reads beside its binary, found the same way installed or not. */
#include "os/share.h"

#include <stdbool.h>
#include <stdlib.h>

#include "lib/base.h"
#include "os/files.h"
#include "os/os.h"

static bool is_file(const char *dir, const char *name)
{
	char *p = name ? path_join(dir, name) : xstrdup(dir);
	int kind;
	bool ok = !os_stat(p, &kind, NULL) && kind == OS_KIND_FILE;

	free(p);
	return ok;
}

char *share_find(const char *rel, const char *probe)
{
	static const char *const bases[] = { "", "../share/fslab" };
	char *exe = os_exe_dir(), *found = NULL;

	for (size_t i = 0; exe && !found && i < ARRAY_SIZE(bases); i++) {
		char *base = *bases[i] ? path_join(exe, bases[i]) : xstrdup(exe);
		char *p = path_join(base, rel);

		if (is_file(p, probe))
			found = p;
		else
			free(p);
		free(base);
	}
	free(exe);
	return found;
}
