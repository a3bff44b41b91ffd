// SPDX-License-Identifier: MIT
/*
 * cluster.c: `fslab lab` with [host NAME] sections (issue 20, docs/HOSTS.md): every cell on
 * every host at once, over OpenSSH, through the step runner's host targets (step.h): prep on
 * all hosts, the clocks measured, `fslab run --start-at` on all (the same instant as each
 * host's clock reads it), each result fetched with its sha256 and merged exactly into the
 * cell's cluster result, teardown on all.  A host lost mid-cell (its ssh ends: keepalives,
 * a killed fslab) fails that host's part of the cell; the others' results are kept and the
 * cluster result is partial; a host that cannot be reached any more stops the lab, and its
 * teardown waits for `fslab lab --resume`.  Linux only (fslab.exe does not drive hosts).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/hosts.h"
#include "lab/labP.h"
#include "merge/merge.h"
#include "result.h"
#include "strbuf.h"
#include "utctime.h"

/* ssh's exit status for its own failure (the connection, not the command) */
#define SSH_FAILED HOSTS_SSH_FAILED

/* The result files a host may send back: far above any result (a few MB). */
#define HOST_RESULT_MAX (1ULL << 30)

/* ---- the lab's hosts ---- */

int lab_hosts_open(struct lab *L)
{
	const struct lab_hosts *cfg = &L->cfg.hosts;
	int ret;

	L->nhosts = cfg->n;
	L->hs = xcalloc(1, sizeof(*L->hs));
	if (L->dry_run) {
		/* nothing is contacted or created: the commands as they would be sent */
		L->hs->cfg = cfg;
		L->hs->self = L->target.fslab;
		L->hs->ctl_dir = xstrdup("/tmp/fslab-ssh.XXXXXX");
		L->hs->lab_id = hosts_lab_id(L->out);
		L->hs->st = xcalloc(cfg->n + 1, sizeof(*L->hs->st));
		ret = 0;
	} else {
		ret = hosts_session_init(L->hs, cfg, L->target.fslab, L->out);
	}
	L->htarget = xcalloc(cfg->n, sizeof(*L->htarget));
	L->hlive = xcalloc(cfg->n, sizeof(*L->hlive));
	for (size_t i = 0; i < cfg->n; i++)
		step_target_host(&L->htarget[i], L->hs, i);
	return ret;
}

static void lab_hosts_free_paths(struct lab *L)
{
	for (size_t i = 0; L->hmnt && i < L->nhosts; i++)
		free(L->hmnt[i]);
	free(L->hmnt);
	L->hmnt = NULL;
}

void lab_hosts_close(struct lab *L)
{
	if (!L->hs)
		return;
	lab_hosts_free_paths(L);
	for (size_t i = 0; i < L->nhosts; i++)
		step_target_release(&L->htarget[i]);
	free(L->htarget);
	free(L->hlive);
	hosts_session_end(L->hs);
	free(L->hs);
	free(L->lost);
	L->hs = NULL;
	L->htarget = NULL;
	L->hlive = NULL;
	L->lost = NULL;
}

/* Where host i's steps run: its system, mount root, owner and devices (its own [devices]
 * keys, else the [devices] section's). */
static void host_where(struct lab *L, size_t i, struct lab_where *w)
{
	const struct lab_host *h = &L->cfg.hosts.v[i];
	const struct lab_cfg *c = &L->cfg;
	char *owner = lab_owner(L);

	memset(w, 0, sizeof(*w));
	w->sys = L->htarget[i].sys;
	w->mnt = L->hmnt ? L->hmnt[i] : NULL;
	/* one lab, many hosts on one machine (ssh = local, or the test's namespaces): the host
	 * in the owner keeps their preps apart */
	w->owner = xasprintf("%s host %s", owner, h->name);
	free(owner);
	w->image_dir = lab_host_image_dir(h, c);
	w->db_dev = lab_host_db_dev(h, c);
	w->log_dev = lab_host_log_dev(h, c);
	w->db_image_size = lab_host_db_image_size(h, c);
	w->log_image_size = lab_host_log_image_size(h, c);
	w->db_disk = w->db_dev ? atoi(w->db_dev) : -1;
	w->log_disk = w->log_dev ? atoi(w->log_dev) : -1;
}

static void hosts_paths(struct lab *L)
{
	if (L->hmnt)
		return;
	L->hmnt = xcalloc(L->nhosts, sizeof(char *));
	for (size_t i = 0; i < L->nhosts; i++)
		L->hmnt[i] = hosts_remote_path(&L->cfg.hosts.v[i], L->hs->lab_id, "mnt");
}

/* The result of a cell on host i: there (WORKDIR/<cell>.json: prep made WORKDIR) and here. */
static char *host_remote_result(const struct lab *L, size_t i, const struct cell *cell)
{
	char *rel = xasprintf("%s.json", cell->id);
	char *p = hosts_remote_path(&L->cfg.hosts.v[i], L->hs->lab_id, rel);

	free(rel);
	return p;
}

static char *host_local_result(const struct lab *L, size_t i, const struct cell *cell)
{
	char *name = xasprintf("%s.%s.json", cell->id, L->cfg.hosts.v[i].name);
	char *p = path_join(L->results, name);

	free(name);
	return p;
}

/* ---- several steps at once, one per host ---- */

struct host_ctx {
	struct lab *L;
	size_t i;
};

/* A progress line of host i's fslab run: its part of the live line. */
static void on_host_progress(void *ctx, const char *line)
{
	struct host_ctx *hc = ctx;
	struct lab_host_live *hl = &hc->L->hlive[hc->i];
	json_t *o = json_loads(line, 0, NULL);
	const char *phase;

	if (!o)
		return;
	phase = json_string_value(json_object_get(o, "phase"));
	if (phase) {
		/* the end of its initialisation: the first line (waiting, or warm-up when it
		 * started late) */
		if (!hl->init_s && hl->start_ns)
			hl->init_s = (now_ns() - hl->start_ns) / 1e9 -
				     (strcmp(phase, "waiting") ? 1.0 : 0.0);
		snprintf(hl->phase, sizeof(hl->phase), "%s", phase);
	}
	hl->elapsed = json_number_value(json_object_get(o, "elapsed_s"));
	hl->total = json_number_value(json_object_get(o, "total_s"));
	hl->iops = json_number_value(json_object_get(o, "iops"));
	json_decref(o);
	/* the lab's own figures: the longest host's time, the cluster's IOPS */
	hc->L->run_elapsed = hc->L->run_total = hc->L->iops = 0;
	for (size_t k = 0; k < hc->L->nhosts; k++) {
		const struct lab_host_live *x = &hc->L->hlive[k];

		if (!strcmp(x->phase, "measure"))
			hc->L->iops += x->iops;
		if (x->total > hc->L->run_total) {
			hc->L->run_total = x->total;
			hc->L->run_elapsed = x->elapsed;
		}
	}
}

/* Start WHAT on host i (its log appended to LOGPATH): the step, or NULL with *status set
 * (not started: a stop asked for before it began, its log, or the step itself). */
static struct step *host_step_start(struct lab *L, size_t i, const char *what,
				    const struct strvec *args, const char *logpath, bool progress,
				    bool interruptible, struct host_ctx *ctx, FILE **log, int *status)
{
	struct step_io io = { .progress = progress ? on_host_progress : NULL, .ctx = ctx };
	unsigned int flags = (interruptible ? STEP_STOPPABLE : 0) |
			     (lab_system_killable(L->htarget[i].sys, args) ? STEP_KILLABLE : 0);
	struct lab_host_live *hl = &L->hlive[i];
	struct step *s;
	int ret;

	*ctx = (struct host_ctx){ L, i };
	memset(hl, 0, sizeof(*hl));
	snprintf(hl->phase, sizeof(hl->phase), "%s", what);
	hl->start_ns = now_ns();
	if (interruptible && lab_nsignals) {
		*status = 128 + SIGINT; /* asked to stop before it began: not started */
		return NULL;
	}
	*log = os_fopen(logpath, "a");
	if (!*log) {
		*status = errno ? -errno : -EIO;
		return NULL;
	}
	io.log = *log;
	ret = step_start(&L->htarget[i], args, flags, &io, &s);
	if (ret) {
		fprintf(*log, "fslab lab: cannot start fslab %s on %s: %s\n", args->v[0],
			L->htarget[i].name, strerror(-ret));
		*status = ret;
		return NULL;
	}
	return s;
}

/* Host i's step ended with STATUS; RUNNING steps are left. */
static void host_step_ended(struct lab *L, size_t i, const char *what, int status,
			    size_t running, bool progress)
{
	struct lab_host_live *hl = &L->hlive[i];
	bool ok = status == 0 || status == FSLAB_EXIT_VERDICT;

	hl->end_ns = now_ns();
	snprintf(hl->phase, sizeof(hl->phase), "%s", ok ? "done" : "FAILED");
	if (!ok && running && !lab_nsignals && progress)
		lab_log(L, "host %s: %s ended with status %d after %.1f s (%zu host(s) still "
			"running)", L->cfg.hosts.v[i].name, what, status,
			(hl->end_ns - hl->start_ns) / 1e9, running);
}

/*
 * Run args[i] on every host i not skipped, all at once, each with its log; the lab's stop
 * requests reach them all (the first closes every stdin, the second kills every local ssh).
 * status[i]: its exit status (SSH_FAILED: ssh itself failed), or -errno when it could not
 * start.  A host whose step fails while others still run is logged at once (the time a
 * fault was noticed).
 */
static void host_steps(struct lab *L, const char *what, struct strvec *args, char **logs,
		       bool progress, bool interruptible, const bool *skip, int *status)
{
	size_t n = L->nhosts, running = 0;
	struct step **s = xcalloc(n, sizeof(*s));
	FILE **log = xcalloc(n, sizeof(*log));
	struct host_ctx *ctx = xcalloc(n, sizeof(*ctx));
	sig_atomic_t handled = 0;
	uint64_t last_line = 0;

	L->run_elapsed = L->run_total = L->iops = 0;
	for (size_t i = 0; i < n; i++) {
		status[i] = 0;
		if (skip && skip[i])
			continue;
		s[i] = host_step_start(L, i, what, &args[i], logs[i], progress, interruptible,
				       &ctx[i], &log[i], &status[i]);
		running += !!s[i];
	}
	while (running) {
		if (interruptible && lab_nsignals > handled) {
			for (size_t i = 0; i < n; i++) {
				if (!s[i])
					continue;
				if (!handled)
					step_stop(s[i]);
				else
					step_kill(s[i]);
			}
			handled = lab_nsignals;
		}
		for (size_t i = 0; i < n; i++) {
			int st = 0, r;

			if (!s[i])
				continue;
			/* the output of each as it comes; a short wait on the first still running */
			r = step_poll(s[i], 0, &st);
			if (r == 0)
				continue;
			status[i] = r < 0 ? r : st;
			step_free(s[i]);
			s[i] = NULL;
			running--;
			host_step_ended(L, i, what, status[i], running, progress);
		}
		if (!running)
			break;
		/* no busy loop: up to 100 ms on the first still running, for its output or its
		 * end (collected in the next round; the others' output waits in their pipes) */
		for (size_t i = 0; i < n; i++)
			if (s[i]) {
				int st;

				step_poll(s[i], 100, &st);
				break;
			}
		if (now_ns() - last_line >= NSEC_PER_SEC) {
			lab_live_line(L);
			last_line = now_ns();
		}
	}
	for (size_t i = 0; i < n; i++)
		if (log[i])
			fclose(log[i]);
	free(s);
	free(log);
	free(ctx);
}

static void hosts_teardown(struct lab *L, const char *prefix, const bool *skip);

/* ---- the hosts' preflight ---- */

/* The lines of a step's log that say what failed ("fslab: error: ..."), one line. */
static char *log_errors(FILE *f, const char *fallback)
{
	struct strbuf sb = STRBUF_INIT;
	char line[1024];

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		char *e = strstr(line, "error: ");

		if (!e)
			continue;
		line[strcspn(line, "\r\n")] = 0;
		strbuf_addf(&sb, "%s%s", sb.len ? "; " : "", e + strlen("error: "));
	}
	if (!sb.len)
		strbuf_addstr(&sb, fallback);
	return strbuf_detach(&sb, NULL);
}

int lab_hosts_preflight(struct lab *L)
{
	size_t n = L->nhosts;
	struct strvec *args = xcalloc(n, sizeof(*args));
	char **logs = xcalloc(n, sizeof(char *));
	FILE **tmp = xcalloc(n, sizeof(FILE *));
	int *status = xcalloc(n, sizeof(int));
	unsigned int bad = 0;
	int ret;

	/* reachable in BatchMode, the same fslab build, arguments arriving as data, clocks */
	ret = hosts_preflight(L->hs, 8);
	if (ret)
		goto out;
	hosts_paths(L);
	/*
	 * A resumed lab first takes back what it left on its hosts (a lost host's volumes, a
	 * lab killed mid-cell): its own preps only (--owner), which the dry runs below would
	 * otherwise find in the way.  A new lab has none.
	 */
	if (L->resume)
		hosts_teardown(L, "resume", NULL);
	/*
	 * Each host's own preflight: its prep of every filesystem as a dry run there (root,
	 * mkfs tools, kernel drivers, its devices or image space: what prep checks before it
	 * changes anything), all hosts at once, one filesystem after the other.  Nothing is
	 * created: the logs are temporary files.
	 */
	for (int f = -1; f < L->cfg.nfs && !lab_nsignals; f++) {
		static const struct lab_fs raw = { .name = (char *)"raw", .fs = (char *)"raw" };
		struct cell c = { .id = (char *)"preflight" };

		if (f < 0 && !L->cfg.raw_baseline)
			continue;
		c.fs = f < 0 ? &raw : &L->cfg.fs[f];
		for (size_t i = 0; i < n; i++) {
			struct lab_where w;

			host_where(L, i, &w);
			strvec_clear(&args[i]);
			lab_where_prep_args(L, &w, &c, &args[i]);
			strvec_push(&args[i], "--dry-run");
			lab_where_release(&w);
			tmp[i] = tmpfile();
			free(logs[i]);
			logs[i] = tmp[i] ? xasprintf("/proc/self/fd/%d", fileno(tmp[i])) : xstrdup("/dev/null");
		}
		host_steps(L, "preflight", args, logs, false, false, NULL, status);
		for (size_t i = 0; i < n; i++) {
			if (status[i]) {
				char *why = tmp[i] ? log_errors(tmp[i], "no message") : xstrdup("?");

				fslab_err("preflight: host %s: fslab prep --fs %s --dry-run exited %d: %s",
					  L->cfg.hosts.v[i].name, c.fs->fs, status[i], why);
				free(why);
				bad++;
			}
			if (tmp[i])
				fclose(tmp[i]);
			tmp[i] = NULL;
		}
	}
	lab_clear_line(L);
	if (bad) {
		fslab_err("preflight of the hosts found %u problem(s); nothing was changed on any "
			  "host", bad);
		ret = -FSLAB_EINPUT;
	}
out:
	for (size_t i = 0; i < n; i++) {
		strvec_clear(&args[i]);
		free(logs[i]);
	}
	free(args);
	free(logs);
	free(tmp);
	free(status);
	return ret;
}

/* ---- teardown ---- */

/* Teardown on every host not skipped, at once; logs/<prefix>.<host>.teardown.log. */
static void hosts_teardown(struct lab *L, const char *prefix, const bool *skip)
{
	size_t n = L->nhosts;
	struct strvec *args = xcalloc(n, sizeof(*args));
	char **logs = xcalloc(n, sizeof(char *));
	int *status = xcalloc(n, sizeof(int));
	const char *step = L->step;

	hosts_paths(L);
	L->step = "teardown";
	for (size_t i = 0; i < n; i++) {
		struct lab_where w;
		char *name = xasprintf("%s.%s.teardown.log", prefix, L->cfg.hosts.v[i].name);

		host_where(L, i, &w);
		lab_where_teardown_args(&w, &args[i]);
		lab_where_release(&w);
		logs[i] = path_join(L->logs, name);
		free(name);
	}
	host_steps(L, "teardown", args, logs, false, false, skip, status);
	for (size_t i = 0; i < n; i++) {
		if (!(skip && skip[i]) && status[i])
			lab_log(L, "host %s: teardown of %s exited %d (see %s)",
				L->cfg.hosts.v[i].name, L->hmnt[i], status[i], logs[i]);
		strvec_clear(&args[i]);
		free(logs[i]);
	}
	L->step = step;
	free(args);
	free(logs);
	free(status);
}

/* ---- a cell on every host ---- */

/*
 * Why host i's run gave no result: its exit status, the connection lost (the host's kept
 * connection gone: keepalives found no answer), or a session that ended without one (its
 * fslab killed).  *lost: the host cannot be reached any more.
 */
static char *run_failure(struct lab *L, size_t i, int st, const char *log, double secs,
			 bool *lost)
{
	FILE *f = os_fopen(log, "r");
	char *errs = f ? log_errors(f, "") : xstrdup(""), *why;

	if (f)
		fclose(f);
	*lost = false;
	if (st < 0) {
		why = xasprintf("its run could not be started (%s)", strerror(-st));
	} else if (st == SSH_FAILED && !lab_host_local(&L->cfg.hosts.v[i]) &&
		   !hosts_connected(L->hs, i)) {
		*lost = true;
		why = xasprintf("lost after %.1f s of its run: the ssh connection ended (no answer "
				"to keepalives within %d s: host down or network cut)%s%s", secs,
				HOSTS_ALIVE_INTERVAL * (HOSTS_ALIVE_COUNT + 1), *errs ? ": " : "",
				errs);
	} else if (st == SSH_FAILED && !lab_host_local(&L->cfg.hosts.v[i])) {
		why = xasprintf("its run ended after %.1f s without an exit status (the fslab "
				"there was killed, or its ssh session failed)%s%s", secs,
				*errs ? ": " : "", errs);
	} else if (st >= 128 && st < SSH_FAILED) {
		why = xasprintf("its run was ended by signal %d after %.1f s%s%s", st - 128, secs,
				*errs ? ": " : "", errs);
	} else {
		why = xasprintf("its run exited %d after %.1f s%s%s (see %s)", st, secs,
				*errs ? ": " : "", errs, log);
	}
	free(errs);
	return why;
}

/* The seconds the hosts need from their run's start to the end of its initialisation, with
 * a margin: the longest seen so far, else an estimate (50 MB/s, conservative) */
static double start_ahead(const struct lab *L)
{
	double init = L->init_max > 0 ? L->init_max * 1.5 + 2
				       : L->cfg.wl.databases * (double)L->cfg.wl.db_size / 50e6 + 10;

	return MAX(init, 3.0);
}

/* One cluster cell in the making: what lab_cluster_cell()'s steps share, a slot per host. */
struct ccell {
	struct lab *L;
	struct cell *cell;
	size_t n;
	struct strvec *args;
	char **logs, **starts, **local, **missing, **prep_json;
	int *status;
	bool *lost, any_lost, verdict_fail;
	uint64_t t0, t_run;
	struct strbuf lostmsg; /* "h2 lost (during prep), ..." */
};

static void cc_init(struct ccell *c, struct lab *L, struct cell *cell)
{
	size_t n = L->nhosts;

	*c = (struct ccell){ .L = L, .cell = cell, .n = n, .t0 = now_ns(),
			     .lostmsg = STRBUF_INIT };
	c->args = xcalloc(n, sizeof(*c->args));
	c->logs = xcalloc(n, sizeof(char *));
	c->starts = xcalloc(n, sizeof(char *));
	c->local = xcalloc(n, sizeof(char *));
	c->missing = xcalloc(n, sizeof(char *));
	c->prep_json = xcalloc(n, sizeof(char *));
	c->status = xcalloc(n, sizeof(int));
	c->lost = xcalloc(n, sizeof(bool));
}

static void cc_release(struct ccell *c)
{
	for (size_t i = 0; i < c->n; i++) {
		strvec_clear(&c->args[i]);
		free(c->logs[i]);
		free(c->starts[i]);
		free(c->local[i]);
		free(c->missing[i]);
		free(c->prep_json[i]);
	}
	free(c->args);
	free(c->logs);
	free(c->starts);
	free(c->local);
	free(c->missing);
	free(c->prep_json);
	free(c->status);
	free(c->lost);
	strbuf_release(&c->lostmsg);
}

/* Host i is lost (its ssh connection is gone) WHEN ("during prep"). */
static void cc_lost(struct ccell *c, size_t i, const char *when)
{
	c->lost[i] = c->any_lost = true;
	strbuf_addf(&c->lostmsg, "%s%s lost (%s)", c->lostmsg.len ? ", " : "",
		    c->L->cfg.hosts.v[i].name, when);
}

/* The cell's first failure, on host i: it is the one the cell's error says. */
static void cc_error(struct ccell *c, size_t i, const char *why)
{
	if (!c->cell->error)
		c->cell->error = xasprintf("host %s: %s", c->L->cfg.hosts.v[i].name, why);
}

/* Replace host i's log path with <cell>.<host>.STEP.log. */
static void cc_log(struct ccell *c, size_t i, const char *step)
{
	char *name = xasprintf("%s.%s.%s.log", c->cell->id, c->L->cfg.hosts.v[i].name, step);

	free(c->logs[i]);
	c->logs[i] = path_join(c->L->logs, name);
	free(name);
}

/* prep on every host at once; a raw cell's prep.json fetched from each.  0 or -1 (failed
 * or interrupted: cell->error or lab_nsignals says which). */
static int cc_prep(struct ccell *c)
{
	struct lab *L = c->L;
	struct cell *cell = c->cell;
	char where[48];

	L->step = "prep";
	lab_log(L, "cell %u/%u %s: prep %s on %zu hosts (%s, label %s)", L->cur + 1, L->ncells,
		cell->id, cell->fs->fs, c->n, lab_cell_where(L, cell, where, sizeof(where)),
		cell->label);
	for (size_t i = 0; i < c->n; i++) {
		struct lab_where w;

		host_where(L, i, &w);
		lab_where_prep_args(L, &w, cell, &c->args[i]);
		lab_where_release(&w);
		cc_log(c, i, "prep");
	}
	host_steps(L, "prep", c->args, c->logs, false, true, NULL, c->status);
	for (size_t i = 0; i < c->n; i++) {
		char *why;

		if (!c->status[i] || lab_nsignals)
			continue;
		if (c->status[i] == SSH_FAILED && !hosts_connected(L->hs, i))
			cc_lost(c, i, "during prep");
		if (cell->error)
			continue;
		why = lab_prep_failure(L, c->status[i], c->logs[i]);
		cc_error(c, i, why);
		free(why);
	}
	if (lab_nsignals || cell->error)
		return -1;

	/* a raw cell runs on the devices each host's prep attached: its prep.json */
	if (strcmp(cell->fs->fs, "raw"))
		return 0;
	for (size_t i = 0; i < c->n; i++) {
		char *rel = xasprintf("%s.%s.prep.json", cell->id, L->cfg.hosts.v[i].name);
		char *remote = path_join(L->hmnt[i], "prep.json");
		char hex[SHA256_HEX_LEN + 1];
		struct strbuf msg = STRBUF_INIT;
		int ret;

		c->prep_json[i] = path_join(L->logs, rel);
		free(rel);
		ret = hosts_fetch(L->hs, i, remote, c->prep_json[i], 16 << 20, hex, &msg);
		if (ret == -ENOTCONN)
			cc_lost(c, i, "during prep");
		if (ret)
			cc_error(c, i, msg.buf);
		strbuf_release(&msg);
		free(remote);
	}
	return cell->error ? -1 : 0;
}

/* The clocks again (drift since the last cell), then one start for all: starts[].  0 or -1
 * (cell->error says why). */
static int cc_clocks(struct ccell *c)
{
	struct lab *L = c->L;
	double lo = INFINITY, hi = -INFINITY;
	char when[40];
	int64_t t;

	for (size_t i = 0; i < c->n; i++) {
		struct host_state *st = &L->hs->st[i];

		free(st->problem);
		st->problem = NULL;
		if (hosts_clock(L->hs, i, 4)) {
			if (!hosts_connected(L->hs, i))
				cc_lost(c, i, "before its run");
			cc_error(c, i, st->problem ? st->problem : "no clock");
		}
	}
	if (c->cell->error)
		return -1;
	for (size_t i = 0; i < c->n; i++) {
		lo = MIN(lo, L->hs->st[i].offset_s);
		hi = MAX(hi, L->hs->st[i].offset_s);
	}
	if (hi - lo > L->cfg.hosts.clock_limit_s) {
		c->cell->error = xasprintf("the hosts' clocks are %.3f s apart, more than "
					   "clock_limit = %g s: synchronise them (chrony or NTP)",
					   hi - lo, L->cfg.hosts.clock_limit_s);
		return -1;
	}
	hosts_start_times(L->hs, (int64_t)(start_ahead(L) * 1e9), &t, c->starts);
	L->step = "run";
	lab_log(L, "cell %u/%u %s: run %s, %u threads, on %zu hosts, starting together at "
		"%s (this machine's clock; in %.1f s), clocks within %.1f ms", L->cur + 1,
		L->ncells, c->cell->id, L->cfg.wl.workload, c->cell->threads, c->n,
		utc_format(when, sizeof(when), t), start_ahead(L), (hi - lo) * 1e3);
	return 0;
}

/* `fslab run --start-at` on every host. */
static void cc_run(struct ccell *c)
{
	struct lab *L = c->L;

	for (size_t i = 0; i < c->n; i++) {
		struct lab_where w;
		char *remote = host_remote_result(L, i, c->cell);

		host_where(L, i, &w);
		w.output = remote;
		w.start_at = c->starts[i];
		w.prep_json = c->prep_json[i];
		strvec_clear(&c->args[i]);
		lab_where_run_args(L, &w, c->cell, &c->args[i]);
		lab_where_release(&w);
		free(remote);
		cc_log(c, i, "run");
	}
	c->t_run = now_ns();
	host_steps(L, "run", c->args, c->logs, true, true, NULL, c->status);
	for (size_t i = 0; i < c->n; i++)
		if (L->hlive[i].init_s > L->init_max)
			L->init_max = L->hlive[i].init_s;
}

/* Host i's result fetched (sha256 checked) into local[i], or missing[i] says why not.  true
 * if it is there. */
static bool cc_fetch_result(struct ccell *c, size_t i)
{
	struct lab *L = c->L;
	const struct lab_host_live *hl = &L->hlive[i];
	double secs = (hl->end_ns && hl->start_ns ? hl->end_ns - hl->start_ns
						 : now_ns() - c->t_run) / 1e9;
	int ret;

	if (c->status[i] == 0 || c->status[i] == FSLAB_EXIT_VERDICT) {
		char *remote = host_remote_result(L, i, c->cell);
		char hex[SHA256_HEX_LEN + 1];
		struct strbuf msg = STRBUF_INIT;

		c->verdict_fail |= c->status[i] == FSLAB_EXIT_VERDICT;
		ret = hosts_fetch(L->hs, i, remote, c->local[i], HOST_RESULT_MAX, hex, &msg);
		if (ret == -ENOTCONN) {
			/* its link went down meanwhile: lost, its volumes left for --resume */
			c->missing[i] = xasprintf("lost while its result was fetched: %s", msg.buf);
			cc_lost(c, i, "while its result was fetched");
		} else if (ret) {
			c->missing[i] = xasprintf("its result could not be fetched: %s", msg.buf);
		}
		strbuf_release(&msg);
		free(remote);
	} else {
		c->missing[i] = run_failure(L, i, c->status[i], c->logs[i], secs, &c->lost[i]);
		if (c->lost[i])
			cc_lost(c, i, "during its run");
	}
	if (c->missing[i])
		lab_log(L, "cell %u/%u %s: host %s: %s", L->cur + 1, L->ncells, c->cell->id,
			L->cfg.hosts.v[i].name, c->missing[i]);
	return !c->missing[i];
}

/* Each host's result back; what failed is missing, with why; all merged exactly into the
 * cell's result.  0, or -1 with cell->error (none, or only a partial cluster result). */
static int cc_merge(struct ccell *c)
{
	struct lab *L = c->L;
	struct cell *cell = c->cell;
	struct merge_input *in = xcalloc(c->n, sizeof(*in));
	struct merge_opts mo = { .label = cell->label, .clock_limit_s = L->cfg.hosts.clock_limit_s };
	struct fslab_result r;
	unsigned int complete = 0;
	int ret;

	for (size_t i = 0; i < c->n; i++) {
		const struct host_state *st = &L->hs->st[i];

		in[i] = (struct merge_input){ .name = L->cfg.hosts.v[i].name,
					      .offset_s = st->clock ? st->offset_s : NAN,
					      .rtt_s = st->clock ? st->rtt_s : NAN };
		if (cc_fetch_result(c, i)) {
			in[i].file = c->local[i];
			complete++;
		}
		in[i].missing = c->missing[i];
	}
	if (!complete) {
		cell->error = xasprintf("no host has a result (%s: %s)", in[0].name,
					c->missing[0] ? c->missing[0] : "?");
		free(in);
		return -1;
	}
	fslab_set_quiet(true);
	ret = merge_results(in, c->n, &mo, &r);
	fslab_set_quiet(false);
	if (!ret)
		ret = result_write(&r, cell->result);
	if (ret) {
		cell->error = xasprintf("the hosts' results could not be merged into %s (%s): "
					"fslab merge %s/%s.*.json says why", cell->result,
					ret == -FSLAB_EINPUT ? "they are not one cell" : strerror(-ret),
					L->results, cell->id);
	} else if (r.cluster.partial) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < c->n; i++)
			if (c->missing[i])
				strbuf_addf(&sb, "%s%s: %s", sb.len ? "; " : "", in[i].name,
					    c->missing[i]);
		cell->error = xasprintf("partial cluster result %s: %u of %zu hosts complete (%s)",
					cell->result, r.cluster.complete, c->n, sb.buf);
		strbuf_release(&sb);
	} else {
		lab_log(L, "cell %u/%u %s: merged %zu hosts into %s: loads started within %.1f ms",
			L->cur + 1, L->ncells, cell->id, c->n, cell->result,
			isfinite(r.cluster.start_spread_s) ? r.cluster.start_spread_s * 1e3 : NAN);
	}
	result_release(&r);
	free(in);
	return cell->error ? -1 : 0;
}

static void cc_done(struct ccell *c)
{
	struct lab *L = c->L;
	struct cell *cell = c->cell;

	cell->status = CELL_DONE;
	cell->seconds = (now_ns() - c->t0) / 1e9;
	lab_save_state(L);
	hosts_teardown(L, cell->id, NULL);
	lab_count_overhead(L, cell);
	cell->wall = (now_ns() - c->t0) / 1e9;
	lab_log(L, "cell %u/%u %s: done in %.0f s on %zu hosts%s, result %s", L->cur + 1,
		L->ncells, cell->id, cell->seconds, c->n,
		c->verdict_fail ? " (Jetstress verdict FAIL on a host)" : "", cell->result);
}

/* The cell failed or was interrupted: teardown at once on every host that can be reached, a
 * lost one at --resume (L->lost says which, and how to take its volumes back by hand).
 * 1 if interrupted, 2 if a host was lost, else 0. */
static int cc_fail(struct ccell *c)
{
	struct lab *L = c->L;
	struct cell *cell = c->cell;

	hosts_teardown(L, cell->id, c->lost);
	cell->seconds = (now_ns() - c->t0) / 1e9;
	cell->wall = cell->seconds;
	if (lab_nsignals) {
		cell->status = CELL_INTERRUPTED;
		lab_log(L, "cell %u/%u %s: interrupted; everything it mounted or attached on the "
			"hosts is removed", L->cur + 1, L->ncells, cell->id);
	} else {
		cell->status = CELL_FAILED;
		lab_log(L, "cell %u/%u %s: FAILED: %s", L->cur + 1, L->ncells, cell->id, cell->error);
	}
	if (!c->any_lost)
		return lab_nsignals ? 1 : 0;
	strbuf_addstr(&c->lostmsg, "; its volumes stay until fslab lab --resume reaches it, or "
		      "tear them down there with:");
	for (size_t i = 0; i < c->n; i++) {
		struct strvec a = STRVEC_INIT;
		struct lab_where w;

		if (!c->lost[i])
			continue;
		host_where(L, i, &w);
		strvec_push(&a, lab_host_fslab(&L->cfg.hosts.v[i]));
		lab_where_teardown_args(&w, &a);
		strbuf_addf(&c->lostmsg, " (on %s) ", L->cfg.hosts.v[i].name);
		strbuf_add_argv_sq(&c->lostmsg, a.v);
		strvec_clear(&a);
		lab_where_release(&w);
	}
	free(L->lost);
	L->lost = strbuf_detach(&c->lostmsg, NULL);
	return 2;
}

int lab_cluster_cell(struct lab *L, struct cell *cell)
{
	struct ccell c;
	int ret = 0;

	cc_init(&c, L, cell);
	hosts_paths(L);
	cell->status = CELL_RUNNING;
	free(cell->error);
	cell->error = NULL;
	os_unlink(cell->result);
	for (size_t i = 0; i < c.n; i++) {
		c.local[i] = host_local_result(L, i, cell);
		os_unlink(c.local[i]);
	}
	lab_save_state(L);

	if (cc_prep(&c) || cc_clocks(&c))
		goto fail;
	cc_run(&c);
	if (lab_nsignals || cc_merge(&c))
		goto fail;
	cc_done(&c);
	goto out;
fail:
	ret = cc_fail(&c);
out:
	lab_save_state(L);
	cc_release(&c);
	return ret;
}

/* ---- --dry-run ---- */

/* A command line as a user would type it in a POSIX shell. */
static void print_argv(const char *prefix, const struct strvec *v)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, prefix);
	for (size_t i = 0; i < v->nr; i++) {
		strbuf_addch(&sb, ' ');
		strbuf_add_sq(&sb, v->v[i]);
	}
	puts(sb.buf);
	strbuf_release(&sb);
}

/* One step on host i as it would be sent: the command string ssh hands the host's shell
 * (exactly), or for ssh = local the argv this machine runs. */
static void dry_step(struct lab *L, size_t i, struct strvec *args, bool stoppable)
{
	struct strvec argv = STRVEC_INIT;
	const char *why = NULL;
	char *prefix = xasprintf("  [%s]", L->cfg.hosts.v[i].name);

	if (step_argv(&L->htarget[i], args, stoppable, &argv, &why))
		printf("%s cannot be sent: %s\n", prefix, why);
	else if (lab_host_local(&L->cfg.hosts.v[i]))
		print_argv(prefix, &argv);
	else
		printf("%s %s\n", prefix, argv.v[argv.nr - 1]);
	free(prefix);
	strvec_clear(&argv);
}

void lab_hosts_dry_run_head(struct lab *L)
{
	struct strvec a = STRVEC_INIT;

	hosts_ssh_argv(&L->cfg.hosts, &L->cfg.hosts.v[0], L->hs->ctl_dir, "COMMAND", &a);
	strvec_pop(&a);
	strvec_pop(&a);
	strvec_pushl(&a, "DESTINATION", "COMMAND", NULL);
	print_argv("Each step on a host (over its kept connection):", &a);
	printf("  with DESTINATION its ssh = ... and the COMMAND shown for it below, as the host's "
	       "shell receives it (ssh = local: the command this machine runs)\n");
	strvec_clear(&a);
}

void lab_hosts_dry_run(struct lab *L, const struct cell *c)
{
	hosts_paths(L);
	for (size_t i = 0; i < L->nhosts; i++) {
		struct strvec a = STRVEC_INIT;
		struct lab_where w;
		char *remote = host_remote_result(L, i, c);

		host_where(L, i, &w);
		lab_where_prep_args(L, &w, c, &a);
		dry_step(L, i, &a, true);
		strvec_clear(&a);
		w.output = remote;
		w.start_at = "<the common start, on this host's clock>";
		lab_where_run_args(L, &w, c, &a);
		dry_step(L, i, &a, true);
		strvec_clear(&a);
		lab_where_teardown_args(&w, &a);
		dry_step(L, i, &a, false);
		strvec_clear(&a);
		lab_where_release(&w);
		free(remote);
	}
}
