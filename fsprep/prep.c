// SPDX-License-Identifier: MIT
/*
 * prep.c: one `fslab prep`: check everything (prep_check.c: nothing is touched before all
 * checks pass), print the plan for --dry-run (prep_dryrun.c), or carry it out step by step,
 * recording each step in the state file before (intent) and after it.  A failure or
 * SIGINT/SIGTERM/SIGHUP/SIGPIPE rolls back through prep_undo(), the code `fslab teardown`
 * runs.  The image directory is locked for the whole prep (flock, as fslab run locks its
 * directories), and images are created exclusively and recorded by identity, so a prep only
 * ever removes what it made itself.  The steps that make and mount a filesystem are the
 * backend's (struct prep_backend: mkfs here; raw has none, and stops after attach, discard and
 * wipe: the devices are the baseline fslab run measures without a filesystem).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/base.h"
#include "cmds.h"
#include "os/files.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/strbuf.h"
#include "lib/units.h"

const char *const vol_names[VOL_NR] = { "db", "log" };

static volatile sig_atomic_t signalled;

static void on_signal(int sig)
{
	signalled = sig;
}

static void catch_signals(void)
{
	/* SA_RESTART: libmount's waitpid() for a mount helper does not retry on EINTR. */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* `fslab prep ... | head -1`: the reader is gone, like the terminal on SIGHUP.  Caught,
	 * not ignored: the write fails with EPIPE (messages are lost, nothing else), prep rolls
	 * back, and the tools it runs start with the default disposition again. */
	sigaction(SIGPIPE, &sa, NULL);
}

/*
 * End of a step: -EINTR when a signal asked us to stop.  FSLAB_TEST_PREP_STALL=<step> makes
 * prep wait here (a minute, or FSLAB_TEST_PREP_STALL_S seconds) so tests can kill it, or
 * change something under it, at a known point.
 */
static int step_done(const char *step)
{
	const char *stall = getenv("FSLAB_TEST_PREP_STALL");
	const char *secs = getenv("FSLAB_TEST_PREP_STALL_S");

	if (stall && !strcmp(stall, step)) {
		int n = secs ? atoi(secs) * 10 : 600;

		fslab_info("test hook: stalled after step %s", step);
		for (int i = 0; i < n && !signalled; i++)
			sleep_ms(100);
	}
	return signalled ? -EINTR : 0;
}

/* step_done() for a per-volume step: "mkfs-db", "mount-log"... */
static int role_step_done(const char *step, const char *role)
{
	char name[32];

	snprintf(name, sizeof(name), "%s-%s", step, role);
	return step_done(name);
}

/* ---- doing it ---------------------------------------------------------------------------- */

static int save_state(struct prep_ctx *c)
{
	int ret = state_save(&c->st);

	if (ret)
		fslab_err("cannot write the prep state %s: %s", c->st.path, strerror(-ret));
	return ret;
}

/*
 * One image, made so that the record proves it is ours: the file is created without a name
 * (O_TMPFILE), its identity recorded, then it gets its name, never replacing one (linkat).
 * The loser of a race on the name fails here with the winner's file untouched, and its
 * rollback finds nothing of its own under that name.
 */
static int make_image(struct prep_ctx *c, struct prep_vol *v)
{
	json_t *sv = state_vol(&c->st, v->role);
	struct file_id id, old;
	bool named;
	int fd, ret;

	json_object_set_new(sv, "image", json_string(v->image));
	ret = save_state(c);
	if (ret)
		return ret;
	/* --force: an existing image is replaced; checked unattached, again now under the lock */
	if (c->o->force && !file_id_path(v->image, &old, NULL)) {
		json_t *loops = json_array();
		int n = loop_find_image(v->image, &old, loops);

		json_decref(loops);
		if (n > 0)
			return input_error("%s was attached to a loop device after the checks; detach it first, --force does not override this",
					   v->image);
		if (unlink(v->image) && errno != ENOENT) {
			ret = -errno;
			fslab_err("cannot replace %s: %s", v->image, strerror(errno));
			return ret;
		}
	}
	/* the log volume's new log files land on blocks nothing wrote before: written once
	 * here, so the host filesystem has nothing to do while a cell measures (the database
	 * volume is written whole by the run's initialisation, before measuring) */
	fd = image_open(v->image, v->size, !strcmp(v->role, "log"), &id, &named, &v->alloc);
	if (fd < 0) {
		fslab_err("cannot create %s: %s", v->image, strerror(-fd));
		return fd == -EEXIST ? -FSLAB_EINPUT : fd;
	}
	json_object_set_new(sv, "image_id", file_id_json(&id));
	ret = save_state(c);
	if (ret) {
		if (named)
			unlink(v->image);
		close(fd);
		return ret;
	}
	ret = image_link(fd, v->image, named);
	if (ret) {
		/* the nameless file is gone with its descriptor: nothing of ours has the name */
		json_object_del(sv, "image_id");
		json_object_del(sv, "image");
		save_state(c);
	}
	if (ret == -EEXIST)
		return input_error("%s appeared after the checks (another prep?): left alone; run prep again when it is done",
				   v->image);
	if (ret)
		fslab_err("cannot create %s: %s", v->image, strerror(-ret));
	return ret;
}

static int make_images(struct prep_ctx *c)
{
	int ret;

	if (!os_is_dir(c->image_dir)) {
		json_object_set_new(c->st.j, "image_dir_created", json_true());
		ret = save_state(c);
		if (!ret)
			ret = mkdir_p(c->image_dir, 0755);
		if (ret)
			return ret;
		ret = prep_lock_image_dir(c);
		if (ret) {
			/* another prep took the directory as soon as it appeared: it is not ours
			 * alone to remove */
			json_object_del(c->st.j, "image_dir_created");
			save_state(c);
			return ret;
		}
	}
	for (int i = 0; i < VOL_NR; i++) {
		ret = make_image(c, &c->vol[i]);
		if (ret)
			return ret;
	}
	for (int i = 0; i < VOL_NR; i++) {
		struct prep_vol *v = &c->vol[i];
		json_t *sv = state_vol(&c->st, v->role);

		free(v->device);
		v->device = NULL;
		json_object_set_new(sv, "loop", json_string("attaching"));
		ret = save_state(c);
		if (!ret)
			ret = loop_attach(v->image, &v->device, &v->direct_io);
		if (ret) {
			fslab_err("cannot attach %s to a loop device: %s", v->image, strerror(-ret));
			return ret;
		}
		json_object_set_new(sv, "loop", json_string(v->device));
		json_object_set_new(sv, "device", json_string(v->device));
		ret = save_state(c);
		if (ret)
			return ret;
		fslab_info("attached %s to %s (direct I/O %s)", v->image, v->device,
			   v->direct_io ? "on" : "OFF");
		if (!v->direct_io)
			prep_note(c, "%s: the loop device does not do direct I/O on %s (the backing filesystem refused O_DIRECT): the host page cache will inflate results",
				  v->role, v->image);
		ret = probe_topology(v->device, &v->topo);
		if (ret) {
			fslab_err("cannot read the topology of %s: %s", v->device, strerror(-ret));
			return ret;
		}
		if (!c->be->plan)
			continue;
		ret = c->be->plan(c, v);
		if (ret)
			return ret;
	}
	return step_done("attach");
}

/*
 * Discard the whole device, then (--force, device mode) wipe the signatures left: what a new
 * filesystem starts from, and for raw the device fslab run then accepts without its own
 * --force (it refuses signature-bearing devices).
 */
static int clean_device(struct prep_ctx *c, struct prep_vol *v)
{
	int ret;

	if (!topology_aligned(&v->topo))
		prep_note(c, "%s: %s is not aligned (partition start %llu, alignment offset %llu, grain %llu): every I/O may straddle physical boundaries; repartition on a %llu-byte boundary",
			  v->role, v->device, (unsigned long long)v->topo.partition_start,
			  (unsigned long long)v->topo.alignment_offset,
			  (unsigned long long)topology_grain(&v->topo),
			  (unsigned long long)topology_grain(&v->topo));
	/* from here the device no longer holds what it held (device mode: not ours to undo) */
	v->written = !v->image;
	if (v->image) {
		/* a new image holds nothing to discard, and a discard would punch its allocation
		 * back out for the host filesystem to redo while a cell measures (mkfs gets its
		 * nodiscard options for the same reason) */
		v->discarded = false;
		return role_step_done("discard", v->role);
	}
	ret = discard_device(v->device, &v->discarded);
	if (ret) {
		fslab_err("discarding %s failed: %s", v->device, strerror(-ret));
		return ret;
	}
	if (!v->discarded)
		prep_note(c, "%s: %s does not support discard; it was not discarded before %s",
			  v->role, v->device, c->be->format ? "mkfs" : "use");
	if (c->o->force && !v->image) {
		v->wiped = json_array();
		ret = probe_wipe(v->device, v->wiped);
		if (ret) {
			fslab_err("wiping the signatures on %s failed: %s", v->device, strerror(-ret));
			return ret;
		}
	}
	return role_step_done("discard", v->role);
}

static int format_volume(struct prep_ctx *c, struct prep_vol *v)
{
	char *cmd;
	int ret;

	cmd = mkfs_cmd_line(&v->mkfs);
	fslab_info("%s: %s", v->role, cmd);
	free(cmd);
	v->formatted = v->written;
	ret = format_run(&v->mkfs);
	if (ret)
		return ret;
	v->tool_version = format_tool_version(c->o->fs->mkfs);
	ret = verify_volume(c->o->fs, v->device, &v->mkfs, &v->verified);
	if (ret)
		return ret;
	return role_step_done("mkfs", v->role);
}

static int make_cgroup(struct prep_ctx *c)
{
	const char *cg = json_string_value(json_object_get(c->cache_fix, "cgroup"));
	int ret;

	if (!cg)
		return 0;
	json_object_set_new(c->st.j, "cgroup", json_string(cg));
	ret = save_state(c);
	if (ret)
		return ret;
	ret = cgroup_create(cg, c->o->ntfs_cache_limit);
	if (ret)
		fslab_err("cannot create the memory cgroup %s: %s", cg, strerror(-ret));
	return ret;
}

static int mount_one(struct prep_ctx *c, struct prep_vol *v)
{
	const char *cg = json_string_value(json_object_get(c->cache_fix, "cgroup"));
	json_t *sv = state_vol(&c->st, v->role);
	char *prev = NULL;
	int ret, r;

	if (!path_exists(v->mountpoint)) {
		json_object_set_new(sv, "mountpoint", json_string(v->mountpoint));
		json_object_set_new(sv, "mountpoint_created", json_true());
		ret = save_state(c);
		if (!ret && mkdir(v->mountpoint, 0755))
			ret = -errno;
		if (ret) {
			fslab_err("cannot create %s: %s", v->mountpoint, strerror(-ret));
			return ret;
		}
	}
	json_object_set_new(sv, "mount", json_pack("{s:s, s:s}", "target", v->mountpoint,
						   "source", v->device));
	ret = save_state(c);
	if (ret)
		return ret;
	/* The helper and the daemon it forks inherit our cgroup: enter it just for the mount. */
	if (cg) {
		r = cgroup_enter(cg, &prev);
		if (r)
			prep_note(c, "cannot enter the cgroup %s (%s): %s runs without a memory limit",
				  cg, strerror(-r), c->o->fs->mkfs->fuse_daemon);
	}
	ret = mount_volume(v->device, v->mountpoint, c->o->fs, v->mount_opts);
	if (prev) {
		r = cgroup_leave(prev);
		if (r)
			fslab_warn("cannot leave the cgroup %s: %s", cg, strerror(-r));
	}
	if (ret)
		return ret;
	json_object_set_new(json_object_get(sv, "mount"), "done", json_true());
	ret = save_state(c);
	if (ret)
		return ret;
	if (mount_at(v->mountpoint, NULL, &v->kernel_fstype, &v->vfs_options) <= 0)
		fslab_warn("%s is not in the mount table after mounting it", v->mountpoint);
	if (c->o->fs->flags & FS_F_FUSE) {
		const char *daemon = c->o->fs->mkfs->fuse_daemon;

		v->daemon = fuse_daemon_find(v->device, v->mountpoint);
		if (!v->daemon)
			prep_note(c, "%s: cannot find the %s process serving %s", v->role, daemon,
				  v->mountpoint);
		else if (cg && !cgroup_has_pid(cg, v->daemon))
			prep_note(c, "%s: %s (pid %d) is not in the cgroup %s: its reads may be served from the page cache",
				  v->role, daemon, (int)v->daemon, cg);
	}
	fslab_info("%s: mounted %s on %s (%s, %s)", v->role, v->device, v->mountpoint,
		   v->kernel_fstype ? v->kernel_fstype : c->o->fs->mkfs->mount_type,
		   v->vfs_options ? v->vfs_options : v->mount_opts);
	return role_step_done("mount", v->role);
}

static int write_prep_json(struct prep_ctx *c)
{
	char *path = path_join(c->root, PREP_JSON_NAME), *s;
	json_t *j;
	int ret;

	if (c->cache_fix && json_object_get(c->cache_fix, "cgroup")) {
		json_t *pids = json_object();

		for (int i = 0; i < VOL_NR; i++)
			json_object_set_new(pids, c->vol[i].role, c->vol[i].daemon ?
					    json_integer(c->vol[i].daemon) : json_null());
		json_object_set_new(c->cache_fix, "pid", c->vol[VOL_DB].daemon ?
				    json_integer(c->vol[VOL_DB].daemon) : json_null());
		json_object_set_new(c->cache_fix, "pids", pids);
	}
	j = prep_json_build(c);
	s = json_dumps(j, JSON_INDENT(2));
	json_decref(j);
	json_object_set_new(c->st.j, "prep_json", json_true());
	ret = save_state(c);
	if (!ret)
		ret = s ? write_file_atomic(path, s, strlen(s)) : -ENOMEM;
	if (ret) {
		if (ret != -FSLAB_EINPUT)
			fslab_err("cannot write %s: %s", path, strerror(-ret));
	} else {
		struct file_id id;

		/* teardown deletes prep.json only while it is still this file */
		if (!file_id_path(path, &id, NULL)) {
			json_object_set_new(c->st.j, "prep_json_id", file_id_json(&id));
			ret = save_state(c);
		}
	}
	free(s);
	free(path);
	return ret;
}

static int prep_execute(struct prep_ctx *c)
{
	bool created_root = !path_exists(c->root);
	int ret;

	if (created_root) {
		ret = mkdir_p(c->root, 0755);
		if (ret) {
			fslab_err("cannot create %s: %s", c->root, strerror(-ret));
			return ret;
		}
	}
	ret = state_create(&c->st, c->root);
	if (ret) {
		if (created_root)
			rmdir(c->root);
		if (ret == -EEXIST)
			return input_error("another prep just claimed %s; run fslab teardown --mount-root %s",
					   c->root, c->root);
		fslab_err("cannot create the prep state in %s: %s", c->root, strerror(-ret));
		return ret;
	}
	json_object_set_new(c->st.j, "fs", json_string(c->o->fs->name));
	if (c->o->owner)
		json_object_set_new(c->st.j, "owner", json_string(c->o->owner));
	json_object_set_new(c->st.j, "created_root", json_boolean(created_root));
	json_object_set_new(c->st.j, "image_dir", c->image_dir ? json_string(c->image_dir) : json_null());
	for (int i = 0; i < VOL_NR; i++) {
		json_t *sv = state_vol(&c->st, c->vol[i].role);

		if (c->vol[i].mountpoint)
			json_object_set_new(sv, "mountpoint", json_string(c->vol[i].mountpoint));
		if (!c->image_dir) {
			struct stat sb;

			json_object_set_new(sv, "device", json_string(c->vol[i].device));
			/* teardown unmounts only this device from the mount point */
			if (!stat(c->vol[i].device, &sb))
				json_object_set_new(sv, "devno", json_integer((json_int_t)sb.st_rdev));
		}
	}
	ret = save_state(c);
	if (!ret)
		ret = step_done("state");
	if (!ret && c->image_dir)
		ret = make_images(c);
	for (int i = 0; i < VOL_NR && !ret; i++) {
		ret = clean_device(c, &c->vol[i]);
		if (!ret && c->be->format)
			ret = c->be->format(c, &c->vol[i]);
	}
	if (!ret)
		ret = make_cgroup(c);
	for (int i = 0; i < VOL_NR && !ret && c->be->mount; i++)
		ret = c->be->mount(c, &c->vol[i]);
	if (!ret)
		ret = write_prep_json(c);
	if (!ret) {
		json_object_set_new(c->st.j, "status", json_string("ready"));
		ret = save_state(c);
	}
	return ret ? ret : step_done("done");
}

/*
 * The truth about a rollback: what prep made is gone, but a device it was given keeps what
 * prep wrote on it (discarded, wiped, formatted); its old contents do not come back.
 */
static void say_rolled_back(const struct prep_ctx *c)
{
	struct strbuf what = STRBUF_INIT;
	int n = 0;

	for (int i = 0; i < VOL_NR; i++) {
		const struct prep_vol *v = &c->vol[i];

		if (!v->written)
			continue;
		strbuf_addf(&what, "%s%s (%s: discarded%s%s)", n ? " and " : "", v->device, v->role,
			    v->wiped && json_array_size(v->wiped) ? ", wiped" : "",
			    v->formatted ? ", formatted" : "");
		n++;
	}
	if (!n)
		fslab_info("rolled back: nothing of this prep is left");
	else
		fslab_info("rolled back: what prep made is gone; it wrote %s, whose old content%s not restored",
			   what.buf, n > 1 ? "s are" : " is");
	strbuf_release(&what);
}

static void ctx_release(struct prep_ctx *c)
{
	for (int i = 0; i < VOL_NR; i++) {
		struct prep_vol *v = &c->vol[i];

		free(v->device);
		free(v->image);
		free(v->mountpoint);
		free(v->tool_version);
		free(v->mount_opts);
		free(v->kernel_fstype);
		free(v->vfs_options);
		free(v->signature);
		mkfs_cmd_release(&v->mkfs);
		json_decref(v->verified);
		json_decref(v->wiped);
	}
	free(c->root);
	free(c->image_dir);
	json_decref(c->cache_fix);
	json_decref(c->notes);
	if (c->st.j)
		state_release(&c->st);
	os_unlock(c->image_lock);
}

int prep_run(const struct prep_opts *o)
{
	struct prep_ctx c = { .o = o, .be = prep_backend_of(o->fs, PREP_LINUX), .image_lock = -1 };
	int ret, r;

	c.notes = json_array();
	for (int i = 0; i < VOL_NR; i++)
		c.vol[i].role = vol_names[i];
	ret = prep_check(&c);
	if (ret)
		goto out;
	if (o->dry_run) {
		prep_print_dry_run(&c);
		goto out;
	}
	catch_signals();
	ret = prep_execute(&c);
	if (ret && c.st.j) {
		if (ret == -EINTR)
			fslab_err("interrupted by signal %d: rolling back", (int)signalled);
		else
			fslab_err("prep failed: rolling back what was done");
		/* Further signals must not cut the rollback short: they only set the flag. */
		r = prep_undo(&c.st, false);
		if (r)
			fslab_err("rollback incomplete (%s): run fslab teardown --mount-root %s",
				  strerror(-r), c.root);
		else
			say_rolled_back(&c);
	}
	if (!ret && !c.be->mount) {
		printf("raw: %s (db) and %s (log), no filesystem; record in %s/%s\n",
		       c.vol[VOL_DB].device, c.vol[VOL_LOG].device, c.root, PREP_JSON_NAME);
	} else if (!ret) {
		printf("%s on %s (db, %s) and %s (log, %s); record in %s/%s\n", o->fs->name,
		       c.vol[VOL_DB].device, c.vol[VOL_DB].mountpoint, c.vol[VOL_LOG].device,
		       c.vol[VOL_LOG].mountpoint, c.root, PREP_JSON_NAME);
	}
out:
	ctx_release(&c);
	if (!ret)
		return FSLAB_EXIT_OK;
	return ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : FSLAB_EXIT_FAIL;
}

/* mkfs.* and libmount on Linux block devices or loop devices on images. */
const struct prep_backend prep_be_mkfs = {
	.name = "mkfs",
	.sys = PREP_LINUX,
	.prep = cmd_linuxprep,
	.teardown = cmd_linuxteardown,
	.prep_opts = &linuxprep_opt_cmd,
	.teardown_opts = &linuxteardown_opt_cmd,
	.missing_tool = format_missing_tool,
	.missing_driver = format_missing_driver,
	.opts_problem = format_opts_problem,
	.plan = prep_build_mkfs,
	.format = format_volume,
	.mount = mount_one,
};

/* The devices as they are: attached, discarded, wiped with --force; nothing made on them. */
const struct prep_backend prep_be_raw = {
	.name = "raw",
	.sys = PREP_LINUX,
	.prep = cmd_linuxprep,
	.teardown = cmd_linuxteardown,
	.prep_opts = &linuxprep_opt_cmd,
	.teardown_opts = &linuxteardown_opt_cmd,
};
