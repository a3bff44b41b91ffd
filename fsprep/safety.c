// SPDX-License-Identifier: MIT
/*
 * safety.c: the checks that keep prep from destroying data by accident.  Each refusal is one
 * line naming the device, the problem and the fix; nothing is written before they all pass.
 * --force overrides only an existing signature, never "mounted" or "in use".
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
#include <linux/fs.h>
#include <blkid/blkid.h>

#include "base.h"
#include "fsprep/prepP.h"
#include "msg.h"
#include "units.h"

static dev_t wholedisk(dev_t d)
{
	dev_t disk = 0;

	if (blkid_devno_to_wholedisk(d, NULL, 0, &disk) || !disk)
		return d;
	return disk;
}

/* Is @d the device @rdev, or a partition of it? */
static bool on_device(dev_t d, dev_t rdev)
{
	return d == rdev || (major(d) && wholedisk(d) == rdev);
}

/*
 * What a block device keeps its data on, followed down its stack: the device numbers met
 * (loop devices on block devices, device-mapper/md slaves in sysfs) and the regular files at
 * the bottom (a loop device's backing file, by identity).  Issue 16 item 9: a loop device on
 * the other's backing file or on the other device has its own device number, yet formatting
 * both writes one storage twice.
 */
#define STACK_MAX 32

struct storage {
	dev_t devs[STACK_MAX];       /* devs[0]: the device itself */
	size_t ndevs;
	struct file_id files[8];     /* backing files of loop devices in the stack */
	char paths[8][256];          /* and their names, for messages */
	size_t nfiles;
};

static void storage_walk(struct storage *s, dev_t d, int depth)
{
	char *path;
	DIR *dir;
	struct dirent *e;

	for (size_t i = 0; i < s->ndevs; i++)
		if (s->devs[i] == d)
			return;
	if (s->ndevs == STACK_MAX || depth > 8)
		return;
	s->devs[s->ndevs++] = d;
	/* a loop device: its backing file, or the block device it is stacked on */
	{
		char node[300], back[256];
		struct file_id id;
		struct stat sb;

		snprintf(node, sizeof(node), "%s", devno_name(d));
		if (!stat(node, &sb) && S_ISBLK(sb.st_mode) && sb.st_rdev == d &&
		    !loop_backing(node, &id, back, sizeof(back))) {
			if (!stat(back, &sb) && S_ISBLK(sb.st_mode) && (uint64_t)sb.st_ino == id.ino &&
			    (uint64_t)sb.st_dev == id.dev) {
				storage_walk(s, sb.st_rdev, depth + 1);
			} else if (s->nfiles < ARRAY_SIZE(s->files)) {
				s->files[s->nfiles] = id;
				snprintf(s->paths[s->nfiles++], sizeof(s->paths[0]), "%s", back);
			}
		}
	}
	/* device-mapper and md: the devices under it */
	path = sysblock_path(d, "slaves");
	dir = opendir(path);
	free(path);
	while (dir && (e = readdir(dir))) {
		char *devfile = xasprintf("/sys/class/block/%s/dev", e->d_name), buf[32];
		unsigned ma, mi;

		if (e->d_name[0] != '.' && !read_line_file(devfile, buf, sizeof(buf)) &&
		    sscanf(buf, "%u:%u", &ma, &mi) == 2)
			storage_walk(s, makedev(ma, mi), depth + 1);
		free(devfile);
	}
	if (dir)
		closedir(dir);
}

/* "X is backed by Y" when one device is on the other's stack, else "both backed by Y". */
static char *shared_what(const char *db, const char *log, const struct storage *a,
			 const struct storage *b, dev_t shared)
{
	char yname[300];

	snprintf(yname, sizeof(yname), "%s", devno_name(shared));
	if (shared == a->devs[0])
		return xasprintf("%s is backed by %s", log, db);
	if (shared == b->devs[0])
		return xasprintf("%s is backed by %s", db, log);
	return xasprintf("both backed by %s", yname);
}

int safety_check_pair(const char *db, const char *log)
{
	struct storage *a, *b;
	struct stat sa, sb;
	char *what = NULL;
	int ret = 0;

	if (stat(db, &sa) || stat(log, &sb) || !S_ISBLK(sa.st_mode) || !S_ISBLK(sb.st_mode))
		return 0; /* safety_check_device() reports these */
	if (sa.st_rdev == sb.st_rdev)
		return input_error("--db-dev %s and --log-dev %s are the same device; give two different devices",
				   db, log);
	if (on_device(sa.st_rdev, sb.st_rdev) || on_device(sb.st_rdev, sa.st_rdev))
		return input_error("--db-dev %s and --log-dev %s overlap (one is a partition of the other); give two separate devices",
				   db, log);
	a = xcalloc(1, sizeof(*a));
	b = xcalloc(1, sizeof(*b));
	storage_walk(a, sa.st_rdev, 0);
	storage_walk(b, sb.st_rdev, 0);
	for (size_t i = 0; i < a->ndevs && !what; i++)
		for (size_t j = 0; j < b->ndevs && !what; j++) {
			dev_t x = a->devs[i], y = b->devs[j];

			if (x == y) {
				what = shared_what(db, log, a, b, x);
			} else if (on_device(x, y) || on_device(y, x)) {
				char part[300];
				bool xp = on_device(x, y);

				/* devno_name() has one static buffer */
				snprintf(part, sizeof(part), "%s", devno_name(xp ? x : y));
				what = xasprintf("%s is a partition of %s", part, devno_name(xp ? y : x));
			}
		}
	for (size_t i = 0; i < a->nfiles && !what; i++)
		for (size_t j = 0; j < b->nfiles && !what; j++)
			if (file_id_same(&a->files[i], &b->files[j]))
				what = xasprintf("both backed by %s", a->paths[i][0] ? a->paths[i] : b->paths[j]);
	if (what) {
		ret = input_error("--db-dev %s and --log-dev %s are the same storage (%s): formatting both would write it twice; give two separate devices",
				  db, log, what);
		goto out;
	}
	/* Partitions of one disk are separate, but not separate storage for a measurement of
	 * database against log I/O: decided in docs/PREP.md. */
	for (size_t i = 0; i < a->ndevs && !ret; i++)
		for (size_t j = 0; j < b->ndevs && !ret; j++) {
			dev_t wa = wholedisk(a->devs[i]), wb = wholedisk(b->devs[j]);

			if (wa == wb && major(wa)) {
				char disk[300];

				snprintf(disk, sizeof(disk), "%s", devno_name(wa));
				ret = input_error("--db-dev %s and --log-dev %s are on one disk (%s): the log would share the database's storage; give devices on two different disks (or use --image-dir)",
						  db, log, disk);
			}
		}
out:
	free(what);
	free(a);
	free(b);
	return ret;
}

/* Name of the first holder (dm-0, md127) of @d, or of one of its partitions; caller frees. */
static char *first_holder(dev_t d)
{
	char *path = sysblock_path(d, "holders"), *found = NULL;
	DIR *dir = opendir(path);
	struct dirent *e;

	free(path);
	if (dir) {
		while (!found && (e = readdir(dir)))
			if (e->d_name[0] != '.')
				found = xstrdup(e->d_name);
		closedir(dir);
	}
	if (found)
		return found;
	/* Partitions are subdirectories of the disk's sysfs directory with a "partition" file. */
	path = sysblock_path(d, "");
	dir = opendir(path);
	if (dir) {
		while (!found && (e = readdir(dir))) {
			char *pfile = xasprintf("%s%s/partition", path, e->d_name);
			char *devfile = xasprintf("%s%s/dev", path, e->d_name);
			char buf[32];
			unsigned ma, mi;

			if (e->d_name[0] != '.' && !access(pfile, F_OK) &&
			    !read_line_file(devfile, buf, sizeof(buf)) &&
			    sscanf(buf, "%u:%u", &ma, &mi) == 2)
				found = first_holder(makedev(ma, mi));
			free(pfile);
			free(devfile);
		}
		closedir(dir);
	}
	free(path);
	return found;
}

/* Is @rdev (or a partition of it) listed in /proc/swaps?  Returns the swap path or NULL. */
static char *swap_user(dev_t rdev)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[4096], *found = NULL;

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');
		struct stat sb;

		if (line[0] != '/' || !sp)
			continue;
		*sp = 0;
		if (!stat(line, &sb) && S_ISBLK(sb.st_mode) && on_device(sb.st_rdev, rdev))
			found = xstrdup(line);
	}
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
			    on_device(sb.st_rdev, rdev))
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
static int check_exclusive(const char *dev, const char *role, uint64_t *size, bool *ro)
{
	int fd, r = 0;

	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		if (errno == EBUSY)
			return input_error("%s (--%s-dev) is in use (exclusive open failed: held by a mount, swap, LVM, RAID or another program); free it first, --force does not override this",
					   dev, role);
		return input_error("cannot open %s (--%s-dev): %s; check the device and that you are root",
				   dev, role, strerror(errno));
	}
	if (ioctl(fd, BLKGETSIZE64, size))
		*size = 0;
	if (ioctl(fd, BLKROGET, &r))
		r = 0;
	*ro = r != 0;
	close(fd);
	return 0;
}

int safety_check_device(const char *dev, const char *role, const struct fs_desc *fs, bool force,
			char **sig)
{
	char *target = NULL, *what = NULL, *s, comm[64];
	dev_t root;
	struct stat sb;
	uint64_t size = 0;
	bool ro = false;
	pid_t pid;
	int ret;

	*sig = NULL;
	if (stat(dev, &sb)) {
		if (errno == ENOENT)
			return input_error("%s (--%s-dev) does not exist; check the name with lsblk, or use --image-dir for image files",
					   dev, role);
		return input_error("cannot look at %s (--%s-dev): %s; check the path",
				   dev, role, strerror(errno));
	}
	if (!S_ISBLK(sb.st_mode))
		return input_error("%s (--%s-dev) is not a block device; give a disk or partition, or use --image-dir for image files",
				   dev, role);

	root = mount_root_devno();
	if (root && (root == sb.st_rdev || wholedisk(root) == sb.st_rdev))
		return input_error("%s (--%s-dev) holds / (the root filesystem); give a spare device, --force does not override this",
				   dev, role);

	ret = mount_find_device(sb.st_rdev, dev, &target, &what);
	if (ret > 0) {
		if (!strcmp(what, dev))
			ret = input_error("%s (--%s-dev) is mounted on %s; unmount it first, --force does not override this",
					  dev, role, target);
		else
			ret = input_error("%s (--%s-dev) has a mounted partition %s (on %s); unmount it first, --force does not override this",
					  dev, role, what, target);
		free(target);
		free(what);
		return ret;
	}
	if (ret < 0)
		return input_error("cannot read the mount table to check %s: %s", dev, strerror(-ret));

	if ((s = swap_user(sb.st_rdev)))
		ret = input_error("%s (--%s-dev) is in use as swap (%s); swapoff it first, --force does not override this",
				  dev, role, s);
	else if ((s = first_holder(sb.st_rdev)))
		ret = input_error("%s (--%s-dev) is held by %s (device-mapper, LVM or RAID); remove that first, --force does not override this",
				  dev, role, s);
	free(s);
	if (ret)
		return ret;
	ret = check_exclusive(dev, role, &size, &ro);
	if (ret)
		return ret;
	pid = opened_by(sb.st_rdev, comm, sizeof(comm));
	if (pid)
		return input_error("%s (--%s-dev) is open by process %d (%s); stop it first, --force does not override this",
				   dev, role, (int)pid, comm);
	if (ro)
		return input_error("%s (--%s-dev) is read-only; make it writable (blockdev --setrw) or pick another device",
				   dev, role);
	if (size && size < fs->min_size) {
		char a[32], b[32];

		return input_error("%s (--%s-dev) has %s, %s needs at least %s; give a larger device",
				   dev, role, fmt_size(a, sizeof(a), size), fs->name,
				   fmt_size(b, sizeof(b), fs->min_size));
	}

	ret = probe_signature(dev, &what);
	if (ret < 0)
		return input_error("cannot probe %s (--%s-dev) for signatures: %s", dev, role,
				   strerror(-ret));
	if (ret > 0 && !force) {
		ret = input_error("%s (--%s-dev) holds %s and may hold data; check it with lsblk -f, then pass --force to overwrite it",
				  dev, role, what);
		free(what);
		return ret;
	}
	*sig = ret > 0 ? what : NULL;
	return 0;
}
