// SPDX-License-Identifier: MIT
/* volume.c: map a directory to its mount (libmount) and block device (sysfs.h, libblkid). */
#include "platform/volume.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/base.h"
#include "platform/blockdev.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "platform/sysfs.h"

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

/* "QEMU HARDDISK   " -> "QEMU HARDDISK" (sysfs pads some models with blanks). */
static char *trim(char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n && s[n - 1] == ' ')
		s[--n] = 0;
	return s;
}

/* The device under the volume: its sysfs name and counters, and its whole disk's (libblkid)
 * queue, model or loop backing file, since a partition has none of its own. */
static void probe_device(struct volume *v)
{
	struct sysfs_blkdev part, disk;
	struct stat st;
	uint64_t n;
	char *back;

	if (!v->source || stat(v->source, &st) || !S_ISBLK(st.st_mode))
		return;
	v->bdev = st.st_rdev;
	if (sysfs_blkdev_init(&part, NULL, st.st_rdev)) {
		sysfs_blkdev_release(&part);
		return;
	}
	v->devname = xstrdup(part.name);
	v->stat_path = sysfs_blkdev_path(&part, "stat");
	sysfs_blkdev_release(&part);
	if (sysfs_blkdev_init(&disk, NULL, blockdev_wholedisk(st.st_rdev))) {
		sysfs_blkdev_release(&disk);
		return;
	}
	v->rotational = !sysfs_blkdev_read_u64(&disk, "queue/rotational", &n) && n;
	if (!sysfs_blkdev_read_u64(&disk, "queue/logical_block_size", &n))
		v->logical_sector = (unsigned int)n;
	if (!sysfs_blkdev_read_u64(&disk, "queue/physical_block_size", &n))
		v->physical_sector = (unsigned int)n;
	back = trim(sysfs_blkdev_read_str(&disk, "loop/backing_file"));
	if (back) {
		v->model = xasprintf("loop: %s", back);
		v->loop_dio = !sysfs_blkdev_read_u64(&disk, "loop/dio", &n) && n;
		free(back);
	} else {
		v->model = trim(sysfs_blkdev_read_str(&disk, "device/model"));
	}
	sysfs_blkdev_release(&disk);
	probe_blkid(v);
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
	struct os_id id;
	int ret;

	memset(v, 0, sizeof(*v));
	v->o_direct = -1;
	v->nowait = -1;
	v->role = xstrdup(role);
	ret = os_dirh_open(dir, &v->dh);
	if (ret)
		return ret;
	v->dir = xstrdup(os_dirh_path(v->dh));
	ret = os_dirh_id(v->dh, &id);
	if (ret)
		return ret;
	v->fs_dev = (dev_t)id.dev;
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

int volume_probe_raw(struct volume *v, const char *role, const char *dev, bool force)
{
	char *opt = xasprintf("--%s", role);
	struct stat st;
	int fd, ret;

	memset(v, 0, sizeof(*v));
	v->o_direct = -1;
	v->nowait = -1;
	v->raw = true;
	v->role = xstrdup(role);
	v->dir = xstrdup(dev);
	v->source = xstrdup(dev);
	v->fstype = xstrdup("raw");
	v->fsname = xstrdup("raw");
	v->mountpoint = xstrdup("");
	v->options = xstrdup("");
	/* the same policy as fslab prep's before it formats (src/platform/blockdev.c) */
	ret = blockdev_check_overwrite(dev, opt, 0, NULL, force, NULL);
	free(opt);
	if (ret)
		return ret;
	if (stat(dev, &st))
		return -errno;
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	v->fs_size = v->fs_avail = v->fs_free = (uint64_t)lseek(fd, 0, SEEK_END);
	close(fd);
	v->fs_dev = st.st_rdev;
	probe_device(v);
	if (!v->model)
		v->model = xstrdup("");
	v->block_size = v->logical_sector;
	return 0;
}

int volume_raw_separate(const struct volume *a, const struct volume *b)
{
	char *aopt = xasprintf("--%s", a->role), *bopt = xasprintf("--%s", b->role);
	int ret = blockdev_check_pair(a->dir, aopt, b->dir, bopt);

	free(aopt);
	free(bopt);
	return ret;
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
