/* SPDX-License-Identifier: MIT */
/* prepP.h: private interfaces between the modules of fsprep/ (as libmount's mountP.h). */
#ifndef FSLAB_PREPP_H
#define FSLAB_PREPP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <jansson.h>

#include "lib/base.h"
#include "fsprep/prep.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

/* ---- filesystems (fs.c: the table; fs_<name>.c: one descriptor each; prep.h) ------------- */

struct topology;
struct mkfs_cmd;

/*
 * How a mkfs tool reads its command line (getopt(3)/getopt_long(3)), as far as prep needs it
 * to refuse --mkfs-opts words that name another device or file (mkfs_opts.c).
 */
struct mkfs_syntax {
	const char *shortopts;               /* the tool's getopt string ("b:cd:..."), ':' after a
					      * letter that takes an argument */
	const char *const *long_arg;         /* long options taking an argument, NULL-terminated */
	const char *const *long_flag;        /* long options without one */
	const char *paths;                   /* short options whose argument is a path ("dlz") */
	const char *const *long_paths;       /* long options whose argument is a path */
	const char *const *subopt_paths;     /* "l:logdev": suboption (key=value list of -l) that
					      * names a device or file */
};

/*
 * The mkfs backend's part of a filesystem's descriptor (fs_<name>.c: .mkfs): the tool that
 * formats it, the --cluster rules, how its options are built from the topology and read back,
 * how it is mounted.  Behaviour comes from these fields only; no code tests which filesystem
 * it is.
 */
struct fs_mkfs {
	/* formatting */
	const char *tool;         /* formatting tool */
	const char *version_flag; /* makes the tool print its version */
	const char *force_flag;   /* makes the tool overwrite an existing signature (--force) */
	const char *package;      /* Debian package that ships the tool (and the mount helper) */
	const struct mkfs_syntax *syntax; /* how the tool reads its options */
	uint64_t min_size;        /* smallest volume the tool formats, bytes */

	/* block size (NTFS: cluster size), the --cluster rules */
	uint32_t block_default;   /* without --cluster */
	uint32_t block_min;       /* smallest --cluster taken */
	uint32_t block_max;       /* largest --cluster taken */
	bool block_pow2;          /* --cluster must be a power of two */
	const char *block_error;  /* why a --cluster is refused, after "--cluster N: " */
	const char *cluster_help; /* what --cluster sets and takes, for prep --help */
	/* build - append the filesystem's own options to @p (block_size and cluster_size are
	 * set, the tool and its force flag pushed) */
	void (*build)(struct mkfs_cmd *p, const struct topology *t);

	/* verification (verify.c): libblkid must find blkid_type, then the superblock is read */
	const char *blkid_type;   /* TYPE libblkid reports once formatted */
	bool libext2fs;           /* read back with libext2fs (the ext2/3/4 family), else: */
	uint32_t sb_offset;       /* where the superblock starts on the device, bytes */
	uint32_t sb_size;         /* and how many bytes verify_sb reads */
	/* verify_sb - check the superblock @sb (sb_size bytes) of @dev against @p and record
	 * what it says in @v (block_size, cluster_size, ...); 0, -EPROTO after printing what
	 * differs (or silently when it is not this filesystem's superblock). */
	int (*verify_sb)(const unsigned char *sb, const char *dev, const struct mkfs_cmd *p,
			 json_t *v);

	/* mounting */
	const char *mount_type;   /* fstype handed to libmount */
	const char *mount_helper; /* /sbin/mount.<type> helper libmount runs, or NULL */
	const char *fuse_daemon;  /* FS_F_FUSE: the daemon's program name ("ntfs-3g") */
	const char *kernel_fs;    /* in-kernel driver the mount needs (checked in
				   * /proc/filesystems and the running kernel's modules), or NULL */
	const char *kernel_config; /* the kernel option that builds it, and where to get one */
	const struct fs_desc *instead; /* what to use on a kernel without kernel_fs */
	const char *mount_opts;   /* default mount options (noatime plus per-filesystem ones) */
};

/* NTFS's mkntfs options and boot-sector verifier, shared by ntfs (ntfs-3g) and ntfs3 */
void ntfs_build(struct mkfs_cmd *p, const struct topology *t);
extern const struct mkfs_syntax ntfs_syntax; /* mkntfs's options */
int ntfs_verify_sb(const unsigned char *sb, const char *dev, const struct mkfs_cmd *p,
		   json_t *v);
#define NTFS_CLUSTER_DEFAULT (64 * KiB) /* Exchange's recommendation for database volumes */
/*
 * The mkntfs part of an NTFS descriptor's struct fs_mkfs: one volume on disk, whichever driver
 * mounts it (fs_ntfs.c: ntfs-3g, fs_ntfs3.c: the kernel's ntfs3).  Each descriptor adds its own
 * .package (scripts/deps.sh reads it from the descriptor's file), its .blkid_type (a
 * filesystem's name is typed in its own file only: t_names_once) and its mount fields.
 */
#define NTFS_MKFS_FIELDS								\
	.tool = "mkntfs",								\
	.force_flag = "-F",								\
	.version_flag = "--version",							\
	.syntax = &ntfs_syntax,								\
	.min_size = 16 * MiB,								\
	.block_default = NTFS_CLUSTER_DEFAULT,						\
	.block_min = 512,								\
	.block_max = 64 * KiB,								\
	.block_pow2 = true,								\
	.block_error = "NTFS clusters are a power of two from 512 to 65536 bytes",	\
	.cluster_help = "the cluster size, 512 to 64K (default 64K, Exchange's recommendation)", \
	.build = ntfs_build,								\
	.sb_offset = 0,									\
	.sb_size = 512,									\
	.verify_sb = ntfs_verify_sb

/* fs_names - the filesystems this system's prep takes for --fs, raw included, "ext4, xfs,
 * ntfs, ntfs3, btrfs, raw", for messages; built once, static storage. */
const char *fs_names(void);
/* fs_kernel_has - whether the running kernel has filesystem @name: listed in
 * /proc/filesystems, or a module of that name in /lib/modules/<release>/modules.dep */
bool fs_kernel_has(const char *name);
/* fs_min_size - the smallest device a Linux prep of @fs takes */
uint64_t fs_min_size(const struct fs_desc *fs);
/* fs_cache_limited - does this filesystem's FUSE daemon get the --ntfs-cache-limit cgroup? */
static inline bool fs_cache_limited(const struct fs_desc *fs)
{
	return fs->flags & FS_F_PAGE_CACHE;
}
/* fs_verify_method - how prep reads @fs back: "libext2fs", "libblkid" (prep.json) */
static inline const char *fs_verify_method(const struct fs_desc *fs)
{
	return fs->mkfs->libext2fs ? "libext2fs" : "libblkid";
}

/* ---- alignment (align.c, pure: no I/O, unit-tested) -------------------------------------- */

/* The I/O topology of a block device, in bytes, as libblkid and sysfs report it. */
struct topology {
	uint64_t logical_sector;   /* smallest addressable unit */
	uint64_t physical_sector;  /* smallest unit written without read-modify-write */
	uint64_t min_io;           /* preferred minimum I/O (RAID chunk) */
	uint64_t opt_io;           /* optimal I/O (RAID stripe), 0 = not reported */
	uint64_t alignment_offset; /* offset of the first aligned sector */
	uint64_t partition_start;  /* start of a partition on its disk, 0 for a whole device */
	uint64_t size;             /* device size */
};

/* Largest opt_io taken as an alignment grain; bigger values are often bogus (USB bridges). */
#define TOPO_MAX_GRAIN (16 * MiB)

/*
 * topology_grain - the boundary a partition should start on: the largest of the physical
 * sector, min_io and 4 KiB, or opt_io when it is a multiple of that and at most TOPO_MAX_GRAIN.
 */
uint64_t topology_grain(const struct topology *t);
/* topology_aligned - alignment offset 0 and partition start a multiple of topology_grain(). */
bool topology_aligned(const struct topology *t);

/* What the user asked for one volume. */
struct mkfs_req {
	const struct fs_desc *fs;
	const char *device; /* last argument of the mkfs command */
	const char *label;  /* "fslab-db" */
	uint64_t cluster;   /* --cluster, 0 = default (fs->block_default) */
	bool force;         /* pass the tool's own force flag */
	const char *extra;  /* --mkfs-opts, split on blanks (no shell), or NULL */
	bool nodiscard;     /* the tool's nodiscard options (an image allocated before the run) */
};

/* The mkfs command derived from a topology, and the geometry it asks for.  The builders of
 * struct fs_desc append their options to argv with strvec_push()/strvec_pushf(). */
struct mkfs_cmd {
	struct strvec argv;    /* the tool, its options, the device; empty until built */
	uint32_t block_size;   /* filesystem block (btrfs: sector) size */
	uint32_t cluster_size; /* NTFS cluster size; equals block_size elsewhere */
	uint32_t sector_size;  /* XFS -s / NTFS -s when set explicitly, else 0 */
	uint32_t stride;       /* ext4 -E stride=, in blocks, 0 = not set */
	uint32_t stripe_width; /* ext4 -E stripe_width=, in blocks, 0 = not set */
	uint32_t su;           /* XFS -d su=, bytes, 0 = not set */
	uint32_t sw;           /* XFS -d sw= */
	bool aligned;          /* topology_aligned() */
	bool nodiscard;        /* tell the tool not to discard the device first (an image
				  allocated before the run keeps its blocks); set before build */
};

/*
 * mkfs_cmd_build - derive the mkfs argv for @r on a device with topology @t.
 * Fills @p (release with mkfs_cmd_release()).  Returns 0, or -FSLAB_EINPUT after printing
 * why (a --cluster the filesystem cannot use, a blank --mkfs-opts, a filesystem without a
 * builder such as raw; @p is then empty).  Does no I/O otherwise.
 */
int mkfs_cmd_build(struct mkfs_cmd *p, const struct topology *t,
		   const struct mkfs_req *r) __must_check;
/* mkfs_cmd_release - free the argv; the struct may be built again. */
void mkfs_cmd_release(struct mkfs_cmd *p);
/*
 * mkfs_cmd_sector_size - on 4Kn devices (logical sector above 512) state the sector size:
 * "-s <prefix><size>", and record it in p->sector_size.  Nothing for 512-byte sectors.
 */
void mkfs_cmd_sector_size(struct mkfs_cmd *p, const struct topology *t, const char *prefix);
/*
 * topology_stripe - RAID geometry in bytes for block size @bs: *stripe = opt_io when it is a
 * multiple of @bs, larger than one block and at most TOPO_MAX_GRAIN, else 0; *chunk = min_io
 * when there is a stripe, min_io is larger than a block, a multiple of it and divides opt_io,
 * else 0.
 */
void topology_stripe(const struct topology *t, uint32_t bs, uint64_t *chunk, uint64_t *stripe);
/*
 * mkfs_opts_problem - the first word of @extra (--mkfs-opts, split on blanks) that would make
 * @tool (read by @sx) write or read a device or file other than the one prep gives it: a
 * path-valued option or suboption, or an operand.  NULL when there is none, else what is
 * wrong with it, for a message (caller frees).  Pure.
 */
char *mkfs_opts_problem(const struct mkfs_syntax *sx, const char *tool, const char *extra);
/* mkfs_cmd_line - the command as one line a POSIX shell reads back into the same argv
 * (strbuf_add_argv_sq()), for prep.json, the plan and messages; caller frees. */
char *mkfs_cmd_line(const struct mkfs_cmd *p);

/* ---- small helpers (misc.c) -------------------------------------------------------------- */

/*
 * Which file this is, for records: device and inode number, and the birth time where the
 * filesystem keeps one (statx STATX_BTIME), so that an inode number reused by a new file after
 * ours was deleted does not pass for ours.
 */
struct file_id {
	uint64_t dev, ino;
	int64_t btime_sec;
	uint32_t btime_nsec;
	bool has_btime;
};

/* file_id_fd - the identity of an open file.  0 or -errno. */
int file_id_fd(int fd, struct file_id *id) __must_check;
/* file_id_path - the identity of @path itself (a symlink is not followed); *mode its type and
 * permissions.  0 or -errno. */
int file_id_path(const char *path, struct file_id *id, mode_t *mode) __must_check;
/* file_id_json - {"dev", "ino"[, "btime_sec", "btime_nsec"]} (new reference). */
json_t *file_id_json(const struct file_id *id);
/* file_id_from_json - read it back; false when @j is not such an object. */
bool file_id_from_json(json_t *j, struct file_id *id);
/* file_id_same - same device and inode, and the same birth time where both have one. */
bool file_id_same(const struct file_id *a, const struct file_id *b);
/* write_str_file - write s to an existing file (sysfs, cgroupfs), no temp file.  0 or -errno. */
int write_str_file(const char *path, const char *s) __must_check;
/* pid_alive - does pid still exist (and is not a zombie)? */
bool pid_alive(pid_t pid);
/* read_cmdline - /proc/<pid>/cmdline (arguments separated by NULs), whole, appended to sb;
 * returns its length, or -errno. */
ssize_t read_cmdline(pid_t pid, struct strbuf *sb);
/* sleep_ms - sleep, returning early when a signal arrives. */
void sleep_ms(unsigned ms);
/* escape_name - "/var/tmp/x" -> "-var-tmp-x": a unique file name for a path; caller frees. */
char *escape_name(const char *path);
/* abs_path - absolute, symlink-free path of a file that may not exist yet (its parent must,
 * or the nearest existing ancestor); caller frees.  NULL with errno set on failure. */
char *abs_path(const char *path);
/* path_exists - is there anything at @p (lstat: a dangling symlink is there too)? */
bool path_exists(const char *p);
/* path_under - does @path lie in (or equal) @dir? */
bool path_under(const char *path, const char *dir);
/* dir_is_empty - true when path is a directory with no entries. */
bool dir_is_empty(const char *path);

/* ---- probing (probe.c, libblkid) --------------------------------------------------------- */

/* probe_topology - read @dev's topology with libblkid (partition start from sysfs). 0/-errno. */
int probe_topology(const char *dev, struct topology *t) __must_check;
/* probe_wipe - erase every signature libblkid finds (like wipefs -a); appends the type of
 * each to @wiped (a JSON array).  0 or -errno. */
int probe_wipe(const char *dev, json_t *wiped) __must_check;
/* probe_superblock - TYPE, UUID and BLOCK_SIZE of a formatted device into @out (a JSON
 * object: "type", "uuid", "block_size").  0, -ENOENT when nothing is found, or -errno. */
int probe_superblock(const char *dev, json_t *out) __must_check;

/* ---- formatting (format.c) --------------------------------------------------------------- */

/* format_tool_check - -FSLAB_EINPUT naming the Debian package when the tool or the mount
 * helper is missing, or the fix when the kernel lacks the driver; 0 for raw, which needs none. */
int format_tool_check(const struct fs_desc *fs) __must_check;
/* format_tool_version - first line the tool prints for its version flag; caller frees. */
char *format_tool_version(const struct fs_mkfs *m);
/* The mkfs backend's preflight hooks (struct prep_backend): the tool or mount helper missing,
 * the kernel driver missing, --mkfs-opts refused (mkfs_opts_problem()). */
const char *format_missing_tool(const struct fs_desc *fs, const char **package);
const char *format_missing_driver(const struct fs_desc *fs, const struct fs_desc **instead);
char *format_opts_problem(const struct fs_desc *fs, const char *opts);
/* format_run - run the plan's argv (no shell); on failure print its output.  0 or -EIO. */
int format_run(const struct mkfs_cmd *p) __must_check;
/* discard_device - BLKDISCARD the whole device.  *done says whether it was discarded;
 * unsupported is not an error.  0 or -errno. */
int discard_device(const char *dev, bool *done) __must_check;

/* ---- verification (verify.c) ------------------------------------------------------------- */

/*
 * verify_volume - read the new filesystem back independently of mkfs: libblkid must find
 * exactly one filesystem of @fs->mkfs->blkid_type, then libext2fs (the ext2/3/4 family) or the
 * descriptor's verify_sb on the superblock's bytes reads it and compares it with @p.  Stores
 * the verified values in *out (new JSON object, caller owns).  Returns 0, -EPROTO after
 * printing what differs, -EINVAL for a filesystem without a mkfs part (raw), or -errno.
 */
int verify_volume(const struct fs_desc *fs, const char *dev, const struct mkfs_cmd *p,
		  json_t **out) __must_check;
/* verify_expect - compare one verified number with the plan (@want 0 = not asked for, no
 * check); 0, or -EPROTO after printing "@what is @got, mkfs was asked for @want". */
int verify_expect(const char *dev, const char *what, uint64_t want, uint64_t got) __must_check;
/* verify_read_at - read exactly @len bytes at @off of @dev; 0, -EIO when short, or -errno. */
int verify_read_at(const char *dev, off_t off, unsigned char *buf, size_t len) __must_check;
/* get_be32 - the big-endian 32-bit number at @b (XFS superblock). */
uint32_t get_be32(const unsigned char *b);
/* get_le32 - the little-endian 32-bit number at @b (btrfs superblock). */
uint32_t get_le32(const unsigned char *b);

/* ---- mounting (mount.c, libmount) -------------------------------------------------------- */

/* mount_volume - mount @src on @target as @fs with @opts (libmount, runs helpers). 0/-errno. */
int mount_volume(const char *src, const char *target, const struct fs_desc *fs,
		 const char *opts) __must_check;
/* umount_target - unmount the top mount on @target (libmount).  0 or -errno (-EBUSY...);
 * prints nothing. */
int umount_target(const char *target) __must_check;
/*
 * mount_at - the mount whose mount point is exactly @target, from /proc/self/mountinfo.
 * Returns 1 and, for non-NULL pointers, the source, fstype and VFS+fs options (caller frees),
 * 0 when nothing is mounted there, or -errno.
 */
int mount_at(const char *target, char **source, char **fstype, char **options) __must_check;
/* fuse_daemon_find - pid of the FUSE daemon (of a FS_F_FUSE filesystem of the table) serving
 * @dev on @target, or 0. */
pid_t fuse_daemon_find(const char *dev, const char *target);

/* ---- loop devices and images (loop.c) ---------------------------------------------------- */

/*
 * How an image's blocks are in the host filesystem when a cell measures on it: allocated
 * before the run, so that no write of the measured seconds makes the host filesystem
 * allocate (a sparse image did: the log volume's new log files, 1-4 allocations a second;
 * docs/COMPARE.md "The demo's images").
 */
enum image_alloc {
	IMAGE_SPARSE,    /* allocated as written (the host filesystem cannot preallocate) */
	IMAGE_ALLOCATED, /* fallocate()d: the host converts each first write's extent */
	IMAGE_WRITTEN,   /* fallocate()d and written once with zeros: nothing left to do */
};
/* The word for prep.json and the dry run: "sparse", "allocated", "written". */
const char *image_alloc_name(enum image_alloc a);
/*
 * image_open - a new file of @size for @path, not visible under any name yet (O_TMPFILE in
 * its directory; where the filesystem has none, created O_EXCL as @path at once and *named
 * set), its blocks allocated, and with @write also written once with zeros (*alloc says what
 * the host filesystem allowed).  *id is its identity, to be recorded before image_link()
 * names it.  Returns the open descriptor, or -errno.
 */
int image_open(const char *path, uint64_t size, bool write, struct file_id *id, bool *named,
	       enum image_alloc *alloc) __must_check;

/* image_link - give the file image_open() made its name @path (linkat, never replacing
 * anything: -EEXIST when the name is taken); closes @fd.  0 or -errno. */
int image_link(int fd, const char *path, bool named) __must_check;
/* loop_attach - attach @image to a free loop device with direct I/O (LOOP_CONFIGURE, or
 * LOOP_SET_FD + LOOP_SET_STATUS64 on old kernels).  *dev is "/dev/loopN" (caller frees), *dio
 * whether the kernel kept direct I/O on (sysfs loop/dio).  0 or -errno. */
int loop_attach(const char *image, char **dev, bool *dio) __must_check;
/* loop_find_image - loop devices backed by the file @image, attached by the name @path
 * ("/dev/loopN" strings appended to @devs, a JSON array).  Returns how many, or -errno. */
int loop_find_image(const char *path, const struct file_id *image, json_t *devs) __must_check;
/* loop_detach_image - detach every loop device backed by the file @id (named @image in
 * messages) and wait until they are gone.  Returns 0 or -errno (-EBUSY when one is still open
 * by someone). */
int loop_detach_image(const char *image, const struct file_id *id) __must_check;
/*
 * loop_backing - the file loop device @dev reads and writes: its identity
 * (blockdev_loop_backing(); the birth time too when the name sysfs shows still leads to that
 * file) and in *path (may be NULL) that name (caller frees; NULL when sysfs does not say).
 * 0, -ENXIO when @dev is no bound loop device, or -errno.
 */
int loop_backing(const char *dev, struct file_id *id, char **path) __must_check;

/* ---- cgroup v1 memory limit for ntfs-3g (cgroup.c) --------------------------------------- */

#define NTFS_CACHE_LIMIT_DEFAULT (64 * MiB)

/* cgroup_v1_memory_root - "/sys/fs/cgroup/memory" when the v1 memory controller is mounted
 * there, else NULL. */
const char *cgroup_v1_memory_root(void);
/* cgroup_path_for - the cgroup prep uses for a mount root; caller frees. */
char *cgroup_path_for(const char *mount_root);
/* cgroup_create - mkdir the cgroup (parents too) and set memory.limit_in_bytes. 0/-errno. */
int cgroup_create(const char *cg, uint64_t limit) __must_check;
/* cgroup_enter - move this process into @cg; *prev is the cgroup to return to. 0/-errno. */
int cgroup_enter(const char *cg, char **prev) __must_check;
/* cgroup_leave - move this process back into @prev (from cgroup_enter) and free it. */
int cgroup_leave(char *prev) __must_check;
/* cgroup_has_pid - is @pid a member of @cg? */
bool cgroup_has_pid(const char *cg, pid_t pid);
/* cgroup_remove - rmdir @cg, waiting a little for its processes to exit; 0 or -errno. */
int cgroup_remove(const char *cg) __must_check;

/* ---- the prep record (state.c) ----------------------------------------------------------- */

/*
 * The record of what one prep created: /var/lib/fslab/prep-state/<escaped mount root>.json,
 * root's alone (directory 0700, file 0600), written atomically before each step that creates
 * something (intent) and after it, with the identity of what it made (image files, prep.json)
 * and the devices it was given.  teardown undoes what it lists and nothing else, and only what
 * reality still shows to be that (teardown.c).  Schema 1 kept it in the mount root, where anyone could
 * plant one: a state file in a mount root is never read.
 */
#define PREP_STATE_BASE "/var/lib/fslab"
#define PREP_STATE_DIR "/var/lib/fslab/prep-state"
#define PREP_STATE_SCHEMA "fslab-prep-state/2"
#define PREP_LEGACY_STATE_NAME ".fslab-prep-state.json"
#define PREP_LEGACY_REGISTRY "/var/lib/fslab/preps"

struct prep_state {
	char *root; /* mount root, absolute */
	char *path; /* the record */
	json_t *j;  /* the record, saved by state_save() */
};

/* state_create - a new record for @root (O_EXCL: -EEXIST when one is there). */
int state_create(struct prep_state *st, const char *root) __must_check;
/*
 * state_load - read the record of @root.  -ENOENT when there is none; -ENODATA when it is
 * empty (prep died right after creating it, before doing anything: st->path is set, st->j
 * NULL); -EPERM after a warning "left alone: ..." when it cannot be trusted (not root's alone,
 * another schema, another mount root, another machine).
 */
int state_load(struct prep_state *st, const char *root) __must_check;
/* state_save - write the record atomically.  0 or -errno. */
int state_save(struct prep_state *st) __must_check;
/* state_vol - the record of volume "db" or "log" (borrowed, created on first use). */
json_t *state_vol(struct prep_state *st, const char *role);
/* state_destroy - remove the record. */
int state_destroy(struct prep_state *st) __must_check;
/* state_release - free memory; the file stays. */
void state_release(struct prep_state *st);
/* state_exists - is there a record for @root? */
bool state_exists(const char *root);
/* state_registry_roots - mount roots of every record, appended to @roots (JSON array of
 * strings).  0 or -errno. */
int state_registry_roots(json_t *roots) __must_check;
/* state_legacy_note - say that a schema-1 state file in @root, or an older fslab's registry
 * entry for it, is left alone (one warning line each). */
void state_legacy_note(const char *root);

/* ---- undo (teardown.c) ------------------------------------------------------------------- */

/*
 * prep_undo - undo everything @st records, newest first: unmount, wait for ntfs-3g, remove the
 * cgroup, detach loop devices, delete images (unless @keep_images), prep.json, the mount dirs
 * it made and finally the record itself.  Checks reality before each step, so it is idempotent
 * and safe after a crash.  Keeps going past failures; returns the first -errno (the record
 * then stays, listing what is left), or 0.
 */
int prep_undo(struct prep_state *st, bool keep_images) __must_check;

/* ---- the prep run (prep.c) and prep.json (prepjson.c) ------------------------------------ */

enum { VOL_DB, VOL_LOG, VOL_NR };
extern const char *const vol_names[VOL_NR]; /* "db", "log" */

/* Parsed `fslab prep` command line. */
struct prep_opts {
	const struct fs_desc *fs;
	const char *dev[VOL_NR];       /* --db-dev, --log-dev */
	const char *image_dir;         /* --image-dir */
	uint64_t image_size[VOL_NR];   /* --db-size, --log-size */
	const char *mount_root;        /* --mount-root */
	uint64_t cluster;              /* --cluster, 0 = default */
	const char *mkfs_opts;         /* --mkfs-opts */
	const char *mount_opts;        /* --mount-opts */
	uint64_t ntfs_cache_limit;     /* --ntfs-cache-limit, 0 = off */
	const char *owner;             /* --owner: recorded; teardown --owner acts only on its own */
	bool dry_run, force;
	bool stop_on_stdin_eof;        /* the end of stdin rolls back as SIGINT does (the lab) */
};

/* The option tables of fslab prep and teardown on Linux devices (prep_cli.c, opt.h). */
extern const struct opt_cmd linuxprep_opt_cmd, linuxteardown_opt_cmd;

/* One volume as prep builds it. */
struct prep_vol {
	const char *role;      /* "db" or "log" */
	char *device;          /* block device formatted */
	char *image;           /* backing image in --image-dir mode, else NULL */
	char *mountpoint;      /* <root>/<role>, NULL for raw (nothing is mounted) */
	uint64_t size;
	struct topology topo;
	struct mkfs_cmd mkfs;
	char *tool_version;
	char *mount_opts;      /* options given to libmount */
	char *kernel_fstype;   /* as the mount table shows it ("fuseblk" for ntfs-3g) */
	char *vfs_options;     /* as the mount table shows them */
	json_t *verified;      /* from verify_volume() */
	char *signature;       /* what --force will wipe (blockdev_check_overwrite()), or NULL */
	json_t *wiped;         /* signatures erased under --force */
	bool discarded;
	bool written;          /* a given device (not an image) was discarded: a rollback cannot
				* restore it */
	bool formatted;        /* and mkfs ran on it */
	bool direct_io;        /* loop device kept direct I/O on */
	enum image_alloc alloc; /* the image's blocks in the host filesystem */
	pid_t daemon;          /* ntfs-3g process, 0 for kernel filesystems */
};

/* Everything one prep knows; prep.json is written from it. */
struct prep_ctx {
	const struct prep_opts *o;
	const struct prep_backend *be; /* the one making o->fs here: its volume steps */
	char *root;            /* absolute mount root */
	char *image_dir;       /* absolute --image-dir, or NULL */
	struct prep_vol vol[VOL_NR];
	json_t *cache_fix;     /* prep.json "ntfs_cache_fix" (null for kernel filesystems) */
	json_t *notes;         /* prep.json "notes" */
	struct prep_state st;
	int image_lock;        /* os_lock_path() on image_dir, -1 before */
};

/* prep_check - everything that can be checked before touching anything (prep_check.c): the
 * mount root, the images or devices, the mkfs commands, the cache limit.  0 or -errno (bad
 * input printed as -FSLAB_EINPUT). */
int prep_check(struct prep_ctx *c) __must_check;
/* prep_lock_image_dir - lock the image directory for the whole prep (os_lock_path(): one prep
 * per directory).  0 or -FSLAB_EINPUT naming the holder. */
int prep_lock_image_dir(struct prep_ctx *c) __must_check;
/* prep_build_mkfs - @v's mkfs command from its topology and the options.  0 or -FSLAB_EINPUT. */
int prep_build_mkfs(struct prep_ctx *c, struct prep_vol *v) __must_check;
/* prep_run - the whole prep (or the dry-run plan).  Returns an exit status (FSLAB_EXIT_*). */
int prep_run(const struct prep_opts *o);
/* prep_print_dry_run - print what prep would do for @c (checked, mkfs commands built): the --dry-run
 * output (prep_dryrun.c). */
void prep_print_dry_run(const struct prep_ctx *c);
/* prep_json_build - prep.json for @c (new reference). */
json_t *prep_json_build(const struct prep_ctx *c);
/* prep_note - add a line to prep.json "notes" and print it as a warning. */
void prep_note(struct prep_ctx *c, const char *fmt, ...) __printf(2, 3);

#endif
