// SPDX-License-Identifier: MIT
/* prep_cli.c: `fslab prep` and `fslab teardown` on Linux devices (the mkfs and raw backends):
 * options, help, exit statuses. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/base.h"
#include "cmds.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"
#include "lib/opt.h"
#include "os/os.h"
#include "lib/units.h"

/* "ext4, xfs, ntfs (ntfs-3g), ... or btrfs." then what only Windows makes, and raw, each on a
 * line of its own: --fs's text, from the table. */
static void fs_help(struct strbuf *sb)
{
	char *made = fs_list(PREP_LINUX, FSL_ABOUT, "%s", ", ", " or ");
	char *elsewhere = fs_list(PREP_LINUX, FSL_NOT, "%s", ", ", " and ");

	strbuf_addf(sb, "%s.", made);
	if (*elsewhere)
		strbuf_addf(sb, "\n%s: formatted by Windows only, on the Windows side of the lab",
			    elsewhere);
	for (size_t i = 0; i < fs_count(); i++)
		if (fs_is_raw(fs_at(i)) && fs_makes(fs_at(i), PREP_LINUX, true))
			strbuf_addf(sb, "\n%s: %s", fs_at(i)->name, fs_at(i)->about);
	free(made);
	free(elsewhere);
}

/* "ext4, xfs, ntfs, ntfs3, btrfs or raw": what --fs takes */
static const char *fs_choices(void)
{
	static char *names;

	if (!names)
		names = fs_list(PREP_LINUX, FSL_RAW, "%s", ", ", " or ");
	return names;
}

/*
 * TEXT then, from the table, the filesystems grouped by what @rule says of each ("ext4 and
 * xfs: the block size ...; btrfs: ..."), closed by ")" when @text opened one.
 */
static void rule_help(struct strbuf *sb, const char *text,
		      const char *(*rule)(const struct fs_mkfs *m))
{
	bool *done = xcalloc(fs_count(), sizeof(*done));
	size_t start = sb->len;

	strbuf_addstr(sb, text);
	for (size_t i = 0; i < fs_count(); i++) {
		const struct fs_mkfs *m = fs_at(i)->mkfs;
		size_t n = 0, total = 0;

		if (done[i] || !m)
			continue;
		for (size_t j = i; j < fs_count(); j++)
			total += fs_at(j)->mkfs && !strcmp(rule(fs_at(j)->mkfs), rule(m));
		strbuf_addstr(sb, sb->len > start + strlen(text) ? "; " : "");
		for (size_t j = i; j < fs_count(); j++) {
			if (!fs_at(j)->mkfs || strcmp(rule(fs_at(j)->mkfs), rule(m)))
				continue;
			done[j] = true;
			strbuf_addf(sb, "%s%s", !n ? "" : n + 1 == total ? " and " : ", ",
				    fs_at(j)->name);
			n++;
		}
		strbuf_addf(sb, ": %s", rule(m));
	}
	if (strchr(text, '('))
		strbuf_addch(sb, ')');
	free(done);
}

/* what --cluster sets for each filesystem, and the sizes it takes */
static const char *cluster_rule(const struct fs_mkfs *m)
{
	return m->cluster_help;
}

static void cluster_help(struct strbuf *sb)
{
	rule_help(sb, "", cluster_rule);
}

/* each filesystem's default mount options */
static const char *mount_rule(const struct fs_mkfs *m)
{
	return m->mount_opts;
}

static void mount_opts_help(struct strbuf *sb)
{
	rule_help(sb, "extra mount options, appended to the defaults (", mount_rule);
}

static void prep_head(FILE *f)
{
	char *names = fs_list(PREP_LINUX, FSL_RAW, "%s", "|", "|");

	fprintf(f,
"usage: fslab prep --fs %s --db-dev DEV --log-dev DEV --mount-root DIR [options]\n"
"       fslab prep --fs FS --image-dir DIR [--db-size 8G] [--log-size 2G] --mount-root DIR [options]\n"
"\n"
"Format a database and a log volume with one filesystem, aligned to each device's topology\n"
"(libblkid), verify the result independently, mount them on DIR/db and DIR/log (libmount) and\n"
"record everything in DIR/prep.json.  Destructive: refuses devices that are mounted, in use,\n"
"hold /, or carry a filesystem or partition-table signature (the last one unless --force).\n"
"With --fs raw the devices are only discarded (and wiped with --force): nothing is formatted\n"
"or mounted, and DIR holds just the record.\n"
"\n", names);
	free(names);
}

/* What fslab prep is told: the options, and what is checked once all are in. */
struct prep_args {
	struct prep_opts o;
	const char *fs;
	bool sized, limit_given;
};

enum { PA_DB_SIZE, PA_LOG_SIZE, PA_CLUSTER, PA_NTFS_LIMIT, PA_OWNER };

static int prep_set(void *ctx, const struct opt_def *d, const char *arg);

#define PA(f) .off = offsetof(struct prep_args, f)

static const struct opt_def prep_opts[] = {
	{ .name = "fs", .arg = OPT_CHOICE, .metavar = "FS", .choices = fs_choices,
	  .help_fn = fs_help, .ini = "fs.fs", .store = OPT_STR, PA(fs) },
	{ .name = "db-dev", .arg = OPT_FILE, .metavar = "DEV",
	  .help = "block device for the database volume", .ini = "devices.db_dev",
	  .store = OPT_STR, PA(o.dev[VOL_DB]) },
	{ .name = "log-dev", .arg = OPT_FILE, .metavar = "DEV",
	  .help = "block device for the log volume", .ini = "devices.log_dev", .store = OPT_STR,
	  PA(o.dev[VOL_LOG]) },
	{ .name = "image-dir", .arg = OPT_DIR, .metavar = "DIR",
	  .help = "instead of devices: images DIR/db.img and DIR/log.img (allocated before the "
		  "run, the log image written once) on loop devices with direct I/O (no spare disk "
		  "needed)",
	  .ini = "devices.image_dir", .store = OPT_STR, PA(o.image_dir) },
	{ .name = "db-size", .arg = OPT_WORD, .metavar = "SIZE",
	  .help = "database image size (default 8G; --image-dir only)", .ini = "devices.db_size",
	  .id = PA_DB_SIZE },
	{ .name = "log-size", .arg = OPT_WORD, .metavar = "SIZE",
	  .help = "log image size (default 2G; --image-dir only)", .ini = "devices.log_size",
	  .id = PA_LOG_SIZE },
	{ .name = "mount-root", .arg = OPT_DIR, .metavar = "DIR",
	  .help = "mount on DIR/db and DIR/log; DIR/prep.json records what was done",
	  .store = OPT_STR, PA(o.mount_root) },
	{ .name = "cluster", .arg = OPT_WORD, .metavar = "SIZE", .help_fn = cluster_help,
	  .ini = "fs.cluster", .id = PA_CLUSTER },
	{ .name = "mkfs-opts", .arg = OPT_WORD, .metavar = "\"...\"",
	  .help = "extra mkfs options, appended (split on blanks, no shell); options that name "
		  "another device or file (XFS -l logdev=, ext4 -J device=, a second device for "
		  "mkfs.btrfs...) are refused",
	  .ini = "fs.mkfs_opts", .store = OPT_STR, PA(o.mkfs_opts) },
	{ .name = "mount-opts", .arg = OPT_WORD, .metavar = "\"...\"", .help_fn = mount_opts_help,
	  .ini = "fs.mount_opts", .store = OPT_STR, PA(o.mount_opts) },
	{ .name = "ntfs-cache-limit", .arg = OPT_WORD, .metavar = "SIZE",
	  .help = "memory limit of the cgroup ntfs-3g runs in (default 64M; 0 = no limit, and "
		  "ntfs-3g's page cache then inflates measured reads)",
	  .id = PA_NTFS_LIMIT },
	{ .name = "dry-run",
	  .help = "print the plan (every command and mount with options); change nothing",
	  .store = OPT_TRUE, PA(o.dry_run) },
	{ .name = "force",
	  .help = "overwrite an existing signature (or existing image files); never overrides "
		  "mounted or in-use devices.  The signature is wiped after the discard (raw too, "
		  "so fslab run needs no --force of its own)",
	  .ini = "devices.force", .store = OPT_TRUE, PA(o.force) },
	{ .name = "owner", .arg = OPT_WORD, .metavar = "NAME",
	  .help = "record who asked for this prep: fslab teardown --owner NAME takes down only "
		  "preps recorded with that name (the lab passes \"fslab lab OUT\")",
	  .id = PA_OWNER },
	{ .name = "stop-on-stdin-eof",
	  .help = "the end of standard input rolls the prep back as SIGINT does (fslab lab stops "
		  "its steps so, also over ssh)",
	  .store = OPT_TRUE, PA(o.stop_on_stdin_eof) },
	{ .name = "help", .short_name = 'h', .help = "this text" },
	{ .name = NULL },
};

const struct opt_cmd linuxprep_opt_cmd = {
	.name = "prep",
	.opts = prep_opts,
	.set = prep_set,
	.head_fn = prep_head,
	.tail = "\n"
"Every step is recorded first in /var/lib/fslab/prep-state/ (root's only, with the identity of\n"
"each image file made); `fslab teardown --mount-root DIR` undoes exactly that, also after a\n"
"crash.  One prep at a time per --image-dir (locked).  SIGINT, SIGTERM, SIGHUP or SIGPIPE\n"
"(e.g. piped into head) during prep roll back what was done.\n"
"Exit status: 0 ok, 1 failure (rolled back), 2 bad input or refused (nothing touched).\n",
	.col = 23,
	.width = 94,
};

/* What fslab teardown is told. */
struct teardown_args {
	const char *root, *owner;
	bool keep, stop_on_eof;
};

#define TA(f) .off = offsetof(struct teardown_args, f)

static const struct opt_def teardown_opts[] = {
	{ .name = "mount-root", .arg = OPT_DIR, .metavar = "DIR",
	  .help = "tear down the prep on DIR (default: every recorded prep)", .store = OPT_STR,
	  TA(root) },
	{ .name = "keep-images", .help = "keep the image files (detach them only)",
	  .store = OPT_TRUE, TA(keep) },
	{ .name = "owner", .arg = OPT_WORD, .metavar = "NAME",
	  .help = "only a prep recorded with prep --owner NAME; any other is left alone",
	  .store = OPT_STR, TA(owner) },
	{ .name = "stop-on-stdin-eof",
	  .help = "accepted as run and prep take it; a teardown finishes anyway",
	  .store = OPT_TRUE, TA(stop_on_eof) },
	{ .name = "help", .short_name = 'h', .help = "this text" },
	{ .name = NULL },
};

const struct opt_cmd linuxteardown_opt_cmd = {
	.name = "teardown",
	.opts = teardown_opts,
	.head =
"usage: fslab teardown [--mount-root DIR] [--keep-images] [--owner NAME]\n"
"\n"
"Undo what `fslab prep` recorded on this machine (/var/lib/fslab/prep-state): unmount, wait for\n"
"ntfs-3g to exit, remove its cgroup, detach the loop devices, delete the images, prep.json and\n"
"the mount directories prep made.  Only what is still prep's own: a mount of prep's device on\n"
"its mount point, loop devices backed by the very image file prep created, that file (not\n"
"another under its name); everything else is left alone, one line saying why.  A state file\n"
"in the mount root is never read.  Idempotent; works after a crash or kill -9 of prep.\n"
"Devices given with --db-dev/--log-dev are only unmounted (they keep their new filesystem;\n"
"raw devices are left as they are).  SIGHUP and SIGPIPE do not stop it.\n"
"\n",
	.tail = "\n"
"Exit status: 0 ok (also when nothing was recorded), 1 something could not be undone (the\n"
"record keeps what is left), 2 bad input.\n",
	.col = 23,
	.width = 94,
};

static int size_opt(const char *opt, const char *arg, uint64_t *out)
{
	if (parse_size(arg, out) || !*out)
		return input_error("%s %s: not a size; use e.g. 512M, 8G or 65536", opt, arg);
	return 0;
}

/* The --fs of a Linux prep (any case): one this system's backends make.  0 or
 * -FSLAB_EINPUT naming the valid ones, and where the others are made. */
static int pick_fs(const char *arg, const struct fs_desc **fs)
{
	char name[16], *made, *elsewhere;
	size_t i;
	int ret = 0;

	for (i = 0; arg[i] && i < sizeof(name) - 1; i++)
		name[i] = (char)tolower((unsigned char)arg[i]);
	name[i] = 0;
	*fs = arg[i] ? NULL : fs_find(name);
	if (fs_makes(*fs, PREP_LINUX, true))
		return 0;
	made = fs_list(PREP_LINUX, 0, "%s", ", ", ", ");
	elsewhere = fs_list(PREP_LINUX, FSL_NOT, "%s", ", ", " and ");
	if (*fs)
		ret = input_error("--fs %s: %s can only be formatted by Windows; run the %s side of the comparison on the Windows side of the lab (fslab prep on Linux formats %s)",
				  name, (*fs)->title, (*fs)->title, made);
	else
		ret = input_error("--fs %s: unknown filesystem; valid ones are %s%s%s%s", arg,
				  fs_names(), *elsewhere ? " (" : "", elsewhere,
				  *elsewhere ? " runs on the Windows side of the lab)" : "");
	free(made);
	free(elsewhere);
	*fs = NULL;
	return ret;
}

/* How the options of fslab prep go together; @fs the --fs given, @sized whether --db-size or
 * --log-size were, @limit_given --ntfs-cache-limit.  0 or -FSLAB_EINPUT. */
static int check_prep_opts(struct prep_opts *o, const char *fs, bool sized, bool limit_given)
{
	int ret;

	if (!fs)
		return input_error("--fs is required: %s", fs_names());
	ret = pick_fs(fs, &o->fs);
	if (ret)
		return ret;
	if (o->image_dir && (o->dev[VOL_DB] || o->dev[VOL_LOG]))
		return input_error("give either --image-dir or --db-dev and --log-dev, not both");
	if (!o->image_dir && (!o->dev[VOL_DB] || !o->dev[VOL_LOG]))
		return input_error("give both --db-dev and --log-dev (or --image-dir for image files)");
	if (sized && !o->image_dir)
		return input_error("--db-size and --log-size apply to --image-dir only; device sizes are what they are");
	if (!o->mount_root)
		return input_error("--mount-root is required: the volumes are mounted on DIR/db and DIR/log");
	if (fs_is_raw(o->fs)) {
		const char *opt = o->cluster ? "--cluster" : o->mkfs_opts ? "--mkfs-opts" :
				  o->mount_opts ? "--mount-opts" : limit_given ? "--ntfs-cache-limit" :
				  NULL;

		if (opt)
			return input_error("%s does not apply to --fs raw: no filesystem is made or mounted; drop it",
					   opt);
	}
	if (limit_given && !fs_cache_limited(o->fs)) {
		char *which = fs_list(PREP_LINUX, FSL_WITH(FS_F_PAGE_CACHE), "%s", ", ", " or ");
		int ret2 = input_error("--ntfs-cache-limit applies to --fs %s only", which);

		free(which);
		return ret2;
	}
	if (geteuid())
		return input_error("fslab prep needs root (block devices, loop devices, mkfs, mount); run it with sudo");
	return 0;
}

static int prep_set(void *ctx, const struct opt_def *d, const char *arg)
{
	struct prep_args *a = ctx;
	struct prep_opts *o = &a->o;

	switch (d->id) {
	case PA_DB_SIZE:
	case PA_LOG_SIZE:
		a->sized = true;
		return size_opt(d->id == PA_DB_SIZE ? "--db-size" : "--log-size", arg,
				&o->image_size[d->id == PA_DB_SIZE ? VOL_DB : VOL_LOG]);
	case PA_CLUSTER:
		return size_opt("--cluster", arg, &o->cluster);
	case PA_NTFS_LIMIT:
		a->limit_given = true;
		if (parse_size(arg, &o->ntfs_cache_limit))
			return input_error("--ntfs-cache-limit %s: not a size; use e.g. 64M, or 0 for none",
					   arg);
		if (o->ntfs_cache_limit && o->ntfs_cache_limit < 16 * MiB)
			return input_error("--ntfs-cache-limit %s: below 16M the ntfs-3g daemon itself may be killed for lack of memory; use 16M or more (or 0 for none)",
					   arg);
		return 0;
	case PA_OWNER:
		if (!*arg)
			return input_error("--owner is empty; give a name, such as the lab's \"fslab lab /srv/out\"");
		o->owner = arg;
		return 0;
	}
	return 0;
}

/* fslab prep's argv into a: 0, 1 after --help, or -FSLAB_EINPUT (said). */
static int parse_prep(int argc, char **argv, struct prep_args *a)
{
	int first, ret;

	memset(a, 0, sizeof(*a));
	a->o.image_size[VOL_DB] = 8 * GiB;
	a->o.image_size[VOL_LOG] = 2 * GiB;
	a->o.ntfs_cache_limit = NTFS_CACHE_LIMIT_DEFAULT;
	ret = opt_parse(&linuxprep_opt_cmd, a, argc, argv, &first);
	if (ret)
		return ret;
	return check_prep_opts(&a->o, a->fs, a->sized, a->limit_given);
}

int cmd_linuxprep(int argc, char **argv)
{
	struct prep_args a;
	int ret;

	ret = parse_prep(argc, argv, &a);
	if (ret)
		return ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
	/* the lab's stop: EOF raises SIGINT here, which rolls the prep back */
	if (a.o.stop_on_stdin_eof && !a.o.dry_run && os_stop_on_stdin_eof())
		fslab_warn("cannot watch standard input (--stop-on-stdin-eof): stop prep with "
			   "Ctrl-C instead");
	return prep_run(&a.o);
}

/* Is the prep that wrote the record still running (as a process other than us)? */
static bool prep_still_running(pid_t pid)
{
	struct strbuf sb = STRBUF_INIT;
	bool ours;

	if (pid <= 0 || pid == getpid() || !pid_alive(pid))
		return false;
	/* A pid reused by something else: argv must be "<fslab> prep ...", however long the
	 * path of <fslab> is. */
	ours = read_cmdline(pid, &sb) > 0 && sb.len > strlen(sb.buf) + 1 &&
	       !strcmp(sb.buf + strlen(sb.buf) + 1, "prep");
	strbuf_release(&sb);
	return ours;
}

static int teardown_root(const char *given, bool keep_images, const char *owner)
{
	struct prep_state st;
	char *root = abs_path(given);
	const char *by;
	pid_t pid;
	int ret;

	if (!root)
		return input_error("--mount-root %s: %s", given, strerror(errno));
	ret = state_load(&st, root);
	if (ret == -ENOENT || ret == -EPERM) {
		/* -EPERM: state_load() said what it leaves alone and why */
		if (ret == -ENOENT)
			fslab_info("nothing recorded for %s on this machine: nothing to tear down", root);
		state_legacy_note(root);
		free(root);
		return 0;
	}
	free(root);
	if (ret == -ENODATA) {
		/* prep died right after creating its record, before doing anything */
		ret = state_destroy(&st);
		state_release(&st);
		return ret;
	}
	if (ret)
		return ret;
	state_legacy_note(st.root);
	by = json_string_value(json_object_get(st.j, "owner"));
	if (owner && strcmp(owner, by ? by : "")) {
		fslab_warn("left alone: the prep on %s was made by %s, not by %s: tear it down with fslab teardown --mount-root %s",
			   st.root, by ? by : "fslab prep itself (no --owner)", owner, st.root);
		goto out;
	}
	pid = (pid_t)json_integer_value(json_object_get(st.j, "pid"));
	if (prep_still_running(pid)) {
		ret = input_error("fslab prep (pid %d) is still running on %s; stop it (it rolls back by itself) or let it finish",
				  (int)pid, st.root);
		goto out;
	}
	ret = prep_undo(&st, keep_images);
	if (ret)
		fslab_err("teardown of %s incomplete; what is left stays recorded in %s", st.root,
			  st.path);
	else
		fslab_info("teardown of %s complete", st.root);
out:
	state_release(&st);
	return ret;
}

/* Records of an older fslab (kept in their mount roots): named, never acted on. */
static void legacy_registry_note(void)
{
	DIR *d = opendir(PREP_LEGACY_REGISTRY);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".json"))
			fslab_warn("left alone: %s/%s names a prep of an older fslab, whose record lies in the mount root where anyone could have changed it; tear it down with that fslab, or by hand",
				   PREP_LEGACY_REGISTRY, e->d_name);
	}
	if (d)
		closedir(d);
}

static void on_teardown_signal(int sig)
{
	(void)sig;
}

int cmd_linuxteardown(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_teardown_signal, .sa_flags = SA_RESTART };
	struct teardown_args a = { 0 };
	json_t *roots, *r;
	size_t i;
	int ret, pos, first = 0;

	ret = opt_parse(&linuxteardown_opt_cmd, &a, argc, argv, &pos);
	if (ret)
		return ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
	if (geteuid()) {
		input_error("fslab teardown needs root (umount, loop devices); run it with sudo");
		return FSLAB_EXIT_USAGE;
	}
	/* A closed terminal or a reader gone (`| head -1`) must not cut a teardown short: it
	 * finishes, its messages are lost.  SIGINT and SIGTERM still stop it (it resumes). */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	if (a.root) {
		ret = teardown_root(a.root, a.keep, a.owner);
	} else {
		roots = json_array();
		ret = state_registry_roots(roots);
		if (ret)
			fslab_err("cannot read %s: %s", PREP_STATE_DIR, strerror(-ret));
		if (!ret && !json_array_size(roots))
			fslab_info("no prep recorded in %s: nothing to tear down", PREP_STATE_DIR);
		legacy_registry_note();
		json_array_foreach(roots, i, r) {
			ret = teardown_root(json_string_value(r), a.keep, a.owner);
			if (ret && !first)
				first = ret;
		}
		json_decref(roots);
		ret = first ? first : ret;
	}
	if (!ret)
		return FSLAB_EXIT_OK;
	return ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : FSLAB_EXIT_FAIL;
}
