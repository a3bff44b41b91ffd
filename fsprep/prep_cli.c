// SPDX-License-Identifier: MIT
/* prep_cli.c: `fslab prep` and `fslab teardown` on Linux devices (the mkfs and raw backends):
 * options, help, exit statuses. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base.h"
#include "cmds.h"
#include "fsprep/prepP.h"
#include "msg.h"
#include "os/os.h"
#include "units.h"

/* Where the option texts of --help start, and how wide they run. */
#define HELP_COL 23
#define HELP_WIDTH 94

/* "  --fs FS   ext4, xfs, ntfs (ntfs-3g), ... or btrfs." then what only Windows makes, and
 * raw, each on a line of its own: from the table. */
static void fs_help(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	char *made = fs_list(PREP_LINUX, FSL_ABOUT, "%s", ", ", " or ");
	char *elsewhere = fs_list(PREP_LINUX, FSL_NOT, "%s", ", ", " and ");

	strbuf_addstr(&sb, "  --fs FS              ");
	strbuf_add_wrapped(&sb, made, HELP_COL, HELP_COL, HELP_WIDTH);
	strbuf_addch(&sb, '.');
	if (*elsewhere)
		strbuf_addf(&sb, "\n%*s%s: formatted by Windows only, on the Windows side of the lab",
			    HELP_COL, "", elsewhere);
	for (size_t i = 0; i < fs_count(); i++)
		if (fs_is_raw(fs_at(i)) && fs_makes(fs_at(i), PREP_LINUX, true))
			strbuf_addf(&sb, "\n%*s%s: %s", HELP_COL, "", fs_at(i)->name,
				    fs_at(i)->about);
	fprintf(f, "%s\n", sb.buf);
	strbuf_release(&sb);
	free(made);
	free(elsewhere);
}

/* what --cluster sets for the filesystem, and the sizes it takes */
static const char *cluster_rule(const struct fs_mkfs *m)
{
	return m->cluster_help;
}

/* the filesystem's default mount options */
static const char *mount_rule(const struct fs_mkfs *m)
{
	return m->mount_opts;
}

/*
 * "  OPTION   TEXT" then, from the table, the filesystems grouped by what @rule says of each
 * ("ext4 and xfs: the block size ...; btrfs: ..."), closed by ")" when @text opened one;
 * wrapped as the other option lines.
 */
static void option_help(FILE *f, const char *option, const char *text,
			const char *(*rule)(const struct fs_mkfs *m))
{
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT;
	bool *done = xcalloc(fs_count(), sizeof(*done));

	strbuf_addstr(&sb, text);
	for (size_t i = 0; i < fs_count(); i++) {
		const struct fs_mkfs *m = fs_at(i)->mkfs;
		size_t n = 0, total = 0;

		if (done[i] || !m)
			continue;
		for (size_t j = i; j < fs_count(); j++)
			total += fs_at(j)->mkfs && !strcmp(rule(fs_at(j)->mkfs), rule(m));
		strbuf_addstr(&sb, sb.len > strlen(text) ? "; " : "");
		for (size_t j = i; j < fs_count(); j++) {
			if (!fs_at(j)->mkfs || strcmp(rule(fs_at(j)->mkfs), rule(m)))
				continue;
			done[j] = true;
			strbuf_addf(&sb, "%s%s", !n ? "" : n + 1 == total ? " and " : ", ",
				    fs_at(j)->name);
			n++;
		}
		strbuf_addf(&sb, ": %s", rule(m));
	}
	if (strchr(text, '('))
		strbuf_addch(&sb, ')');
	strbuf_addf(&line, "  %-*s", HELP_COL - 2, option);
	strbuf_add_wrapped(&line, sb.buf, HELP_COL, HELP_COL, HELP_WIDTH);
	fprintf(f, "%s\n", line.buf);
	strbuf_release(&sb);
	strbuf_release(&line);
	free(done);
}

static void prep_usage(FILE *f)
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
	fs_help(f);
	fputs(
"  --db-dev DEV         block device for the database volume\n"
"  --log-dev DEV        block device for the log volume\n"
"  --image-dir DIR      instead of devices: sparse images DIR/db.img and DIR/log.img on loop\n"
"                       devices with direct I/O (no spare disk needed)\n"
"  --db-size SIZE       database image size (default 8G; --image-dir only)\n"
"  --log-size SIZE      log image size (default 2G; --image-dir only)\n"
"  --mount-root DIR     mount on DIR/db and DIR/log; DIR/prep.json records what was done\n", f);
	option_help(f, "--cluster SIZE", "", cluster_rule);
	fputs(
"  --mkfs-opts \"...\"    extra mkfs options, appended (split on blanks, no shell); options\n"
"                       that name another device or file (XFS -l logdev=, ext4 -J device=,\n"
"                       a second device for mkfs.btrfs...) are refused\n", f);
	option_help(f, "--mount-opts \"...\"", "extra mount options, appended to the defaults (",
		    mount_rule);
	fputs(
"  --ntfs-cache-limit SIZE  memory limit of the cgroup ntfs-3g runs in (default 64M; 0 = no\n"
"                       limit, and ntfs-3g's page cache then inflates measured reads)\n"
"  --dry-run            print the plan (every command and mount with options); change nothing\n"
"  --force              overwrite an existing signature (or existing image files); never\n"
"                       overrides mounted or in-use devices.  The signature is wiped after\n"
"                       the discard (raw too, so fslab run needs no --force of its own)\n"
"  --owner NAME         record who asked for this prep: fslab teardown --owner NAME takes\n"
"                       down only preps recorded with that name (the lab passes\n"
"                       \"fslab lab OUT\")\n"
"  --stop-on-stdin-eof  the end of standard input rolls the prep back as SIGINT does (fslab\n"
"                       lab stops its steps so, also over ssh)\n"
"  -h, --help           this text\n"
"\n"
"Every step is recorded first in /var/lib/fslab/prep-state/ (root's only, with the identity of\n"
"each image file made); `fslab teardown --mount-root DIR` undoes exactly that, also after a\n"
"crash.  One prep at a time per --image-dir (locked).  SIGINT, SIGTERM, SIGHUP or SIGPIPE\n"
"(e.g. piped into head) during prep roll back what was done.\n"
"Exit status: 0 ok, 1 failure (rolled back), 2 bad input or refused (nothing touched).\n",
	      f);
}

static void teardown_usage(FILE *f)
{
	fprintf(f,
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
"\n"
"  --mount-root DIR     tear down the prep on DIR (default: every recorded prep)\n"
"  --keep-images        keep the image files (detach them only)\n"
"  --owner NAME         only a prep recorded with prep --owner NAME; any other is left alone\n"
"  --stop-on-stdin-eof  accepted as run and prep take it; a teardown finishes anyway\n"
"  -h, --help           this text\n"
"\n"
"Exit status: 0 ok (also when nothing was recorded), 1 something could not be undone (the\n"
"record keeps what is left), 2 bad input.\n");
}

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

enum {
	OPT_FS = 256, OPT_DB_DEV, OPT_LOG_DEV, OPT_IMAGE_DIR, OPT_DB_SIZE, OPT_LOG_SIZE,
	OPT_MOUNT_ROOT, OPT_CLUSTER, OPT_MKFS_OPTS, OPT_MOUNT_OPTS, OPT_NTFS_LIMIT, OPT_DRY_RUN,
	OPT_FORCE, OPT_KEEP_IMAGES, OPT_OWNER, OPT_STOP_EOF,
};

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

static int parse_prep(int argc, char **argv, struct prep_opts *o, bool *help)
{
	static const struct option longopts[] = {
		{ "fs", required_argument, NULL, OPT_FS },
		{ "db-dev", required_argument, NULL, OPT_DB_DEV },
		{ "log-dev", required_argument, NULL, OPT_LOG_DEV },
		{ "image-dir", required_argument, NULL, OPT_IMAGE_DIR },
		{ "db-size", required_argument, NULL, OPT_DB_SIZE },
		{ "log-size", required_argument, NULL, OPT_LOG_SIZE },
		{ "mount-root", required_argument, NULL, OPT_MOUNT_ROOT },
		{ "cluster", required_argument, NULL, OPT_CLUSTER },
		{ "mkfs-opts", required_argument, NULL, OPT_MKFS_OPTS },
		{ "mount-opts", required_argument, NULL, OPT_MOUNT_OPTS },
		{ "ntfs-cache-limit", required_argument, NULL, OPT_NTFS_LIMIT },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "owner", required_argument, NULL, OPT_OWNER },
		{ "stop-on-stdin-eof", no_argument, NULL, OPT_STOP_EOF },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool sized = false, limit_given = false;
	const char *fs = NULL;
	int c, ret = 0;

	memset(o, 0, sizeof(*o));
	o->image_size[VOL_DB] = 8 * GiB;
	o->image_size[VOL_LOG] = 2 * GiB;
	o->ntfs_cache_limit = NTFS_CACHE_LIMIT_DEFAULT;
	while (!ret && (c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FS: fs = optarg; break;
		case OPT_DB_DEV: o->dev[VOL_DB] = optarg; break;
		case OPT_LOG_DEV: o->dev[VOL_LOG] = optarg; break;
		case OPT_IMAGE_DIR: o->image_dir = optarg; break;
		case OPT_DB_SIZE:
			ret = size_opt("--db-size", optarg, &o->image_size[VOL_DB]);
			sized = true;
			break;
		case OPT_LOG_SIZE:
			ret = size_opt("--log-size", optarg, &o->image_size[VOL_LOG]);
			sized = true;
			break;
		case OPT_MOUNT_ROOT: o->mount_root = optarg; break;
		case OPT_CLUSTER: ret = size_opt("--cluster", optarg, &o->cluster); break;
		case OPT_MKFS_OPTS: o->mkfs_opts = optarg; break;
		case OPT_MOUNT_OPTS: o->mount_opts = optarg; break;
		case OPT_NTFS_LIMIT:
			if (parse_size(optarg, &o->ntfs_cache_limit))
				ret = input_error("--ntfs-cache-limit %s: not a size; use e.g. 64M, or 0 for none",
						  optarg);
			else if (o->ntfs_cache_limit && o->ntfs_cache_limit < 16 * MiB)
				ret = input_error("--ntfs-cache-limit %s: below 16M the ntfs-3g daemon itself may be killed for lack of memory; use 16M or more (or 0 for none)",
						  optarg);
			limit_given = true;
			break;
		case OPT_DRY_RUN: o->dry_run = true; break;
		case OPT_FORCE: o->force = true; break;
		case OPT_OWNER:
			if (!*optarg)
				return input_error("--owner is empty; give a name, such as the lab's \"fslab lab /srv/out\"");
			o->owner = optarg;
			break;
		case OPT_STOP_EOF: o->stop_on_stdin_eof = true; break;
		case 'h': *help = true; return 0;
		default: return input_error("run 'fslab prep --help' for the options");
		}
	}
	if (ret)
		return ret;
	if (optind < argc)
		return input_error("unexpected argument '%s'; run 'fslab prep --help'", argv[optind]);
	return check_prep_opts(o, fs, sized, limit_given);
}


int cmd_linuxprep(int argc, char **argv)
{
	struct prep_opts o;
	bool help = false;
	int ret;

	ret = parse_prep(argc, argv, &o, &help);
	if (help) {
		prep_usage(stdout);
		return FSLAB_EXIT_OK;
	}
	if (ret)
		return FSLAB_EXIT_USAGE;
	/* the lab's stop: EOF raises SIGINT here, which rolls the prep back */
	if (o.stop_on_stdin_eof && !o.dry_run && os_stop_on_stdin_eof())
		fslab_warn("cannot watch standard input (--stop-on-stdin-eof): stop prep with "
			   "Ctrl-C instead");
	return prep_run(&o);
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
	static const struct option longopts[] = {
		{ "mount-root", required_argument, NULL, OPT_MOUNT_ROOT },
		{ "keep-images", no_argument, NULL, OPT_KEEP_IMAGES },
		{ "owner", required_argument, NULL, OPT_OWNER },
		{ "stop-on-stdin-eof", no_argument, NULL, OPT_STOP_EOF },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sigaction sa = { .sa_handler = on_teardown_signal, .sa_flags = SA_RESTART };
	const char *root = NULL, *owner = NULL;
	bool keep = false;
	json_t *roots, *r;
	size_t i;
	int c, ret = 0, first = 0;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_MOUNT_ROOT: root = optarg; break;
		case OPT_KEEP_IMAGES: keep = true; break;
		case OPT_OWNER: owner = optarg; break;
		case OPT_STOP_EOF: break;
		case 'h': teardown_usage(stdout); return FSLAB_EXIT_OK;
		default:
			input_error("run 'fslab teardown --help' for the options");
			return FSLAB_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		input_error("unexpected argument '%s'; run 'fslab teardown --help'", argv[optind]);
		return FSLAB_EXIT_USAGE;
	}
	if (geteuid()) {
		input_error("fslab teardown needs root (umount, loop devices); run it with sudo");
		return FSLAB_EXIT_USAGE;
	}
	/* A closed terminal or a reader gone (`| head -1`) must not cut a teardown short: it
	 * finishes, its messages are lost.  SIGINT and SIGTERM still stop it (it resumes). */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	if (root) {
		ret = teardown_root(root, keep, owner);
	} else {
		roots = json_array();
		ret = state_registry_roots(roots);
		if (ret)
			fslab_err("cannot read %s: %s", PREP_STATE_DIR, strerror(-ret));
		if (!ret && !json_array_size(roots))
			fslab_info("no prep recorded in %s: nothing to tear down", PREP_STATE_DIR);
		legacy_registry_note();
		json_array_foreach(roots, i, r) {
			ret = teardown_root(json_string_value(r), keep, owner);
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
