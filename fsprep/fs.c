// SPDX-License-Identifier: MIT
/*
 * fs.c: the table of filesystems prep knows, and lookups in it.  Each filesystem is one
 * descriptor in its own fs_<name>.c (tool, package, --cluster rules, mkfs options builder,
 * verifier, mount type and options); adding one is that file plus one line in fs_all[].
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "base.h"
#include "fsprep/prep.h"
#include "fsprep/prepP.h"
#include "os/os.h"
#include "strbuf.h"

/* Fixed order: --fs help, fs_names() and the lab list them in it. */
static const struct fs_desc *const fs_all[] = {
	&fs_ext4,
	&fs_xfs,
	&fs_ntfs,
	&fs_ntfs3,
	&fs_btrfs,
	&fs_raw,
};

size_t fs_count(void)
{
	return ARRAY_SIZE(fs_all);
}

const struct fs_desc *fs_at(size_t i)
{
	return i < ARRAY_SIZE(fs_all) ? fs_all[i] : NULL;
}

const struct fs_desc *fs_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(fs_all); i++)
		if (!strcmp(fs_all[i]->name, name))
			return fs_all[i];
	return NULL;
}

const char *fs_names(void)
{
	/* Built on first use; prep is single-threaded. */
	static struct strbuf names = STRBUF_INIT;

	if (!names.len)
		for (size_t i = 0; i < ARRAY_SIZE(fs_all); i++)
			strbuf_addf(&names, "%s%s", i ? ", " : "", fs_all[i]->name);
	return names.buf;
}

bool prep_fs_known(const char *fs)
{
	const struct fs_desc *d = fs_find(fs);

	return d && !fs_is_raw(d);
}

char *prep_mkfs_opts_problem(const char *fs, const char *opts)
{
	const struct fs_desc *d = fs_find(fs);

	return d && d->mkfs && opts ? mkfs_opts_problem(d->syntax, d->mkfs, opts) : NULL;
}

const char *prep_fs_names(void)
{
	static struct strbuf names = STRBUF_INIT;

	if (!names.len)
		for (size_t i = 0; i < ARRAY_SIZE(fs_all); i++)
			if (!fs_is_raw(fs_all[i]))
				strbuf_addf(&names, "%s%s", names.len ? ", " : "", fs_all[i]->name);
	return names.buf;
}

/* a line of @path equal to @word (/proc/filesystems: "nodev\tname" or "\tname"), or a
 * modules.dep line whose module file is @word.ko[.xz|.zst|.gz] */
static bool file_lists(const char *path, const char *word, bool module)
{
	char line[512];
	bool found = false;
	size_t n = strlen(word);
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *s = line;

		if (module) {
			char *colon = strchr(line, ':'), *slash;

			if (!colon)
				continue;
			*colon = '\0';
			slash = strrchr(line, '/');
			s = slash ? slash + 1 : line;
			found = !strncmp(s, word, n) && !strncmp(s + n, ".ko", 3);
		} else {
			s = strrchr(line, '\t');
			s = s ? s + 1 : line;
			s[strcspn(s, "\n")] = '\0';
			found = !strcmp(s, word);
		}
	}
	fclose(f);
	return found;
}

bool fs_kernel_has(const char *name)
{
	struct utsname u;
	char *dep;
	bool ok;

	if (file_lists("/proc/filesystems", name, false))
		return true;
	if (uname(&u))
		return false;
	dep = xasprintf("/lib/modules/%s/modules.dep", u.release);
	ok = file_lists(dep, name, true);
	free(dep);
	return ok;
}

const char *prep_fs_missing_driver(const char *fs)
{
	const struct fs_desc *d = fs_find(fs);

	return d && d->kernel_fs && !fs_kernel_has(d->kernel_fs) ? d->kernel_fs : NULL;
}

const char *prep_fs_missing_tool(const char *fs, const char **package)
{
	const struct fs_desc *d = fs_find(fs);

	if (!d || fs_is_raw(d))
		return NULL;
	*package = d->package;
	if (d->mkfs && !os_have_program(d->mkfs))
		return d->mkfs;
	if (d->mount_helper && !os_have_program(d->mount_helper))
		return d->mount_helper;
	return NULL;
}
