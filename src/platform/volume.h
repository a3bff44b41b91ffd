/* SPDX-License-Identifier: MIT */
/* volume.h: what a directory lives on: mount (libmount), device (sysfs, libblkid), counters. */
#ifndef FSLAB_VOLUME_H
#define FSLAB_VOLUME_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* /sys/block/DEV/stat fields fslab uses (sectors are 512 bytes). */
struct devstat {
	uint64_t rd_ios, rd_sect, wr_ios, wr_sect, io_ticks, discard_ios;
};

struct os_dirh;

struct volume {
	char *role;       /* "db" or "log" */
	char *dir;        /* absolute path of the directory (for messages and the mount table) */
	struct os_dirh *dh; /* the directory, opened once by volume_probe() (os_dirh_open()):
			     everything fslab makes or deletes in it goes through this handle;
			     NULL for a raw device.  Owned. */
	char *mountpoint, *fstype, *source, *options;
	char *fsname;     /* the filesystem's own name: fstype, or what libblkid finds under
			     a FUSE mount ("ntfs" for ntfs-3g's "fuseblk") */
	char *devname;    /* kernel name ("loop0", "sda1"), NULL when not on a block device */
	char *stat_path;  /* /sys/dev/block/M:m/stat, NULL when not on a block device */
	char *model;      /* device model, "loop: <backing file>" for loop devices, or "" */
	dev_t fs_dev;     /* st_dev of dir: same value = same filesystem */
	dev_t bdev;       /* block device number, 0 if none */
	uint64_t block_size, fs_size, fs_free, fs_avail;
	unsigned int logical_sector, physical_sector;
	bool rotational, loop_dio;
	bool raw;         /* a block device used directly (raw-device baseline), no filesystem */
	int o_direct;     /* 1 accepted, 0 refused (EINVAL), -1 not probed */
	int nowait;       /* I/O can be started without blocking (RWF_NOWAIT): 1 yes, 0 refused
			     (EOPNOTSUPP: io_uring hands every I/O to a kernel worker thread),
			     -1 not probed (volume_probe_odirect()) */
	json_t *extra;    /* platform facts added to volume_to_json() (Windows: cluster size,
			     alignment, ReFS integrity streams, counters), or NULL; owned */
};

/*
 * volume_probe - fill v for directory dir (which must exist): opens it once (v->dh, its path
 * resolved once and the directory opened without following a link), reads the mount table
 * with libmount, the device's queue and model from sysfs, its sector sizes with libblkid.
 * Returns 0 or -errno; a directory not on a block device (tmpfs) is fine (devname NULL).
 */
int volume_probe(struct volume *v, const char *role, const char *dir)
	__attribute__((warn_unused_result));
/*
 * volume_probe_raw - fill v for a block device used without a filesystem (the raw-device
 * baseline): dir and source are the device, fsname "raw", fs_avail its size.  Refuses with
 * -FSLAB_EINPUT (message printed) a device that is mounted (or has a mounted partition), is in
 * use (exclusive open fails), or, unless force, carries a filesystem or partition-table
 * signature (libblkid).  Nothing is written.
 */
int volume_probe_raw(struct volume *v, const char *role, const char *dev, bool force)
	__attribute__((warn_unused_result));
/*
 * volume_raw_separate - may raw devices @a and @b (from volume_probe_raw()) be written as two
 * separate volumes?  The same-storage policy of fslab prep (src/platform/blockdev.c: one device, one a
 * partition of the other, one storage under two device numbers, one disk).  0, or
 * -FSLAB_EINPUT after printing why not.  Windows: 0 (raw devices are refused before).
 */
int volume_raw_separate(const struct volume *a, const struct volume *b)
	__attribute__((warn_unused_result));
void volume_release(struct volume *v);
/* Probe whether the filesystem accepts O_DIRECT (FILE_FLAG_NO_BUFFERING): a scratch file
 * (scratch.h) ".fslab-probe.PID" created in v->dh, written once unbuffered and removed; on
 * Linux, with the same file, whether it starts I/O without blocking (nowait). */
void volume_probe_odirect(struct volume *v);
/* volume_nowait_of - nowait (struct volume) from what preadv2(..., RWF_NOWAIT) returned: ret,
 * and err (errno) when ret < 0.  EOPNOTSUPP: the file has no FMODE_NOWAIT, 0; bytes or EAGAIN
 * (this read would have blocked): 1; anything else says nothing, -1. */
int volume_nowait_of(long ret, int err);
json_t *volume_to_json(const struct volume *v);

/* volume_path_slashes - a Windows path as fslab writes it: "C:\fslab\db\" -> "C:/fslab/db"
 * ('\' as '/', which Windows accepts; no trailing '/' but in "C:/"), in place; returns s. */
char *volume_path_slashes(char *s);

/* The record `fslab prep` writes to <mount root>/prep.json (docs/DESIGN.md, fsprep/), read
 * back here into the result's environment.prep: its schema tag and file name. */
#define PREP_SCHEMA "fslab-prep/1"
#define PREP_JSON_NAME "prep.json"
/*
 * volume_prep_json - the prep.json that describes @v: read from the parent directory of its
 * mount point and returned only when its schema is PREP_SCHEMA and one of its volumes'
 * "mountpoint" is that mount point (Windows: compared without case, '\\' read as '/'), i.e.
 * `fslab prep` made the volume.  A new reference, or NULL (not on a prepped volume, a raw
 * device, or anything unreadable).  Prints nothing.  The same on both systems.
 */
json_t *volume_prep_json(const struct volume *v);
/* Refresh fs_size / fs_free / fs_avail (statvfs).  0 or -errno. */
int volume_statfs(struct volume *v) __attribute__((warn_unused_result));

/* Read a block device stat file.  0 or -errno. */
int devstat_read(const char *path, struct devstat *d) __attribute__((warn_unused_result));

#endif
