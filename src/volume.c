// SPDX-License-Identifier: MIT
/* volume.c: map a directory to its mount (libmount) and block device (sysfs, libblkid). */
#include "volume.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <libmount.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base.h"
#include "files.h"
#include "msg.h"

/* First line of a sysfs file, trailing newline removed; NULL if unreadable. */
static char *sysfs_str(const char *dir, const char *name)
{
	char *path = path_join(dir, name), *s = NULL;
	size_t len;

	if (read_file(path, &s, &len) == 0) {
		while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
			s[--len] = 0;
	}
	free(path);
	return s;
}

static uint64_t sysfs_u64(const char *dir, const char *name)
{
	char *s = sysfs_str(dir, name);
	uint64_t v = s ? strtoull(s, NULL, 10) : 0;

	free(s);
	return v;
}

static int find_mount(struct volume *v)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_fs *fs;
	int ret;

	if (!tb)
		return -ENOMEM;
	/* util-linux reads /proc/self/mountinfo here (no /etc/mtab on Debian) */
	ret = mnt_table_parse_mtab(tb, NULL);
	if (ret) {
		mnt_unref_table(tb);
		return ret < 0 ? ret : -EINVAL;
	}
	fs = mnt_table_find_mountpoint(tb, v->dir, MNT_ITER_BACKWARD);
	if (!fs) {
		mnt_unref_table(tb);
		return -ENOENT;
	}
	v->mountpoint = xstrdup(mnt_fs_get_target(fs));
	v->fstype = xstrdup(mnt_fs_get_fstype(fs));
	v->source = xstrdup(mnt_fs_get_source(fs) ? mnt_fs_get_source(fs) : "");
	v->options = xstrdup(mnt_fs_get_options(fs) ? mnt_fs_get_options(fs) : "");
	v->fsname = xstrdup(v->fstype);
	mnt_unref_table(tb);
	return 0;
}

/* Sector sizes through libblkid's topology, and the filesystem type from its superblock
 * (needs read access to the device). */
static void probe_blkid(struct volume *v)
{
	blkid_probe pr = blkid_new_probe_from_filename(v->source);
	blkid_topology tp;
	const char *type;

	if (!pr)
		return;
	blkid_probe_enable_topology(pr, 1);
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	if (blkid_do_fullprobe(pr) >= 0) {
		tp = blkid_probe_get_topology(pr);
		if (tp) {
			v->logical_sector = blkid_topology_get_logical_sector_size(tp);
			v->physical_sector = blkid_topology_get_physical_sector_size(tp);
		}
		if (!strncmp(v->fstype, "fuse", 4) &&
		    blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
			free(v->fsname);
			v->fsname = xstrdup(type);
		}
	}
	blkid_free_probe(pr);
}

static void probe_device(struct volume *v)
{
	char link[PATH_MAX], real[PATH_MAX], *sysdir, *queue_dir, *disk;
	struct stat st;

	if (!v->source || stat(v->source, &st) || !S_ISBLK(st.st_mode))
		return;
	v->bdev = st.st_rdev;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, real))
		return;
	sysdir = xstrdup(real);
	v->devname = xstrdup(basename(real));
	v->stat_path = path_join(sysdir, "stat");
	/* a partition's queue and model live in its parent disk's directory */
	{
		char *p = path_join(sysdir, "partition");

		if (access(p, F_OK) == 0) {
			char *copy = xstrdup(sysdir);

			disk = xstrdup(dirname(copy));
			free(copy);
		} else {
			disk = xstrdup(sysdir);
		}
		free(p);
	}
	queue_dir = path_join(disk, "queue");
	v->rotational = sysfs_u64(queue_dir, "rotational") != 0;
	v->logical_sector = sysfs_u64(queue_dir, "logical_block_size");
	v->physical_sector = sysfs_u64(queue_dir, "physical_block_size");
	{
		char *loopdir = path_join(disk, "loop");
		char *back = sysfs_str(loopdir, "backing_file");

		if (back) {
			v->model = xasprintf("loop: %s", back);
			v->loop_dio = sysfs_u64(loopdir, "dio") != 0;
		} else {
			char *devdir = path_join(disk, "device");
			char *model = sysfs_str(devdir, "model");

			v->model = model ? model : xstrdup("");
			free(devdir);
		}
		free(back);
		free(loopdir);
	}
	probe_blkid(v);
	free(queue_dir);
	free(disk);
	free(sysdir);
}

int volume_statfs(struct volume *v)
{
	struct statvfs sv;

	if (v->raw)
		return 0;
	if (statvfs(v->dir, &sv))
		return -errno;
	v->block_size = sv.f_bsize;
	v->fs_size = (uint64_t)sv.f_blocks * sv.f_frsize;
	v->fs_free = (uint64_t)sv.f_bfree * sv.f_frsize;
	v->fs_avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}

int volume_probe(struct volume *v, const char *role, const char *dir)
{
	char real[PATH_MAX];
	struct stat st;
	int ret;

	memset(v, 0, sizeof(*v));
	v->o_direct = -1;
	v->role = xstrdup(role);
	if (!realpath(dir, real))
		return -errno;
	v->dir = xstrdup(real);
	if (stat(v->dir, &st))
		return -errno;
	v->fs_dev = st.st_dev;
	ret = volume_statfs(v);
	if (ret)
		return ret;
	ret = find_mount(v);
	if (ret)
		return ret;
	probe_device(v);
	if (!v->model)
		v->model = xstrdup("");
	return 0;
}

/* realpath of /sys/dev/block/MAJ:MIN, or NULL */
static char *sysfs_dir(dev_t rdev)
{
	char link[64], real[PATH_MAX];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	return realpath(link, real) ? xstrdup(real) : NULL;
}

/* Is the block device rdev, or a partition of it, mounted?  Returns the mount point or NULL. */
static char *mounted_on(dev_t rdev)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	char *dir = sysfs_dir(rdev), *found = NULL;
	struct libmnt_fs *fs;

	if (!tb || !it || !dir || mnt_table_parse_mtab(tb, NULL))
		goto out;
	while (!found && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *src = mnt_fs_get_srcpath(fs);
		struct stat st;
		char *d, *slash;

		if (!src || stat(src, &st) || !S_ISBLK(st.st_mode))
			continue;
		d = sysfs_dir(st.st_rdev);
		if (!d)
			continue;
		/* the device itself, or a partition: a directory below the disk's in sysfs */
		slash = strrchr(d, '/');
		if (!strcmp(d, dir) || (slash && (size_t)(slash - d) == strlen(dir) &&
					!strncmp(d, dir, slash - d)))
			found = xstrdup(mnt_fs_get_target(fs));
		free(d);
	}
out:
	free(dir);
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return found;
}

int volume_probe_raw(struct volume *v, const char *role, const char *dev, bool force)
{
	blkid_probe pr;
	struct stat st;
	char *mnt;
	int fd;

	memset(v, 0, sizeof(*v));
	v->o_direct = -1;
	v->raw = true;
	v->role = xstrdup(role);
	v->dir = xstrdup(dev);
	v->source = xstrdup(dev);
	v->fstype = xstrdup("raw");
	v->fsname = xstrdup("raw");
	v->mountpoint = xstrdup("");
	v->options = xstrdup("");
	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return input_error("%s is not a block device; give a directory or a block device",
				   dev);
	mnt = mounted_on(st.st_rdev);
	if (mnt) {
		input_error("%s is mounted on %s: a raw-device run would destroy that filesystem; "
			    "unmount it first", dev, mnt);
		free(mnt);
		return -FSLAB_EINPUT;
	}
	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return input_error("%s is in use (%s): swap, LVM, RAID or another process holds it",
				   dev, strerror(errno));
	v->fs_size = v->fs_avail = v->fs_free = (uint64_t)lseek(fd, 0, SEEK_END);
	close(fd);
	pr = blkid_new_probe_from_filename(dev);
	if (pr) {
		const char *type = NULL;
		int rc;

		blkid_probe_enable_partitions(pr, 1);
		blkid_probe_enable_superblocks(pr, 1);
		rc = blkid_do_safeprobe(pr);
		if (rc == 0 && blkid_probe_lookup_value(pr, "TYPE", &type, NULL) &&
		    blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL))
			type = "unknown signature";
		if ((rc == 0 || rc == -2) && !force) {
			input_error("%s holds %s%s: a raw-device run overwrites it; add --force if it "
				    "may be destroyed", dev, rc == -2 ? "ambiguous signatures" : "",
				    rc == -2 ? "" : type);
			blkid_free_probe(pr);
			return -FSLAB_EINPUT;
		}
		blkid_free_probe(pr);
	}
	v->fs_dev = st.st_rdev;
	probe_device(v);
	if (!v->model)
		v->model = xstrdup("");
	v->block_size = v->logical_sector;
	return 0;
}

void volume_probe_odirect(struct volume *v)
{
	char *path;
	int fd;

	if (v->raw) { /* block devices take O_DIRECT */
		v->o_direct = 1;
		return;
	}
	path = xasprintf("%s/.fslab-odirect-probe.%d", v->dir, (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);

	if (fd >= 0) {
		void *buf = xmalloc_aligned(4096);
		ssize_t n;

		memset(buf, 0, 4096);
		/* some filesystems accept the flag at open and refuse the I/O with EINVAL;
		 * other errors (a full filesystem) say nothing about O_DIRECT */
		n = pwrite(fd, buf, 4096, 0);
		v->o_direct = n == 4096 ? 1 : (errno == EINVAL ? 0 : -1);
		free_aligned(buf);
		close(fd);
		unlink(path);
	} else {
		v->o_direct = errno == EINVAL ? 0 : -1;
	}
	free(path);
}



int devstat_read(const char *path, struct devstat *d)
{
	unsigned long long f[17] = { 0 };
	char *s;
	int n, ret;

	ret = read_file(path, &s, NULL);
	if (ret)
		return ret;
	n = sscanf(s, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10],
		   &f[11], &f[12], &f[13], &f[14]);
	free(s);
	if (n < 11)
		return -EINVAL;
	d->rd_ios = f[0];
	d->rd_sect = f[2];
	d->wr_ios = f[4];
	d->wr_sect = f[6];
	d->io_ticks = f[9];
	d->discard_ios = n >= 12 ? f[11] : 0;
	return 0;
}
