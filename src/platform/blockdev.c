// SPDX-License-Identifier: MIT
/*
 * blockdev.c: block devices (libblkid, sysfs.h, libmount, the loop ioctls) and the one policy
 * of whether fslab may overwrite one: prep before formatting, fslab run before a raw-device
 * run.  Nothing here writes to a device.
 */
#include "platform/blockdev.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <blkid/blkid.h>
#include <libmount/libmount.h>

#include "lib/msg.h"
#include "platform/sysfs.h"
#include "lib/units.h"

dev_t blockdev_wholedisk(dev_t d)
{
	dev_t disk = 0;

	if (blkid_devno_to_wholedisk(d, NULL, 0, &disk) || !disk)
		return d;
	return disk;
}

bool blockdev_on(dev_t d, dev_t disk)
{
	return d == disk || (major(d) && blockdev_wholedisk(d) == disk);
}

char *blockdev_name(dev_t d)
{
	struct sysfs_blkdev sd;
	char *name;

	if (sysfs_blkdev_init(&sd, NULL, d))
		name = xasprintf("%u:%u", major(d), minor(d));
	else
		name = sysfs_blkdev_devname(&sd);
	sysfs_blkdev_release(&sd);
	return name;
}

/* The block device behind a mount: its devno, or for anonymous devnos (fuseblk, btrfs) the
 * device its source path names.  0 when it is not a block device. */
static dev_t fs_block_devno(struct libmnt_fs *fs)
{
	const char *src = mnt_fs_get_srcpath(fs);
	dev_t d = mnt_fs_get_devno(fs);
	struct stat sb;

	if (major(d))
		return d;
	if (src && src[0] == '/' && !stat(src, &sb) && S_ISBLK(sb.st_mode))
		return sb.st_rdev;
	return 0;
}

int blockdev_mounted(dev_t rdev, const char *devpath, char **target, char **what)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_iter *it;
	struct libmnt_fs *fs;
	int found = 0;

	if (!tb)
		return errno > 0 ? -errno : -EIO;
	it = mnt_new_iter(MNT_ITER_FORWARD);
	while (it && !found && !mnt_table_next_fs(tb, it, &fs)) {
		dev_t d = fs_block_devno(fs);

		if (!d)
			continue;
		if (d == rdev) {
			*what = xstrdup(devpath);
			found = 1;
		} else if (blockdev_on(d, rdev)) {
			*what = xstrdup(mnt_fs_get_source(fs) ? mnt_fs_get_source(fs) : "?");
			found = 1;
		}
		if (found)
			*target = xstrdup(mnt_fs_get_target(fs));
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return found;
}

dev_t blockdev_root(void)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_fs *fs;
	dev_t d = 0;

	if (!tb)
		return 0;
	/* the topmost mount on / (later lines stack over earlier ones) */
	fs = mnt_table_find_target(tb, "/", MNT_ITER_BACKWARD);
	if (fs)
		d = fs_block_devno(fs);
	mnt_unref_table(tb);
	return d;
}

/* libblkid reports failure as NULL or a negative number, sometimes with errno set. */
static int blkid_errno(void)
{
	return errno > 0 ? -errno : -EIO;
}

static const char *lookup(blkid_probe pr, const char *name)
{
	const char *val;

	return blkid_probe_lookup_value(pr, name, &val, NULL) ? NULL : val;
}

int blockdev_signature(const char *dev, char **what)
{
	const char *type, *uuid, *usage;
	blkid_probe pr;
	int ret, rc;

	*what = NULL;
	errno = 0;
	pr = blkid_new_probe_from_filename(dev);
	if (!pr)
		return blkid_errno();
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID |
					  BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	switch (rc) {
	case 1:
		ret = 0;
		break;
	case -2:
		*what = xstrdup("more than one signature (libblkid cannot tell which is valid)");
		ret = 1;
		break;
	case 0:
		type = lookup(pr, "TYPE");
		uuid = lookup(pr, "UUID");
		usage = lookup(pr, "USAGE");
		if (type) {
			/* USAGE is "filesystem", "raid", "crypto" or "other". */
			const char *kind = usage ? usage : "filesystem";

			*what = xasprintf("a%s %s %s signature%s%s%s",
					  strchr("aeiou", type[0]) ? "n" : "", type, kind,
					  uuid ? " (UUID " : "", uuid ? uuid : "", uuid ? ")" : "");
		} else {
			const char *pttype = lookup(pr, "PTTYPE");

			*what = xasprintf("a %s partition table", pttype ? pttype : "unknown");
		}
		ret = 1;
		break;
	default:
		ret = blkid_errno();
		break;
	}
	blkid_free_probe(pr);
	return ret;
}

int blockdev_loop_backing(const char *dev, dev_t *file_dev, ino_t *file_ino, char **path)
{
	struct sysfs_blkdev sd = { 0 };
	struct loop_info64 info;
	struct stat sb;
	int fd, ret = 0;

	if (path)
		*path = NULL;
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) || !S_ISBLK(sb.st_mode))
		ret = -ENXIO;
	else if (ioctl(fd, LOOP_GET_STATUS64, &info))
		ret = errno == ENOTTY || errno == EINVAL ? -ENXIO : -errno;
	close(fd);
	if (ret)
		return ret;
	*file_dev = (dev_t)info.lo_device;
	*file_ino = (ino_t)info.lo_inode;
	if (path && !sysfs_blkdev_init(&sd, NULL, sb.st_rdev)) {
		char *s = sysfs_blkdev_read_str(&sd, "loop/backing_file");
		size_t n = s ? strlen(s) : 0;

		if (n > 10 && !strcmp(s + n - 10, " (deleted)"))
			s[n - 10] = 0;
		*path = s;
	}
	sysfs_blkdev_release(&sd);
	return 0;
}

/*
 * What a block device keeps its data on, followed down its stack: the device numbers met
 * (loop devices on block devices, device-mapper/md slaves in sysfs) and the regular files at
 * the bottom (a loop device's backing file, by identity): a loop device on
 * the other's backing file or on the other device has its own device number, yet writing
 * both writes one storage twice.
 */
#define STACK_MAX 32
#define FILES_MAX 8

struct storage {
	dev_t devs[STACK_MAX];       /* devs[0]: the device itself */
	size_t ndevs;
	struct {
		dev_t dev;
		ino_t ino;
		char *path;          /* for messages, or NULL */
	} files[FILES_MAX];          /* backing files of loop devices in the stack */
	size_t nfiles;
};

static void storage_walk(struct storage *s, dev_t d, int depth)
{
	struct sysfs_blkdev sd;
	dev_t slaves[STACK_MAX];
	char *node, *back;
	struct stat sb;
	dev_t fdev;
	ino_t fino;
	int n;

	for (size_t i = 0; i < s->ndevs; i++)
		if (s->devs[i] == d)
			return;
	if (s->ndevs == STACK_MAX || depth > 8)
		return;
	s->devs[s->ndevs++] = d;
	/* a loop device: its backing file, or the block device it is stacked on */
	node = blockdev_name(d);
	if (!stat(node, &sb) && S_ISBLK(sb.st_mode) && sb.st_rdev == d &&
	    !blockdev_loop_backing(node, &fdev, &fino, &back)) {
		if (back && !stat(back, &sb) && S_ISBLK(sb.st_mode) && sb.st_ino == fino &&
		    sb.st_dev == fdev) {
			storage_walk(s, sb.st_rdev, depth + 1);
			free(back);
		} else if (s->nfiles < FILES_MAX) {
			s->files[s->nfiles].dev = fdev;
			s->files[s->nfiles].ino = fino;
			s->files[s->nfiles++].path = back;
		} else {
			free(back);
		}
	}
	free(node);
	/* device-mapper and md: the devices under it */
	if (sysfs_blkdev_init(&sd, NULL, d)) {
		sysfs_blkdev_release(&sd);
		return;
	}
	n = sysfs_blkdev_list(&sd, "slaves", slaves, STACK_MAX);
	sysfs_blkdev_release(&sd);
	for (int i = 0; i < MIN(n, STACK_MAX); i++)
		storage_walk(s, slaves[i], depth + 1);
}

static void storage_release(struct storage *s)
{
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i].path);
}

/* What @a's and @b's stacks share, as words ("/dev/loop7 is backed by /dev/loop4", "both
 * backed by /var/tmp/a.img", "/dev/sdb1 is a partition of /dev/sdb"), or NULL. */
static char *storage_shared(const char *a, const char *b, const struct storage *sa,
			    const struct storage *sb)
{
	for (size_t i = 0; i < sa->ndevs; i++)
		for (size_t j = 0; j < sb->ndevs; j++) {
			dev_t x = sa->devs[i], y = sb->devs[j];
			char *part, *disk, *what;

			if (x == y && x == sa->devs[0])
				return xasprintf("%s is backed by %s", b, a);
			if (x == y && y == sb->devs[0])
				return xasprintf("%s is backed by %s", a, b);
			if (x == y) {
				disk = blockdev_name(x);
				what = xasprintf("both backed by %s", disk);
				free(disk);
				return what;
			}
			if (blockdev_on(x, y) || blockdev_on(y, x)) {
				part = blockdev_name(blockdev_on(x, y) ? x : y);
				disk = blockdev_name(blockdev_on(x, y) ? y : x);
				what = xasprintf("%s is a partition of %s", part, disk);
				free(part);
				free(disk);
				return what;
			}
		}
	for (size_t i = 0; i < sa->nfiles; i++)
		for (size_t j = 0; j < sb->nfiles; j++)
			if (sa->files[i].dev == sb->files[j].dev &&
			    sa->files[i].ino == sb->files[j].ino)
				return xasprintf("both backed by %s",
						 sa->files[i].path ? sa->files[i].path
								   : sb->files[j].path ? sb->files[j].path
										       : "one file");
	return NULL;
}

/* The whole disk both stacks reach, or 0: partitions of one disk are separate, but not
 * separate storage for a measurement of database against log I/O (docs/PREP.md). */
static dev_t storage_same_disk(const struct storage *sa, const struct storage *sb)
{
	for (size_t i = 0; i < sa->ndevs; i++)
		for (size_t j = 0; j < sb->ndevs; j++) {
			dev_t wa = blockdev_wholedisk(sa->devs[i]), wb = blockdev_wholedisk(sb->devs[j]);

			if (wa == wb && major(wa))
				return wa;
		}
	return 0;
}

int blockdev_check_pair(const char *a, const char *aopt, const char *b, const char *bopt)
{
	struct storage *sa, *sb;
	struct stat st_a, st_b;
	char *what;
	dev_t disk;
	int ret = 0;

	if (stat(a, &st_a) || stat(b, &st_b) || !S_ISBLK(st_a.st_mode) || !S_ISBLK(st_b.st_mode))
		return 0; /* blockdev_check_overwrite() reports these */
	if (st_a.st_rdev == st_b.st_rdev)
		return input_error("%s %s and %s %s are the same device; give two separate devices",
				   aopt, a, bopt, b);
	if (blockdev_on(st_a.st_rdev, st_b.st_rdev) || blockdev_on(st_b.st_rdev, st_a.st_rdev))
		return input_error("%s %s and %s %s overlap (one is a partition of the other); give two separate devices",
				   aopt, a, bopt, b);
	sa = xcalloc(1, sizeof(*sa));
	sb = xcalloc(1, sizeof(*sb));
	storage_walk(sa, st_a.st_rdev, 0);
	storage_walk(sb, st_b.st_rdev, 0);
	what = storage_shared(a, b, sa, sb);
	if (what) {
		ret = input_error("%s %s and %s %s are the same storage (%s): using both would write one storage twice; give two separate devices",
				  aopt, a, bopt, b, what);
	} else if ((disk = storage_same_disk(sa, sb))) {
		char *name = blockdev_name(disk);

		ret = input_error("%s %s and %s %s are on one disk (%s): the log would share the database's storage; give devices on two different disks (or use --image-dir)",
				  aopt, a, bopt, b, name);
		free(name);
	}
	free(what);
	storage_release(sa);
	storage_release(sb);
	free(sa);
	free(sb);
	return ret;
}

/* Name of the first holder (dm-0, md127) of @d, or of one of its partitions; caller frees. */
static char *first_holder(dev_t d)
{
	struct sysfs_blkdev sd;
	dev_t devs[64];
	char *found = NULL;
	int n;

	if (sysfs_blkdev_init(&sd, NULL, d)) {
		sysfs_blkdev_release(&sd);
		return NULL;
	}
	n = sysfs_blkdev_list(&sd, "holders", devs, ARRAY_SIZE(devs));
	if (n > 0)
		found = blockdev_name(devs[0]);
	/* the partitions are subdirectories of the disk's directory */
	n = found ? 0 : sysfs_blkdev_list(&sd, "", devs, ARRAY_SIZE(devs));
	for (int i = 0; i < MIN(n, (int)ARRAY_SIZE(devs)) && !found; i++)
		found = first_holder(devs[i]);
	sysfs_blkdev_release(&sd);
	if (found && !strncmp(found, "/dev/", 5))
		memmove(found, found + 5, strlen(found + 5) + 1);
	return found;
}

/* Is @rdev (or a partition of it) listed in /proc/swaps?  Returns the swap path or NULL. */
static char *swap_user(dev_t rdev)
{
	FILE *f = fopen("/proc/swaps", "re");
	char *line = NULL, *found = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	while (!found && getline(&line, &cap, f) > 0) {
		char *sp = strchr(line, ' ');
		struct stat sb;

		if (line[0] != '/' || !sp)
			continue;
		*sp = 0;
		if (!stat(line, &sb) && S_ISBLK(sb.st_mode) && blockdev_on(sb.st_rdev, rdev))
			found = xstrdup(line);
	}
	free(line);
	fclose(f);
	return found;
}

/* A process other than us with @rdev (or a partition of it) open: its pid, or 0. */
static pid_t opened_by(dev_t rdev, char *comm, size_t len)
{
	DIR *proc = opendir("/proc");
	struct dirent *p;
	pid_t found = 0, self = getpid();

	if (!proc)
		return 0;
	while (!found && (p = readdir(proc))) {
		pid_t pid = (pid_t)atoi(p->d_name);
		char *fddir;
		DIR *fds;
		struct dirent *f;

		if (pid <= 0 || pid == self)
			continue;
		fddir = xasprintf("/proc/%d/fd", (int)pid);
		fds = opendir(fddir);
		while (fds && !found && (f = readdir(fds))) {
			char *fd = xasprintf("%s/%s", fddir, f->d_name);
			struct stat sb;

			if (f->d_name[0] != '.' && !stat(fd, &sb) && S_ISBLK(sb.st_mode) &&
			    blockdev_on(sb.st_rdev, rdev))
				found = pid;
			free(fd);
		}
		if (fds)
			closedir(fds);
		free(fddir);
	}
	closedir(proc);
	if (found) {
		char *path = xasprintf("/proc/%d/comm", (int)found);

		if (read_line_file(path, comm, len))
			snprintf(comm, len, "?");
		free(path);
	}
	return found;
}

/* Exclusive open: fails with EBUSY while a mount, swap, md or dm holds the device. */
static int check_exclusive(const char *dev, const char *opt, uint64_t *size, bool *ro)
{
	int fd, r = 0;

	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		if (errno == EBUSY)
			return input_error("%s (%s) is in use (exclusive open failed: held by a mount, swap, LVM, RAID or another program); free it first, --force does not override this",
					   dev, opt);
		return input_error("cannot open %s (%s): %s; check the device and that you are root",
				   dev, opt, strerror(errno));
	}
	if (ioctl(fd, BLKGETSIZE64, size))
		*size = 0;
	if (ioctl(fd, BLKROGET, &r))
		r = 0;
	*ro = r != 0;
	close(fd);
	return 0;
}

/* Refusals that nothing overrides: the device is someone's (a mount, swap, a holder). */
static int check_not_used(const char *dev, const char *opt, dev_t rdev)
{
	char *target = NULL, *what = NULL, *s;
	dev_t root = blockdev_root();
	int ret;

	if (root && (root == rdev || blockdev_wholedisk(root) == rdev))
		return input_error("%s (%s) holds / (the root filesystem); give a spare device, --force does not override this",
				   dev, opt);
	ret = blockdev_mounted(rdev, dev, &target, &what);
	if (ret > 0) {
		if (!strcmp(what, dev))
			ret = input_error("%s (%s) is mounted on %s; unmount it first, --force does not override this",
					  dev, opt, target);
		else
			ret = input_error("%s (%s) has a mounted partition %s (on %s); unmount it first, --force does not override this",
					  dev, opt, what, target);
		free(target);
		free(what);
		return ret;
	}
	if (ret < 0)
		return input_error("cannot read the mount table to check %s: %s", dev, strerror(-ret));
	if ((s = swap_user(rdev)))
		ret = input_error("%s (%s) is in use as swap (%s); swapoff it first, --force does not override this",
				  dev, opt, s);
	else if ((s = first_holder(rdev)))
		ret = input_error("%s (%s) is held by %s (device-mapper, LVM or RAID); remove that first, --force does not override this",
				  dev, opt, s);
	free(s);
	return ret;
}

int blockdev_check_overwrite(const char *dev, const char *opt, uint64_t min_size,
			     const char *min_who, bool force, char **sig)
{
	char *what = NULL, comm[64];
	struct stat sb;
	uint64_t size = 0;
	bool ro = false;
	pid_t pid;
	int ret;

	if (sig)
		*sig = NULL;
	if (stat(dev, &sb)) {
		if (errno == ENOENT)
			return input_error("%s (%s) does not exist; check the name with lsblk, or use --image-dir for image files",
					   dev, opt);
		return input_error("cannot look at %s (%s): %s; check the path", dev, opt,
				   strerror(errno));
	}
	if (!S_ISBLK(sb.st_mode))
		return input_error("%s (%s) is not a block device; give a disk or partition, or use --image-dir for image files",
				   dev, opt);
	ret = check_not_used(dev, opt, sb.st_rdev);
	if (!ret)
		ret = check_exclusive(dev, opt, &size, &ro);
	if (ret)
		return ret;
	pid = opened_by(sb.st_rdev, comm, sizeof(comm));
	if (pid)
		return input_error("%s (%s) is open by process %d (%s); stop it first, --force does not override this",
				   dev, opt, (int)pid, comm);
	if (ro)
		return input_error("%s (%s) is read-only; make it writable (blockdev --setrw) or pick another device",
				   dev, opt);
	if (min_size && size && size < min_size) {
		char a[32], b[32];

		return input_error("%s (%s) has %s, %s needs at least %s; give a larger device", dev,
				   opt, fmt_size(a, sizeof(a), size), min_who,
				   fmt_size(b, sizeof(b), min_size));
	}
	ret = blockdev_signature(dev, &what);
	if (ret < 0)
		return input_error("cannot probe %s (%s) for signatures: %s", dev, opt,
				   strerror(-ret));
	if (ret > 0 && !force) {
		ret = input_error("%s (%s) holds %s and may hold data; check it with lsblk -f, then pass --force to overwrite it",
				  dev, opt, what);
		free(what);
		return ret;
	}
	if (sig)
		*sig = what;
	else
		free(what);
	return 0;
}
