// SPDX-License-Identifier: MIT
/*
 * backend.c: the prep backends this build has, and which one `fslab prep` and `fslab
 * teardown` hand their arguments to.  The one place that says what each system can do:
 * Linux builds make filesystems with mkfs and libmount (and raw devices), both systems run
 * the Windows storage backend (fslab.exe for real, Linux for --dry-run previews).  Portable.
 */
#include <string.h>

#include "lib/base.h"
#include "cmds.h"
#include "fsprep/prep.h"

/* By kind (enum prep_be); NULL: not in this build. */
static const struct prep_backend *const backends[PREP_BE_NR] = {
#ifndef _WIN32
	[PREP_BE_MKFS] = &prep_be_mkfs,
	[PREP_BE_RAW] = &prep_be_raw,
#endif
	[PREP_BE_STORAGE] = &prep_be_storage,
};

enum prep_sys prep_sys_here(void)
{
#ifdef _WIN32
	return PREP_WINDOWS;
#else
	return PREP_LINUX;
#endif
}

const struct prep_backend *prep_backend(enum prep_be kind)
{
	return kind > PREP_BE_NONE && kind < PREP_BE_NR ? backends[kind] : NULL;
}

const struct prep_backend *prep_backend_of(const struct fs_desc *fs, enum prep_sys sys)
{
	return fs ? prep_backend(fs->on[sys]) : NULL;
}

const char *prep_argv_fs(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--fs") && i + 1 < argc)
			return argv[i + 1];
		if (!strncmp(argv[i], "--fs=", 5))
			return argv[i] + 5;
	}
	return NULL;
}

const struct prep_backend *prep_backend_for(int argc, char **argv)
{
	const struct fs_desc *fs = fs_find(prep_argv_fs(argc, argv));
	const struct prep_backend *be = NULL;

	for (int k = 0; k < PREP_BE_NR && !be; k++)
		if (backends[k] && backends[k]->claims && backends[k]->claims(argc, argv))
			be = backends[k];
	if (!be)
		be = prep_backend_of(fs, prep_sys_here());
	for (int s = 0; s < PREP_NSYS && !be; s++)
		be = prep_backend_of(fs, (enum prep_sys)s);
	for (int k = 0; k < PREP_BE_NR && !be; k++)
		if (backends[k] && backends[k]->sys == prep_sys_here())
			be = backends[k];
	return be;
}

int cmd_prep(int argc, char **argv)
{
	return prep_backend_for(argc, argv)->prep(argc, argv);
}

int cmd_teardown(int argc, char **argv)
{
	return prep_backend_for(argc, argv)->teardown(argc, argv);
}
