// SPDX-License-Identifier: MIT
/*
 * lab.c: `fslab lab CONFIG.ini`: one config runs the whole A/B experiment.  For every cell
 * (filesystem x thread count x repeat): prep, run (initialise, drop caches, timed load),
 * teardown; then compare everything into one report.  Cells run in rounds (round r = repeat
 * r of every label and thread count), each round shuffled by default (labplan.h), so that
 * the drift of a shared machine spreads over every filesystem instead of landing on one.
 * prep, run, teardown and compare run as child processes of this binary (their own signal
 * handling and cleanup stay theirs), in their own process group so that the lab decides what
 * a Ctrl-C means.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "labcfg.h"
#include "labplan.h"
#include "result.h"
#include "util.h"

#define STATE_SCHEMA "fslab-lab-state/1"
#define PLAN_SCHEMA "fslab-lab-plan/1"

enum cell_status { CELL_PENDING, CELL_RUNNING, CELL_DONE, CELL_FAILED, CELL_INTERRUPTED };
static const char *const status_names[] = { "pending", "running", "done", "failed",
					    "interrupted" };

/* The raw-device baseline: the same load on the devices without a filesystem. */
static const struct lab_fs raw_fs = { .name = (char *)"raw", .fs = (char *)"raw" };

struct cell {
	char *id;     /* ext4-8t-r1; the A/A copy ext4-aa-8t-r1 */
	char *label;  /* ext4, or ext4-8t in a thread sweep; the A/A copy ext4-aa, ext4-8t-aa */
	char *aa_of;  /* the A/A copy: the label it repeats; else NULL */
	char *rel_result; /* result path relative to the output directory (lab-plan.json) */
	const struct lab_fs *fs;
	unsigned int threads, repeat;
	unsigned int round, position; /* from 1; round = repeat */
	enum cell_status status;
	char *result; /* path of its result file */
	char *error;  /* why it failed */
	double seconds;
};

struct lab {
	struct lab_cfg cfg;
	char *config_text;
	char *out, *mnt, *results, *logs, *report, *state_path, *log_path;
	char self[PATH_MAX];
	struct cell *cells;  /* slot-major (config order: label, thread count, repeat) */
	unsigned int ncells, nslots;
	unsigned int *order; /* run order: order[position - 1] indexes cells */
	enum lab_order order_kind;
	uint64_t seed;
	const char *seed_source; /* a shuffled order's seed: "config" or "clock" */
	struct lab_fs aa_fs; /* the A/A copy of the baseline (borrowed strings but the name) */
	char *plan_path;
	FILE *log;
	bool tty, dry_run, resume;
	uint64_t t0;
	double overhead_est; /* seconds a cell takes beyond warm-up + duration */
	unsigned int overhead_n;
	/* live line */
	unsigned int cur;
	const char *step;
	double run_elapsed, run_total, iops;
};

static volatile sig_atomic_t nsignals;

static void on_signal(int sig)
{
	(void)sig;
	nsignals++;
}

/* ---- log and live line ---- */

static void clear_line(struct lab *L)
{
	if (L->tty)
		fputs("\r\033[K", stdout);
}

static void lab_log(struct lab *L, const char *fmt, ...) __printf(2, 3);
static void lab_log(struct lab *L, const char *fmt, ...)
{
	char ts[32], msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	iso8601_now(ts, sizeof(ts));
	if (L->log) {
		fprintf(L->log, "%s %s\n", ts, msg);
		fflush(L->log);
	}
	clear_line(L);
	printf("%s %s\n", ts + 11, msg);
	fflush(stdout);
}

static double cell_estimate(const struct lab *L)
{
	return (L->cfg.warmup_ns + L->cfg.duration_ns) / 1e9 + L->overhead_est;
}

static void live_line(struct lab *L)
{
	const struct cell *c = &L->cells[L->order[L->cur]];
	double elapsed = (now_ns() - L->t0) / 1e9, cell_left, lab_left;
	unsigned int left = 0;
	char e[32], ce[32], le[32];

	if (!L->tty)
		return;
	for (unsigned int i = L->cur + 1; i < L->ncells; i++)
		left += L->cells[L->order[i]].status != CELL_DONE;
	cell_left = L->run_total > 0 ? L->run_total - L->run_elapsed + L->overhead_est / 2
				     : cell_estimate(L);
	lab_left = cell_left + left * cell_estimate(L);
	fmt_hms(e, sizeof(e), elapsed);
	fmt_hms(ce, sizeof(ce), cell_left);
	fmt_hms(le, sizeof(le), lab_left);
	printf("\r[cell %u/%u %s] %-9s lab %s, cell ETA %s, lab ETA %s", L->cur + 1, L->ncells,
	       c->id, L->step, e, ce, le);
	if (L->iops > 0)
		printf(", %.0f IOPS", L->iops);
	fputs("\033[K", stdout);
	fflush(stdout);
}

/* ---- child processes ---- */

/* Read progress lines ({"phase", "elapsed_s", "total_s", "iops"}) from fslab run. */
static void read_progress(struct lab *L, int fd)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	char *line, *save = NULL;

	if (n <= 0)
		return;
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *o = json_loads(line, 0, NULL);

		if (!o)
			continue;
		L->run_elapsed = json_number_value(json_object_get(o, "elapsed_s"));
		L->run_total = json_number_value(json_object_get(o, "total_s"));
		L->iops = json_number_value(json_object_get(o, "iops"));
		json_decref(o);
	}
}

/*
 * Run `fslab ARGS...` with stdout and stderr appended to logpath; with progress, its fd 3 is
 * a pipe whose lines update the live line.  Signals to the lab are forwarded when
 * interruptible: the first as SIGINT (the child stops cleanly), the second as SIGKILL.
 * Returns the exit status, 128 + signal, or -errno.
 */
static int child(struct lab *L, const char *const *args, const char *logpath, bool progress,
		 bool interruptible)
{
	const char *argv[64];
	int pfd[2] = { -1, -1 }, status, forwarded = 0;
	size_t n = 0;
	pid_t pid;

	argv[n++] = "fslab";
	for (size_t i = 0; args[i] && n < ARRAY_SIZE(argv) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (progress && pipe2(pfd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		sigset_t none;

		setpgid(0, 0);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (progress)
			dup2(pfd[1], 3); /* dup2 clears close-on-exec */
		execv(L->self, (char *const *)argv);
		_exit(127);
	}
	setpgid(pid, pid);
	if (progress)
		close(pfd[1]);
	L->run_elapsed = L->run_total = L->iops = 0;
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		pid_t w;

		if (interruptible && nsignals > forwarded) {
			kill(pid, forwarded ? SIGKILL : SIGINT);
			forwarded = nsignals;
		}
		if (progress && pfd[0] >= 0) {
			if (poll(&p, 1, 1000) > 0) {
				if (p.revents & POLLIN)
					read_progress(L, pfd[0]);
				else if (p.revents & (POLLHUP | POLLERR)) {
					close(pfd[0]);
					pfd[0] = -1;
				}
			}
		} else {
			struct timespec ts = { 0, 200 * 1000000L };

			nanosleep(&ts, NULL);
		}
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		live_line(L);
	}
	if (pfd[0] >= 0) {
		read_progress(L, pfd[0]);
		close(pfd[0]);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* ---- state (resume) ---- */

/* The plan's seed: null unless the order is shuffled (no other order uses it). */
static json_t *seed_json(const struct lab *L)
{
	return L->order_kind == LAB_ORDER_SHUFFLED ? json_integer((json_int_t)L->seed) : json_null();
}

static void set_plan(struct lab *L, enum lab_order kind, uint64_t seed, const char *source);

static int save_state(struct lab *L)
{
	json_t *root = json_object(), *cells = json_array();
	char *s;
	int ret;

	/* in run order: a resumed lab runs what is left in this order */
	for (unsigned int i = 0; i < L->ncells; i++) {
		const struct cell *c = &L->cells[L->order[i]];

		json_array_append_new(cells, json_pack("{s:s, s:s, s:I, s:I, s:s, s:s, s:f, s:s?}",
						       "id", c->id, "label", c->label,
						       "round", (json_int_t)c->round,
						       "position", (json_int_t)c->position,
						       "status", status_names[c->status],
						       "result", c->result, "seconds", c->seconds,
						       "error", c->error));
	}
	json_object_set_new(root, "schema", json_string(STATE_SCHEMA));
	json_object_set_new(root, "config", json_string(L->cfg.path));
	json_object_set_new(root, "config_text", json_string(L->config_text));
	json_object_set_new(root, "order", json_string(lab_order_name(L->order_kind)));
	json_object_set_new(root, "seed", seed_json(L));
	json_object_set_new(root, "seed_source", L->order_kind == LAB_ORDER_SHUFFLED
			    ? json_string(L->seed_source) : json_null());
	json_object_set_new(root, "rounds", json_integer(L->cfg.repeats));
	json_object_set_new(root, "cells", cells);
	s = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	ret = write_file_atomic(L->state_path, s, strlen(s));
	free(s);
	if (ret)
		fslab_err("%s: cannot save the lab state: %s", L->state_path, strerror(-ret));
	return ret;
}

/* A finished cell's result: present, readable, complete. */
static bool result_ok(const char *path)
{
	struct fslab_result r;
	bool ok;

	if (access(path, R_OK))
		return false;
	fslab_set_quiet(true);
	ok = result_read(path, &r) == 0 && !r.aborted;
	result_release(&r);
	fslab_set_quiet(false);
	return ok;
}

static int load_state(struct lab *L)
{
	json_error_t jerr;
	json_t *root = json_load_file(L->state_path, 0, &jerr), *cells, *c;
	const char *text, *order;
	size_t i;
	int ret = 0;

	if (!root)
		return input_error("%s: cannot read the lab state (%s); start a new lab with another "
				   "--output", L->state_path, jerr.text);
	text = json_string_value(json_object_get(root, "config_text"));
	if (!text || strcmp(text, L->config_text)) {
		ret = input_error("%s changed since this lab started in %s: a resumed lab must run "
				  "the same cells; restore the config or start a new lab with another "
				  "--output", L->cfg.path, L->out);
		goto out;
	}
	cells = json_object_get(root, "cells");
	order = json_string_value(json_object_get(root, "order"));
	if (!order) {
		/* a lab from before rounds: it ran sequentially, and so it goes on */
		set_plan(L, LAB_ORDER_SEQUENTIAL, 0, "state");
	} else {
		json_t *seed = json_object_get(root, "seed");
		const char *src = json_string_value(json_object_get(root, "seed_source"));
		enum lab_order kind;
		unsigned int n = 0;
		bool *seen = xcalloc(L->ncells, sizeof(*seen));

		if (lab_order_parse(order, &kind) ||
		    (kind == LAB_ORDER_SHUFFLED && !json_is_integer(seed)) ||
		    json_array_size(cells) != L->ncells) {
			free(seen);
			ret = input_error("%s: the recorded plan does not match the cells of %s; start a "
					  "new lab with another --output", L->state_path, L->cfg.path);
			goto out;
		}
		L->order_kind = kind;
		L->seed = json_is_integer(seed) ? (uint64_t)json_integer_value(seed) : 0;
		L->seed_source = src && !strcmp(src, "config") ? "config" : "clock";
		/* the recorded run order, whatever this binary would compute */
		json_array_foreach(cells, i, c) {
			const char *id = json_string_value(json_object_get(c, "id"));
			unsigned int k;

			for (k = 0; id && k < L->ncells && strcmp(L->cells[k].id, id); k++)
				;
			if (!id || k == L->ncells || seen[k])
				break;
			seen[k] = true;
			L->order[n] = k;
			L->cells[k].position = ++n;
		}
		free(seen);
		if (n != L->ncells) {
			ret = input_error("%s: the recorded plan does not match the cells of %s; start a "
					  "new lab with another --output", L->state_path, L->cfg.path);
			goto out;
		}
	}
	json_array_foreach(cells, i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		const char *st = json_string_value(json_object_get(c, "status"));

		for (unsigned int k = 0; id && st && k < L->ncells; k++) {
			struct cell *cell = &L->cells[k];

			if (strcmp(cell->id, id))
				continue;
			if (!strcmp(st, "done") && result_ok(cell->result)) {
				cell->status = CELL_DONE;
				cell->seconds = json_number_value(json_object_get(c, "seconds"));
			}
		}
	}
out:
	json_decref(root);
	return ret;
}

/* ---- preflight ---- */

struct problems {
	unsigned int n;
};

static void problem(struct problems *p, const char *fmt, ...) __printf(2, 3);
static void problem(struct problems *p, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fslab_err("preflight: %s", buf);
	p->n++;
}

static const struct {
	const char *fs, *tool, *package;
} fs_tools[] = {
	{ "ext4", "mkfs.ext4", "e2fsprogs" },
	{ "xfs", "mkfs.xfs", "xfsprogs" },
	{ "ntfs", "mkntfs", "ntfs-3g" },
	{ "ntfs", "ntfs-3g", "ntfs-3g" },
	{ "btrfs", "mkfs.btrfs", "btrfs-progs" },
};

static uint64_t free_bytes(const char *path)
{
	struct statvfs sv;

	if (statvfs(path, &sv))
		return 0;
	return (uint64_t)sv.f_bavail * sv.f_frsize;
}

/* The nearest existing ancestor of path (for free-space checks before it exists). */
static char *existing_ancestor(const char *path)
{
	char *p = xstrdup(path);

	while (access(p, F_OK)) {
		char *slash = strrchr(p, '/');

		if (!slash || slash == p) {
			free(p);
			return xstrdup(slash == p ? "/" : ".");
		}
		*slash = 0;
	}
	return p;
}

static void check_device(struct lab *L, struct problems *p, const char *key, const char *dev,
			 int line, uint64_t need)
{
	struct stat st;
	char *out = NULL, a[32], b[32];
	uint64_t size = 0;
	int fd;

	if (stat(dev, &st)) {
		problem(p, "%s:%d: %s = %s: %s; give an existing block device", L->cfg.path, line, key,
			dev, strerror(errno));
		return;
	}
	if (!S_ISBLK(st.st_mode)) {
		problem(p, "%s:%d: %s = %s is not a block device; for files, use image_dir",
			L->cfg.path, line, key, dev);
		return;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		off_t end = lseek(fd, 0, SEEK_END);

		size = end > 0 ? (uint64_t)end : 0;
		close(fd);
	}
	if (size && size < need)
		problem(p, "%s:%d: %s = %s holds %s, the workload needs at least %s; use a larger "
			"device or a smaller [workload] db_size", L->cfg.path, line, key, dev,
			fmt_size(a, sizeof(a), size), fmt_size(b, sizeof(b), need));
	if (run_cmd((const char *[]){ "findmnt", "-rno", "TARGET", "-S", dev, NULL }, &out) == 0)
		problem(p, "%s:%d: %s = %s is mounted (%.*s); unmount it first", L->cfg.path, line,
			key, dev, (int)strcspn(out ? out : "", "\n"), out ? out : "");
	free(out);
}

static int preflight(struct lab *L)
{
	struct lab_cfg *c = &L->cfg;
	struct problems p = { 0 };
	uint64_t need_db = (uint64_t)c->databases * c->db_size * 11 / 10 + 256 * MiB;

	if (geteuid() != 0)
		problem(&p, "the lab formats and mounts devices: run it as root");
	for (int i = 0; i < c->nfs; i++)
		for (size_t k = 0; k < ARRAY_SIZE(fs_tools); k++)
			if (!strcmp(c->fs[i].fs, fs_tools[k].fs) && !have_program(fs_tools[k].tool))
				problem(&p, "%s:%d: [fs %s] needs %s, which is missing: install the Debian "
					"package %s", c->path, c->fs[i].line, c->fs[i].name,
					fs_tools[k].tool, fs_tools[k].package);
	if (!strcmp(c->workload, "jetstress")) {
		for (int i = 0; i < c->nthreads; i++)
			if (c->threads[i] < c->databases)
				problem(&p, "%s:%d: threads %llu is less than databases %u: each database "
					"needs a session thread", c->path, c->workload_line,
					(unsigned long long)c->threads[i], c->databases);
	}
	if (c->image_dir) {
		char *anc = existing_ancestor(c->image_dir), a[32], b[32], d[32];
		/* images are sparse and removed after each cell: one cell's data at a time, the
		 * databases up to twice over on btrfs (copy-on-write) */
		uint64_t need = MIN(c->db_image_size, (uint64_t)c->databases * c->db_size * 22 / 10 +
				    256 * MiB) + (uint64_t)c->databases * 64 * MiB + 128 * MiB;
		uint64_t have = free_bytes(anc);

		if (have < need)
			problem(&p, "%s:%d: image_dir %s: %s free, one cell writes up to %s; free space or "
				"use a smaller db_size", c->path, c->image_dir_line, c->image_dir,
				fmt_size(a, sizeof(a), have), fmt_size(b, sizeof(b), need));
		if (c->db_image_size < need_db)
			problem(&p, "%s:%d: [devices] db_size %s is too small for %u database(s) of %s; "
				"give at least %s", c->path, c->devices_line,
				fmt_size(a, sizeof(a), c->db_image_size), c->databases,
				fmt_size(b, sizeof(b), c->db_size), fmt_size(d, sizeof(d), need_db));
		free(anc);
	} else {
		check_device(L, &p, "db_dev", c->db_dev, c->db_dev_line, need_db);
		check_device(L, &p, "log_dev", c->log_dev, c->log_dev_line,
			     (uint64_t)c->databases * 64 * MiB + 128 * MiB);
	}
	{
		char *anc = existing_ancestor(L->out);

		if (access(anc, W_OK))
			problem(&p, "--output %s: %s is not writable", L->out, anc);
		free(anc);
	}
	if (!have_program("gnuplot"))
		fslab_warn("preflight: gnuplot is missing: the report will have tables but no charts; "
			   "install the Debian package gnuplot-nox");
	if (p.n) {
		fslab_err("preflight found %u problem(s); nothing was changed", p.n);
		return -FSLAB_EINPUT;
	}
	return 0;
}

/* ---- cells ---- */

static bool is_raw(const struct lab_fs *fs)
{
	return !strcmp(fs->fs, "raw");
}

/*
 * Every cell, slot-major: the slots (a label at one thread count, labplan.c) in config order:
 * the raw baseline, the filesystems, the A/A copy of the baseline last (in an interleaved
 * round it then runs as far from the baseline as the round allows); within a slot its
 * repeats.
 */
static void build_cells(struct lab *L)
{
	struct lab_cfg *c = &L->cfg;
	struct lab_slot *slots;
	unsigned int n = 0;

	L->nslots = lab_plan_slots(c, &slots);
	L->ncells = L->nslots * c->repeats;
	L->cells = xcalloc(L->ncells, sizeof(*L->cells));
	L->order = xcalloc(L->ncells, sizeof(*L->order));
	for (unsigned int s = 0; s < L->nslots; s++) {
		const struct lab_slot *x = &slots[s];
		const struct lab_fs *fs = x->fs < 0 ? &raw_fs : &c->fs[x->fs];

		if (x->aa_of) {
			/* the same filesystem and options under the A/A name */
			if (!L->aa_fs.name) {
				L->aa_fs = *fs;
				L->aa_fs.name = xstrdup(x->name);
			}
			fs = &L->aa_fs;
		}
		for (unsigned int r = 1; r <= c->repeats; r++) {
			struct cell *cell = &L->cells[n++];

			cell->fs = fs;
			cell->threads = x->threads;
			cell->repeat = cell->round = r;
			cell->id = xasprintf("%s-%ut-r%u", x->name, x->threads, r);
			cell->label = xstrdup(x->label);
			cell->aa_of = x->aa_of ? xstrdup(x->aa_of) : NULL;
			cell->rel_result = xasprintf("results/%s.json", cell->id);
			cell->result = xasprintf("%s/%s.json", L->results, cell->id);
		}
	}
	lab_slots_free(slots, L->nslots);
}

/* The run order from the order kind and seed (labplan.c); positions follow. */
static void set_plan(struct lab *L, enum lab_order kind, uint64_t seed, const char *source)
{
	unsigned int rounds = L->cfg.repeats;

	L->order_kind = kind;
	L->seed = seed;
	L->seed_source = source;
	lab_plan_order(kind, seed, L->nslots, rounds, L->order);
	for (unsigned int i = 0; i < L->ncells; i++) {
		/* cell number round * nslots + slot -> the slot-major index */
		unsigned int k = L->order[i], slot = k % L->nslots, round = k / L->nslots;

		L->order[i] = slot * rounds + round;
		L->cells[L->order[i]].position = i + 1;
	}
}

/* lab.log: how the cells are ordered and why, then one line per cell in run order. */
static void log_plan(struct lab *L)
{
	static const char *const how[] = {
		[LAB_ORDER_SHUFFLED] = "round-robin rounds, the order inside each round shuffled",
		[LAB_ORDER_INTERLEAVED] = "round-robin rounds in config order",
		[LAB_ORDER_SEQUENTIAL] = "all repeats of a label back to back",
	};
	char seed[160] = "";

	if (L->order_kind == LAB_ORDER_SHUFFLED) {
		if (!strcmp(L->seed_source, "config"))
			snprintf(seed, sizeof(seed), ", seed %llu from [lab] order_seed",
				 (unsigned long long)L->seed);
		else
			snprintf(seed, sizeof(seed), ", seed %llu from the clock ([lab] order_seed = "
				 "%llu repeats this order)", (unsigned long long)L->seed,
				 (unsigned long long)L->seed);
	}
	lab_log(L, "plan: order %s (%s)%s, %u round(s) of %u cell(s), in %s",
		lab_order_name(L->order_kind), how[L->order_kind], seed, L->cfg.repeats, L->nslots,
		L->plan_path);
	for (unsigned int i = 0; i < L->ncells; i++) {
		const struct cell *c = &L->cells[L->order[i]];

		lab_log(L, "plan %u/%u round %u: %s (label %s)%s", i + 1, L->ncells, c->round, c->id,
			c->label, c->status == CELL_DONE ? " [done, kept]" : "");
	}
}

/*
 * lab-plan.json (fslab-lab-plan/1), for the report's Method: the order, its seed, the
 * rounds and every cell in run order.  Written atomically.
 */
static int write_plan(struct lab *L)
{
	json_t *root = json_object(), *cells = json_array();
	char *s;
	int ret;

	for (unsigned int i = 0; i < L->ncells; i++) {
		const struct cell *c = &L->cells[L->order[i]];

		json_array_append_new(cells, json_pack("{s:I, s:I, s:s, s:s, s:s, s:I, s:I, s:s, s:s?}",
						       "position", (json_int_t)c->position,
						       "round", (json_int_t)c->round,
						       "id", c->id, "label", c->label,
						       "fs", c->fs->fs,
						       "threads", (json_int_t)c->threads,
						       "repeat", (json_int_t)c->repeat,
						       "result_file", c->rel_result,
						       "aa_of", c->aa_of));
	}
	json_object_set_new(root, "schema", json_string(PLAN_SCHEMA));
	json_object_set_new(root, "order", json_string(lab_order_name(L->order_kind)));
	json_object_set_new(root, "seed", seed_json(L));
	json_object_set_new(root, "seed_source", L->order_kind == LAB_ORDER_SHUFFLED
			    ? json_string(L->seed_source) : json_null());
	json_object_set_new(root, "rounds", json_integer(L->cfg.repeats));
	json_object_set_new(root, "cells_per_round", json_integer(L->nslots));
	json_object_set_new(root, "aa_check", json_boolean(L->cfg.aa_check));
	json_object_set_new(root, "config", json_string(L->cfg.path));
	json_object_set_new(root, "cells", cells);
	s = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	ret = write_file_atomic(L->plan_path, s, strlen(s));
	free(s);
	if (ret)
		fslab_err("%s: cannot write the lab plan: %s", L->plan_path, strerror(-ret));
	return ret;
}

/* argv of the prep step (strings owned by the returned array's scratch). */
struct argv {
	const char *v[48];
	char *own[48];
	size_t n, nown;
};

static void arg(struct argv *a, const char *s)
{
	if (a->n < ARRAY_SIZE(a->v) - 1)
		a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static void argf(struct argv *a, const char *fmt, ...) __printf(2, 3);
static void argf(struct argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = xstrdup("");
	va_end(ap);
	if (a->nown < ARRAY_SIZE(a->own))
		a->own[a->nown++] = s;
	arg(a, s);
}

static void argv_free(struct argv *a)
{
	for (size_t i = 0; i < a->nown; i++)
		free(a->own[i]);
	memset(a, 0, sizeof(*a));
}

static void prep_args(struct lab *L, const struct cell *cell, struct argv *a)
{
	const struct lab_cfg *c = &L->cfg;

	arg(a, "prep");
	arg(a, "--fs");
	arg(a, cell->fs->fs);
	if (c->image_dir) {
		arg(a, "--image-dir");
		arg(a, c->image_dir);
		argf(a, "--db-size=%lluM", (unsigned long long)(c->db_image_size / MiB));
		argf(a, "--log-size=%lluM", (unsigned long long)(c->log_image_size / MiB));
	} else {
		arg(a, "--db-dev");
		arg(a, c->db_dev);
		arg(a, "--log-dev");
		arg(a, c->log_dev);
		if (c->force)
			arg(a, "--force");
	}
	arg(a, "--mount-root");
	arg(a, L->mnt);
	if (cell->fs->cluster) {
		arg(a, "--cluster");
		arg(a, cell->fs->cluster);
	}
	if (cell->fs->mkfs_opts) {
		arg(a, "--mkfs-opts");
		arg(a, cell->fs->mkfs_opts);
	}
	if (cell->fs->mount_opts) {
		arg(a, "--mount-opts");
		arg(a, cell->fs->mount_opts);
	}
}

/* Raw cell: the device prep recorded for role in MNT/prep.json (heap), or NULL. */
static char *raw_device(struct lab *L, const char *role)
{
	char *path = path_join(L->mnt, "prep.json");
	json_t *j = json_load_file(path, 0, NULL);
	const char *dev = json_string_value(json_object_get(
		json_object_get(json_object_get(j, "volumes"), role), "device"));
	char *out = dev ? xstrdup(dev) : NULL;

	json_decref(j);
	free(path);
	return out;
}

static void run_args(struct lab *L, const struct cell *cell, struct argv *a)
{
	const struct lab_cfg *c = &L->cfg;

	arg(a, "run");
	if (is_raw(cell->fs)) {
		/* known once prep attached them; the dry run shows placeholders */
		char *db = raw_device(L, "db"), *lg = raw_device(L, "log");

		argf(a, "--db=%s", db ? db : "<db device from prep.json>");
		argf(a, "--log=%s", lg ? lg : "<log device from prep.json>");
		if (c->force)
			arg(a, "--force");
		free(db);
		free(lg);
	} else {
		argf(a, "--db=%s/db", L->mnt);
		argf(a, "--log=%s/log", L->mnt);
	}
	argf(a, "--workload=%s", c->workload);
	argf(a, "--threads=%u", cell->threads);
	argf(a, "--databases=%u", c->databases);
	argf(a, "--db-size=%lluK", (unsigned long long)(c->db_size / KiB));
	argf(a, "--duration=%llums", (unsigned long long)(c->duration_ns / NSEC_PER_MSEC));
	if (c->warmup_set)
		argf(a, "--warmup=%llums", (unsigned long long)(c->warmup_ns / NSEC_PER_MSEC));
	argf(a, "--seed=%llu", (unsigned long long)c->seed);
	argf(a, "--engine=%s", c->engine);
	argf(a, "--bs=%llu", (unsigned long long)c->bs);
	argf(a, "--iodepth=%u", c->iodepth);
	argf(a, "--compressibility=%u", c->compressibility);
	if (c->bdm_rate)
		argf(a, "--bdm-rate=%s", c->bdm_rate);
	if (c->cache_size)
		argf(a, "--cache=%llu", (unsigned long long)c->cache_size);
	/* only when set: a config without them runs with any fslab run */
	if (c->sample_interval_ns)
		argf(a, "--sample-interval=%llus",
		     (unsigned long long)(c->sample_interval_ns / NSEC_PER_SEC));
	if (c->thresholds)
		argf(a, "--thresholds=%s", c->thresholds);
	if (c->max_latency_errors_set)
		argf(a, "--max-latency-errors=%llu", (unsigned long long)c->max_latency_errors);
	if (c->target_iops)
		argf(a, "--target-iops=%s", c->target_iops);
	if (c->mailboxes && c->iops_per_mailbox) {
		argf(a, "--mailboxes=%llu", (unsigned long long)c->mailboxes);
		argf(a, "--iops-per-mailbox=%s", c->iops_per_mailbox);
	}
	if (c->strict_io_tail)
		arg(a, "--strict-io-tail");
	argf(a, "--label=%s", cell->label);
	argf(a, "--output=%s", cell->result);
	arg(a, "--progress-fd=3");
	arg(a, "--quiet");
}

static void print_argv(const struct argv *a)
{
	printf("  fslab");
	for (size_t i = 0; i < a->n; i++)
		printf(strchr(a->v[i], ' ') ? " '%s'" : " %s", a->v[i]);
	printf("\n");
}

static int teardown(struct lab *L, const char *logpath)
{
	const char *args[] = { "teardown", "--mount-root", L->mnt, NULL };
	int rc = child(L, args, logpath, false, false);

	if (rc)
		lab_log(L, "teardown of %s exited %d (see %s)", L->mnt, rc, logpath);
	return rc;
}

/* One cell: prep, run, teardown.  Returns 0, or 1 when the lab was interrupted. */
static int run_cell(struct lab *L, struct cell *cell)
{
	struct argv a = { 0 };
	char *plog = xasprintf("%s/%s.prep.log", L->logs, cell->id);
	char *rlog = xasprintf("%s/%s.run.log", L->logs, cell->id);
	char *tlog = xasprintf("%s/%s.teardown.log", L->logs, cell->id);
	uint64_t t0 = now_ns();
	int rc, ret = 0;

	cell->status = CELL_RUNNING;
	free(cell->error);
	cell->error = NULL;
	unlink(cell->result);
	save_state(L);

	L->step = "prep";
	lab_log(L, "cell %u/%u %s: prep %s (round %u/%u, label %s, %s)", L->cur + 1, L->ncells,
		cell->id, cell->fs->fs, cell->round, L->cfg.repeats, cell->label,
		L->cfg.image_dir ? "loop devices on images" : "devices");
	prep_args(L, cell, &a);
	rc = child(L, a.v, plog, false, true);
	argv_free(&a);
	if (rc) {
		cell->error = xasprintf("prep exited %d (see %s)", rc, plog);
		goto fail;
	}
	L->step = "run";
	lab_log(L, "cell %u/%u %s: run %s, %u threads (log %s)", L->cur + 1, L->ncells, cell->id,
		L->cfg.workload, cell->threads, rlog);
	run_args(L, cell, &a);
	rc = child(L, a.v, rlog, true, true);
	argv_free(&a);
	if (rc != 0 && rc != FSLAB_EXIT_VERDICT) {
		cell->error = xasprintf("run exited %d (see %s)", rc, rlog);
		goto fail;
	}
	L->step = "teardown";
	teardown(L, tlog);
	cell->status = CELL_DONE;
	cell->seconds = (now_ns() - t0) / 1e9;
	{
		double over = cell->seconds - (L->cfg.warmup_ns + L->cfg.duration_ns) / 1e9;

		L->overhead_est = (L->overhead_est * L->overhead_n + MAX(over, 0.0)) /
				  (L->overhead_n + 1);
		L->overhead_n++;
	}
	lab_log(L, "cell %u/%u %s: done in %.0f s%s, result %s", L->cur + 1, L->ncells, cell->id,
		cell->seconds, rc == FSLAB_EXIT_VERDICT ? " (Jetstress verdict FAIL)" : "",
		cell->result);
	goto out;
fail:
	L->step = "teardown";
	teardown(L, tlog);
	cell->seconds = (now_ns() - t0) / 1e9;
	if (nsignals) {
		cell->status = CELL_INTERRUPTED;
		lab_log(L, "cell %u/%u %s: interrupted; everything it mounted or attached is "
			"removed", L->cur + 1, L->ncells, cell->id);
		ret = 1;
	} else {
		cell->status = CELL_FAILED;
		lab_log(L, "cell %u/%u %s: FAILED: %s", L->cur + 1, L->ncells, cell->id, cell->error);
	}
out:
	save_state(L);
	free(plog);
	free(rlog);
	free(tlog);
	return ret;
}

static int compare_all(struct lab *L)
{
	struct argv a = { 0 };
	char *clog = xasprintf("%s/compare.log", L->logs);
	unsigned int n = 0;
	int rc;

	arg(&a, "compare");
	/* config order, whatever the run order: compare's default baseline is the first label */
	for (unsigned int i = 0; i < L->ncells; i++)
		if (L->cells[i].status == CELL_DONE) {
			arg(&a, L->cells[i].result);
			n++;
		}
	if (!n) {
		lab_log(L, "no cell finished: no report");
		argv_free(&a);
		free(clog);
		return 1;
	}
	argf(&a, "--output=%s", L->report);
	arg(&a, "--force");
	argf(&a, "--lab-plan=%s", L->plan_path);
	if (L->cfg.title)
		argf(&a, "--title=%s", L->cfg.title);
	if (!L->cfg.baseline && L->cfg.raw_baseline) {
		/* every filesystem's overhead against the raw devices */
		if (L->cfg.nthreads > 1)
			argf(&a, "--baseline=raw-%llut", (unsigned long long)L->cfg.threads[0]);
		else
			arg(&a, "--baseline=raw");
	} else if (L->cfg.baseline) {
		bool section = false;

		for (int i = 0; i < L->cfg.nfs; i++)
			section = section || !strcmp(L->cfg.fs[i].name, L->cfg.baseline);
		/* in a thread sweep labels are NAME-Nt: name the baseline filesystem's first label;
		 * compare pairs every thread count with the baseline's at the same count */
		if (section && L->cfg.nthreads > 1)
			argf(&a, "--baseline=%s-%llut", L->cfg.baseline,
			     (unsigned long long)L->cfg.threads[0]);
		else
			argf(&a, "--baseline=%s", L->cfg.baseline);
	}
	L->step = "compare";
	lab_log(L, "compare: %u result(s) into %s", n, L->report);
	rc = child(L, a.v, clog, false, false);
	argv_free(&a);
	if (rc && rc != FSLAB_EXIT_VERDICT)
		lab_log(L, "compare exited %d (see %s)", rc, clog);
	free(clog);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: fslab lab CONFIG.ini [--resume] [--dry-run] [--output DIR]\n"
"\n"
"Run the whole experiment of a lab config: for each filesystem, thread count and repeat\n"
"(a cell): prep the database and log devices, initialise the databases, drop caches, run\n"
"the identical load, keep the result, tear down; then compare all results into one report.\n"
"Cells run in rounds (round r = repeat r of every filesystem and thread count), shuffled\n"
"inside each round unless [lab] order says otherwise; lab.log and lab-plan.json record the\n"
"order and its seed.\n"
"\n"
"  --output DIR   where results, logs, state and the report go (default: the config's\n"
"                 [lab] output, else ./lab-<config name>)\n"
"  --resume       continue an interrupted lab in DIR: finished cells are kept, the\n"
"                 others run in the order the lab recorded (a changed config is refused)\n"
"  --dry-run      print the plan and the preflight checks; change nothing\n"
"\n"
"Ctrl-C stops the current cell, unmounts and detaches what the lab made, keeps finished\n"
"results and prints how to resume (a second Ctrl-C stops faster, still cleaning up).\n"
"See configs/template.ini for every key.\n");
}

static char *default_out(const char *config)
{
	const char *base = strrchr(config, '/');
	char *name = xstrdup(base ? base + 1 : config), *dot = strrchr(name, '.'), *out;

	if (dot)
		*dot = 0;
	out = xasprintf("lab-%s", name);
	free(name);
	return out;
}

static void lab_free(struct lab *L)
{
	for (unsigned int i = 0; i < L->ncells; i++) {
		free(L->cells[i].id);
		free(L->cells[i].label);
		free(L->cells[i].aa_of);
		free(L->cells[i].rel_result);
		free(L->cells[i].result);
		free(L->cells[i].error);
	}
	free(L->cells);
	free(L->order);
	free(L->aa_fs.name);
	free(L->plan_path);
	free(L->config_text);
	free(L->out);
	free(L->mnt);
	free(L->results);
	free(L->logs);
	free(L->report);
	free(L->state_path);
	free(L->log_path);
	if (L->log)
		fclose(L->log);
	lab_cfg_release(&L->cfg);
}

static void dry_run(struct lab *L)
{
	struct argv a = { 0 };

	printf("Lab %s: %u cell(s), results in %s\n", L->cfg.path, L->ncells, L->out);
	printf("Order %s, %u round(s) of %u cell(s)", lab_order_name(L->order_kind), L->cfg.repeats,
	       L->nslots);
	if (L->order_kind == LAB_ORDER_SHUFFLED)
		printf(", seed %llu%s", (unsigned long long)L->seed,
		       !strcmp(L->seed_source, "clock")
		       ? " (from the clock: the real run draws its own unless [lab] order_seed is set)"
		       : "");
	printf("\n");
	for (unsigned int i = 0; i < L->ncells; i++) {
		const struct cell *c = &L->cells[L->order[i]];

		printf("cell %u/%u %s (round %u, label %s)%s:\n", i + 1, L->ncells, c->id, c->round,
		       c->label, c->status == CELL_DONE ? " [done, kept]" : "");
		prep_args(L, c, &a);
		print_argv(&a);
		argv_free(&a);
		run_args(L, c, &a);
		print_argv(&a);
		argv_free(&a);
		printf("  fslab teardown --mount-root %s\n", L->mnt);
	}
	printf("then: fslab compare <results> --output %s --lab-plan %s\n", L->report,
	       L->plan_path);
}

int cmd_lab(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "resume", no_argument, NULL, 'r' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lab *L = xcalloc(1, sizeof(*L));
	struct sigaction sa = { .sa_handler = on_signal }, oi, ot;
	const char *out_opt = NULL;
	unsigned int failed = 0;
	int c, ret, status = FSLAB_EXIT_USAGE;
	ssize_t n;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			L->resume = true;
			break;
		case 'n':
			L->dry_run = true;
			break;
		case 'o':
			out_opt = optarg;
			break;
		case 'h':
			usage(stdout);
			free(L);
			return FSLAB_EXIT_OK;
		default:
			fslab_err("unknown option '%s'; see 'fslab lab --help'", argv[optind - 1]);
			free(L);
			return FSLAB_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fslab_err("give exactly one lab config, e.g. 'fslab lab configs/demo.ini'; see "
			  "'fslab lab --help'");
		free(L);
		return FSLAB_EXIT_USAGE;
	}
	ret = lab_cfg_load(&L->cfg, argv[optind]);
	if (ret)
		goto out;
	if (read_file(L->cfg.path, &L->config_text, NULL))
		goto out;
	if (out_opt || L->cfg.output)
		L->out = xstrdup(out_opt ? out_opt : L->cfg.output);
	else
		L->out = default_out(L->cfg.path);
	L->mnt = path_join(L->out, "mnt");
	L->results = path_join(L->out, "results");
	L->logs = path_join(L->out, "logs");
	L->report = path_join(L->out, "report");
	L->state_path = path_join(L->out, "lab-state.json");
	L->log_path = path_join(L->out, "lab.log");
	L->plan_path = path_join(L->out, "lab-plan.json");
	n = readlink("/proc/self/exe", L->self, sizeof(L->self) - 1);
	if (n <= 0) {
		fslab_err("cannot find the fslab binary (/proc/self/exe)");
		status = FSLAB_EXIT_FAIL;
		goto out;
	}
	L->self[n] = 0;
	L->tty = isatty(STDOUT_FILENO);
	build_cells(L);

	if (access(L->state_path, F_OK) != 0) {
		/* a new lab; a resumed one runs the order its state recorded */
		if (L->cfg.order_seed_set)
			set_plan(L, L->cfg.order, L->cfg.order_seed, "config");
		else
			set_plan(L, L->cfg.order, lab_plan_time_seed(), "clock");
	}
	if (access(L->state_path, F_OK) == 0) {
		if (!L->resume) {
			input_error("%s already holds a lab (%s): add --resume to continue it, or choose "
				    "another --output", L->out, L->state_path);
			goto out;
		}
		if (load_state(L))
			goto out;
	} else if (L->resume) {
		input_error("%s: nothing to resume (no lab-state.json); run without --resume to "
			    "start the lab", L->out);
		goto out;
	}
	if (L->dry_run) {
		dry_run(L);
		status = preflight(L) ? FSLAB_EXIT_USAGE : FSLAB_EXIT_OK;
		goto out;
	}
	if (preflight(L))
		goto out;

	status = FSLAB_EXIT_FAIL;
	if (mkdir_p(L->results, 0755) || mkdir_p(L->logs, 0755) || mkdir_p(L->mnt, 0755)) {
		fslab_err("%s: cannot create the lab directories: %s", L->out, strerror(errno));
		goto out;
	}
	L->log = fopen(L->log_path, "ae");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &oi);
	sigaction(SIGTERM, &sa, &ot);
	L->t0 = now_ns();
	L->overhead_est = 15 + 2.0 * L->cfg.databases * L->cfg.db_size / 300e6;
	lab_log(L, "lab %s: %u cell(s) = (%d filesystem(s)%s%s) x %d thread count(s) x %u "
		"repeat(s), output %s%s", L->cfg.path, L->ncells, L->cfg.nfs,
		L->cfg.raw_baseline ? " + raw baseline" : "",
		L->cfg.aa_check ? " + A/A copy of the baseline" : "", L->cfg.nthreads,
		L->cfg.repeats, L->out, L->resume ? ", resuming in the recorded order" : "");
	log_plan(L);
	if (write_plan(L))
		goto out_sig;
	/* a crashed earlier lab may have left its volumes prepared */
	teardown(L, L->log_path);
	save_state(L);
	for (L->cur = 0; L->cur < L->ncells && !nsignals; L->cur++) {
		struct cell *cell = &L->cells[L->order[L->cur]];

		if (cell->status == CELL_DONE) {
			lab_log(L, "cell %u/%u %s: already done, kept", L->cur + 1, L->ncells, cell->id);
			continue;
		}
		if (run_cell(L, cell))
			break;
		failed += cell->status == CELL_FAILED;
	}
	if (nsignals) {
		clear_line(L);
		lab_log(L, "lab interrupted: finished cells are kept in %s; continue with: fslab lab "
			"%s --output %s --resume", L->results, L->cfg.path, L->out);
		status = FSLAB_EXIT_FAIL;
		goto out_sig;
	}
	ret = compare_all(L);
	clear_line(L);
	if (ret == 0 || ret == FSLAB_EXIT_VERDICT) {
		char *md = path_join(L->report, "report.md"), *html = path_join(L->report, "report.html");

		lab_log(L, "lab finished in %.0f s: %u cell(s) done, %u failed", (now_ns() - L->t0) / 1e9,
			L->ncells - failed, failed);
		printf("\nReport: %s\n        %s\n", html, md);
		free(md);
		free(html);
		status = failed ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
	}
out_sig:
	sigaction(SIGINT, &oi, NULL);
	sigaction(SIGTERM, &ot, NULL);
out:
	lab_free(L);
	free(L);
	return status;
}
