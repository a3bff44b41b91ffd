// SPDX-License-Identifier: MIT
/*
 * loop.c: image files and loop devices with direct I/O on the backing file.  No chosen library
 * has a public loop API (util-linux's loopdev code is internal to losetup), so this uses the
 * linux/loop.h ioctls directly.  Loop devices are found back by the identity of their backing
 * file (LOOP_GET_STATUS64: device and inode, as losetup -j does), never by number or by name
 * alone: a number may have been reused, a name may lead to another file since.  Images are
 * made nameless (O_TMPFILE) and named once their identity is recorded.
 */
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
#include <linux/loop.h>

#include "lib/base.h"
#include "platform/blockdev.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"
#include "lib/strvec.h"
#include "platform/sysfs.h"

#define ATTACH_TRIES 32       /* LOOP_CTL_GET_FREE races with other attachers */
#define DETACH_WAIT_MS 10000  /* the kernel detaches once the last opener closes */

const char *image_alloc_name(enum image_alloc a)
{
	return a == IMAGE_WRITTEN ? "written" : a == IMAGE_ALLOCATED ? "allocated" : "sparse";
}

/* Write zeros over the whole file through a direct-I/O descriptor of it (no page cache left
 * to write back while a cell measures), then make it durable.  0 or -errno. */
static int zero_fill(int fd, uint64_t size)
{
	const size_t chunk = 4 * MiB;
	char proc[64];
	void *buf;
	int dfd, ret = 0;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	dfd = open(proc, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	if (posix_memalign(&buf, 4096, chunk)) {
		close(dfd);
		return -ENOMEM;
	}
	memset(buf, 0, chunk);
	for (uint64_t off = 0; off < size && !ret; off += chunk) {
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;

		if (pwrite(dfd, buf, n, (off_t)off) != (ssize_t)n)
			ret = errno ? -errno : -EIO;
	}
	if (!ret && fdatasync(dfd))
		ret = -errno;
	free(buf);
	close(dfd);
	return ret;
}

int image_open(const char *path, uint64_t size, bool write, struct file_id *id, bool *named,
	       enum image_alloc *alloc)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int fd, ret;

	*named = false;
	*alloc = IMAGE_SPARSE;
	if (slash)
		*slash = 0;
	/* O_TMPFILE: the file has no name yet, so its identity is recorded before anyone can
	 * see it, and a crash before image_link() leaves nothing behind */
	fd = open(slash ? (*dir ? dir : "/") : ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		*named = fd >= 0;
	}
	free(dir);
	if (fd < 0)
		return -errno;
	/* Allocated before any cell measures on it; a host filesystem without fallocate gets a
	 * sparse file (its blocks then appear as the filesystem writes them) */
	ret = ftruncate(fd, (off_t)size) ? -errno : 0;
	if (!ret && !fallocate(fd, 0, 0, (off_t)size))
		*alloc = IMAGE_ALLOCATED;
	else if (!ret && errno != EOPNOTSUPP)
		ret = -errno;
	if (!ret && write && *alloc == IMAGE_ALLOCATED) {
		ret = zero_fill(fd, size);
		*alloc = IMAGE_WRITTEN;
	}
	if (!ret)
		ret = file_id_fd(fd, id);
	if (ret) {
		if (*named)
			unlink(path);
		close(fd);
		return ret;
	}
	return fd;
}

int image_link(int fd, const char *path, bool named)
{
	char proc[64];
	int ret = 0;

	if (!named && linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH)) {
		ret = -errno;
		/* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc/self/fd works without */
		if (ret == -EPERM || ret == -ENOENT) {
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
			ret = linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) ? -errno : 0;
		}
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* Old kernels (< 5.8): LOOP_SET_FD, LOOP_SET_STATUS64, then LOOP_SET_DIRECT_IO. */
static int attach_legacy(int lfd, int ffd, const struct loop_info64 *info)
{
	if (ioctl(lfd, LOOP_SET_FD, ffd))
		return -errno;
	if (ioctl(lfd, LOOP_SET_STATUS64, info)) {
		int e = errno;

		ioctl(lfd, LOOP_CLR_FD, 0);
		return -e;
	}
	/* Direct I/O may be refused (backing filesystem without O_DIRECT): checked in sysfs. */
	ioctl(lfd, LOOP_SET_DIRECT_IO, 1UL);
	return 0;
}

int loop_attach(const char *image, char **dev, bool *dio)
{
	struct loop_config cfg;
	int ctl, ffd, lfd, n, ret = -EBUSY;
	struct sysfs_blkdev sd;
	char path[64];

	*dev = NULL;
	*dio = false;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	ffd = open(image, O_RDWR | O_CLOEXEC);
	if (ffd < 0) {
		ret = -errno;
		close(ctl);
		return ret;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (uint32_t)ffd;
	cfg.info.lo_flags = LO_FLAGS_DIRECT_IO;
	snprintf((char *)cfg.info.lo_file_name, sizeof(cfg.info.lo_file_name), "%s", image);

	for (int tries = 0; tries < ATTACH_TRIES && ret == -EBUSY; tries++) {
		n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0) {
			ret = -errno;
			break;
		}
		snprintf(path, sizeof(path), "/dev/loop%d", n);
		lfd = open(path, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			/* The node may lag behind the kernel for a moment. */
			ret = errno == ENOENT ? -EBUSY : -errno;
			sleep_ms(10);
			continue;
		}
		if (!ioctl(lfd, LOOP_CONFIGURE, &cfg))
			ret = 0;
		else if (errno == EBUSY)
			ret = -EBUSY; /* someone else took it between GET_FREE and CONFIGURE */
		else if (errno == EINVAL || errno == ENOTTY)
			ret = attach_legacy(lfd, ffd, &cfg.info);
		else
			ret = -errno;
		close(lfd);
	}
	close(ffd);
	close(ctl);
	if (ret)
		return ret;
	*dev = xstrdup(path);
	if (!sysfs_blkdev_init_name(&sd, NULL, path + 5)) {
		uint64_t v;

		*dio = !sysfs_blkdev_read_u64(&sd, "loop/dio", &v) && v == 1;
	}
	sysfs_blkdev_release(&sd);
	return 0;
}

int loop_backing(const char *dev, struct file_id *id, char **path)
{
	struct file_id named;
	dev_t fdev;
	ino_t fino;
	char *name;
	int ret;

	memset(id, 0, sizeof(*id));
	if (path)
		*path = NULL;
	ret = blockdev_loop_backing(dev, &fdev, &fino, &name);
	if (ret)
		return ret;
	id->dev = fdev;
	id->ino = fino;
	/* the birth time, when the name still leads to that very file */
	if (name && !file_id_path(name, &named, NULL) && named.dev == id->dev &&
	    named.ino == id->ino)
		*id = named;
	if (path)
		*path = name;
	else
		free(name);
	return 0;
}

int loop_find_image(const char *path, const struct file_id *image, json_t *devs)
{
	struct strvec disks = STRVEC_INIT;
	size_t plen = strlen(path);
	int count = 0, ret = sysfs_disk_names(NULL, &disks);

	for (size_t i = 0; !ret && i < disks.nr; i++) {
		struct sysfs_blkdev sd;
		struct file_id back;
		char *name = NULL, *dev;
		bool named;

		if (strncmp(disks.v[i], "loop", 4))
			continue;
		/* Candidates by the name sysfs shows (no device is opened for the others: an open
		 * loop device looks busy to whoever checks it meanwhile)... */
		if (!sysfs_blkdev_init_name(&sd, NULL, disks.v[i]))
			name = sysfs_blkdev_read_str(&sd, "loop/backing_file");
		sysfs_blkdev_release(&sd);
		named = name && !strncmp(name, path, plen) &&
			(!name[plen] || !strcmp(name + plen, " (deleted)"));
		free(name);
		if (!named)
			continue;
		/* ...then by the file itself: the name may lead to another file since. */
		dev = xasprintf("/dev/%s", disks.v[i]);
		if (!loop_backing(dev, &back, NULL) && file_id_same(&back, image)) {
			json_array_append_new(devs, json_string(dev));
			count++;
		}
		free(dev);
	}
	strvec_clear(&disks);
	return ret ? ret : count;
}

/*
 * Who keeps a loop device busy after its filesystem was unmounted here: a process with it open,
 * or (more often, and invisible to lsof) a copy of the mount in another mount namespace, made
 * by an `unshare -m` or a service's private namespace while the volume was mounted.  Returns
 * "pid N (comm), its mount namespace" or NULL (caller frees).
 */
static char *loop_holder(const char *dev)
{
	struct stat sb;
	char *who = NULL, mm[32];
	DIR *d;
	struct dirent *e;

	if (stat(dev, &sb) || !(d = opendir("/proc")))
		return NULL;
	snprintf(mm, sizeof(mm), " %u:%u ", major(sb.st_rdev), minor(sb.st_rdev));
	while (!who && (e = readdir(d))) {
		char path[300], line[4096], comm[64] = "?";
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		if ((f = fopen(path, "re"))) {
			if (fgets(comm, sizeof(comm), f))
				comm[strcspn(comm, "\n")] = 0;
			fclose(f);
		}
		snprintf(path, sizeof(path), "/proc/%s/mountinfo", e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		/* field 3 is the mounted device: "36 35 7:3 / /mnt ..." */
		while (!who && fgets(line, sizeof(line), f)) {
			char *sp = strchr(line, ' ');

			sp = sp ? strchr(sp + 1, ' ') : NULL;
			if (sp && !strncmp(sp, mm, strlen(mm)))
				who = xasprintf("pid %s (%s), which has it mounted in its mount namespace",
						e->d_name, comm);
		}
		fclose(f);
	}
	closedir(d);
	return who;
}

/* Is a device backed by image held by a mount in another mount namespace? */
static bool loop_held_by_mount(const char *image, const struct file_id *id)
{
	json_t *left = json_array(), *v;
	bool held = false;
	size_t i;

	if (loop_find_image(image, id, left) > 0)
		json_array_foreach(left, i, v) {
			char *who = loop_holder(json_string_value(v));

			held = held || who;
			free(who);
		}
	json_decref(left);
	return held;
}

/* After the wait: a device the kernel will detach by itself (autoclear, set by LOOP_CLR_FD on a
 * busy device) is said and left to it; 0, or -EBUSY for one that would stay attached. */
static int loop_left_attached(const char *image, const struct file_id *id)
{
	json_t *left = json_array(), *v;
	size_t i;
	int ret = loop_find_image(image, id, left);

	ret = ret < 0 ? ret : 0;
	json_array_foreach(left, i, v) {
		const char *dev = json_string_value(v);
		struct sysfs_blkdev sd;
		char *ac = NULL, *who = loop_holder(dev);

		if (!sysfs_blkdev_init_name(&sd, NULL, dev + 5))
			ac = sysfs_blkdev_read_str(&sd, "loop/autoclear");
		sysfs_blkdev_release(&sd);
		if (ac && !strcmp(ac, "1")) {
			fslab_warn("%s (%s) stays attached while %s; the kernel detaches it when that "
				   "lets go (autoclear is set); nothing of it is mounted here",
				   dev, image, who ? who : "something keeps it open");
		} else {
			fslab_err("%s is still attached to %s, held by %s; find it with lsof, fuser or "
				  "grep %s /proc/*/mountinfo, then run fslab teardown again", image, dev,
				  who ? who : "something", dev + 5);
			ret = -EBUSY;
		}
		free(ac);
		free(who);
	}
	json_decref(left);
	return ret;
}

int loop_detach_image(const char *image, const struct file_id *id)
{
	json_t *devs = json_array(), *v;
	size_t i;
	int ret, n;

	n = loop_find_image(image, id, devs);
	if (n < 0) {
		ret = n;
		goto out;
	}
	ret = 0;
	json_array_foreach(devs, i, v) {
		const char *dev = json_string_value(v);
		int fd = open(dev, O_RDWR | O_CLOEXEC);

		/* ENXIO: no longer bound.  A busy device is only marked autoclear by the kernel. */
		if (fd < 0 || (ioctl(fd, LOOP_CLR_FD, 0) && errno != ENXIO)) {
			int e = errno;

			fslab_err("detaching %s (backed by %s) failed: %s", dev, image, strerror(e));
			if (!ret)
				ret = -e;
		} else {
			fslab_info("detached %s (%s)", dev, image);
		}
		if (fd >= 0)
			close(fd);
	}
	for (unsigned waited = 0; n > 0 && !ret; waited += 50) {
		json_t *left = json_array();

		n = loop_find_image(image, id, left);
		json_decref(left);
		if (n <= 0)
			break;
		/* a mount namespace holding it lets go when it ends, not in the next seconds */
		if (waited >= DETACH_WAIT_MS || (waited == 1000 && loop_held_by_mount(image, id))) {
			ret = loop_left_attached(image, id);
			break;
		}
		sleep_ms(50);
	}
out:
	json_decref(devs);
	return ret;
}
