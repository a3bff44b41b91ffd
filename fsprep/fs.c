// SPDX-License-Identifier: MIT
/*
 * fs.c: the table of filesystems prep knows, and lookups in it.  Each filesystem is one
 * descriptor in its own fs_<name>.c (tool, package, --cluster rules, mkfs options builder,
 * verifier, mount type and options); adding one is that file plus one line in fs_all[].
 */
#include <stdio.h>
#include <string.h>

#include "fsprep/prep.h"
#include "fsprep/prepP.h"

/* Fixed order: --fs help, fs_desc_names() and the lab list them in it. */
static const struct fs_desc *const fs_all[] = {
	&fs_ext4,
	&fs_xfs,
	&fs_ntfs,
	&fs_btrfs,
	&fs_raw,
};

size_t fs_desc_count(void)
{
	return ARRAY_SIZE(fs_all);
}

const struct fs_desc *fs_desc_at(size_t i)
{
	return i < ARRAY_SIZE(fs_all) ? fs_all[i] : NULL;
}

const struct fs_desc *fs_desc_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(fs_all); i++)
		if (!strcmp(fs_all[i]->name, name))
			return fs_all[i];
	return NULL;
}

const char *fs_desc_names(void)
{
	/* Built on first use; prep is single-threaded, and a second build writes the same. */
	static char names[ARRAY_SIZE(fs_all) * 16 + 1];

	if (!names[0]) {
		size_t len = 0;

		for (size_t i = 0; i < ARRAY_SIZE(fs_all) && len < sizeof(names); i++)
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						i ? ", " : "", fs_all[i]->name);
	}
	return names;
}

bool prep_fs_known(const char *fs)
{
	const struct fs_desc *d = fs_desc_find(fs);

	return d && !fs_is_raw(d);
}

const char *prep_fs_names(void)
{
	static char names[ARRAY_SIZE(fs_all) * 16 + 1];

	if (!names[0]) {
		size_t len = 0;

		for (size_t i = 0; i < ARRAY_SIZE(fs_all) && len < sizeof(names); i++)
			if (!fs_is_raw(fs_all[i]))
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
							len ? ", " : "", fs_all[i]->name);
	}
	return names;
}

const char *prep_fs_missing_tool(const char *fs, const char **package)
{
	const struct fs_desc *d = fs_desc_find(fs);

	if (!d || fs_is_raw(d))
		return NULL;
	*package = d->package;
	if (d->mkfs && !have_program(d->mkfs))
		return d->mkfs;
	if (d->mount_helper && !have_program(d->mount_helper))
		return d->mount_helper;
	return NULL;
}
