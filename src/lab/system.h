/* SPDX-License-Identifier: MIT */
/*
 * system.h: the systems a lab's steps run on, described once as data (fio's os/os-<name>.h,
 * git's run-command): everything the lab does differently on Linux and Windows is a field or
 * an op of its entry, and the rest of src/lab asks for those, never for a system's name.  A
 * *target* (step.h) is a system reached one way: this machine, or a host over OpenSSH; so
 * local Linux, local Windows, ssh-to-Linux and ssh-to-Windows are the two entries here times
 * the two ways step.c starts a step.  A new kind of host is one system_<name>.c and its line
 * in lab_systems[] (system.c).
 */
#ifndef FSLAB_LAB_SYSTEM_H
#define FSLAB_LAB_SYSTEM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/base.h"
#include "fsprep/prep.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

struct lab_cfg;
struct lab_fs;
struct lab_host;

/* Where a cell's steps run and with what: the lab's machine or one of its hosts (args.c). */
struct lab_where {
	const struct lab_system *sys;
	const char *mnt;             /* the mount root there */
	char *owner;                 /* prep's and teardown's --owner (SYS_OWNER), heap */
	const char *image_dir, *db_dev, *log_dev;
	uint64_t db_image_size, log_image_size;
	int db_disk, log_disk;       /* disks by number (SYS_DISKS) */
	const char *output;          /* the run's result there; NULL: the cell's */
	const char *start_at;        /* the run's --start-at; NULL: none */
	const char *prep_json;       /* a raw cell's prep.json, here; NULL: MNT/prep.json */
};

/* lab_system.flags */
enum {
	/* its prep and teardown are never killed, not even with the lab: they finish, or undo
	 * themselves on failure, and the next teardown takes what they made (PowerShell
	 * half-way through formatting a disk leaves nothing a teardown could find) */
	SYS_PREP_UNKILLABLE = 1 << 0,
	/* prep and teardown take --owner: a teardown takes only what this lab's preps made,
	 * never a user's prep on the same mount root */
	SYS_OWNER = 1 << 1,
	/* prep formats whole disks by number ([devices] db_disk/log_disk; a host's
	 * db_dev/log_dev are those numbers) */
	SYS_DISKS = 1 << 2,
	/* the raw-device baseline runs there (block devices) */
	SYS_RAW = 1 << 3,
	/* its OpenSSH server hands commands to cmd.exe (delayed expansion off): the hello probe
	 * leaves out the word cmd.exe cannot carry */
	SYS_CMD_SHELL = 1 << 4,
	/* its absolute paths begin with a drive letter (C:\\): such a path in a config read for
	 * another system is refused as this system's folder */
	SYS_DRIVES = 1 << 5,
	/* a lab with [host] sections is driven from a machine of this system (ssh and its kept
	 * connections): the only system a host with ssh = local (the controller) can be */
	SYS_CONTROLLER = 1 << 6,
};

struct lab_system {
	const char *name;         /* [host] os = NAME; fslab hosts' listing */
	const char *title;        /* in messages: "Linux", "Windows" */
	enum prep_sys prep;       /* whose prep backends make its filesystems (fsprep/prep.h) */
	const char *fslab;        /* the command there: "fslab", "fslab.exe" */
	char sep;                 /* its paths' separator */
	const char *workdir;      /* a host's work directories: WORKDIR-<lab id><sep><host> */
	unsigned int flags;       /* SYS_* */
	/* where gnuplot may come from, after "install the Debian package gnuplot-nox" */
	const char *gnuplot;
	/* is path absolute there? */
	bool (*absolute)(const char *path);
	/* the mount root of the lab's preps under out, when the lab runs here (heap) */
	char *(*mount_root)(const char *out);
	/* what its preps take, for the log: "loop devices on images", "Windows disks" */
	const char *(*devices_words)(const struct lab_cfg *c);
	/* the prep backend's argv: `prep --fs NAME ...` of fs on w (force: [devices] force) */
	void (*prep_args)(const struct lab_where *w, const struct lab_fs *fs, bool force,
			  struct strvec *a);
	/* `fslab ARGS` (argv, the binary first) as the command line its ssh server's shell
	 * runs; 0, or -EINVAL with *why (an argument that shell cannot carry) */
	int (*remote_command)(struct strbuf *out, const char *const *argv, const char **why);
	/*
	 * [devices] of a lab that runs here, checked after the whole file: problem(ctx, line,
	 * text) for each; seen: the section was there.  And a [host] of this system's devices
	 * (img, db, log: its own keys, else [devices]'s): the number of problems.
	 */
	void (*check_devices)(const struct lab_cfg *c, bool seen,
			      void (*problem)(void *ctx, int line, const char *text), void *ctx);
	/* an [fs NAME] section its preps make: fs (the filesystem's descriptor, NULL when the
	 * name is none) one of its prep's, with the options its prep takes */
	void (*check_fs)(const struct lab_fs *f, const struct fs_desc *fs,
			 void (*problem)(void *ctx, int line, const char *text), void *ctx);
	unsigned int (*check_host_devices)(const struct lab_host *h, const char *img,
					   const char *db, const char *log,
					   void (*problem)(void *ctx, int line, const char *text),
					   void *ctx);
};

/* The systems, in the order `os =` lists them; NULL-terminated (system.c). */
extern const struct lab_system *const lab_systems[];
/* The system named name ([host] os = NAME), or NULL. */
const struct lab_system *lab_system_find(const char *name);
/* Another system than sys whose prep makes fs, or NULL. */
const struct lab_system *lab_system_making(const struct lab_system *sys,
					   const struct fs_desc *fs);
/* The system this fslab was built for. */
const struct lab_system *lab_system_here(void);
/* "linux or windows": the names of lab_systems[], for messages (heap). */
char *lab_system_names(void);
/* The step flags rule: may a step `fslab ARGS` on sys be killed (and die with the lab)? */
bool lab_system_killable(const struct lab_system *sys, const struct strvec *args);
/* Problems formatted for check_devices()'s callback. */
void lab_system_problem(void (*problem)(void *ctx, int line, const char *text), void *ctx,
			int line, const char *fmt, ...) __printf(4, 5);
void lab_system_vproblem(void (*problem)(void *ctx, int line, const char *text), void *ctx,
			 int line, const char *fmt, va_list ap) __printf(4, 0);

#endif
