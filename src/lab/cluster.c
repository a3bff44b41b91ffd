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
#define SSH_FAILED 255

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
	w->os = L->htarget[i].os;
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

/* Windows prep and teardown are never killed (child.c's rule, here for a host's). */
static bool host_killable(const struct step_target *t, const struct strvec *args)
{
	return !(t->os == LAB_OS_WINDOWS && args->nr &&
		 (!strcmp(args->v[0], "prep") || !strcmp(args->v[0], "teardown")));
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
		struct step_io io = { .progress = progress ? on_host_progress : NULL, .ctx = &ctx[i] };
		unsigned int flags = (interruptible ? STEP_STOPPABLE : 0) |
				     (host_killable(&L->htarget[i], &args[i]) ? STEP_KILLABLE : 0);
		struct lab_host_live *hl = &L->hlive[i];
		int ret;

		status[i] = 0;
		if (skip && skip[i])
			continue;
		ctx[i] = (struct host_ctx){ L, i };
		memset(hl, 0, sizeof(*hl));
		snprintf(hl->phase, sizeof(hl->phase), "%s", what);
		hl->start_ns = now_ns();
		if (interruptible && lab_nsignals) {
			status[i] = 128 + SIGINT; /* asked to stop before it began: not started */
			continue;
		}
		log[i] = os_fopen(logs[i], "a");
		if (!log[i]) {
			status[i] = errno ? -errno : -EIO;
			continue;
		}
		io.log = log[i];
		ret = step_start(&L->htarget[i], &args[i], flags, &io, &s[i]);
		if (ret) {
			fprintf(log[i], "fslab lab: cannot start fslab %s on %s: %s\n", args[i].v[0],
				L->htarget[i].name, strerror(-ret));
			status[i] = ret;
			s[i] = NULL;
			continue;
		}
		running++;
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
			L->hlive[i].end_ns = now_ns();
			step_free(s[i]);
			s[i] = NULL;
			running--;
			snprintf(L->hlive[i].phase, sizeof(L->hlive[i].phase), "%s",
				 status[i] == 0 || status[i] == FSLAB_EXIT_VERDICT ? "done" : "FAILED");
			if (status[i] && status[i] != FSLAB_EXIT_VERDICT && running && !lab_nsignals &&
			    progress)
				lab_log(L, "host %s: %s ended with status %d after %.1f s (%zu host(s) "
					"still running)", L->cfg.hosts.v[i].name, what, status[i],
					(now_ns() - L->hlive[i].start_ns) / 1e9, running);
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

int lab_cluster_cell(struct lab *L, struct cell *cell)
{
	size_t n = L->nhosts;
	struct strvec *args = xcalloc(n, sizeof(*args));
	char **logs = xcalloc(n, sizeof(char *)), **starts = xcalloc(n, sizeof(char *));
	char **local = xcalloc(n, sizeof(char *)), **missing = xcalloc(n, sizeof(char *));
	char **prep_json = xcalloc(n, sizeof(char *));
	int *status = xcalloc(n, sizeof(int));
	bool *lost = xcalloc(n, sizeof(bool)), any_lost = false, verdict_fail = false;
	uint64_t t0 = now_ns(), t_run;
	struct strbuf lostmsg = STRBUF_INIT;
	int ret = 0;

	hosts_paths(L);
	cell->status = CELL_RUNNING;
	free(cell->error);
	cell->error = NULL;
	os_unlink(cell->result);
	for (size_t i = 0; i < n; i++) {
		local[i] = host_local_result(L, i, cell);
		os_unlink(local[i]);
	}
	lab_save_state(L);

	/* prep on every host at once */
	L->step = "prep";
	lab_log(L, "cell %u/%u %s: prep %s on %zu hosts (round %u/%u, label %s)", L->cur + 1,
		L->ncells, cell->id, cell->fs->fs, n, cell->round, L->cfg.repeats, cell->label);
	for (size_t i = 0; i < n; i++) {
		struct lab_where w;
		char *name = xasprintf("%s.%s.prep.log", cell->id, L->cfg.hosts.v[i].name);

		host_where(L, i, &w);
		lab_where_prep_args(L, &w, cell, &args[i]);
		lab_where_release(&w);
		logs[i] = path_join(L->logs, name);
		free(name);
	}
	host_steps(L, "prep", args, logs, false, true, NULL, status);
	for (size_t i = 0; i < n; i++) {
		if (!status[i] || lab_nsignals)
			continue;
		if (status[i] == SSH_FAILED && !hosts_connected(L->hs, i)) {
			lost[i] = any_lost = true;
			strbuf_addf(&lostmsg, "%s%s lost (during prep)", lostmsg.len ? ", " : "",
				    L->cfg.hosts.v[i].name);
		}
		if (!cell->error) {
			char *why = lab_prep_failure(L, status[i], logs[i]);

			cell->error = xasprintf("host %s: %s", L->cfg.hosts.v[i].name, why);
			free(why);
		}
	}
	if (lab_nsignals || cell->error)
		goto fail;

	/* a raw cell runs on the devices each host's prep attached: its prep.json */
	if (!strcmp(cell->fs->fs, "raw")) {
		for (size_t i = 0; i < n; i++) {
			char *rel = xasprintf("%s.%s.prep.json", cell->id, L->cfg.hosts.v[i].name);
			char *remote = path_join(L->hmnt[i], "prep.json");
			char hex[SHA256_HEX_LEN + 1];
			struct strbuf msg = STRBUF_INIT;

			prep_json[i] = path_join(L->logs, rel);
			free(rel);
			if (hosts_fetch(L->hs, i, remote, prep_json[i], 16 << 20, hex, &msg) &&
			    !cell->error)
				cell->error = xasprintf("host %s: %s", L->cfg.hosts.v[i].name, msg.buf);
			strbuf_release(&msg);
			free(remote);
		}
		if (cell->error)
			goto fail;
	}

	/* the clocks again (drift since the last cell), then one start for all */
	for (size_t i = 0; i < n; i++) {
		struct host_state *st = &L->hs->st[i];

		free(st->problem);
		st->problem = NULL;
		if (hosts_clock(L->hs, i, 4)) {
			lost[i] = any_lost = !hosts_connected(L->hs, i);
			if (lost[i])
				strbuf_addf(&lostmsg, "%s%s lost (before its run)", lostmsg.len ? ", " : "",
					    L->cfg.hosts.v[i].name);
			if (!cell->error)
				cell->error = xasprintf("host %s: %s", L->cfg.hosts.v[i].name,
							st->problem ? st->problem : "no clock");
		}
	}
	if (cell->error)
		goto fail;
	{
		double lo = INFINITY, hi = -INFINITY;
		int64_t t;

		for (size_t i = 0; i < n; i++) {
			lo = MIN(lo, L->hs->st[i].offset_s);
			hi = MAX(hi, L->hs->st[i].offset_s);
		}
		if (hi - lo > L->cfg.hosts.clock_limit_s) {
			cell->error = xasprintf("the hosts' clocks are %.3f s apart, more than "
						"clock_limit = %g s: synchronise them (chrony or NTP)",
						hi - lo, L->cfg.hosts.clock_limit_s);
			goto fail;
		}
		char when[40];

		hosts_start_times(L->hs, (int64_t)(start_ahead(L) * 1e9), &t, starts);
		L->step = "run";
		lab_log(L, "cell %u/%u %s: run %s, %u threads, on %zu hosts, starting together at "
			"%s (this machine's clock; in %.1f s), clocks within %.1f ms", L->cur + 1,
			L->ncells, cell->id, L->cfg.wl.workload, cell->threads, n,
			utc_format(when, sizeof(when), t), start_ahead(L), (hi - lo) * 1e3);
	}
	for (size_t i = 0; i < n; i++) {
		struct lab_where w;
		char *remote = host_remote_result(L, i, cell);
		char *name = xasprintf("%s.%s.run.log", cell->id, L->cfg.hosts.v[i].name);

		host_where(L, i, &w);
		w.output = remote;
		w.start_at = starts[i];
		w.prep_json = prep_json[i];
		strvec_clear(&args[i]);
		lab_where_run_args(L, &w, cell, &args[i]);
		lab_where_release(&w);
		free(remote);
		free(logs[i]);
		logs[i] = path_join(L->logs, name);
		free(name);
	}
	t_run = now_ns();
	host_steps(L, "run", args, logs, true, true, NULL, status);
	for (size_t i = 0; i < n; i++)
		if (L->hlive[i].init_s > L->init_max)
			L->init_max = L->hlive[i].init_s;
	if (lab_nsignals)
		goto fail;

	/* each host's result back, sha256 checked; what failed is missing, with why */
	{
		struct merge_input *in = xcalloc(n, sizeof(*in));
		struct merge_opts mo = { .label = cell->label,
					 .clock_limit_s = L->cfg.hosts.clock_limit_s };
		struct fslab_result r;
		unsigned int complete = 0;

		for (size_t i = 0; i < n; i++) {
			const struct host_state *st = &L->hs->st[i];
			const struct lab_host_live *hl = &L->hlive[i];
			double secs = (hl->end_ns && hl->start_ns ? hl->end_ns - hl->start_ns
								 : now_ns() - t_run) / 1e9;

			in[i] = (struct merge_input){ .name = L->cfg.hosts.v[i].name,
						      .offset_s = st->clock ? st->offset_s : NAN,
						      .rtt_s = st->clock ? st->rtt_s : NAN };
			if (status[i] == 0 || status[i] == FSLAB_EXIT_VERDICT) {
				char *remote = host_remote_result(L, i, cell);
				char hex[SHA256_HEX_LEN + 1];
				struct strbuf msg = STRBUF_INIT;

				verdict_fail |= status[i] == FSLAB_EXIT_VERDICT;
				if (hosts_fetch(L->hs, i, remote, local[i], HOST_RESULT_MAX, hex, &msg)) {
					missing[i] = xasprintf("its result could not be fetched: %s",
							       msg.buf);
				} else {
					in[i].file = local[i];
					complete++;
				}
				strbuf_release(&msg);
				free(remote);
			} else {
				missing[i] = run_failure(L, i, status[i], logs[i], secs, &lost[i]);
				if (lost[i]) {
					any_lost = true;
					strbuf_addf(&lostmsg, "%s%s lost (during its run)",
						    lostmsg.len ? ", " : "", L->cfg.hosts.v[i].name);
				}
			}
			if (missing[i]) {
				in[i].missing = missing[i];
				lab_log(L, "cell %u/%u %s: host %s: %s", L->cur + 1, L->ncells, cell->id,
					in[i].name, missing[i]);
			}
		}
		if (!complete) {
			cell->error = xasprintf("no host has a result (%s: %s)", in[0].name,
						missing[0] ? missing[0] : "?");
			free(in);
			goto fail;
		}
		fslab_set_quiet(true);
		ret = merge_results(in, n, &mo, &r);
		fslab_set_quiet(false);
		if (!ret)
			ret = result_write(&r, cell->result);
		if (ret) {
			cell->error = xasprintf("the hosts' results could not be merged into %s (%s): "
						"fslab merge %s/%s.*.json says why", cell->result,
						ret == -FSLAB_EINPUT ? "they are not one cell"
						: strerror(-ret), L->results, cell->id);
			result_release(&r);
			free(in);
			ret = 0;
			goto fail;
		}
		if (r.cluster.partial) {
			struct strbuf sb = STRBUF_INIT;

			for (size_t i = 0; i < n; i++)
				if (missing[i])
					strbuf_addf(&sb, "%s%s: %s", sb.len ? "; " : "", in[i].name,
						    missing[i]);
			cell->error = xasprintf("partial cluster result %s: %u of %zu hosts complete "
						"(%s)", cell->result, r.cluster.complete, n, sb.buf);
			strbuf_release(&sb);
		} else {
			lab_log(L, "cell %u/%u %s: merged %zu hosts into %s: loads started within "
				"%.1f ms", L->cur + 1, L->ncells, cell->id, n, cell->result,
				isfinite(r.cluster.start_spread_s) ? r.cluster.start_spread_s * 1e3
								    : NAN);
		}
		result_release(&r);
		free(in);
		if (cell->error)
			goto fail;
	}
	cell->status = CELL_DONE;
	cell->seconds = (now_ns() - t0) / 1e9;
	lab_save_state(L);
	hosts_teardown(L, cell->id, NULL);
	{
		double over = cell->seconds - (L->cfg.wl.warmup_s + L->cfg.wl.duration_s);

		L->overhead_est = (L->overhead_est * L->overhead_n + MAX(over, 0.0)) /
				  (L->overhead_n + 1);
		L->overhead_n++;
	}
	cell->wall = (now_ns() - t0) / 1e9;
	lab_log(L, "cell %u/%u %s: done in %.0f s on %zu hosts%s, result %s", L->cur + 1,
		L->ncells, cell->id, cell->seconds, n,
		verdict_fail ? " (Jetstress verdict FAIL on a host)" : "", cell->result);
	goto out;
fail:
	/* teardown at once on every host that can be reached; a lost one at --resume */
	hosts_teardown(L, cell->id, lost);
	cell->seconds = (now_ns() - t0) / 1e9;
	cell->wall = cell->seconds;
	if (lab_nsignals) {
		cell->status = CELL_INTERRUPTED;
		lab_log(L, "cell %u/%u %s: interrupted; everything it mounted or attached on the "
			"hosts is removed", L->cur + 1, L->ncells, cell->id);
		ret = 1;
	} else {
		cell->status = CELL_FAILED;
		lab_log(L, "cell %u/%u %s: FAILED: %s", L->cur + 1, L->ncells, cell->id, cell->error);
	}
	if (any_lost) {
		/* which hosts, and how to take their volumes back by hand */
		strbuf_addstr(&lostmsg, "; its volumes stay until fslab lab --resume reaches it, or "
			      "tear them down there with:");
		for (size_t i = 0; i < n; i++) {
			struct strvec a = STRVEC_INIT;
			struct lab_where w;

			if (!lost[i])
				continue;
			host_where(L, i, &w);
			strvec_push(&a, lab_host_fslab(&L->cfg.hosts.v[i]));
			lab_where_teardown_args(&w, &a);
			strbuf_addf(&lostmsg, " (on %s) ", L->cfg.hosts.v[i].name);
			strbuf_add_argv_sq(&lostmsg, a.v);
			strvec_clear(&a);
			lab_where_release(&w);
		}
		free(L->lost);
		L->lost = strbuf_detach(&lostmsg, NULL);
		ret = 2;
	}
out:
	lab_save_state(L);
	for (size_t i = 0; i < n; i++) {
		strvec_clear(&args[i]);
		free(logs[i]);
		free(starts[i]);
		free(local[i]);
		free(missing[i]);
		free(prep_json[i]);
	}
	free(args);
	free(logs);
	free(starts);
	free(local);
	free(missing);
	free(prep_json);
	free(status);
	free(lost);
	strbuf_release(&lostmsg);
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
