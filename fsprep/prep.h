/* SPDX-License-Identifier: MIT */
/* prep.h: public API of the prep stage (fsprep/): the filesystem table and the prep backends,
 * what the rest of fslab may call.  Portable: both systems build it. */
#ifndef FSLAB_PREP_H
#define FSLAB_PREP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "platform/volume.h" /* PREP_SCHEMA, PREP_JSON_NAME: the record prep writes, the run reads */

/* ---- the filesystem table (fsprep/fs.c; one fs_<name>.c per filesystem) ------------------- */

/* The systems a prep runs on; each makes its filesystems with its own prep backend. */
enum prep_sys { PREP_LINUX, PREP_WINDOWS, PREP_NSYS };

/* How a system makes a filesystem: the prep backends (fsprep/backend.c lists them). */
enum prep_be {
	PREP_BE_NONE,    /* that system cannot make it */
	PREP_BE_MKFS,    /* Linux: mkfs.* and libmount on block devices or loop devices */
	PREP_BE_RAW,     /* Linux: the devices as they are, discarded: no filesystem */
	PREP_BE_STORAGE, /* Windows: the storage cmdlets (Format-Volume) through PowerShell */
	PREP_BE_NR
};

/* fs_desc.flags: what sets a filesystem apart.  Code asks for a flag, never for a name. */
#define FS_F_RAW        (1U << 0) /* no filesystem at all: nothing is formatted, verified or
				   * mounted (the raw-device baseline of fslab run) */
#define FS_F_FUSE       (1U << 1) /* served by a FUSE daemon its mount helper starts (needs
				   * /dev/fuse; teardown waits for the daemon to exit) */
#define FS_F_PAGE_CACHE (1U << 2) /* its driver reads the device through the page cache even
				   * for O_DIRECT files: the daemon runs in a memory cgroup
				   * (--ntfs-cache-limit) */
#define FS_F_COW        (1U << 3) /* copy-on-write: rewriting a file may need its size again
				   * in free space */
#define FS_F_INTEGRITY  (1U << 4) /* integrity streams (checksummed, reallocating writes):
				   * prep formats with them off */

struct fs_mkfs;   /* PREP_BE_MKFS's part: tool, options, verifier, mount (fsprep/prepP.h) */
struct fs_winfmt; /* PREP_BE_STORAGE's part: Format-Volume (fsprep/win/winprep.h) */

/*
 * Everything fslab knows about one filesystem, on every system: one const descriptor per
 * fs_<name>.c, listed once in fs.c's table (libblkid's idinfos[] style).  Every list a user
 * sees (prep's usage, config checks, messages naming valid choices, scripts/deps.sh's
 * packages) is made from the table.
 */
struct fs_desc {
	const char *name;           /* --fs value, [fs] fs =, prep.json "fs", and how a volume
				     * names its filesystem (struct volume fsname) */
	const char *title;          /* as its makers write it ("XFS", "ReFS"), for messages;
				     * Format-Volume's -FileSystem */
	const char *about;          /* what --fs help says of it ("ntfs-3g"), or NULL */
	unsigned int flags;         /* FS_F_* */
	const char *notes;          /* a line for prep.json "notes" on every prep of it, or NULL */
	enum prep_be on[PREP_NSYS]; /* the backend that makes it on each system */
	const struct fs_mkfs *mkfs; /* for PREP_BE_MKFS, else NULL */
	const struct fs_winfmt *win; /* for PREP_BE_STORAGE, else NULL */
};

/* fs_find - the entry for a name (exact, lower case), or NULL. */
const struct fs_desc *fs_find(const char *name);
/* fs_count - how many filesystems the table lists. */
size_t fs_count(void);
/* fs_at - the @i-th entry in table order, or NULL when @i >= fs_count(). */
const struct fs_desc *fs_at(size_t i);
/* fs_flag - does the filesystem named @name (a --fs value, or a volume's fsname) have @flag?
 * false for a name the table does not list. */
bool fs_flag(const char *name, unsigned int flag);

/* fs_is_raw - no filesystem: nothing to format, verify or mount. */
static inline bool fs_is_raw(const struct fs_desc *fs)
{
	return fs->flags & FS_F_RAW;
}

/* fs_makes - does @sys's prep make @fs (a filesystem, not raw, with @raw_too raw as well)? */
static inline bool fs_makes(const struct fs_desc *fs, enum prep_sys sys, bool raw_too)
{
	return fs && fs->on[sys] != PREP_BE_NONE && (raw_too || !fs_is_raw(fs));
}

/* fs_list how: */
#define FSL_RAW    (1U << 0) /* raw too */
#define FSL_TITLES (1U << 1) /* titles ("NTFS or ReFS") instead of names */
#define FSL_ONLY   (1U << 2) /* those only @sys makes */
#define FSL_NOT    (1U << 3) /* those @sys does not make but another system does */
#define FSL_ABOUT  (1U << 4) /* each followed by " (about)" where the entry has one */
#define FSL_WITH(fs_flags) ((fs_flags) << 8) /* only those with these FS_F_* flags */
/*
 * fs_list - the filesystems @sys's prep makes, in table order, for a usage line or a message:
 * each as @item (a printf format with one %s: the name, or the title with FSL_TITLES), joined
 * by @sep, with @last before the last one ("ext4|xfs", "fs = ntfs or fs = refs").  Heap; ""
 * when there is none.
 */
char *fs_list(enum prep_sys sys, unsigned int how, const char *item, const char *sep,
	      const char *last) __attribute__((format(printf, 3, 0)));

/* ---- the prep backends (fsprep/backend.c) ------------------------------------------------- */

struct prep_ctx; /* a device prep (fsprep/prepP.h) */
struct prep_vol;

/*
 * A way of making filesystems on one system, fio's ioengine_ops style: fixed table, NULL
 * hooks are steps the backend does not have.  `fslab prep` and `fslab teardown` hand their
 * arguments to one; the lab asks one about a label's filesystem before any cell.
 */
struct opt_cmd;

struct prep_backend {
	const char *name;      /* "mkfs", "raw", "storage" */
	enum prep_sys sys;     /* the system whose volumes it makes */
	/* claims - do these prep/teardown arguments name this backend's volumes (Windows disk
	 * numbers, a Windows folder)?  NULL: it claims none, --fs decides. */
	bool (*claims)(int argc, char **argv);
	/* prep, teardown - the subcommand, argv[0] its name; an exit status (FSLAB_EXIT_*) */
	int (*prep)(int argc, char **argv);
	int (*teardown)(int argc, char **argv);
	/* their option tables (opt.h): what --help and the completion show of them */
	const struct opt_cmd *prep_opts, *teardown_opts;
	/* missing_tool - the first program making @fs needs that this machine lacks, its Debian
	 * package in *package; NULL when none is (or the hook is NULL) */
	const char *(*missing_tool)(const struct fs_desc *fs, const char **package);
	/* missing_driver - the kernel driver @fs needs that the running kernel lacks, or NULL;
	 * *instead what to use on such a kernel */
	const char *(*missing_driver)(const struct fs_desc *fs, const struct fs_desc **instead);
	/* opts_problem - why mkfs options @opts cannot be given for @fs, or NULL (heap) */
	char *(*opts_problem)(const struct fs_desc *fs, const char *opts);
	/* The steps of one volume of a device prep (fsprep/prep.c), NULL: not done.
	 * plan - the command that will make it; format - make and verify it; mount - mount it.
	 * 0 or -errno (bad input: -FSLAB_EINPUT after the message). */
	int (*plan)(struct prep_ctx *c, struct prep_vol *v);
	int (*format)(struct prep_ctx *c, struct prep_vol *v);
	int (*mount)(struct prep_ctx *c, struct prep_vol *v);
};

/* The backends; each file defines its own. */
extern const struct prep_backend prep_be_mkfs, prep_be_raw, prep_be_storage;

/* prep_backend - the backend of that kind this build has, or NULL (fslab.exe has no mkfs). */
const struct prep_backend *prep_backend(enum prep_be kind);
/* prep_backend_of - the backend making @fs on @sys, or NULL. */
const struct prep_backend *prep_backend_of(const struct fs_desc *fs, enum prep_sys sys);
/*
 * prep_backend_for - the backend `fslab prep`/`fslab teardown` with these arguments goes to:
 * one that claims them, else the one making --fs on this system, else on the other (whose
 * prep then says where it runs), else this system's first (whose prep names the valid
 * filesystems).  Never NULL.
 */
const struct prep_backend *prep_backend_for(int argc, char **argv);
/* prep_argv_fs - the --fs value among prep's arguments ("--fs X", "--fs=X"), or NULL. */
const char *prep_argv_fs(int argc, char **argv);
/* prep_sys_here - the system this fslab was built for. */
enum prep_sys prep_sys_here(void);

/* ---- what the lab asks (by --fs name; the lab's own config keeps names) ------------------ */

/* prep_fs_missing_tool - prep_backend_of(fs here)->missing_tool, or NULL */
const char *prep_fs_missing_tool(const char *fs, const char **package);
/* prep_fs_missing_driver - prep_backend_of(fs here)->missing_driver, or NULL */
const char *prep_fs_missing_driver(const char *fs, const struct fs_desc **instead);
/* prep_mkfs_opts_problem - prep_backend_of(fs here)->opts_problem, or NULL; caller frees */
char *prep_mkfs_opts_problem(const char *fs, const char *opts);

#endif
