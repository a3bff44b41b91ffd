// SPDX-License-Identifier: MIT
/*
 * fs.c: the table of filesystems fslab knows, on every system, and lookups in it.  Each
 * filesystem is one descriptor in its own fs_<name>.c (its name, quirks as flags, and what
 * each system's prep backend needs: mkfs tool, --cluster rules, verifier, mount on Linux;
 * Format-Volume on Windows); adding one is that file plus one word in FS_TABLE.  Every list
 * of filesystems a user sees is made here from the table.  Portable (fslab.exe has it too),
 * as are the superblock helpers the descriptors' verifiers share.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/prep.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"
#include "lib/strbuf.h"

/* Fixed order: --fs help, the lists in messages and the lab list them in it. */
#define FS_TABLE(X) X(ext4) X(xfs) X(ntfs) X(ntfs3) X(btrfs) X(refs) X(raw)

#define FS_DECLARE(n) extern const struct fs_desc fs_##n;
#define FS_ENTRY(n) &fs_##n,
FS_TABLE(FS_DECLARE)
static const struct fs_desc *const fs_all[] = { FS_TABLE(FS_ENTRY) };

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
	for (size_t i = 0; name && i < ARRAY_SIZE(fs_all); i++)
		if (!strcmp(fs_all[i]->name, name))
			return fs_all[i];
	return NULL;
}

bool fs_flag(const char *name, unsigned int flag)
{
	const struct fs_desc *d = fs_find(name);

	return d && (d->flags & flag);
}

/* Is @d in the list fs_list(@sys, @how) makes? */
static bool listed(const struct fs_desc *d, enum prep_sys sys, unsigned int how)
{
	bool here = fs_makes(d, sys, how & FSL_RAW), elsewhere = false;
	unsigned int with = how >> 8;

	if ((d->flags & with) != with)
		return false;
	for (int s = 0; s < PREP_NSYS; s++)
		if (s != (int)sys && fs_makes(d, (enum prep_sys)s, how & FSL_RAW))
			elsewhere = true;
	if (how & FSL_NOT)
		return !here && elsewhere;
	return here && !((how & FSL_ONLY) && elsewhere);
}

char *fs_list(enum prep_sys sys, unsigned int how, const char *item, const char *sep,
	      const char *last)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, total = 0;

	for (size_t i = 0; i < ARRAY_SIZE(fs_all); i++)
		total += listed(fs_all[i], sys, how);
	for (size_t i = 0; i < ARRAY_SIZE(fs_all); i++) {
		const struct fs_desc *d = fs_all[i];

		if (!listed(d, sys, how))
			continue;
		if (n++)
			strbuf_addstr(&sb, n == total ? last : sep);
		strbuf_addf(&sb, item, how & FSL_TITLES ? d->title : d->name);
		if ((how & FSL_ABOUT) && d->about)
			strbuf_addf(&sb, " (%s)", d->about);
	}
	return strbuf_detach(&sb, NULL);
}

const char *fs_names(void)
{
	/* Built on first use; prep is single-threaded. */
	static char *names;

	if (!names)
		names = fs_list(prep_sys_here(), FSL_RAW, "%s", ", ", ", ");
	return names;
}

uint64_t fs_min_size(const struct fs_desc *fs)
{
	/* raw: fslab run checks its --db-size against the device itself; 16 MiB only keeps out
	 * sizes nothing fits on */
	return fs->mkfs ? fs->mkfs->min_size : 16 * MiB;
}

/* ---- what the descriptors' verifiers share ------------------------------------------------ */

int verify_expect(const char *dev, const char *what, uint64_t want, uint64_t got)
{
	if (!want || want == got)
		return 0;
	fslab_err("verification of %s failed: %s is %llu, mkfs was asked for %llu", dev, what,
		  (unsigned long long)got, (unsigned long long)want);
	return -EPROTO;
}

uint32_t get_be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

uint32_t get_le32(const unsigned char *b)
{
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* ---- what the lab asks -------------------------------------------------------------------- */

const char *prep_fs_missing_tool(const char *fs, const char **package)
{
	const struct fs_desc *d = fs_find(fs);
	const struct prep_backend *be = prep_backend_of(d, prep_sys_here());

	return be && be->missing_tool ? be->missing_tool(d, package) : NULL;
}

const char *prep_fs_missing_driver(const char *fs, const struct fs_desc **instead)
{
	const struct fs_desc *d = fs_find(fs);
	const struct prep_backend *be = prep_backend_of(d, prep_sys_here());

	return be && be->missing_driver ? be->missing_driver(d, instead) : NULL;
}

char *prep_mkfs_opts_problem(const char *fs, const char *opts)
{
	const struct fs_desc *d = fs_find(fs);
	const struct prep_backend *be = prep_backend_of(d, prep_sys_here());

	return be && be->opts_problem && opts ? be->opts_problem(d, opts) : NULL;
}
